# The page at / (server/page.html) in a real browser: tests/browser/page_test.js
# drives headless Chromium over the DevTools protocol: it loads the page
# from `nmt serve` (the embedded model), types a sentence, clicks Translate
# and finds the translation in the page; the screenshot goes to
# build/browser/page.png. Needs Debian's chromium and nodejs, and ./nmt
# itself with the default model (not a qemu or sanitized build): skipped,
# saying why, otherwise.
if ! has_embedded || [ "$NMT" != ./nmt ]; then
	echo "note: browser: skipped: needs ./nmt itself with the default model embedded"
elif ! command -v node >/dev/null 2>&1; then
	echo "note: browser: skipped: node is not installed (Debian: apt-get install nodejs)"
elif ! command -v chromium >/dev/null 2>&1; then
	echo "note: browser: skipped: chromium is not installed (Debian: apt-get install chromium)"
else
	node tests/browser/page_test.js ./nmt build/browser >"$TMP/browser.out" 2>&1
	e2e_status=$?
	if [ "$e2e_status" -eq 0 ]; then
		ok
		sed -n 's/^browser: \(typed\|Detect\|screenshot\)/note: browser: \1/p' "$TMP/browser.out"
	else
		bad "browser: the page translates in headless Chromium (status $e2e_status): $(tail -n 5 "$TMP/browser.out")"
	fi
fi
