# What the training scripts share, sourced (not run) from the repository
# root: where the data is and the Python with Debian's packages (SHARED,
# MULTI30K, MULTI30K_TASK2, OPEN_PARALLEL, FLORES, PYTHON: train/paths.sh,
# where their defaults are; each may be set in the environment).
. train/paths.sh

# shipped_four_bit DIRECTION: the format of the direction's own 4-bit
# weights (models/DIRECTION-FORMAT.safetensors, rounded or fine-tuned for
# that format), the first of q4n+i8, q4n and q4 that is there (the
# Makefile's FOUR_BIT_FORMATS, in its order); nothing where it has none.
shipped_four_bit() {
	for shipped_f in q4n+i8 q4n q4; do
		[ ! -f "models/$1-$shipped_f.safetensors" ] || { echo "$shipped_f"; return 0; }
	done
}
