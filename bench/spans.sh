#!/bin/sh
# Protected spans: bench/data/spans.en.txt (Multi30k val captions with a
# number, time, date, price, URL, e-mail address, @handle, path or `code`
# put in: bench/make_spans.py) translated by the embedded model (or MODEL);
# how many of the spans (bench/data/spans.en.spans) come out byte for byte,
# with protection on (the default) and off (--no-protect), greedy and beam
# 4, and how many translations are degenerate (bench/degenerate.py).
#
#   bench/spans.sh [MODEL.nmt]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
M=${1:+-m $1}
make_tmp
src=bench/data/spans.en.txt gold=bench/data/spans.en.spans
printf '%-8s %-12s %10s %12s\n' search protection verbatim degenerate
for beam in 1 4; do
	for mode in on off; do
		if [ $mode = on ]; then set --; else set -- --no-protect; fi
		./nmt $M -b $beam "$@" <"$src" >"$TMP/out"
		kept=$(paste -d '\t' "$gold" "$TMP/out" | awk -F '\t' 'index($2, $1) > 0 { k++ } END { print k + 0 }')
		deg=$($PYTHON bench/degenerate.py "$src" "$TMP/out" | sed 's/degenerate: //')
		printf '%-8s %-12s %10s %12s\n' "beam$beam" "$mode" "$kept/$(wc -l <"$gold")" "$deg"
	done
done
