#!/bin/sh
# Language identification (nmt detect, the embedded profile): accuracy on
# FLORES dev per language among en/de/fr/es/cs, on the short everyday
# sentences (tests/fixtures/langid/short.tsv, <= 6 words, held out by
# train/langid.py), and throughput on one core (nmt detect is one thread):
# FLORES dev's five files REPEAT times over (default 20), MB of input per
# second of wall clock and of CPU time, the fastest of three runs.
#
#   bench/langid.sh [REPEAT]
set -eu
. "$(dirname "$0")/common.sh"
cd "$(dirname "$0")/.."
REPEAT=${1:-20}
LANGS=en,de,fr,es,cs
make -s -j1 nmt >/dev/null
make_tmp
NMT="env HOME=$TMP NMT_MODELS= ./nmt"
printf '%-8s %6s %8s\n' set lines right
for l in en de fr es cs; do
	$NMT detect --langs $LANGS <"$FLORES/flores-dev.$l" >"$TMP/out.$l"
	awk -v l=$l '$1 == l { r++ } END { printf "%-8s %6d %7.2f%%\n", "flores." l, NR, 100 * r / NR }' "$TMP/out.$l"
done
cut -f 2 tests/fixtures/langid/short.tsv | $NMT detect --langs $LANGS >"$TMP/short.out"
cut -f 1 tests/fixtures/langid/short.tsv | paste - "$TMP/short.out" |
	awk '$1 == $2 { r++ } END { printf "%-8s %6d %7.2f%%\n", "short", NR, 100 * r / NR }'
cat "$FLORES"/flores-dev.en "$FLORES"/flores-dev.de "$FLORES"/flores-dev.fr "$FLORES"/flores-dev.es \
	"$FLORES"/flores-dev.cs >"$TMP/one"
repeat_file "$TMP/one" "$REPEAT" "$TMP/big"
bytes=$(wc -c <"$TMP/big")
# wall clock and CPU time (user + system) of the fastest of three runs:
# on a busy machine the CPU time is the one core's own speed
best=
for _ in 1 2 3; do
	/usr/bin/time -f '%e %U %S' -o "$TMP/time" $NMT detect --langs $LANGS <"$TMP/big" >/dev/null
	t=$(awk '{ printf "%d %d", $1 * 1000, ($2 + $3) * 1000 }' "$TMP/time")
	if [ -z "$best" ] || [ "${t#* }" -lt "${best#* }" ]; then best=$t; fi
done
awk -v b="$bytes" -v t="$best" 'BEGIN { split(t, x, " "); if (x[2] < 1) x[2] = 1;
	printf "speed    %.1f MB: %d ms wall, %.1f MB/s; %d ms CPU, %.1f MB/s (one core)\n", b / 1e6, x[1], b / 1e6 / (x[1] / 1000), x[2], b / 1e6 / (x[2] / 1000) }'
printf 'profile  %d bytes (models/langid.bin)\n' "$(wc -c <models/langid.bin)"
