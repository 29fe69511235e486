"""nmt.detect, nmt.models and nmt.translate(source=..., target=...) against
the command line's nmt detect, nmt models and nmt -l (auto) on the same
installed models: copies of the tiny fixture packed as fr->en, and the
built-in en->de.

Run by `make test` (which builds libnmt.so, ./nmt and ./model-pack first)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'python'))
os.environ.setdefault('NMT_LIBRARY', os.path.join(ROOT, 'libnmt.so'))
import nmt  # noqa: E402

FIX = os.path.join(ROOT, 'tests', 'fixtures', 'tiny')
LINES = ['Le chien court le long de la plage avec les enfants.', 'A dog runs along the beach with the children.',
         'Der Hund läuft mit den Kindern am Strand entlang.', '123 456 !',
         'Deux hommes parlent dans la rue près de la gare.']


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """NMT_MODELS with a fr->en model and a file that is not one; HOME empty."""
    models = tmp_path / 'models'
    models.mkdir()
    subprocess.run([os.path.join(ROOT, 'model-pack'), '--src-lang', 'fr', '--tgt-lang', 'en', '-o',
                    str(models / 'a-fren.nmt'), os.path.join(FIX, 'tiny.safetensors'),
                    os.path.join(FIX, 'src.model'), os.path.join(FIX, 'tgt.model')],
                   check=True, capture_output=True)
    (models / 'b-broken.nmt').write_text('not a model')
    monkeypatch.setenv('NMT_MODELS', str(models))
    monkeypatch.setenv('HOME', str(tmp_path / 'home'))
    return models


def cli(lines, *args):
    out = subprocess.run([os.path.join(ROOT, 'nmt'), *args], input='\n'.join(lines) + '\n',
                         capture_output=True, text=True, check=True)
    return out.stdout.split('\n')[:len(lines)]


def test_detect_names_the_language():
    assert nmt.detect('Der Hund läuft mit den Kindern am Strand entlang.') == 'de'
    assert nmt.detect('Le chien court le long de la plage.', ['en', 'fr']) == 'fr'
    assert nmt.detect('123 456 !') == 'und'
    assert nmt.detect('123 456 !', confidences=True) == []


def test_detect_confidences_best_first():
    found = nmt.detect('A dog runs along the beach.', ['de', 'en', 'fr'], confidences=True)
    assert [code for code, _ in found][0] == 'en' and len(found) == 3
    assert sorted(found, key=lambda f: -f[1]) == found
    assert abs(sum(c for _, c in found) - 1) < 1e-6


def test_detect_same_as_nmt_detect():
    assert [nmt.detect(t, ['en', 'de', 'fr']) for t in LINES] == cli(LINES, 'detect', '--langs', 'en,de,fr')


def test_detect_errors():
    with pytest.raises(nmt.NmtError, match='xx'):
        nmt.detect('text', ['en', 'xx'])
    with pytest.raises(TypeError):
        nmt.detect(b'bytes')


def test_models_as_nmt_models(installed):
    found = nmt.models()
    assert (found[0].src, found[0].tgt, found[0].path) == ('fr', 'en', str(installed / 'a-fren.nmt'))
    assert (found[-1].src, found[-1].tgt, found[-1].path) == ('en', 'de', None)
    assert len(found) == 2   # the broken file is skipped
    assert found[0].size == os.path.getsize(installed / 'a-fren.nmt')


def test_translate_auto_same_as_the_command_line(installed):
    want = cli(LINES, '-l', 'auto-de')
    assert nmt.translate(LINES, source='auto', target='de') == want
    assert want[2:4] == LINES[2:4]   # German and no letters: unchanged
    assert nmt.translate(LINES[0], source='auto', target='de') == want[0]


def test_translate_pair_and_pivot(installed):
    assert nmt.translate(LINES[:1], source='fr', target='de') == cli(LINES[:1], '-l', 'fr-de')
    assert nmt.translate(LINES[1], source='en', target='de') == cli(LINES[1:2], '-l', 'en-de')[0]
    with pytest.raises(nmt.NmtError, match='no installed model translates de to fr'):
        nmt.translate('Hallo', source='de', target='fr')
    with pytest.raises(nmt.NmtError, match='into xx'):
        nmt.translate('Hallo', source='auto', target='xx')
