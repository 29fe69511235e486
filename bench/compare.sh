#!/bin/sh
# Two nmt binaries on the same packed models and input, one thread, runs
# interleaved (old, new, old, new, ...) so that a noisy machine slows both
# alike: the best wall-clock seconds of RUNS runs each, greedy and beam 4,
# for the q8 and q4 packings, and how many output lines differ.
#
#   bench/compare.sh OLD_NMT NEW_NMT [CORPUS_DIR] [REPEAT] [RUNS]
#
# OLD_NMT is typically a commit before a change, built in a git worktree:
#   git worktree add /tmp/wt-old COMMIT && make -C /tmp/wt-old EMBED_MODEL= nmt
#   bench/compare.sh /tmp/wt-old/nmt ./nmt
# Run after `make models`. Input: test_2016_flickr.en REPEAT times (default
# 3); RUNS defaults to 3.
set -eu
. "$(dirname "$0")/common.sh"
OLD=$1 NEW=$2
CORPUS=${3:-$MULTI30K}
REPEAT=${4:-3}
RUNS=${5:-3}
make_tmp
repeat_test_2016 "$CORPUS" "$REPEAT" "$TMP/in"

echo "input: test_2016_flickr.en x$REPEAT ($(wc -l <"$TMP/in") lines), one thread, best of $RUNS"
printf '%-4s %-7s %8s %8s %7s  %s\n' fmt search old_s new_s new/old "lines differing"
for q in q8 q4; do
	for beam in 1 4; do
		bo= bn=
		for r in $(seq "$RUNS"); do
			a=$(run_ms "$TMP/in" "$TMP/old" "$OLD" -m "build/models/ende.$q.nmt" -t 1 -b $beam)
			b=$(run_ms "$TMP/in" "$TMP/new" "$NEW" -m "build/models/ende.$q.nmt" -t 1 -b $beam)
			bo=$(least "$bo" "$a")
			bn=$(least "$bn" "$b")
		done
		diffs=$(diff "$TMP/old" "$TMP/new" | grep -c '^<' || true)
		printf '%-4s %-7s %8.2f %8.2f %7.2f  %s of %s\n' $q "$([ $beam = 1 ] && echo greedy || echo beam4)" \
			"$(echo "$bo" | awk '{print $1 / 1000}')" "$(echo "$bn" | awk '{print $1 / 1000}')" \
			"$(echo "$bn $bo" | awk '{print $1 / $2}')" "$diffs" "$(wc -l <"$TMP/in")"
	done
done
