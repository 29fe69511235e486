#!/bin/sh
# Sequence-level knowledge distillation (Kim & Rush 2016): a corpus whose
# target side is a teacher model's beam-search translation of the source, on
# which train/recipe.sh then trains a smaller, faster student.
#
#   train/distill.sh TEACHER.nmt [CORPUS_DIR] [OUT_DIR]
#
# TEACHER.nmt is any packed model (run `make` first: ./nmt translates).
# CORPUS_DIR is as for train/recipe.sh (default ../shared/data/multi30k);
# OUT_DIR (default train/runs/kd/corpus) receives train.TGT (the teacher's
# translations) and links to everything else of CORPUS_DIR, so it can be
# given to train/recipe.sh as its corpus. Environment: SRC=en TGT=de, BEAM=4,
# ALPHA=0.6 (the length normalization of the teacher's beam search).
#
# A teacher translation that holds an unknown piece (" ⁇ ", a character the
# teacher's vocabulary lacks) or is empty is replaced by the human reference:
# the student should not learn to emit <unk>.
set -eu
. train/common.sh
TEACHER=$1
CORPUS=${2:-$MULTI30K}
OUT=${3:-train/runs/kd/corpus}
SRC=${SRC:-en}
TGT=${TGT:-de}
BEAM=${BEAM:-4}
ALPHA=${ALPHA:-0.6}
mkdir -p "$OUT"
CORPUS=$(realpath "$CORPUS")

corpus_file() { # corpus_file train en -> the plain or gzipped file
	if [ -f "$CORPUS/$1.$2.gz" ]; then echo "$CORPUS/$1.$2.gz"; else echo "$CORPUS/$1.$2"; fi
}

for f in "$CORPUS"/*; do
	case $(basename "$f") in
	train.$TGT | train.$TGT.gz) ;;
	*) ln -sf "$f" "$OUT/" ;;
	esac
done
rm -f "$OUT/train.$TGT.gz"

zcat -f "$(corpus_file train "$SRC")" | ./nmt -m "$TEACHER" -b "$BEAM" --alpha "$ALPHA" >"$OUT/teacher.$TGT"
zcat -f "$(corpus_file train "$TGT")" | paste -d '\t' - "$OUT/teacher.$TGT" |
	awk -F '\t' '{ if ($2 == "" || index($2, "⁇") > 0) { print $1; kept++ } else print $2 }
		END { printf "distill: %d of %d lines kept the reference\n", kept, NR > "/dev/stderr" }' \
		>"$OUT/train.$TGT"
rm -f "$OUT/teacher.$TGT"
