#!/bin/sh
# Install the caption recipe's (train/default.sh) en->de model into
# models/captions/, where `make caption-models` packs it:
#   train/install_default.sh OUT_DIR [Q4_CHECKPOINT]   (SRC=en TGT=de as for the recipe)
# Q4_CHECKPOINT: weights fine-tuned for q4 (train.py --quant q4), which
# `make caption-models` packs for the q4 file instead of OUT_DIR's (in f32: fp16
# rounding would change the q4 packer's scales);
# without it, a q4 checkpoint left in models/ from before is removed.
set -eu
. train/common.sh
OUT=$1
Q4=${2:-}
PY=$PYTHON
SRC=${SRC:-en}
TGT=${TGT:-de}
cp "$OUT/model.safetensors" models/captions/ende.safetensors
cp "$OUT/$SRC.model" models/captions/ende.en.model
cp "$OUT/$TGT.model" models/captions/ende.de.model
cp "$OUT/vmap.txt" models/captions/ende.vmap
if [ -n "$Q4" ]; then
	$PY train/export.py "$Q4" models/captions/ende-q4.safetensors F32
else
	rm -f models/captions/ende-q4.safetensors
fi
echo "installed $OUT as the en->de caption model; run make caption-models"
