"""Training throughput of the reference model: one optimizer step on a
synthetic batch, timed, for both ways of running the decoder in training.

    [OPENBLAS_CORETYPE=...] [LD_PRELOAD=.../libtcmalloc_minimal.so.4] \
        /usr/bin/python3 bench/train_step.py [--threads 1] [--vocab 8000] [--bf16]

`hoisted` is NMT.forward (the h-independent products taken out of the step
loop, what train.py uses); `per-step` calls NMT.recur once per target
position (the decoding code path); with --bf16, `bf16` is the hoisted step
under bfloat16 autocast (train.py --bf16). Prints ms per step and target tokens/s,
and which OpenBLAS kernels ran (Debian's OpenBLAS picks SSE3 'Prescott'
kernels on CPUs it does not know unless OPENBLAS_CORETYPE names others;
train.py names them itself, this script leaves the choice to the caller),
and which malloc (train.py runs itself under tcmalloc where it is installed;
here the caller's LD_PRELOAD decides).
"""
import argparse
import ctypes
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'train'))
from model import NMT, Config  # noqa: E402


def openblas_core():
    with open('/proc/self/maps') as f:
        libs = {line.split()[-1] for line in f if 'openblas' in line and line.split()[-1].endswith('.so')}
    for path in libs:
        try:
            fn = ctypes.CDLL(path).openblas_get_corename
            fn.restype = ctypes.c_char_p
            return fn().decode()
        except (OSError, AttributeError):
            continue
    return 'unknown'


def allocator():
    with open('/proc/self/maps') as f:
        maps = f.read()
    return next((name for name in ('tcmalloc', 'jemalloc') if 'lib' + name in maps), "the C library's")


def per_step_forward(model, src, src_len, tgt_in):
    states, keys, mask, h = model.encode(src, src_len)
    hs = []
    for i in range(tgt_in.size(1)):
        h = model.recur(tgt_in[:, i], h, states, keys, mask)
        hs.append(h)
    return model.readout(torch.stack(hs, dim=1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--vocab', type=int, default=8000)
    p.add_argument('--batch', type=int, default=200, help='sentences (x 15 target tokens)')
    p.add_argument('--steps', type=int, default=5)
    p.add_argument('--bf16', action='store_true', help='also time the hoisted step under bfloat16 autocast '
                   '(train.py --bf16)')
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    model = NMT(Config(src_vocab=a.vocab, tgt_vocab=a.vocab), dropout=0.3)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    B, S, T = a.batch, 15, 15
    src = torch.randint(3, a.vocab, (B, S))
    src_len = torch.full((B,), S)
    tgt_in = torch.randint(3, a.vocab, (B, T))
    tgt_out = torch.randint(3, a.vocab, (B, T))
    print(f'OpenBLAS kernels: {openblas_core()}, threads {a.threads}, vocab {a.vocab}, '
          f'batch {B} x {T} target tokens, malloc: {allocator()}')
    modes = [('hoisted', model.forward, False), ('per-step', lambda *x: per_step_forward(model, *x), False)]
    if a.bf16:
        modes.append(('bf16', model.forward, True))
    for name, fwd, bf16 in modes:
        for it in range(a.steps + 1):
            if it == 1:
                t0 = time.time()
            with torch.autocast('cpu', dtype=torch.bfloat16, enabled=bf16):
                logits = fwd(src, src_len, tgt_in)
            loss = F.cross_entropy(logits.float().reshape(-1, a.vocab), tgt_out.reshape(-1), label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
        dt = (time.time() - t0) / a.steps
        print(f'{name:9s} {dt * 1000:7.0f} ms/step {B * T / dt:7.0f} target tokens/s')


if __name__ == '__main__':
    main()
