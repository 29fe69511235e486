#!/bin/sh
# The whole recipe of a model, from parallel text to a scored .nmt file:
#   SentencePiece -> train -> vocabulary map -> fp16 export -> pack -> evaluate
#
#   train/recipe.sh [CORPUS_DIR] [OUT_DIR]
#
# CORPUS_DIR holds train.SRC[.gz], train.TGT[.gz], val.SRC[.gz], val.TGT[.gz]
# (one sentence per line; default ../shared/data/multi30k), and for the
# evaluation test_2016_flickr/test_2017_flickr (skipped when absent).
# OUT_DIR defaults to train/runs/ende. Environment: SRC=en TGT=de VOCAB=8000
# (SentencePiece pieces per language), TGT_SPM_TYPE=unigram (or bpe: the
# target vocabulary made by merges, which gives every frequent word a
# word-initial piece; renumbered by frequency, train/spm_renumber.py),
# SPM_CORPUS (the directory whose train.SRC/train.TGT SentencePiece learns
# from; default CORPUS_DIR: for a distilled corpus, train/distill.sh, give
# the original one), TRAIN_ARGS
# (extra train.py options), PYTHON=/usr/bin/python3. Every step is skipped
# when its output exists, and training resumes from OUT_DIR/last.pt, so
# after an interruption the same command carries on. Run from the repository root after `make`.
# To make the result the embedded default: train/install_default.sh OUT_DIR
# (README.md, "Training a model", has the commands that made the default).
set -eu
. train/common.sh
. train/logged.sh
CORPUS=${1:-$MULTI30K}
OUT=${2:-train/runs/ende}
SRC=${SRC:-en}
TGT=${TGT:-de}
VOCAB=${VOCAB:-8000}
TGT_SPM_TYPE=${TGT_SPM_TYPE:-unigram}
SPM_CORPUS=${SPM_CORPUS:-$CORPUS}
PY=$PYTHON
mkdir -p "$OUT"

corpus_file() { # corpus_file train en [DIR] -> the plain or gzipped file of DIR (default CORPUS)
	d=${3:-$CORPUS}
	if [ -f "$d/$1.$2.gz" ]; then echo "$d/$1.$2.gz"; else echo "$d/$1.$2"; fi
}
step() { echo "== $*"; }

for l in "$SRC" "$TGT"; do
	if [ ! -f "$OUT/$l.model" ]; then
		type=unigram
		if [ "$l" = "$TGT" ]; then type=$TGT_SPM_TYPE; fi
		step "SentencePiece $l ($VOCAB pieces, $type)"
		zcat -f "$(corpus_file train "$l" "$SPM_CORPUS")" >"$OUT/spm_input.$l"
		spm_train --input="$OUT/spm_input.$l" --model_prefix="$OUT/spm.$l" --vocab_size="$VOCAB" \
			--model_type="$type" --character_coverage=1.0 --num_threads=2 >"$OUT/spm_train.$l.log" 2>&1
		if [ "$type" = bpe ]; then
			# numbered by merge, a BPE model puts every single character last;
			# the engine precomputes rows for the first ids (docs/DESIGN.md §4)
			$PY train/spm_renumber.py "$OUT/spm.$l.model" "$OUT/spm_input.$l" "$OUT/$l.model"
		else
			mv "$OUT/spm.$l.model" "$OUT/$l.model"
		fi
		rm -f "$OUT/spm_input.$l" "$OUT/spm.$l.model" "$OUT/spm.$l.vocab"
	fi
done

if [ ! -f "$OUT/train.done" ]; then
	step "train (log: $OUT/train.log)"
	# shellcheck disable=SC2086
	logged -a "$OUT/train.log" "$PY" train/train.py --out "$OUT" --src-lang "$SRC" --tgt-lang "$TGT" \
		--src-train "$(corpus_file train "$SRC")" --tgt-train "$(corpus_file train "$TGT")" \
		--src-val "$(corpus_file val "$SRC")" --tgt-val "$(corpus_file val "$TGT")" \
		--spm-src "$OUT/$SRC.model" --spm-tgt "$OUT/$TGT.model" ${TRAIN_ARGS:-}
	touch "$OUT/train.done"
fi

if [ ! -f "$OUT/vmap.txt" ]; then
	step "vocabulary map"
	logged "$OUT/vmap.log" "$PY" train/vmap.py --src-train "$(corpus_file train "$SRC")" --tgt-train "$(corpus_file train "$TGT")" \
		--src-val "$(corpus_file val "$SRC")" --tgt-val "$(corpus_file val "$TGT")" \
		--spm-src "$OUT/$SRC.model" --spm-tgt "$OUT/$TGT.model" --out "$OUT/vmap.txt"
fi

if [ ! -f "$OUT/model.safetensors" ]; then
	step "export the best checkpoint as fp16"
	$PY train/export.py "$OUT/best.safetensors" "$OUT/model.safetensors" F16
fi

step "pack"
./model-pack --vmap "$OUT/vmap.txt" -o "$OUT/model.nmt" "$OUT/model.safetensors" "$OUT/$SRC.model" "$OUT/$TGT.model"

if [ -f "$(corpus_file test_2016_flickr "$SRC")" ]; then
	step "evaluate (shortlist on, then off)"
	logged "$OUT/eval.txt" bench/eval.sh "$OUT/model.nmt" "$CORPUS"
	logged "$OUT/eval.noshortlist.txt" bench/eval.sh "$OUT/model.nmt" "$CORPUS" --no-shortlist
fi
