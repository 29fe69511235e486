# What the training scripts share, sourced (not run) from the repository
# root: where the data is and the Python with Debian's packages (SHARED,
# MULTI30K, MULTI30K_TASK2, OPEN_PARALLEL, FLORES, PYTHON: train/paths.sh,
# where their defaults are; each may be set in the environment).
. train/paths.sh
