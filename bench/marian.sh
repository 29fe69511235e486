#!/bin/sh
# An imported Marian model against marian-decoder's own outputs and figures
# (../shared/fixtures/marian: a student of Firefox's tiny shape trained on
# Multi30k, with marian-decoder's translations, n-best lists and timings;
# its README says how each file was made).
#
#   bench/marian.sh [FIXTURE_DIR]
#
# Prints, for the model imported from model.npz with model-pack --marian
# (f32), on test_2016 and test_2017 with Marian's settings (--alpha 0, no
# repetition guard, no span protection, no sentence splitting): the lines
# whose greedy and beam-4 translations equal marian-decoder's, the 4-best
# lists equal in order, and the largest n-best score difference; then
# lowercased BLEU of marian-decoder's output and of nmt's for the float
# model, the intgemm8 .bin, and the q8, q4 and i8 packings; then nmt's output
# words per second on one thread for test_2016 twice (2,000 lines),
# greedy and beam 4 at the default batch and with --batch 1 (one sentence
# at a time), without and with the lexical shortlist (Marian's own
# figures for the same input, with it, are in the fixture's README, and
# with MARIAN=path/to/marian-decoder they are measured here too); then
# each packing's file size, load time and peak RSS. SPEED="sl.i8 sl.q8"
# (default: every packing, f32 q8 q4 i8 and each with the shortlist, sl.*)
# times those alone. Run from the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
F=${1:-$SHARED/fixtures/marian}
make_tmp
O="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"

./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" -o "$TMP/f32.nmt"
./model-pack --marian "$F/model.intgemm8.bin" --vocab "$F/vocab.ende.spm" -o "$TMP/gemm8.nmt"
for q in q8 q4 i8; do
	./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" --quant $q -o "$TMP/$q.nmt"
done

echo "== nmt (f32 import of model.npz) against marian-decoder, one thread"
for t in t16 t17; do
	./nmt -m "$TMP/f32.nmt" -t 1 -b 1 $O <"$F/$t.en" >"$TMP/greedy.$t"
	./nmt -m "$TMP/f32.nmt" -t 1 -b 4 --nbest 4 $O <"$F/$t.en" >"$TMP/nbest.$t"
	n=$(wc -l <"$F/$t.en")
	same_greedy=$(paste -d '\n' "$TMP/greedy.$t" "$F/marian.greedy.$t" | awk 'NR % 2 { a = $0; next } a == $0 { s++ } END { print s + 0 }')
	$PYTHON - "$TMP/nbest.$t" "$F/marian.beam4.nbest.$t" "$t" "$n" "$same_greedy" <<'EOF'
import sys
def load(path):
    d = {}
    for line in open(path, encoding='utf-8'):
        f = line.rstrip('\n').split(' ||| ')
        d.setdefault(int(f[0]), []).append((f[1], float(f[-1])))
    return d
ours, theirs = load(sys.argv[1]), load(sys.argv[2])
t, n, greedy = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
best = sum(ours.get(i, [('', 0)])[0][0] == theirs[i][0][0] for i in theirs)
lists = sum([h for h, _ in ours.get(i, [])] == [h for h, _ in theirs[i]] for i in theirs)
diff = max(abs(s - dict(theirs[i])[h]) for i in theirs for h, s in ours.get(i, []) if h in dict(theirs[i]))
print(f'{t}: greedy same {greedy}/{n}; beam 4 best same {best}/{n}, 4-best lists same {lists}/{n}, '
      f'largest score difference {diff:.1e}')
EOF
done

./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" --shortlist "$F/lex.50.50.s2t.bin" -o "$TMP/sl.nmt"
echo "== with the lexical shortlist (lex.50.50.s2t.bin), beam 4, against marian-decoder's"
for t in t16 t17; do
	./nmt -m "$TMP/sl.nmt" -t 1 -b 4 $O <"$F/$t.en" >"$TMP/sl.$t"
	same=$(paste -d '\n' "$TMP/sl.$t" "$F/marian.beam4.shortlist.$t" | awk 'NR % 2 { a = $0; next } a == $0 { s++ } END { print s + 0 }')
	echo "$t: identical $same/$(wc -l <"$F/$t.en")"
done

echo "== lowercased BLEU (train/bleu.py), beam 4"
printf '%-28s %10s %10s\n' output test_2016 test_2017
row() { printf '%-28s %10s %10s\n' "$1" "$2" "$3"; }
bleu() { $PYTHON train/bleu.py "$1" "$2" --lowercase | awk '{print $2}'; }
row "marian-decoder, float" "$(bleu "$F/marian.beam4.t16" "$F/t16.de")" "$(bleu "$F/marian.beam4.t17" "$F/t17.de")"
row "marian-decoder, intgemm8" "$(bleu "$F/marian.intgemm8.beam4.t16" "$F/t16.de")" \
	"$(bleu "$F/marian.intgemm8.beam4.t17" "$F/t17.de")"
row "marian-decoder, shortlist" "$(bleu "$F/marian.beam4.shortlist.t16" "$F/t16.de")" \
	"$(bleu "$F/marian.beam4.shortlist.t17" "$F/t17.de")"
row "nmt, f32 + shortlist" "$(bleu "$TMP/sl.t16" "$F/t16.de")" "$(bleu "$TMP/sl.t17" "$F/t17.de")"
for m in f32 gemm8 q8 q4 i8; do
	for t in t16 t17; do
		./nmt -m "$TMP/$m.nmt" -t 1 -b 4 $O <"$F/$t.en" >"$TMP/$m.$t"
	done
	name=$m
	[ $m = gemm8 ] && name="intgemm8 .bin imported"
	row "nmt, $name" "$(bleu "$TMP/$m.t16" "$F/t16.de")" "$(bleu "$TMP/$m.t17" "$F/t17.de")"
done

echo "== speed: test_2016 x2 (2,000 lines), one thread, output words per second (load included), best of 3"
cat "$F/t16.en" "$F/t16.en" >"$TMP/x2"
printf '%-6s %-7s %-8s %10s\n' model search batch words/s   # sl.*: with the shortlist
for q in q8 q4 i8; do
	./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" --shortlist "$F/lex.50.50.s2t.bin" --quant $q \
		-o "$TMP/sl.$q.nmt"
done
mv "$TMP/sl.nmt" "$TMP/sl.f32.nmt"
for m in ${SPEED:-f32 q8 q4 i8 sl.f32 sl.q8 sl.q4 sl.i8}; do
	for beam in 1 4; do
		for batch in default 1; do
			set --
			[ $batch = 1 ] && set -- --batch 1
			best=$(best_ms 3 "$TMP/x2" "$TMP/out" ./nmt -m "$TMP/$m.nmt" -t 1 -b $beam "$@" $O)
			words=$(wc -w <"$TMP/out")
			printf '%-6s %-7s %-8s %10.0f\n' $m "$([ $beam = 1 ] && echo greedy || echo beam4)" $batch \
				"$(echo "$words $best" | awk '{print $1 * 1000 / $2}')"
		done
	done
done

# marian-decoder on the same input and machine, with the fixture README's
# settings (its shortlist, no scores, sentences sorted into batches of
# --mini-batch): only with MARIAN=path/to/marian-decoder (built outside the
# repository, ../shared/docs/marian-peer.md), one run each.
if [ -n "${MARIAN:-}" ] && [ -x "$MARIAN" ]; then
	printf '%-26s %-7s %10s\n' "marian-decoder" search words/s
	for m in model.bin model.intgemm8.bin; do
		for beam in 1 4; do
			for mb in 1 32; do
				ms=$(run_ms "$TMP/x2" "$TMP/out" "$MARIAN" -m "$F/$m" -v "$F/vocab.ende.spm" "$F/vocab.ende.spm" \
					--cpu-threads 1 --beam-size $beam --max-length-factor 3 --normalize 0 --word-penalty 0 \
					--shortlist "$F/lex.50.50.s2t.bin" false --skip-cost --mini-batch $mb --maxi-batch 100 \
					--maxi-batch-sort src --quiet)
				printf '%-26s %-7s %10.0f\n' "$m --mini-batch $mb" "$([ $beam = 1 ] && echo greedy || echo beam4)" \
					"$(echo "$(wc -w <"$TMP/out") $ms" | awk '{print $1 * 1000 / $2}')"
			done
		done
	done
fi

# Load time: the whole process on an empty input (the file mapped, checked
# and bound; nothing translated), best of 5. Peak RSS: GNU time's maximum
# resident set of the beam-4 run over the 2,000 lines. marian-decoder's peak
# RSS for the same run is in the fixture's README; with MARIAN=path/to/
# marian-decoder its load time and RSS are measured here the same way.
echo "== load time (empty input, best of 5) and peak RSS (beam 4, 2,000 lines), one thread"
printf '%-22s %10s %12s %12s\n' model "file MB" "load ms" "peak RSS MB"
measure() { # measure NAME FILE COMMAND...: prints one row
	name=$1 file=$2
	shift 2
	best=
	for r in 1 2 3 4 5; do
		s=$(date +%s%N)
		"$@" </dev/null >/dev/null 2>&1
		us=$((($(date +%s%N) - s) / 1000))
		{ [ -z "$best" ] || [ "$us" -lt "$best" ]; } && best=$us
	done
	/usr/bin/time -f %M -o "$TMP/rss" "$@" <"$TMP/x2" >/dev/null 2>&1
	echo "$name $(wc -c <"$file") $best $(cat "$TMP/rss")" |
		awk '{ printf "%-22s %10.1f %12.1f %12.1f\n", $1 " " $2, $3 / 1e6, $4 / 1e3, $5 / 1024 }'
}
for m in f32 q8 q4 i8 sl.f32 sl.q8 sl.q4 sl.i8; do
	measure "nmt $m" "$TMP/$m.nmt" ./nmt -m "$TMP/$m.nmt" -t 1 -b 4 $O
done
if [ -n "${MARIAN:-}" ] && [ -x "$MARIAN" ]; then
	for m in model.bin model.intgemm8.bin; do
		measure "marian $m" "$F/$m" "$MARIAN" -m "$F/$m" -v "$F/vocab.ende.spm" "$F/vocab.ende.spm" --cpu-threads 1 \
			--beam-size 4 --max-length-factor 3 --normalize 0 --word-penalty 0 \
			--shortlist "$F/lex.50.50.s2t.bin" false --skip-cost --quiet
	done
else
	echo "(marian-decoder absent: its peak RSS, 68-106 MB, is in $F/README.md)"
fi
