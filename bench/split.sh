#!/bin/sh
# Sentence splitting against gold sentences. Each FILE.LANG.tsv holds
# paragraphs, one a line, their gold sentences separated by tabs; the
# splitter (text/split.h, through tests/split_tool) cuts each paragraph
# (its sentences joined by spaces) and its cuts are compared with the gold
# ones:  right = boundaries both have / boundaries either has  (a missed
# boundary and a spurious one are both wrong). One row per file; --show
# also prints the lines that differ.
#
#   bench/split.sh [--show] [FILE.LANG.tsv ...]   (default: bench/data/split_*.tsv)
#
# bench/data/split_hard.*.tsv was the development set of the language
# lists; split_test.*.tsv was written afterwards, apart from them.
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
show=0
if [ "${1:-}" = --show ]; then show=1; shift; fi
[ $# -gt 0 ] || set -- bench/data/split_*.tsv
make -s build/host/tests/split_tool >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf '%-24s %6s %6s %6s %6s %8s\n' file lines gold found both right
for f in "$@"; do
	lang=$(basename "$f" .tsv)
	lang=${lang##*.}
	tr '\t' ' ' <"$f" | build/host/tests/split_tool "$lang" >"$out"
	awk -v show=$show -v name="$(basename "$f")" -v sysfile="$out" '
	# the paragraph offsets where sentences 2.. of a tab-separated line start
	function cuts(line, arr,   n, off, parts, i) {
		n = split(line, parts, "\t"); off = 0
		for (i = 1; i <= n; i++) { if (i > 1) arr[off] = 1; off += length(parts[i]) + 1 }
		return n - 1
	}
	{
		getline sys < sysfile
		delete G; delete S
		ng = cuts($0, G); ns = cuts(sys, S); b = 0
		for (o in G) if (o in S) b++
		gold += ng; found += ns; both += b; lines++
		if (show && (b != ng || b != ns)) { print "gold: " $0; print "got:  " sys }
	}
	END {
		either = gold + found - both
		printf "%-24s %6d %6d %6d %6d %7.2f%%\n", name, lines, gold, found, both, either ? 100 * both / either : 100
	}' "$f"
done
