#!/bin/sh
# GNOME Dialect, a desktop translator with a LibreTranslate provider, against
# `nmt serve`: it loads the provider from the server; a sentence typed into
# it a key at a time (xdotool) and Ctrl+Enter give nmt's translation, of
# which a screenshot is taken; a sentence given on its command line too.
#
#   sh tests/clients/dialect.sh [NMT] [OUTDIR]     (./nmt, build/dialect)
#
# Starts `NMT serve --port 0` (its default model) on 127.0.0.1, an X
# server (Xvfb, its own display, no TCP) and a D-Bus session
# (dbus-run-session), with Dialect's settings in a temporary XDG_CONFIG_HOME
# (GSETTINGS_BACKEND=keyfile: the LibreTranslate provider, its instance
# "localhost:PORT", which Dialect reaches over plain http), and runs
# tests/clients/dialect_driver.py there; the screenshot goes to
# OUTDIR/dialect.png. Stops everything it started.
#
# Needs Debian's dialect, xvfb, xdotool, imagemagick (import) and dbus
# (dbus-run-session); exits 77, saying which is missing, without one.
# Otherwise prints the driver's "ok: ..." / "FAIL: ..." lines and exits 0
# or 1.
NMT=${1:-./nmt}
OUT=${2:-build/dialect}
S1="A cat sleeps on the sofa."
S2="A dog runs along the beach."
for need in dialect:dialect Xvfb:xvfb xdotool:xdotool import:imagemagick dbus-run-session:dbus; do
	if ! command -v "${need%%:*}" >/dev/null 2>&1; then
		echo "dialect: skipped: ${need%%:*} is not installed (Debian: apt-get install ${need#*:})"
		exit 77
	fi
done
[ -d /usr/share/dialect/dialect ] || { echo "dialect: skipped: /usr/share/dialect (Debian's dialect) not found"; exit 77; }
. "$(dirname "$0")/../e2e/serve_lib.sh"
mkdir -p "$OUT" || exit 1
T=$(mktemp -d) || exit 1
SPID= XPID=
cleanup() {
	[ -n "$SPID" ] && serve_stop
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null && wait "$XPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

serve_start "$T/serve.log" -t 1 || { echo "FAIL: nmt serve did not start: $(cat "$T/serve.log")"; exit 1; }
want1=$(echo "$S1" | $NMT)
want2=$(echo "$S2" | $NMT)

# the X server picks a free display and writes its number to fd 3
Xvfb -displayfd 3 -screen 0 1024x600x24 -nolisten tcp 3>"$T/display" 2>"$T/xvfb.log" &
XPID=$!
for i in $(seq 40); do
	[ -s "$T/display" ] && break
	sleep 0.25
done
[ -s "$T/display" ] || { echo "FAIL: Xvfb did not start: $(tail -n 3 "$T/xvfb.log")"; exit 1; }

mkdir -p "$T/config/glib-2.0/settings"
cat >"$T/config/glib-2.0/settings/keyfile" <<EOF
[app/drey/Dialect]
window-size=[800, 400]
src-auto=true

[app/drey/Dialect/translators]
active='libretranslate'

[app/drey/Dialect/translators/libretranslate]
init=true
instance-url='localhost:$PORT'
src-langs=['en', 'de']
dest-langs=['de', 'en']

[app/drey/Dialect/tts]
active=''
EOF
rm -f "$OUT/dialect.png"
DISPLAY=:$(cat "$T/display") XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache \
	GSETTINGS_BACKEND=keyfile NO_AT_BRIDGE=1 GTK_A11Y=none HOME=$T \
	timeout 150 dbus-run-session -- "${PYTHON:-/usr/bin/python3}" -X faulthandler tests/clients/dialect_driver.py \
	"localhost:$PORT" "$S1" "$want1" "$S2" "$want2" "$OUT/dialect.png" >"$T/driver.out" 2>"$T/driver.err"
status=$?
cat "$T/driver.out"
if [ "$status" -ne 0 ]; then
	grep -q '^FAIL: ' "$T/driver.out" || echo "FAIL: dialect_driver.py exited with status $status"
	echo "dialect: its stderr, last lines:"
	grep -v 'dbus-daemon\|^$' "$T/driver.err" | tail -n 8
	exit 1
fi
exit 0
