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
# for another one give SPM_SRC, SPM_TGT and VMAP too. LOOPS=1 adds two
# columns: the degenerate lines (bench/degenerate.py) of the same
# translations with the repetition guard off, greedy and beam 4. Run from
# the repository root after `make`.
set -eu
QUANT=f32
if [ "${1:-}" = -q ]; then QUANT=$2; shift 2; fi
CORPUS=${CORPUS:-../shared/data/multi30k}
SPM_SRC=${SPM_SRC:-models/en.model}
SPM_TGT=${SPM_TGT:-models/de.model}
VMAP=${VMAP:-models/ende.vmap}
PY=${PYTHON:-/usr/bin/python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
zcat "$CORPUS/val.${SRC:-en}.gz" >"$TMP/src"
zcat "$CORPUS/val.${TGT:-de}.gz" >"$TMP/ref"
printf '%-48s %-4s %8s %8s' checkpoint fmt greedy beam4
if [ "${LOOPS:-0}" = 1 ]; then printf ' %8s %8s' loops1 loops4; fi
printf '\n'
for ckpt in "$@"; do
	case $ckpt in
	*.npz) ./model-pack --marian "$ckpt" --vocab "$SPM_SRC" --vocab "$SPM_TGT" --quant "$QUANT" --vmap "$VMAP" \
		-o "$TMP/m.nmt" >/dev/null ;;
	*) ./model-pack --quant "$QUANT" --vmap "$VMAP" -o "$TMP/m.nmt" "$ckpt" "$SPM_SRC" "$SPM_TGT" >/dev/null ;;
	esac
	./nmt -m "$TMP/m.nmt" -b 1 <"$TMP/src" >"$TMP/hyp1"
	./nmt -m "$TMP/m.nmt" -b 4 <"$TMP/src" >"$TMP/hyp4"
	printf '%-48s %-4s %8s %8s' "$ckpt" "$QUANT" \
		"$($PY train/bleu.py "$TMP/hyp1" "$TMP/ref" | awk '{print $2}')" \
		"$($PY train/bleu.py "$TMP/hyp4" "$TMP/ref" | awk '{print $2}')"
	if [ "${LOOPS:-0}" = 1 ]; then
		for b in 1 4; do
			./nmt -m "$TMP/m.nmt" -b $b --no-repeat-guard <"$TMP/src" >"$TMP/off$b"
			printf ' %8s' "$($PY bench/degenerate.py "$TMP/src" "$TMP/off$b" | awk '{print $2}')"
		done
	fi
	printf '\n'
done
