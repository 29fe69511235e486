#!/bin/sh
# What each speed technique buys: the same input translated with
# the technique on and off, one thread, greedy and beam 4, for the q8 and q4
# packings of the default model. Prints seconds (wall clock, best of RUNS)
# and whether the output is byte-identical (the shortlist changes it, and
# its BLEU is in bench/eval.sh's rows).
#
#   bench/techniques.sh [CORPUS_DIR] [REPEAT] [RUNS]
#
# Run after `make && make models`. Input: test_2016_flickr.en REPEAT times
# (default 3), best of RUNS (default 3) runs. The batch, shortlist and
# threads rows use the models as `make models` packs them (the default
# 250-word tables). Techniques:
#   batch      --batch 1 (one sentence at a time) vs the default (16)
#   shortlist  --no-shortlist vs the vocabulary map's shortlist
#   precompute model-pack --precompute-top 0 vs K (K = 250, 1000, 8000)
#   threads    -t 1 vs -t 2
set -eu
. "$(dirname "$0")/common.sh"
CORPUS=${1:-$MULTI30K}
REPEAT=${2:-3}
RUNS=${3:-3}
make_tmp
repeat_test_2016 "$CORPUS" "$REPEAT" "$TMP/in"

# best MODEL OUT ARGS...: the best wall-clock seconds of RUNS runs
best() {
	model=$1 out=$2
	shift 2
	b=$(best_ms "$RUNS" "$TMP/in" "$out" ./nmt -m "$model" "$@")
	echo "$b" | awk '{printf "%.2f", $1 / 1000}'
}

same() { cmp -s "$1" "$2" && echo identical || echo differs; }

echo "input: test_2016_flickr.en x$REPEAT ($(wc -l <"$TMP/in") lines), seconds = best of $RUNS, 1 thread unless said"
printf '%-10s %-4s %-7s %-26s %8s %-26s %8s %s\n' technique fmt search off "" on "" output
for q in q8 q4; do
	M=build/models/ende.$q.nmt
	# the weights make packs for this format: its own fine-tuned ones if any
	W=models/ende-$q.safetensors
	[ -f "$W" ] || W=models/ende.safetensors
	for K in 0 250 1000 8000; do
		./model-pack --quant $q --vmap models/ende.vmap --precompute-top $K -o "$TMP/pre$K.$q.nmt" \
			$W models/ende.en.model models/ende.de.model >/dev/null
	done
	for beam in 1 4; do
		search=$([ $beam = 1 ] && echo greedy || echo beam4)
		t_off=$(best "$M" "$TMP/a" -t 1 -b $beam --batch 1)
		t_on=$(best "$M" "$TMP/b" -t 1 -b $beam)
		printf '%-10s %-4s %-7s %-26s %8s %-26s %8s %s\n' batch $q $search "--batch 1" "$t_off" "--batch 16" "$t_on" "$(same "$TMP/a" "$TMP/b")"
		t_off=$(best "$M" "$TMP/a" -t 1 -b $beam --no-shortlist)
		printf '%-10s %-4s %-7s %-26s %8s %-26s %8s %s\n' shortlist $q $search "--no-shortlist" "$t_off" "shortlist" "$t_on" "$(same "$TMP/a" "$TMP/b")"
		t_none=$(best "$TMP/pre0.$q.nmt" "$TMP/n" -t 1 -b $beam)
		for K in 250 1000 8000; do
			t_pre=$(best "$TMP/pre$K.$q.nmt" "$TMP/c" -t 1 -b $beam)
			printf '%-10s %-4s %-7s %-26s %8s %-26s %8s %s\n' precompute $q $search \
				"none ($(wc -c <"$TMP/pre0.$q.nmt") B)" "$t_none" \
				"top $K ($(wc -c <"$TMP/pre$K.$q.nmt") B)" "$t_pre" "$(same "$TMP/n" "$TMP/c")"
		done
		t_two=$(best "$M" "$TMP/c" -t 2 -b $beam)
		printf '%-10s %-4s %-7s %-26s %8s %-26s %8s %s\n' threads $q $search "-t 1" "$t_on" "-t 2" "$t_two" "$(same "$TMP/b" "$TMP/c")"
	done
done
