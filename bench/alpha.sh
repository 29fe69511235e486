#!/bin/sh
# Length normalization: a model's beam-4 BLEU at each of several alphas,
# to choose the one its file records (model-pack --alpha; train/choose.sh's
# choose_alpha reads this table).
#
#   SRC=en TGT=de bench/alpha.sh MODEL.nmt
#
# For each alpha of ALPHAS (default 0.3 0.6 1.0 1.5): cased 13a BLEU and
# chrF (train/bleu.py) and the output's words on FLORES dev (FLORES, the
# general models' validation set: never FLORES devtest), and cased BLEU on
# Multi30k val where Multi30k has the pair ("-" where not). The header
# gives the references' words. Run from the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
MODEL=${1:?usage: SRC=en TGT=de bench/alpha.sh MODEL.nmt}
ALPHAS=${ALPHAS:-0.3 0.6 1.0 1.5}
make_tmp
captions=
if [ -f "$MULTI30K/val.$SRC.gz" ] && [ -f "$MULTI30K/val.$TGT.gz" ]; then
	zcat "$MULTI30K/val.$SRC.gz" >"$TMP/val.src"
	zcat "$MULTI30K/val.$TGT.gz" >"$TMP/val.ref"
	captions=1
fi
printf '%-6s %7s %7s %7s %9s   (FLORES dev references: %s words)\n' alpha BLEU chrF words multi30k \
	"$(wc -w <"$FLORES/flores-dev.$TGT")"
for a in $ALPHAS; do
	./nmt -m "$MODEL" -b 4 --alpha "$a" <"$FLORES/flores-dev.$SRC" >"$TMP/hyp"
	score=$($PYTHON train/bleu.py "$TMP/hyp" "$FLORES/flores-dev.$TGT")
	val=-
	if [ -n "$captions" ]; then
		./nmt -m "$MODEL" -b 4 --alpha "$a" <"$TMP/val.src" >"$TMP/val.hyp"
		val=$($PYTHON train/bleu.py "$TMP/val.hyp" "$TMP/val.ref" | awk '{ print $2 }')
	fi
	printf '%-6s %7s %7s %7s %9s\n' "$a" "$(echo "$score" | awk '{ print $2 }')" "$(echo "$score" | awk '{ print $4 }')" \
		"$(wc -w <"$TMP/hyp")" "$val"
done
