#!/bin/sh
# Start-up time: the whole process, from exec to exit, on an empty line
# (the model mapped, checked and bound, its tables built, one empty
# translation), best of RUNS (default 40), for each nmt binary given
# (default ./nmt with its embedded model; NMT_ARGS adds options, e.g.
# "-m model.nmt").
#
#   bench/startup.sh [NMT ...]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
RUNS=${RUNS:-40}
[ $# -gt 0 ] || set -- ./nmt
$PYTHON - "$RUNS" "${NMT_ARGS:-}" "$@" <<'PYEOF'
import subprocess, sys, time
runs, extra = int(sys.argv[1]), sys.argv[2].split()
for nmt in sys.argv[3:]:
    best = float('inf')
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([nmt] + extra, input=b'\n', stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - t)
    print(f'{nmt}: {best * 1000:.2f} ms')
PYEOF
