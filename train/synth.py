"""Build a training corpus from the original parallel text and synthetic
pairs: monolingual sentences with a model's translation of them (nmt --json
output, one object per line, in input order).

    synth.py --orig-src train.en.gz --orig-tgt train.de.gz [--orig-copies 2] \
        --synth MONO.de TRANSLATIONS.en.json SIDE ... --out-dir DIR --src en --tgt de

Each --synth names the monolingual file, the translations of it, and on
which side of the new pairs the translations go: `src` for back-translation
(synthetic source, real target), `tgt` for forward translation (real source,
synthetic target, i.e. sequence-level distillation). Several may be given.

A synthetic pair is dropped when the translation is empty, holds an unknown
piece, repeats itself (the same word three times running), has a length
ratio to its sentence outside [1/2.5, 2.5] in words, or when its
length-normalized model score is among the worst --drop-worst of its set:
the translations a model is least sure of are the ones it most often gets
wrong. The original pairs are kept --orig-copies times, so that real
text weighs more than synthetic text. Writes DIR/train.SRC and DIR/train.TGT
and prints what it kept.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import read_lines  # noqa: E402


def loops(words):
    return any(words[i] == words[i + 1] == words[i + 2] for i in range(len(words) - 2))


def bad(sentence, translation):
    s, t = sentence.split(), translation.split()
    if not t or not s or '⁇' in translation or loops(t):
        return True
    ratio = len(t) / len(s)
    return ratio > 2.5 or ratio < 1 / 2.5


def synthetic_pairs(mono_path, json_path, side, drop_worst):
    mono = read_lines(mono_path)
    out = [json.loads(line) for line in read_lines(json_path)]
    if len(out) > len(mono):
        raise SystemExit(f'{json_path}: {len(out)} translations for {len(mono)} sentences')
    mono = mono[:len(out)]   # a partial run translated the first lines
    scored = [(o['score'], m, o['translation']) for m, o in zip(mono, out) if not bad(m, o['translation'])]
    scored.sort(key=lambda x: x[0])
    kept = scored[int(len(scored) * drop_worst):]
    lowest = f' (score >= {kept[0][0]:.3f})' if kept else ''
    print(f'{json_path}: {len(out)} translated, {len(scored)} pass the checks, {len(kept)} kept{lowest}')
    kept_set = {(m, t) for _, m, t in kept}
    pairs = []
    for m, o in zip(mono, out):   # input order, not score order
        if (m, o['translation']) in kept_set:
            pairs.append((o['translation'], m) if side == 'src' else (m, o['translation']))
    return pairs


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--orig-src', required=True)
    p.add_argument('--orig-tgt', required=True)
    p.add_argument('--orig-copies', type=int, default=2)
    p.add_argument('--synth', nargs=3, action='append', default=[], metavar=('MONO', 'JSON', 'SIDE'))
    p.add_argument('--drop-worst', type=float, default=0.1)
    p.add_argument('--src', required=True)
    p.add_argument('--tgt', required=True)
    p.add_argument('--out-dir', required=True)
    a = p.parse_args()
    src, tgt = read_lines(a.orig_src), read_lines(a.orig_tgt)
    pairs = list(zip(src, tgt)) * a.orig_copies
    for mono, js, side in a.synth:
        if side not in ('src', 'tgt'):
            raise SystemExit(f'--synth side must be src or tgt, not {side}')
        pairs += synthetic_pairs(mono, js, side, a.drop_worst)
    os.makedirs(a.out_dir, exist_ok=True)
    with open(os.path.join(a.out_dir, f'train.{a.src}'), 'w', encoding='utf-8') as fs, \
            open(os.path.join(a.out_dir, f'train.{a.tgt}'), 'w', encoding='utf-8') as ft:
        for s, t in pairs:
            fs.write(s + '\n')
            ft.write(t + '\n')
    print(f'{a.out_dir}: {len(pairs)} pairs ({len(src)} original x {a.orig_copies})')


if __name__ == '__main__':
    main()
