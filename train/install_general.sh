#!/bin/sh
# Make a general-domain model of train/general.sh one of the shipped models
# in models/ (ende: the embedded default; the others are installed by `make
# install` and found by nmt -l):
#
#   train/install_general.sh OUT_DIR DIRECTION [F32_WEIGHTS Q4_WEIGHTS]
#
# DIRECTION: ende, deen, enfr, fren, enes or esen. The weights are the
# recipe's choice for the round OUT_DIR/DIRECTION-final/round.txt names (its
# chosen_f32.txt, or chosen_loops.txt where it has one, and chosen.txt), or the two given: the f32 weights (packed
# as f32 and q8) and the 4-bit ones (GPTQ's or fine-tuned for the round's
# 4-bit format, q4_format.txt beside chosen.txt, else q4; given ones:
# Q4_FORMAT, default q4n, or q4n+i8: model-pack's embeddings in q4n and the
# other matrices in i8, weights from gptq.py --format q4n+i8; every weight on
# its row's codes), "-" for none.
# Without 4-bit weights `make` ships the direction as q8: the recipe's choice
# goes without them where they lose more than 0.5 BLEU against q8 at beam 4
# (but for en->de, embedded as 4-bit to keep nmt within 8 MB). Both are
# written in fp16, half the size: the packer finds the same codes in them,
# with scales within fp16's rounding (measure what is installed, not what
# was trained). Writes models/DIRECTION.safetensors,
# models/DIRECTION-q4n.safetensors (or -q4, -q4n+i8; the others removed), models/DIRECTION.SRC.model and .TGT.model
# (the pair's joint SentencePiece model, once for each side),
# models/DIRECTION.vmap and models/DIRECTION.txt, where each came from. Then
# `make` packs them. The weights carry the round's length normalization
# (OUT_DIR/DIRECTION-final/ROUND/alpha.txt, chosen on FLORES dev by
# train/general.sh; ALPHA with given weights), which model-pack records and
# nmt searches with unless told otherwise.
set -eu
OUT=${1:?usage: train/install_general.sh OUT_DIR DIRECTION [F32_WEIGHTS Q4_WEIGHTS]}
D=${2:?usage: train/install_general.sh OUT_DIR DIRECTION [F32_WEIGHTS Q4_WEIGHTS]}
. train/common.sh
. train/choose.sh
PY=$PYTHON
case $D in
en??) SRC=en TGT=${D#en} L=${D#en} ;;
??en) SRC=${D%en} TGT=en L=${D%en} ;;
*) echo "install_general.sh: DIRECTION is ende, deen, enfr, fren, enes or esen, not $D" >&2; exit 2 ;;
esac
FIN=$OUT/$D-final
[ $# -eq 2 ] || [ $# -eq 4 ] || { echo "usage: train/install_general.sh OUT_DIR DIRECTION [F32_WEIGHTS Q4_WEIGHTS]" >&2; exit 2; }
ALPHA_TABLE=
if [ $# -eq 4 ]; then
	F32=$3 Q4=$4 ROUND="given" Q4_FORMAT=${Q4_FORMAT:-q4n}
else
	ROUND=$(cat "$FIN/round.txt")
	F32=$(cat "$FIN/$ROUND/chosen_f32.txt")
	# the f32 weights trained against their loops, where the round ships q8 (general.sh's 7a)
	[ ! -f "$FIN/$ROUND/chosen_loops.txt" ] || F32=$(cat "$FIN/$ROUND/chosen_loops.txt")
	Q4=$(cat "$FIN/$ROUND/chosen.txt")
	Q4_FORMAT=$(cat "$FIN/$ROUND/q4_format.txt" 2>/dev/null || echo q4)
	[ "$(shipped_format "$FIN/$ROUND/flores.txt" "$D")" = q8 ] && Q4=-
	if [ -f "$FIN/$ROUND/alpha.txt" ]; then
		ALPHA=$(cat "$FIN/$ROUND/alpha.txt") ALPHA_TABLE=$FIN/$ROUND/alpha_table.txt
	fi
fi
SPM=$OUT/spm.en$L.model
for f in "$F32" "$SPM" "$FIN/vmap.txt"; do
	[ -f "$f" ] || { echo "install_general.sh: no $f" >&2; exit 1; }
done
[ "$Q4" = - ] || [ -f "$Q4" ] || { echo "install_general.sh: no $Q4" >&2; exit 1; }
$PY train/export.py "$F32" "models/$D.safetensors" F16 ${ALPHA:+--alpha "$ALPHA"}
rm -f "models/$D-q4.safetensors" "models/$D-q4n.safetensors" "models/$D-q4n+i8.safetensors"
[ "$Q4" = - ] || $PY train/export.py "$Q4" "models/$D-$Q4_FORMAT.safetensors" F16 ${ALPHA:+--alpha "$ALPHA"}
cp "$SPM" "models/$D.$SRC.model"
cp "$SPM" "models/$D.$TGT.model"
cp "$FIN/vmap.txt" "models/$D.vmap"
{
	echo "$D: general-domain model of train/general.sh ($(date -u +%F))"
	echo "round: $ROUND"
	echo "f32 and q8 weights: $(basename "$(dirname "$F32")")/$(basename "$F32")"
	[ "$Q4" = - ] && echo "4-bit weights: none (q8 ships)" ||
		echo "$Q4_FORMAT weights: $(basename "$(dirname "$Q4")")/$(basename "$Q4")"
	echo "vocabulary: spm.en$L.model ($(wc -c <"$SPM") bytes), the map: $D-final/vmap.txt"
	echo "length normalization (alpha): ${ALPHA:-none recorded (nmt's 0.6)}"
	for f in "$FIN/$ROUND/val_f32.txt" "$FIN/$ROUND/val_f32_multi30k.txt" "$FIN/$ROUND/val_q4.txt" \
		"$FIN/$ROUND/val_q4_multi30k.txt" "$FIN/$ROUND/val_loops.txt" "$FIN/$ROUND/val_loops_multi30k.txt" \
		"$FIN/$ROUND/flores.txt" $ALPHA_TABLE; do
		[ -f "$f" ] && { echo "== $(basename "$f")"; cat "$f"; }
	done
	true
} >"models/$D.txt"
echo "installed $D into models/ (models/$D.txt); run make"
