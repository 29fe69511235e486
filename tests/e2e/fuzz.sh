# The fuzz harnesses over their committed corpora (tests/fuzz/), replayed
# clean (REPLAY: the replayers' directory, make test's build/host/tests/fuzz).
R=${REPLAY:-build/host/tests/fuzz}
if [ -z "${E2E_SANITIZED:-}" ]; then
	for n in model tokenizer lines translate split spans html marian http json form langid inflate folder; do
		check "fuzz corpus replays clean: $n" sh -c "${RUNNER:-} $R/replay_$n tests/fuzz/$n >/dev/null"
	done
fi
