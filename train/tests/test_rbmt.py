"""train/rbmt.sh: monolingual text translated by Apertium for
back-translation, English first, each line tagged with its source and the
Apertium pair; a chunk whose lines Apertium lost is left out whole and the
rest stay paired.

`apertium` is a stand-in on PATH that writes each line back prefixed with
the mode, with doubled spaces, and drops the lines that hold LOSE.

    make test-train
"""
import gzip
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

STAND_IN = r'''#!/bin/sh
if [ "$1" = -l ]; then printf '%s\n' ${MODES-"  eng-spa" "  spa-eng"}; exit 0; fi
[ "$1" = -u ] || exit 2
while IFS= read -r line; do
	case $line in *LOSE*) continue ;; esac
	printf '%s:  %s \n' "$2" "$line"
done
'''


def stand_in(tmp_path, lines):
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    (bin_dir / 'apertium').write_text(STAND_IN)
    (bin_dir / 'apertium').chmod(0o755)
    mono = tmp_path / 'mono.tsv.gz'
    with gzip.open(mono, 'wt', encoding='utf-8') as f:
        f.writelines(f'{s}\t{tag}\n' for s, tag in lines)
    return dict(os.environ, PATH=f'{bin_dir}:{os.environ["PATH"]}'), mono


def rbmt(env, mode, mono, out, **extra):
    return subprocess.run(['sh', 'train/rbmt.sh', mode, str(mono), str(out)], cwd=ROOT,
                          env=dict(env, **extra), capture_output=True, text=True)


def rows(path):
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        return [line.rstrip('\n').split('\t') for line in f]


def test_english_into_spanish_keeps_english_first(tmp_path):
    env, mono = stand_in(tmp_path, [('The weather is fine.', 'brown:redistribution-permitted')])
    r = rbmt(env, 'eng-spa', mono, tmp_path / 'out.tsv.gz')
    assert r.returncode == 0, r.stderr
    assert rows(tmp_path / 'out.tsv.gz') == [[
        'The weather is fine.', 'eng-spa: The weather is fine.',
        'rbmt-brown:redistribution-permitted;apertium-eng-spa:GPL-2']]


def test_spanish_into_english_puts_the_translation_first(tmp_path):
    env, mono = stand_in(tmp_path, [('La amistad es armonía.', 'fortunes-es:GPL-2+')])
    assert rbmt(env, 'spa-eng', mono, tmp_path / 'out.tsv.gz').returncode == 0
    assert rows(tmp_path / 'out.tsv.gz') == [[
        'spa-eng: La amistad es armonía.', 'La amistad es armonía.',
        'rbmt-fortunes-es:GPL-2+;apertium-eng-spa:GPL-2']]


def test_a_chunk_that_loses_lines_is_left_out_whole(tmp_path):
    lines = [(f'Sentence {i}{" LOSE" if i == 3 else ""}.', f's{i}:MIT') for i in range(1, 6)]
    env, mono = stand_in(tmp_path, lines)
    r = rbmt(env, 'eng-spa', mono, tmp_path / 'out.tsv.gz', CHUNK='2')
    assert r.returncode == 0 and 'lost the lines of chunk 000001' in r.stderr
    # chunks: 1-2, 3-4 (lost a line: both out), 5
    assert [(e, o) for e, o, _ in rows(tmp_path / 'out.tsv.gz')] == [
        ('Sentence 1.', 'eng-spa: Sentence 1.'), ('Sentence 2.', 'eng-spa: Sentence 2.'),
        ('Sentence 5.', 'eng-spa: Sentence 5.')]


def test_a_missing_mode_is_an_error(tmp_path):
    env, mono = stand_in(tmp_path, [('Hello.', 'x:MIT')])
    r = rbmt(env, 'eng-spa', mono, tmp_path / 'out.tsv.gz', MODES='  eng-cat')
    assert r.returncode == 1 and 'apt-get install apertium-eng-spa' in r.stderr
    assert not (tmp_path / 'out.tsv.gz').exists()
    r = rbmt(env, 'spa-cat', mono, tmp_path / 'out.tsv.gz')
    assert r.returncode == 2 and 'not a mode from or into English' in r.stderr
