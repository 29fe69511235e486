"""Corpus BLEU with the 13a tokenization, and chrF, as sacreBLEU defines them.

    /usr/bin/python3 train/bleu.py HYP REF [--lowercase]   prints BLEU and chrF
    /usr/bin/python3 train/bleu.py --self-check HYP REF     compares BLEU with nltk's

BLEU: 4-gram precisions clipped per reference, geometric mean, brevity
penalty over the corpus, no smoothing (a corpus with a zero precision scores 0).
chrF: character n-grams 1..6 with spaces removed, precision and recall
averaged over n, F-beta with beta = 2 (sacreBLEU's chrF2).
"""
import collections
import math
import re
import sys

_PUNCT = [
    (re.compile(r'([\{-\~\[-\` -\&\(-\+\:-\@\/])'), r' \1 '),
    (re.compile(r'([^0-9])([\.,])'), r'\1 \2 '),
    (re.compile(r'([\.,])([^0-9])'), r' \1 \2'),
    (re.compile(r'([0-9])(-)'), r'\1 \2 '),
]


def tokenize_13a(line):
    line = line.replace('<skipped>', '').replace('-\n', '').replace('\n', ' ')
    if '&' in line:
        line = (line.replace('&quot;', '"').replace('&amp;', '&')
                .replace('&lt;', '<').replace('&gt;', '>'))
    line = f' {line} '
    for regex, repl in _PUNCT:
        line = regex.sub(repl, line)
    return line.split()


def _ngrams(tokens, n):
    return collections.Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu(hyps, refs, lowercase=False):
    match, total = [0] * 4, [0] * 4
    hyp_len = ref_len = 0
    for h, r in zip(hyps, refs):
        if lowercase:
            h, r = h.lower(), r.lower()
        ht, rt = tokenize_13a(h), tokenize_13a(r)
        hyp_len += len(ht)
        ref_len += len(rt)
        for n in range(1, 5):
            hn, rn = _ngrams(ht, n), _ngrams(rt, n)
            match[n - 1] += sum(min(c, rn[g]) for g, c in hn.items())
            total[n - 1] += max(len(ht) - n + 1, 0)
    if min(match) == 0 or hyp_len == 0:
        return 0.0
    log_p = sum(math.log(m / t) for m, t in zip(match, total)) / 4
    bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    return 100 * bp * math.exp(log_p)


def _char_ngrams(text, n):
    s = text.replace(' ', '')
    return collections.Counter(s[i:i + n] for i in range(len(s) - n + 1))


def chrf(hyps, refs, order=6, beta=2.0):
    match, hyp_total, ref_total = [0] * order, [0] * order, [0] * order
    for h, r in zip(hyps, refs):
        for n in range(1, order + 1):
            hn, rn = _char_ngrams(h, n), _char_ngrams(r, n)
            match[n - 1] += sum(min(c, rn[g]) for g, c in hn.items())
            hyp_total[n - 1] += sum(hn.values())
            ref_total[n - 1] += sum(rn.values())
    prec = [m / t if t else 0.0 for m, t in zip(match, hyp_total)]
    rec = [m / t if t else 0.0 for m, t in zip(match, ref_total)]
    p, r = sum(prec) / order, sum(rec) / order
    if p + r == 0:
        return 0.0
    b2 = beta * beta
    return 100 * (1 + b2) * p * r / (b2 * p + r)


def _read(path):
    with open(path, encoding='utf-8') as f:
        return [line.rstrip('\n') for line in f]


def _self_check(hyps, refs):
    from nltk.translate.bleu_score import corpus_bleu
    ours = bleu(hyps, refs)
    theirs = 100 * corpus_bleu([[tokenize_13a(r)] for r in refs], [tokenize_13a(h) for h in hyps])
    print(f'BLEU ours {ours:.4f} nltk {theirs:.4f} diff {abs(ours - theirs):.2e}')
    return abs(ours - theirs) < 1e-6


if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    hyps, refs = _read(args[0]), _read(args[1])
    if len(hyps) != len(refs):
        sys.exit(f'bleu.py: {len(hyps)} hypotheses but {len(refs)} references')
    if '--self-check' in sys.argv:
        sys.exit(0 if _self_check(hyps, refs) else 1)
    lc = '--lowercase' in sys.argv
    print(f'BLEU {bleu(hyps, refs, lowercase=lc):.2f} chrF {chrf(hyps, refs):.2f}')
