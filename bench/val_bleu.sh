#!/bin/sh
# Validation BLEU of checkpoints through the C engine, to choose between
# them (the best single checkpoint, an average of the last few, ...):
#
#   bench/val_bleu.sh [-q f32|q8|q4] CKPT.safetensors|CKPT.npz ...
#
# A .npz is a model of the Transformer-SSRU family (train.py --family ssru),
# packed with model-pack --marian on the same vocabularies and map.
# Each checkpoint is packed (with models/'s SentencePiece models and
# vocabulary map, or SPM_SRC, SPM_TGT, VMAP) and translates Multi30k val
# (CORPUS, default ../shared/data/multi30k) greedily and with beam 4; prints
# cased 13a BLEU for both. SRC and TGT (default en, de) name the direction;
# for another one give SPM_SRC, SPM_TGT and VMAP too. VAL_SRC and VAL_TGT
# (plain text files) take the place of Multi30k val: FLORES dev for the
# general-domain models. LOOPS=1 adds two
# columns: the degenerate lines (bench/degenerate.py) of the same
# translations with the repetition guard off, greedy and beam 4; and,
# where Multi30k task 2 is at MONO_DIR (default
# ../shared/data/multi30k-task2), two more: the same for its 5,070
# captions of the val images in the source language (written
# independently of val's, trained on by no model), a loop count five times
# finer. Beam 4 searches at ALPHA (default 0.6), the same for every
# checkpoint whatever length normalization its metadata names. Run from
# the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
QUANT=f32
# every checkpoint at the same length normalization, whatever its metadata says
ALPHA=${ALPHA:-0.6}
if [ "${1:-}" = -q ]; then QUANT=$2; shift 2; fi
CORPUS=${CORPUS:-$MULTI30K}
SPM_SRC=${SPM_SRC:-models/ende.en.model}
SPM_TGT=${SPM_TGT:-models/ende.de.model}
VMAP=${VMAP:-models/ende.vmap}
make_tmp
if [ -n "${VAL_SRC:-}" ]; then
	cat "$VAL_SRC" >"$TMP/src"
	cat "${VAL_TGT:?VAL_TGT must go with VAL_SRC}" >"$TMP/ref"
else
	zcat "$CORPUS/val.$SRC.gz" >"$TMP/src"
	zcat "$CORPUS/val.$TGT.gz" >"$TMP/ref"
fi
MONO_DIR=${MONO_DIR:-$MULTI30K_TASK2}
sets=src
if [ "${LOOPS:-0}" = 1 ] && [ -f "$MONO_DIR/val.1.$SRC.gz" ]; then
	for i in 1 2 3 4 5; do zcat "$MONO_DIR/val.$i.$SRC.gz"; done >"$TMP/task2"
	sets="src task2"
fi
printf '%-48s %-4s %8s %8s' checkpoint fmt greedy beam4
if [ "${LOOPS:-0}" = 1 ]; then printf ' %8s %8s' loops1 loops4; fi
case $sets in *task2*) printf ' %8s %8s' t2loops1 t2loops4 ;; esac
printf '\n'
for ckpt in "$@"; do
	case $ckpt in
	*.npz) ./model-pack --marian "$ckpt" --vocab "$SPM_SRC" --vocab "$SPM_TGT" --quant "$QUANT" --vmap "$VMAP" \
		-o "$TMP/m.nmt" >/dev/null ;;
	*) ./model-pack --quant "$QUANT" --vmap "$VMAP" -o "$TMP/m.nmt" "$ckpt" "$SPM_SRC" "$SPM_TGT" >/dev/null ;;
	esac
	./nmt -m "$TMP/m.nmt" -b 1 <"$TMP/src" >"$TMP/hyp1"
	./nmt -m "$TMP/m.nmt" -b 4 --alpha "$ALPHA" <"$TMP/src" >"$TMP/hyp4"
	printf '%-48s %-4s %8s %8s' "$ckpt" "$QUANT" \
		"$($PYTHON train/bleu.py "$TMP/hyp1" "$TMP/ref" | awk '{print $2}')" \
		"$($PYTHON train/bleu.py "$TMP/hyp4" "$TMP/ref" | awk '{print $2}')"
	if [ "${LOOPS:-0}" = 1 ]; then
		for set in $sets; do
			for b in 1 4; do
				./nmt -m "$TMP/m.nmt" -b $b --no-repeat-guard <"$TMP/$set" >"$TMP/off$b"
				printf ' %8s' "$($PYTHON bench/degenerate.py "$TMP/$set" "$TMP/off$b" | awk '{print $2}')"
			done
		done
	fi
	printf '\n'
done
