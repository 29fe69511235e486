#!/bin/sh
# Translate the Multi30k test sets with ./nmt and score them.
#
#   bench/eval.sh [MODEL.nmt] [CORPUS_DIR] [OPTIONS...]
#
# MODEL defaults to the embedded model ("-"), CORPUS_DIR to ../shared/data/multi30k;
# OPTIONS are passed to nmt (e.g. --no-shortlist). For test_2016_flickr and
# test_2017_flickr, greedy and beam 4: BLEU (13a, cased and lowercased) and
# chrF (train/bleu.py), one line each, plus the seconds taken; where the
# corpus has the lowercased, tokenized references the published Multi30k
# scores use (SET.lc.norm.tok.TGT), also lowercased BLEU against those
# ("BLEU-tok"; their tokenization is Moses', which 13a matches here except
# for a few escaped apostrophes). "unk": lines holding an unknown piece
# (" ⁇ ", what SentencePiece decodes <unk> to), out of the set's lines.
# SRC and TGT (default en, de) name the direction.
set -eu
. "$(dirname "$0")/common.sh"
MODEL=${1:--}
CORPUS=${2:-$MULTI30K}
[ $# -ge 2 ] && shift 2 || shift $#
make_tmp
if [ "$MODEL" = - ]; then M=""; else M="-m $MODEL"; fi
printf '%-18s %-6s %8s %8s %8s %8s %8s %8s\n' set search BLEU BLEU-lc BLEU-tok chrF unk time
for set in test_2016_flickr test_2017_flickr; do
	zcat "$CORPUS/$set.$SRC.gz" >"$TMP/src"
	zcat "$CORPUS/$set.$TGT.gz" >"$TMP/ref"
	for beam in 1 4; do
		ms=$(run_ms "$TMP/src" "$TMP/hyp" ./nmt $M -b $beam "$@")
		cased=$($PYTHON train/bleu.py "$TMP/hyp" "$TMP/ref")
		lower=$($PYTHON train/bleu.py "$TMP/hyp" "$TMP/ref" --lowercase)
		tok=-
		if [ -f "$CORPUS/$set.lc.norm.tok.$TGT" ]; then
			tok=$($PYTHON train/bleu.py "$TMP/hyp" "$CORPUS/$set.lc.norm.tok.$TGT" --lowercase | awk '{print $2}')
		fi
		unk=$(grep -c '⁇' "$TMP/hyp" || true)
		printf '%-18s %-6s %8s %8s %8s %8s %8s %8s\n' "$set" "beam$beam" \
			"$(echo "$cased" | awk '{print $2}')" "$(echo "$lower" | awk '{print $2}')" "$tok" \
			"$(echo "$cased" | awk '{print $4}')" "$unk" "${ms}ms"
	done
done
