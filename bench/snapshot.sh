#!/bin/sh
# bench/snapshot.sh DIR: everything the engine and the packer put out, for a
# before/after comparison of a change that must not alter behaviour
# (`diff -r BEFORE AFTER` must be empty): the packed files of the default
# model (f32, q8, q4, and q4n+i8 from its own weights), of de->en (q8, and its shipped 4-bit format) and of the shared
# Marian fixture (q8 and q4, with its shortlist), and, for each, test_2016
# and test_2017 greedy and beam 4 as plain text, n-best, alignments, JSON
# and HTML. Needs ../shared (the data and the fixture); takes minutes.
set -eu
. "$(dirname "$0")/common.sh"
. train/common.sh   # shipped_four_bit
OUT=${1:?usage: bench/snapshot.sh DIR}
mkdir -p "$OUT"
MF=$SHARED/fixtures/marian
M30=$MULTI30K

pack() { # pack NAME ARGS...: DIR/NAME.nmt
	name=$1; shift
	./model-pack "$@" -o "$OUT/$name.nmt" >/dev/null
}
for q in f32 q8 q4; do
	pack ende.$q --quant $q --vmap models/ende.vmap models/ende.safetensors models/ende.en.model models/ende.de.model
done
# the shipped default's own format, where its weights are committed
[ ! -f models/ende-q4n+i8.safetensors ] || pack ende.q4n+i8 --quant q4n+i8 --vmap models/ende.vmap \
	models/ende-q4n+i8.safetensors models/ende.en.model models/ende.de.model
# de->en in its shipped 4-bit format, from its own 4-bit weights where they are committed
deen_four=$(shipped_four_bit deen)
if [ -n "$deen_four" ]; then deen_weights=models/deen-$deen_four.safetensors; else deen_four=q4 deen_weights=models/deen.safetensors; fi
pack deen.$deen_four --quant $deen_four --vmap models/deen.vmap $deen_weights models/deen.de.model models/deen.en.model
pack deen.q8 --quant q8 --precompute-top 500 --vmap models/deen.vmap models/deen.safetensors models/deen.de.model models/deen.en.model
for q in q8 q4; do
	pack marian.$q --marian "$MF/model.npz" --vocab "$MF/vocab.ende.spm" --shortlist "$MF/lex.50.50.s2t.bin" --quant $q
done

translate() { # translate MODEL SRC TAG
	for set in 2016_flickr 2017_flickr; do
		zcat "$M30/test_$set.$2.gz" > "$OUT/in.txt"
		for b in 1 4; do
			base=$OUT/$3.$set.b$b
			./nmt -m "$OUT/$1.nmt" -b $b -q < "$OUT/in.txt" > "$base.txt"
			./nmt -m "$OUT/$1.nmt" -b $b -q --nbest $b < "$OUT/in.txt" > "$base.nbest"
			./nmt -m "$OUT/$1.nmt" -b $b -q --alignment < "$OUT/in.txt" > "$base.align"
			./nmt -m "$OUT/$1.nmt" -b $b -q --json --nbest $b < "$OUT/in.txt" > "$base.json"
			sed 's/^\(.*\)$/<p>\1<\/p>/' "$OUT/in.txt" | ./nmt -m "$OUT/$1.nmt" -b $b -q --html > "$base.html"
		done
	done
	rm -f "$OUT/in.txt"
}
for m in ende.f32 ende.q8 ende.q4; do translate $m en $m; done
[ ! -f "$OUT/ende.q4n+i8.nmt" ] || translate ende.q4n+i8 en ende.q4n+i8
translate deen.$deen_four de deen.$deen_four
translate deen.q8 de deen.q8
for m in marian.q8 marian.q4; do translate $m en $m; done
./nmt -q -b 4 < "$SHARED/fixtures/marian/t16.en" > "$OUT/embedded.t16.b4.txt"
echo "snapshot in $OUT: $(ls "$OUT" | wc -l) files"
