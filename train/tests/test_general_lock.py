"""train/general.sh run one direction per core on a fresh machine: en->es
and es->en start at once and both need the en-es corpus. It is built once,
by whichever comes first, while the other waits for it rather than writing
the same files beside it; so is the FreeDict dictionary's pairs, which the
corpus takes.

PYTHON is a stand-in that builds a corpus slowly, logging when it starts and
ends, and fails everything else, so each run stops after the shared data.
Needs `make` (tests/protect_tool).

    make test-train
"""
import os
import stat
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

STAND_IN = r'''#!/bin/sh
log=$(dirname "$0")/calls.log
case $1 in
train/freedict.py)
	while [ "$1" != --out ]; do shift; done
	mkdir -p "$(dirname "$2")"
	: >"$2"
	echo "dictionary $2" >>"$log"
	;;
train/corpus.py)
	case "$*" in *freedict*) echo "with the dictionary" >>"$log" ;; esac
	shift
	while [ "$1" != --out ]; do shift; done
	echo "start $2" >>"$log"
	sleep 2
	mkdir -p "$2"
	: >"$2/train.en.gz"
	echo total >"$2/report.tsv"
	echo "end $2" >>"$log"
	;;
*) exit 3 ;;
esac
'''


def test_two_directions_of_a_pair_build_its_corpus_once(tmp_path):
    py = tmp_path / 'python'
    py.write_text(STAND_IN)
    py.chmod(py.stat().st_mode | stat.S_IXUSR)
    out = tmp_path / 'out'
    env = dict(os.environ, PYTHON=str(py), TRANSFER='0')
    runs = [subprocess.Popen(['sh', 'train/general.sh', str(out), d], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for d in ('enes', 'esen')]
    for r in runs:
        r.communicate(timeout=120)
        assert r.returncode != 0   # the stand-in refuses to train
    calls = (tmp_path / 'calls.log').read_text().split('\n')
    assert calls == [f'dictionary {out}/dict/freedict.es.tsv.gz', 'with the dictionary',
                     f'start {out}/corpus/es', f'end {out}/corpus/es', '']
    assert (out / 'corpus' / 'es' / 'report.tsv').exists()
    assert (out / 'spm.enes.model').exists()   # the shipped general model's vocabulary
