#!/bin/sh
# Runaway output, with the repetition guard off (--no-repeat-guard) and on
# (the default): degenerate lines (bench/degenerate.py: a looping piece or
# n-gram, or over 2 x the source's words + 6) of test_2016_flickr,
# test_2017_flickr and bench/data/general.en.txt (general English, 300
# sentences), greedy and beam 4, the embedded model or MODEL; and how many
# lines the guard changed, and how many of those were not degenerate
# without it (the guard must change none of them). SETS picks the sets
# (default "test_2016_flickr test_2017_flickr general"; `val`, Multi30k's
# validation set, is the one to choose models on; `task2_val`, the 5,070
# English captions Multi30k task 2 has of the validation images, written
# independently of val's, in MONO_DIR, default ../shared/data/multi30k-task2,
# a larger in-domain set no model trains on).
#
#   bench/degenerate.sh [MODEL.nmt] [CORPUS_DIR]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
M=${1:+-m $1}
CORPUS=${2:-$MULTI30K}
make_tmp
for set in val test_2016_flickr test_2017_flickr; do zcat "$CORPUS/$set.en.gz" >"$TMP/$set"; done
cp bench/data/general.en.txt "$TMP/general"
case " ${SETS:-} " in
*" task2_val "*) for i in 1 2 3 4 5; do zcat "${MONO_DIR:-$MULTI30K_TASK2}/val.$i.en.gz"; done >"$TMP/task2_val" ;;
esac
printf '%-18s %-6s %22s %22s %8s %14s\n' set search "guard off" "guard on" changed "changed, fine"
for set in ${SETS:-test_2016_flickr test_2017_flickr general}; do
	for beam in 1 4; do
		./nmt $M -b $beam --no-repeat-guard <"$TMP/$set" >"$TMP/off"
		./nmt $M -b $beam <"$TMP/$set" >"$TMP/on"
		off=$($PYTHON bench/degenerate.py "$TMP/$set" "$TMP/off" | sed 's/degenerate: //; s/ lines//')
		on=$($PYTHON bench/degenerate.py "$TMP/$set" "$TMP/on" | sed 's/degenerate: //; s/ lines//')
		changed=$(paste -d '\n' "$TMP/off" "$TMP/on" | awk 'NR % 2 == 1 { a = $0; next } a != $0 { n++ } END { print n + 0 }')
		fine=$($PYTHON - "$TMP/$set" "$TMP/off" "$TMP/on" <<'PYEOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('d', 'bench/degenerate.py')
d = importlib.util.module_from_spec(spec)
spec.loader.exec_module(d)
src, off, on = (open(f, encoding='utf-8').read().split('\n') for f in sys.argv[1:4])
print(sum(1 for s, a, b in zip(src, off, on) if a != b and not d.why(s, a)))
PYEOF
)
		printf '%-18s %-6s %22s %22s %8s %14s\n' "$set" "beam$beam" "$off" "$on" "$changed" "$fine"
	done
done
