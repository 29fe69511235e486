"""Translate a file with a trained SSRU-family checkpoint, in batches, on a
CPU or a GPU: the teachers' text for their students.

    /usr/bin/python3 train/translate.py --checkpoint DIR_OR_FILE --spm-src S.model \
        --spm-tgt T.model --input IN [--output OUT] [--reference REF] [--device cuda]

The checkpoint is train.py's: DIR/best.pt (a pre-norm teacher), DIR/best.npz
(Marian's form), or DIR/last.pt when no best was written. Greedy decoding,
as train.py validates: sentences sorted by length and batched by a token
budget, the output written back in input order, one line per input line
(an empty line for an empty one); IN may be gzipped. On a GPU the products
run in bfloat16 (--fp32: not) and the encoder's keys and values are kept
from step to step (ssru.SSRU.greedy). Prints lines/s on standard error.

--chunk N translates N lines at a time, in file order, each chunk written
out as soon as it is done; with --deadline T (seconds since the epoch) no
chunk starts after T, so OUT holds the first lines of IN, whole chunks.

--reference prints BLEU and chrF, cased, as the last line: sacreBLEU's
(13a tokenization, chrF2) where sacrebleu can be imported, else
train/bleu.py's (the same definitions); the line says which.
"""
import argparse
import os
import sys
import time

import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bleu  # noqa: E402
import data  # noqa: E402
import ssru  # noqa: E402


def load_model(path, device):
    if os.path.isdir(path):
        found = next((os.path.join(path, n) for n in ('best.pt', 'best.npz', 'last.pt')
                      if os.path.exists(os.path.join(path, n))), None)
        if found is None:
            raise SystemExit(f'translate.py: no best.pt, best.npz or last.pt in {path}')
        path = found
    if path.endswith('.npz'):
        model = ssru.SSRU.from_npz(path, dropout=0.0)
    else:
        model = ssru.SSRU.from_torch(path, dropout=0.0)
    return model.to(device).eval()


def batches(lengths, max_tokens):
    """Indices of sentences sorted by length, cut so each batch's padded
    size stays under max_tokens."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    cur, longest = [], 0
    for i in order:
        n = lengths[i]
        if cur and max(longest, n) * (len(cur) + 1) > max_tokens:
            yield cur
            cur, longest = [], 0
        cur.append(i)
        longest = max(longest, n)
    if cur:
        yield cur


@torch.no_grad()
def translate(model, sp_src, sp_tgt, lines, device, max_tokens, max_len=200, bf16=True):
    eos = sp_src.eos_id()
    ids = [e[:max_len] + [eos] if l.strip() else [] for l, e in zip(lines, sp_src.encode(list(lines)))]
    out = [''] * len(lines)
    todo = [i for i in range(len(lines)) if ids[i]]
    on_gpu = device.startswith('cuda') and bf16
    for idx in batches([len(ids[i]) for i in todo], max_tokens):
        rows = [todo[j] for j in idx]
        S = max(len(ids[r]) for r in rows)
        src = torch.zeros(len(rows), S, dtype=torch.long)
        for b, r in enumerate(rows):
            src[b, :len(ids[r])] = torch.tensor(ids[r])
        src_len = torch.tensor([len(ids[r]) for r in rows])
        with torch.autocast('cuda' if on_gpu else 'cpu', dtype=torch.bfloat16, enabled=on_gpu):
            hyps = model.greedy(src.to(device), src_len.to(device), 3 * S)
        capped = [h[:3 * len(ids[r])] for r, h in zip(rows, hyps)]   # each by its own length, not its batch's
        for r, text in zip(rows, sp_tgt.decode(capped)):
            out[r] = text
    return out


def score(hyps, refs):
    """(BLEU, chrF, which implementation): sacreBLEU's where it is installed."""
    try:
        import sacrebleu
    except ImportError:
        return bleu.bleu(hyps, refs), bleu.chrf(hyps, refs), 'train/bleu.py 13a cased'
    return (sacrebleu.corpus_bleu(hyps, [refs]).score, sacrebleu.corpus_chrf(hyps, [refs]).score,
            f'sacrebleu {sacrebleu.__version__} 13a cased')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--checkpoint', required=True)
    p.add_argument('--spm-src', required=True)
    p.add_argument('--spm-tgt', required=True)
    p.add_argument('--input', required=True)
    p.add_argument('--output', help='default: standard output')
    p.add_argument('--reference')
    p.add_argument('--device', default='cpu')
    p.add_argument('--max-tokens', type=int, default=0, help='batch budget in source pieces (0: 60000 on a GPU, 2000 else)')
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--fp32', action='store_true', help='on a GPU too, no bfloat16')
    p.add_argument('--chunk', type=int, default=0, help='lines per chunk, written as each is done (0: all at once)')
    p.add_argument('--deadline', type=float, default=0,
                   help='with --chunk: start no chunk after this time (seconds since the epoch; 0: none)')
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    max_tokens = a.max_tokens or (60000 if a.device.startswith('cuda') else 2000)
    model = load_model(a.checkpoint, a.device)
    sp_src = spm.SentencePieceProcessor(model_file=a.spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=a.spm_tgt)
    lines = data.read_lines(a.input)
    t0 = time.time()
    f = open(a.output, 'w', encoding='utf-8') if a.output else sys.stdout
    step = a.chunk or max(len(lines), 1)
    out = []
    for at in range(0, len(lines), step):
        if a.deadline and time.time() > a.deadline:
            print(f'translate.py: deadline passed, stopped after {at} of {len(lines)} lines', file=sys.stderr)
            break
        done = translate(model, sp_src, sp_tgt, lines[at:at + step], a.device, max_tokens, bf16=not a.fp32)
        f.writelines(o + '\n' for o in done)
        f.flush()
        out += done
        if a.chunk:
            secs = time.time() - t0
            print(f'translate.py: {len(out)} lines, {len(out) / max(secs, 1e-9):.0f} lines/s', file=sys.stderr)
    if a.output:
        f.close()
    secs = time.time() - t0
    print(f'translate.py: {len(out)} lines in {secs:.1f} s, {len(out) / max(secs, 1e-9):.0f} lines/s',
          file=sys.stderr)
    if a.reference:
        refs = data.read_lines(a.reference)
        if len(out) != len(refs):
            raise SystemExit(f'translate.py: {len(out)} translations but {len(refs)} references')
        b, c, how = score(out, refs)
        print(f'BLEU {b:.2f} chrF {c:.2f} ({how})', file=sys.stderr)


if __name__ == '__main__':
    main()
