# GNOME Dialect (a desktop LibreTranslate client) against nmt serve:
# tests/clients/dialect.sh runs it under Xvfb, types a sentence into it
# (xdotool), finds nmt's translation in its window, gives it another on its
# command line, and saves a screenshot to build/dialect/dialect.png. Needs
# ./nmt itself with the default model (not a qemu or sanitized build) and
# Debian's dialect, xvfb, xdotool, imagemagick and dbus-daemon (.ci/run
# installs them): skipped, saying why, otherwise (a failure instead with
# NMT_CLIENTS_REQUIRED=1, as .ci/run sets it, when only a package is missing).
if ! has_embedded || [ "$NMT" != ./nmt ]; then
	echo "note: dialect: skipped: needs ./nmt itself with the default model embedded"
else
	sh tests/clients/dialect.sh ./nmt build/dialect >"$TMP/dialect.out" 2>&1
	d_status=$?
	if [ "$d_status" -eq 77 ] && [ "${NMT_CLIENTS_REQUIRED:-}" = 1 ]; then
		bad "dialect: cannot run (NMT_CLIENTS_REQUIRED=1): $(cat "$TMP/dialect.out")"
	elif [ "$d_status" -eq 77 ]; then
		echo "note: $(cat "$TMP/dialect.out")"
	else
		relay dialect "$TMP/dialect.out"
		[ "$d_status" -eq 0 ] || bad "dialect: tests/clients/dialect.sh exited with status $d_status: $(tail -n 6 "$TMP/dialect.out" | tr '\n' ' ')"
	fi
fi
