"""train/freedict.py: word pairs from FreeDict's dictd files, both ways,
with the conversion's faults (cut headwords, lost spaces) left out. The
packages are built here with dpkg-deb and put where the script keeps its
downloads, so nothing is fetched.

    make test-train
"""
import gzip
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import freedict  # noqa: E402

BASE64 = freedict.BASE64


def b64(n):
    digits = ''
    while True:
        digits = BASE64[n % 64] + digits
        n //= 64
        if n == 0:
            return digits


def write_dictd(folder, name, entries):
    """A dictd database: NAME.index and NAME.dict.dz, the header entry first."""
    os.makedirs(folder, exist_ok=True)
    data, index = b'', []
    for head, text in [('00-database-info', 'A test dictionary\n')] + entries:
        raw = text.encode()
        index.append(f'{head}\t{b64(len(data))}\t{b64(len(raw))}\n')
        data += raw
    with open(os.path.join(folder, name + '.index'), 'w', encoding='utf-8') as f:
        f.writelines(sorted(index))
    with gzip.open(os.path.join(folder, name + '.dict.dz'), 'wb') as f:
        f.write(data)


SPA_ENG = [
    ('playa', 'playa /plˈaʝa/\nbeach\n'),
    ('cinta', 'cinta /θˈinta/\n1. bond, tie\n2. connection, league\n3. ribbon\n'),
    ('pato', 'pato /pˈato/ <n, masc>\n(male) duck\n'),
    ('arrojar', 'arrojar /aroxˈaɾ/\nbewashedashore\n'),   # spaces lost: an unknown long word
    ('cifra', 'cifra /θˈifɾa/\n1. 1234\n'),               # no letter
]
ENG_SPA = [
    ('cat', 'cat /kæt/\ngato\n'),
    ('a', 'a /əlɔtɔf/\nmucho\n'),                             # "a lot of", cut to its first word
    ('train station', 'train station /treinsteiʃən/\nestación de tren\n'),
]


def test_entries_give_headword_and_equivalents(tmp_path):
    write_dictd(tmp_path, 'freedict-spa-eng', SPA_ENG)
    pairs = list(freedict.dictionary_pairs(str(tmp_path), 'freedict-spa-eng', english_first=False))
    tag = 'freedict-spa-eng:GPL-2+'
    assert ('beach', 'playa', tag) in pairs
    # every sense, up to MAX_EQUIVALENTS, the sense numbers gone
    assert [p[0] for p in pairs if p[1] == 'cinta'] == ['bond', 'tie', 'connection', 'league']
    assert ('duck', 'pato', tag) in pairs           # the gloss in parentheses dropped
    assert not [p for p in pairs if p[1] == 'cifra']


def test_cut_headwords_are_left_out_of_the_english_dictionary(tmp_path):
    write_dictd(tmp_path, 'freedict-eng-spa', ENG_SPA)
    pairs = list(freedict.dictionary_pairs(str(tmp_path), 'freedict-eng-spa', english_first=True))
    assert [p[:2] for p in pairs] == [('cat', 'gato'), ('train station', 'estación de tren')]


def build_deb(folder, package, name, entries):
    root = os.path.join(folder, 'root-' + package)
    write_dictd(os.path.join(root, 'usr/share/dictd'), name, entries)
    os.makedirs(os.path.join(root, 'DEBIAN'))
    with open(os.path.join(root, 'DEBIAN/control'), 'w') as f:
        f.write(f'Package: {package}\nVersion: 1.0\nArchitecture: all\nMaintainer: t <t@t>\n'
                'Description: test\n')
    subprocess.run(['dpkg-deb', '--root-owner-group', '-b', root, os.path.join(folder, f'{package}_1.0_all.deb')],
                   check=True, capture_output=True)


needs_dpkg_deb = pytest.mark.skipif(
    subprocess.run(['sh', '-c', 'command -v dpkg-deb'], capture_output=True).returncode, reason='needs dpkg-deb')


def downloads(tmp_path, code, to_english, from_english):
    """The two packages of language CODE where the script keeps its downloads, and an empty --open folder."""
    dl = tmp_path / 'dl'
    dl.mkdir()
    build_deb(str(dl), f'dict-freedict-{code}-eng', f'freedict-{code}-eng', to_english)
    build_deb(str(dl), f'dict-freedict-eng-{code}', f'freedict-eng-{code}', from_english)
    open_dir = tmp_path / 'open'
    open_dir.mkdir()
    return dl, open_dir


@needs_dpkg_deb
def test_the_script_writes_both_dictionaries_pairs_with_their_tags(tmp_path):
    dl, open_dir = downloads(tmp_path, 'spa', SPA_ENG, ENG_SPA)
    with gzip.open(open_dir / 'en-es.tsv.gz', 'wt', encoding='utf-8') as f:
        f.write('The connection failed.\tLa conexión falló.\tgettext:x\n')
    out = tmp_path / 'freedict.es.tsv.gz'
    r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), 'freedict.py'), '--lang', 'es',
                        '--open', str(open_dir), '--out', str(out), '--dl', str(dl)],
                       capture_output=True, text=True, check=True)
    with gzip.open(out, 'rt', encoding='utf-8') as f:
        rows = [l.rstrip('\n').split('\t') for l in f]
    assert ['beach', 'playa', 'freedict-spa-eng:GPL-2+'] in rows
    assert ['cat', 'gato', 'freedict-eng-spa:GPL-2+'] in rows
    # "connection" (10 letters) is in the human pairs' English, "bewashedashore" is not
    assert ['connection', 'cinta', 'freedict-spa-eng:GPL-2+'] in rows
    assert not [r for r in rows if r[0] == 'bewashedashore']
    assert 'freedict-spa-eng: 6 pairs, 1 with an unknown long word left out' in r.stderr
    assert not os.path.exists(str(out) + '.tmp')


# German's dictionaries are converted from Ding: field labels, grammar and
# cross-reference lines in each entry
DEU_ENG = [
    ('Bahnhof', 'Bahnhof /bˈaːnhoːf/ <masc, n, sg>\ntrain station <n>, railway station [Br.]\n'
                '   Synonyms: {Hauptbahnhof}\n\n see: {Bahnhöfe}\n'),
    ('Rechnung', 'Rechnung /ʁˈɛçnʊŋ/ <fem, n, sg>\ninvoice <n>, bill\n         Note: Handel\n'),
    ('Abblaserohr', 'Abblaserohr /ˈapblaːzəʁoːɐ/ <neut, n, sg>\n [techn.] blow-off pipe <n>\n'),
    ('Elfenblumen', 'Elfenblumen <pl>\nbarrenworts [bot.]\n'),
    ('abholen', 'abholen /ˈaphoːlən/ <vt>\nto collect sth., to pick up\n'),
    ('Strand', 'Strand /ʃtʁant/ <masc, n, sg>\nbeach\n'),
]


def test_ding_entries_give_their_first_everyday_sense(tmp_path):
    write_dictd(tmp_path, 'freedict-deu-eng', DEU_ENG)
    pairs = [p[:2] for p in freedict.dictionary_pairs(str(tmp_path), 'freedict-deu-eng', english_first=False,
                                                      ding=True)]
    # the first equivalent only, its grammar gone; no "Synonyms:" or "see:" line taken for a sense
    assert ('train station', 'Bahnhof') in pairs
    assert ('invoice', 'Rechnung') in pairs
    assert not [p for p in pairs if p[1] in ('Bahnhof', 'Rechnung') and p[0] not in ('train station', 'invoice')]
    # a sense with a field label is a trade's or a science's word
    assert not [p for p in pairs if p[1] in ('Abblaserohr', 'Elfenblumen')]
    # a "sth." slot is a pattern, not a word
    assert not [p for p in pairs if p[1] == 'abholen']
    assert ('beach', 'Strand') in pairs


@needs_dpkg_deb
def test_german_pairs_are_the_everyday_words_of_the_monolingual_text(tmp_path):
    dl, open_dir = downloads(tmp_path, 'deu', DEU_ENG, [('beach', 'beach /biːtʃ/\nStrand <masc>\n')])
    with gzip.open(open_dir / 'en-de.tsv.gz', 'wt', encoding='utf-8') as f:
        f.write('The file\tDie Datei\tgettext:x\n')
    mono_en, mono_de = tmp_path / 'mono.en.tsv.gz', tmp_path / 'mono.de.tsv.gz'
    with gzip.open(mono_en, 'wt', encoding='utf-8') as f:
        f.write('The train station is near the beach.\tbrown\n' * freedict.EVERYDAY_ENGLISH)
        f.write('Send the invoice.\tbrown\n')   # "invoice": too rare
    with gzip.open(mono_de, 'wt', encoding='utf-8') as f:
        f.write('Der Bahnhof, die Rechnung und der Strand.\tfortunes-de\n' * freedict.EVERYDAY_OTHER)
    out = tmp_path / 'freedict.de.tsv.gz'
    script = os.path.join(os.path.dirname(HERE), 'freedict.py')
    args = [sys.executable, script, '--lang', 'de', '--open', str(open_dir), '--out', str(out), '--dl', str(dl)]
    missing = subprocess.run(args, capture_output=True, text=True)
    assert missing.returncode != 0 and '--mono-en and --mono-other are needed' in missing.stderr
    subprocess.run(args + ['--mono-en', str(mono_en), '--mono-other', str(mono_de)], capture_output=True, text=True,
                   check=True)
    with gzip.open(out, 'rt', encoding='utf-8') as f:
        rows = [l.rstrip('\n').split('\t') for l in f]
    assert ['train station', 'Bahnhof', 'freedict-deu-eng:GPL-2+'] in rows
    assert ['beach', 'Strand', 'freedict-deu-eng:GPL-2+'] in rows
    assert ['beach', 'Strand', 'freedict-eng-deu:GPL-2+'] in rows
    assert not [r for r in rows if r[1] == 'Rechnung']
