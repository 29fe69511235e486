#!/bin/sh
# valgrind memcheck on end-to-end runs of the host builds of nmt and
# model-pack (glibc, so valgrind sees every allocation; the static musl
# binaries hide theirs): no invalid access, no uninitialized value used, no
# leak. Run by `make memcheck` from the repository root; prints
# "memcheck: N passed, M failed".
set -u
NMT=$1
PACK=$2
DEFAULT=${3:-}   # the default model's packed file, if the build has one
M=build/tiny_vmap_small.nmt
FIX=tests/fixtures/tiny
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"

run() { # run NAME COMMAND...: clean under memcheck, and the command's own status 0
	name=$1; shift
	if $VG "$@" >"$TMP/out" 2>"$TMP/err"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $name"; head -n 30 "$TMP/err"
	fi
}

{
	printf 'A man in a red shirt.\n\nTwo dogs play in the snow.\r\n   \n'
	printf 'caf\351 \000 \344\270\255\n'
	yes 'A dog runs on the beach.' | head -n 150 | tr '\n' ' '
	printf '\nlast line'
} >"$TMP/in"
run "tiny model, greedy, 2 threads" sh -c "exec $NMT -m $M -b 1 -t 2 <$TMP/in"
run "tiny model, beam 4, 4-best, shortlist off" sh -c "exec $NMT -m $M -b 4 --nbest 4 --no-shortlist <$TMP/in"
[ -n "$DEFAULT" ] && run "the default model, beam 4" sh -c "exec $NMT -m $DEFAULT -b 4 <$TMP/in"
printf '%s\n' 'A man pays $4.50 at 10:30. Two dogs run (see https://example.com/a). A dog runs.' \
	'The <b>red</b> car <a href="x">is</a> parked.<br>A <i>dog <b>runs</b></i> &amp; <code>ls</code>' >"$TMP/real"
[ -n "$DEFAULT" ] && run "the default model: paragraphs, spans, alignments, n-best JSON" \
	sh -c "exec $NMT -m $DEFAULT -b 4 --nbest 2 --alignment --json <$TMP/real"
[ -n "$DEFAULT" ] && run "the default model: --html" sh -c "exec $NMT -m $DEFAULT -b 1 --html --alignment <$TMP/real"
run "nmt info --verify" $NMT info --verify "$M"
run "a bad model file" sh -c "head -c 5000 $M >$TMP/bad.nmt; $NMT -m $TMP/bad.nmt </dev/null; test \$? -eq 1"
run "model-pack q4 with map and tables" $PACK --quant q4 --precompute-top 20 --vmap "$FIX/vmap_small.txt" \
	-o "$TMP/q4.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
run "the packed q4 model translates" sh -c "exec $NMT -m $TMP/q4.nmt -b 2 <$TMP/in"
echo "memcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
