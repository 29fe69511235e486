# A real LibreTranslate client against nmt serve: the npm package
# `libretranslate` (tests/clients/libretranslate_client.mjs) on the tiny
# fixture model: translate() with source auto, none and en, a q array,
# its refusal of a language /languages lacks; /languages and /detect.
#
# Needs node and npm, and the npm registry the first time: `npm ci`
# installs tests/clients/package-lock.json into build/clients (again only
# when the lockfile changes). Skipped, saying why, without them;
# NMT_CLIENTS_REQUIRED=1 (.ci/run sets it) makes that skip a failure.
M=$(shared tiny.nmt)
CL=build/clients
clients_skip() {
	if [ "${NMT_CLIENTS_REQUIRED:-}" = 1 ]; then
		bad "clients: cannot run (NMT_CLIENTS_REQUIRED=1): $1"
	else
		echo "note: clients: skipped: $1"
	fi
}
# clients_install: the lockfile's packages in $CL/node_modules, by npm ci
clients_install() {
	cmp -s tests/clients/package-lock.json "$CL/installed.lock" && return 0
	rm -rf "$CL" && mkdir -p "$CL" &&
		cp tests/clients/package.json tests/clients/package-lock.json "$CL/" &&
		(cd "$CL" && npm ci --no-audit --no-fund --ignore-scripts --fetch-retries=1 --fetch-timeout=60000) >"$TMP/npm.log" 2>&1 &&
		cp tests/clients/package-lock.json "$CL/installed.lock"
}
if ! command -v node >/dev/null 2>&1; then
	clients_skip "node is not installed (Debian: apt-get install nodejs)"
elif ! command -v npm >/dev/null 2>&1; then
	clients_skip "npm is not installed (Debian: apt-get install npm)"
elif ! clients_install; then
	clients_skip "npm ci could not install tests/clients/package-lock.json into $CL (is the npm registry reachable?): $(grep -m 1 -E 'Error|ERR' "$TMP/npm.log" 2>/dev/null || tail -n 1 "$TMP/npm.log")"
else
	serve_start "$TMP/serve.log" -t 1 -m "$M"
	check "clients: nmt serve listening" test -n "$PORT"
	S="A dog runs along the beach."
	want=$(echo "$S" | $NMT -m "$M")
	node tests/clients/libretranslate_client.mjs "http://127.0.0.1:$PORT" "$CL/node_modules" "$S" "$want" >"$TMP/lt.out" 2>&1
	lt_status=$?
	relay "clients: libretranslate npm" "$TMP/lt.out"
	if [ "$lt_status" -ne 0 ] && ! grep -q '^FAIL: ' "$TMP/lt.out"; then
		bad "clients: libretranslate npm: exited with status $lt_status: $(tail -n 4 "$TMP/lt.out" | tr '\n' ' ')"
	fi
	serve_stop
fi
