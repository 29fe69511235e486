#!/usr/bin/env python3
"""How often reference translations repeat themselves in the ways the
repetition guard (text/guard.h) forbids: the data behind its limits.

    bench/guard_data.py TARGET.model TEXT [TEXT ...]

Each line is cut into the target vocabulary's pieces (bare word marks left
out, as the guard leaves them out), each piece read as its text with every
letter small (the guard's case classes, text/cases.h) and, for comparison,
as itself. Prints, per reading, the lines with a piece three times in a
row, a longer n-gram (2..12 pieces) twice and three times in a row, and a
4-gram three times within 64 pieces.
"""
import gzip
import sys

import sentencepiece as spm

PERIOD, NGRAM, WINDOW = 12, 4, 64


def copies_in_a_row(seq, p):
    best = 1
    for i in range(len(seq) - 2 * p + 1):
        k = 1
        while i + (k + 1) * p <= len(seq) and seq[i:i + p] == seq[i + k * p:i + (k + 1) * p]:
            k += 1
        best = max(best, k)
    return best


def most_ngram_copies(seq):
    seq = seq[:WINDOW]
    grams = [tuple(seq[i:i + NGRAM]) for i in range(len(seq) - NGRAM + 1)]
    return max((grams.count(g) for g in set(grams)), default=0)


def count(lines):
    piece3 = ngram2 = ngram3 = any3 = 0
    for seq in lines:
        piece3 += copies_in_a_row(seq, 1) >= 3
        runs = [copies_in_a_row(seq, p) for p in range(2, PERIOD + 1)]
        ngram2 += max(runs, default=1) >= 2
        ngram3 += max(runs, default=1) >= 3
        any3 += most_ngram_copies(seq) >= 3
    return piece3, ngram2, ngram3, any3


def read(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return [line.rstrip('\n') for line in f]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sp = spm.SentencePieceProcessor(model_file=sys.argv[1])
    text = [line for path in sys.argv[2:] for line in read(path)]
    pieces = [[p for p in sp.encode(line, out_type=str) if p != '\u2581'] for line in text]
    print(f'{len(text)} lines')
    print(f'{"reading":<12} {"piece x3":>9} {"n-gram x2":>10} {"n-gram x3":>10} {"4-gram x3 anywhere":>19}')
    for name, lines in (('as written', pieces), ('case aside', [[p.lower() for p in s] for s in pieces])):
        print(f'{name:<12} ' + ' '.join(f'{n:>{w}}' for n, w in zip(count(lines), (9, 10, 10, 19))))


if __name__ == '__main__':
    main()
