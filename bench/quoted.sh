#!/bin/sh
# Quoted text in real captions: every English caption of Multi30k task 2
# (train and val, MONO_DIR, default ../shared/data/multi30k-task2) that holds
# a pair of quotation marks, translated by the embedded model (or MODEL)
# greedily and with beam 4, with protected spans on (the default: quoted
# names kept, text/quoted.h) and off (--no-protect). For each: how many
# quoted texts come out verbatim, and how many lines are degenerate
# (bench/degenerate.py) with the repetition guard off and on.
#
#   bench/quoted.sh [MODEL.nmt]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
M=${1:+-m $1}
MONO=${MONO_DIR:-$MULTI30K_TASK2}
make_tmp
for part in train val; do
	for i in 1 2 3 4 5; do zcat "$MONO/$part.$i.en.gz"; done
done | grep '"[^"]*"' >"$TMP/src" || true
# the quoted texts of each line, tab-separated
awk -F '"' '{ q = ""; for (i = 2; i < NF; i += 2) q = q (q == "" ? "" : "\t") $i; print q }' "$TMP/src" >"$TMP/quoted"
total=$(awk -F '\t' '{ n += NF } END { print n + 0 }' "$TMP/quoted")
printf '%d lines, %d quoted texts\n' "$(wc -l <"$TMP/src")" "$total"
printf '%-8s %-11s %10s %26s %26s\n' search protection verbatim "degenerate off" "degenerate on"
for beam in 1 4; do
	for mode in on off; do
		if [ $mode = on ]; then set --; else set -- --no-protect; fi
		./nmt $M -b "$beam" "$@" <"$TMP/src" >"$TMP/guarded"
		./nmt $M -b "$beam" --no-repeat-guard "$@" <"$TMP/src" >"$TMP/plain"
		kept=$(paste -d '\n' "$TMP/quoted" "$TMP/guarded" | awk -F '\t' '
			NR % 2 == 1 { n = split($0, q, "\t"); next }
			{ for (i = 1; i <= n; i++) if (q[i] != "" && index($0, q[i]) > 0) k++ }
			END { print k + 0 }')
		off=$($PYTHON bench/degenerate.py "$TMP/src" "$TMP/plain" | sed 's/degenerate: //')
		on=$($PYTHON bench/degenerate.py "$TMP/src" "$TMP/guarded" | sed 's/degenerate: //')
		printf '%-8s %-11s %10s %26s %26s\n' "beam$beam" "$mode" "$kept/$total" "$off" "$on"
	done
done
