# nmt serve: LibreTranslate's API, over HTTP (docs/SERVER.md); needs curl
# and HTTP_TOOL (tests/http_tool.c, make test's build/host/tests/http_tool).
M=$(shared tiny.nmt)
# With curl (a real client) and tests/http_tool.c (raw and slow requests).
# The server listens on a port the system picks (serve_start, serve_lib.sh).
# answers STATUS BODY CURL_ARGS...: curl gets exactly this status and body
answers() {
	a_status=$1 a_body=$2
	shift 2
	[ "$(curl -s -o "$TMP/answer" -w '%{http_code}' "$@")" = "$a_status" ] && [ "$(cat "$TMP/answer")" = "$a_body" ]
}
# answers_like STATUS ERE CURL_ARGS...: the same, the body matching the whole extended regex
answers_like() {
	a_status=$1 a_re=$2
	shift 2
	[ "$(curl -s -o "$TMP/answer" -w '%{http_code}' "$@")" = "$a_status" ] && grep -Eqx "$a_re" "$TMP/answer"
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
	# the rest of LibreTranslate's routes
	check "serve: GET /health" answers 200 '{"status":"ok"}' "$U/health"
	check "serve: GET /frontend/settings: LibreTranslate's fields, nmt's values (charLimit: --max-body)" answers 200 \
		'{"charLimit":4096,"frontendTimeout":500,"apiKeys":false,"keyRequired":false,"suggestions":false,"filesTranslation":true,"supportedFilesFormat":[".txt",".html",".htm"],"language":{"source":{"code":"en","name":"English"},"target":{"code":"de","name":"German"}}}' \
		"$U/frontend/settings"
	check "serve: GET /spec is Swagger 2.0" answers_like 200 '\{"swagger":"2\.0",.*\}' "$U/spec"
	for route in /translate /languages /detect /suggest /health /frontend/settings /spec /translate_file '/download_file/{filename}'; do
		check "serve: /spec describes $route" grep -qF "\"$route\":{" "$TMP/answer"
	done
	check "serve: /spec names every /translate parameter" sh -c 'for p in q source target format alternatives api_key; do grep -qF "\"name\":\"$p\"" "$1" || exit 1; done' - "$TMP/answer"
	# the page (server/page.html, embedded): HTML under a strict Content-Security-Policy
	curl -s -D "$TMP/page.head" -o "$TMP/page.html" "$U/"
	check "serve: GET / is 200" grep -q '^HTTP/1.1 200 ' "$TMP/page.head"
	check "serve: GET / is the embedded server/page.html" cmp -s "$TMP/page.html" server/page.html
	check "serve: GET / is text/html; charset=utf-8" grep -qix 'Content-Type: text/html; charset=utf-8.' "$TMP/page.head"
	check "serve: GET /'s Content-Security-Policy: nothing but itself and this server" grep -qx \
		"Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'.\\{0,1\\}" "$TMP/page.head"
	check "serve: GET / is nosniff" grep -qix 'X-Content-Type-Options: nosniff.' "$TMP/page.head"
	check "serve: the page loads nothing from elsewhere" sh -c "! grep -Eq '(src|href)=|https?://|@import|url\\(' server/page.html"
	check "serve: GET /index.html is the page too" sh -c "curl -s $U/index.html | cmp -s - server/page.html"
	check "serve: POST / -> 405" answers_like 405 '\{"error":.*\}' -d x=1 "$U/"
	check "serve: POST /suggest: disabled, as LibreTranslate says" answers 403 \
		'{"error":"Suggestions are disabled on this server."}' -d 'q=a&s=b&source=en&target=de' "$U/suggest"
	check "serve: POST /health -> 405" answers_like 405 '\{"error":.*\}' -d x=1 "$U/health"
	# alternatives: the n-best list after the best, which stays nmt's translation
	T='"A dog runs along the beach."'
	check "serve: alternatives 2 (JSON number)" answers_like 200 "\\{\"translatedText\":\"$want\",\"alternatives\":\\[(\"[^\"]*\")?(,\"[^\"]*\")?\\]\\}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"de\",\"alternatives\":2}" "$U/translate"
	check "serve: ... at most 2, none equal to the best" sh -c 'n=$(grep -o "\",\"" "$1" | wc -l); [ "$n" -le 2 ] && ! grep -qF "\"alternatives\":[\"$2\"" "$1"' - "$TMP/answer" "$want"
	check "serve: alternatives for a q array: a list per text" answers_like 200 \
		"\\{\"translatedText\":\\[\"$want\",\"[^\"]*\"\\],\"alternatives\":\\[\\[[^]]*\\],\\[[^]]*\\]\\]\\}" \
		-H "$J" -d "{\"q\":[$T,\"A cat.\"],\"source\":\"en\",\"target\":\"de\",\"alternatives\":\"1\"}" "$U/translate"
	check "serve: alternatives 0 adds nothing" answers 200 "{\"translatedText\":\"$want\"}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"de\",\"alternatives\":0}" "$U/translate"
	check "serve: alternatives over the limit -> 400" answers 400 '{"error":"Invalid request: alternatives parameter must be <= 3"}' \
		-H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"de\",\"alternatives\":4}" "$U/translate"
	check "serve: alternatives not a number -> 400" answers 400 '{"error":"Invalid request: alternatives parameter is not a number"}' \
		-d 'q=x&source=en&target=de&alternatives=two' "$U/translate"
	# every parameter source LibreTranslate reads
	check "serve: parameters in the query string" answers 200 "{\"translatedText\":\"$want\"}" \
		-X POST "$U/translate?q=A%20dog%20runs%20along%20the%20beach.&source=en&target=de"
	check "serve: the query string, then a form body" answers 200 "{\"translatedText\":\"$want\"}" \
		--data-urlencode 'q=A dog runs along the beach.' "$U/translate?source=en&target=de"
	check "serve: a multipart/form-data body" answers 200 "{\"translatedText\":\"$want\"}" \
		-F 'q=A dog runs along the beach.' -F source=en -F target=de "$U/translate"
	check "serve: multipart with alternatives and the query string" answers_like 200 \
		"\\{\"translatedText\":\"$want\",\"alternatives\":\\[[^]]*\\]\\}" \
		-F 'q=A dog runs along the beach.' -F alternatives=1 "$U/translate?source=en&target=de"
	check "serve: a JSON body alone (the query string is not read with it)" answers 400 \
		'{"error":"Invalid request: missing source parameter"}' -H "$J" -d '{"q":"x"}' "$U/translate?source=en&target=de"
	check "serve: a malformed multipart body -> 400" answers 400 '{"error":"Invalid request: malformed parameters"}' \
		-H 'Content-Type: multipart/form-data; boundary=zz' --data-binary 'not multipart' "$U/translate"
	check "serve: multipart without a boundary -> 400" answers_like 400 '\{"error":"Invalid request: multipart.*"\}' \
		-H 'Content-Type: multipart/form-data' --data-binary 'x' "$U/translate"
	check "serve: a malformed query string -> 400" answers 400 '{"error":"Invalid request: malformed parameters"}' \
		-X POST "$U/translate?q=%zz&source=en&target=de"
	check "serve: an empty q -> 400 missing q" answers 400 '{"error":"Invalid request: missing q parameter"}' \
		-H "$J" -d '{"q":"","source":"en","target":"de"}' "$U/translate"
	# language codes as LibreTranslate reads them: any case, its aliases
	check "serve: language codes in any case" answers 200 "{\"translatedText\":\"$want\"}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"EN\",\"target\":\"De\"}" "$U/translate"
	check "serve: zh-Hans is LibreTranslate's alias of zh" answers 400 '{"error":"zh is not supported"}' \
		-H "$J" -d '{"q":"x","source":"en","target":"zh-Hans"}' "$U/translate"
	# language detection (the profile embedded in nmt; candidates: the served languages, en and de)
	C='[0-9]+\.[0-9]+'
	check "serve: POST /detect an English sentence (a form)" answers_like 200 "\\[\\{\"confidence\":$C,\"language\":\"en\"\\}(,.*)?\\]" \
		--data-urlencode 'q=A dog runs along the beach with its owner.' "$U/detect"
	check "serve: POST /detect a German sentence (JSON)" answers_like 200 "\\[\\{\"confidence\":$C,\"language\":\"de\"\\}(,.*)?\\]" \
		-H "$J" -d '{"q":"Ein Hund läuft mit seinem Besitzer am Strand entlang."}' "$U/detect"
	check "serve: /detect: confidence in 0..100, at most 3 guesses" sh -c 'grep -Eqx "\[\{\"confidence\":(100|[0-9]{1,2})\.[0-9]+,\"language\":\"[a-z]+\"\}(,\{[^}]*\}){0,2}\]" "$1"' - "$TMP/answer"
	check "serve: /detect: no letters -> en at 0, as LibreTranslate" answers 200 '[{"confidence":0.0,"language":"en"}]' \
		-H "$J" -d '{"q":"1234 ..."}' "$U/detect"
	check "serve: /detect: q an array, one list for all" answers_like 200 "\\[\\{\"confidence\":$C,\"language\":\"(en|de)\"\\},\\{\"confidence\":$C,\"language\":\"(en|de)\"\\}\\]" \
		-H "$J" -d '{"q":["A dog runs along the beach.","Ein Hund läuft am Strand entlang."]}' "$U/detect"
	check "serve: /detect without q -> 400" answers 400 '{"error":"Invalid request: missing q parameter"}' -d x=1 "$U/detect"
	check "serve: GET /detect -> 405" answers_like 405 '\{"error":.*\}' "$U/detect"
	check "serve: source auto: translated from the language found, detectedLanguage added" answers_like 200 \
		"\\{\"translatedText\":\"$want\",\"detectedLanguage\":\\{\"confidence\":$C,\"language\":\"en\"\\}\\}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"auto\",\"target\":\"de\"}" "$U/translate"
	check "serve: source auto (a form, any case)" answers_like 200 \
		"\\{\"translatedText\":\"$want\",\"detectedLanguage\":\\{\"confidence\":$C,\"language\":\"en\"\\}\\}" \
		--data-urlencode 'q=A dog runs along the beach.' -d source=Auto -d target=de "$U/translate"
	check "serve: source auto on an array: one detection, repeated for each text" answers_like 200 \
		"\\{\"translatedText\":\\[\"$want\",\"$want\"\\],\"detectedLanguage\":\\[(\\{\"confidence\":$C,\"language\":\"en\"\\}),\\1\\]\\}" \
		-H "$J" -d "{\"q\":[$T,$T],\"source\":\"auto\",\"target\":\"de\"}" "$U/translate"
	check "serve: source auto with alternatives: detectedLanguage before them" answers_like 200 \
		"\\{\"translatedText\":\"$want\",\"detectedLanguage\":\\{[^}]*\\},\"alternatives\":\\[.*\\]\\}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"auto\",\"target\":\"de\",\"alternatives\":1}" "$U/translate"
	G='"Ein Hund läuft mit seinem Besitzer am Strand entlang."'
	check "serve: source auto, the language found = target: the text unchanged" answers_like 200 \
		"\\{\"translatedText\":$G,\"detectedLanguage\":\\{\"confidence\":$C,\"language\":\"de\"\\}\\}" \
		-H "$J" -d "{\"q\":$G,\"source\":\"auto\",\"target\":\"de\"}" "$U/translate"
	check "serve: source = target: the text unchanged (LibreTranslate's identity)" answers 200 "{\"translatedText\":$T}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"en\"}" "$U/translate"
	check "serve: source auto, no model from the language found -> LibreTranslate's 400" answers 400 \
		'{"error":"English (en) is not available as a target language from German (de)"}' \
		-H "$J" -d "{\"q\":$G,\"source\":\"auto\",\"target\":\"en\"}" "$U/translate"
	check "serve: CORS preflight allows the headers clients send" sh -c "curl -si -X OPTIONS -H 'Origin: http://x' -H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: authorization,content-type' $U/translate | tr -d '\r' >$TMP/cors && grep -q '^HTTP/1.1 204' $TMP/cors && grep -qi '^Access-Control-Allow-Headers: .*Content-Type.*Authorization' $TMP/cors && grep -qi '^Access-Control-Allow-Methods: .*POST' $TMP/cors && grep -qi '^Access-Control-Allow-Origin: \*' $TMP/cors"
	# POST /translate_file, then GET /download_file/NAME, as LibreTranslate answers them
	printf 'A dog runs along the beach.\n\nA man reads a book.\nThe cat sleeps on the sofa.\n' >"$TMP/lines.txt"
	$NMT -m "$M" <"$TMP/lines.txt" >"$TMP/lines.want"
	fileurl() { sed -n 's/^{"translatedFileUrl":"\(.*\)"}$/\1/p' "$TMP/answer"; }
	check "serve: /translate_file a .txt -> the URL of its translation" answers_like 200 \
		"\\{\"translatedFileUrl\":\"http://127\\.0\\.0\\.1:$PORT/download_file/[0-9a-f]{32}\\.lines_de\\.txt\"\\}" \
		-F file=@"$TMP/lines.txt" -F source=en -F target=de "$U/translate_file"
	url=$(fileurl)
	curl -s -D "$TMP/file.head" -o "$TMP/file.got" "$url"
	check "serve: the downloaded .txt is nmt's translation, line for line" cmp -s "$TMP/file.got" "$TMP/lines.want"
	check "serve: ... as an attachment named as LibreTranslate names it" grep -qx 'Content-Disposition: attachment; filename=lines_de.txt.' "$TMP/file.head"
	check "serve: ... text/plain" grep -qix 'Content-Type: text/plain; charset=utf-8.' "$TMP/file.head"
	check "serve: ... and again, until it expires" sh -c 'curl -s "$1" | cmp -s - "$2"' - "$url" "$TMP/lines.want"
	curl -s -F file=@"$TMP/lines.txt" -F source=en -F target=de -o "$TMP/answer" "$U/translate_file"
	check "serve: each upload gets a name of its own" test "$(fileurl)" != "$url"
	sed 's/$/\r/' "$TMP/lines.txt" >"$TMP/crlf.txt"
	sed 's/$/\r/' "$TMP/lines.want" >"$TMP/crlf.want"
	curl -s -F file=@"$TMP/crlf.txt" -F source=en -F target=de -o "$TMP/answer" "$U/translate_file"
	check "serve: a .txt with CRLF lines keeps them" sh -c 'curl -s "$1" | cmp -s - "$2"' - "$(fileurl)" "$TMP/crlf.want"
	check "serve: /translate_file source auto" answers_like 200 '\{"translatedFileUrl":"http://[^"]*/download_file/[0-9a-f]{32}\.lines_de\.txt"\}' \
		-F file=@"$TMP/lines.txt" -F source=auto -F target=de "$U/translate_file"
	check "serve: ... translated from the language found" sh -c 'curl -s "$1" | cmp -s - "$2"' - "$(fileurl)" "$TMP/lines.want"
	curl -s -F file=@"$TMP/crlf.txt" -F source=en -F target=en -o "$TMP/answer" "$U/translate_file"
	check "serve: /translate_file source = target: the file unchanged" sh -c 'curl -s "$1" | cmp -s - "$2"' - "$(fileurl)" "$TMP/crlf.txt"
	printf '<!DOCTYPE html>\n<html><body>\n<h1>The dog</h1>\n<p>A <b>dog</b> runs along the <a href="x.html">beach</a>.</p>\n</body></html>\n' >"$TMP/page.html"
	curl -s -F file=@"$TMP/page.html" -F source=en -F target=de -o "$TMP/answer" "$U/translate_file"
	curl -s -D "$TMP/html.head" -o "$TMP/html.got" "$(fileurl)"
	check "serve: an .html file keeps its tags" sh -c 'grep -o "<[^>]*>" "$1" >"$1.tags" && grep -o "<[^>]*>" "$2" | cmp -s - "$1.tags"' - "$TMP/page.html" "$TMP/html.got"
	check "serve: ... its text translated" sh -c '! grep -q "runs along" "$1"' - "$TMP/html.got"
	check "serve: ... text/html, named page_de.html" sh -c 'grep -qix "Content-Type: text/html; charset=utf-8." "$1" && grep -qx "Content-Disposition: attachment; filename=page_de.html." "$1"' - "$TMP/html.head"
	cp "$TMP/page.html" "$TMP/page.htm"
	check "serve: .htm too" answers_like 200 '\{"translatedFileUrl":"[^"]*\.page_de\.htm"\}' -F file=@"$TMP/page.htm" -F source=en -F target=de "$U/translate_file"
	cp "$TMP/lines.txt" "$TMP/lines.pdf"
	check "serve: /translate_file another extension -> 400" answers 400 '{"error":"Invalid request: file format not supported"}' \
		-F file=@"$TMP/lines.pdf" -F source=en -F target=de "$U/translate_file"
	check "serve: /translate_file without a file -> 400" answers 400 '{"error":"Invalid request: missing file parameter"}' \
		-F source=en -F target=de "$U/translate_file"
	check "serve: ... a file field that is not a file -> 400" answers 400 '{"error":"Invalid request: missing file parameter"}' \
		-F 'file=A dog.' -F source=en -F target=de "$U/translate_file"
	check "serve: /translate_file without a target -> 400" answers 400 '{"error":"Invalid request: missing target parameter"}' \
		-F file=@"$TMP/lines.txt" -F source=en "$U/translate_file"
	check "serve: /translate_file a language no model serves -> 400" answers 400 '{"error":"fr is not supported"}' \
		-F file=@"$TMP/lines.txt" -F source=en -F target=fr "$U/translate_file"
	check "serve: /translate_file a file over --max-body -> 413" answers_like 413 '\{"error":"Request body too large.*"\}' \
		-F file=@"$TMP/body5k;filename=big.txt" -F source=en -F target=de "$U/translate_file"
	check "serve: the download URL names the request's Host" answers_like 200 '\{"translatedFileUrl":"http://translate\.example:8080/download_file/[^"]*"\}' \
		-H 'Host: translate.example:8080' -F file=@"$TMP/lines.txt" -F source=en -F target=de "$U/translate_file"
	check "serve: a download of an unknown name -> 404" answers_like 404 '\{"error":".*"\}' "$U/download_file/0123456789abcdef0123456789abcdef.lines_de.txt"
	printf 'A dog.\n' >"$TMP/one.txt"
	curl -s -F file=@"$TMP/one.txt" -F source=en -F target=de -o "$TMP/answer" "$U/translate_file"
	first=$(fileurl)
	for i in $(seq 64); do curl -s -F file=@"$TMP/one.txt" -F source=en -F target=de -o "$TMP/answer" "$U/translate_file"; done
	last=$(fileurl)
	check "serve: the store keeps 64 files: the 65th pushes out the oldest" answers_like 404 '\{"error":".*"\}' "$first"
	check "serve: ... and keeps the newest" sh -c 'test "$(curl -s -o /dev/null -w "%{http_code}" "$1")" = 200' - "$last"
	check "serve: GET /translate_file -> 405" answers_like 405 '\{"error":.*\}' "$U/translate_file"
	# every route with GET and POST (a form body) and the CORS preflight: the
	# status LibreTranslate answers and the body's shape. POST /languages as
	# LibreTranslate's earlier releases (and the clients written then) have it.
	L='\[\{"code":"en","name":"English","targets":\["de"\]\},\{"code":"de","name":"German","targets":\[\]\}\]'
	E='\{"error":"[^"]+"\}'
	while read -r m route st re; do
		if [ "$m" = POST ]; then
			set -- --data-urlencode 'q=A dog runs along the beach.' -d source=en -d target=de -d s=x
		else
			set --
		fi
		check "serve: $m $route -> $st $re" answers_like "$st" "$re" "$@" "$U$route"
	done <<-ROUTES
	GET /languages 200 $L
	POST /languages 200 $L
	GET /translate 405 $E
	POST /translate 200 \{"translatedText":"$want"\}
	GET /detect 405 $E
	POST /detect 200 \[\{"confidence":$C,"language":"en"\}(,\{"confidence":$C,"language":"[a-z]+"\}){0,2}\]
	GET /spec 200 \{"swagger":"2\.0","info":\{"title":"LibreTranslate",.*\}
	POST /spec 405 $E
	GET /frontend/settings 200 \{"charLimit":4096,.*,"language":\{"source":\{"code":"en","name":"English"\},"target":\{"code":"de","name":"German"\}\}\}
	POST /frontend/settings 405 $E
	GET /health 200 \{"status":"ok"\}
	POST /health 405 $E
	GET /suggest 405 $E
	POST /suggest 403 \{"error":"Suggestions[^"]*"\}
	GET / 200 <!DOCTYPE html>
	POST / 405 $E
	GET /translate_file 405 $E
	POST /translate_file 400 \{"error":"Invalid request: missing file parameter"\}
	GET /download_file/0123456789abcdef0123456789abcdef.x_de.txt 404 $E
	POST /download_file/0123456789abcdef0123456789abcdef.x_de.txt 405 $E
	GET /nope 404 $E
	POST /nope 404 $E
	ROUTES
	for route in / /languages /translate /detect /spec /frontend/settings /health /suggest /translate_file; do
		check "serve: OPTIONS $route (preflight) -> 204, no body, CORS headers" sh -c "curl -si -X OPTIONS -H 'Origin: http://x' -H 'Access-Control-Request-Method: POST' $U$route | tr -d '\r' >$TMP/pre && grep -q '^HTTP/1.1 204' $TMP/pre && grep -qix 'Content-Length: 0' $TMP/pre && grep -qi '^Access-Control-Allow-Origin: \*\$' $TMP/pre && grep -qi '^Access-Control-Allow-Methods: .*GET.*POST' $TMP/pre && [ -z \"\$(sed '1,/^\$/d' $TMP/pre)\" ]"
	done
	check "serve: still serving after the bad requests" answers 200 '{"status":"ok"}' "$U/health"
	serve_stop
	# --api-keys: a request without a listed api_key is refused as LibreTranslate refuses it
	printf 'k1\n\n  k2  \n' >"$TMP/keys"
	serve_start "$TMP/serve4.log" -t 1 -m "$M" --api-keys "$TMP/keys"
	U="http://127.0.0.1:$PORT"
	check "serve: --api-keys: no key -> 400 asking for one" answers 400 \
		'{"error":"Please contact the server operator to get an API key"}' -H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"de\"}" "$U/translate"
	check "serve: --api-keys: an unlisted key -> 403" answers 403 '{"error":"Invalid API key"}' \
		-H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"de\",\"api_key\":\"k\"}" "$U/translate"
	check "serve: --api-keys: a listed key in JSON" answers 200 "{\"translatedText\":\"$want\"}" \
		-H "$J" -d "{\"q\":$T,\"source\":\"en\",\"target\":\"de\",\"api_key\":\"k1\"}" "$U/translate"
	check "serve: --api-keys: a listed key (spaces trimmed) in a form" answers 200 "{\"translatedText\":\"$want\"}" \
		--data-urlencode 'q=A dog runs along the beach.' -d source=en -d target=de -d api_key=k2 "$U/translate"
	check "serve: --api-keys: a listed key in the query string" answers 200 "{\"translatedText\":\"$want\"}" \
		-F 'q=A dog runs along the beach.' -F source=en -F target=de "$U/translate?api_key=k1"
	check "serve: --api-keys: /detect without a key -> 400" answers 400 \
		'{"error":"Please contact the server operator to get an API key"}' -d 'q=A dog runs.' "$U/detect"
	check "serve: --api-keys: /detect with an unlisted key -> 403" answers 403 '{"error":"Invalid API key"}' \
		-d 'q=A dog runs.' -d api_key=k3 "$U/detect"
	check "serve: --api-keys: /detect with a listed key" answers_like 200 '\[\{"confidence":[0-9.]+,"language":"en"\}.*\]' \
		-H "$J" -d '{"q":"A dog runs along the beach.","api_key":"k2"}' "$U/detect"
	check "serve: --api-keys: /suggest checks the key first" answers 403 '{"error":"Invalid API key"}' -d 'api_key=nope' "$U/suggest"
	check "serve: --api-keys: /translate_file without a key -> 400" answers 400 \
		'{"error":"Please contact the server operator to get an API key"}' -F file=@"$TMP/lines.txt" -F source=en -F target=de "$U/translate_file"
	check "serve: --api-keys: /translate_file with an unlisted key -> 403" answers 403 '{"error":"Invalid API key"}' \
		-F file=@"$TMP/lines.txt" -F source=en -F target=de -F api_key=k3 "$U/translate_file"
	check "serve: --api-keys: /translate_file with a listed key" answers_like 200 '\{"translatedFileUrl":"[^"]*\.lines_de\.txt"\}' \
		-F file=@"$TMP/lines.txt" -F source=en -F target=de -F api_key=k1 "$U/translate_file"
	check "serve: --api-keys: /languages needs no key" sh -c "curl -s $U/languages | grep -q English"
	check "serve: --api-keys: /frontend/settings says keys are required" sh -c "curl -s $U/frontend/settings | grep -qF '\"apiKeys\":true,\"keyRequired\":true'"
	serve_stop
	expect_error "serve: --api-keys with a missing file" 1 $NMT serve --port 0 -m "$M" --api-keys "$TMP/no-such-keys"
	: >"$TMP/nokeys"
	expect_error "serve: --api-keys listing no key" 1 $NMT serve --port 0 -m "$M" --api-keys "$TMP/nokeys"
	# SIGTERM while a request is arriving (40 ms a byte): it is still answered
	printf 'POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 53\r\n\r\n{"q":"A dog runs.","source":"en","target":"de"}      ' >"$TMP/term.req"
	serve_start "$TMP/serve2.log" -t 1 -m "$M" --timeout 30
	$HTTP_TOOL "$PORT" 40 <"$TMP/term.req" >"$TMP/inflight.out" &
	cpid=$!
	sleep 1
	serve_stop
	check "serve: SIGTERM exits 0" test $? -eq 0
	wait $cpid
	check "serve: ... after answering the request in flight" sh -c "grep -q '^HTTP/1.1 200' $TMP/inflight.out && grep -q 'translatedText' $TMP/inflight.out"
	serve_start "$TMP/serve3.log" -t 1 -m "$M" --max-connections 1 --timeout 3
	$HTTP_TOOL "$PORT" 500 <"$TMP/slow.req" >/dev/null &
	slow=$!
	sleep 0.5
	check "serve: beyond --max-connections -> 503" test "$(status "http://127.0.0.1:$PORT/languages")" = 503
	wait $slow
	serve_stop
	expect_error "serve: a bad --port" 2 $NMT serve --port 70000
	expect_error "serve: a host that is not an address" 1 $NMT serve --host example.org --port 0 -m "$M"
fi
