"""Post-training q4/q8 rounding that keeps a layer's outputs, not its weights,
close to the original (GPTQ: Frantar et al. 2022, "Accurate Post-Training
Quantization for Generative Pre-trained Transformers"), for both model
families: Marian's students (Transformer encoder, SSRU decoder; a .npz as
`model-pack --marian` imports it) and this project's GRU checkpoints (a
.safetensors as train/train.py writes it).

    gptq.py MODEL.npz|MODEL.safetensors SRC TGT --vocab SPM [--tgt-vocab SPM]
            -o OUT [--format q4|q4n|q8|q4n+i8] [--lines N]

Rounding each weight to its nearest code (what model-pack does) minimizes
the error of the weights; what matters is the error of W x on the inputs x
the layer sees. GPTQ rounds a matrix one input column at a time and moves the
rounding error of that column onto the columns not yet rounded, in the
proportions that the inverse of the inputs' second moment H = sum x x^T says
cancel it best; columns with the largest H diagonal go first.

The inputs come from translating calibration pairs (SRC, TGT: text the model
was trained on, never a test set), the reference target fed back at every
step (train/marian_ref.py's reference for Marian's models, train/model.py's
for the GRU ones). Each row keeps the scale that model-pack would choose for
the original weights (train/logquant.py, the packer's search), and every
weight of OUT is one of that row's code values, so model-pack packs exactly
these codes (q4; checked here: the packer's search run on the result gives
it back). The matrices are the ones model-pack quantizes, split as it splits
them (the GRU decoder's input weights: embedding and context columns apart);
the source embeddings, which only ever are looked up, keep model-pack's
rounding. Biases, norms and every other tensor are copied as they are.

--format q4n+i8 (model-pack's embeddings in q4n, the other matrices in
linear 8-bit): only the embeddings are rounded here; the other matrices
are left to model-pack's i8, whose error is a small fraction of q4n's.
"""
import argparse
import os
import sys
import time

# the host's settings, before torch loads (train/host.py)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host  # noqa: E402

host.prepare(__name__ == '__main__')

import numpy as np  # noqa: E402
import sentencepiece as spm  # noqa: E402
import torch  # noqa: E402

import export  # noqa: E402
from data import read_parallel  # noqa: E402
import logquant  # noqa: E402
from marian_ref import Marian  # noqa: E402

DAMP = 0.01   # of H's mean diagonal, added to its diagonal (GPTQ's default)
BLOCK = 128   # columns rounded before the error is carried to the rest
REFITS = 0    # rounds of fitting the scales to the outputs (docs/RESULTS.md: it helped one model, not another)


class Moments:
    """The second moment of each matrix's inputs, by the packer's name."""

    def __init__(self):
        self.h, self.count = {}, {}

    def add(self, name, x):
        x = x.detach().reshape(-1, x.shape[-1]).double()
        self.h[name] = self.h.get(name, 0) + x.T @ x
        self.count[name] = self.count.get(name, 0) + x.shape[0]

    def mean(self, name):
        return self.h[name] / self.count[name] if name in self.h else None


# ---- Marian's students (.npz) -------------------------------------------------

class Recorder:
    """Stands for a weight matrix W [in, out] in `x @ W`: adds x's rows to
    the moments of the matrix named `name`."""

    def __init__(self, moments, name, w):
        self.moments, self.name, self.w = moments, name, w

    def __rmatmul__(self, x):
        self.moments.add(self.name, x)
        return x @ self.w


class TiedOutput:
    """The tied output layer (`x @ out_emb.T`): records under `name`."""

    def __init__(self, moments, name, emb):
        self.T = Recorder(moments, name, emb.T)


class MarianModel:
    def __init__(self, path, vocab, tgt_vocab):
        self.path = path
        self.m = Marian(path)
        self.sp = spm.SentencePieceProcessor(model_file=vocab)
        if tgt_vocab and tgt_vocab != vocab:
            raise SystemExit('gptq.py: a Marian model here has one vocabulary (--vocab)')
        # Marian stores a matrix [in, out] (to transpose: True) and an
        # embedding table [rows, dim] (False)
        self.transposed = {}
        for k, w in self.m.w.items():
            if w.dim() == 2 and k.rsplit('_', 1)[-1] in ('Wq', 'Wk', 'Wv', 'Wo', 'W1', 'W2', 'W', 'Wf'):
                self.transposed[k] = True
        for k in ('Wemb', 'encoder_Wemb', 'decoder_Wemb', 'decoder_ff_logit_out_Wt'):
            if k in self.m.w:
                self.transposed[k] = False

    def matrices(self):
        """{name: weights [outputs, inputs]} of every matrix model-pack quantizes."""
        return {k: (self.m.w[k].T if t else self.m.w[k]).double().contiguous() for k, t in self.transposed.items()}

    def calibrate(self, pairs):
        m, moments = self.m, Moments()
        plain = m.p
        m.p = lambda n: Recorder(moments, n, plain(n)) if self.transposed.get(n) else plain(n)
        out_emb = m.out_emb
        out_name = next(k for k in ('decoder_ff_logit_out_Wt', 'Wemb', 'decoder_Wemb') if k in m.w)
        m.out_emb = TiedOutput(moments, out_name, out_emb)
        eos = self.sp.eos_id()
        with torch.no_grad():
            for s, t in pairs:
                enc = m.encode(torch.tensor(self.sp.encode(s) + [eos]))
                cells = [torch.zeros(1, m.d) for _ in range(m.dec_depth)]
                prev = None
                for pos, y in enumerate(self.sp.encode(t) + [eos]):
                    _, cells = m.step(enc, prev, pos, cells)
                    prev = torch.tensor([y])
        m.p, m.out_emb = plain, out_emb
        return moments

    def save(self, out, rounded):
        z = np.load(self.path)
        tensors = {k: z[k] for k in z.files}
        for k, q in rounded.items():
            q = q.T if self.transposed[k] else q
            tensors[k] = np.ascontiguousarray(q.numpy().astype(z[k].dtype))
        with open(out, 'wb') as f:   # a file object: np.savez adds no .npz
            np.savez(f, **tensors)


# ---- the GRU family (.safetensors) --------------------------------------------

DEC_IH = 'dec.weight_ih'


class GruModel:
    def __init__(self, path, vocab, tgt_vocab):
        self.model, self.meta = export.load(path)
        self.model.eval()
        self.sp_src = spm.SentencePieceProcessor(model_file=vocab)
        self.sp_tgt = spm.SentencePieceProcessor(model_file=tgt_vocab or vocab)

    def matrices(self):
        """{name: weights [outputs, inputs]} as model-pack quantizes them:
        the decoder's input weights split into the embedding's columns
        (DEC_IH:x) and the context's (DEC_IH:c); the source embeddings,
        which are only looked up, left to model-pack's rounding."""
        sd, e = self.model.state_dict(), self.model.cfg.emb
        out = {k: w.double() for k, w in sd.items() if w.dim() == 2 and k != 'src_emb.weight' and k != DEC_IH}
        out[DEC_IH + ':x'], out[DEC_IH + ':c'] = sd[DEC_IH][:, :e].double(), sd[DEC_IH][:, e:].double()
        return {k: w.contiguous() for k, w in out.items()}

    def calibrate(self, pairs):
        model, cfg, moments = self.model, self.model.cfg, Moments()
        e, hid = cfg.emb, cfg.enc_hidden
        layers = []   # the encoder's layers one by one, as one-layer GRUs
        for l in range(cfg.enc_layers):
            layer = torch.nn.GRU(e if l == 0 else 2 * hid, hid, batch_first=True, bidirectional=True)
            for k in ('weight_ih', 'weight_hh', 'bias_ih', 'bias_hh'):
                for sfx in ('', '_reverse'):
                    getattr(layer, f'{k}_l0{sfx}').data.copy_(getattr(model.enc, f'{k}_l{l}{sfx}').data)
            layer.name = f'l{l}'
            layers.append(layer)
        def dec_inputs(mod, a):   # the GRU cell's input [x; c] and state h
            moments.add(DEC_IH + ':x', a[0][:, :e])
            moments.add(DEC_IH + ':c', a[0][:, e:])
            moments.add('dec.weight_hh', a[1])

        hooks = [
            model.init.register_forward_pre_hook(lambda mod, a: moments.add('init.weight', a[0])),
            model.att_U.register_forward_pre_hook(lambda mod, a: moments.add('att_U.weight', a[0])),
            model.att_W.register_forward_pre_hook(lambda mod, a: moments.add('att_W.weight', a[0])),
            model.att_V.register_forward_pre_hook(lambda mod, a: moments.add('att_V.weight', a[0])),
            model.fc_in.register_forward_pre_hook(lambda mod, a: moments.add('fc_in.weight', a[0])),
            model.fc.register_forward_pre_hook(lambda mod, a: moments.add('fc.weight', a[0])),
            model.top.register_forward_pre_hook(lambda mod, a: moments.add('top.weight', a[0])),
            # the tied output layer's inputs: tanh(top(z))
            model.top.register_forward_hook(lambda mod, a, out: moments.add('tgt_emb.weight', torch.tanh(out))),
            model.dec.register_forward_pre_hook(dec_inputs),
        ]
        with torch.no_grad():
            for s, t in pairs:
                src = torch.tensor([self.sp_src.encode(s) + [cfg.eos_id]])
                x = model.src_emb(src)
                for layer in layers:   # each layer's inputs, and its states before each step
                    name = layer.name
                    states = layer(x)[0]
                    fwd, rev, zero = states[0, :, :hid], states[0, :, hid:], torch.zeros(1, hid)
                    moments.add(f'enc.weight_ih_{name}', x)
                    moments.add(f'enc.weight_ih_{name}_reverse', x)
                    moments.add(f'enc.weight_hh_{name}', torch.cat([zero, fwd[:-1]]))         # left to right
                    moments.add(f'enc.weight_hh_{name}_reverse', torch.cat([rev[1:], zero]))  # right to left
                    x = states
                states, keys, mask, h = model.encode(src, torch.tensor([src.shape[1]]))
                assert torch.allclose(states, x, atol=1e-5), 'the encoder layer by layer differs from encode()'
                for y in [cfg.bos_id] + self.sp_tgt.encode(t):
                    _, h = model.step(torch.tensor([y]), h, states, keys, mask)
        for hook in hooks:
            hook.remove()
        return moments

    def save(self, out, rounded):
        rounded = dict(rounded)
        x, c = rounded.pop(DEC_IH + ':x', None), rounded.pop(DEC_IH + ':c', None)
        sd = self.model.state_dict()
        if x is not None or c is not None:
            e = self.model.cfg.emb
            rounded[DEC_IH] = torch.cat([sd[DEC_IH][:, :e].double() if x is None else x,
                                         sd[DEC_IH][:, e:].double() if c is None else c], 1)
        with torch.no_grad():
            for k, q in rounded.items():
                sd[k].copy_(q.to(sd[k].dtype))
        export.save(self.model, out, src_lang=self.meta.get('src_lang', 'en'), tgt_lang=self.meta.get('tgt_lang', 'de'),
                    alpha=self.meta.get('alpha'))   # the length normalization chosen for the weights stays theirs


def round_columns(w, h, fmt, scales):
    """w [rows, cols] (float64) rounded to the codes of the rows' scales,
    the error of each column carried onto the later ones through H^-1's
    Cholesky factor, the columns with the largest H diagonal first."""
    w, h = w.clone(), h.clone()
    dead = torch.diag(h) == 0
    h[dead, dead] = 1
    w[:, dead] = 0
    perm = torch.argsort(torch.diag(h), descending=True)
    w, h = w[:, perm], h[perm][:, perm]
    h += DAMP * torch.mean(torch.diag(h)) * torch.eye(h.shape[0], dtype=h.dtype)
    u = torch.linalg.cholesky(torch.cholesky_inverse(torch.linalg.cholesky(h)), upper=True)
    q = torch.zeros_like(w)
    cols = w.shape[1]
    for b0 in range(0, cols, BLOCK):
        b1 = min(b0 + BLOCK, cols)
        wb, err = w[:, b0:b1].clone(), torch.zeros(w.shape[0], b1 - b0, dtype=w.dtype)
        for i in range(b1 - b0):
            col = wb[:, i:i + 1].contiguous()
            qc = logquant.torch_fake_quantize(col, fmt, scales)
            q[:, b0 + i] = qc[:, 0]
            e = (col[:, 0] - qc[:, 0]) / u[b0 + i, b0 + i]
            wb[:, i:] -= e[:, None] * u[b0 + i, b0 + i:b1][None, :]
            err[:, i] = e
        w[:, b1:] -= err @ u[b0:b1, b1:]
    return q[:, torch.argsort(perm)]


def output_scales(w, q, h, scales):
    """Each row's scale that makes s' / s * q's outputs closest to w's on
    the calibration inputs (least squares; the codes unchanged)."""
    num, den = torch.sum((w @ h) * q, 1), torch.sum((q @ h) * q, 1)
    ok = (den > 0) & (num > 0)
    return torch.where(ok, scales * num / torch.where(ok, den, torch.ones_like(den)), scales)


def gptq(w, h, fmt, refits=REFITS):
    """w rounded by GPTQ from model-pack's scales; then, `refits` times,
    each row's scale fitted to the outputs and w rounded again from it.
    Returns the rounded weights and their scales."""
    scales = logquant.torch_scales(w, fmt)
    q = round_columns(w, h, fmt, scales)
    for _ in range(refits):
        fitted = output_scales(w, q, h, scales)
        q2 = round_columns(w, h, fmt, fitted)
        if output_error(w, q2, h) >= output_error(w, q, h):
            break
        q, scales = q2, fitted
    return q, scales


def output_error(w, q, h):
    """trace((w - q) H (w - q)^T): the summed squared output error on the
    calibration inputs."""
    d = w - q
    return float(torch.sum((d @ h) * d))


def format_of(name, fmt):
    """The format matrix name is rounded to here, None to leave it to
    model-pack (i8: linear, its error a small fraction of the 4-bit one's)."""
    f = logquant.matrix_format(name, fmt)
    return None if f == 'i8' else f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('model', help='a Marian .npz or a GRU .safetensors')
    ap.add_argument('src', help='calibration source text, one sentence a line (.gz too)')
    ap.add_argument('tgt', help='its translations')
    ap.add_argument('--vocab', required=True, help='the SentencePiece model (the source one if two)')
    ap.add_argument('--tgt-vocab', help='the target SentencePiece model, if not --vocab')
    ap.add_argument('-o', '--out', required=True)
    ap.add_argument('--format', default='q4', choices=['q4', 'q4n', 'q8', 'q4n+i8'])
    ap.add_argument('--lines', type=int, default=1000, help='calibration pairs: every k-th of the files, this many')
    ap.add_argument('--refits', type=int, default=REFITS, help='rounds of fitting the rows\' scales to the outputs')
    ap.add_argument('--moments', help='a file for the calibration\'s moments: read if it exists, else written')
    ap.add_argument('--skip', action='append', default=[],
                    help='a matrix to leave to model-pack\'s rounding (repeatable)')
    a = ap.parse_args()
    torch.set_num_threads(1)
    t0 = time.time()
    family = MarianModel if a.model.endswith('.npz') else GruModel
    model = family(a.model, a.vocab, a.tgt_vocab)
    src, tgt = read_parallel(a.src, a.tgt)
    if a.moments and os.path.exists(a.moments):
        moments = Moments()
        moments.h, moments.count = torch.load(a.moments)
        print(f'calibration: read from {a.moments}', file=sys.stderr)
    else:
        every = max(1, len(src) // a.lines)
        pairs = [(s, t) for s, t in list(zip(src, tgt))[::every][:a.lines] if s.strip() and t.strip()]
        moments = model.calibrate(pairs)
        print(f'calibration: {len(pairs)} pairs, {time.time() - t0:.0f} s', file=sys.stderr)
        if a.moments:
            torch.save((moments.h, moments.count), a.moments)

    rounded, before, after = {}, 0.0, 0.0
    for name, w in sorted(model.matrices().items()):
        h = moments.mean(name)
        fmt = format_of(name, a.format)
        if name in a.skip or h is None or fmt is None:
            continue
        q, _ = gptq(w, h, fmt, a.refits)
        nearest = logquant.torch_fake_quantize(w, fmt, logquant.torch_scales(w, fmt))
        # what model-pack will make of q: its own scale search, then nearest codes
        packed = logquant.torch_fake_quantize(q, fmt, logquant.torch_scales(q, fmt))
        e0, e1 = output_error(w, nearest, h), output_error(w, packed, h)
        before, after = before + e0, after + e1
        moved = int((packed != q).any(dim=1).sum())
        print(f'{name:36s} {tuple(w.shape)!s:14s} output error {e0:.4g} -> {e1:.4g} ({e1 / max(e0, 1e-300):.2f}x)'
              + (f', {moved} rows that the packer rounds again' if moved else ''), file=sys.stderr)
        rounded[name] = q
    model.save(a.out, rounded)
    print(f'total output error {before:.4g} -> {after:.4g} ({after / max(before, 1e-300):.2f}x), '
          f'{time.time() - t0:.0f} s', file=sys.stderr)


if __name__ == '__main__':
    main()
