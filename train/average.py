"""Average the weights of several checkpoints of one run (the last few
validated models usually translate better than any one of them).

    /usr/bin/python3 train/average.py OUT.safetensors IN1.safetensors IN2.safetensors ...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export  # noqa: E402


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    model, meta = export.load(paths[0])
    total = {k: v.double().clone() for k, v in model.state_dict().items()}
    for path in paths[1:]:
        other, _ = export.load(path)
        if other.cfg != model.cfg:
            raise SystemExit(f'{path}: dimensions differ from {paths[0]}')
        for k, v in other.state_dict().items():
            total[k] += v.double()
    model.load_state_dict({k: (v / len(paths)).float() for k, v in total.items()})
    export.save(model, out, dtype='F32', src_lang=meta.get('src_lang', 'und'), tgt_lang=meta.get('tgt_lang', 'und'))
    print(f'averaged {len(paths)} checkpoints into {out}')


if __name__ == '__main__':
    main()
