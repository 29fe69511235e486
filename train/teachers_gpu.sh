#!/bin/sh
# The teachers of a pair on one lent GPU, in one call of at most 10 minutes:
#
#   train/teachers_gpu.sh DATA OUT [TRAIN_MIN] [DEADLINE_S]
#
# DATA holds pairs.enXX.xz (train/corpus.py's pairs, `English<TAB>other<TAB>
# copies`), spm.enXX.model (the pair's joint SentencePiece model),
# flores-dev.{en,XX}, and mono.{en,XX}.xz (train/mono.sh's sentences; either
# may be missing): train/devdata.sh gathers them into .devdata/. The
# directions of DIRECTIONS (default both: "enXX XXen"; one alone has the
# whole GPU) train side by side for TRAIN_MIN minutes (default 5), each
# from its carried weights DATA/teacher.SRCTGT.000... (train/carry.py)
# where they are there; then each translates, until
# DEADLINE_S seconds after the start (default 540):
#   en->XX  FLORES dev (scored), the corpus's English (the en->XX student's
#           forward translation), the monolingual English (back-translation
#           for XX->en)
#   XX->en  FLORES dev (scored), the monolingual XX (back-translation for
#           en->XX), the corpus's XX (the XX->en student's forward translation)
# each in chunks, the corpus's most-weighted sentences first, so that what a
# teacher has no time for is the least of it.
#
# OUT gets what may come back from a lent machine (at most 8 files of 16
# MiB, 64 MiB in all): the translations, one line per line translated
# (expand_pairs.py writes the fwd.* lists in that order from the same
# pairs), as xz files; one log archive; and with KEEP=1 each trained
# direction's weights as OUT/teacher.SRCTGT.NNN (int8, about 35 MB a
# teacher: one direction's fits beside its translations), for the next lent
# GPU to train on from.
#
# A GRU student trains the same way (TEACHER_ARGS="--family gru ..." and
# TRANSLATE=0: translate.py reads the SSRU family only); KEEP=1 then brings
# back its best.safetensors as it is, in parts.
set -u
DATA=$1
OUT=$2
TRAIN_MIN=${3:-5}
DEADLINE=${4:-540}
# python3 as the lent machine's PATH finds it (its torch has CUDA), not
# train/common.sh's Debian Python of the CPU machines.
PY=${PYTHON:-python3}
DEVICE=${DEVICE:-cuda}
START=$(date +%s)
W=${WORK:-/tmp/teachers}
mkdir -p "$W" "$OUT"
pair=$(ls "$DATA"/pairs.en*.xz | head -1)
XX=$(basename "$pair" .xz | sed 's/^pairs\.en//')
SPM=$DATA/spm.en$XX.model
elapsed() { echo $(($(date +%s) - START)); }
log() { echo "[$(elapsed) s] $*"; }

log "data: $pair"
$PY train/expand_pairs.py "$pair" "$W/data" en "$XX" || exit 1
for l in en "$XX"; do
	if [ -f "$DATA/mono.$l.xz" ]; then xz -dc "$DATA/mono.$l.xz" >"$W/data/mono.$l"; else : >"$W/data/mono.$l"; fi
done

teacher() { # teacher SRC TGT: train one direction, from its carried weights where DATA has them
	mkdir -p "$W/$1$2"
	init=
	if [ -f "$DATA/teacher.$1$2.000" ]; then
		init="--init $($PY train/carry.py unpack "$DATA/teacher.$1$2" "$W/init.$1$2")" || init=
	fi
	$PY train/train.py --family ssru --device "$DEVICE" --out "$W/$1$2" --src-lang "$1" --tgt-lang "$2" \
		--src-train "$W/data/train.$1" --tgt-train "$W/data/train.$2" \
		--src-val "$DATA/flores-dev.$1" --tgt-val "$DATA/flores-dev.$2" \
		--spm-src "$SPM" --spm-tgt "$SPM" $TEACHER_ARGS $init --max-minutes "$TRAIN_MIN" \
		>"$W/$1$2/train.log" 2>&1
}
trains() { # trains SRC TGT: true when that direction is one of DIRECTIONS
	case " $DIRECTIONS " in *" $1$2 "*) return 0 ;; esac
	return 1
}
TEACHER_ARGS=${TEACHER_ARGS:-"--pre-norm --bf16 --decay-by-time --emb 512 --heads 8 --ffn 2048 --enc-layers 6
	--dec-layers 2 --tied all --max-tokens 25000 --lr 8e-4 --warmup 300 --dropout 0.1 --valid-every 500
	--patience 20 --threads 4"}
DIRECTIONS=${DIRECTIONS:-"en$XX ${XX}en"}
log "teachers $DIRECTIONS: $TEACHER_ARGS, $TRAIN_MIN minutes"
if trains en "$XX"; then teacher en "$XX" & fi
if trains "$XX" en; then teacher "$XX" en & fi
wait
log "trained"

translate() { # translate DIR INPUT NAME: DIR's best checkpoint on INPUT, in chunks until the deadline
	if [ "$(elapsed)" -lt "$DEADLINE" ]; then
		$PY train/translate.py --checkpoint "$1" --spm-src "$SPM" --spm-tgt "$SPM" --device "$DEVICE" \
			--threads 4 --input "$2" --output "$W/$3.txt" --chunk "${CHUNK:-40000}" \
			--deadline $((START + DEADLINE)) >>"$W/$3.log" 2>&1 || log "$3: translate failed"
	fi
	log "$3: $(cat "$W/$3.txt" 2>/dev/null | wc -l) lines"
}
score() { # score DIR SRC TGT
	$PY train/translate.py --checkpoint "$W/$2$3" --spm-src "$SPM" --spm-tgt "$SPM" --device "$DEVICE" \
		--input "$DATA/flores-dev.$2" --output "$W/flores.$2$3" --reference "$DATA/flores-dev.$3" \
		>"$W/flores.$2$3.log" 2>&1
	log "FLORES dev $2->$3: $(tail -1 "$W/flores.$2$3.log")"
}
if [ "${TRANSLATE:-1}" = 1 ]; then
	if trains en "$XX"; then
		(score "$W/en$XX" en "$XX"; translate "$W/en$XX" "$W/data/fwd.en" "fwd.en$XX"
		 translate "$W/en$XX" "$W/data/mono.en" "bt.en$XX") &
	fi
	if trains "$XX" en; then
		(score "$W/${XX}en" "$XX" en; translate "$W/${XX}en" "$W/data/mono.$XX" "bt.${XX}en"
		 translate "$W/${XX}en" "$W/data/fwd.$XX" "fwd.${XX}en") &
	fi
	wait
fi
if [ "${KEEP:-0}" = 1 ]; then   # the weights, for the next lent GPU to train on from
	for d in $DIRECTIONS; do
		best=$W/$d/best.pt
		[ -f "$best" ] || best=$W/$d/best.safetensors
		$PY train/carry.py pack "$best" "$OUT/teacher.$d" || log "$d: no weights to keep"
	done
fi

for f in "$W"/fwd.*.txt "$W"/bt.*.txt; do
	[ -s "$f" ] && xz -6 -T0 -c "$f" >"$OUT/$(basename "$f" .txt).xz"
done
(cd "$W" && tar -czf "$OUT/teacher-logs.tgz" $(ls ./*.log ./*/train.log ./flores.* 2>/dev/null))
log "done"
