#!/bin/sh
# Compare vocab/spm* (through tests/spm_tool) with SentencePiece's own spm_encode/spm_decode.
#
#   tests/spm_parity.sh [--tool PATH] MODEL.model FILE...   FILEs may be gzipped
#   tests/spm_parity.sh                                     the default set, see below
#
# Encode: spm_tool's ids must equal `spm_encode --output_format=id` on every line.
# Decode: spm_tool --decode must equal spm_decode on those same ids.
# Default set (run from the repo root): every tests/fixtures/spm/*.model, plus a BPE model
# with the default nmt_nfkc normalizer trained on the spot (not committed, to keep the
# repo small), on the fixture texts and, when $DATA (default MULTI30K, train/paths.sh's:
# ../shared/data/multi30k) exists, on Multi30k test_2016_flickr, test_2017_flickr, val and
# train (en and de).
# Prints one line per model and file and a total `spm parity: N lines, M mismatches`;
# exits 1 on any mismatch. Needs spm_encode/spm_decode (Debian package sentencepiece).
set -eu
TOOL=
if [ "${1:-}" = --tool ]; then TOOL=$2; shift 2; fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -z "$TOOL" ]; then
    TOOL=$TMP/spm_tool
    ${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -o "$TOOL" tests/spm_tool.c vocab/spm*.c common/utf8.c
fi
command -v spm_encode >/dev/null || { echo "spm parity: spm_encode not found" >&2; exit 2; }

TOTAL_LINES=0
TOTAL_BAD=0

# Line numbers (1-based) where two files differ; both have the same number of lines.
count_diff() { diff -a --unchanged-line-format= --old-line-format='x
' --new-line-format= "$1" "$2" | wc -l; }

check() { # model, text file
    case $2 in *.gz) zcat "$2" > "$TMP/in.txt" ;; *) cp "$2" "$TMP/in.txt" ;; esac
    spm_encode --model="$1" --output_format=id < "$TMP/in.txt" > "$TMP/ref.ids"
    "$TOOL" "$1" < "$TMP/in.txt" > "$TMP/our.ids"
    spm_decode --model="$1" --input_format=id < "$TMP/ref.ids" > "$TMP/ref.txt"
    "$TOOL" --decode "$1" < "$TMP/ref.ids" > "$TMP/our.txt"
    lines=$(wc -l < "$TMP/ref.ids")
    if [ "$(wc -l < "$TMP/our.ids")" != "$lines" ] || [ "$(wc -l < "$TMP/our.txt")" != "$lines" ]; then
        enc=$lines; dec=$lines
    else
        enc=$(count_diff "$TMP/ref.ids" "$TMP/our.ids")
        dec=$(count_diff "$TMP/ref.txt" "$TMP/our.txt")
    fi
    echo "  $(basename "$1") $(basename "$2"): $lines lines, $enc encode / $dec decode mismatches"
    TOTAL_LINES=$((TOTAL_LINES + lines))
    TOTAL_BAD=$((TOTAL_BAD + enc + dec))
}

if [ $# -ge 2 ]; then
    model=$1; shift
    for f in "$@"; do check "$model" "$f"; done
else
    FIX=tests/fixtures/spm
    . train/paths.sh
    DATA=${DATA:-$MULTI30K}
    MODELS=$(ls $FIX/*.model)
    FILES="$FIX/torture.txt $FIX/sentences.txt"
    if [ -d "$DATA" ]; then
        for s in test_2016_flickr test_2017_flickr val train; do
            FILES="$FILES $DATA/$s.en.gz $DATA/$s.de.gz"
        done
        if command -v spm_train >/dev/null; then
            zcat "$DATA/train.en.gz" "$DATA/train.de.gz" > "$TMP/train.txt"
            spm_train --input="$TMP/train.txt" --model_prefix="$TMP/bpe_nfkc" --model_type=bpe \
                --vocab_size=1000 --num_threads=2 --random_seed=1 --minloglevel=2
            MODELS="$MODELS $TMP/bpe_nfkc.model"
        fi
    fi
    for model in $MODELS; do
        for f in $FILES; do check "$model" "$f"; done
    done
fi
echo "spm parity: $TOTAL_LINES lines, $TOTAL_BAD mismatches"
[ "$TOTAL_BAD" -eq 0 ]
