"""Make the Marian-import fixtures: tiny randomly initialised models in
Marian's own files and what the reference (marian_ref.py) translates with
them. The end-to-end tests import each with model-pack --marian and compare
nmt's translations and scores with these.

    /usr/bin/python3 train/make_marian_fixture.py tests/fixtures/marian

Reads tests/fixtures/tiny/src.model and tgt.model; writes into OUT:
  all.npz, all.bin, all.intgemm8.bin   tied-embeddings-all, one vocabulary
                                       (tgt.model), 2+2 layers, 2 heads
  all.int8emb.bin  intgemm8 with the embeddings int8 too, untransposed, as
                 Firefox's fork of Marian writes them
  tgt.npz        tied-embeddings (target = output), two vocabularies,
                 1 decoder layer, 4 heads, its own decoder FFN width
  none.npz       no tying: encoder, decoder and output embeddings apart
  unsupported.npz  all.npz with transformer-ffn-activation: swish
  tiedlayers.npz  transformer-tied-layers [2, 1, 2]: three decoder layers
                 running the weights of two
  badtied.npz    tiedlayers.npz's weights with a list of two for three layers
  full.lex.bin, small.lex.bin  binary lexical shortlists (Marian's layout) for
                 tgt.model: every id always allowed; and 10 ids plus 5 per piece
  small.lex.txt  the text form ("target source probability") of some of those
  NAME.expected  beam 1 and beam 4 4-best: "beam ||| line ||| text ||| score"
The .bin files follow Marian's binary layout; the intgemm8 one holds each
W matrix transposed as int8 with its multiplier 127 / max|W| after it, and
its expected outputs come from the weights those int8 values stand for.
"""
import math
import os
import struct
import sys

import numpy as np
import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(__file__))
from marian_ref import Marian  # noqa: E402
import ssru  # noqa: E402
from ssru import yml_bytes as yml  # noqa: E402

SENTENCES = [
    "A dog runs along the beach.",
    "Two young children are playing in the sand.",
    "Women sing.",
    "x",
    "An old woman sits on a bench next to the river.",
    "THE CAT!",
]


def config(d, heads, ffn, enc, dec, vocabs, tied, dec_ffn=0, activation='relu', tied_layers=()):
    return {
        'type': 'transformer', 'dim-emb': d, 'transformer-heads': heads, 'transformer-dim-ffn': ffn,
        'transformer-decoder-dim-ffn': dec_ffn, 'transformer-ffn-depth': 2, 'transformer-decoder-ffn-depth': 0,
        'transformer-ffn-activation': activation, 'enc-depth': enc, 'dec-depth': dec,
        'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'ssru', 'transformer-postprocess': 'dan',
        'transformer-postprocess-emb': 'd', 'transformer-preprocess': '""', 'transformer-tied-layers': list(tied_layers),
        'tied-embeddings-all': str(tied == 'all').lower(), 'tied-embeddings': str(tied == 'tgt').lower(),
        'tied-embeddings-src': 'false', 'dim-vocabs': list(vocabs), 'output-omit-bias': 'false',
        'layer-normalization': 'false', 'right-left': 'false', 'version': 'v1.12.43 fixture',
    }


def weights(rng, d, ffn, dec_ffn, enc, dec, vs, vt, tied):
    w = {}
    def mat(name, rows, cols, scale=None):
        w[name] = (rng.standard_normal((rows, cols)) * (scale or 1 / math.sqrt(rows))).astype(np.float32)
    def vec(name, n, scale=0.1, base=0.0):
        w[name] = (base + rng.standard_normal((1, n)) * scale).astype(np.float32)
    def attention(p):
        for x in 'qkvo':
            mat(f'{p}_W{x}', d, d)
            vec(f'{p}_b{x}', d)
        vec(p + '_Wo_ln_scale', d, 0.1, 1.0)
        vec(p + '_Wo_ln_bias', d)
    def ffn_block(p, width):
        mat(p + '_W1', d, width)
        vec(p + '_b1', width)
        mat(p + '_W2', width, d)
        vec(p + '_b2', d)
        vec(p + '_ffn_ln_scale', d, 0.1, 1.0)
        vec(p + '_ffn_ln_bias', d)
    if tied == 'all':
        mat('Wemb', vt, d, 0.5)
    else:
        mat('encoder_Wemb', vs, d, 0.5)
        mat('decoder_Wemb', vt, d, 0.5)
    if tied == 'none':
        mat('decoder_ff_logit_out_Wt', vt, d, 0.5)
    vec('decoder_ff_logit_out_b', vt, 0.5)
    for l in range(1, enc + 1):
        attention(f'encoder_l{l}_self')
        ffn_block(f'encoder_l{l}_ffn', ffn)
    for l in range(1, dec + 1):
        p = f'decoder_l{l}_rnn'
        mat(p + '_W', d, d)
        mat(p + '_Wf', d, d)
        vec(p + '_bf', d)
        vec(p + '_ffn_ln_scale', d, 0.1, 1.0)
        vec(p + '_ffn_ln_bias', d)
        attention(f'decoder_l{l}_context')
        ffn_block(f'decoder_l{l}_ffn', dec_ffn or ffn)
    return w


def save_npz(path, w, cfg):
    ssru.save_npz(path, w, yml(cfg))


def is_gemm_weight(name):
    at = name.find('_W')
    return at >= 0 and at in (len(name) - 3, len(name) - 2)


def save_bin(path, w, cfg, intgemm=False, int8_wemb=False):
    """Marian's binary layout: items (float32 sorted by name, then the
    others, the YAML last), their names, int32 shapes, padding to 256, data
    padded to 256 each."""
    items, dequant = [], {}
    for name in sorted(w):
        a = w[name]
        if int8_wemb and name == 'Wemb':   # Firefox's fork: untransposed, read back as q * (1 / mult)
            mult = np.float32(127.0 / np.abs(a).max())
            q = np.clip(np.rint(a * mult), -127, 127).astype(np.int8)
            items.append((name, 0x10001, a.shape, q.tobytes() + struct.pack('<f', mult)))
            dequant[name] = (q.astype(np.float32) * (np.float32(1.0) / mult)).astype(np.float32)
        elif intgemm and is_gemm_weight(name):
            mult = np.float32(127.0 / np.abs(a).max())
            q = np.clip(np.rint(a * mult), -127, 127).astype(np.int8)
            items.append((name, 0x10001, a.shape, q.T.tobytes() + struct.pack('<f', mult)))
            dequant[name] = (q.astype(np.float32) / mult).astype(np.float32)
        else:
            items.append((name, 0x404, a.shape, a.astype('<f4').tobytes()))
            dequant[name] = a
    y = yml(cfg)
    items.append(('special:model.yml', 0x101, y.shape, y.tobytes()))
    pad = lambda b: b + b'\0' * ((-len(b)) % 256)
    head = struct.pack('<QQ', 1, len(items))
    for name, t, shape, data in items:
        head += struct.pack('<QQQQ', len(name) + 1, t, len(shape), len(pad(data)))
    head += b''.join(n.encode() + b'\0' for n, *_ in items)
    head += b''.join(struct.pack(f'<{len(s)}i', *s) for _, _, s, _ in items)
    nxt = ((len(head) + 8) // 256 + 1) * 256
    off = nxt - len(head) - 8
    open(path, 'wb').write(head + struct.pack('<Q', off) + b'\0' * off + b''.join(pad(d) for *_, d in items))
    return dequant


def save_lex(path, first, best, lists, vs):
    """Marian's binary shortlist: header, offsets, ids, the checksum over
    the u64 words from firstNum on."""
    offsets, ids = [0], []
    for s in range(vs):
        ids += sorted(lists.get(s, []))[:best]
        offsets.append(len(ids))
    body = struct.pack('<QQQQ', first, best, vs + 1, len(ids)) + struct.pack(f'<{vs + 1}Q', *offsets) + \
        struct.pack(f'<{len(ids)}I', *ids)
    seed, mask = 0, (1 << 64) - 1
    for (v,) in struct.iter_unpack('<Q', body[:len(body) // 8 * 8]):
        seed ^= (v + 0x9e3779b9 + (seed << 6) + (seed >> 2)) & mask
    open(path, 'wb').write(struct.pack('<QQ', 0xF11A48D5013417F5, seed) + body)


def expected(npz, sp_src, sp_tgt, out):
    m = Marian(npz)
    eos, unk = sp_tgt.eos_id(), sp_tgt.unk_id()
    with open(out, 'w') as f, torch.no_grad():
        for beam in (1, 4):
            for n, line in enumerate(SENTENCES):
                ids = sp_src.encode(line) + [sp_src.eos_id()]
                for toks, score in m.translate(ids, beam, eos, unk)[:beam]:
                    text = sp_tgt.decode([t for t in toks if t != eos])
                    f.write(f'{beam} ||| {n} ||| {text} ||| {score:.6f}\n')


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    tiny = os.path.join(os.path.dirname(__file__), '..', 'tests', 'fixtures', 'tiny')
    sp_src = spm.SentencePieceProcessor(model_file=os.path.join(tiny, 'src.model'))
    sp_tgt = spm.SentencePieceProcessor(model_file=os.path.join(tiny, 'tgt.model'))
    vs, vt = sp_src.get_piece_size(), sp_tgt.get_piece_size()
    rng = np.random.default_rng(7)

    cfg = config(16, 2, 24, 2, 2, (vt, vt), 'all')
    w = weights(rng, 16, 24, 0, 2, 2, vt, vt, 'all')
    save_npz(os.path.join(out, 'all.npz'), w, cfg)
    save_bin(os.path.join(out, 'all.bin'), w, cfg)
    expected(os.path.join(out, 'all.npz'), sp_tgt, sp_tgt, os.path.join(out, 'all.expected'))
    dq = save_bin(os.path.join(out, 'all.intgemm8.bin'), w, cfg, intgemm=True)
    save_npz('/tmp/dequant.npz', dq, cfg)
    expected('/tmp/dequant.npz', sp_tgt, sp_tgt, os.path.join(out, 'all.intgemm8.expected'))
    dq = save_bin(os.path.join(out, 'all.int8emb.bin'), w, cfg, intgemm=True, int8_wemb=True)
    save_npz('/tmp/dequant.npz', dq, cfg)
    expected('/tmp/dequant.npz', sp_tgt, sp_tgt, os.path.join(out, 'all.int8emb.expected'))
    save_npz(os.path.join(out, 'unsupported.npz'), w, config(16, 2, 24, 2, 2, (vt, vt), 'all', activation='swish'))

    save_lex(os.path.join(out, 'full.lex.bin'), vt, 5, {}, vt)
    lrng = np.random.default_rng(3)
    lists = {s: [int(t) for t in lrng.choice(vt, 5, replace=False)] for s in range(vt)}
    save_lex(os.path.join(out, 'small.lex.bin'), 10, 5, lists, vt)
    with open(os.path.join(out, 'small.lex.txt'), 'w') as f:   # the text form: target source probability
        for s_id in range(0, vt, 7):
            for k, t in enumerate(lists[s_id]):
                f.write(f'{sp_tgt.id_to_piece(t)} {sp_tgt.id_to_piece(s_id)} {0.5 / (k + 1):.3f}\n')

    cfg = config(24, 4, 40, 2, 1, (vs, vt), 'tgt', dec_ffn=32)
    w = weights(rng, 24, 40, 32, 2, 1, vs, vt, 'tgt')
    save_npz(os.path.join(out, 'tgt.npz'), w, cfg)
    expected(os.path.join(out, 'tgt.npz'), sp_src, sp_tgt, os.path.join(out, 'tgt.expected'))

    cfg = config(16, 2, 24, 1, 2, (vt, vt), 'none')
    w = weights(rng, 16, 24, 0, 1, 2, vt, vt, 'none')
    save_npz(os.path.join(out, 'none.npz'), w, cfg)
    expected(os.path.join(out, 'none.npz'), sp_tgt, sp_tgt, os.path.join(out, 'none.expected'))

    cfg = config(16, 2, 24, 1, 3, (vt, vt), 'all', tied_layers=(2, 1, 2))
    w = weights(rng, 16, 24, 0, 1, 2, vt, vt, 'all')   # the weights of two decoder layers
    save_npz(os.path.join(out, 'tiedlayers.npz'), w, cfg)
    expected(os.path.join(out, 'tiedlayers.npz'), sp_tgt, sp_tgt, os.path.join(out, 'tiedlayers.expected'))
    save_npz(os.path.join(out, 'badtied.npz'), w, config(16, 2, 24, 1, 3, (vt, vt), 'all', tied_layers=(1, 2)))


if __name__ == '__main__':
    main()
