#!/usr/bin/python3
"""How much model-pack's lossless pruning of an n-gram vocabulary map keeps
(pack/vmap_pack.c prune_redundant, recomputed independently here): an
n-gram's target ids that the 0-grams or the lists of its shorter parts
already give are dropped, and n-grams left with none.

    /usr/bin/python3 bench/vmap_prune_stats.py models/ende.vmap
"""
import sys


def read_vmap(path):
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    zero = set(map(int, lines[0].split()))
    entries = []
    for line in lines[1:]:
        src, tgt = line.split("\t")
        entries.append((tuple(map(int, src.split())), list(map(int, tgt.split()))))
    return zero, entries


def main():
    zero, entries = read_vmap(sys.argv[1])
    lists = {src: set(tgt) for src, tgt in entries}
    kept_ngrams = kept_ids = total_ids = 0
    for src, tgt in entries:
        covered = set(zero)
        for n in range(1, len(src)):
            for i in range(len(src) - n + 1):
                covered |= lists.get(src[i:i + n], set())
        kept = [t for t in tgt if t not in covered]
        total_ids += len(tgt)
        kept_ids += len(kept)
        kept_ngrams += bool(kept)
    print(f"n-grams: {kept_ngrams:,} of {len(entries):,} kept; "
          f"target ids: {kept_ids:,} of {total_ids:,} kept")


main()
