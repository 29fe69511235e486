#!/bin/sh
# make wasm-page: prints the translator page, TEMPLATE (wasm/index.html) with
# its marker lines replaced: @@NMT_JS@@ by wasm/nmt.js, @@WORKER_JS@@ by
# wasm/worker.js (each inside a <script type="text/plain">, so neither may
# hold "</script"), @@LIBNMT_WASM@@ by WASM's bytes in base64.
#
#   sh wasm/page.sh wasm/index.html build/wasm/libnmt.wasm >index.html
set -eu
template=$1 wasm=$2
dir=$(dirname "$0")
for f in "$dir/nmt.js" "$dir/worker.js"; do
	if grep -qi '</script' "$f"; then
		echo "page.sh: $f holds \"</script\": it cannot go inside the page" >&2
		exit 1
	fi
done
[ -s "$wasm" ] || { echo "page.sh: no $wasm" >&2; exit 1; }
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	*@@NMT_JS@@*) cat "$dir/nmt.js" ;;
	*@@WORKER_JS@@*) cat "$dir/worker.js" ;;
	*@@LIBNMT_WASM@@*) base64 -w0 "$wasm"; echo ;;
	*) printf '%s\n' "$line" ;;
	esac
done <"$template"
