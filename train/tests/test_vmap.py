"""train/vmap.py: IBM Model 1 against its textbook loops, and the sweep's maps
against vmap.py's own.

    make test-train    (needs Debian's python3-sentencepiece and python3-numpy)
"""
import os
import random
import subprocess
import sys

import pytest

np = pytest.importorskip('numpy')
pytest.importorskip('sentencepiece')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import vmap  # noqa: E402


def textbook_ibm1(src, tgt, vs, vt, iterations):
    """Model 1's EM as written in Brown et al. 1993, one pair at a time."""
    t = np.full((vs + 1, vt), 1.0 / vt)
    for _ in range(iterations):
        counts = np.zeros((vs + 1, vt))
        for s, y in zip(src, tgt):
            ss = s + [vs]
            for tok in y:
                denom = sum(t[j, tok] for j in ss)
                for j in ss:
                    counts[j, tok] += t[j, tok] / denom
        totals = counts.sum(axis=1, keepdims=True)
        t = np.where(totals > 0, counts / np.maximum(totals, 1e-30), 1.0 / vt)
    return t


def test_ibm1_matches_the_textbook_across_chunks(monkeypatch):
    rng = random.Random(3)
    vs, vt = 13, 11
    src = [[rng.randrange(vs) for _ in range(rng.randint(1, 6))] for _ in range(40)]
    tgt = [[rng.randrange(vt) for _ in range(rng.randint(1, 6))] for _ in range(40)]
    monkeypatch.setattr(vmap, 'CHUNK_PAIRS', 50)   # many chunks, each summed on its own
    got = vmap.ibm1(src, tgt, vs, vt, 3)
    want = textbook_ibm1(src, tgt, vs, vt, 3)
    assert got.shape == want.shape
    assert np.allclose(got, want, atol=1e-6)
    # something was learnt: rows are distributions, not the uniform start
    assert np.allclose(got.sum(axis=1), 1.0, atol=1e-5)
    assert got.max() > 2.0 / vt


ENGLISH = ['A man in an orange hat stares at something.', 'Two young men stand outside near many bushes.',
           'Please send me the invoice by Friday.', 'Where is the train station?'] * 10
GERMAN = ['Ein Mann mit einem orangefarbenen Hut starrt auf etwas.',
          'Zwei junge Männer stehen draußen neben vielen Büschen.',
          'Bitte senden Sie mir die Rechnung bis Freitag.', 'Wo ist der Bahnhof?'] * 10


@pytest.fixture(scope='module')
def joint_spm(tmp_path_factory):
    """A small joint SentencePiece model of both sides (a 16,000-piece one
    makes Model 1's table 16,001 x 16,000)."""
    spm = pytest.importorskip('sentencepiece')
    d = tmp_path_factory.mktemp('joint')
    (d / 'text').write_text('\n'.join(ENGLISH + GERMAN) + '\n')
    spm.SentencePieceTrainer.train(input=str(d / 'text'), model_prefix=str(d / 'joint'), vocab_size=100,
                                   model_type='unigram', character_coverage=1.0)
    return str(d / 'joint.model')


def test_sweep_writes_the_map_vmap_py_writes(tmp_path, joint_spm):
    en, de = tmp_path / 'c.en', tmp_path / 'c.de'
    en.write_text('\n'.join(ENGLISH) + '\n')
    de.write_text('\n'.join(GERMAN) + '\n')
    common = ['--src-train', str(en), '--tgt-train', str(de), '--spm-src', joint_spm, '--spm-tgt', joint_spm,
              '--zero-short', '1', '--min-count', '2']
    one = subprocess.run([sys.executable, os.path.join(ROOT, 'train', 'vmap.py'), *common, '--max-n', '1',
                          '--per-ngram', '5', '--zero', '20', '--out', str(tmp_path / 'one.txt')],
                         check=True, capture_output=True, text=True).stdout
    sweep = subprocess.run([sys.executable, os.path.join(ROOT, 'train', 'vmap_sweep.py'), *common,
                            '--src-val', str(en), '--tgt-val', str(de), '--spread', '1', '--max-n', '1',
                            '--per-ngram', '3,5', '--zero', '20', '--out-dir', str(tmp_path / 'sweep')],
                           check=True, capture_output=True, text=True).stdout
    written = sorted(os.listdir(tmp_path / 'sweep'))
    assert written == ['vmap-1-1-3-20.txt', 'vmap-1-1-5-20.txt']
    assert (tmp_path / 'sweep' / 'vmap-1-1-5-20.txt').read_bytes() == (tmp_path / 'one.txt').read_bytes()
    assert (tmp_path / 'sweep' / 'vmap-1-1-3-20.txt').read_bytes() != (tmp_path / 'one.txt').read_bytes()
    # the sweep's line for that setting counts what vmap.py reports writing
    zero, ngrams, targets = (int(w) for w in one.split(': ')[1].replace(',', '').split()[0:6:2])
    assert f'1 1 5 20 | {zero} {ngrams} {targets} |' in sweep
