"""Negative examples for sequence-level unlikelihood training: the model's
own looping translations, found by translating many sources with the C
engine (guard off) and keeping the lines that repeat pieces.

    negatives.py pool --src train.en [--src mono.en ...] --foreign train.fr \
        [--seed 1] --out POOL.en
    negatives.py mine --src POOL.en --hyp OUT1 [--hyp OUT2 ...] \
        --spm-tgt de.model [--per-kind N] [--skip-kind KIND ...] --out NEG.tsv

`pool` writes every source line once as it is and once changed in a way
that real text changes captions: a word replaced by one the model has not
seen (taken from another language's captions), a quoted sign text of such
words, upper case, no final punctuation (POOL.en.kind names each line's
change, "orig" for none). Loops start on exactly such
inputs (an unknown noun, a name on a sign), so the pool finds many more of
them than the training sources alone.

`mine` keeps the (source, translation) pairs whose translation, cut into
target pieces, repeats itself (repeat_positions) where the source does not,
one per distinct pair, at most --per-kind of each kind of source (chosen
at random: the upper-case and sign-text changes loop far more often than
the rest and would otherwise crowd them out), and writes them as
SOURCE<TAB>TRANSLATION. --skip-kind upper leaves out the sources in
capitals, which nmt translates in sentence case (docs/INPUT.md), so the
model never sees them as they are.
train.py --negatives reads that file.
"""
import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import read_lines  # noqa: E402

WORD_THRICE = re.compile(r'\b(\w+)(\W+\1\b){2,}', re.IGNORECASE)


def repeat_positions(pieces, max_unit=8):
    """The positions t of a piece sequence where a loop goes on: pieces[t]
    continues a unit of n pieces (n = 1..max_unit) that has already been
    written twice in a row right before it. For a single piece that means
    the third one in a row ("m m m"), for longer units the first piece of
    the third copy ("auf der Bühne auf der Bühne auf"): a double letter or
    a phrase said twice can be German, three times in a row it is a loop.
    Every later piece of the run is a position too."""
    bad = set()
    for n in range(1, max_unit + 1):
        run = 0   # how many pieces so far equal the one n before them
        for t in range(n, len(pieces)):
            run = run + 1 if pieces[t] == pieces[t - n] else 0
            if run > n:
                bad.add(t)
    return sorted(bad)


def foreign_words(paths, english):
    """Words of other languages' captions that English captions never use."""
    known = {w.lower() for line in english for w in line.split()}
    words = set()
    for path in paths:
        for line in read_lines(path):
            for w in re.findall(r"[^\W\d_]{4,}", line):
                if w.lower() not in known:
                    words.add(w)
    return sorted(words)


def perturb(line, foreign, rng):
    """(kind, changed line)"""
    words = line.split()
    kind = rng.randrange(4)
    if kind == 0 and len(words) > 2:
        i = rng.randrange(1, len(words))
        words[i] = rng.choice(foreign)
        return 'foreign', ' '.join(words)
    if kind == 1:
        sign = ' '.join(rng.choice(foreign).capitalize() for _ in range(rng.randint(1, 3)))
        return 'sign', line.rstrip('.') + ' that says "' + sign + '".'
    if kind == 2:
        return 'upper', line.upper()
    return 'unpunctuated', line.rstrip('.!?')


def pool(args):
    sources = [line for path in args.src for line in read_lines(path)]
    foreign = foreign_words(args.foreign, sources)
    rng = random.Random(args.seed)
    with open(args.out, 'w', encoding='utf-8') as f, open(args.out + '.kind', 'w') as k:
        for line in sources:
            kind, changed = perturb(line, foreign, rng)
            f.write(line + '\n' + changed + '\n')
            k.write('orig\n' + kind + '\n')
    print(f'{args.out}: {2 * len(sources)} lines ({len(foreign)} foreign words)')


def mine(args):
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=args.spm_tgt)
    src = read_lines(args.src)
    kinds = read_lines(args.src + '.kind')
    seen, by_kind, looping = set(), {}, 0
    for path in args.hyp:
        hyp = read_lines(path)
        if len(hyp) != len(src):
            raise SystemExit(f'{path}: {len(hyp)} lines for {len(src)} sources')
        for s, h, kind in zip(src, hyp, kinds):
            if kind in args.skip_kind or not repeat_positions(sp.encode(h)):
                continue
            looping += 1
            if repeat_positions(s.split()) or WORD_THRICE.search(s) or (s, h) in seen:
                continue
            seen.add((s, h))
            by_kind.setdefault(kind, []).append((s, h))
    rng = random.Random(args.seed)
    kept = []
    for kind in sorted(by_kind):
        found = by_kind[kind]
        rng.shuffle(found)
        kept += found[:args.per_kind]
        print(f'{kind}: {len(found)} distinct looping, {min(len(found), args.per_kind)} kept')
    rng.shuffle(kept)
    with open(args.out, 'w', encoding='utf-8') as f:
        for s, h in kept:
            f.write(s.replace('\t', ' ') + '\t' + h.replace('\t', ' ') + '\n')
    print(f'{args.out}: {looping} looping translations, {len(kept)} distinct kept')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = p.add_subparsers(dest='cmd', required=True)
    a = sub.add_parser('pool')
    a.add_argument('--src', action='append', required=True)
    a.add_argument('--foreign', action='append', required=True)
    a.add_argument('--seed', type=int, default=1)
    a.add_argument('--out', required=True)
    b = sub.add_parser('mine')
    b.add_argument('--src', required=True)
    b.add_argument('--hyp', action='append', required=True)
    b.add_argument('--spm-tgt', required=True)
    b.add_argument('--per-kind', type=int, default=5000)
    b.add_argument('--skip-kind', action='append', default=[])
    b.add_argument('--seed', type=int, default=1)
    b.add_argument('--out', required=True)
    args = p.parse_args()
    pool(args) if args.cmd == 'pool' else mine(args)


if __name__ == '__main__':
    main()
