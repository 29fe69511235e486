#!/bin/sh
# Text in capitals: test_2016_flickr and test_2017_flickr as written and
# all in capitals, translated by the embedded model or MODEL (beam 4),
# with the capitals rule (the default: translated in sentence case, given
# back in capitals) and without it (--no-case-fold); lowercased BLEU
# against the references, so that the case of the output does not count.
#
#   bench/capitals.sh [MODEL.nmt] [CORPUS_DIR]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
M=${1:+-m $1}
CORPUS=${2:-$MULTI30K}
make_tmp
printf '%-18s %12s %16s %16s\n' set "as written" "capitals" "capitals, off"
for set in test_2016_flickr test_2017_flickr; do
	zcat "$CORPUS/$set.en.gz" >"$TMP/src"
	zcat "$CORPUS/$set.de.gz" >"$TMP/ref"
	$PYTHON -c 'import sys; sys.stdout.write(sys.stdin.read().upper())' <"$TMP/src" >"$TMP/upper"
	./nmt $M <"$TMP/src" >"$TMP/a"
	./nmt $M <"$TMP/upper" >"$TMP/b"
	./nmt $M --no-case-fold <"$TMP/upper" >"$TMP/c"
	bleu() { $PYTHON train/bleu.py "$1" "$TMP/ref" --lowercase | awk '{ print $2 }'; }
	printf '%-18s %12s %16s %16s\n' "$set" "$(bleu "$TMP/a")" "$(bleu "$TMP/b")" "$(bleu "$TMP/c")"
done
