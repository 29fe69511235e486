# nmt built for WebAssembly (make wasm: build/wasm/nmt.wasm, run under Node by
# wasm/nmt.mjs): the same translations as ./nmt, byte for byte, with the
# embedded model on Multi30k's test_2016 English sentences, greedy and beam 4
# (MULTI30K, as train/paths.sh or make test has it; the fixture's
# sentences only when it is absent), and with -m on a packed model, by
# absolute and relative path; its errors. Needs build/wasm/nmt.wasm (make
# test builds it when clang's wasm32-wasi target, wasi-libc and wasm-ld are
# installed), node, and ./nmt itself with the default model: skipped, saying
# why, otherwise.
# The WebAssembly SIMD kernels (quant/q_wasm.c) against the scalar ones:
# build/wasm/wasm_kernels.wasm (tests/wasm_kernels.c, make wasm-kernels),
# and the translations with NMT_KERNELS=scalar as with the default kernels.
KERNELS_FILE=${NMT_WASM_KERNELS:-build/wasm/wasm_kernels.wasm}
if [ ! -f "$KERNELS_FILE" ] || ! command -v node >/dev/null 2>&1; then
	echo "note: wasm: kernel test skipped: no $KERNELS_FILE (make wasm-kernels) or no node"
else
	NMT_WASM="$KERNELS_FILE" node wasm/nmt.mjs >"$TMP/kernels.out" 2>&1
	kernels_status=$?
	check "wasm: the wasm-simd128 kernels give the scalar kernels' results (tests/wasm_kernels.c)" \
		[ "$kernels_status" -eq 0 ]
	[ "$kernels_status" -eq 0 ] || head -30 "$TMP/kernels.out"
	check "wasm: the kernel test checked the SIMD kernels" grep -q '^wasm-simd128: [0-9]* checks, 0 mismatches$' "$TMP/kernels.out"
fi
WASM_FILE=${NMT_WASM:-build/wasm/nmt.wasm}
if [ ! -f "$WASM_FILE" ]; then
	echo "note: wasm: skipped: no $WASM_FILE (make wasm builds it; it needs clang, lld and wasi-libc)"
elif ! command -v node >/dev/null 2>&1; then
	echo "note: wasm: skipped: node is not installed (Debian: apt-get install nodejs)"
elif ! has_embedded || [ "$NMT" != ./nmt ]; then
	echo "note: wasm: skipped: needs ./nmt itself with the default model embedded"
else
	WASM="node $PWD/wasm/nmt.mjs"
	export NMT_WASM="$PWD/$WASM_FILE"
	if [ -f "$MULTI30K/test_2016_flickr.en.gz" ]; then
		zcat "$MULTI30K/test_2016_flickr.en.gz" >"$TMP/src"
		set_name=test_2016
	else
		echo "note: wasm: no $MULTI30K/test_2016_flickr.en.gz: the fixture's sentences instead"
		awk -F '\t' '$1 == "sent" && $3 != "x" { print $3 }' "$FIX/expected.txt" >"$TMP/src"
		set_name="the fixture's sentences"
	fi
	for b in 1 4; do
		$NMT -b $b <"$TMP/src" >"$TMP/native.$b"
		start=$(date +%s)
		$WASM -b $b <"$TMP/src" >"$TMP/wasm.$b"
		check "wasm: embedded model, $set_name, beam $b: as ./nmt" \
			sh -c "cmp -s $TMP/native.$b $TMP/wasm.$b && [ \$(wc -l <$TMP/wasm.$b) -eq \$(wc -l <$TMP/src) ]"
		[ -z "${E2E_VERBOSE:-}" ] || echo "note: wasm: $set_name beam $b in $(($(date +%s) - start)) s"
	done
	NMT_KERNELS=scalar $WASM -b 1 <"$TMP/src" >"$TMP/wasm.scalar"
	check "wasm: NMT_KERNELS=scalar translates as the SIMD kernels" cmp -s "$TMP/wasm.1" "$TMP/wasm.scalar"
	check "wasm: NMT_KERNELS=wasm-simd128 is known" sh -c "echo 'A dog.' | NMT_KERNELS=wasm-simd128 $WASM >/dev/null"
	# -m: a packed model's file, by absolute path and relative to the working directory
	M=$(shared tiny.nmt)
	awk -F '\t' '$1 == "sent" && $3 != "x" { print $3 }' "$FIX/expected.txt" >"$TMP/sents"
	$NMT -m "$M" -b 4 --nbest 2 <"$TMP/sents" >"$TMP/tiny.native"
	$WASM -m "$M" -b 4 --nbest 2 <"$TMP/sents" >"$TMP/tiny.wasm"
	check "wasm: -m ABSOLUTE translates as ./nmt" sh -c "cmp -s $TMP/tiny.native $TMP/tiny.wasm && [ -s $TMP/tiny.wasm ]"
	mkdir "$TMP/dir" && cp "$M" "$TMP/dir/model.nmt"
	(cd "$TMP/dir" && $WASM -m model.nmt -b 4 --nbest 2 <"$TMP/sents" >"$TMP/tiny.rel")
	check "wasm: -m RELATIVE translates as ./nmt" cmp -s "$TMP/tiny.native" "$TMP/tiny.rel"
	check "wasm: nmt detect as ./nmt" sh -c "[ \"\$(echo 'Das ist ein Haus.' | $WASM detect)\" = \"\$(echo 'Das ist ein Haus.' | $NMT detect)\" ]"
	# errors: one line and the status, as natively
	expect_error "wasm: nmt serve is not in this build" 2 $WASM serve
	check "wasm: nmt serve says why" grep -qx 'nmt: serve is not available in this build' "$TMP/err"
	expect_error "wasm: unknown option" 2 $WASM --no-such-option
	expect_error "wasm: missing model" 1 $WASM -m "$TMP/none.nmt"
	# nmt-core.wasm (no model inside), which the runner takes when the
	# arguments name a model: in a copy of the runner beside it alone, -m in
	# each spelling translates as ./nmt, and without -m it asks for nmt.wasm
	CORE=build/wasm/nmt-core.wasm
	if [ -f "$CORE" ]; then
		mkdir -p "$TMP/alone/wasm" "$TMP/alone/build/wasm"
		cp wasm/nmt.mjs "$TMP/alone/wasm/" && cp "$CORE" "$TMP/alone/build/wasm/"
		ALONE="env -u NMT_WASM node $TMP/alone/wasm/nmt.mjs"
		for spelling in "-m $M" "-m$M" "--model $M" "--model=$M"; do
			$ALONE $spelling -b 4 --nbest 2 <"$TMP/sents" >"$TMP/tiny.core"
			check "wasm: nmt-core.wasm, $(echo "$spelling" | cut -c1-8)...: as ./nmt" cmp -s "$TMP/tiny.native" "$TMP/tiny.core"
		done
		expect_error "wasm: no model named, no nmt.wasm" 1 $ALONE -b 1
		check "wasm: ... and the runner says which file it needs" grep -q 'nmt.wasm' "$TMP/err"
		expect_error "wasm: nmt-core.wasm without -m" 1 env NMT_WASM="$PWD/$CORE" node wasm/nmt.mjs -b 1
		check "wasm: ... asks for a model" grep -q 'no model is embedded' "$TMP/err"
	else
		echo "note: wasm: no $CORE (make wasm builds it): its checks skipped"
	fi
fi
