#!/bin/sh
# Do x86-64 and aarch64 translate alike? The same packed model files, the
# native ./nmt against the aarch64 build run under qemu-aarch64-static, on
# Multi30k test_2016_flickr + test_2017_flickr (the first LINES of their
# 2000 lines; qemu runs the f32 model about 150 times slower than the
# machine), greedy and beam 4, for every weight format. Prints, per format
# and beam, how many lines differ.
#
#   make models all && cp nmt build/nmt-x86_64 \
#     && make ARCH=aarch64 && cp nmt build/nmt-aarch64 && make \
#     && LINES=500 sh bench/cross_arch.sh build/nmt-x86_64 build/nmt-aarch64
set -eu
. "$(dirname "$0")/common.sh"
X86=$1
A64=$2
DATA=${DATA:-$MULTI30K}
make_tmp
zcat "$DATA/test_2016_flickr.en.gz" "$DATA/test_2017_flickr.en.gz" | head -n "${LINES:-2000}" >"$TMP/src"
for q in f32 q8 q4; do
	for b in 1 4; do
		"$X86" -m "build/models/ende.$q.nmt" -b "$b" <"$TMP/src" >"$TMP/x86"
		qemu-aarch64-static "$A64" -m "build/models/ende.$q.nmt" -b "$b" <"$TMP/src" >"$TMP/a64"
		n=$(wc -l <"$TMP/src")
		d=$(diff "$TMP/x86" "$TMP/a64" | grep -c '^<' || true)
		echo "$q beam $b: $d of $n lines differ"
	done
done
