#!/bin/sh
# Does the CUDA path translate exactly as the CPU engine on the default
# model? Without a GPU, family/gru/cuda.cu runs on the CPU under
# tests/cuda_emu.h (build/host/nmt-cuda-emu, --device cuda); this compares
# its translations and n-best scores with ./nmt's on the first LINES lines
# of Multi30k test_2016_flickr, greedy and beam 4, for every weight format.
#
#   LINES=100 sh bench/cuda_emu.sh
#
# It first builds ./nmt, the models and the emulated binary from this tree
# (an emulator left from an older tree once showed 244 false differences);
# EMU=PATH compares a given binary instead, unbuilt.
set -eu
. "$(dirname "$0")/common.sh"
DATA=${DATA:-$MULTI30K}
if [ -z "${EMU:-}" ]; then
	EMU=build/host/nmt-cuda-emu
	make -s nmt models "$EMU" >/dev/null
fi
make_tmp
zcat "$DATA/test_2016_flickr.en.gz" | head -n "${LINES:-100}" >"$TMP/src"
n=$(wc -l <"$TMP/src")
for q in f32 q8 q4; do
	for b in 1 4; do
		./nmt -m "build/models/ende.$q.nmt" -b "$b" --nbest "$b" -t 1 <"$TMP/src" >"$TMP/cpu"
		"$EMU" -m "build/models/ende.$q.nmt" -b "$b" --nbest "$b" --device cuda <"$TMP/src" >"$TMP/gpu"
		d=$(diff "$TMP/cpu" "$TMP/gpu" | grep -c '^<' || true)
		echo "$q beam $b: $d of $(wc -l <"$TMP/cpu") output lines (n-best with scores) differ, $n sentences"
	done
done
