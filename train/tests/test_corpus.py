"""The general-domain corpus recipe's cleaning (train/corpus.py)."""
import gzip
import os
import subprocess
import sys

import corpus


def test_catalog_accelerators_escapes_and_context_go():
    r = corpus.clean_pair('?unit:&Open the file\\n', '_Datei öffnen', 'gettext:x.mo', 'de')
    assert r == [('Open the file', 'Datei öffnen')]
    assert corpus.clean_pair('Oval, Thin|a', 'Ovale, fin|O', 'gettext', 'fr') == [('Oval, Thin', 'Ovale, fin')]


def test_ding_shorthand_spelled_out_and_glosses_dropped():
    r = corpus.clean_pair('to raise/sound the alarm for sb. (at work)', 'für jdn. Alarm schlagen {v}',
                          'ding-phr3+', 'de')
    assert r == [('to raise the alarm for somebody', 'für jemanden Alarm schlagen')]
    # an alternative of several words has no safe cut
    assert corpus.clean_pair('to swap places/seats with sb.', 'mit jdm. Platz/die Plätze tauschen',
                             'ding-phr3+', 'de') == 'alternatives'


def test_markup_stripped_when_both_sides_agree_else_dropped():
    assert corpus.clean_pair('Press <b>OK</b> now.', 'Drücken Sie jetzt <b>OK</b>.', 'lo-help', 'de') == \
        [('Press OK now.', 'Drücken Sie jetzt OK.')]
    assert corpus.clean_pair('Press <b>OK</b> now.', 'Drücken Sie jetzt OK.', 'lo-help', 'de') == 'markup'


def test_placeholders_must_match():
    assert corpus.clean_pair('Deleted %d files from %s', '%d Dateien aus %s gelöscht', 'gettext', 'de') == \
        [('Deleted %d files from %s', '%d Dateien aus %s gelöscht')]
    assert corpus.clean_pair('Deleted %d files from %s', 'Dateien gelöscht', 'gettext', 'de') == 'placeholders'
    # a percent sign before a word is not a placeholder
    assert isinstance(corpus.clean_pair('71 percent of the people', '71% der Leute', 'newstest2010', 'de'), list)


def test_untranslated_and_wrong_language_sides_go():
    assert corpus.clean_pair('Could not open the file', 'Could not open the file', 'gettext', 'de') == 'untranslated'
    assert corpus.clean_pair('Could not open the file', 'Could not open the file here', 'gettext', 'de') == 'language'
    # words both languages share ("in", "an") do not count against a side
    assert isinstance(corpus.clean_pair('A man in a park.', 'Ein Mann in einem Park.', 'multi30k', 'de'), list)


def test_lines_of_several_sentences_split_when_both_sides_agree():
    r = corpus.clean_pair('It rains. We stay home.', 'Es regnet. Wir bleiben zu Hause.', 'handbook', 'de')
    assert r == [('It rains.', 'Es regnet.'), ('We stay home.', 'Wir bleiben zu Hause.')]
    r = corpus.clean_pair('It rains. We stay home.', 'Es regnet, also bleiben wir zu Hause.', 'handbook', 'de')
    assert r == [('It rains. We stay home.', 'Es regnet, also bleiben wir zu Hause.')]


def test_length_ratio():
    assert corpus.clean_pair('Génesis and everything else that follows in this long line', 'Génesis',
                             'bible-web-rv1909', 'es') == 'length'


def test_weights_repeat_pairs_the_same_way_every_run():
    assert corpus.copies(4.0, 'a\tb') == 4
    draws = [corpus.copies(0.35, f'{i}\tx') for i in range(2000)]
    assert draws == [corpus.copies(0.35, f'{i}\tx') for i in range(2000)]
    assert 0.3 < sum(draws) / len(draws) < 0.4
    assert corpus.weight_of('gettext+qm', 1) < corpus.weight_of('gettext+qm', 5) < corpus.weight_of('ding-sent', 5)


def test_recipe_end_to_end(tmp_path):
    op = tmp_path / 'open'
    (op / 'dev').mkdir(parents=True)
    (op / 'dev' / 'flores-dev.en').write_text('This is a held-out sentence.\n')
    rows = ['This is a held-out sentence.\tDas ist ein zurückgehaltener Satz.\tding-sent',
            'She reads a book.\tSie liest ein Buch.\tding-sent',
            'She reads a book.\tSie liest ein Buch.\tgettext',
            'Open\tÖffnen\tgettext',
            'Save %s\tSpeichern\tgettext']
    with gzip.open(op / 'en-de.tsv.gz', 'wt') as f:
        f.write('\n'.join(rows) + '\n')
    out = tmp_path / 'out'
    subprocess.run([sys.executable, os.path.join(os.path.dirname(corpus.__file__), 'corpus.py'),
                    '--pair', 'de', '--out', str(out), '--open', str(op), '--multi30k', str(tmp_path / 'none')],
                   check=True, capture_output=True)
    en = gzip.open(out / 'train.en.gz', 'rt').read().splitlines()
    de = gzip.open(out / 'train.de.gz', 'rt').read().splitlines()
    tags = gzip.open(out / 'train.tag.gz', 'rt').read().splitlines()
    assert len(en) == len(de) == len(tags)
    assert en.count('She reads a book.') == 4            # ding-sent's weight; the duplicate dropped
    assert 'This is a held-out sentence.' not in en
    assert all(t in ('ding-sent', 'gettext') for t in tags)
    report = {l.split('\t')[0]: l.split('\t') for l in (out / 'report.tsv').read_text().splitlines()}
    head = report['source']
    assert report['ding-sent'][head.index('held_out')] == '1'
    assert report['gettext'][head.index('placeholders')] == '1'
    assert report['gettext'][head.index('duplicate')] == '1'


def protect_tool():
    """The engine's span protection as a program, built if need be."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(corpus.__file__)))
    tool = os.path.join(root, 'build', 'host', 'tests', 'protect_tool')
    if not os.path.exists(tool):
        subprocess.run(['make', '-s', '-C', root, 'build/host/tests/protect_tool'], check=True, capture_output=True)
    return tool


def test_pairs_with_the_same_spans_are_added_with_placeholders(tmp_path):
    op = tmp_path / 'open'
    (op / 'dev').mkdir(parents=True)
    (op / 'dev' / 'flores-dev.en').write_text('A held-out sentence.\n')
    rows = ['The meeting starts at 10:30 in room 214.\tDas Treffen beginnt um 10:30 in Raum 214.\tding-sent',
            'It costs 3.50 euros.\tEs kostet 3,50 Euro.\tding-sent',          # not the same span: no copy
            'She reads a book.\tSie liest ein Buch.\tding-sent']               # no span: no copy
    with gzip.open(op / 'en-de.tsv.gz', 'wt') as f:
        f.write('\n'.join(rows) + '\n')
    out = tmp_path / 'out'
    subprocess.run([sys.executable, os.path.join(os.path.dirname(corpus.__file__), 'corpus.py'),
                    '--pair', 'de', '--out', str(out), '--open', str(op), '--multi30k', str(tmp_path / 'none'),
                    '--protect-tool', protect_tool()], check=True, capture_output=True)
    pairs = [l.split('\t') for l in gzip.open(out / 'pairs.tsv.gz', 'rt').read().splitlines()]
    added = [p for p in pairs if 'something' in p[0]]
    assert added == [['The meeting starts at something in room something.',
                      'Das Treffen beginnt um etwas in Raum etwas.', 'ding-sent', '1']]
    assert len(pairs) == 4
    report = {l.split('\t')[0]: l.split('\t') for l in (out / 'report.tsv').read_text().splitlines()}
    assert report['+placeholders'][2] == '1'
    en = gzip.open(out / 'train.en.gz', 'rt').read().splitlines()
    assert en.count('The meeting starts at something in room something.') == 1
