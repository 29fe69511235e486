"""train/mono.py's Spanish: sentences split before ¿ ¡ and accented
capitals but not after an abbreviation, English text kept out by its function
words, fortunes-es read from its .fortunes files only (not the strfile
indexes, the .u8 copies or the offensive section in off/), and the merge
writing mono.es.tsv.gz without FLORES dev's sentences.

    make test-train
"""
import gzip
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mono  # noqa: E402


def test_spanish_sentences_split_before_inverted_marks_and_accented_capitals():
    text = ('El Sr. García llegó tarde. ¿Dónde estabas? ¡Qué sorpresa! '
            'Él no contestó. Ésta es la última.')
    assert mono.split_sentences(text, 'es') == [
        'El Sr. García llegó tarde.', '¿Dónde estabas?', '¡Qué sorpresa!', 'Él no contestó.',
        'Ésta es la última.']


def test_english_splitting_is_unchanged_by_the_spanish_rules():
    assert mono.split_sentences('He left. ¿Qué? Then Él spoke.', 'en') == ['He left. ¿Qué?', 'Then Él spoke.']


def test_spanish_filters():
    assert mono.reject('¿Dónde está la estación de tren?', 'es') is None
    assert mono.reject('Ésta es la amistad más pura.', 'es') is None
    assert mono.reject('This is what they have for the rest of us.', 'es') == 'language'
    assert mono.reject('la vida es sueño', 'es') == 'fragment'


def test_fortunes_es_reads_its_fortune_files_only(tmp_path):
    d = tmp_path / 'usr' / 'share' / 'games' / 'fortunes' / 'es'
    (d / 'off').mkdir(parents=True)
    (d / 'vida.fortunes').write_text('La vida es sueño, y los sueños, sueños son.\n'
                                     '\t\t-- Calderón de la Barca\n%\nDonde hay concordia hay victoria.\n%\n')
    (d / 'vida.fortunes.u8').write_text('Una copia en otra codificación.\n%\n')
    (d / 'vida.fortunes.dat').write_bytes(b'\x00\x00\x00\x02')
    (d / 'off' / 'varios.fortunes').write_text('Algo que no se lee aquí.\n%\n')
    paras = [p for _, p in mono.READERS['fortunes-es'](str(tmp_path)) if p]
    assert paras == ['La vida es sueño, y los sueños, sueños son.', 'Donde hay concordia hay victoria.']


def test_merge_writes_spanish_without_flores_dev(tmp_path):
    tree = tmp_path / 'deb'
    d = tree / 'usr' / 'share' / 'games' / 'fortunes' / 'es'
    d.mkdir(parents=True)
    (d / 'vida.fortunes').write_text('Donde hay concordia hay victoria.\n%\n'
                                     'La amistad es una igualdad armónica.\n%\n')
    out = tmp_path / 'mono'
    (out / 'parts').mkdir(parents=True)
    mono.extract('fortunes-es', str(tree), str(out / 'parts' / 'fortunes-es.tsv.gz'), '1.36')
    flores = tmp_path / 'dev'
    flores.mkdir()
    (flores / 'flores-dev.es').write_text('La amistad es una igualdad armónica.\n')
    mono.merge(str(out), str(flores))
    with gzip.open(out / 'mono.es.tsv.gz', 'rt', encoding='utf-8') as f:
        assert f.read() == 'Donde hay concordia hay victoria.\tfortunes-es:GPL-2+\n'
    report = (out / 'mono.report.txt').read_text()
    assert 'fortunes-es' in report and '\nes   TOTAL' in report
