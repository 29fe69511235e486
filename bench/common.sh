# Settings and shell helpers every bench/*.sh shares; sourced, not run:
#   . "$(dirname "$0")/common.sh"
# It changes no directory: its paths, like the scripts' own, are relative to
# the repository root, where the scripts run (or cd to). Each setting keeps
# a value given in the environment; it exports nothing.

# ---- settings ----

# SHARED, MULTI30K (Multi30k task 1: the default CORPUS_DIR / CORPUS / DATA
# of the scripts that take one), MULTI30K_TASK2 (task 2's captions: the
# default MONO_DIR), OPEN_PARALLEL, FLORES (FLORES-200 dev, the validation
# set of the general-domain models: choose with it, never with FLORES
# devtest) and PYTHON: train/paths.sh, where their defaults are.
. "$(dirname "$0")/../train/paths.sh"
# SRC, TGT: the direction, for the scripts that take one (en -> de).
SRC=${SRC:-en}
TGT=${TGT:-de}

# ---- files ----

# make_tmp: TMP, a new temporary folder, removed when the script exits
# (this sets the EXIT trap).
make_tmp() {
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
}

# repeat_file FILE N OUT: FILE N times over, into OUT.
repeat_file() {
	: >"$3"
	_i=0
	while [ $_i -lt "$2" ]; do cat "$1" >>"$3"; _i=$((_i + 1)); done
}

# repeat_test_2016 CORPUS_DIR REPEAT OUT: Multi30k's test_2016_flickr.en
# REPEAT times over, into OUT.
repeat_test_2016() {
	zcat "$1/test_2016_flickr.en.gz" >"$3.one"
	repeat_file "$3.one" "$2" "$3"
	rm -f "$3.one"
}

# ---- nmt serve ----

# serve_start LOG [options] and serve_stop: $NMT serve (./nmt when NMT is
# unset) on a port the system picks, found and stopped as the end-to-end
# tests do.
. "$(dirname "$0")/../tests/e2e/serve_lib.sh"

# wrk_setup CORPUS_DIR: what a script that loads nmt serve with wrk needs
# first: exits unless wrk is installed; TMP, a new temporary folder removed
# at exit (when the server serve_start started is stopped too, if it still
# runs), and in $TMP/src CORPUS_DIR's test_2016 English sentences.
wrk_setup() {
	command -v wrk >/dev/null || { echo "$0: wrk not installed (apt-get install wrk)"; exit 1; }
	TMP=$(mktemp -d)
	SPID=
	trap '[ -z "$SPID" ] || kill "$SPID" 2>/dev/null; rm -rf "$TMP"' EXIT
	zcat -f "$1/test_2016_flickr.en.gz" >"$TMP/src"
}

# wrk_translate_lua SRC SOURCE TARGET: the start of a wrk script (Lua) that
# posts SRC's lines to /translate, one a request, round robin over
# connections, as {"q": LINE, "source": SOURCE, "target": TARGET}; i, the
# line last sent, is a local the rest of the script may set (init).
wrk_translate_lua() {
	cat <<LUA
local lines, i = {}, 0
for l in io.lines("$1") do
	lines[#lines + 1] = '{"q":"' .. l:gsub('\\\\', '\\\\\\\\'):gsub('"', '\\\\"') .. '","source":"$2","target":"$3"}'
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
	i = i % #lines + 1
	return wrk.format(nil, "/translate", nil, lines[i])
end
LUA
}

# ---- timing ----

# now_ms: the wall clock in milliseconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# secs_since NS: seconds since NS (a `date +%s%N`), to one decimal.
secs_since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

# run_ms IN OUT CMD...: runs CMD < IN > OUT and prints its wall-clock
# milliseconds.
run_ms() {
	_in=$1 _out=$2
	shift 2
	_s=$(date +%s%N)
	"$@" <"$_in" >"$_out"
	echo $((($(date +%s%N) - _s) / 1000000))
}

# least BEST MS: the smaller of the two; an empty BEST (no run yet) gives MS.
#   best=$(least "$best" "$ms")
least() {
	if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi
}

# best_ms RUNS IN OUT CMD...: run_ms RUNS times over; prints the least.
best_ms() {
	_runs=$1 _best= _r=0
	shift
	while [ $_r -lt "$_runs" ]; do
		_ms=$(run_ms "$@")
		_best=$(least "$_best" "$_ms")
		_r=$((_r + 1))
	done
	echo "$_best"
}
