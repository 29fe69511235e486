# The C library as a WebAssembly module (make wasm-lib: build/wasm/libnmt.wasm,
# through wasm/nmt.js, driven by tests/wasm/nmt_js.mjs under Node): the same
# translations as ./nmt, byte for byte, with the embedded model (Multi30k's
# test_2016 English sentences, MULTI30K as train/paths.sh or make test has it,
# else the fixture's) greedy and beam 4, in HTML mode as ./nmt --html, and from a
# packed model's bytes; its errors (NmtError, not a crash) and API.
# Then the translator page (make wasm-page: build/wasm/page/index.html) in
# headless Chromium from file://: tests/browser/wasm_page_test.js translates
# a sentence and checks it is ./nmt's; the screenshot goes to
# build/browser/wasm_page.png. Needs libnmt.wasm (make test builds it when
# clang's wasm32-wasi target, wasi-libc and wasm-ld are installed), node,
# ./nmt itself with the default model, and for the page chromium: skipped,
# saying why, otherwise.
LIB_FILE=${NMT_LIB:-build/wasm/libnmt.wasm}
PAGE_FILE=build/wasm/page/index.html
if [ ! -f "$LIB_FILE" ]; then
	echo "note: wasm_lib: skipped: no $LIB_FILE (make wasm-lib builds it; it needs clang, lld and wasi-libc)"
elif ! command -v node >/dev/null 2>&1; then
	echo "note: wasm_lib: skipped: node is not installed (Debian: apt-get install nodejs)"
elif ! has_embedded || [ "$NMT" != ./nmt ]; then
	echo "note: wasm_lib: skipped: needs ./nmt itself with the default model embedded"
else
	JS="node $PWD/tests/wasm/nmt_js.mjs"
	export NMT_LIB="$PWD/$LIB_FILE"
	if [ -f "$MULTI30K/test_2016_flickr.en.gz" ]; then
		zcat "$MULTI30K/test_2016_flickr.en.gz" >"$TMP/src"
		set_name=test_2016
	else
		echo "note: wasm_lib: no $MULTI30K/test_2016_flickr.en.gz: the fixture's sentences instead"
		awk -F '\t' '$1 == "sent" && $3 != "x" { print $3 }' "$FIX/expected.txt" >"$TMP/src"
		set_name="the fixture's sentences"
	fi
	for b in 1 4; do
		$NMT -b $b <"$TMP/src" >"$TMP/native.$b"
		$JS -b $b <"$TMP/src" >"$TMP/js.$b"
		check "wasm_lib: embedded model, $set_name, beam $b: as ./nmt" \
			sh -c "cmp -s $TMP/native.$b $TMP/js.$b && [ \$(wc -l <$TMP/js.$b) -eq \$(wc -l <$TMP/src) ]"
	done
	# HTML mode: the tags kept as ./nmt --html keeps them
	cat >"$TMP/html" <<'HTML'
A <b>dog</b> runs along the beach.
<p>Two <i>men</i> are playing <a href="https://example.org/">football</a> in the park.</p>
A woman &amp; her child are <em>sitting</em> on a bench.
HTML
	$NMT --html <"$TMP/html" >"$TMP/html.native"
	$JS --html <"$TMP/html" >"$TMP/html.js"
	check "wasm_lib: HTML mode as ./nmt --html" sh -c "cmp -s $TMP/html.native $TMP/html.js && grep -q '<b>.*</b>' $TMP/html.js"
	# a packed model's bytes
	M=$(shared tiny.nmt)
	awk -F '\t' '$1 == "sent" && $3 != "x" { print $3 }' "$FIX/expected.txt" >"$TMP/sents"
	$NMT -m "$M" -b 4 <"$TMP/sents" >"$TMP/tiny.native"
	$JS -m "$M" -b 4 <"$TMP/sents" >"$TMP/tiny.js"
	check "wasm_lib: a packed model's bytes translate as ./nmt -m" sh -c "cmp -s $TMP/tiny.native $TMP/tiny.js && [ -s $TMP/tiny.js ]"
	# bad bytes: an NmtError with the status, not a crash
	head -c 3000 "$M" >"$TMP/cut.nmt"
	$JS -m "$TMP/cut.nmt" </dev/null >"$TMP/out" 2>"$TMP/err"
	e2e_status=$?
	check "wasm_lib: a cut model: an error, status 1 (got $e2e_status: $(cat "$TMP/err"))" \
		sh -c "[ $e2e_status -eq 1 ] && [ \$(wc -l <$TMP/err) -eq 1 ] && grep -q '^nmt.js: .*(status -3)\$' $TMP/err"
	# the wrapper's API: open, translate, errors, close (one line per check)
	$JS --api </dev/null >"$TMP/api.out" 2>&1
	e2e_status=$?
	relay "wasm_lib: nmt.js" "$TMP/api.out"
	check "wasm_lib: nmt.js API checks ran (status $e2e_status: $(grep -v '^ok: ' "$TMP/api.out" | tail -n 3))" \
		sh -c "[ $e2e_status -eq 0 ] && grep -q '^ok: ' $TMP/api.out"

	# the page, from file:// in headless Chromium
	if [ ! -f "$PAGE_FILE" ]; then
		echo "note: wasm_lib: page skipped: no $PAGE_FILE (make wasm-page builds it)"
	elif ! command -v chromium >/dev/null 2>&1; then
		echo "note: wasm_lib: page skipped: chromium is not installed (Debian: apt-get install chromium)"
	else
		EXPECT=$(echo 'A dog runs along the beach.' | $NMT) \
		EXPECT_HTML=$(echo 'A <b>dog</b> runs along the beach.' | $NMT --html) \
			node tests/browser/wasm_page_test.js "$PAGE_FILE" build/browser >"$TMP/page.out" 2>&1
		e2e_status=$?
		if [ "$e2e_status" -eq 0 ]; then
			e2e_name="wasm_lib: the page translates from file:// in headless Chromium"
			ok
			sed -n 's/^browser: \(typed\|HTML\|screenshot\|responsive\)/note: wasm_lib: page: \1/p' "$TMP/page.out"
		else
			bad "wasm_lib: the page translates from file:// in headless Chromium (status $e2e_status): $(tail -n 5 "$TMP/page.out")"
		fi
	fi
fi
