#!/bin/sh
# General text: FLORES-200 dev translated by ./nmt and scored.
#
#   SRC=en TGT=de bench/flores.sh [MODEL.nmt ...]
#
# MODEL defaults to the embedded model ("-"). For each model, greedy and
# beam 4: cased BLEU (13a) and chrF (train/bleu.py, sacreBLEU's
# definitions), the degenerate lines with the repetition guard on and off
# (bench/degenerate.py), lines holding an unknown piece (" ⁇ ") and seconds.
# FLORES (default ../shared/data/open-parallel/dev) is the validation set of
# the general-domain models: choose with it, never with FLORES devtest.
# Run from the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
[ $# -eq 0 ] && set -- -
make_tmp
printf '%-40s %-6s %7s %7s %9s %10s %5s %6s\n' model search BLEU chrF loops-on loops-off unk time
for model in "$@"; do
	if [ "$model" = - ]; then set -- ; else set -- -m "$model"; fi
	for beam in 1 4; do
		start=$(date +%s%N)
		./nmt "$@" -b "$beam" <"$FLORES/flores-dev.$SRC" >"$TMP/hyp"
		secs=$(secs_since "$start")
		./nmt "$@" -b "$beam" --no-repeat-guard <"$FLORES/flores-dev.$SRC" >"$TMP/hyp.noguard"
		score=$($PYTHON train/bleu.py "$TMP/hyp" "$FLORES/flores-dev.$TGT")
		on=$($PYTHON bench/degenerate.py "$FLORES/flores-dev.$SRC" "$TMP/hyp" | awk '{ print $2 }')
		off=$($PYTHON bench/degenerate.py "$FLORES/flores-dev.$SRC" "$TMP/hyp.noguard" | awk '{ print $2 }')
		unk=$(grep -c ' ⁇ ' "$TMP/hyp" || true)
		printf '%-40s %-6s %7s %7s %9s %10s %5s %6s\n' "$(basename "$model")" "beam$beam" \
			"$(echo "$score" | awk '{ print $2 }')" "$(echo "$score" | awk '{ print $4 }')" "$on" "$off" "$unk" "$secs"
	done
done
