"""train/general.sh's parent(): where a human round starts. A direction
with its own shipped general model from those weights; the others, en->fr
and en->es from the shipped en->de model, fr->en and es->en from de->en
(carried over to the pair's vocabulary); nothing where the shipped model is a
caption model or TRANSFER=0. And shipped_human(): with HUMAN=shipped, a
direction's shipped general model is its human round (with shipped-q4, all
but its q4).

    make test-train
"""
import os
import shutil
import subprocess

import pytest

pytest.importorskip('torch')
pytest.importorskip('sentencepiece')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, 'models')
TINY_SPM = os.path.join(ROOT, 'tests', 'fixtures', 'tiny', 'src.model')

# the functions of general.sh that parent() needs, run on their own
SCRIPT = r'''
set -eu
. train/common.sh
eval "$(sed -n '/^other_language()/,/^}/p;/^general_model()/,/^}/p;/^parent()/,/^}/p;/^shipped_human()/,/^}/p' \
	train/general.sh)"
mkdir -p "$OUT/run"
"$@"
'''


@pytest.fixture
def repo(tmp_path):
    """A checkout with the shipped general en->de and de->en models and a
    caption model as models/enfr; OUT with a new vocabulary for en-fr."""
    root = tmp_path / 'repo'
    (root / 'models').mkdir(parents=True)
    os.symlink(os.path.join(ROOT, 'train'), root / 'train')
    for d in ('ende', 'deen'):
        for f in (f'{d}.safetensors', f'{d}.en.model', f'{d}.de.model', f'{d}.vmap'):
            os.symlink(os.path.join(MODELS, f), root / 'models' / f)
    for f in ('enfr.safetensors', 'enfr.en.model', 'enfr.fr.model'):
        os.symlink(os.path.join(MODELS, 'captions', f), root / 'models' / f)
    out = tmp_path / 'out'
    out.mkdir()
    shutil.copy(TINY_SPM, out / 'spm.enfr.model')
    shutil.copy(os.path.join(MODELS, 'ende.en.model'), out / 'spm.ende.model')
    return root, out


def parent(repo, src, tgt, transfer='1'):
    root, out = repo
    env = dict(os.environ, OUT=str(out), PY='/usr/bin/python3', TRANSFER=transfer)
    r = subprocess.run(['sh', '-c', SCRIPT, 'general', 'parent', src, tgt, str(out / 'run')], cwd=root, env=env,
                       capture_output=True, text=True, check=True)
    log = (out / 'run' / 'nohup.log')
    return r.stdout.strip(), log.read_text() if log.exists() else ''


def test_another_pair_starts_from_the_model_with_the_same_english_side(repo):
    path, log = parent(repo, 'en', 'fr')
    assert path.endswith('run/parent.safetensors') and os.path.exists(path)
    assert 'target pieces' in log and 'source pieces' in log
    path, log = parent(repo, 'fr', 'en')   # the same run folder: made once, reused
    assert os.path.exists(path)


def test_en_de_carries_on_from_its_own_shipped_weights_whole(repo):
    _, log = parent(repo, 'en', 'de')
    assert '16000 target pieces: 16000 kept, 0 new' in log
    assert '16000 source pieces: 16000 kept, 0 new' in log


def test_no_parent_without_transfer_or_a_general_model(repo):
    assert parent(repo, 'en', 'fr', transfer='0')[0] == ''
    root, _ = repo
    for f in ('ende.safetensors', 'ende.en.model', 'ende.de.model'):
        os.remove(root / 'models' / f)
    # nor from the caption model in models/enfr, which is not one of the recipe's
    assert parent(repo, 'en', 'fr')[0] == ''


def test_a_direction_with_its_own_general_model_carries_on_from_it(repo):
    """models/enfr as the recipe installs it (one joint vocabulary for both
    sides): its own weights, every piece kept, not en->de's."""
    root, _ = repo
    tiny = os.path.join(ROOT, 'tests', 'fixtures', 'tiny')
    for f in ('enfr.safetensors', 'enfr.en.model', 'enfr.fr.model'):
        os.remove(root / 'models' / f)
    shutil.copy(os.path.join(tiny, 'tiny.safetensors'), root / 'models' / 'enfr.safetensors')
    for side in ('en', 'fr'):
        shutil.copy(TINY_SPM, root / 'models' / f'enfr.{side}.model')
    _, log = parent(repo, 'en', 'fr')
    assert '300 target pieces: 300 kept, 0 new' in log
    assert '300 source pieces: 300 kept, 0 new' in log


def shipped_human(repo, direction, human):
    root, out = repo
    env = dict(os.environ, OUT=str(out), PY='/usr/bin/python3', HUMAN=human, Q4_FORMAT='q4n')
    return subprocess.run(['sh', '-c', SCRIPT, 'general', 'shipped_human', direction[:2], direction[2:]],
                          cwd=root, env=env, capture_output=True, text=True).returncode


def test_shipped_human_round_is_the_shipped_model(repo):
    root, out = repo
    assert shipped_human(repo, 'ende', 'shipped') == 0
    fin = out / 'ende-final'
    assert (fin / 'human' / 'chosen_f32.txt').read_text().strip() == str(root / 'models' / 'ende.safetensors')
    # 4-bit: the shipped 4-bit weights where they are a file of their own
    # (q4n+i8, then q4n, then q4), else the f32 ones, packed in Q4_FORMAT
    assert (fin / 'human' / 'chosen.txt').read_text().strip() == str(root / 'models' / 'ende.safetensors')
    assert (fin / 'human' / 'q4_format.txt').read_text().strip() == 'q4n'
    assert (fin / 'vmap.txt').read_bytes() == (root / 'models' / 'ende.vmap').read_bytes()
    os.symlink(os.path.join(MODELS, 'ende.safetensors'), root / 'models' / 'deen-q4.safetensors')
    assert shipped_human(repo, 'deen', 'shipped') == 0
    deen = out / 'deen-final' / 'human'
    assert (deen / 'chosen.txt').read_text().strip() == str(root / 'models' / 'deen-q4.safetensors')
    assert (deen / 'q4_format.txt').read_text().strip() == 'q4'
    for f in deen.iterdir():
        f.unlink()
    os.symlink(os.path.join(MODELS, 'ende.safetensors'), root / 'models' / 'deen-q4n.safetensors')
    assert shipped_human(repo, 'deen', 'shipped') == 0
    assert (deen / 'chosen.txt').read_text().strip() == str(root / 'models' / 'deen-q4n.safetensors')
    assert (deen / 'q4_format.txt').read_text().strip() == 'q4n'
    for f in deen.iterdir():
        f.unlink()
    os.symlink(os.path.join(MODELS, 'ende.safetensors'), root / 'models' / 'deen-q4n+i8.safetensors')
    assert shipped_human(repo, 'deen', 'shipped') == 0   # q4n+i8 before q4n
    assert (deen / 'chosen.txt').read_text().strip() == str(root / 'models' / 'deen-q4n+i8.safetensors')
    assert (deen / 'q4_format.txt').read_text().strip() == 'q4n+i8'
    # a choice already made in OUT is kept
    (fin / 'human' / 'chosen_f32.txt').write_text('mine\n')
    assert shipped_human(repo, 'ende', 'shipped') == 0
    assert (fin / 'human' / 'chosen_f32.txt').read_text() == 'mine\n'


def test_shipped_q4_leaves_the_q4_to_the_q4_stage(repo):
    """HUMAN=shipped-q4: the shipped f32 weights are the human round, and
    its q4 is not taken as shipped (qat() makes it, from those weights)."""
    root, out = repo
    assert shipped_human(repo, 'ende', 'shipped-q4') == 0
    fin = out / 'ende-final'
    assert (fin / 'human' / 'chosen_f32.txt').read_text().strip() == str(root / 'models' / 'ende.safetensors')
    assert not (fin / 'human' / 'chosen.txt').exists()
    assert (fin / 'vmap.txt').read_bytes() == (root / 'models' / 'ende.vmap').read_bytes()
    assert shipped_human(repo, 'enfr', 'shipped-q4') != 0   # a caption model
    # HUMAN=shipped ran in this OUT first: its choice of the shipped q4 is made again
    assert shipped_human(repo, 'ende', 'shipped') == 0
    assert (fin / 'human' / 'chosen.txt').exists()
    (fin / 'human' / 'flores.txt').write_text('the shipped weights packed\n')
    assert shipped_human(repo, 'ende', 'shipped-q4') == 0
    assert not (fin / 'human' / 'chosen.txt').exists()
    assert not (fin / 'human' / 'flores.txt').exists()   # packed and scored again
    # the q4 stage's own choice is kept
    (fin / 'human' / 'chosen.txt').write_text('stage\n')
    assert shipped_human(repo, 'ende', 'shipped-q4') == 0
    assert (fin / 'human' / 'chosen.txt').read_text() == 'stage\n'


def test_human_round_is_trained_by_default_and_for_caption_models(repo):
    _, out = repo
    assert shipped_human(repo, 'ende', 'train') != 0
    assert shipped_human(repo, 'enfr', 'shipped') != 0   # models/enfr is a caption model here
    assert not (out / 'ende-final').exists() and not (out / 'enfr-final').exists()


# student() with the trainer's command written out instead of run
STUDENT = r'''
set -eu
. train/common.sh
eval "$(sed -n '/^timed()/,/^}/p;/^other_language()/,/^}/p;/^general_model()/,/^}/p;/^parent()/,/^}/p;
	/^data_args()/,/^}/p;/^corpus_of()/,/^}/p;/^f32_weights()/,/^}/p;/^student()/,/^}/p' train/general.sh)"
logged() { [ "$1" != -a ] || shift; shift; echo "$@"; }
student "$@"
'''


def student_command(repo, src, tgt, round='human', **more):
    root, out = repo
    env = dict(os.environ, OUT=str(out), PY='/usr/bin/python3', TRANSFER='1', OPEN='open', STUDENT_DIMS='--emb 8',
               STUDENT_MIN='1', BATCH_VOCAB='0', EMA='0', BF16='0', BT_MIN='1', **{'BT_LR': '5e-4', **more})
    return subprocess.run(['sh', '-c', STUDENT, 'general', src, tgt, round], cwd=root, env=env,
                          capture_output=True, text=True, check=True).stdout.split()


def learning_rates(command):
    return [command[i + 1] for i, a in enumerate(command) if a == '--lr']


def test_a_run_resumed_keeps_its_learning_rate_when_a_model_of_it_was_installed_meanwhile(repo):
    root, out = repo
    tiny = os.path.join(ROOT, 'tests', 'fixtures', 'tiny')
    for f in ('enfr.safetensors', 'enfr.en.model', 'enfr.fr.model'):
        os.remove(root / 'models' / f)
    # en->fr starts from en->de's weights at the recipe's learning rate
    assert learning_rates(student_command(repo, 'en', 'fr')) == ['1e-3']
    # then an interim en->fr is installed: the run under way, resumed from its last.pt, goes on at its own ...
    shutil.copy(os.path.join(tiny, 'tiny.safetensors'), root / 'models' / 'enfr.safetensors')
    for side in ('en', 'fr'):
        shutil.copy(TINY_SPM, root / 'models' / f'enfr.{side}.model')
    resume(out / 'gru-enfr-human')
    assert learning_rates(student_command(repo, 'en', 'fr')) == ['1e-3']
    # ... a new run carries on from it at the lower rate, and keeps it when it resumes
    shutil.rmtree(out / 'gru-enfr-human')
    assert learning_rates(student_command(repo, 'en', 'fr')) == ['5e-4']
    resume(out / 'gru-enfr-human')
    assert learning_rates(student_command(repo, 'en', 'fr')) == ['5e-4']


def test_a_bt_round_starts_at_bt_lr_and_keeps_its_rate(repo):
    _, out = repo
    assert learning_rates(student_command(repo, 'de', 'en', 'bt', BT_LR='2.5e-4')) == ['2.5e-4']
    assert (out / 'gru-deen-bt' / 'lr.txt').read_text().strip() == '2.5e-4'
    resume(out / 'gru-deen-bt')
    assert learning_rates(student_command(repo, 'de', 'en', 'bt', BT_LR='1e-4')) == ['2.5e-4']
    shutil.rmtree(out / 'gru-deen-bt')
    assert learning_rates(student_command(repo, 'de', 'en', 'bt')) == ['5e-4']


def resume(run):
    """The run as a stop leaves it: a last.pt, not finished (the stand-in trainer "finished")."""
    (run / 'train.done').unlink()
    (run / 'last.pt').write_bytes(b'')


# qat() with GPTQ, the negatives and the trainer's command written out instead of run
QAT = r'''
set -eu
. train/common.sh
eval "$(sed -n '/^timed()/,/^}/p;/^other_language()/,/^}/p;/^general_model()/,/^}/p;/^data_args()/,/^}/p;
	/^corpus_of()/,/^}/p;/^f32_weights()/,/^}/p;/^q4_corpus()/,/^}/p;/^against_loops()/,/^}/p;/^qat()/,/^}/p;
	/^four_bit()/,/^}/p;/^q4_fresh()/,/^}/p' train/general.sh)"
logged() { [ "$1" != -a ] || shift; shift; echo "$@"; }
rounded() { echo "gptq-corpus $6"; : >"$7"; }
negatives() { echo "negatives-corpus $4"; }
scored() { :; }
chosen() { echo "$OUT/chosen-by-stage"; }
mkdir -p "$OUT/$1$2-final/$3"
echo chosen >"$OUT/$1$2-final/$3/chosen.txt"
echo "$CHOSEN_FORMAT" >"$OUT/$1$2-final/$3/q4_format.txt"
qat "$@"
'''


def run_qat(repo, human='shipped-q4', q4_corpus='human', src='de', tgt='en', q4_format='q4n', chosen_format='q4n'):
    """The words qat() writes out: the steps' corpora and the trainer's command."""
    _, out = repo
    env = dict(os.environ, OUT=str(out), PY='/usr/bin/python3', OPEN='open', HUMAN=human, Q4_CORPUS=q4_corpus,
               QAT_MIN='1', NEG_WEIGHT='0.5', BATCH_VOCAB='0', BF16='0', Q4_FORMAT=q4_format,
               CHOSEN_FORMAT=chosen_format)
    return subprocess.run(['sh', '-c', QAT, 'general', src, tgt, 'human'], cwd=repo[0], env=env,
                          capture_output=True, text=True, check=True).stdout.split()


def test_the_q4_stage_trains_in_q4_format_and_starts_again_for_the_other_one(repo):
    _, out = repo
    run, fin = out / 'gru-deen-human-q4', out / 'deen-final' / 'human'
    words = run_qat(repo)
    assert words[words.index('--quant') + 1] == 'q4n'
    assert (run / 'format.txt').read_text().strip() == 'q4n'
    # resumed in the same format: the run and its choice stay
    (run / 'last.pt').write_bytes(b'')
    run_qat(repo)
    assert (run / 'last.pt').exists()
    assert (fin / 'chosen.txt').read_text().strip() == 'chosen'
    # a stage of the other format (an old q4 run has no format.txt) starts again and chooses again
    (run / 'format.txt').unlink()
    (run / 'train.done').unlink()
    (run / 'from.txt').write_text('a snapshot\'s weights\n')
    words = run_qat(repo, chosen_format='q4')
    assert words[words.index('--quant') + 1] == 'q4n'
    assert not (run / 'last.pt').exists()
    assert (run / 'from.txt').exists() and (run / 'format.txt').read_text().strip() == 'q4n'
    assert (fin / 'chosen.txt').read_text().strip() == str(out / 'chosen-by-stage')
    assert (fin / 'q4_format.txt').read_text().strip() == 'q4n'
    # Q4_FORMAT=q4: the powers of two
    shutil.rmtree(run)
    words = run_qat(repo, q4_format='q4', chosen_format='q4')
    assert words[words.index('--quant') + 1] == 'q4'


def qat_corpora(repo, human, q4_corpus, src='de', tgt='en'):
    """The corpus each step of qat() for a direction's human round works on."""
    _, out = repo
    shutil.rmtree(out / f'gru-{src}{tgt}-human-q4', ignore_errors=True)
    words = run_qat(repo, human, q4_corpus, src, tgt)
    trained = {os.path.dirname(words[i + 1]) for i, a in enumerate(words) if a in ('--src-train', '--tgt-train')}
    return {os.path.relpath(words[words.index('gptq-corpus') + 1], out),
            os.path.relpath(words[words.index('negatives-corpus') + 1], out)} | {os.path.relpath(d, out) for d in trained}


def test_q4_stage_of_shipped_bt_weights_learns_from_the_bt_corpus(repo):
    """HUMAN=shipped-q4 Q4_CORPUS=bt: GPTQ's calibration, the negatives' pool
    and the quantization-aware training all use the direction's bt corpus;
    otherwise the human round's q4 stage uses the pair's corpus."""
    assert qat_corpora(repo, 'shipped-q4', 'bt') == {'corpus/deen'}
    assert qat_corpora(repo, 'shipped-q4', 'human') == {'corpus/de'}
    assert qat_corpora(repo, 'train', 'bt') == {'corpus/de'}   # a human round trained here keeps its own corpus
    # a direction whose shipped model is a caption model trains its human round here: its own corpus too
    assert qat_corpora(repo, 'shipped-q4', 'bt', 'en', 'fr') == {'corpus/fr'}
