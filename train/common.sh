# What the training scripts share, sourced (not run) from the repository
# root: where the data is (each may be set in the environment) and the
# Python with Debian's packages. bench/common.sh holds the same paths for
# the benchmarks.
SHARED=${SHARED:-../shared}
MULTI30K=${MULTI30K:-$SHARED/data/multi30k}
MULTI30K_TASK2=${MULTI30K_TASK2:-$SHARED/data/multi30k-task2}
OPEN_PARALLEL=${OPEN_PARALLEL:-$SHARED/data/open-parallel}
PYTHON=${PYTHON:-/usr/bin/python3}
