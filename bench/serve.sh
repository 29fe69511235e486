#!/bin/sh
# nmt serve under load, against the command line on the same sentences.
#
#   bench/serve.sh [SECONDS] [CONNECTIONS] [THREADS]    (defaults 60 32 2)
#
# Starts `./nmt serve -t THREADS` on a free local port with the embedded
# model, then:
#  1. wrk (Debian's wrk) posts test_2016's English sentences, one per
#     request ({"q": ..., "source": "en", "target": "de"}), round robin, for
#     SECONDS over CONNECTIONS keep-alive connections: requests/s, source
#     words/s, latency percentiles, and any error or non-2xx answer;
#  2. the server's resident memory before the run, after it, and after a
#     second run of the same length (flat when nothing leaks);
#  3. the same sentences through `./nmt -t THREADS` (one process, batched):
#     source words/s, and the server's share of it;
#  4. the libretranslate client from the npm registry (when npm can install
#     it) translating one sentence through the server.
# Run from the repository root after `make`.
set -eu
. "$(dirname "$0")/common.sh"
SECS=${1:-60}
CONNS=${2:-32}
THREADS=${3:-2}
wrk_setup "${CORPUS:-$MULTI30K}"
words=$(wc -w <"$TMP/src")
lines=$(wc -l <"$TMP/src")

NMT=./nmt   # what serve_start runs: the ./nmt the command line's figures below come from
serve_start "$TMP/log" -t "$THREADS" || { echo "bench/serve.sh: nmt serve did not start: $(cat "$TMP/log")"; exit 1; }
rss() { awk '/^VmRSS/ { print $2 }' /proc/$SPID/status; }

wrk_translate_lua "$TMP/src" en de >"$TMP/post.lua"
cat >>"$TMP/post.lua" <<LUA
done = function(summary, latency, requests)
	io.write(string.format("requests %d, errors connect %d read %d write %d status %d timeout %d\n",
		summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write,
		summary.errors.status, summary.errors.timeout))
	io.write(string.format("latency p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
	io.write(string.format("requests/s %.1f\n", summary.requests / (summary.duration / 1e6)))
end
LUA

echo "== nmt serve -t $THREADS, wrk $SECS s x $CONNS connections, one test_2016 sentence per request"
r0=$(rss)
wrk -t 2 -c "$CONNS" -d "${SECS}s" --timeout 30s -s "$TMP/post.lua" "http://127.0.0.1:$PORT" >"$TMP/wrk1"
r1=$(rss)
grep -E '^(requests|latency)' "$TMP/wrk1"
rps=$(sed -n 's/^requests\/s //p' "$TMP/wrk1")
sw=$(echo "$rps $words $lines" | awk '{ printf "%.0f", $1 * $2 / $3 }')
echo "source words/s $sw"
wrk -t 2 -c "$CONNS" -d "${SECS}s" --timeout 30s -s "$TMP/post.lua" "http://127.0.0.1:$PORT" >"$TMP/wrk2"
r2=$(rss)
echo "second run: $(grep '^requests ' "$TMP/wrk2")"
echo "resident memory: $r0 KB at start, $r1 KB after $(sed -n 's/^requests \([0-9]*\),.*/\1/p' "$TMP/wrk1") requests, $r2 KB after $(sed -n 's/^requests \([0-9]*\),.*/\1/p' "$TMP/wrk2") more"

echo "== ./nmt -t $THREADS on the same sentences (x5), best of 3"
repeat_file "$TMP/src" 5 "$TMP/src5"
best=$(best_ms 3 "$TMP/src5" /dev/null ./nmt -t "$THREADS")
cw=$(echo "$words $best" | awk '{ printf "%.0f", 5 * $1 * 1000 / $2 }')
echo "source words/s $cw; the server reaches $(echo "$sw $cw" | awk '{ printf "%.0f%%", 100 * $1 / $2 }') of it"

if command -v npm >/dev/null 2>&1 && (cd "$TMP" && npm install --silent libretranslate >/dev/null 2>&1); then
	echo "== the libretranslate npm client"
	(cd "$TMP" && node -e "
		const { translate } = require('libretranslate');
		translate({ query: 'A dog runs along the beach.', source: 'en', target: 'de', apiurl: 'http://127.0.0.1:$PORT' })
			.then(t => console.log('libretranslate client: ' + t)).catch(e => { console.error(e); process.exit(1); });")
else
	echo "(npm or the registry not available: the libretranslate client was not run)"
fi
serve_stop && echo "SIGTERM: exit 0"
