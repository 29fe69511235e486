# nmt built for WebAssembly (make wasm: build/wasm/nmt.wasm, run under Node by
# wasm/nmt.mjs): the same translations as ./nmt, byte for byte, with the
# embedded model on Multi30k's test_2016 English sentences, greedy and beam 4
# (MULTI30K, as the Makefile has it; the fixture's sentences only when it is
# absent), and with -m on a packed model, by absolute and relative path; its
# errors. Needs build/wasm/nmt.wasm (make test builds it when clang's
# wasm32-wasi target, wasi-libc and wasm-ld are installed), node, and ./nmt
# itself with the default model: skipped, saying why, otherwise.
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
	MULTI30K=${MULTI30K:-../shared/data/multi30k}
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
fi
