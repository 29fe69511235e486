#!/bin/sh
# marian-decoder's own translations of the small Marian fixtures, for the
# end-to-end tests to hold nmt to Marian itself and not only to the PyTorch
# reference (train/marian_ref.py):
#
#   train/marian_outputs.sh MARIAN_DECODER [FIXTURE_DIR]
#
# MARIAN_DECODER is a marian-decoder built outside the repository
# (../shared/docs/marian-peer.md); FIXTURE_DIR defaults to
# tests/fixtures/marian. For each model it writes NAME.marian in the format
# of NAME.expected ("beam ||| line ||| text ||| score"; beam 1 and the
# 4-best lists of beam 4) from the same six sentences, with the settings
# the tests give nmt: one thread, one sentence a batch, no length
# normalization, no word penalty, at most 3 x the source's pieces. The
# intgemm8 fixture is left out: Marian's int8 kernels need every matrix
# dimension to be a multiple of 64 (an assertion in intgemm), and the
# fixtures' are 16 to 40.
set -eu
DEC=$1
F=${2:-tests/fixtures/marian}
TINY=tests/fixtures/tiny
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Marian takes a vocabulary for SentencePiece by its .spm suffix.
cp "$TINY/src.model" "$TMP/src.spm"
cp "$TINY/tgt.model" "$TMP/tgt.spm"
printf '%s\n' "A dog runs along the beach." "Two young children are playing in the sand." "Women sing." "x" \
	"An old woman sits on a bench next to the river." "THE CAT!" >"$TMP/in"

decode() { # decode MODEL SRC_VOCAB OUT
	for beam in 1 4; do
		"$DEC" -m "$1" -v "$2" "$TMP/tgt.spm" --cpu-threads 1 --mini-batch 1 --maxi-batch 1 \
			--max-length-factor 3 --normalize 0 --word-penalty 0 --beam-size $beam --n-best \
			--quiet <"$TMP/in" |
			awk -v beam=$beam -F ' \\|\\|\\| ' '{ printf "%d ||| %s ||| %s ||| %s\n", beam, $1, $2, $4 }'
	done >"$3"
}
decode "$F/all.npz" "$TMP/tgt.spm" "$F/all.marian"
decode "$F/tgt.npz" "$TMP/src.spm" "$F/tgt.marian"
decode "$F/none.npz" "$TMP/tgt.spm" "$F/none.marian"
decode "$F/tiedlayers.npz" "$TMP/tgt.spm" "$F/tiedlayers.marian"
ls -l "$F"/*.marian
