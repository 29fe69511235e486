#!/bin/sh
# The CUDA path on a real GPU against the CPU engine: ./nmt-cuda --device
# cuda next to ./nmt on one thread and on every core, greedy and beam 4, on
# each INPUT file (default: .devdata/flores-dev.en and .devdata/test_2016.en
# where they exist, else Multi30k's test_2016_flickr.en from CORPUS). Prints
# output words per second (wc -w of the translations over the run's
# wall-clock time, as bench/models.sh counts them; a GPU run's time includes
# creating the CUDA context, shown alone on the "startup" line) and how many
# output lines differ from the CPU engine's on one thread.
#
#   sh bench/cuda.sh [-m MODEL.nmt] [INPUT...]
#
# MODEL defaults to the embedded one. Environment: LINES (the first LINES
# lines of each input, default all), REPEAT (the input that many times over,
# default 1), RUNS (best of, default 1), THREADS (default: online cores),
# BEAMS (default "1 4"), GPU_BATCH (more GPU rows with --batch N, one per N:
# "64 256"), RUN_TIMEOUT (seconds per run, default 120; after a GPU run
# times out the remaining GPU runs are skipped), GPU_BUDGET (seconds: once
# the GPU runs together took that long, the remaining ones are skipped;
# default 0, no limit), NMT (default
# ./nmt), NMT_CUDA (default ./nmt-cuda), CORPUS (../shared/data/multi30k).
# Run from the repository root after `make && make CUDA=1 nmt-cuda`.
#
# Without a GPU the CUDA rows are skipped with nmt-cuda's one-line reason and
# the CPU rows still print, exit 0; any other failed run (printed with its
# first error lines) makes the exit status 1.
set -u
. "$(dirname "$0")/common.sh"
NMT=${NMT:-./nmt}
NMT_CUDA=${NMT_CUDA:-./nmt-cuda}
CORPUS=${CORPUS:-$MULTI30K}
THREADS=${THREADS:-$(nproc)}
BEAMS=${BEAMS:-1 4}
REPEAT=${REPEAT:-1}
RUNS=${RUNS:-1}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
GPU_BATCH=${GPU_BATCH:-}
GPU_BUDGET=${GPU_BUDGET:-0}
GPU_MS=0
MODEL_OPT=""
MODEL_NAME=embedded
if [ "${1:-}" = -m ]; then
	[ $# -ge 2 ] || { echo "usage: bench/cuda.sh [-m MODEL.nmt] [INPUT...]" >&2; exit 2; }
	MODEL_OPT="-m $2"
	MODEL_NAME=$2
	shift 2
fi
make_tmp
if [ $# -eq 0 ]; then
	for f in .devdata/flores-dev.en .devdata/test_2016.en; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	if [ $# -eq 0 ]; then
		zcat "$CORPUS/test_2016_flickr.en.gz" >"$TMP/test_2016_flickr.en" || exit 2
		set -- "$TMP/test_2016_flickr.en"
	fi
fi
status=0

# timed OUT CMD...: runs CMD <"$TMP/in" >OUT (under RUN_TIMEOUT), RUNS times;
# sets MS to the best wall-clock milliseconds, or returns 1 (its first error
# lines in "$TMP/err")
timed() {
	_out=$1
	shift
	MS=
	TIMED_OUT=0
	_r=0
	while [ $_r -lt "$RUNS" ]; do
		_s=$(date +%s%N)
		timeout "$RUN_TIMEOUT" "$@" <"$TMP/in" >"$_out" 2>"$TMP/err"
		_rc=$?
		if [ $_rc -ne 0 ]; then
			[ $_rc -eq 124 ] && TIMED_OUT=1 && echo "timed out after $RUN_TIMEOUT s" >>"$TMP/err"
			[ -s "$TMP/err" ] || echo "exit status $_rc" >"$TMP/err"
			return 1
		fi
		_ms=$((($(date +%s%N) - _s) / 1000000))
		MS=$(least "$MS" "$_ms")
		_r=$((_r + 1))
	done
	return 0
}

# differ A B: how many lines of B differ from A's at the same line number (or
# are missing or extra)
differ() {
	awk 'NR == FNR { a[FNR] = $0; n = FNR; next } { m = FNR; if (!(FNR in a) || a[FNR] != $0) d++ }
		END { if (m < n) d += n - m; print d + 0 }' "$1" "$2"
}

# row INPUT ENGINE SEARCH THREADS BATCH OUT [REF]
row() {
	_w=$(wc -w <"$6")
	_d=-
	[ -n "${7:-}" ] && _d="$(differ "$7" "$6") of $(wc -l <"$7")"
	awk -v i="$1" -v e="$2" -v s="$3" -v t="$4" -v b="$5" -v w="$_w" -v ms="$MS" -v d="$_d" \
		'BEGIN { printf "%-14s %-5s %-7s %7s %7s %8.2f %8d %10.0f   %s\n", i, e, s, t, b, ms / 1000, w, w * 1000 / (ms > 0 ? ms : 1), d }'
}

fail() {
	echo "$1: FAILED: $(head -n 3 "$TMP/err" | tr '\n' ' ')"
	status=1
}

# The GPU once, on one line, twice: the first run may JIT-compile the PTX
# (the build's -arch is older than the GPU) into the driver's cache.
GPU=1
echo 'A dog runs along the beach.' >"$TMP/in"
for k in cold warm; do
	[ $GPU = 1 ] || break
	if timed "$TMP/one" $NMT_CUDA $MODEL_OPT --device cuda; then
		echo "cuda startup ($k, one line): $(awk -v ms="$MS" 'BEGIN { printf "%.2f", ms / 1000 }') s"
	else
		GPU=0
		if grep -q '^nmt: no CUDA device' "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
			echo "cuda: skipped, $(cat "$TMP/err")"
		else
			fail "cuda startup"
		fi
	fi
done

echo "model: $MODEL_NAME; CPU: $NMT, $THREADS threads of $(nproc) cores; GPU: $NMT_CUDA --device cuda; best of $RUNS"
printf '%-14s %-5s %-7s %7s %7s %8s %8s %10s   %s\n' input dev search threads batch seconds words "words/s" "lines differing from cpu -t 1"
for f in "$@"; do
	name=$(basename "$f")
	if [ -n "${LINES:-}" ]; then head -n "$LINES" "$f" >"$TMP/one_copy"; else cat "$f" >"$TMP/one_copy"; fi
	repeat_file "$TMP/one_copy" "$REPEAT" "$TMP/in"
	echo "== $name: $(wc -l <"$TMP/in") lines, $(wc -w <"$TMP/in") words"
	for b in $BEAMS; do
		search=$([ "$b" = 1 ] && echo greedy || echo "beam$b")
		ref=
		if timed "$TMP/cpu1" $NMT $MODEL_OPT -b "$b" -t 1; then
			row "$name" cpu "$search" 1 default "$TMP/cpu1"
			ref=$TMP/cpu1
		else
			fail "$name cpu $search -t 1"
		fi
		if [ "$THREADS" != 1 ]; then
			if timed "$TMP/cpuN" $NMT $MODEL_OPT -b "$b" -t "$THREADS"; then
				row "$name" cpu "$search" "$THREADS" default "$TMP/cpuN" $ref
			else
				fail "$name cpu $search -t $THREADS"
			fi
		fi
		[ $GPU = 1 ] || continue
		for batch in default $GPU_BATCH; do
			if [ "$GPU_BUDGET" != 0 ] && [ $GPU_MS -ge $((GPU_BUDGET * 1000)) ]; then
				echo "cuda: the remaining GPU runs skipped (GPU_BUDGET=$GPU_BUDGET s spent)"
				GPU=0
				break
			fi
			opt=$([ "$batch" = default ] || echo "--batch $batch")
			if timed "$TMP/gpu" $NMT_CUDA $MODEL_OPT -b "$b" --device cuda $opt; then
				GPU_MS=$((GPU_MS + MS * RUNS))
				row "$name" cuda "$search" - "$batch" "$TMP/gpu" $ref
				# the first differing lines, for a look
				if [ -n "$ref" ] && [ "$(differ "$ref" "$TMP/gpu")" != 0 ]; then
					awk 'NR == FNR { a[FNR] = $0; next } a[FNR] != $0 && c < 3 { c++; print "    line " FNR ": cpu: " a[FNR]; print "    line " FNR ": gpu: " $0 }' "$ref" "$TMP/gpu"
				fi
			else
				fail "$name cuda $search batch $batch"
				# a GPU run that timed out: the rest would too
				[ $TIMED_OUT = 1 ] && GPU=0 && echo "cuda: the remaining GPU runs skipped" && break
			fi
		done
	done
done
exit $status
