"""examples/dask_translate.py on a LocalCluster of two worker processes:
the output is byte for byte what one nmt process writes."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def test_two_workers_equal_one_process(tmp_path):
    pytest.importorskip('distributed', reason="Dask's python3-distributed is not installed")
    lines = ['A dog runs along the beach.', '', 'Two men talk. One laughs.', 'Women sing.\r',
             'A man in a blue shirt is climbing a wall at 5 pm.']
    src = tmp_path / 'in.txt'
    src.write_bytes(('\n'.join(lines[i % 5] + ('' if i % 7 else f' {i}') for i in range(173)) + '\n').encode())
    want = subprocess.run([os.path.join(ROOT, 'nmt'), '-b', '4'], stdin=open(src, 'rb'), capture_output=True,
                          check=True).stdout
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, 'python'),
               NMT_LIBRARY=os.environ.get('NMT_LIBRARY', os.path.join(ROOT, 'libnmt.so')))
    out = tmp_path / 'out.txt'
    subprocess.run([sys.executable, os.path.join(ROOT, 'examples', 'dask_translate.py'), str(src), str(out),
                    '--local-workers', '2', '--lines-per-shard', '17'], env=env, check=True, timeout=300)
    assert out.read_bytes() == want
