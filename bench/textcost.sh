#!/bin/sh
# What sentence splitting, the repetition guard and protected spans cost: the embedded
# model, greedy, one thread, on test_2016_flickr.en REPEAT times over,
# translated with all three off (--split none --no-repeat-guard --no-protect: nmt before
# them) and with all on (the default), RUNS times each, alternating; the
# best time of each, words/s and the ratio. Then, as a figure that does not
# depend on what else the machine is doing, the instructions each executes
# on the set once, greedy and beam 4 (valgrind --tool=callgrind, when
# installed).
#
#   bench/textcost.sh [CORPUS_DIR] [REPEAT] [RUNS]
set -eu
. "$(dirname "$0")/common.sh"
CORPUS=${1:-$MULTI30K}
REPEAT=${2:-10}
RUNS=${3:-5}
make_tmp
repeat_test_2016 "$CORPUS" "$REPEAT" "$TMP/in"
repeat_test_2016 "$CORPUS" 1 "$TMP/once"
best_off= best_on=
i=0
while [ $i -lt "$RUNS" ]; do
	ms=$(run_ms "$TMP/in" "$TMP/off" ./nmt -b 1 -t 1 --split none --no-repeat-guard --no-protect)
	best_off=$(least "$best_off" "$ms")
	ms=$(run_ms "$TMP/in" "$TMP/on" ./nmt -b 1 -t 1)
	best_on=$(least "$best_on" "$ms")
	i=$((i + 1))
done
words=$(wc -w <"$TMP/on")
printf '%-26s %8s %10s\n' "greedy, 1 thread" "best ms" "words/s"
printf '%-26s %8d %10.0f\n' "all three off" "$best_off" "$(echo "$(wc -w <"$TMP/off") $best_off" | awk '{print $1 / ($2 / 1000)}')"
printf '%-26s %8d %10.0f\n' "all on (default)" "$best_on" "$(echo "$words $best_on" | awk '{print $1 / ($2 / 1000)}')"
echo "cost: $(echo "$best_off $best_on" | awk '{printf "%.1f%%", 100 * ($2 - $1) / $1}') of the time"
if command -v valgrind >/dev/null 2>&1; then
	for beam in 1 4; do
		for mode in off on; do
			if [ $mode = off ]; then set -- --split none --no-repeat-guard --no-protect; else set --; fi
			valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$mode" ./nmt -b $beam -t 1 "$@" <"$TMP/once" \
				>/dev/null 2>"$TMP/vg.$mode"
			sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/vg.$mode" >"$TMP/ir.$mode"
		done
		echo "beam $beam instructions, test_2016 once: $(cat "$TMP/ir.off") off, $(cat "$TMP/ir.on") on:" \
			"$(echo "$(cat "$TMP/ir.off") $(cat "$TMP/ir.on")" | awk '{printf "%+.2f%%", 100 * ($2 - $1) / $1}')"
	done
fi
