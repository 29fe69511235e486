"""train/tune_corpus.py: the general-text-heavy mix.

    make test-train
"""
import gzip
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(tmp_path, rows, options=()):
    pairs = tmp_path / 'pairs.tsv.gz'
    with gzip.open(pairs, 'wt', encoding='utf-8') as f:
        for row in rows:
            f.write('\t'.join(row) + '\n')
    out = tmp_path / 'mix'
    report = subprocess.run([sys.executable, os.path.join(ROOT, 'train', 'tune_corpus.py'), *options,
                             str(pairs), str(out), 'de'],
                            check=True, capture_output=True, text=True).stdout
    en = (out / 'train.en').read_text().splitlines()
    de = (out / 'train.de').read_text().splitlines()
    return en, de, dict(line.split('\t') for line in report.splitlines())


def test_weights_by_source(tmp_path):
    rows = [(f'News sentence {i}.', f'Nachrichtensatz {i}.', 'newstest2011:WMT', '1') for i in range(100)]
    rows += [(f'Open file {i}', f'Datei {i} öffnen', 'gettext+qm:gimp:GPL-3+', '1') for i in range(1000)]
    rows += [(f'The file {i} could not be opened at all.', f'Die Datei {i} ließ sich nicht öffnen.',
              'gettext+qm:gimp:GPL-3+', '1') for i in range(1000)]
    en, de, report = run(tmp_path, rows)
    assert len(en) == len(de) == int(report['total'])
    # the two sides stay aligned
    assert all(e.split()[-1].rstrip('.') in d for e, d in zip(en, de) if e.startswith('News'))
    # news twice, short catalog entries about a tenth, catalog sentences about 15%
    assert sum(e.startswith('News sentence') for e in en) == 200
    short = sum(e.startswith('Open file') for e in en)
    sentences = sum(e.startswith('The file') for e in en)
    assert 60 <= short <= 140 and 105 <= sentences <= 195
    assert int(report['newstest']) == 200 and int(report['gettext+qm']) == short + sentences


def test_same_input_same_mix(tmp_path):
    rows = [(f'Word {i}', f'Wort {i}', 'ding-phr3+:GPL-2+', '1') for i in range(300)]
    first = run(tmp_path, rows)
    second = run(tmp_path, rows)
    assert first == second
    assert 50 <= len(first[0]) <= 130   # weight 0.3


def test_weight_override(tmp_path):
    rows = [(f'A dog runs {i}.', f'Ein Hund rennt {i}.', 'multi30k:CC-BY-4.0', '1') for i in range(100)]
    rows += [(f'News sentence {i}.', f'Nachrichtensatz {i}.', 'newstest2011:WMT', '1') for i in range(100)]
    en, _, report = run(tmp_path, rows, ('--weight', 'multi30k=3', '--weight', 'news=1'))
    assert int(report['multi30k']) == 300 and int(report['newstest']) == 100


def test_bad_override(tmp_path):
    pairs = tmp_path / 'pairs.tsv.gz'
    with gzip.open(pairs, 'wt', encoding='utf-8') as f:
        f.write('a\tb\tnewstest2011:WMT\t1\n')
    for bad in ('multi30k', 'multi30k=x', '=2', 'news=-1'):
        result = subprocess.run([sys.executable, os.path.join(ROOT, 'train', 'tune_corpus.py'), '--weight', bad,
                                 str(pairs), str(tmp_path / 'mix'), 'de'], capture_output=True, text=True)
        assert result.returncode != 0 and '--weight wants PREFIX=COPIES' in result.stderr
