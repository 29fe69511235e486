#!/bin/sh
# Where the SSRU family's time goes, stage by stage: the fixture's Marian
# student (../shared/fixtures/marian, imported with its lexical shortlist
# as bench/marian.sh does) on test_2016, one thread, Marian's settings.
#
#   sh bench/ssru_profile.sh [FIXTURE_DIR]
#
# For each configuration (CONFIGS, "QUANT:BEAM:BATCH" words, BATCH a
# --batch value or "default"): per stage (engine/profile.h: embedding,
# each encoder block, the cross-attention keys and values, each decoder
# block, the output layer, the search, the text around them) its share of
#   - multiply-adds, counted by the engine from the dimensions and the rows
#     each stage ran;
#   - instructions, from valgrind's callgrind on the first CG_LINES lines
#     (300), deterministic whatever else the machine runs; valgrind does not
#     run AVX-512, so these are the AVX2 kernels' instructions;
#   - time, from the timers of `make PROFILE=1` on the whole test set
#     (1,000 lines), with the kernels this CPU picks (NMT_KERNELS as given);
#     wall time, so other jobs on the machine add noise, though not bias:
#     of RUNS runs (3) the fastest;
# with instructions and picoseconds per multiply-add, and the instructions
# by kind of kernel (integer products, activation quantization, ...). Then
# the totals of every configuration (the shipped ./nmt's words/s, best of
# RUNS, beside the profile build's) and the shares of the first two side by
# side. CG_LINES=0 skips callgrind; OUT=DIR keeps every file (tables,
# callgrind's, translations) in DIR. Builds ./nmt and
# ./model-pack with `make PROFILE=1` and then again without, so the shipped
# binaries are in place at the end. Run from the repository root.
set -eu
. "$(dirname "$0")/common.sh"
F=${1:-$SHARED/fixtures/marian}
CONFIGS=${CONFIGS:-"q8:1:default q8:1:1 q8:4:default q8:4:1 q4:1:default q4:1:1 q4:4:default q4:4:1"}
CG_LINES=${CG_LINES:-300}
RUNS=${RUNS:-3}
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	TMP=$OUT
	: >"$TMP/totals"
	rm -f "$TMP"/*.tsv
else
	make_tmp
fi
O="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"

make -j2 PROFILE=1 nmt >/dev/null
cp nmt "$TMP/nmt-profile"
make -j2 nmt model-pack >/dev/null
for q in $(echo "$CONFIGS" | tr ' ' '\n' | cut -d: -f1 | sort -u); do
	./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" --shortlist "$F/lex.50.50.s2t.bin" --quant "$q" \
		-o "$TMP/$q.nmt" >/dev/null
done
head -n "$CG_LINES" "$F/t16.en" >"$TMP/cg.en"

# run NAME QUANT BEAM BATCH: one configuration's files in $TMP and its table
run() {
	name=$1 q=$2 beam=$3
	batch=$([ "$4" = default ] && echo "" || echo "--batch $4")
	# shellcheck disable=SC2086
	set -- -m "$TMP/$q.nmt" -t 1 -b "$beam" $batch $O
	ms= ms_profile= r=0
	while [ $r -lt "$RUNS" ]; do   # the two builds in turn, so that both see the same load
		ms=$(least "$ms" "$(run_ms "$F/t16.en" "$TMP/$name.shipped" ./nmt "$@")")
		s=$(date +%s%N)
		"$TMP/nmt-profile" "$@" <"$F/t16.en" >"$TMP/$name.out" 2>"$TMP/$name.try"
		t=$((($(date +%s%N) - s) / 1000000))
		if [ -z "$ms_profile" ] || [ "$t" -lt "$ms_profile" ]; then
			ms_profile=$t
			mv "$TMP/$name.try" "$TMP/$name.time"
		fi
		cmp -s "$TMP/$name.out" "$TMP/$name.shipped" || echo "!! $name: the profile build translates differently"
		r=$((r + 1))
	done
	words=$(wc -w <"$TMP/$name.shipped")
	echo "$name $ms $ms_profile $words" >>"$TMP/totals"
	echo "== $name: test_2016 (1,000 lines), best of $RUNS: shipped nmt $ms ms, profile build $ms_profile ms," \
		"$words words out"
	if [ "$CG_LINES" -gt 0 ]; then
		valgrind --tool=callgrind --compress-strings=no --compress-pos=no --separate-callers1=ssru_ffn \
			--callgrind-out-file="$TMP/$name.cg" "$TMP/nmt-profile" "$@" <"$TMP/cg.en" >/dev/null 2>"$TMP/$name.cgtable"
		$PYTHON bench/ssru_profile.py stages "$name" "$TMP/$name.time" "$TMP/$name.cgtable" "$TMP/$name.cg"
	else
		cat "$TMP/$name.time"
	fi
}

for c in $CONFIGS; do
	IFS=: read -r q beam batch <<EOF
$c
EOF
	run "$q-$([ "$beam" = 1 ] && echo greedy || echo "beam$beam")-batch-$batch" "$q" "$beam" "$batch"
done

echo "== totals: wall ms of the shipped ./nmt and of the profile build, output words/s of the shipped one"
awk '{ printf "%-26s %8d ms %8d ms %8.0f words/s\n", $1, $2, $3, $4 * 1000 / $2 }' "$TMP/totals"
if [ "$CG_LINES" -gt 0 ]; then
	echo "== the first two configurations side by side"
	set -- $(awk 'NR <= 2 { print $1 }' "$TMP/totals")
	$PYTHON bench/ssru_profile.py compact "$TMP/$1.tsv" "$TMP/$2.tsv"
	echo "== every configuration's totals: the profile build's seconds and G multiply-adds on 1,000 lines,"
	echo "   picoseconds and (callgrind, $CG_LINES lines) instructions per multiply-add"
	for f in "$TMP"/*.tsv; do
		head -n 1 "$f" | awk '{ printf "%-26s %7.2f s %7.2f G MACs %6.1f ps/MAC %5.2f instr/MAC\n", $2, $3, $4 / 1e9,
			$3 * 1e12 / $4, $5 / $6 }'
	done
fi
