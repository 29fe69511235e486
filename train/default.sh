#!/bin/sh
# The image-caption models, en->de and de->en (Multi30k; the embedded default
# before the general-domain models of train/general.sh), end to end and resumable:
#
#   train/default.sh [OUT_DIR]          (default train/runs/default)
#
#   1. en->de GRU   a GRU at the de->en model's size (train/recipe.sh); it
#                   puts the task-2 English into German for the de->en
#                   teacher's corpus
#   2. de->en GRU   the same recipe the other way; it puts the task-2
#                   German into English for the en->de teacher's corpus,
#                   and the de->en student starts from it
#   3. teacher data Multi30k task-2 captions back-translated by 1 and 2
#                   (synthetic source, human target), filtered, with
#                   Multi30k's pairs twice (train/synth.py), one corpus
#                   each way
#   4. teachers     Transformer encoder + SSRU decoder (train.py --family
#                   ssru), one each way, on 3's corpora, then fine-tuned on
#                   Multi30k's human pairs alone (the back-translated task-2
#                   captions are shorter than Multi30k's translations and
#                   teach the teacher short output); the fine-tuned
#                   checkpoint best on val at beam 4 is kept
#   5. distilled    Multi30k's English translated by the en->de teacher
#                   (train/distill.sh), and forward-translated by it the
#                   task-2 English and 3's back-translated English, with
#                   the length normalization of KD_ALPHAS best on val,
#                   filtered, joined to the distilled pairs (train/synth.py)
#   6. student      the small GRU on the distilled pairs (train/recipe.sh),
#                   its German vocabulary BPE (every frequent word gets a
#                   word-initial piece), then trained on with the whole
#                   corpus of 5
#   7. q4           fine-tuned through the q4 quantizer (train.py --quant q4),
#                   its own loops pushed down (train/negatives.py: a pool of
#                   changed captions translated with the guard off, the
#                   looping translations kept, train.py --negatives); then
#                   rounds that each start where the last stopped and mine
#                   that checkpoint's own loops again
#   8. chosen       on val through the C engine (bench/val_bleu.sh), never a
#                   test set: of the q4 checkpoints of every round within 0.5
#                   of the best beam-4 BLEU, the one with the fewest
#                   degenerate lines with the guard off (greedy + beam 4, on
#                   val and on the task-2 captions of the val images), then
#                   the best beam 4; the f32 file's weights by the same rule
#                   in q8, between 6's model and that checkpoint
#   9. packed       OUT_DIR/final/ende.q4.nmt, evaluated (bench/eval.sh)
#  10. de->en       the second direction distilled the same way: Multi30k's
#                   German and the task-2 German translated by the de->en
#                   teacher, with 3's back-translated English, filtered,
#                   the distilled pairs twice; trained on from 2's model;
#                   fine-tuned for q4 on the same corpus; the q4 checkpoint
#                   chosen on val by 8's rule; packed and evaluated in
#                   OUT_DIR/deen-final/
#
# Every step leaves its output in OUT_DIR and is skipped when that exists;
# the trainings resume from their last.pt, so after an interruption the
# same command carries on. INSTALL=1 also copies the results into
# models/captions/ (train/install_default.sh), after which `make
# caption-models` packs them (the general-domain models of train/general.sh
# are the shipped ones since).
#
# Environment: CORPUS (Multi30k task 1, default ../shared/data/multi30k),
# MONO (task 2, default ../shared/data/multi30k-task2), minutes of one core
# per training: GRU_MIN=103 TEACHER_MIN=130 TEACHER_FT_MIN=16 STUDENT_MIN=86
# SYNTH_MIN=78 QAT_MIN=35 NEG_ROUND_MIN=22 DEEN_KD_MIN=78 DEEN_QAT_MIN=12
# (docs/TRAINING.md says what the shipped models' runs took),
# TEACHER_DEVICE=cpu (cuda: the teachers train on a GPU, in minutes:
# TEACHER_DEVICE=cuda TEACHER_MIN=4 TEACHER_FT_MIN=1 TEACHER_TOKENS=6000),
# TEACHER_TOKENS=3000 (a teacher's batch, in tokens), KD_ALPHAS="0.6 1.0
# 1.5" (the length normalizations a teacher may translate for its student with),
# NEG_WEIGHT=0.5 (the weight of the loops' unlikelihood in the first q4
# fine-tuning; the later rounds use 1.0 at half its learning rate),
# NEG_ROUNDS=3 (rounds of q4 fine-tuning, the first included), MONO_LINES
# (0: every task-2 caption; N: the first N of each file, for a quick run),
# PYTHON=/usr/bin/python3. Run from the repository root after `make`.
set -eu
. train/common.sh
. train/logged.sh
OUT=${1:-train/runs/default}
CORPUS=${CORPUS:-$MULTI30K}
MONO=${MONO:-$MULTI30K_TASK2}
GRU_MIN=${GRU_MIN:-103}
TEACHER_MIN=${TEACHER_MIN:-130}
TEACHER_FT_MIN=${TEACHER_FT_MIN:-16}
TEACHER_DEVICE=${TEACHER_DEVICE:-cpu}
TEACHER_TOKENS=${TEACHER_TOKENS:-3000}
KD_ALPHAS=${KD_ALPHAS:-0.6 1.0 1.5}
DEEN_KD_MIN=${DEEN_KD_MIN:-78}
DEEN_QAT_MIN=${DEEN_QAT_MIN:-12}
STUDENT_MIN=${STUDENT_MIN:-86}
SYNTH_MIN=${SYNTH_MIN:-78}
QAT_MIN=${QAT_MIN:-35}
NEG_WEIGHT=${NEG_WEIGHT:-0.5}
NEG_ROUNDS=${NEG_ROUNDS:-3}
NEG_ROUND_MIN=${NEG_ROUND_MIN:-22}
MONO_LINES=${MONO_LINES:-0}
PY=$PYTHON
export PYTHON   # for the scripts it runs (train/recipe.sh, bench/)
mkdir -p "$OUT"
step() { echo "== $*"; }
# the human pairs appear this many times in every synthetic corpus
ORIG_COPIES=2
STUDENT_DIMS="--emb 256 --enc-hidden 128 --dec-hidden 192 --att 128 --fc 256 --fc-layers 1"

# The q4 checkpoint to keep (choose TABLE)
. train/choose.sh

# finish "QAT_DIRS" FINAL_DIR F32_WEIGHTS VOCAB_DIR SRC TGT: the q4
# checkpoint of QAT_DIRS (one or more runs) chosen on val (choose,
# FINAL_DIR/chosen.txt); the weights for the f32 and q8 files chosen by the
# same rule, in q8, between F32_WEIGHTS and that checkpoint (f32.txt: a q4
# fine-tuned checkpoint can be the better model in every format); both
# written as chosen, in f32 (fp16 rounding would change the q4 packer's
# scales): FINAL_DIR/model.safetensors, and q4.safetensors where the q4
# choice differs, beside VOCAB_DIR's SentencePiece models and
# vocabulary map; the q4 packing FINAL_DIR/SRCTGT.q4.nmt evaluated
# (eval.txt).
finish() {
	qats=$1 fin=$2 f32=$3 voc=$4 src=$5 tgt=$6
	mkdir -p "$fin"
	set --
	for d in $qats; do set -- "$@" "$d"/step-*.safetensors; done
	if [ ! -f "$fin/chosen.txt" ]; then
		logged "$fin/val_q4.txt" val_loops "$voc" "$src" "$tgt" -q q4 "$@"
		choose "$fin/val_q4.txt" >"$fin/chosen.txt"
	fi
	q4=$(cat "$fin/chosen.txt")
	echo "chosen: $q4"
	if [ ! -f "$fin/f32.txt" ]; then
		logged "$fin/val_q8.txt" val_loops "$voc" "$src" "$tgt" -q q8 "$f32" "$q4"
		choose "$fin/val_q8.txt" >"$fin/f32.txt"
	fi
	echo "f32 and q8 weights: $(cat "$fin/f32.txt")"
	if [ ! -f "$fin/eval.txt" ]; then
		$PY train/export.py "$(cat "$fin/f32.txt")" "$fin/model.safetensors" F32
		packed=$fin/model.safetensors
		if [ "$q4" != "$(cat "$fin/f32.txt")" ]; then
			$PY train/export.py "$q4" "$fin/q4.safetensors" F32
			packed=$fin/q4.safetensors
		fi
		cp "$voc/$src.model" "$voc/$tgt.model" "$voc/vmap.txt" "$fin/"
		./model-pack --quant q4 --vmap "$fin/vmap.txt" -o "$fin/$src$tgt.q4.nmt" "$packed" \
			"$fin/$src.model" "$fin/$tgt.model"
		SRC=$src TGT=$tgt bench/eval.sh "$fin/$src$tgt.q4.nmt" "$CORPUS" >"$fin/eval.tmp" &&
			mv "$fin/eval.tmp" "$fin/eval.txt"
	fi
	cat "$fin/eval.txt"
}

# q4_weights FINAL_DIR: finish's q4 choice where it differs from the f32
# file's weights (train/install_default.sh's second argument), else nothing.
q4_weights() {
	[ "$(cat "$1/chosen.txt")" = "$(cat "$1/f32.txt")" ] || cat "$1/chosen.txt"
}

# val_loops VOCAB_DIR SRC TGT -q FMT CHECKPOINT...: LOOPS=1 bench/val_bleu.sh
# with VOCAB_DIR's SentencePiece models and map.
val_loops() {
	# its own names: shell functions share their variables with the caller
	lv_voc=$1 lv_src=$2 lv_tgt=$3
	shift 3
	LOOPS=1 SRC=$lv_src TGT=$lv_tgt SPM_SRC=$lv_voc/$lv_src.model SPM_TGT=$lv_voc/$lv_tgt.model \
		VMAP=$lv_voc/vmap.txt CORPUS=$CORPUS MONO_DIR=$MONO bench/val_bleu.sh "$@"
}

step "1. en->de GRU"
SRC=en TGT=de TRAIN_ARGS="--threads 1 --max-minutes $GRU_MIN" \
	train/recipe.sh "$CORPUS" "$OUT/gru"

step "2. de->en GRU"
SRC=de TGT=en TRAIN_ARGS="--threads 1 --max-minutes $GRU_MIN" \
	train/recipe.sh "$CORPUS" "$OUT/deen"

# The task-2 captions of one language, every file joined (or the first
# MONO_LINES of each).
mono() {
	for f in "$MONO"/train.[1-5]."$1".gz; do
		if [ "$MONO_LINES" -gt 0 ]; then zcat "$f" | head -n "$MONO_LINES"; else zcat "$f"; fi
	done
}

step "3. the teachers' corpora: task-2 captions back-translated"
T=$OUT/tdata
mkdir -p "$T"
if [ ! -f "$T/done" ]; then
	mono en >"$T/mono.en"
	mono de >"$T/mono.de"
	./nmt -m "$OUT/deen/model.nmt" -b 4 --json <"$T/mono.de" >"$T/bt.en.json"
	./nmt -m "$OUT/gru/model.nmt" -b 4 --json <"$T/mono.en" >"$T/bt.de.json"
	logged "$T/synth.log" "$PY" train/synth.py --orig-src "$CORPUS/train.en.gz" --orig-tgt "$CORPUS/train.de.gz" --orig-copies "$ORIG_COPIES" \
		--synth "$T/mono.de" "$T/bt.en.json" src --out-dir "$T/ende" --src en --tgt de
	logged -a "$T/synth.log" "$PY" train/synth.py --orig-src "$CORPUS/train.de.gz" --orig-tgt "$CORPUS/train.en.gz" --orig-copies "$ORIG_COPIES" \
		--synth "$T/mono.en" "$T/bt.de.json" src --out-dir "$T/deen" --src de --tgt en
	touch "$T/done"
fi

# teacher SRC TGT VOCAB_DIR: the SRC->TGT Transformer-SSRU teacher trained
# on 3's corpus with VOCAB_DIR's SentencePiece models, then fine-tuned on
# Multi30k's pairs alone; the fine-tuned checkpoint with the best beam-4 BLEU
# on val (bench/val_bleu.sh) packed in q8 as OUT_DIR/teacher-SRCTGT-ft/model.nmt.
teacher() {
	dir=$OUT/teacher-$1$2
	lang_args="--src-lang $1 --tgt-lang $2 --src-val $CORPUS/val.$1.gz --tgt-val $CORPUS/val.$2.gz"
	lang_args="$lang_args --spm-src $3/$1.model --spm-tgt $3/$2.model --device $TEACHER_DEVICE"
	if [ ! -f "$dir/done" ]; then
		logged -a "$dir.log" "$PY" train/train.py --out "$dir" --family ssru --emb 256 --heads 4 --ffn 1024 --enc-layers 3 \
			--dec-layers 2 --tied tgt --dropout 0.1 --lr 1e-3 --warmup 800 --max-tokens "$TEACHER_TOKENS" \
			--valid-every 500 --patience 8 --max-minutes "$TEACHER_MIN" --threads 1 --keep-checkpoints \
			--src-train "$T/$1$2/train.$1" --tgt-train "$T/$1$2/train.$2" $lang_args
		touch "$dir/done"
	fi
	if [ ! -f "$dir-ft/model.nmt" ]; then
		[ -f "$dir-ft/done" ] || logged -a "$dir-ft.log" "$PY" train/train.py --out "$dir-ft" --family ssru --init "$dir/best.npz" \
			--lr 1e-4 --warmup 30 --valid-every 100 --patience 20 --dropout 0.1 --max-tokens 3000 \
			--max-minutes "$TEACHER_FT_MIN" --threads 1 --keep-checkpoints \
			--src-train "$CORPUS/train.$1.gz" --tgt-train "$CORPUS/train.$2.gz" $lang_args
		touch "$dir-ft/done"
		logged "$dir-ft/val_q8.txt" env SRC="$1" TGT="$2" SPM_SRC="$3/$1.model" SPM_TGT="$3/$2.model" \
			VMAP="$3/vmap.txt" CORPUS="$CORPUS" bench/val_bleu.sh -q q8 "$dir-ft"/step-*.npz
		best=$(awk 'NR > 1 && (c == "" || $4 > top) { top = $4; c = $1 } END { print c }' "$dir-ft/val_q8.txt")
		./model-pack --marian "$best" --vocab "$3/$1.model" --vocab "$3/$2.model" --quant q8 \
			-o "$dir-ft/model.nmt" >/dev/null
	fi
}

step "4. teachers (Transformer encoder, SSRU decoder)"
teacher en de "$OUT/gru"
teacher de en "$OUT/deen"

# kd_alpha SRC TGT: the length normalization the SRC->TGT teacher translates
# for its student with: of KD_ALPHAS, the one with the best beam-4 BLEU on
# val. A teacher that learnt from the short task-2 captions can write short
# output at the engine's default, and its student copies the length.
kd_alpha() {
	dir=$OUT/teacher-$1$2-ft
	if [ ! -f "$dir/alpha.txt" ]; then
		zcat -f "$CORPUS/val.$1.gz" >"$dir/val.src"
		zcat -f "$CORPUS/val.$2.gz" >"$dir/val.ref"
		for a in $KD_ALPHAS; do
			./nmt -m "$dir/model.nmt" -b 4 --alpha "$a" <"$dir/val.src" >"$dir/val.hyp"
			echo "$a $($PY train/bleu.py "$dir/val.hyp" "$dir/val.ref" | awk '{print $2}')"
		done >"$dir/alpha.table"
		sort -k2,2nr "$dir/alpha.table" | head -n 1 | cut -d' ' -f1 >"$dir/alpha.txt"
	fi
	cat "$dir/alpha.txt"
}

# distilled SRC TGT KD_DIR OUT_DIR: the student's corpus in OUT_DIR: Multi30k's
# SRC translated by the SRC->TGT teacher into KD_DIR (train/distill.sh), and
# forward-translated by it the task-2 SRC captions and 3's back-translated
# SRC sentences (its corpus after the original pairs), filtered and joined,
# the distilled pairs twice.
distilled() {
	teacher_nmt=$OUT/teacher-$1$2-ft/model.nmt
	mkdir -p "$4"
	if [ ! -f "$4/corpus.done" ]; then
		alpha=$(kd_alpha "$1" "$2")
		ALPHA=$alpha SRC=$1 TGT=$2 train/distill.sh "$teacher_nmt" "$CORPUS" "$3"
		originals=$(zcat -f "$CORPUS/train.$1.gz" | wc -l)
		tail -n +$((ORIG_COPIES * originals + 1)) "$T/$1$2/train.$1" >"$4/bt.$1"
		./nmt -m "$teacher_nmt" -b 4 --alpha "$alpha" --json <"$T/mono.$1" >"$4/ft.json"
		./nmt -m "$teacher_nmt" -b 4 --alpha "$alpha" --json <"$4/bt.$1" >"$4/bt.json"
		logged "$4/synth.log" "$PY" train/synth.py --orig-src "$CORPUS/train.$1.gz" --orig-tgt "$3/train.$2" --orig-copies "$ORIG_COPIES" \
			--synth "$T/mono.$1" "$4/ft.json" tgt --synth "$4/bt.$1" "$4/bt.json" tgt \
			--out-dir "$4" --src "$1" --tgt "$2"
		touch "$4/corpus.done"
	fi
}

step "5. distilled and synthetic pairs"
S=$OUT/synth
distilled en de "$OUT/kd" "$S"

step "6. student"
SPM_CORPUS=$CORPUS SRC=en TGT=de TGT_SPM_TYPE=bpe \
	TRAIN_ARGS="$STUDENT_DIMS --dropout 0.2 --max-minutes $STUDENT_MIN --max-epochs 60 --threads 1 --keep-checkpoints" \
	train/recipe.sh "$OUT/kd" "$OUT/student"

# train.py's options for the student's vocabularies on the synthetic corpus
data_args() {
	echo "--src-lang en --tgt-lang de --src-train $S/train.en --tgt-train $S/train.de" \
		"--src-val $CORPUS/val.en.gz --tgt-val $CORPUS/val.de.gz" \
		"--spm-src $OUT/student/en.model --spm-tgt $OUT/student/de.model"
}

if [ ! -f "$OUT/ft/done" ]; then
	# shellcheck disable=SC2046
	logged -a "$OUT/ft.log" "$PY" train/train.py --out "$OUT/ft" --init "$OUT/student/best.safetensors" --lr 5e-4 --warmup 50 \
		--valid-every 500 --patience 6 --dropout 0.2 --max-minutes "$SYNTH_MIN" --threads 1 \
		--keep-checkpoints $(data_args)
	touch "$OUT/ft/done"
fi

step "7. q4 fine-tuning, the model's own loops pushed down"
N=$OUT/negatives

# mine WEIGHTS DIR: the negatives pool translated greedily, guard off, by
# WEIGHTS packed in f32 and in q4; the looping translations in DIR/neg.tsv.
mine() {
	mkdir -p "$2"
	for q in f32 q4; do
		./model-pack --quant $q --vmap "$OUT/student/vmap.txt" -o "$2/$q.nmt" "$1" \
			"$OUT/student/en.model" "$OUT/student/de.model" >/dev/null
		./nmt -m "$2/$q.nmt" -b 1 --no-repeat-guard --no-case-fold <"$N/pool.en" >"$2/$q.out"
	done
	$PY train/negatives.py mine --src "$N/pool.en" --hyp "$2/q4.out" --hyp "$2/f32.out" \
		--spm-tgt "$OUT/student/de.model" --skip-kind upper --out "$2/neg.tsv"
}

# qat OUT INIT NEGATIVES WEIGHT LR MINUTES SEED: train.py through the q4
# quantizer from INIT, with NEGATIVES' unlikelihood at WEIGHT.
qat() {
	if [ ! -f "$1/done" ]; then
		# shellcheck disable=SC2046
		logged -a "$1.log" "$PY" train/train.py --out "$1" --init "$2" --quant q4 --lr "$5" --warmup 1 --valid-every 250 \
			--patience 6 --dropout 0.2 --max-minutes "$6" --threads 1 --seed "$7" \
			--negatives "$3" --negatives-weight "$4" --keep-checkpoints $(data_args)
		touch "$1/done"
	fi
}

# the highest-numbered checkpoint a run exported (where it stopped)
last_checkpoint() {
	last=0
	for f in "$1"/step-*.safetensors; do
		n=${f##*/step-}
		n=${n%.safetensors}
		[ "$n" -le "$last" ] || last=$n
	done
	echo "$1/step-$last.safetensors"
}

if [ ! -f "$N/done" ]; then
	mkdir -p "$N"
	for l in en fr cs; do zcat "$CORPUS/train.$l.gz" >"$N/train.$l"; done
	$PY train/negatives.py pool --src "$N/train.en" --src "$T/mono.en" --foreign "$N/train.fr" \
		--foreign "$N/train.cs" --out "$N/pool.en"
	mine "$OUT/ft/best.safetensors" "$N"
	touch "$N/done"
fi
qat "$OUT/ft-q4" "$OUT/ft/best.safetensors" "$N/neg.tsv" "$NEG_WEIGHT" 2e-4 "$QAT_MIN" 1
# Each further round starts where the last one stopped and learns from the
# loops it still makes: mining them again finds new ones as old ones go.
QATS=$OUT/ft-q4
prev=$OUT/ft-q4
round=2
while [ "$round" -le "$NEG_ROUNDS" ]; do
	from=$(last_checkpoint "$prev")
	[ -f "$N/r$round/done" ] || { mine "$from" "$N/r$round" && touch "$N/r$round/done"; }
	prev=$OUT/ft-q4-r$round
	qat "$prev" "$from" "$N/r$round/neg.tsv" 1.0 1e-4 "$NEG_ROUND_MIN" "$round"
	QATS="$QATS $prev"
	round=$((round + 1))
done

step "8-9. the q4 checkpoint chosen on val (BLEU and loops, through the C engine), packed, evaluated"
F=$OUT/final
finish "$QATS" "$F" "$OUT/ft/best.safetensors" "$OUT/student" en de
if [ "${INSTALL:-0}" = 1 ]; then
	train/install_default.sh "$F" "$(q4_weights "$F")"
else
	echo "to install it: train/install_default.sh $F $(q4_weights "$F") && make caption-models"
fi

step "10. de->en distilled from its teacher, with back-translations"
D=$OUT/deen-kd
distilled de en "$D/kd" "$D"
# train.py's options for the de->en model, trained on SRC_FILE TGT_FILE
deen_args() {
	echo "--src-lang de --tgt-lang en --src-train $1 --tgt-train $2" \
		"--src-val $CORPUS/val.de.gz --tgt-val $CORPUS/val.en.gz" \
		"--spm-src $OUT/deen/de.model --spm-tgt $OUT/deen/en.model"
}
if [ ! -f "$D/ft/done" ]; then
	# shellcheck disable=SC2046
	logged -a "$D/ft.log" "$PY" train/train.py --out "$D/ft" --init "$OUT/deen/best.safetensors" --lr 5e-4 --warmup 50 \
		--valid-every 500 --patience 6 --dropout 0.2 --max-minutes "$DEEN_KD_MIN" --threads 1 \
		--keep-checkpoints $(deen_args "$D/train.de" "$D/train.en")
	touch "$D/ft/done"
fi
if [ ! -f "$D/ft-q4/done" ]; then
	# shellcheck disable=SC2046
	logged -a "$D/ft-q4.log" "$PY" train/train.py --out "$D/ft-q4" --init "$D/ft/best.safetensors" --quant q4 --lr 2e-4 \
		--warmup 1 --valid-every 250 --patience 6 --dropout 0.2 --max-minutes "$DEEN_QAT_MIN" --threads 1 \
		--keep-checkpoints $(deen_args "$D/train.de" "$D/train.en")
	touch "$D/ft-q4/done"
fi
G=$OUT/deen-final
finish "$D/ft-q4" "$G" "$D/ft/best.safetensors" "$OUT/deen" de en
if [ "${INSTALL:-0}" = 1 ]; then
	cp "$G/model.safetensors" models/captions/deen.safetensors
	if [ -f "$G/q4.safetensors" ]; then cp "$G/q4.safetensors" models/captions/deen-q4.safetensors; else rm -f models/captions/deen-q4.safetensors; fi
	cp "$G/de.model" models/captions/deen.de.model
	cp "$G/en.model" models/captions/deen.en.model
	cp "$G/vmap.txt" models/captions/deen.vmap
	echo "installed the de->en caption model; run make caption-models"
else
	echo "to install the de->en model: INSTALL=1 train/default.sh $OUT (every step is done; it copies)"
fi
