"""The training files of a corpus kept as unique pairs with their copies.

    /usr/bin/python3 train/expand_pairs.py PAIRS OUT_DIR SRC TGT

PAIRS (plain, .gz or .xz) holds `source<TAB>target<TAB>copies` or
train/corpus.py's pairs.tsv.gz (`English<TAB>other<TAB>tag<TAB>copies`):
kept once, the corpus travels small (a lent GPU takes 64 MiB). Writes

    OUT_DIR/train.SRC, OUT_DIR/train.TGT   each pair `copies` times, shuffled
    OUT_DIR/fwd.SRC, OUT_DIR/fwd.TGT       each side's distinct sentences,
                                           the most-weighted first: the order
                                           a teacher translates them in when
                                           its time may run out
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import open_text  # noqa: E402


def read_pairs(path):
    with open_text(path) as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            yield parts[0], parts[1], int(parts[-1])


def by_weight(pairs, side):
    """Distinct sentences of one side, most copies first (ties: corpus order)."""
    best = {}
    for i, p in enumerate(pairs):
        s = p[side]
        if s not in best or p[2] > best[s][0]:
            best[s] = (p[2], best.get(s, (0, i))[1])
    return sorted(best, key=lambda s: (-best[s][0], best[s][1]))


def write_lines(path, lines):
    with open(path, 'w', encoding='utf-8') as f:
        f.writelines(l + '\n' for l in lines)


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    pairs_path, out, src, tgt = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    pairs = list(read_pairs(pairs_path))
    train = [(s, t) for s, t, n in pairs for _ in range(n)]
    random.Random(1).shuffle(train)
    write_lines(os.path.join(out, f'train.{src}'), (s for s, _ in train))
    write_lines(os.path.join(out, f'train.{tgt}'), (t for _, t in train))
    write_lines(os.path.join(out, f'fwd.{src}'), by_weight(pairs, 0))
    write_lines(os.path.join(out, f'fwd.{tgt}'), by_weight(pairs, 1))
    print(f'expand_pairs.py: {len(pairs)} pairs, {len(train)} training lines', file=sys.stderr)


if __name__ == '__main__':
    main()
