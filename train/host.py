"""How the trainer's scripts run on the host, set before torch loads:
OpenBLAS's kernels named for this CPU, and a malloc that keeps what it frees.

    import host
    host.prepare(__name__ == '__main__')
"""
import os
import sys


def choose_openblas_kernels():
    """Debian bookworm's OpenBLAS 0.3.21 does not recognise some newer x86-64
    CPUs and falls back to its SSE3 'Prescott' kernels, which made training
    3-4x slower here (measured in docs/TRAINING.md). Name the AVX-512 or AVX2
    kernels when the CPU has them. Must run before torch loads OpenBLAS; a
    value set by the user wins."""
    if 'OPENBLAS_CORETYPE' in os.environ:
        return
    try:
        with open('/proc/cpuinfo') as f:
            flags = set(next((l for l in f if l.startswith('flags')), '').split())
    except OSError:
        return
    if {'avx512f', 'avx512bw', 'avx512dq', 'avx512vl'} <= flags:
        os.environ['OPENBLAS_CORETYPE'] = 'SkylakeX'
    elif {'avx2', 'fma'} <= flags:
        os.environ['OPENBLAS_CORETYPE'] = 'Haswell'


LIBRARY = 'libtcmalloc_minimal.so.4'


def rerun_with_retaining_allocator():
    """glibc's malloc gives every block over 32 MiB back to the kernel when
    it is freed (its mmap threshold cannot go higher), so each training step
    page-faulted its logits, their gradients and their bfloat16 copies in
    afresh: 3-8x the time of a step here (docs/TRAINING.md). gperftools'
    tcmalloc keeps freed pages for reuse and its memory stays at the largest
    step's (jemalloc with its decay off was as fast but grew by a GB a
    minute). Where Debian's
    libtcmalloc-minimal4 is installed, run this script again under it, once,
    before torch loads. NMT_TRAIN_MALLOC=system keeps the C library's malloc.
    Call it from a script's main module only: it runs that script again."""
    preloaded = os.environ.get('LD_PRELOAD', '')
    if os.environ.get('NMT_TRAIN_MALLOC') == 'system' or LIBRARY in preloaded:
        return
    paths = (os.path.join(d, LIBRARY) for d in
             ('/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib'))
    lib = next((p for p in paths if os.path.exists(p)), None)
    if lib is None:
        return
    env = dict(os.environ, LD_PRELOAD=' '.join(p for p in (lib, preloaded) if p))
    sys.stdout.flush()
    sys.stderr.flush()
    # orig_argv: the interpreter's own options (-u, -X ...) too
    os.execve(sys.executable, sys.orig_argv, env)


def prepare(main):
    """Both, for a script about to import torch: the allocator only where it
    runs as the main module (main), since that runs it again."""
    choose_openblas_kernels()
    if main:
        rerun_with_retaining_allocator()
