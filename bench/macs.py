"""Multiply-adds per output token of greedy decoding, counted from the model's
dimensions and the actual sentences (bench/speed.sh): what a translation
costs the integer kernels at the least, and so the most tokens per second
the measured kernel peak allows.

  /usr/bin/python3 bench/macs.py INFO.txt SRC.txt HYP.txt SRC.model TGT.model VMAP.txt PEAK_GOPS

INFO.txt is `nmt info MODEL`'s output (its key=value dimensions); HYP.txt
the greedy translations of SRC.txt; VMAP.txt the vocabulary map the model
was packed with (each sentence's shortlist sets its output layer's size).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'train'))
import sentencepiece as spm  # noqa: E402


def read_dims(path):
    dims = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.strip().partition('=')
            if sep and v.isdigit():
                dims[k] = int(v)
    return dims


def read_vmap(path):
    """zero-gram targets and {source n-gram tuple: targets} of a vmap.txt."""
    zero, entries = set(), {}
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            src, _, tgt = line.rstrip('\n').partition('\t')
            ids = [int(x) for x in tgt.split()]
            if src == '':
                zero.update(ids)
            else:
                entries.setdefault(tuple(int(x) for x in src.split()), set()).update(ids)
    return zero, entries


def shortlist_size(src_ids, zero, entries, eos, max_n=3):
    out = set(zero) | {eos}
    for i in range(len(src_ids)):
        for n in range(1, max_n + 1):
            out |= entries.get(tuple(src_ids[i:i + n]), set())
    return len(out)


def main():
    info, src_path, hyp_path, spm_src, spm_tgt, vmap_path, peak = sys.argv[1:8]
    d = read_dims(info)
    e, re, r, a, f = d['emb'], d['enc_hidden'], d['dec_hidden'], d['att'], d['fc']
    sp_src = spm.SentencePieceProcessor(model_file=spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=spm_tgt)
    zero, entries = read_vmap(vmap_path)
    max_n = max((len(k) for k in entries), default=1)
    src_lines = open(src_path).read().splitlines()
    hyp_lines = open(hyp_path).read().splitlines()

    enc_per_src = 0
    for layer in range(d['enc_layers']):
        inp = e if layer == 0 else 2 * re
        enc_per_src += 2 * (3 * re * inp + 3 * re * re)
    enc_per_src += a * 2 * re  # attention keys
    enc_per_src += 3 * r * 2 * re  # the projected states W_ih,c s_j (docs/DESIGN.md §4)
    dec_fixed = r * a + e * a + 3 * r * e + 3 * r * r + f * r + d['fc_layers'] * f * f + e * f

    int8 = floats = tokens = words = 0
    for s, h in zip(src_lines, hyp_lines):
        src = sp_src.encode(s)
        S, T = len(src) + 1, len(sp_tgt.encode(h)) + 1  # EOS on both sides
        V = shortlist_size(src, zero, entries, d['eos_id'], max_n)
        int8 += S * enc_per_src + r * 2 * re + T * (dec_fixed + V * e)
        floats += T * S * (a + 3 * r)  # attention scores and the weighed projected states, in float
        tokens += T
        words += len(h.split())
    per_token = int8 / tokens
    peak_macs = float(peak) * 1e9 / 2
    print(f'greedy: {per_token / 1e6:.2f} M int8 multiply-adds per output token '
          f'(+{floats / tokens / 1e3:.0f} k float for attention), {tokens} tokens')
    print(f'at the measured peak of {float(peak):.0f} GOP/s: at most {peak_macs / per_token:,.0f} tokens/s, '
          f'{peak_macs / per_token * words / tokens:,.0f} words/s ({words / tokens:.2f} words per token)')


if __name__ == '__main__':
    main()
