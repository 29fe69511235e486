"""train/install_general.sh: a general-domain direction's chosen weights,
vocabulary and map copied into models/ as `make` packs them, 4-bit weights
(q4n, or q4 from a round made before q4n) only where they keep within 0.5
BLEU of q8 (but always for the embedded en->de), and a record of where each
came from.

    make test-train
"""
import json
import os
import shutil
import struct
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY = os.path.join(ROOT, 'tests', 'fixtures', 'tiny')


def header(path):
    with open(path, 'rb') as f:
        return json.loads(f.read(struct.unpack('<Q', f.read(8))[0]))


def dtypes(path):
    return {v['dtype'] for k, v in header(path).items() if k != '__metadata__'}


@pytest.fixture
def repo(tmp_path):
    """A checkout's train/ with an empty models/, and a recipe's OUT_DIR."""
    root = tmp_path / 'repo'
    (root / 'models').mkdir(parents=True)
    os.symlink(os.path.join(ROOT, 'train'), root / 'train')
    out = tmp_path / 'out'
    out.mkdir()
    for pair in ('fr', 'de'):
        shutil.copy(os.path.join(TINY, 'src.model'), out / f'spm.en{pair}.model')
    return root, out


def recipe_round(out, direction, q8_beam4, q4_beam4, four_bit=None):
    """OUT/DIRECTION-final as the recipe leaves it: the human round chosen,
    its weights, and FLORES scores with the given beam-4 BLEU of q8 and of
    its 4-bit format (four_bit, recorded in q4_format.txt; None: a round
    from before the record, q4)."""
    fin = out / f'{direction}-final'
    rnd = fin / 'human'
    rnd.mkdir(parents=True)
    shutil.copy(os.path.join(TINY, 'vmap_small.txt'), fin / 'vmap.txt')
    (fin / 'round.txt').write_text('human\n')
    (rnd / 'chosen_f32.txt').write_text(os.path.join(TINY, 'tiny.safetensors') + '\n')
    (rnd / 'chosen.txt').write_text(os.path.join(TINY, 'tiny.safetensors') + '\n')
    if four_bit:
        (rnd / 'q4_format.txt').write_text(four_bit + '\n')
    (rnd / 'flores.txt').write_text(
        'model search BLEU chrF loops-on loops-off unk time\n'
        f'{direction}.q8.nmt beam1 10.0 40.0 0 1 0 1.0\n'
        f'{direction}.q8.nmt beam4 {q8_beam4} 41.0 0 1 0 1.0\n'
        f'{direction}.{four_bit or "q4"}.nmt beam4 {q4_beam4} 40.0 0 1 0 1.0\n')


def install(root, *args, **env):
    return subprocess.run(['sh', 'train/install_general.sh', *map(str, args)], cwd=root,
                          env={**os.environ, 'PYTHON': '/usr/bin/python3', **env}, capture_output=True, text=True)


def test_given_weights_are_installed_in_fp16_with_the_vocabulary_twice(repo):
    root, out = repo
    recipe_round(out, 'enfr', 12.0, 11.9)
    tiny = os.path.join(TINY, 'tiny.safetensors')
    r = install(root, out, 'enfr', tiny, tiny)
    assert r.returncode == 0, r.stderr
    models = root / 'models'
    assert dtypes(models / 'enfr.safetensors') == {'F16'}
    assert dtypes(models / 'enfr-q4n.safetensors') == {'F16'}   # given 4-bit weights: Q4_FORMAT, q4n
    assert not (models / 'enfr-q4.safetensors').exists()
    spm = (out / 'spm.enfr.model').read_bytes()
    assert (models / 'enfr.en.model').read_bytes() == spm
    assert (models / 'enfr.fr.model').read_bytes() == spm
    assert (models / 'enfr.vmap').read_bytes() == (out / 'enfr-final' / 'vmap.txt').read_bytes()
    record = (models / 'enfr.txt').read_text()
    assert 'round: given' in record and 'tiny.safetensors' in record


def test_the_recipe_s_choice_and_q8_where_q4_loses_more_than_half_a_point(repo):
    root, out = repo
    recipe_round(out, 'fren', 12.0, 11.4)
    (root / 'models' / 'fren-q4.safetensors').write_bytes(b'an older q4')
    r = install(root, out, 'fren')
    assert r.returncode == 0, r.stderr
    assert (root / 'models' / 'fren.safetensors').exists()
    assert not (root / 'models' / 'fren-q4.safetensors').exists()
    record = (root / 'models' / 'fren.txt').read_text()
    assert 'round: human' in record and 'q8 ships' in record and 'beam4 11.4' in record


def test_given_q4_weights_by_q4_format(repo):
    root, out = repo
    recipe_round(out, 'enfr', 12.0, 11.9)
    tiny = os.path.join(TINY, 'tiny.safetensors')
    assert install(root, out, 'enfr', tiny, tiny, Q4_FORMAT='q4').returncode == 0
    assert (root / 'models' / 'enfr-q4.safetensors').exists()
    assert not (root / 'models' / 'enfr-q4n.safetensors').exists()


def test_given_q4n_i8_weights_replace_the_4_bit_ones_shipped_before(repo):
    root, out = repo
    recipe_round(out, 'enfr', 12.0, 11.9)
    (root / 'models' / 'enfr-q4n.safetensors').write_bytes(b'an older q4n')
    tiny = os.path.join(TINY, 'tiny.safetensors')
    assert install(root, out, 'enfr', tiny, tiny, Q4_FORMAT='q4n+i8').returncode == 0
    assert dtypes(root / 'models' / 'enfr-q4n+i8.safetensors') == {'F16'}
    assert not (root / 'models' / 'enfr-q4n.safetensors').exists()
    assert 'q4n+i8 weights: ' in (root / 'models' / 'enfr.txt').read_text()


def test_a_q4n_round_replaces_the_q4_weights_shipped_before(repo):
    root, out = repo
    recipe_round(out, 'fren', 12.0, 11.9, four_bit='q4n')
    (root / 'models' / 'fren-q4.safetensors').write_bytes(b'an older q4')
    (root / 'models' / 'fren-q4n+i8.safetensors').write_bytes(b'an older q4n+i8, which make would pack first')
    r = install(root, out, 'fren')
    assert r.returncode == 0, r.stderr
    assert dtypes(root / 'models' / 'fren-q4n.safetensors') == {'F16'}
    assert not (root / 'models' / 'fren-q4.safetensors').exists()
    assert not (root / 'models' / 'fren-q4n+i8.safetensors').exists()
    assert 'q4n weights: ' in (root / 'models' / 'fren.txt').read_text()


def test_q8_where_q4n_loses_more_than_half_a_point(repo):
    root, out = repo
    recipe_round(out, 'fren', 12.0, 11.4, four_bit='q4n')
    assert install(root, out, 'fren').returncode == 0
    assert not (root / 'models' / 'fren-q4n.safetensors').exists()
    assert 'q8 ships' in (root / 'models' / 'fren.txt').read_text()


def test_q4_where_it_keeps_within_half_a_point(repo):
    root, out = repo
    recipe_round(out, 'enfr', 12.0, 11.6)
    assert install(root, out, 'enfr').returncode == 0
    assert (root / 'models' / 'enfr-q4.safetensors').exists()


def test_the_embedded_default_always_gets_q4(repo):
    root, out = repo
    recipe_round(out, 'ende', 12.0, 10.0)
    assert install(root, out, 'ende').returncode == 0
    assert dtypes(root / 'models' / 'ende-q4.safetensors') == {'F16'}
    assert (root / 'models' / 'ende.en.model').exists() and (root / 'models' / 'ende.de.model').exists()


def test_bad_direction_and_missing_files_fail_with_one_line(repo):
    root, out = repo
    r = install(root, out, 'xx')
    assert r.returncode == 2 and r.stderr.count('\n') == 1 and 'DIRECTION' in r.stderr
    tiny = os.path.join(TINY, 'tiny.safetensors')
    r = install(root, out, 'enfr', tiny)            # f32 weights without q4 ones
    assert r.returncode == 2 and r.stderr.startswith('usage:')
    r = install(root, out, 'enfr', tiny, tiny)      # no enfr-final/vmap.txt yet
    assert r.returncode == 1 and 'vmap.txt' in r.stderr
    assert not any((root / 'models').iterdir())


def test_the_round_s_alpha_goes_into_both_weights_files(repo):
    root, out = repo
    recipe_round(out, 'enfr', 12.0, 11.6)
    rnd = out / 'enfr-final' / 'human'
    (rnd / 'alpha.txt').write_text('1.5\n')
    (rnd / 'alpha_table.txt').write_text('alpha BLEU chrF words multi30k\n1.5 12.2 41.0 100 -\n')
    assert install(root, out, 'enfr').returncode == 0
    for name in ('enfr.safetensors', 'enfr-q4.safetensors'):
        assert header(root / 'models' / name)['__metadata__']['alpha'] == '1.5'
    record = (root / 'models' / 'enfr.txt').read_text()
    assert 'length normalization (alpha): 1.5' in record and '1.5 12.2 41.0' in record


def test_without_a_chosen_alpha_none_is_recorded(repo):
    root, out = repo
    recipe_round(out, 'enfr', 12.0, 11.6)
    assert install(root, out, 'enfr').returncode == 0
    assert 'alpha' not in header(root / 'models' / 'enfr.safetensors')['__metadata__']
    tiny = os.path.join(TINY, 'tiny.safetensors')
    assert install(root, out, 'enfr', tiny, '-', ALPHA='1.0').returncode == 0   # given weights, ALPHA
    assert header(root / 'models' / 'enfr.safetensors')['__metadata__']['alpha'] == '1.0'


def test_the_loop_trained_f32_weights_where_the_round_has_them(repo):
    root, out = repo
    recipe_round(out, 'fren', 12.0, 11.4)
    rnd = out / 'fren-final' / 'human'
    run = out / 'gru-fren-human-loops'
    run.mkdir()
    shutil.copy(os.path.join(TINY, 'tiny.safetensors'), run / 'step-500.safetensors')
    (rnd / 'chosen_loops.txt').write_text(str(run / 'step-500.safetensors') + '\n')
    (rnd / 'val_loops.txt').write_text('checkpoint fmt greedy beam4 loops1 loops4\n'
                                       f'{run / "step-500.safetensors"} q8 10.0 11.0 3 1\n')
    r = install(root, out, 'fren')
    assert r.returncode == 0, r.stderr
    record = (root / 'models' / 'fren.txt').read_text()
    assert 'f32 and q8 weights: gru-fren-human-loops/step-500.safetensors' in record
    assert '== val_loops.txt' in record
