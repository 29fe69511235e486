# Shared by the end-to-end tests (tests/e2e/): sourced by run.sh, which
# sources each feature file in a subshell of its own with TMP set to that
# feature's own empty directory and passed/failed set to 0.
#
# NMT and PACK may name other builds of the same programs (make test
# SANITIZE=1 runs the tests again with ASan/UBSan-instrumented ones; make
# test ARCH=aarch64 gives them as "qemu-aarch64-static ./nmt", and RUNNER
# runs the other test programs the same way).
NMT=${NMT:-./nmt}
PACK=${PACK:-./model-pack}
NMT_BIN=${NMT##* } PACK_BIN=${PACK##* }   # the programs themselves, without a qemu in front
# MULTI30K, PYTHON, ...: train/paths.sh's, unless the environment gives them (make test does).
. "$E2E_DIR/../../train/paths.sh"
FIX=tests/fixtures/tiny
# E2E_TMP: the run's temporary directory (run.sh makes it and removes it);
# a feature's own is $E2E_TMP/FEATURE, artifacts several features use are
# made once in $E2E_TMP/shared (see shared below).
# NOOUT: the output path of every model-pack run that must fail, in every
# feature: pack.sh, which runs last, checks that none left a file there.
NOOUT=$E2E_TMP/x.nmt

ok() { # (E2E_VERBOSE=1: a line for every check passed too)
	passed=$((passed + 1))
	[ -z "${E2E_VERBOSE:-}" ] || echo "ok: $e2e_name"
}
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { # check NAME COMMAND...: the command must succeed
	e2e_name=$1; shift
	if "$@"; then ok; else bad "$e2e_name"; fi
}

# relay NAME FILE: the "ok: CHECK" and "FAIL: CHECK" lines that a test
# program run outside this shell (a client, a driver) wrote into FILE,
# counted here as checks "NAME: CHECK"; other lines are passed over.
relay() {
	while IFS= read -r e2e_line; do
		case $e2e_line in
		"ok: "*) e2e_name="$1: ${e2e_line#ok: }"; ok ;;
		"FAIL: "*) bad "$1: ${e2e_line#FAIL: }" ;;
		esac
	done <"$2"
}

# expect_error NAME STATUS CMD...: exit STATUS, exactly one stderr line "nmt: ..." (or "model-pack: ...")
expect_error() {
	e2e_name=$1 e2e_want=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	e2e_status=$?
	e2e_lines=$(wc -l <"$TMP/err")
	if [ "$e2e_status" -eq "$e2e_want" ] && [ "$e2e_lines" -eq 1 ] && grep -Eq '^(nmt|model-pack): ' "$TMP/err"; then
		ok
	else
		bad "$e2e_name (status $e2e_status, want $e2e_want; stderr: $(cat "$TMP/err"))"
	fi
}

field() { # field KIND SENT BEAM RANK: the expected text from expected.txt
	awk -F '\t' -v k="$1" -v s="$2" -v b="$3" -v r="$4" \
		'$1 == k && $2 == s && $3 == b && $4 == r { print $5 }' "$FIX/expected.txt"
}

# has_embedded: this nmt is ./nmt itself with the default model embedded
# (the features on the default model are checked only then)
has_embedded() {
	[ "$NMT_BIN" = ./nmt ] && [ -f models/ende.safetensors ]
}

# shared NAME: prints the path of a packed fixture model several features
# translate with, packing it on first use (a failure is reported here and
# the checks that use it fail):
#   tiny.nmt  the tiny model (translate.sh checks packing it, into its own $TMP)
#   q8.nmt, q4.nmt, q4n.nmt, i8.nmt  the same quantized (pack.sh checks these)
#   vmap.nmt  the same with the small vocabulary map (pack.sh too)
shared() {
	e2e_f=$E2E_TMP/shared/$1
	if [ ! -s "$e2e_f" ]; then
		mkdir -p "$E2E_TMP/shared"
		case $1 in
		tiny.nmt) set -- ;;
		q8.nmt | q4.nmt | q4n.nmt | i8.nmt) set -- --quant "${1%.nmt}" ;;
		vmap.nmt) set -- --vmap "$FIX/vmap_small.txt" ;;
		*) echo "e2e: no shared artifact $1" >&2; return 1 ;;
		esac
		$PACK "$@" -o "$e2e_f" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model" >/dev/null 2>"$e2e_f.err" ||
			echo "e2e: packing the shared ${e2e_f##*/} failed: $(cat "$e2e_f.err")" >&2
	fi
	echo "$e2e_f"
}

# serve_start LOG [options], serve_stop: nmt serve on a free port (serve_lib.sh)
. "$E2E_DIR/serve_lib.sh"
