#!/bin/sh
# Make a recipe's result the default model embedded by `make`:
#   train/install_default.sh OUT_DIR     (SRC=en TGT=de as for the recipe)
set -eu
OUT=$1
SRC=${SRC:-en}
TGT=${TGT:-de}
cp "$OUT/model.safetensors" models/ende.safetensors
cp "$OUT/$SRC.model" models/en.model
cp "$OUT/$TGT.model" models/de.model
cp "$OUT/vmap.txt" models/ende.vmap
echo "installed $OUT as the default model; run make"
