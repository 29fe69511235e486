#!/bin/sh
# nmt as WebAssembly beside Firefox's own engine, bergamot-translator 0.4.9 as
# WebAssembly, on the same imported Firefox-tiny-shaped model
# (../shared/fixtures/marian: model.bin, lex.50.50.s2t.bin, vocab.ende.spm),
# all under one thread.
#
#   bench/wasm.sh [FIXTURE_DIR]
#
# Packs the fixture's model.npz with its shortlist as i8 and q4 for nmt
# (model-pack --marian), then on test_2016 (t16.en, REPEAT times over,
# default 1; 1,000 lines) times, best of RUNS (default 3), the whole process
# (load included) of:
#   ./nmt -t 1 -b 1                      (native, this machine's kernels)
#   node wasm/nmt.mjs -t 1 -b 1 -m X.nmt  (build/wasm/nmt.wasm, wasm-simd128)
#   node bench/bergamot.cjs ...          (bergamot-translator under Node, one
#                                         worker, gemm-precision int8shiftAll,
#                                         beam 1, its shortlist)
# and prints output words per second, lowercased BLEU (train/bleu.py
# --lowercase) of each output against t16.de, the time to the first
# translated line (a one-line input, the whole process, load included, best
# of RUNS), and the ratios: wasm/native words/s, wasm/bergamot words/s, and
# bergamot's first-line time over nmt.wasm's. nmt runs with Marian's settings
# as bench/marian.sh does (--alpha 0 --no-repeat-guard --no-protect
# --no-case-fold --split none).
#
# bergamot-translator is not part of the repository: it is looked for in
# BERGAMOT_DIR (default ../runs/bergamot)/node_modules/@browsermt/
# bergamot-translator, and installed there with npm when absent (`npm install
# @browsermt/bergamot-translator@0.4.9`; the script says so); without npm or
# the registry its rows are skipped, saying why. Its worker/package.json is
# set to {"type": "commonjs"}, which the package needs under Node.
# Run from the repository root after `make` and `make wasm`. Figures on a
# shared machine are noisy: run it twice before trusting a ratio.
set -eu
. "$(dirname "$0")/common.sh"
F=${1:-$SHARED/fixtures/marian}
RUNS=${RUNS:-3}
REPEAT=${REPEAT:-1}
BERGAMOT_DIR=${BERGAMOT_DIR:-../runs/bergamot}
BERGAMOT_VERSION=0.4.9
O="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"
make_tmp

for f in ./nmt ./model-pack build/wasm/nmt.wasm; do
	[ -e $f ] || { echo "$0: $f missing (make && make wasm)"; exit 1; }
done
command -v node >/dev/null || { echo "$0: node not installed"; exit 1; }

# ---- bergamot-translator ----
PKG=$BERGAMOT_DIR/node_modules/@browsermt/bergamot-translator
bergamot=yes
if [ ! -f "$PKG/worker/translator-worker.js" ]; then
	if command -v npm >/dev/null; then
		echo "== installing @browsermt/bergamot-translator@$BERGAMOT_VERSION into $BERGAMOT_DIR (npm)"
		mkdir -p "$BERGAMOT_DIR"
		npm install --prefix "$BERGAMOT_DIR" --no-audit --no-fund --no-save \
			"@browsermt/bergamot-translator@$BERGAMOT_VERSION" >"$TMP/npm.log" 2>&1 ||
			{ echo "(npm install failed: $(tail -1 "$TMP/npm.log"))"; bergamot=; }
	else
		echo "(npm not installed)"
		bergamot=
	fi
fi
if [ -n "$bergamot" ] && [ -f "$PKG/worker/translator-worker.js" ]; then
	have=$(node -p "require('$(cd "$PKG" && pwd)/package.json').version")
	[ "$have" = $BERGAMOT_VERSION ] || echo "(note: $PKG is version $have, not $BERGAMOT_VERSION)"
	if ! grep -qs commonjs "$PKG/worker/package.json"; then
		echo "== writing {\"type\": \"commonjs\"} to $PKG/worker/package.json (the worker is CommonJS)"
		echo '{"type": "commonjs"}' >"$PKG/worker/package.json"
	fi
	PKG=$(cd "$PKG" && pwd)
else
	bergamot=
	echo "(bergamot-translator unavailable: its rows and ratios are skipped)"
fi
BERG="node bench/bergamot.cjs $PKG $F/model.bin $F/lex.50.50.s2t.bin $F/vocab.ende.spm"

# ---- models and input ----
for q in i8 q4; do
	./model-pack --marian "$F/model.npz" --vocab "$F/vocab.ende.spm" --shortlist "$F/lex.50.50.s2t.bin" \
		--quant $q -o "$TMP/sl.$q.nmt" >/dev/null
done
repeat_file "$F/t16.en" "$REPEAT" "$TMP/src"
repeat_file "$F/t16.de" "$REPEAT" "$TMP/ref"
head -n 1 "$F/t16.en" >"$TMP/one"

# ---- measures ----
# measure NAME CMD...: best of RUNS over $TMP/src into $TMP/NAME.out and of
# RUNS over the one-line input; appends "NAME words ms first_ms bleu" to
# $TMP/rows.
measure() {
	name=$1
	shift
	ms=$(best_ms "$RUNS" "$TMP/src" "$TMP/$name.out" "$@" 2>"$TMP/$name.err") ||
		{ echo "$name FAILED (not timed): $(tail -1 "$TMP/$name.err" | sed 's/^.*Segmentation/Segmentation/')," \
			"after $(wc -l <"$TMP/$name.out") of $(wc -l <"$TMP/src") lines"; return 0; }
	first=$(best_ms "$RUNS" "$TMP/one" "$TMP/$name.one" "$@" 2>>"$TMP/$name.err")
	words=$(wc -w <"$TMP/$name.out")
	bleu=$($PYTHON train/bleu.py "$TMP/$name.out" "$TMP/ref" --lowercase | awk '{print $2}')
	echo "$name $words $ms $first $bleu" >>"$TMP/rows"
}
: >"$TMP/rows"
for q in i8 q4; do
	measure native.$q ./nmt -m "$TMP/sl.$q.nmt" -t 1 -b 1 $O
	measure wasm.$q node wasm/nmt.mjs -m "$TMP/sl.$q.nmt" -t 1 -b 1 $O
done
[ -z "$bergamot" ] || measure bergamot $BERG

echo "== test_2016 x$REPEAT ($(wc -l <"$TMP/src") lines), one thread, greedy, shortlist lex.50.50; whole process" \
	"(load included), best of $RUNS; $(node --version), $(date +%F)"
awk -v runs="$RUNS" '
	{ n[NR] = $1; wps[$1] = $2 * 1000 / $3; first[$1] = $4; s[$1] = $3; b[$1] = $5 }
	END {
		printf "%-10s %10s %10s %16s %8s\n", "engine", "seconds", "words/s", "first line ms", "BLEU"
		for (i = 1; i <= NR; i++)
			printf "%-10s %10.2f %10.0f %16d %8s\n", n[i], s[n[i]] / 1000, wps[n[i]], first[n[i]], b[n[i]]
		print "== ratios (targets: wasm/native >= 0.50, wasm/bergamot >= 10, bergamot/wasm first line >= 10)"
		for (q = 0; q < 2; q++) {
			m = q ? "q4" : "i8"
			if (("native." m) in wps && ("wasm." m) in wps)
				printf "%s: wasm/native words/s %.2f\n", m, wps["wasm." m] / wps["native." m]
			if ("bergamot" in wps && ("wasm." m) in wps)
				printf "%s: wasm/bergamot words/s %.2f; first line: bergamot/wasm %.2f\n", m,
					wps["wasm." m] / wps["bergamot"], first["bergamot"] / first["wasm." m]
		}
	}' "$TMP/rows"
if [ -n "$bergamot" ]; then
	echo "bergamot's own measure (ms from Node's start; first full-input run, then first one-line run):"
	grep '^bergamot: load_ms' "$TMP/bergamot.err" | sed -n "1p;$((RUNS + 1))p"
	grep -v '^bergamot: load_ms' "$TMP/bergamot.err" | head -3 || true
fi
