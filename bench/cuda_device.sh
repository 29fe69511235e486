#!/bin/bash
# The whole check of the CUDA path on a lent GPU machine, in one run of
# about 3 minutes at most: build, `make test-cuda CUDA=1` (the default
# NVCC_ARCH, sm_75, runs on a newer GPU through its PTX, which the driver
# compiles), test_cuda again on a build for sm_90 itself, then bench/cuda.sh
# (the GPU against ./nmt on one thread and on every core, greedy and beam 4)
# with the sm_90 build on .devdata/flores-dev.en and .devdata/test_2016.en,
# and with the sm_75 build on test_2016.
#
#   OUT=DIR bash bench/cuda_device.sh
#
# Every step runs even when one before it failed; each prints its exit
# status and seconds. Logs in $OUT: device.log (all of it), build.log,
# test-cuda.log, sm90.log (test_cuda on the sm_90 build), cuda-bench.log,
# nvidia-smi.txt.
#
# What it needs besides the working tree (ignored paths, carried):
# .devdata/flores-dev.en and .devdata/test_2016.en (the inputs); where the
# machine has no musl-gcc, ./nmt and ./model-pack built by `make` elsewhere
# (else ./nmt is built statically against glibc, MUSL_CC=gcc); where it has
# no cmocka, .devdata/cmocka/{include,lib} (cmocka.h and libcmocka.so[.0]).
# To try those paths on a machine that has both: MUSL_CC=none
# CARRIED_CMOCKA=1.
set -u
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/cudaout}
mkdir -p "$OUT"
rm -f "$OUT/build.log"
J=$(nproc)
START=$(date +%s%N)

# step NAME CMD...: runs CMD, then prints its exit status and seconds
step() {
	local name=$1 s rc
	shift
	echo "=== $name"
	s=$(date +%s%N)
	"$@"
	rc=$?
	echo "=== $name: exit $rc, $(secs_since "$s") s (total $(secs_since "$START") s)"
	return $rc
}

tools() {
	echo "$(uname -m), $J cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
	gcc --version | head -n 1
	if [ -x /usr/local/cuda/bin/nvcc ]; then
		CUDA_HOME=/usr/local/cuda
	elif command -v nvcc >/dev/null; then
		CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
	else
		CUDA_HOME=/usr/local/cuda
		echo "no nvcc found"
	fi
	export CUDA_HOME
	echo "CUDA_HOME=$CUDA_HOME: $("$CUDA_HOME/bin/nvcc" --version 2>&1 | tail -n 2 | head -n 1)"
	if [ ! -e "$CUDA_HOME/lib64/libcudart_static.a" ]; then
		lib=$(find "$CUDA_HOME" /usr -name libcudart_static.a 2>/dev/null | head -n 1)
		echo "no $CUDA_HOME/lib64/libcudart_static.a; using ${lib:-none found}"
		[ -n "$lib" ] && LIBRARY_PATH="$(dirname "$lib")${LIBRARY_PATH:+:$LIBRARY_PATH}" && export LIBRARY_PATH
	fi
	nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
	nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.sm --format=csv,noheader
	# cmocka: the machine's, or the carried copy
	if [ "${CARRIED_CMOCKA:-0}" != 1 ] && printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' |
		gcc -E -x c - >/dev/null 2>&1; then
		echo "cmocka: the machine's"
	elif [ -f .devdata/cmocka/include/cmocka.h ]; then
		d=$PWD/.devdata/cmocka
		export CPATH="$d/include${CPATH:+:$CPATH}" LIBRARY_PATH="$d/lib${LIBRARY_PATH:+:$LIBRARY_PATH}"
		export LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		echo "cmocka: the carried copy, $d"
	else
		echo "cmocka: none (test_cuda will not build)"
	fi
	# the static ./nmt and ./model-pack: musl here, else the carried ones,
	# else glibc's static libc
	chmod +x nmt model-pack 2>/dev/null
	if command -v "${MUSL_CC:-musl-gcc}" >/dev/null; then
		MK=()
		echo "musl-gcc: here, ./nmt and ./model-pack built here"
	elif [ -x nmt ] && [ -x model-pack ] && ./nmt --version >/dev/null 2>&1; then
		MK=(-o nmt -o model-pack)
		echo "musl-gcc: none; the carried ./nmt ($(./nmt --version 2>&1 | head -n 1)) and ./model-pack, not rebuilt"
	else
		MK=(MUSL_CC=gcc B=build/gstatic)
		echo "musl-gcc: none and no carried ./nmt: ./nmt and ./model-pack built with gcc -static (glibc)"
	fi
}

build_all() {
	make -j"$J" "${MK[@]}" CUDA=1 CUDA_HOME="$CUDA_HOME" nmt model-pack nmt-cuda build/cuda/tests/test_cuda \
		build/tiny.nmt build/tiny.q8.nmt build/tiny.q4.nmt build/tiny.q4n.nmt build/tiny_vmap_small.nmt build/marian_all.nmt \
		>>"$OUT/build.log" 2>&1
}

build() {
	build_all
	local rc=$?
	if [ $rc != 0 ]; then
		# a newer gcc's new warnings stop -Werror: once more without it
		# (the C files; nvcc's -Xcompiler -Werror stays)
		echo "build failed; again with CFLAGS=-Wno-error"
		export CFLAGS=-Wno-error
		build_all
		rc=$?
	fi
	grep -E -i '(error|warning)[: ]' "$OUT/build.log" | grep -v -e '-Werror' | cut -c 1-300 | head -n 20
	[ $rc = 0 ] || tail -n 5 "$OUT/build.log" | cut -c 1-300
	grep -c 'nvcc' "$OUT/build.log" | sed 's/^/nvcc commands: /'
	ls -l nmt model-pack nmt-cuda build/cuda/tests/test_cuda 2>&1
	return $rc
}

test_cuda() {
	timeout 120 make "${MK[@]}" CUDA=1 CUDA_HOME="$CUDA_HOME" test-cuda 2>&1 | tee "$OUT/test-cuda.log"
	return "${PIPESTATUS[0]}"
}

# nmt-cuda and test_cuda again, compiled for sm_90 itself; the default
# build's nmt-cuda kept as build/nmt-cuda-sm75
sm90_body() {
	cp nmt-cuda build/nmt-cuda-sm75
	rm -f build/cuda/engine/cuda.o nmt-cuda build/cuda/tests/test_cuda
	if ! make -j"$J" "${MK[@]}" CUDA=1 CUDA_HOME="$CUDA_HOME" NVCC_ARCH=sm_90 nmt-cuda build/cuda/tests/test_cuda \
		>>"$OUT/build.log" 2>&1; then
		echo "the sm_90 build failed (build.log); nmt-cuda is the default build's"
		cp build/nmt-cuda-sm75 nmt-cuda
		return 1
	fi
	grep 'nvcc.*sm_90' "$OUT/build.log" | tail -n 1
	timeout 60 build/cuda/tests/test_cuda
}

sm90() {
	sm90_body 2>&1 | tee "$OUT/sm90.log"
	return "${PIPESTATUS[0]}"
}

# ./nmt-cuda (sm_90 where that build worked) on both inputs, then the
# default build's (sm_75, the driver compiling its PTX) on test_2016
bench() {
	{
		echo "--- nmt-cuda: $(grep -q 'nvcc.*sm_90' "$OUT/build.log" && echo sm_90 || echo sm_75) build"
		REPEAT=4 RUN_TIMEOUT=20 GPU_BUDGET=45 GPU_BATCH="64 256" sh bench/cuda.sh \
			.devdata/flores-dev.en .devdata/test_2016.en
		echo "--- build/nmt-cuda-sm75: the default build (-arch=sm_75: PTX compiled by the driver)"
		REPEAT=4 RUN_TIMEOUT=20 GPU_BUDGET=20 GPU_BATCH=256 NMT_CUDA=build/nmt-cuda-sm75 sh bench/cuda.sh \
			.devdata/test_2016.en
	} 2>&1 | tee "$OUT/cuda-bench.log"
	return "${PIPESTATUS[0]}"
}

main() {
	step tools tools
	step build build
	step test-cuda test_cuda
	step sm90 sm90
	step bench bench
	echo "=== done: $(secs_since "$START") s"
}

main 2>&1 | tee "$OUT/device.log"
