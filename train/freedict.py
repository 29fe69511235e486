"""Word and phrase pairs from Debian's FreeDict dictionaries, both ways.

    /usr/bin/python3 train/freedict.py --lang es --open OPEN_PARALLEL --out OUT.tsv.gz [--dl DIR]
    /usr/bin/python3 train/freedict.py --lang de --open OPEN_PARALLEL --out OUT.tsv.gz \
        --mono-en MONO_EN.tsv.gz --mono-other MONO_DE.tsv.gz [--dl DIR]

Why: the human pairs are mostly software text, and everyday words are rare
in them ("playa" is in 13 of 272,623 en-es pairs; of the Spanish-English
dictionary's 3,964 single-word headwords, 875 never occur on the Spanish
side and 1,089 fewer than ten times). A dictionary teaches the words, as
Ding's phrases do for en-de.

Downloads dict-freedict-XXX-eng and dict-freedict-eng-XXX (XXX: spa, fra, deu)
with `apt-get download` into --dl (default: beside --out; kept, so a rerun
fetches nothing), reads their dictd files (.index: headword, offset and
length in base 64; .dict.dz: gzip) and writes one line per pair:
English<TAB>other<TAB>freedict-XXX-eng:GPL-2+ (or freedict-eng-XXX). Both
packages are GPL-2+ or later (their Debian copyright files).

Each entry gives its headword and the equivalents of every sense; up to
MAX_EQUIVALENTS pairs per entry (the first senses are the common ones).
Dropped: parenthesized glosses ("(bank) transfer" -> "transfer");
eng-spa entries whose pronunciation is much longer than the headword (the
conversion cut multi-word headwords to their first word: "a /əlɔtɔf/" is
"a lot of", translated "mucho"; their equivalents lost their spaces too);
equivalents without a letter or longer than six words; pairs with a long
word (LONG_WORD letters or more) that the language's side of the human pairs
(--open's en-XX.tsv.gz) never has: where the conversion lost the spaces
between words ("bewashedashore", "pastorprotestante").

German's two dictionaries are converted from Ding (half a million entries
each way, most of them of a trade or a science): there each sense line may
carry field labels ("[techn.]", "[bot.]") and grammar ("<pl>", "<vt>"), and
an entry has cross-reference lines ("Note:", "Synonyms:", "see:"). Kept:
the first equivalent of each entry, senses without a field label (register
and Germany's or Britain's and America's usage allowed), one or two words a
side, no "sth."/"jdn." slots, and every word common in general text: at
least EVERYDAY_ENGLISH times in the English monolingual text (--mono-en)
and EVERYDAY_OTHER times in the German (--mono-other). Ding's phrases and
sentences are in the human pairs already; these are its everyday words on
their own, most of them in the pairs too (docs/TRAINING.md: off by default,
an en->de round with them was flat).
"""
import argparse
import collections
import glob
import gzip
import os
import re
import subprocess
import sys
import tempfile

LANG_CODES = {'de': 'deu', 'es': 'spa', 'fr': 'fra'}
DING_CONVERTED = {'de'}
LICENCE = 'GPL-2+'
MAX_EQUIVALENTS = 4
MAX_WORDS = 6
LONG_WORD = 9
BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
HEADWORD = re.compile(r'^(?P<word>.*?)(?: /(?P<pron>[^/]*)/)?(?: <[^>]*>)?$')
SENSE_NUMBER = re.compile(r'^\d+\.\s+')
PARENTHESIZED = re.compile(r'\([^()]*\)')
LETTER = re.compile(r'[^\W\d_]')
PRONUNCIATION_MARKS = re.compile(r'[ˈˌː\W]')
WORD = re.compile(r'[^\W\d_]+')
# Ding's markup (see the module's docstring)
DING_GRAMMAR = re.compile(r'<[^<>]*>')
DING_FIELD = re.compile(r'\[([^\[\]]*)\]')
DING_NOT_A_SENSE = re.compile(r'^(?:Note|Synonyms?|see):')
DING_EVERYDAY_FIELDS = {'Am.', 'Br.', 'coll.', 'ugs.', 'fig.', 'übtr.', 'formal', 'geh.', 'Dt.'}
DING_SLOT = re.compile(r'\b(?:sth|sb|jdm|jdn|jds|etw)\b|…|/')
DING_MAX_WORDS = 2
EVERYDAY_ENGLISH = 10
EVERYDAY_OTHER = 3


def base64_number(text):
    n = 0
    for c in text:
        n = n * 64 + BASE64.index(c)
    return n


def entries(index_lines, data):
    """(headword line, sense lines) of each entry of a dictd database;
    the database's own 00-database-* entries left out."""
    for line in index_lines:
        parts = line.rstrip('\n').split('\t')
        if len(parts) != 3 or parts[0].startswith('00-database') or parts[0].startswith('00database'):
            continue
        start, length = base64_number(parts[1]), base64_number(parts[2])
        lines = data[start:start + length].decode('utf-8').strip('\n').split('\n')
        if len(lines) >= 2:
            yield lines[0], lines[1:]


def clean(text):
    text = PARENTHESIZED.sub(' ', text.replace('\u2010', '-'))
    return ' '.join(text.split())


def ding_senses(senses):
    """Ding's sense lines without field labels, their markup removed."""
    for line in senses:
        text = line.strip()
        if DING_NOT_A_SENSE.match(text) or not all(f in DING_EVERYDAY_FIELDS for f in DING_FIELD.findall(text)):
            continue
        yield DING_FIELD.sub(' ', DING_GRAMMAR.sub(' ', text))


def headword_cut(word, pron):
    """True where the pronunciation spells far more than the headword: a
    multi-word headword the conversion cut to its first word."""
    if not pron:
        return False
    letters = len(re.sub(r'\W', '', word))
    return len(PRONUNCIATION_MARKS.sub('', pron)) > 1.4 * letters + 2


def pairs_of_entry(first, senses, check_cut, ding=False):
    """(headword, equivalent) pairs of one entry, or none."""
    if ding:
        first, senses = DING_GRAMMAR.sub(' ', DING_FIELD.sub(' ', first)).strip(), list(ding_senses(senses))
    m = HEADWORD.match(first.strip())
    if not m:
        return []
    word = clean(m.group('word'))
    if not word or not LETTER.search(word) or (check_cut and headword_cut(word, m.group('pron'))):
        return []
    out = []
    for sense in senses:
        for equivalent in SENSE_NUMBER.sub('', sense.strip()).split(','):
            equivalent = clean(equivalent)
            if (equivalent and LETTER.search(equivalent) and len(equivalent.split()) <= MAX_WORDS
                    and equivalent not in out):
                out.append(equivalent)
    if ding:
        return [(word, e) for e in out[:1] if not DING_SLOT.search(word + ' ' + e)
                and len(word.split()) <= DING_MAX_WORDS and len(e.split()) <= DING_MAX_WORDS]
    return [(word, e) for e in out[:MAX_EQUIVALENTS]]


def dictionary_pairs(folder, name, english_first, ding=False):
    """English, other, tag of dictionary NAME (e.g. freedict-spa-eng) in folder."""
    with open(os.path.join(folder, name + '.index'), encoding='utf-8') as f:
        index_lines = f.readlines()
    with gzip.open(os.path.join(folder, name + '.dict.dz')) as f:
        data = f.read()
    tag = f'{name}:{LICENCE}'
    for first, senses in entries(index_lines, data):
        for head, equivalent in pairs_of_entry(first, senses, check_cut=english_first, ding=ding):
            yield (head, equivalent, tag) if english_first else (equivalent, head, tag)


def human_words(path):
    """Lowercased words of each side of the human pairs: English's, the other's."""
    english, other = set(), set()
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        for line in f:
            parts = line.split('\t')
            if len(parts) >= 2:
                english.update(WORD.findall(parts[0].lower()))
                other.update(WORD.findall(parts[1].lower()))
    return english, other


def word_counts(path):
    """Lowercased words of a monolingual file's first column, counted."""
    counts = collections.Counter()
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        for line in f:
            counts.update(WORD.findall(line.split('\t')[0].lower()))
    return counts


def everyday(text, counts, least):
    return all(counts[w] >= least for w in WORD.findall(text.lower()))


def words_known(text, known):
    return all(len(w) < LONG_WORD or w in known for w in WORD.findall(text.lower()))


def fetched(package, dl):
    """The .deb of package in dl, downloaded once."""
    found = glob.glob(os.path.join(dl, package + '_*.deb'))
    if not found:
        options = ['-o', 'APT::Sandbox::User=root'] if os.geteuid() == 0 else []
        subprocess.run(['apt-get', *options, '-q', 'download', package], cwd=dl, check=True,
                       stdout=sys.stderr)
        found = glob.glob(os.path.join(dl, package + '_*.deb'))
    return found[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--lang', required=True, choices=sorted(LANG_CODES))
    p.add_argument('--out', required=True, help='OUT.tsv.gz')
    p.add_argument('--open', required=True, help='the open parallel text (its en-XX.tsv.gz)')
    p.add_argument('--dl', help='where the .deb files are kept (default: OUT\'s folder/dl)')
    p.add_argument('--mono-en', help='English monolingual text (.tsv.gz): the everyday words (Ding-converted dictionaries)')
    p.add_argument('--mono-other', help='the other language\'s monolingual text (.tsv.gz), the same')
    a = p.parse_args()
    code = LANG_CODES[a.lang]
    ding = a.lang in DING_CONVERTED
    if ding and not (a.mono_en and a.mono_other):
        p.error(f'--lang {a.lang}: --mono-en and --mono-other are needed (its dictionaries are Ding\'s)')
    if ding:
        english_counts, other_counts = word_counts(a.mono_en), word_counts(a.mono_other)
    dl = a.dl or os.path.join(os.path.dirname(os.path.abspath(a.out)), 'dl')
    os.makedirs(dl, exist_ok=True)
    english, other = human_words(os.path.join(a.open, f'en-{a.lang}.tsv.gz'))
    counts = {}
    with tempfile.TemporaryDirectory() as work, gzip.open(a.out + '.tmp', 'wt', encoding='utf-8') as out:
        for name, english_first in ((f'freedict-{code}-eng', False), (f'freedict-eng-{code}', True)):
            subprocess.run(['dpkg-deb', '-x', fetched('dict-' + name, dl), work], check=True)
            counts[name] = [0, 0]
            for pair in dictionary_pairs(os.path.join(work, 'usr/share/dictd'), name, english_first, ding):
                known = words_known(pair[0], english) and words_known(pair[1], other)
                if ding:
                    known = (known and everyday(pair[0], english_counts, EVERYDAY_ENGLISH)
                             and everyday(pair[1], other_counts, EVERYDAY_OTHER))
                counts[name][known] += 1
                if known:
                    out.write('\t'.join(pair) + '\n')
    os.replace(a.out + '.tmp', a.out)
    for name, (unknown, kept) in counts.items():
        why = 'an unknown long word or (Ding) a word rare in general text' if ding else 'an unknown long word'
        print(f'freedict.py: {name}: {kept} pairs, {unknown} with {why} left out', file=sys.stderr)


if __name__ == '__main__':
    main()
