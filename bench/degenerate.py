#!/usr/bin/env python3
"""Count degenerate translations: lines whose output loops or runs away.

    bench/degenerate.py SOURCE HYPOTHESES [--show N]

A line is degenerate when its translation
  - repeats an n-gram (n = 1..6) of words and punctuation marks three or
    more times in a row ("oder oder oder", "K-K-K-K"), or has an n-gram of
    4 or more of them three times anywhere ("in einem blauen Hemd und ...
    in einem blauen Hemd und ... in einem blauen Hemd"),
  - repeats a character sequence of 1..3 letters four or more times in a row
    ("mmmm", "Srrrr", "abababab"), or
  - has more than 2 x the source's words + 6 words,
unless the source line itself has such a repetition (then the translation
may too). Prints "degenerate: K of N lines (P%)" and, with --show, the
first N such lines.
"""
import re
import sys

CHAR_LOOP = re.compile(r'([^\W\d_]{1,3}?)\1{3,}')


TOKEN = re.compile(r'\w+|[^\w\s]')


def word_loop(words):
    for n in range(1, 7):
        for i in range(len(words) - 3 * n + 1):
            g = words[i:i + n]
            if words[i + n:i + 2 * n] == g and words[i + 2 * n:i + 3 * n] == g:
                return ' '.join(g)
    seen = {}
    for i in range(len(words) - 3):
        g = tuple(words[i:i + 4])
        seen[g] = seen.get(g, 0) + 1
        if seen[g] >= 3:
            return ' '.join(g) + ' ...'
    return None


def why(src, hyp):
    sw, hw = src.split(), hyp.split()
    if len(hw) > 2 * len(sw) + 6:
        return 'length %d > 2 x %d + 6' % (len(hw), len(sw))
    loop = word_loop(TOKEN.findall(hyp.lower()))
    if loop and not word_loop(TOKEN.findall(src.lower())):
        return 'word loop "%s"' % loop
    m = CHAR_LOOP.search(hyp)
    if m and not CHAR_LOOP.search(src):
        return 'character loop "%s"' % m.group(0)
    return None


def main():
    args = sys.argv[1:]
    show = 0
    if '--show' in args:
        i = args.index('--show')
        show = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    with open(args[0], encoding='utf-8') as f:
        src = f.read().split('\n')
    with open(args[1], encoding='utf-8') as f:
        hyp = f.read().split('\n')
    if src and src[-1] == '':
        src.pop()
    if hyp and hyp[-1] == '':
        hyp.pop()
    if len(src) != len(hyp):
        sys.exit('degenerate.py: %d source lines but %d translations' % (len(src), len(hyp)))
    bad = [(i, why(s, h)) for i, (s, h) in enumerate(zip(src, hyp))]
    bad = [(i, w) for i, w in bad if w]
    for i, w in bad[:show]:
        print('%d: %s: %s' % (i + 1, w, hyp[i]))
    n = len(src)
    print('degenerate: %d of %d lines (%.2f%%)' % (len(bad), n, 100.0 * len(bad) / n if n else 0))


if __name__ == '__main__':
    main()
