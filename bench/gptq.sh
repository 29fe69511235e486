#!/bin/sh
# q4 by GPTQ (train/gptq.py) against q4 rounded to nearest (model-pack's own
# rounding), on the imported Marian fixture (../shared/fixtures/marian).
#
#   bench/gptq.sh [FIXTURE_DIR]
#
# Calibrates on CAL_LINES (default 1000) pairs spread over Multi30k's
# training text (the fixture model's training data; never a test set), writes
# the rounded model (OUT, default a temporary file; GPTQ_ARGS: more of
# train/gptq.py's options, e.g. --moments FILE), packs it and the
# fixture's model.npz with model-pack --marian --quant q4, and prints
# lowercased BLEU (train/bleu.py --lowercase) of f32, q4 nearest and q4 GPTQ,
# greedy and beam 4, on Multi30k val (where a choice would be made) and on
# test_2016 and test_2017 (the fixture's t16, t17), with Marian's settings
# as bench/marian.sh runs them, and each q4 column's difference from f32.
# EXTRA="NAME=FILE.npz:FORMAT ..." scores more models the same way (a
# fine-tuned checkpoint of train.py --family ssru, say).
# Run from the repository root after `make`; the calibration takes about 10
# minutes of one core.
set -eu
. "$(dirname "$0")/common.sh"
F=${1:-$SHARED/fixtures/marian}
CAL_LINES=${CAL_LINES:-1000}
GPTQ_ARGS=${GPTQ_ARGS:-}
make_tmp
OUT=${OUT:-$TMP/gptq.npz}
O="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"

zcat "$MULTI30K/train.en.gz" >"$TMP/train.en"
zcat "$MULTI30K/train.de.gz" >"$TMP/train.de"
zcat "$MULTI30K/val.en.gz" >"$TMP/val.en"
zcat "$MULTI30K/val.de.gz" >"$TMP/val.de"
cp "$F/t16.en" "$F/t16.de" "$F/t17.en" "$F/t17.de" "$TMP/"

start=$(date +%s%N)
$PYTHON train/gptq.py "$F/model.npz" "$TMP/train.en" "$TMP/train.de" --vocab "$F/vocab.ende.spm" -o "$OUT" \
	--lines "$CAL_LINES" $GPTQ_ARGS 2>"$TMP/gptq.log" || { cat "$TMP/gptq.log"; exit 1; }
echo "== train/gptq.py, $CAL_LINES calibration pairs: $(secs_since "$start") s; $(tail -n 1 "$TMP/gptq.log")"

./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" -o "$TMP/f32.nmt" >/dev/null
./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" --quant q4 -o "$TMP/q4.nmt" >/dev/null
./model-pack --marian "$OUT" --vocab "$F/vocab.ende.spm" --quant q4 -o "$TMP/gptq.nmt" >/dev/null
names="f32 q4 gptq"
for e in ${EXTRA:-}; do
	name=${e%%=*} file=${e#*=}
	./model-pack --marian "${file%:*}" --vocab "$F/vocab.ende.spm" --quant "${file##*:}" -o "$TMP/$name.nmt" >/dev/null
	names="$names $name"
done

echo "== lowercased BLEU, greedy / beam 4 (difference from f32 in brackets)"
printf '%-14s %22s %22s %22s\n' model val test_2016 test_2017
for m in $names; do
	line=""
	for t in val t16 t17; do
		for b in 1 4; do
			./nmt -m "$TMP/$m.nmt" -t 1 -b $b $O <"$TMP/$t.en" >"$TMP/$m.$t.$b"
			s=$($PYTHON train/bleu.py "$TMP/$m.$t.$b" "$TMP/$t.de" --lowercase | awk '{print $2}')
			echo "$s" >"$TMP/bleu.$m.$t.$b"
		done
		g=$(cat "$TMP/bleu.$m.$t.1") f=$(cat "$TMP/bleu.$m.$t.4")
		if [ $m = f32 ]; then
			cell="$g / $f"
		else
			cell=$(awk -v g="$g" -v f="$f" -v g0="$(cat "$TMP/bleu.f32.$t.1")" -v f0="$(cat "$TMP/bleu.f32.$t.4")" \
				'BEGIN { printf "%s / %s (%+.2f)", g, f, f - f0 }')
		fi
		line="$line$(printf ' %22s' "$cell")"
	done
	name=$m
	[ $m = q4 ] && name="q4 nearest"
	[ $m = gptq ] && name="q4 GPTQ"
	printf '%-14s%s\n' "$name" "$line"
done
