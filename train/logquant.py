"""Log quantization of weight matrices, as quant/logquant.c does it (the
same tables, the same scale search), for measurements and for
quantization-aware fine-tuning. A code's value is +-s * level[k] / level[0].
"""
import math

import numpy as np

Q8_TABLE = np.array([math.floor(4096 * 2 ** (-k / 16) + 0.5) for k in range(127)] + [0], dtype=np.float64)
Q4_TABLE = np.array([64, 32, 16, 8, 4, 2, 1, 0], dtype=np.float64)
# The alternative q4 measured against Q4_TABLE: all 8 codes nonzero, no zero.
Q4_NOZERO_TABLE = np.array([128, 64, 32, 16, 8, 4, 2, 1], dtype=np.float64)

# q4n: seven magnitudes fitted to trained weights (Lloyd-Max iterations on the
# shipped general models' matrices, each row at its own least-squares scale,
# rounded to integers under q4's top level): a row's relative RMS error 0.10
# where q4's powers of two leave 0.18 (docs/RESULTS.md).
Q4N_TABLE = np.array([64, 48, 37, 28, 20, 13, 7, 0], dtype=np.float64)

TABLES = {'q8': Q8_TABLE, 'q4': Q4_TABLE, 'q4n': Q4N_TABLE, 'q4-nozero': Q4_NOZERO_TABLE}
# model-pack's i8 (quant/qlayout.c): linear, each row's scale max|w| / 127
I8_MAX = 127
# the embedding matrices of a GRU checkpoint: the ones model-pack --quant
# EMB+F (GRU checkpoints only) puts in EMB
EMBEDDINGS = ('src_emb.weight', 'tgt_emb.weight')
STARTS, ROUNDS = 8, 30


def matrix_format(name, fmt):
    """The format model-pack --quant FMT gives matrix name: with EMB+F,
    EMB for the embeddings and F for the others."""
    if '+' not in fmt:
        return fmt
    emb, rest = fmt.split('+')
    return emb if name in EMBEDDINGS else rest


def fake_quantize(w, fmt):
    """The weights [R, C] (numpy) as the engine will see them after packing."""
    import torch
    t = torch.from_numpy(w)
    return torch_fake_quantize(t, fmt, torch_scales(t, fmt)).numpy()


# ---- the search, in torch (also what quantization-aware fine-tuning uses) ----

def _torch_assign(a, s, unit, mids):
    import torch
    ratio = a / torch.where(s > 0, s, torch.ones_like(s))[:, None]
    k = len(unit) - 1 - torch.bucketize(ratio, mids, right=True)
    q = s[:, None] * unit[k]
    return k, ((a - q) ** 2).sum(dim=1)


def torch_scales(w, fmt):
    """Per-row scales of w [R, C] by quant/logquant.c's search: from STARTS
    scales between max|w| and max|w|/2, alternate nearest-code assignment
    and the least-squares scale while the error falls (i8: max|w| / 127)."""
    import torch
    if fmt == 'i8':
        return w.detach().abs().double().max(dim=1).values / I8_MAX
    unit = torch.tensor(TABLES[fmt] / TABLES[fmt][0], dtype=torch.float64, device=w.device)
    asc = unit.flip(0)
    mids = (asc[1:] + asc[:-1]) / 2
    a = w.detach().abs().double()
    amax = a.max(dim=1).values
    best_s, best_err = amax.clone(), torch.full_like(amax, float('inf'))
    for start in range(STARTS):
        s = amax * 2.0 ** (-start / STARTS)
        k, err = _torch_assign(a, s, unit, mids)
        active = amax > 0
        for _ in range(ROUNDS):
            lv = unit[k]
            den = (lv * lv).sum(dim=1)
            s2 = torch.where(den > 0, (a * lv).sum(dim=1) / den.clamp_min(1e-300), torch.zeros_like(den))
            k2, err2 = _torch_assign(a, s2, unit, mids)
            better = active & (s2 > 0) & (s2 != s) & (err2 < err)
            if not bool(better.any()):
                break
            s = torch.where(better, s2, s)
            err = torch.where(better, err2, err)
            k = torch.where(better[:, None], k2, k)
            active = better
        improve = err < best_err
        best_err = torch.where(improve, err, best_err)
        best_s = torch.where(improve, s, best_s)
    return best_s


def torch_fake_quantize(w, fmt, scales):
    """w [R, C] rounded to the nearest codes of the given per-row scales."""
    import torch
    if fmt == 'i8':
        s = torch.where(scales > 0, scales, torch.ones_like(scales))[:, None]
        q = torch.clamp(torch.round(w.detach().double() / s), -I8_MAX, I8_MAX) * s
        return torch.where(scales[:, None] > 0, q, torch.zeros_like(q)).to(w.dtype)
    unit = torch.tensor(TABLES[fmt] / TABLES[fmt][0], dtype=torch.float64, device=w.device)
    asc = unit.flip(0)
    mids = (asc[1:] + asc[:-1]) / 2
    a = w.detach().abs().double()
    k, _ = _torch_assign(a, scales, unit, mids)
    q = (scales[:, None] * unit[k]).to(w.dtype)
    return torch.where(w < 0, -q, q)
