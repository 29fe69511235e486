"""A model's weights, in parts small enough to travel to and from a lent GPU.

    /usr/bin/python3 train/carry.py pack CKPT PREFIX    writes PREFIX.000, PREFIX.001, ...
    /usr/bin/python3 train/carry.py unpack PREFIX OUT   joins them back: prints OUT.pt or
                                                        OUT.safetensors, what it wrote

A lent machine returns at most 64 MiB, in files of at most 16 MiB, and takes
64 MiB with the working tree: a 34.5M-parameter teacher is 69 MB in bf16.
Matrices travel as int8 with one float32 scale per row (absmax / 127),
vectors as float32, in parts of at most 15 MiB, so that a teacher trained
for one session's GPU minutes can go on training in the next (train.py
--init OUT.pt; the optimizer's moments do not travel, so the run warms up
again). Rounding to 8 bits moves a weight by at most half a step of its
row, which further training absorbs. A student's DIR/best.safetensors (the GRU
family: 37 MB in float32) travels as it is, cut into parts.
"""
import io
import os
import sys

import torch

PART_BYTES = 15 * 1024 * 1024


def quantize(state):
    out = {}
    for name, w in state.items():
        w = w.detach().float().cpu()
        if w.dim() == 2:
            scale = (w.abs().amax(1, keepdim=True) / 127).clamp(min=1e-12)
            out[name] = ('i8', torch.round(w / scale).to(torch.int8), scale)
        else:
            out[name] = ('f32', w, None)
    return out


def dequantize(packed):
    return {name: (q.float() * scale if kind == 'i8' else q) for name, (kind, q, scale) in packed.items()}


def pack(ckpt_path, prefix):
    if ckpt_path.endswith('.safetensors'):
        blob = open(ckpt_path, 'rb').read()
    else:
        ck = torch.load(ckpt_path, map_location='cpu')
        buf = io.BytesIO()
        torch.save({'cfg': ck['cfg'], 'weights': quantize(ck['model'])}, buf)
        blob = buf.getvalue()
    paths = []
    for i in range(0, len(blob), PART_BYTES):
        paths.append(f'{prefix}.{i // PART_BYTES:03d}')
        with open(paths[-1], 'wb') as f:
            f.write(blob[i:i + PART_BYTES])
    return paths


def parts_of(prefix):
    d, base = os.path.split(prefix)
    names = sorted(n for n in os.listdir(d or '.') if n.startswith(base + '.') and n[len(base) + 1:].isdigit())
    return [os.path.join(d, n) for n in names]


def unpack(prefix, out_stem):
    """The joined checkpoint at out_stem + '.pt' (an int8 teacher, as torch
    files begin: a zip archive) or + '.safetensors'; returns its path."""
    paths = parts_of(prefix)
    if not paths:
        raise SystemExit(f'carry.py: no {prefix}.000')
    blob = b''.join(open(p, 'rb').read() for p in paths)
    if not blob.startswith(b'PK'):
        with open(out_stem + '.safetensors', 'wb') as f:
            f.write(blob)
        return out_stem + '.safetensors'
    saved = torch.load(io.BytesIO(blob), map_location='cpu')
    torch.save({'cfg': saved['cfg'], 'model': dequantize(saved['weights'])}, out_stem + '.pt')
    return out_stem + '.pt'


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ('pack', 'unpack'):
        raise SystemExit(__doc__)
    if sys.argv[1] == 'pack':
        for p in pack(sys.argv[2], sys.argv[3]):
            print(p, os.path.getsize(p))
    else:
        print(unpack(sys.argv[2], sys.argv[3]))


if __name__ == '__main__':
    main()
