#!/bin/sh
# --html on tagged captions (bench/make_html.py: test_2016_flickr and
# test_2017_flickr with a word of unambiguous translation in a tag, every
# third line a link and a <br> too), beam 4, the embedded model or MODEL:
#  - tags kept: lines whose output has exactly the input's tags (attributes
#    byte for byte) in the input's order, which also makes it well-formed
#    whenever the input is;
#  - BLEU (lowercased) of the output with its tags stripped and its
#    character references decoded, against that of the plain captions'
#    translation (train/bleu.py, the captions' references);
#  - placement: of the lines whose tagged word has a listed translation
#    (dog -> Hund) that appears in the output, how often the tag encloses it.
#
#   bench/html.sh [MODEL.nmt] [CORPUS_DIR]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
M=${1:+-m $1}
CORPUS=${2:-$MULTI30K}
make_tmp
printf '%-18s %10s %10s %10s %14s\n' set tags-kept BLEU-lc plain-lc placed
for set in test_2016_flickr test_2017_flickr; do
	zcat "$CORPUS/$set.en.gz" >"$TMP/src"
	zcat "$CORPUS/$set.de.gz" >"$TMP/ref"
	$PYTHON bench/make_html.py "$TMP/src" "$TMP/tagged"
	./nmt $M --html <"$TMP/tagged.html" >"$TMP/out"
	./nmt $M <"$TMP/src" >"$TMP/plain"
	kept=$(paste -d '\n' "$TMP/tagged.html" "$TMP/out" | awk '
		function tags(s,   t, out) { out = ""; while (match(s, /<[^<]*>/)) { out = out substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } return out }
		NR % 2 == 1 { want = tags($0); next } { n++; if (tags($0) == want) k++ } END { print k + 0 "/" n }')
	sed -e 's/<[^<]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' "$TMP/out" | tr -s ' ' | sed 's/^ //; s/ $//' >"$TMP/stripped"
	bleu=$($PYTHON train/bleu.py "$TMP/stripped" "$TMP/ref" --lowercase | awk '{print $2}')
	plain=$($PYTHON train/bleu.py "$TMP/plain" "$TMP/ref" --lowercase | awk '{print $2}')
	placed=$(paste -d '\t' "$TMP/tagged.words" "$TMP/out" | awk -F '\t' '
		$1 != "-" && index($2, $1) > 0 { n++; if ($2 ~ ("<(b|i|em|span)[^>]*>[^<]*" $1 "[^<]*</(b|i|em|span)>")) k++ }
		END { printf "%d/%d (%.1f%%)", k, n, n ? 100 * k / n : 0 }')
	printf '%-18s %10s %10s %10s %14s\n' "$set" "$kept" "$bleu" "$plain" "$placed"
done
