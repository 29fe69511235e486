#!/usr/bin/env python3
"""Make the protected-span test set: Multi30k val captions with a number,
time, date, price, room number, URL, e-mail address, @handle, file path or
`code` put in (at the end, or after the first word), deterministically.

    bench/make_spans.py VAL.en OUT_PREFIX

writes OUT_PREFIX.txt (one sentence a line) and OUT_PREFIX.spans (the
spans each line holds, tab-separated). bench/spans.sh scores them.
"""
import random
import sys

SPANS = [
    ('at {h}:{m:02d}', lambda r: dict(h=r.randint(1, 12), m=r.randint(0, 59))),
    ('on {d:02d}/{mo:02d}/{y}', lambda r: dict(d=r.randint(1, 28), mo=r.randint(1, 12), y=r.randint(1990, 2030))),
    ('on {y}-{mo:02d}-{d:02d}', lambda r: dict(d=r.randint(1, 28), mo=r.randint(1, 12), y=r.randint(1990, 2030))),
    ('for ${a}.{c:02d}', lambda r: dict(a=r.randint(1, 99), c=r.randint(0, 99))),
    ('for \u20ac{a},{c:02d}', lambda r: dict(a=r.randint(1, 99), c=r.randint(0, 99))),
    ('in room {n}', lambda r: dict(n=r.randint(100, 999))),
    ('with {p}% off', lambda r: dict(p=r.randint(5, 90))),
    ('near {n:,} people', lambda r: dict(n=r.randint(1000, 99999))),
    ('(see https://example.com/{w}.html)', lambda r: dict(w=r.choice(['park', 'dogs', 'news', 'a/b']))),
    ('(www.{w}.org)', lambda r: dict(w=r.choice(['gnu', 'debian', 'wikipedia']))),
    ('for {u}@example.org', lambda r: dict(u=r.choice(['anna', 'bob.lee', 'info']))),
    ('for @{u}', lambda r: dict(u=r.choice(['anna_b', 'photos', 'dog2']))),
    ('in /home/{u}/photos/{n}.jpg', lambda r: dict(u=r.choice(['anna', 'bob']), n=r.randint(1, 99))),
    ('typing `ls -l`', lambda r: dict()),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rng = random.Random(2026)
    lines = [l.strip() for l in open(sys.argv[1], encoding='utf-8') if l.strip()]
    out = open(sys.argv[2] + '.txt', 'w', encoding='utf-8')
    gold = open(sys.argv[2] + '.spans', 'w', encoding='utf-8')
    for i, line in enumerate(lines[:400]):
        template, args = SPANS[i % len(SPANS)]
        phrase = template.format(**args(rng))
        body = line.rstrip('.').rstrip()
        text = body + ' ' + phrase + '.'
        # the span itself: the phrase's token with a digit, @, / or www,
        # less the brackets around it (a code span whole)
        token = '`ls -l`' if template.startswith('typing') else next(
            t for t in phrase.split(' ') if any(c.isdigit() or c in '@/' for c in t) or 'www' in t).strip('()')
        out.write(text + '\n')
        gold.write(token + '\n')


if __name__ == '__main__':
    main()
