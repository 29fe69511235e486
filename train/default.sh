#!/bin/sh
# The embedded en->de default, end to end and resumable:
#
#   train/default.sh [OUT_DIR]          (default train/runs/default)
#
#   1. teacher      en->de GRU at teacher size      (train/recipe.sh)
#   2. de->en       the same recipe the other way    (back-translation)
#   3. distilled    the training English translated by the teacher (train/distill.sh)
#   4. student      the small GRU on the distilled corpus (train/recipe.sh)
#   5. synthetic    Multi30k task-2 captions: English forward-translated by
#                   the teacher, German back-translated by the de->en model,
#                   filtered, joined to the distilled pairs (train/synth.py)
#   6. trained on   the student, on the distilled + synthetic corpus
#   7. q4           fine-tuned through the q4 quantizer (train.py --quant q4)
#   8. chosen       the q4 checkpoint with the best val BLEU (beam 4)
#                   through the C engine (bench/val_bleu.sh), never a test set
#   9. packed       OUT_DIR/final/ende.q4.nmt, evaluated (bench/eval.sh)
#
# Every step leaves its output in OUT_DIR and is skipped when that exists;
# the trainings resume from their last.pt, so after an interruption the
# same command carries on. INSTALL=1 also copies the result into models/
# (train/install_default.sh), after which `make` embeds it.
#
# Environment: CORPUS (Multi30k task 1, default ../shared/data/multi30k),
# MONO (task 2, default ../shared/data/multi30k-task2), minutes of one core
# per training: TEACHER_MIN=103 DEEN_MIN=103 STUDENT_MIN=86 SYNTH_MIN=100
# QAT_MIN=22 (what the shipped de->en model, student, training on and q4
# fine-tuning took, docs/RESULTS.md; the teacher's run is older, and 103 is
# the de->en model's time for the same shape), MONO_LINES
# (0: every task-2 caption; N: the first N of each file, for a quick run),
# PYTHON=/usr/bin/python3. Run from the repository root after `make`.
set -eu
OUT=${1:-train/runs/default}
CORPUS=${CORPUS:-../shared/data/multi30k}
MONO=${MONO:-../shared/data/multi30k-task2}
TEACHER_MIN=${TEACHER_MIN:-103}
DEEN_MIN=${DEEN_MIN:-103}
STUDENT_MIN=${STUDENT_MIN:-86}
SYNTH_MIN=${SYNTH_MIN:-100}
QAT_MIN=${QAT_MIN:-22}
MONO_LINES=${MONO_LINES:-0}
PY=${PYTHON:-/usr/bin/python3}
export PYTHON=$PY
mkdir -p "$OUT"
step() { echo "== $*"; }
STUDENT_DIMS="--emb 256 --enc-hidden 128 --dec-hidden 192 --att 128 --fc 256 --fc-layers 1"

step "1. teacher (en->de)"
SRC=en TGT=de TRAIN_ARGS="--threads 1 --max-minutes $TEACHER_MIN" \
	train/recipe.sh "$CORPUS" "$OUT/teacher"

step "2. de->en"
SRC=de TGT=en TRAIN_ARGS="--threads 1 --max-minutes $DEEN_MIN" \
	train/recipe.sh "$CORPUS" "$OUT/deen"

step "3. distilled corpus"
if [ ! -f "$OUT/kd/done" ]; then
	SRC=en TGT=de train/distill.sh "$OUT/teacher/model.nmt" "$CORPUS" "$OUT/kd"
	touch "$OUT/kd/done"
fi

step "4. student"
SPM_CORPUS=$CORPUS SRC=en TGT=de \
	TRAIN_ARGS="$STUDENT_DIMS --dropout 0.2 --max-minutes $STUDENT_MIN --max-epochs 60 --threads 1 --keep-checkpoints" \
	train/recipe.sh "$OUT/kd" "$OUT/student"

# The task-2 captions of one language, every file joined (or the first
# MONO_LINES of each).
mono() {
	for f in "$MONO"/train.[1-5]."$1".gz; do
		if [ "$MONO_LINES" -gt 0 ]; then zcat "$f" | head -n "$MONO_LINES"; else zcat "$f"; fi
	done
}

step "5. synthetic pairs"
S=$OUT/synth
mkdir -p "$S"
if [ ! -f "$S/done" ]; then
	mono en >"$S/mono.en"
	mono de >"$S/mono.de"
	./nmt -m "$OUT/teacher/model.nmt" -b 4 --json <"$S/mono.en" >"$S/ft.json"
	./nmt -m "$OUT/deen/model.nmt" -b 4 --json <"$S/mono.de" >"$S/bt.json"
	$PY train/synth.py --orig-src "$OUT/kd/train.en.gz" --orig-tgt "$OUT/kd/train.de" --orig-copies 2 \
		--synth "$S/mono.en" "$S/ft.json" tgt --synth "$S/mono.de" "$S/bt.json" src \
		--out-dir "$S" --src en --tgt de | tee "$S/synth.log"
	touch "$S/done"
fi

# train.py's options for the student's vocabularies on the synthetic corpus
data_args() {
	echo "--src-lang en --tgt-lang de --src-train $S/train.en --tgt-train $S/train.de" \
		"--src-val $CORPUS/val.en.gz --tgt-val $CORPUS/val.de.gz" \
		"--spm-src $OUT/student/en.model --spm-tgt $OUT/student/de.model"
}

step "6. the student trained on with the synthetic pairs"
if [ ! -f "$OUT/ft/done" ]; then
	# shellcheck disable=SC2046
	$PY train/train.py --out "$OUT/ft" --init "$OUT/student/best.safetensors" --lr 5e-4 --warmup 50 \
		--valid-every 500 --patience 6 --dropout 0.2 --max-minutes "$SYNTH_MIN" --threads 1 \
		--keep-checkpoints $(data_args) | tee -a "$OUT/ft.log"
	touch "$OUT/ft/done"
fi

step "7. q4 fine-tuning"
if [ ! -f "$OUT/ft-q4/done" ]; then
	# shellcheck disable=SC2046
	$PY train/train.py --out "$OUT/ft-q4" --init "$OUT/ft/best.safetensors" --quant q4 --lr 2e-4 \
		--warmup 1 --valid-every 250 --patience 6 --dropout 0.2 --max-minutes "$QAT_MIN" --threads 1 \
		--keep-checkpoints $(data_args) | tee -a "$OUT/ft-q4.log"
	touch "$OUT/ft-q4/done"
fi

step "8. the q4 checkpoint chosen on val (beam 4, through the C engine)"
F=$OUT/final
mkdir -p "$F"
if [ ! -f "$F/chosen.txt" ]; then
	SPM_SRC=$OUT/student/en.model SPM_TGT=$OUT/student/de.model VMAP=$OUT/student/vmap.txt CORPUS=$CORPUS \
		bench/val_bleu.sh -q q4 "$OUT"/ft-q4/step-*.safetensors | tee "$F/val_q4.txt"
	# the highest beam-4 BLEU (the first listed among equals)
	awk 'NR > 1 && (c == "" || $4 > best) { best = $4; c = $1 } END { print c }' "$F/val_q4.txt" >"$F/chosen.txt"
fi
Q4=$(cat "$F/chosen.txt")
echo "chosen: $Q4"

step "9. pack and evaluate"
if [ ! -f "$F/eval.txt" ]; then
	$PY train/export.py "$OUT/ft/best.safetensors" "$F/model.safetensors" F16
	$PY train/export.py "$Q4" "$F/q4.safetensors" F16
	cp "$OUT/student/en.model" "$OUT/student/de.model" "$F/"
	cp "$OUT/student/vmap.txt" "$F/vmap.txt"
	./model-pack --quant q4 --vmap "$F/vmap.txt" -o "$F/ende.q4.nmt" "$F/q4.safetensors" "$F/en.model" "$F/de.model"
	SRC=en TGT=de bench/eval.sh "$F/ende.q4.nmt" "$CORPUS" >"$F/eval.tmp" && mv "$F/eval.tmp" "$F/eval.txt"
fi
cat "$F/eval.txt"
if [ "${INSTALL:-0}" = 1 ]; then
	train/install_default.sh "$F" "$Q4"
else
	echo "to make it the default: train/install_default.sh $F $Q4 && make"
fi
