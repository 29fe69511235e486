#!/bin/sh
# Packed models side by side, of any family, on one thread: target words per
# second, greedy and beam 4, on test_2016_flickr.en REPEAT times over (default
# 3), the best of RUNS runs (default 3) with the models' runs interleaved so
# that a noisy machine slows them alike; and each one's peak RSS (GNU time).
#
#   bench/models.sh MODEL.nmt ... [-- NMT_OPTIONS...]
#
# CORPUS (default ../shared/data/multi30k), REPEAT, RUNS. Run from the
# repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
CORPUS=${CORPUS:-$MULTI30K}
REPEAT=${REPEAT:-3}
RUNS=${RUNS:-3}
MODELS=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do MODELS="$MODELS $1"; shift; done
[ $# -gt 0 ] && shift
[ -n "$MODELS" ] || { echo "usage: bench/models.sh MODEL.nmt ... [-- NMT_OPTIONS...]" >&2; exit 2; }
make_tmp
repeat_test_2016 "$CORPUS" "$REPEAT" "$TMP/in"
echo "input: test_2016_flickr.en x$REPEAT ($(wc -l <"$TMP/in") lines), one thread, best of $RUNS"
printf '%-40s %-6s %10s %8s %10s\n' model search words/s seconds "peak RSS"
# each model's figures are kept under its position in the list, so two files
# of the same name (old/ende.q4.nmt new/ende.q4.nmt) stay apart
for beam in 1 4; do
	i=0
	for m in $MODELS; do i=$((i + 1)); echo 999999999 >"$TMP/best.$i"; done
	r=0
	while [ $r -lt "$RUNS" ]; do
		i=0
		for m in $MODELS; do
			i=$((i + 1))
			ms=$(run_ms "$TMP/in" "$TMP/out" ./nmt -m "$m" -b $beam -t 1 "$@")
			[ "$ms" -lt "$(cat "$TMP/best.$i")" ] && echo "$ms" >"$TMP/best.$i"
			wc -w <"$TMP/out" >"$TMP/words.$i"
		done
		r=$((r + 1))
	done
	i=0
	for m in $MODELS; do
		i=$((i + 1))
		ms=$(cat "$TMP/best.$i")
		words=$(cat "$TMP/words.$i")
		rss=$(/usr/bin/time -f %M ./nmt -m "$m" -b $beam -t 1 "$@" <"$TMP/in" 2>&1 >/dev/null | tail -n 1)
		awk -v m="$m" -v b=$beam -v w="$words" -v ms="$ms" -v rss="$rss" \
			'BEGIN { printf "%-40s beam%-2s %10d %8.2f %7.1f MB\n", m, b, w * 1000 / ms, ms / 1000, rss / 1024 }'
	done
done
