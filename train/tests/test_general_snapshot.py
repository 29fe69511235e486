"""train/general.sh with SNAPSHOT=1: a round still in training made
installable as it stands. Its checkpoints so far are scored through the C
engine and the better one chosen, its q4 comes from GPTQ, all three formats
are packed and scored, and round.txt names the snapshot for
train/install_general.sh. A direction whose shipped model is of this
recipe takes that model's map rather than building one again.

Here the "checkpoints" of an en->de round are the shipped en->de weights
and the shipped de->en ones (the same joint vocabulary, so they pack as an
en->de model, but they translate into English): the choice must fall on the
first. Needs `make` (nmt, model-pack).

    make test-train
"""
import gzip
import os
import shutil
import subprocess

import pytest

pytest.importorskip('torch')
pytest.importorskip('sentencepiece')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, 'models')

PAIRS = [
    ('A dog runs on the beach.', 'Ein Hund rennt am Strand.'),
    ('Where is the train station?', 'Wo ist der Bahnhof?'),
    ('Please open the file.', 'Bitte öffnen Sie die Datei.'),
    ('The children play in the garden.', 'Die Kinder spielen im Garten.'),
    ('I would like a cup of coffee.', 'Ich möchte eine Tasse Kaffee.'),
    ('The program could not be started.', 'Das Programm konnte nicht gestartet werden.'),
    ('Two men are sitting on a bench.', 'Zwei Männer sitzen auf einer Bank.'),
    ('Save the document before you close it.', 'Speichern Sie das Dokument, bevor Sie es schließen.'),
]


@pytest.fixture
def out(tmp_path):
    for tool in ('nmt', 'model-pack'):
        if not os.access(os.path.join(ROOT, tool), os.X_OK):
            pytest.skip(f'./{tool} is not built (make)')
    out = tmp_path / 'out'
    run = out / 'gru-ende-human'
    run.mkdir(parents=True)
    shutil.copy(os.path.join(MODELS, 'ende.safetensors'), run / 'step-2000-ema.safetensors')
    shutil.copy(os.path.join(MODELS, 'deen.safetensors'), run / 'step-2000.safetensors')
    shutil.copy(os.path.join(MODELS, 'ende.en.model'), out / 'spm.ende.model')
    (out / 'ende-final').mkdir()
    shutil.copy(os.path.join(MODELS, 'ende.vmap'), out / 'ende-final' / 'vmap.txt')
    corpus = out / 'corpus' / 'de'
    corpus.mkdir(parents=True)
    (corpus / 'report.tsv').write_text('source\tread\n')
    dev = tmp_path / 'open' / 'dev'
    dev.mkdir(parents=True)
    multi30k = tmp_path / 'multi30k'
    multi30k.mkdir()
    for k, lang in enumerate(('en', 'de')):
        text = ''.join(p[k] + '\n' for p in PAIRS)
        for gz in (corpus / f'train.{lang}.gz', multi30k / f'val.{lang}.gz'):
            with gzip.open(gz, 'wt', encoding='utf-8') as f:
                f.write(text)
        (dev / f'flores-dev.{lang}').write_text(text, encoding='utf-8')
    return out


def snapshot(out, *extra, **more):
    env = dict(os.environ, SNAPSHOT='1', GPTQ_LINES='8', OPEN=str(out.parent / 'open'),
               MONO_DIR=str(out.parent / 'none'), MULTI30K=str(out.parent / 'multi30k'), PYTHON='/usr/bin/python3',
               **more)
    return subprocess.run(['sh', 'train/general.sh', str(out), 'ende', *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def test_the_better_checkpoint_is_chosen_rounded_packed_and_named(out):
    # a fresh machine: the map is the shipped model's own (same vocabulary), not built again
    (out / 'ende-final' / 'vmap.txt').unlink()
    r = snapshot(out)
    assert r.returncode == 0, r.stderr
    fin = out / 'ende-final' / 'snapshot'
    with open(os.path.join(MODELS, 'ende.vmap'), 'rb') as f:
        assert (out / 'ende-final' / 'vmap.txt').read_bytes() == f.read()
    assert (out / 'ende-final' / 'round.txt').read_text().strip() == 'snapshot'
    assert (fin / 'round.txt').read_text().strip() == 'human'
    assert (fin / 'chosen_f32.txt').read_text().strip().endswith('step-2000-ema.safetensors')
    assert (fin / 'chosen.txt').read_text().strip() == str(fin / 'gptq.safetensors')
    assert (fin / 'gptq.safetensors').stat().st_size > 0
    rows = [line.split() for line in (fin / 'flores.txt').read_text().splitlines()[1:]]
    assert sorted((r[0], r[1]) for r in rows) == sorted(
        (f'ende.{q}.nmt', f'beam{b}') for q in ('f32', 'q8', 'q4n+i8') for b in (1, 4))
    for q in ('f32', 'q8', 'q4n+i8'):   # q4n+i8: Q4_FORMAT's default
        assert (fin / f'ende.{q}.nmt').stat().st_size > 0
    # the German model scores on its own language; the English one cannot
    val = {line.split()[0]: float(line.split()[3]) for line in (fin / 'val_f32.txt').read_text().splitlines()[1:]}
    assert val[str(out / 'gru-ende-human' / 'step-2000-ema.safetensors')] > \
        val[str(out / 'gru-ende-human' / 'step-2000.safetensors')]
    # and so on Multi30k val, which the choice keeps (the caption domain)
    m30k = {line.split()[0]: float(line.split()[3])
            for line in (fin / 'val_f32_multi30k.txt').read_text().splitlines()[1:]}
    assert set(m30k) == set(val)
    assert m30k[str(out / 'gru-ende-human' / 'step-2000-ema.safetensors')] > \
        m30k[str(out / 'gru-ende-human' / 'step-2000.safetensors')]
    # the length normalization its shipped (q4) file searches with, one of
    # bench/alpha.sh's, scored on FLORES dev and Multi30k val
    table = [line.split() for line in (fin / 'alpha_table.txt').read_text().splitlines()[1:]]
    assert [row[0] for row in table] == ['0.3', '0.6', '1.0', '1.5']
    assert all(row[4] != '-' for row in table)
    assert (fin / 'alpha.txt').read_text().strip() in [row[0] for row in table]


def test_a_later_round_with_checkpoints_is_the_one_taken(out):
    bt = out / 'gru-ende-bt'
    bt.mkdir()
    shutil.copy(os.path.join(MODELS, 'ende.safetensors'), bt / 'step-2000.safetensors')
    (out / 'corpus' / 'ende').mkdir()
    for lang in ('en', 'de'):
        shutil.copy(out / 'corpus' / 'de' / f'train.{lang}.gz', out / 'corpus' / 'ende' / f'train.{lang}.gz')
    r = snapshot(out)
    assert r.returncode == 0, r.stderr
    fin = out / 'ende-final' / 'snapshot'
    assert (fin / 'round.txt').read_text().strip() == 'bt'
    assert (fin / 'chosen_f32.txt').read_text().strip() == str(bt / 'step-2000.safetensors')


def test_nothing_to_snapshot_says_so(out):
    for f in (out / 'gru-ende-human').glob('step-*'):
        f.unlink()
    r = snapshot(out)
    assert r.returncode != 0
    assert 'no validated checkpoint' in r.stderr
    assert not (out / 'ende-final' / 'round.txt').exists()


def test_snapshot_qat_runs_the_q4_stage_and_carries_on_only_from_the_same_weights(out):
    # SNAPSHOT_QAT=1: GPTQ, the loops' negatives and a minute of
    # quantization-aware training; the q4 weights chosen among them
    r = snapshot(out, SNAPSHOT_QAT='1', ALPHAS='0.6')
    assert r.returncode == 0, r.stderr
    fin, q4run = out / 'ende-final' / 'snapshot', out / 'gru-ende-snapshot-q4'
    for f in ('gptq.safetensors', 'negatives/neg.tsv', 'train.done', 'last.pt', 'from.txt'):
        assert (q4run / f).exists(), f
    chosen = (fin / 'chosen.txt').read_text().strip()
    assert chosen.startswith(str(q4run)) and os.path.exists(chosen)
    assert str(q4run / 'gptq.safetensors') in (fin / 'val_q4.txt').read_text()
    assert (fin / 'ende.q4n+i8.nmt').stat().st_size > 0   # Q4_FORMAT's default
    assert (fin / 'q4_format.txt').read_text().strip() == 'q4n+i8'
    # en->de ships q4, so by default its f32 weights are not trained against their loops
    assert not (out / 'gru-ende-snapshot-loops').exists()
    assert not (fin / 'chosen_loops.txt').exists()
    # the same f32 weights again: the stage is not trained again
    done = (q4run / 'train.done').stat().st_mtime_ns
    assert snapshot(out, SNAPSHOT_QAT='1', ALPHAS='0.6').returncode == 0
    assert (q4run / 'train.done').stat().st_mtime_ns == done
    # other f32 weights: it starts again
    shutil.copy(os.path.join(MODELS, 'ende-q4n+i8.safetensors'), out / 'gru-ende-human' / 'step-2000-ema.safetensors')
    r = snapshot(out, SNAPSHOT_QAT='1', ALPHAS='0.6')
    assert r.returncode == 0, r.stderr
    assert (q4run / 'train.done').stat().st_mtime_ns != done


def test_loop_training_trains_the_f32_weights_and_packs_its_choice(out, tmp_path):
    # LOOP_TRAIN=1 (en->de ships q4, so the default would skip it): the
    # chosen f32 weights a minute more against the q4 stage's negatives, then
    # the f32 and q8 files packed from the choice among them and the run's
    # checkpoints, in q8
    r = snapshot(out, SNAPSHOT_QAT='1', LOOP_TRAIN='1', LOOP_MIN='1', ALPHAS='0.6')
    assert r.returncode == 0, r.stderr
    fin, run = out / 'ende-final' / 'snapshot', out / 'gru-ende-snapshot-loops'
    for f in ('train.done', 'last.pt', 'from.txt'):
        assert (run / f).exists(), f
    before = (fin / 'chosen_f32.txt').read_text().strip()
    steps = sorted(str(p) for p in run.glob('step-*.safetensors'))
    assert steps
    scored = [line.split()[0] for line in (fin / 'val_loops.txt').read_text().splitlines()[1:]]
    assert sorted(scored) == sorted([before] + steps)
    assert [line.split()[1] for line in (fin / 'val_loops.txt').read_text().splitlines()[1:]] == ['q8'] * len(scored)
    chosen = (fin / 'chosen_loops.txt').read_text().strip()
    assert chosen in scored
    # the f32 file is the choice, packed as the recipe packs it
    again = tmp_path / 'again.nmt'
    subprocess.run([os.path.join(ROOT, 'model-pack'), '--quant', 'f32', '--precompute-top', '1000', '--vmap',
                    str(out / 'ende-final' / 'vmap.txt'), '-o', str(again), chosen, str(out / 'spm.ende.model'),
                    str(out / 'spm.ende.model')], check=True, capture_output=True)
    assert (fin / 'ende.f32.nmt').read_bytes() == again.read_bytes()
    assert 'ende.f32.nmt' in (fin / 'flores.txt').read_text()
    # run again: nothing is trained again
    done = (run / 'train.done').stat().st_mtime_ns
    r = snapshot(out, SNAPSHOT_QAT='1', LOOP_TRAIN='1', LOOP_MIN='1', ALPHAS='0.6')
    assert r.returncode == 0, r.stderr
    assert (run / 'train.done').stat().st_mtime_ns == done


def test_loop_training_is_left_out_without_negatives(out):
    # GPTQ alone has no negatives to train against: said, not failed
    r = snapshot(out, LOOP_TRAIN='1', ALPHAS='0.6')
    assert r.returncode == 0, r.stderr
    assert 'no q4 stage\'s negatives' in r.stdout
    assert not (out / 'ende-final' / 'snapshot' / 'chosen_loops.txt').exists()
    r = snapshot(out, LOOP_TRAIN='yes')
    assert r.returncode == 2 and 'LOOP_TRAIN is auto, 0 or 1' in r.stderr
