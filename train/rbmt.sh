#!/bin/sh
# Monolingual text translated by Apertium, a rule-based translator, for
# back-translation where Debian packages an Apertium pair with English:
#
#   train/rbmt.sh MODE MONO.tsv.gz OUT.tsv.gz
#
# MODE is an Apertium mode (`apertium -l`): eng-spa puts English into
# Spanish, spa-eng Spanish into English. MONO.tsv.gz holds train/mono.sh's
# lines, `sentence<TAB>source:licence`, in MODE's source language. Writes
# OUT.tsv.gz as train/corpus.py --extra reads it: `English<TAB>other
# language<TAB>rbmt-source:licence;PACKAGE:GPL-2`, PACKAGE being the
# Apertium pair that made the other side (its data is GPL-2).
#
# Apertium runs on chunks of CHUNK lines (default 5000) with -u (an unknown
# word is copied, not marked); a chunk that comes back with another number
# of lines is left out whole (its lines cannot be paired), and said so on
# stderr. Runs of white space are collapsed; empty translations are left
# out. Needs `apertium` with MODE installed (apt-get install apertium-eng-spa).
set -eu
MODE=${1:?usage: train/rbmt.sh MODE MONO.tsv.gz OUT.tsv.gz}
IN=${2:?usage: train/rbmt.sh MODE MONO.tsv.gz OUT.tsv.gz}
OUT=${3:?usage: train/rbmt.sh MODE MONO.tsv.gz OUT.tsv.gz}
CHUNK=${CHUNK:-5000}
case $MODE in
eng-*) english=source package=apertium-$MODE ;;
*-eng) english=target package=apertium-eng-${MODE%-eng} ;;
*) echo "rbmt.sh: $MODE is not a mode from or into English (eng-XXX or XXX-eng)" >&2; exit 2 ;;
esac
if ! command -v apertium >/dev/null || ! apertium -l | grep -qx "[[:space:]]*$MODE"; then
	echo "rbmt.sh: no Apertium mode $MODE (apt-get install $package)" >&2
	exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zcat "$IN" | awk -F '\t' -v src="$work/src" -v tag="$work/tag" '{ print $1 >src; print $2 >tag }'
[ -s "$work/src" ] || { echo "rbmt.sh: no text in $IN" >&2; exit 1; }
split -l "$CHUNK" -d -a 6 "$work/src" "$work/chunk."
: >"$work/hyp"
for chunk in "$work"/chunk.*; do
	# a chunk left out keeps its lines, empty, so that the rest stay paired
	if apertium -u "$MODE" <"$chunk" >"$chunk.out" && [ "$(wc -l <"$chunk.out")" = "$(wc -l <"$chunk")" ]; then
		cat "$chunk.out"
	else
		echo "rbmt.sh: $MODE lost the lines of chunk ${chunk##*.} ($CHUNK lines): left out" >&2
		sed 's/.*//' "$chunk"
	fi >>"$work/hyp"
	rm -f "$chunk" "$chunk.out"
done
sed -e 's/[[:space:]][[:space:]]*/ /g' -e 's/^ //' -e 's/ $//' "$work/hyp" >"$work/hyp.clean"
# columns: English first (train/corpus.py --extra)
if [ "$english" = source ]; then set -- src hyp.clean; else set -- hyp.clean src; fi
paste "$work/$1" "$work/$2" "$work/tag" |
	awk -F '\t' -v OFS='\t' -v p="$package" '$1 != "" && $2 != "" { print $1, $2, "rbmt-" $3 ";" p ":GPL-2" }' |
	gzip >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
