"""train/logged.sh: a step's output kept in its log, and its failure not
hidden by the pipe into tee (the training scripts run under `set -e`).

    make test-train
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_sh(script, tmp_path):
    return subprocess.run(['sh', '-c', f'set -eu\n. train/logged.sh\n{script}'], cwd=ROOT,
                          env={**os.environ, 'LOG': str(tmp_path / 'step.log')},
                          capture_output=True, text=True)


def test_success_shows_and_writes_the_output(tmp_path):
    r = run_sh('logged "$LOG" echo first\nlogged -a "$LOG" echo second\necho after', tmp_path)
    assert r.returncode == 0
    assert r.stdout == 'first\nsecond\nafter\n'
    assert (tmp_path / 'step.log').read_text() == 'first\nsecond\n'


def test_failure_stops_the_script_with_the_step_s_status(tmp_path):
    r = run_sh('logged "$LOG" sh -c "echo partial; exit 3"\necho after', tmp_path)
    assert r.returncode == 3
    assert 'after' not in r.stdout
    assert (tmp_path / 'step.log').read_text() == 'partial\n'


def test_a_shell_function_can_be_the_step(tmp_path):
    r = run_sh('step() { echo "in $1"; }\nlogged "$LOG" step one', tmp_path)
    assert r.returncode == 0
    assert (tmp_path / 'step.log').read_text() == 'in one\n'
