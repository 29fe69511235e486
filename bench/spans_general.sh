#!/bin/sh
# Protected spans inside general sentences: FLORES dev with a phrase
# holding a span (time, date, price, number, room, percentage, URL, e-mail
# address, path) put in on both sides, and the same with ordinary words in
# its place (bench/make_spans_general.py). For each model, greedy and beam
# 4: how many spans come out byte for byte with protection on and off, the
# BLEU (13a, cased: train/bleu.py) of the sentences with spans, protection
# on and off, each span scored as one word (make_spans_general.py --mask),
# and the BLEU of the same sentences with ordinary words. With spans well
# carried, "BLEU-on" is as good as "plain".
#
#   SRC=en TGT=de bench/spans_general.sh [MODEL.nmt ...]
#
# MODEL defaults to the embedded model ("-"). FLORES (default
# ../shared/data/open-parallel/dev) is validation data: never a test set.
# Run from the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
[ $# -eq 0 ] && set -- -
make_tmp
$PYTHON bench/make_spans_general.py "$FLORES/flores-dev.$SRC" "$FLORES/flores-dev.$TGT" "$SRC" "$TGT" "$TMP/set"
lines=$(wc -l <"$TMP/set.spans.gold")
$PYTHON bench/make_spans_general.py --mask "$TMP/set.spans.gold" "$TMP/set.spans.$TGT" >"$TMP/ref.masked"
bleu() { $PYTHON train/bleu.py "$1" "$2" | awk '{ print $2 }'; }
masked_bleu() {
	$PYTHON bench/make_spans_general.py --mask "$TMP/set.spans.gold" "$1" >"$1.masked"
	bleu "$1.masked" "$TMP/ref.masked"
}
verbatim() { paste -d '\t' "$TMP/set.spans.gold" "$1" | awk -F '\t' 'index($2, $1) > 0 { k++ } END { print k + 0 }'; }
printf '%-36s %-6s %12s %12s %9s %9s %7s\n' model search verbatim-on verbatim-off BLEU-on BLEU-off plain
for model in "$@"; do
	if [ "$model" = - ]; then set -- ; else set -- -m "$model"; fi
	for beam in 1 4; do
		./nmt "$@" -b "$beam" <"$TMP/set.spans.$SRC" >"$TMP/on"
		./nmt "$@" -b "$beam" --no-protect <"$TMP/set.spans.$SRC" >"$TMP/off"
		./nmt "$@" -b "$beam" <"$TMP/set.plain.$SRC" >"$TMP/plain"
		printf '%-36s %-6s %12s %12s %9s %9s %7s\n' "$(basename "$model")" "beam$beam" \
			"$(verbatim "$TMP/on")/$lines" "$(verbatim "$TMP/off")/$lines" \
			"$(masked_bleu "$TMP/on")" "$(masked_bleu "$TMP/off")" \
			"$(bleu "$TMP/plain" "$TMP/set.plain.$TGT")"
	done
done
