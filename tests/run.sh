#!/bin/sh
# Runs every cmocka test binary given as an argument (through $RUNNER, e.g.
# qemu, if set), then the end-to-end tests, then the docs' path check, and prints one closing line
# "N passed, M failed".
passed=0
failed=0
for t in "$@"; do
	out=$(${RUNNER:-} "$t" 2>&1)
	status=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/.*\[  FAILED  \] \([0-9]*\) test(s).*/\1/p' | tail -n 1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	if [ "$status" -ne 0 ] && [ -z "$f" ]; then
		echo "$t: exited with status $status"
		failed=$((failed + 1))
	fi
done
# The end-to-end tests, on ./nmt and ./model-pack; with E2E_SANITIZED_BUILD
# ("NMT PACK": make test SANITIZE=1's ASan/UBSan programs) on those instead,
# as plain make test has run them on the static programs already.
if [ -n "${E2E_SANITIZED_BUILD:-}" ]; then
	set -- $E2E_SANITIZED_BUILD
	e2e=$(NMT=$1 PACK=$2 E2E_SANITIZED=1 sh tests/e2e/run.sh 2>&1 | sed 's/^e2e\([:/]\)/e2e-sanitized\1/')
	summary=e2e-sanitized
else
	e2e=$(sh tests/e2e/run.sh 2>&1)
	summary=e2e
fi
printf '%s\n' "$e2e"
p=$(printf '%s\n' "$e2e" | sed -n "s/^$summary: \([0-9]*\) passed, \([0-9]*\) failed\$/\1/p")
f=$(printf '%s\n' "$e2e" | sed -n "s/^$summary: \([0-9]*\) passed, \([0-9]*\) failed\$/\2/p")
if [ -z "$p" ]; then
	echo "$summary: did not finish"
	f=$((${f:-0} + 1))
fi
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))
if [ -n "${PYTEST:-}" ]; then   # the Python binding's tests (python/tests)
	out=$($PYTEST 2>&1)
	status=$?
	printf '%s\n' "$out" | tail -n 15
	p=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/.* \([0-9]*\) passed.*/\1/p; s/^\([0-9]*\) passed.*/\1/p' | head -n 1)
	f=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) failed.*/\1/p; s/.* \([0-9]*\) failed.*/\1/p' | head -n 1)
	[ "$status" -ne 0 ] && [ -z "$f" ] && f=1
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
fi
# the paths README.md and docs/ name exist
if sh tests/doc_paths.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
