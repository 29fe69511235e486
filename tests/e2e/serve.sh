# nmt serve: LibreTranslate's API, over HTTP (docs/SERVER.md); needs curl
# and HTTP_TOOL (tests/http_tool.c, make test's build/host/tests/http_tool).
M=$(shared tiny.nmt)
# With curl (a real client) and tests/http_tool.c (raw and slow requests).
# The server listens on a port the system picks (--port 0), read from its
# first line.
serve_start() { # serve_start LOG [options]: starts nmt serve, sets SPID and PORT
	log=$1
	shift
	$NMT serve --port 0 "$@" 2>"$log" &
	SPID=$!
	PORT=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		PORT=$(sed -n 's/^nmt: serving .* on http:\/\/127.0.0.1:\([0-9]*\) .*/\1/p' "$log" 2>/dev/null)
		[ -n "$PORT" ] && break
		sleep 0.25
	done
}
if command -v curl >/dev/null 2>&1 && [ -n "${HTTP_TOOL:-}" ]; then
	serve_start "$TMP/serve.log" -t 2 -m "$M" --max-body 4096 --timeout 2
	check "serve: listening" test -n "$PORT"
	U="http://127.0.0.1:$PORT"
	J="Content-Type: application/json"
	check "serve: /languages lists the model's languages" sh -c "curl -s $U/languages | grep -qxF '[{\"code\":\"en\",\"name\":\"English\",\"targets\":[\"de\"]},{\"code\":\"de\",\"name\":\"German\",\"targets\":[]}]'"
	want=$(echo "A dog runs along the beach." | $NMT -m "$M")
	check "serve: q a string = nmt's translation" sh -c "curl -s -H '$J' -d '{\"q\":\"A dog runs along the beach.\",\"source\":\"en\",\"target\":\"de\"}' $U/translate | grep -qxF '{\"translatedText\":\"$want\"}'"
	check "serve: q an array gives an array" sh -c "curl -s -H '$J' -d '{\"q\":[\"A dog runs along the beach.\",\"\"],\"source\":\"en\",\"target\":\"de\"}' $U/translate | grep -qxF '{\"translatedText\":[\"$want\",\"\"]}'"
	check "serve: a form body" sh -c "curl -s --data-urlencode 'q=A dog runs along the beach.' -d source=en -d target=de $U/translate | grep -qxF '{\"translatedText\":\"$want\"}'"
	check "serve: format html keeps the tags" sh -c "curl -s -H '$J' -d '{\"q\":\"A <b>dog</b> runs.\",\"source\":\"en\",\"target\":\"de\",\"format\":\"html\"}' $U/translate | grep -q '<b>'"
	status() { curl -s -o "$TMP/serve.body" -w '%{http_code}' "$@"; }
	check "serve: missing q -> 400 with LibreTranslate's message" sh -c "test \$(curl -s -o $TMP/sb -w '%{http_code}' -H '$J' -d '{\"source\":\"en\",\"target\":\"de\"}' $U/translate) = 400 && grep -qxF '{\"error\":\"Invalid request: missing q parameter\"}' $TMP/sb"
	check "serve: bad JSON -> 400" test "$(status -H "$J" -d '{"q":"x",' "$U/translate")" = 400
	check "serve: unsupported language -> 400" sh -c "test \$(curl -s -o $TMP/sb -w '%{http_code}' -H '$J' -d '{\"q\":\"x\",\"source\":\"fr\",\"target\":\"de\"}' $U/translate) = 400 && grep -q 'fr is not supported' $TMP/sb"
	check "serve: unknown path -> 404" test "$(status "$U/nope")" = 404
	check "serve: GET /translate -> 405" test "$(status "$U/translate")" = 405
	head -c 5000 /dev/zero | tr '\0' ' ' >"$TMP/body5k"
	check "serve: body over --max-body -> 413" test "$(status -H "$J" --data-binary @"$TMP/body5k" "$U/translate")" = 413
	head -c 20000 /dev/zero | tr '\0' a >"$TMP/hdr"
	check "serve: a huge header -> 431" test "$(status -H "X-Big: $(cat "$TMP/hdr")" "$U/languages")" = 431
	check "serve: chunked bodies -> 501" test "$(status -H "$J" -H 'Transfer-Encoding: chunked' -d '{}' "$U/translate")" = 501
	check "serve: keep-alive: two requests, one connection" sh -c "curl -sv $U/languages $U/languages 2>&1 | grep -q 'Re-using existing connection'"
	printf 'POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"q":"A dog' >"$TMP/slow.req"
	$HTTP_TOOL "$PORT" 1000 <"$TMP/slow.req" >"$TMP/slow.out" &
	slow=$!
	check "serve: others are answered while a client sends one byte a second" sh -c "curl -s -m 5 $U/languages | grep -q English"
	wait $slow
	check "serve: ... and the slow one gets 408" grep -q '^HTTP/1.1 408' "$TMP/slow.out"
	printf 'GET /languages HTTP/1.1\r\n\r\nGET /languages HTTP/1.1\r\nConnection: close\r\n\r\n' | $HTTP_TOOL "$PORT" >"$TMP/pipe.out"
	check "serve: pipelined requests both answered" test "$(grep -o 'HTTP/1.1 200' "$TMP/pipe.out" | wc -l)" -eq 2
	printf 'BROKEN\r\n\r\n' | $HTTP_TOOL "$PORT" >"$TMP/bad.out"
	check "serve: a malformed request line -> 400" grep -q '^HTTP/1.1 400' "$TMP/bad.out"
	kill "$SPID"; wait "$SPID" 2>/dev/null
	# SIGTERM while a request is arriving (40 ms a byte): it is still answered
	printf 'POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 53\r\n\r\n{"q":"A dog runs.","source":"en","target":"de"}      ' >"$TMP/term.req"
	serve_start "$TMP/serve2.log" -t 1 -m "$M" --timeout 30
	$HTTP_TOOL "$PORT" 40 <"$TMP/term.req" >"$TMP/inflight.out" &
	cpid=$!
	sleep 1
	kill -TERM "$SPID"
	wait "$SPID"
	check "serve: SIGTERM exits 0" test $? -eq 0
	wait $cpid
	check "serve: ... after answering the request in flight" sh -c "grep -q '^HTTP/1.1 200' $TMP/inflight.out && grep -q 'translatedText' $TMP/inflight.out"
	serve_start "$TMP/serve3.log" -t 1 -m "$M" --max-connections 1 --timeout 3
	$HTTP_TOOL "$PORT" 500 <"$TMP/slow.req" >/dev/null &
	slow=$!
	sleep 0.5
	check "serve: beyond --max-connections -> 503" test "$(status "http://127.0.0.1:$PORT/languages")" = 503
	wait $slow
	kill "$SPID"; wait "$SPID" 2>/dev/null
	expect_error "serve: a bad --port" 2 $NMT serve --port 70000
	expect_error "serve: a host that is not an address" 1 $NMT serve --host example.org --port 0 -m "$M"
fi
