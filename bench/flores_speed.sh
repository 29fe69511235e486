#!/bin/sh
# Speed on general text: nmt greedy on one thread against Apertium's
# rule-based English->Spanish (apertium-eng-spa) on the same English, in one
# run: FLORES dev's 997 English sentences REPEAT times over (default 4).
#
#   bench/flores_speed.sh [MODEL.nmt ...]       (default: the embedded model)
#
# Prints output words per second (wc -w of the output over the wall-clock
# time, process start included), each row the best of RUNS runs (default 3;
# Apertium's pipeline of processes varies most from run to run), and each
# model's ratio to Apertium. Needs apertium-eng-spa (its rows
# are skipped without it). Run from the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
REPEAT=${REPEAT:-4}
RUNS=${RUNS:-3}
make_tmp
[ $# -eq 0 ] && set -- -
repeat_file "$FLORES/flores-dev.en" "$REPEAT" "$TMP/in"
echo "input: FLORES dev English x$REPEAT, $(wc -l <"$TMP/in") lines, $(wc -w <"$TMP/in") words"
printf '%-40s %8s %8s %10s\n' system seconds words words/s

rate() { # rate MS OUTPUT: words per second
	echo "$(wc -w <"$2") $1" | awk '{ printf "%.0f", $1 / ($2 / 1000) }'
}

apertium_rate=
if command -v apertium >/dev/null; then
	ms=$(best_ms "$RUNS" "$TMP/in" "$TMP/out" apertium eng-spa)
	apertium_rate=$(rate "$ms" "$TMP/out")
	printf '%-40s %8.2f %8d %10s\n' "apertium eng-spa" "$(echo "$ms" | awk '{ print $1 / 1000 }')" \
		"$(wc -w <"$TMP/out")" "$apertium_rate"
fi
for model in "$@"; do
	if [ "$model" = - ]; then set -- ; else set -- -m "$model"; fi
	best=$(best_ms "$RUNS" "$TMP/in" "$TMP/out" ./nmt "$@" -b 1 -t 1)
	nmt_rate=$(rate "$best" "$TMP/out")
	printf '%-40s %8.2f %8d %10s' "nmt $(basename "$model") greedy -t 1" "$(echo "$best" | awk '{ print $1 / 1000 }')" \
		"$(wc -w <"$TMP/out")" "$nmt_rate"
	[ -n "$apertium_rate" ] && printf '   %.2fx Apertium' "$(echo "$nmt_rate $apertium_rate" | awk '{ print $1 / $2 }')"
	echo
done
