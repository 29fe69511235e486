"""train/train.py and train/gptq.py run themselves again under tcmalloc,
which keeps freed pages, where Debian's libtcmalloc-minimal4 is installed
(glibc's malloc returns large blocks to the kernel, and each step then
page-faulted them in again).

    make test-train    (needs Debian's python3-torch)
"""
import os
import subprocess
import sys

import pytest

pytest.importorskip('torch')
TRAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TCMALLOC = any(os.path.exists(os.path.join(d, 'libtcmalloc_minimal.so.4'))
               for d in ('/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib'))

# Calls the function as train.py's start does, then says which allocator the
# process that got this far has and how it is configured.
PROBE = f"""
import os, sys
sys.path.insert(0, {TRAIN!r})
import host
host.rerun_with_retaining_allocator()
maps = open('/proc/self/maps').read()
print('tcmalloc' if 'libtcmalloc' in maps else 'system', sys.flags.utf8_mode)
"""


def probe(**env):
    full = {k: v for k, v in os.environ.items() if k not in ('LD_PRELOAD', 'NMT_TRAIN_MALLOC')}
    full.update(env)
    out = subprocess.run([sys.executable, '-X', 'utf8', '-c', PROBE], env=full, capture_output=True, text=True, check=True)
    return out.stdout.split()


@pytest.mark.skipif(not TCMALLOC, reason='libtcmalloc-minimal4 is not installed')
def test_training_runs_under_tcmalloc_with_the_interpreters_options():
    assert probe() == ['tcmalloc', '1']


def test_the_system_allocator_when_asked():
    assert probe(NMT_TRAIN_MALLOC='system')[0] == 'system'
