#!/bin/sh
# nmt serve soaked with `source: auto`: no errors, and does its memory stay flat?
#
#   sh bench/serve_soak.sh [REQUESTS] [CONNECTIONS] [THREADS]   (defaults 100000 32 2)
#
# Starts `./nmt serve --host 127.0.0.1 -t THREADS` (the embedded model) on a
# free loopback port, then runs wrk (Debian's wrk) ten times, each for a
# tenth of REQUESTS over CONNECTIONS keep-alive connections: every request
# posts one of test_2016's English sentences, round robin, as
# {"q": ..., "source": "auto", "target": "de"}. Each wrk thread stops once
# it has its share of the tenth's answers, and wrk is ended then (or after
# TENTH_SECONDS, default 300: the time bound). The server's resident memory (VmRSS of
# /proc/PID/status) is read at start, every 0.2 s during each tenth (its
# peak) and after it. Prints a line per tenth, then the totals: requests,
# errors (socket errors: connect, read, write, timeout; answers not 2xx;
# 2xx answers without "detectedLanguage" English), requests/s, and the
# memory at start, after the first tenth and at the end. Stops the server
# (SIGTERM) and exits 1 if there was an error. Run from the repository root
# after `make`; CORPUS names another folder with test_2016_flickr.en.gz.
set -eu
. "$(dirname "$0")/common.sh"
N=${1:-100000}
CONNS=${2:-32}
THREADS=${3:-2}
TENTH_SECONDS=${TENTH_SECONDS:-300}
wrk_setup "${CORPUS:-$MULTI30K}"

NMT=./nmt   # what serve_start runs, whatever NMT the environment gives
serve_start "$TMP/log" --host 127.0.0.1 -t "$THREADS" ||
	{ echo "bench/serve_soak.sh: nmt serve did not start: $(cat "$TMP/log")"; exit 1; }
rss() { awk '/^VmRSS/ { print $2 }' /proc/$SPID/status; }

# wrk's threads (2) each stop after PER answers; done() sums what they saw
WT=2
TENTH=$((N / 10))
PER=$(((TENTH + WT - 1) / WT))
wrk_translate_lua "$TMP/src" auto de >"$TMP/soak.lua"
cat >>"$TMP/soak.lua" <<LUA
local threads = {}
function setup(thread)
	thread:set("id", #threads)
	table.insert(threads, thread)
end
function init(args)
	seen, non2xx, nodetect = 0, 0, 0
	i = id * 500   -- the threads start at different sentences
end
response = function(status, headers, body)
	seen = seen + 1
	if status < 200 or status > 299 then
		non2xx = non2xx + 1
	elseif not body:find('"detectedLanguage":{"confidence":', 1, true) or not body:find('"language":"en"}', 1, true) then
		nodetect = nodetect + 1
	end
	if seen == $PER then   -- this thread's share: say so (the script then ends wrk) and stop
		io.open("$TMP/share." .. id, "w"):close()
		wrk.thread:stop()
	end
end
done = function(summary, latency, requests)
	local non2xx_all, nodetect_all = 0, 0
	for _, t in ipairs(threads) do
		non2xx_all = non2xx_all + t:get("non2xx")
		nodetect_all = nodetect_all + t:get("nodetect")
	end
	local e = summary.errors
	io.write(string.format("requests %d socket_errors %d non2xx %d nodetect %d seconds %.2f p50 %.1f p99 %.1f\n",
		summary.requests, e.connect + e.read + e.write + e.timeout, non2xx_all, nodetect_all,
		summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
LUA

echo "== nmt serve -t $THREADS (127.0.0.1, embedded model), wrk -c $CONNS: $N requests in tenths, source auto"
r_start=$(rss)
echo "RSS at start: $r_start KB"
total=0 sock=0 non2xx=0 nodetect=0 secs=0 r_first= k=1
while [ $k -le 10 ]; do
	(while kill -0 $SPID 2>/dev/null; do rss; sleep 0.2; done) >"$TMP/rss.$k" 2>/dev/null &
	sampler=$!
	rm -f "$TMP"/share.*
	wrk -t $WT -c "$CONNS" -d "${TENTH_SECONDS}s" --timeout 30s -s "$TMP/soak.lua" "http://127.0.0.1:$PORT" >"$TMP/wrk.$k" &
	wpid=$!
	# wrk runs its whole -d unless interrupted: SIGINT (it then reports) once
	# every thread has its share
	while kill -0 $wpid 2>/dev/null; do
		[ "$(ls "$TMP" | grep -c '^share\.')" -ge $WT ] && kill -INT $wpid 2>/dev/null
		sleep 0.1
	done
	wait $wpid
	kill $sampler 2>/dev/null; wait $sampler 2>/dev/null || true
	after=$(rss)
	[ -n "$r_first" ] || r_first=$after
	peak=$(sort -n "$TMP/rss.$k" | tail -n 1)
	set -- $(sed -n 's/^requests \([0-9]*\) socket_errors \([0-9]*\) non2xx \([0-9]*\) nodetect \([0-9]*\) seconds \([0-9.]*\) p50 \([0-9.]*\) p99 \([0-9.]*\)$/\1 \2 \3 \4 \5 \6 \7/p' "$TMP/wrk.$k")
	[ $# -eq 7 ] || { echo "bench/serve_soak.sh: wrk's summary not found:"; cat "$TMP/wrk.$k"; exit 1; }
	total=$((total + $1)) sock=$((sock + $2)) non2xx=$((non2xx + $3)) nodetect=$((nodetect + $4))
	secs=$(echo "$secs $5" | awk '{ printf "%.2f", $1 + $2 }')
	echo "tenth $k: $1 requests ($total in all) in $5 s, $(echo "$1 $5" | awk '{ printf "%.0f", $1 / $2 }') requests/s, p50 $6 ms, p99 $7 ms; errors: socket $2, non-2xx $3, no detection $4; RSS after $after KB, peak during $peak KB"
	k=$((k + 1))
done
errors=$((sock + non2xx + nodetect))
echo "== totals"
echo "requests $total"
echo "errors $errors (socket $sock, non-2xx $non2xx, 2xx without detectedLanguage en $nodetect)"
echo "requests/s $(echo "$total $secs" | awk '{ printf "%.0f", $1 / $2 }') (over $secs s of wrk)"
echo "RSS: start $r_start KB, after the first tenth ($TENTH) $r_first KB, end $(rss) KB"
serve_stop && echo "SIGTERM: exit 0"
[ "$errors" -eq 0 ]
