#!/bin/sh
# End-to-end tests of the built binaries (./nmt, ./model-pack) on the tiny
# fixture model and the installed ones, one file per feature in this
# directory. Run from the repository root after `make` (make test does,
# through tests/run.sh):
#
#   tests/e2e/run.sh                 every feature, in the order below
#   tests/e2e/run.sh marian html     only those (still in that order)
#   tests/e2e/run.sh -l              the features' names
#   HTTP_TOOL=build/host/tests/http_tool tests/e2e/run.sh serve
#                                    (serve.sh needs it, as make test sets it)
#
# Environment, as make test sets it (each optional): NMT, PACK (other
# builds of the programs, e.g. "qemu-aarch64-static ./nmt"), RUNNER (runs
# the other test programs), E2E_SANITIZED (the programs are ASan builds),
# REPLAY (the fuzz replayers' directory), EXAMPLES (the example programs'),
# HTTP_TOOL (tests/http_tool, for serve.sh), SHIPPED (the packed models
# make install installs, for shipped.sh), CAPTIONS (the caption models
# make caption-models packs, for shipped.sh), NMT_PROFILE (nmt built with
# make PROFILE=1's timers, for profile.sh), MULTI30K and PYTHON (train/paths.sh's
# by default: Multi30k for wasm.sh and wasm_lib.sh, the Python detect.sh
# checks JSON with); E2E_VERBOSE=1 also prints "ok: NAME" for each check
# passed.
#
# Each feature runs in a subshell of its own, with lib.sh's helpers and an
# empty $TMP; what several need (the packed tiny model and its q8, q4 and
# vmap versions) is made once on first use (lib.sh, shared). Prints a
# "FAIL: ..." line per failed check, "e2e/FEATURE: N passed, M failed, S s" per
# feature (S: its seconds, to see where the suite's time goes) and last "e2e: N passed, M failed" (tests/run.sh reads that line);
# exits 1 if a check failed or a feature did not finish, 2 on a bad argument.
set -u
E2E_DIR=$(dirname "$0")
# The order: pack.sh last, so that its check that no failed model-pack run
# left output behind sees every such run of the suite (marian.sh's too).
FEATURES="cli embedded split output spans case html translate kernels threads input fuzz library badmodels
	marian profile folders languages detect shipped serve browser clients dialect progress wasm wasm_lib pack"

if [ "${1:-}" = -l ]; then
	for f in $FEATURES; do echo "$f"; done
	exit 0
fi
run=
for arg in "$@"; do
	arg=${arg##*/} arg=${arg%.sh}
	case " $(echo $FEATURES) " in
	*" $arg "*) ;;
	*) echo "e2e: no feature '$arg' (features: $(echo $FEATURES))" >&2; exit 2 ;;
	esac
done
for f in $FEATURES; do
	if [ $# -eq 0 ]; then
		run="$run $f"
	else
		for arg in "$@"; do
			a=${arg##*/}; [ "${a%.sh}" = "$f" ] && { run="$run $f"; break; }
		done
	fi
done

E2E_TMP=$(mktemp -d)
trap 'rm -rf "$E2E_TMP"' EXIT
. "$E2E_DIR/lib.sh"

total_passed=0
total_failed=0
for f in $run; do
	mkdir "$E2E_TMP/$f"
	started=$(date +%s)
	(
		TMP=$E2E_TMP/$f
		passed=0
		failed=0
		. "$E2E_DIR/$f.sh"
		echo "$passed $failed" >"$E2E_TMP/$f.count"
	)
	if [ -s "$E2E_TMP/$f.count" ]; then
		read -r p n <"$E2E_TMP/$f.count"
		skipped=
		[ "$p" -eq 0 ] && [ "$n" -eq 0 ] && skipped=" (skipped here: see tests/e2e/$f.sh for what it needs)"
		echo "e2e/$f: $p passed, $n failed$skipped, $(($(date +%s) - started)) s"
	else
		p=0 n=1
		echo "FAIL: $f.sh did not finish"
		echo "e2e/$f: did not finish"
	fi
	total_passed=$((total_passed + p))
	total_failed=$((total_failed + n))
done

echo "e2e: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
