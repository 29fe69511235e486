"""train/train.py and train/gptq.py run themselves again under jemalloc, freed pages kept, where
Debian's libjemalloc2 is installed (glibc's malloc returns large blocks to
the kernel, and each step then page-faulted them in again).

    make test-train    (needs Debian's python3-torch)
"""
import os
import subprocess
import sys

import pytest

pytest.importorskip('torch')
TRAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JEMALLOC = any(os.path.exists(os.path.join(d, 'libjemalloc.so.2'))
               for d in ('/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib'))

# Calls the function as train.py's start does, then says which allocator the
# process that got this far has and how it is configured.
PROBE = f"""
import os, sys
sys.path.insert(0, {TRAIN!r})
import host
host.rerun_with_retaining_allocator()
maps = open('/proc/self/maps').read()
print('jemalloc' if 'libjemalloc' in maps else 'system', os.environ.get('MALLOC_CONF', '-'), sys.flags.utf8_mode)
"""


def probe(**env):
    full = {k: v for k, v in os.environ.items() if k not in ('LD_PRELOAD', 'MALLOC_CONF', 'NMT_TRAIN_MALLOC')}
    full.update(env)
    out = subprocess.run([sys.executable, '-X', 'utf8', '-c', PROBE], env=full, capture_output=True, text=True, check=True)
    return out.stdout.split()


@pytest.mark.skipif(not JEMALLOC, reason='libjemalloc2 is not installed')
def test_training_runs_under_jemalloc_keeping_freed_pages_and_the_interpreters_options():
    assert probe() == ['jemalloc', 'dirty_decay_ms:-1,muzzy_decay_ms:-1', '1']


def test_the_system_allocator_when_asked():
    assert probe(NMT_TRAIN_MALLOC='system')[:2] == ['system', '-']
