#!/bin/sh
# Paragraphs: consecutive captions of test_2016_flickr / test_2017_flickr
# joined into lines of 2, 3, 4, 5, 2, 3, ... sentences, translated as
# paragraphs, and scored against the German captions joined the same way;
# next to the same captions translated one per line and joined afterwards,
# and the paragraphs translated with --split none (each line as one
# sentence, nmt's behaviour before sentence splitting). BLEU and chrF
# (train/bleu.py, 13a; cased and lowercased).
#
#   bench/paragraphs.sh [MODEL.nmt|-] [CORPUS_DIR] [NMT_OPTIONS...]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
MODEL=${1:--}
CORPUS=${2:-$MULTI30K}
[ $# -ge 2 ] && shift 2 || shift $#
make_tmp
if [ "$MODEL" = - ]; then M=""; else M="-m $MODEL"; fi
# join lines of a file into groups of 2, 3, 4, 5, 2, ... joined by spaces
group() { awk 'BEGIN { n = 2 } { line = line (k ? " " : "") $0; k++; if (k == n) { print line; line = ""; k = 0; n = n % 5 + 2 } }
	END { if (k) print line }' "$1"; }
printf '%-18s %-6s %-22s %8s %8s %8s\n' set search input BLEU BLEU-lc chrF
for set in test_2016_flickr test_2017_flickr; do
	zcat "$CORPUS/$set.en.gz" >"$TMP/src"
	zcat "$CORPUS/$set.de.gz" >"$TMP/ref"
	group "$TMP/src" >"$TMP/psrc"
	group "$TMP/ref" >"$TMP/pref"
	for beam in 1 4; do
		./nmt $M -b $beam "$@" <"$TMP/src" >"$TMP/hyp"
		group "$TMP/hyp" >"$TMP/hyp.joined"
		./nmt $M -b $beam "$@" <"$TMP/psrc" >"$TMP/hyp.para"
		./nmt $M -b $beam --split none "$@" <"$TMP/psrc" >"$TMP/hyp.none"
		for kind in joined para none; do
			case $kind in
			joined) what="lines, joined" ;;
			para) what="paragraphs" ;;
			none) what="paragraphs, split none" ;;
			esac
			cased=$($PYTHON train/bleu.py "$TMP/hyp.$kind" "$TMP/pref")
			lower=$($PYTHON train/bleu.py "$TMP/hyp.$kind" "$TMP/pref" --lowercase)
			printf '%-18s %-6s %-22s %8s %8s %8s\n' "$set" "beam$beam" "$what" "$(echo "$cased" | awk '{print $2}')" \
				"$(echo "$lower" | awk '{print $2}')" "$(echo "$cased" | awk '{print $4}')"
		done
	done
done
