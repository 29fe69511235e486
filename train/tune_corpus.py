"""A general-text-heavy mix of a pair's cleaned corpus, for a short
fine-tuning of a general student (docs/TRAINING.md, "General-domain models").

    /usr/bin/python3 train/tune_corpus.py [--weight PREFIX=COPIES ...] \
        OUT/corpus/XX/pairs.tsv.gz OUT_DIR XX

Reads train/corpus.py's pairs.tsv.gz (English, other language, source tag,
...) and writes OUT_DIR/train.en and OUT_DIR/train.XX: each pair as many
times as its source's weight says, a fractional weight as one more copy with
that probability, drawn from a hash of the pair as train/corpus.py draws
(the same input gives the same mix). `--weight multi30k=1.5` gives the
sources whose tag starts with the prefix that many copies, before the
defaults below are looked at. The weights
favour what is most like the text people write (news, Ding's example
sentences) and keep some captions; software text, mostly menus and
messages, is thinned. Prints the lines each source gave.
"""
import collections
import gzip
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import copies  # noqa: E402

# (tag prefix, copies): the first prefix that matches a pair's tag
WEIGHTS = (('newstest', 2.0), ('ding-sent', 2.0), ('ding-phr', 0.3), ('multi30k', 0.5))
GETTEXT_SENTENCE = 0.15   # a catalog entry of at least SENTENCE_WORDS English words
SENTENCE_WORDS = 6
OTHER = 0.1


def weight(english, tag, overrides=()):
    for prefix, share in tuple(overrides) + WEIGHTS:
        if tag.startswith(prefix):
            return share
    if tag.startswith('gettext') and len(english.split()) >= SENTENCE_WORDS:
        return GETTEXT_SENTENCE
    return OTHER


def source_name(tag):
    """newstest2011:licence -> newstest; the name a report groups by."""
    return tag.split(':')[0].rstrip('0123456789')


def mix(lines, overrides=()):
    """Yield (english, other, source) for each copy of each pair."""
    for line in lines:
        english, other, tag = line.rstrip('\n').split('\t')[:3]
        for _ in range(copies(weight(english, tag, overrides), f'{english}\t{other}')):
            yield english, other, source_name(tag)


def parse_override(text):
    """'multi30k=1.5' -> ('multi30k', 1.5)"""
    prefix, sep, share = text.partition('=')
    try:
        value = float(share)
    except ValueError:
        value = -1.0
    if not sep or not prefix or value < 0:
        sys.exit(f'tune_corpus.py: --weight wants PREFIX=COPIES (COPIES >= 0), not {text!r}')
    return prefix, value


def main(argv):
    overrides = []
    while len(argv) >= 2 and argv[0] == '--weight':
        overrides.append(parse_override(argv[1]))
        argv = argv[2:]
    if len(argv) != 3:
        sys.exit(__doc__.strip())
    pairs, out, lang = argv
    os.makedirs(out, exist_ok=True)
    count = collections.Counter()
    with gzip.open(pairs, 'rt', encoding='utf-8') as f, \
            open(os.path.join(out, 'train.en'), 'w', encoding='utf-8') as fe, \
            open(os.path.join(out, f'train.{lang}'), 'w', encoding='utf-8') as fo:
        for english, other, source in mix(f, overrides):
            fe.write(english + '\n')
            fo.write(other + '\n')
            count[source] += 1
    for source, n in count.most_common():
        print(f'{source}\t{n}')
    print(f'total\t{sum(count.values())}')


if __name__ == '__main__':
    main(sys.argv[1:])
