"""The Python binding against the command line it shares its library with.

Run by `make test` (which builds libnmt.so, ./nmt and build/tiny.nmt first)
with NMT_LIBRARY pointing at the repository's libnmt.so."""
import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'python'))
os.environ.setdefault('NMT_LIBRARY', os.path.join(ROOT, 'libnmt.so'))
import nmt  # noqa: E402

CLI = os.path.join(ROOT, 'nmt')
TINY = os.path.join(ROOT, 'build', 'tiny.nmt')
TEXTS = ['A dog runs along the beach.', '', 'Two young children are playing in the sand. They laugh.',
         'A man in a red shirt sits on a bench.', 'Women sing.']


def cli(lines, *args):
    out = subprocess.run([CLI, *args], input='\n'.join(lines) + '\n', capture_output=True, text=True, check=True)
    return out.stdout.split('\n')[:len(lines)]


@pytest.fixture(scope='module')
def translator():
    with nmt.Translator(threads=2) as t:
        yield t


def test_same_as_the_command_line(translator):
    got = [r.translation for r in translator.translate(TEXTS)]
    assert got == cli(TEXTS, '-b', '4')
    assert [r.translation for r in translator.translate(TEXTS, beam=1)] == cli(TEXTS, '-b', '1')


def test_capitals_as_the_command_line(translator):
    # nmt_options mirrored field for field: the capitals rule is on, as in nmt
    text = 'TWO DOGS PLAY IN THE SNOW.'
    got = translator.translate(text).translation
    assert got == cli([text])[0]
    assert got == got.upper() and got != cli([text], '--no-case-fold')[0]


def test_a_string_gives_one_translation(translator):
    r = translator.translate('A dog runs along the beach.')
    assert isinstance(r, nmt.Translation) and r.translation == cli(['A dog runs along the beach.'])[0]
    assert r.score < 0 and r.logprob <= r.score * 1.0001 and r.alignment is None


def test_order_and_empty_texts(translator):
    rs = translator.translate(TEXTS * 3)
    assert len(rs) == 15 and rs[1].translation == '' and rs[6].translation == ''
    assert [r.translation for r in rs[:5]] == [r.translation for r in rs[10:]]


def test_alignment_and_html(translator):
    r = translator.translate('Two dogs play in the snow.', alignment=True)
    assert r.alignment == cli(['Two dogs play in the snow.'], '--alignment')[0].split(' ||| ')[1]
    h = translator.translate('A <b>red</b> car.', html=True)
    assert h.translation == cli(['A <b>red</b> car.'], '--html')[0] and '<b>' in h.translation


def test_nbest(translator):
    rs = translator.translate(['Women sing.', 'A dog.'], beam=4, nbest=3)
    assert all(isinstance(x, list) and 1 <= len(x) <= 3 for x in rs)
    assert all(x[i].score >= x[i + 1].score for x in rs for i in range(len(x) - 1))
    with pytest.raises(ValueError):
        translator.translate('x', beam=2, nbest=3)
    with pytest.raises(TypeError):
        translator.translate([1, 2])


def test_a_model_file_and_errors():
    with nmt.Translator(model=TINY, threads=1) as t:
        assert t.metadata('arch') == 'gru-fc-1' and t.metadata('no-such-key') is None
        assert [r.translation for r in t.translate(TEXTS)] == cli(TEXTS, '-m', TINY)
    with pytest.raises(nmt.NmtError, match='cannot open model'):
        nmt.Translator(model='/nonexistent.nmt')
    t = nmt.Translator(model=TINY)
    t.close()
    with pytest.raises(nmt.NmtError, match='closed'):
        t.translate('x')


def test_threads_do_not_change_the_output():
    with nmt.Translator(threads=1) as one, nmt.Translator(threads=3) as three:
        assert one.translate(TEXTS * 4) == three.translate(TEXTS * 4)


def test_shared_by_python_threads(translator):
    want = translator.translate(TEXTS)
    got, errors = {}, []

    def work(i):
        try:
            got[i] = translator.translate(TEXTS)
        except Exception as e:   # reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and all(got[i] == want for i in range(4))


def test_the_gil_is_released_while_translating():
    """A Python thread keeps counting while a long translate call runs: with
    the GIL held through the call it could not run at all until it ended."""
    with nmt.Translator(threads=1) as t:
        texts = TEXTS * 200
        t.translate(texts[:5])   # the session's memory, allocated once
        start = time.perf_counter()
        t.translate(texts)
        alone = time.perf_counter() - start
        count, stop = [0], threading.Event()

        def spin():
            while not stop.is_set():
                count[0] += 1
        th = threading.Thread(target=spin)
        th.start()
        time.sleep(0.05)
        before = count[0]
        t.translate(texts)
        during = count[0] - before
        stop.set()
        th.join()
        rate = before / 0.05   # counts a second when the thread has the interpreter
        assert alone > 0.1, 'the call must be long enough to tell'
        assert during > rate * alone * 0.1   # held through the call: under 0.02


def test_pip_installs_it_offline(tmp_path):
    if shutil.which('pip3') is None and subprocess.run([sys.executable, '-m', 'pip', '--version'],
                                                        capture_output=True).returncode != 0:
        pytest.skip('pip is not installed')
    src = tmp_path / 'src'
    shutil.copytree(os.path.join(ROOT, 'python'), src, ignore=shutil.ignore_patterns('build', '*.egg-info',
                                                                                   '__pycache__', 'libnmt.so'))
    shutil.copyfile(os.path.join(ROOT, 'libnmt.so'), src / 'nmt' / 'libnmt.so')
    target = tmp_path / 'site'
    subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', '--no-index', '--no-build-isolation',
                    '--no-deps', '--target', str(target), str(src)], check=True)
    env = dict(os.environ, PYTHONPATH=str(target))
    env.pop('NMT_LIBRARY')
    code = 'import nmt; print(nmt.library_path()); print(nmt.Translator(threads=1).translate("Women sing.").translation)'
    out = subprocess.run([sys.executable, '-c', code], env=env, cwd=str(tmp_path), capture_output=True, text=True,
                         check=True).stdout.split('\n')
    assert out[0].startswith(str(target)) and out[1] == cli(['Women sing.'])[0]


OPTION_TEXTS = TEXTS + ['THE 2 DOGS RUN ACROSS 15 METERS AT 10:30.', 'A dog runs. A cat sleeps.',
                        'Loremipsumdolorsitamet consectetur adipiscing elit sed do eiusmod',
                        'See https://example.com/docs/a_b?id=42 or write to anna.k@example.org.']


# each option changes some line of OPTION_TEXTS on its model, so the
# equality with the command line shows the option reached the engine
@pytest.mark.parametrize('model,options,flags', [
    (None, {'max_length': 4}, ['--max-length', '4']),
    (None, {'alpha': 3.0}, ['--alpha', '3']),
    (None, {'shortlist': False}, ['--no-shortlist']),
    (None, {'split': False}, ['--split', 'none']),
    (None, {'protect_spans': False}, ['--no-protect']),
    (None, {'case_fold': False, 'batch': 1}, ['--no-case-fold', '--batch', '1']),
    (TINY, {'repeat_guard': False}, ['--no-repeat-guard']),
])
def test_per_call_options_as_the_command_line(model, options, flags):
    model_args = ['-m', model] if model else []
    with nmt.Translator(model=model, threads=1) as t:
        got = [r.translation for r in t.translate(OPTION_TEXTS, beam=2, **options)]
    assert got == cli(OPTION_TEXTS, *model_args, '-b', '2', *flags)
    assert got != cli(OPTION_TEXTS, *model_args, '-b', '2')

def test_per_call_option_errors(translator):
    with pytest.raises(nmt.NmtError, match='max_length'):
        translator.translate('A dog.', max_length=-1)
    with pytest.raises(nmt.NmtError, match='alpha'):
        translator.translate('A dog.', alpha=float('nan'))
    with pytest.raises(ValueError, match='device'):
        translator.translate('A dog.', device='tpu')
    with pytest.raises(TypeError, match='unknown option'):
        translator.translate('A dog.', speed=2)
    with pytest.raises(TypeError, match='nbest is a Translator option'):
        nmt.translate('A dog.', 'en', 'de', nbest=2)
