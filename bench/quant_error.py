"""Relative RMS error of each log-quantization format on a checkpoint's
weight matrices (train/logquant.py, the same quantizer as model-pack).

    /usr/bin/python3 bench/quant_error.py CHECKPOINT.safetensors [--formats q8,q4,q4-nozero]

One line per matrix, then the total over all matrices:
sqrt(sum (w - q(w))^2 / sum w^2).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'train'))
import export  # noqa: E402
import logquant  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument('checkpoint')
    p.add_argument('--formats', default='q8,q4,q4-nozero')
    a = p.parse_args()
    formats = a.formats.split(',')
    model, _ = export.load(a.checkpoint)
    total = dict.fromkeys(formats, 0.0)
    energy = 0.0
    for name, param in model.state_dict().items():
        w = param.numpy()
        if w.ndim != 2:
            continue
        e_w = float((w.astype(np.float64) ** 2).sum())
        energy += e_w
        cells = []
        for f in formats:
            err = float(((logquant.fake_quantize(w, f) - w) ** 2).sum())
            total[f] += err
            cells.append(f'{f} {np.sqrt(err / e_w):.4f}')
        print(f'{name} {tuple(w.shape)} ' + ' '.join(cells), flush=True)
    print('all matrices: ' + ' '.join(f'{f} {np.sqrt(total[f] / energy):.4f}' for f in formats))


if __name__ == '__main__':
    main()
