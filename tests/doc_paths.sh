#!/bin/sh
# tests/doc_paths.sh: every repository path that README.md and docs/*.md
# name exists. A path here is a word with a slash that ends in a file
# extension or a slash (`engine/search.c`, `family/gru/`); paths outside the
# repository (../shared/..., /usr/...), build outputs (build/...), paths
# in an installed tree (bin/, include/, lib/, share/), what a training run
# writes (.../runs/...), placeholders ($X, NAME, OUT_DIR/, *) and URLs are
# not checked. Also: docs/RESULTS.md, the current figures only (a new
# figure replaces the old; history lives in git), stays within
# RESULTS_MAX_LINES.
cd "$(dirname "$0")/.." || exit 1
RESULTS_MAX_LINES=700
status=0 n=0
for doc in README.md docs/*.md; do
	grep -oE '[A-Za-z0-9_./*$<>{}-]*[A-Za-z0-9_-]/[A-Za-z0-9_./*$<>{}-]+' "$doc" | sort -u >"${TMPDIR:-/tmp}/doc_paths.$$"
	while read -r p; do
		p=${p%.}
		case $p in
		../* | /* | ./* | ~* | build/* | http* | www.* | *'$'* | *'*'* | *'<'* | *'{'* | *//* | *NAME* | *...*) continue ;;
		bin/* | include/* | lib/* | share/* | */runs/* | [A-Z][A-Z_]*/*) continue ;;
		esac
		case $p in
		*.c | *.h | *.cu | *.S | *.sh | *.py | *.md | *.mjs | *.js | *.html | *.toml | *.map | *.in | *.txt | */) ;;
		*) continue ;;
		esac
		case $p in
		*/*) ;;
		*) continue ;;
		esac
		n=$((n + 1))
		if [ ! -e "$p" ]; then
			echo "$doc names $p, which does not exist"
			status=1
		fi
	done <"${TMPDIR:-/tmp}/doc_paths.$$"
	rm -f "${TMPDIR:-/tmp}/doc_paths.$$"
done
lines=$(($(wc -l <docs/RESULTS.md)))
if [ "$lines" -gt "$RESULTS_MAX_LINES" ]; then
	echo "docs/RESULTS.md has $lines lines, over $RESULTS_MAX_LINES: replace superseded figures (history lives in git)"
	status=1
fi
[ $status -eq 0 ] && echo "doc paths: all $n exist; docs/RESULTS.md $lines of at most $RESULTS_MAX_LINES lines"
exit $status
