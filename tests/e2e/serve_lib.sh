# Starting and stopping `nmt serve` for a script that talks to it; sourced,
# not run: by lib.sh (for the end-to-end features), tests/clients/dialect.sh
# and bench/common.sh (bench/serve.sh, bench/serve_soak.sh), so that all of
# them find the server's port and stop it the same way.

# serve_start LOG [options]: starts $NMT serve (./nmt when NMT is unset,
# with options, its stderr into LOG) on a port the system picks (--port 0),
# read from the line it prints once listening; sets SPID (its process) and
# PORT (empty, and status 1, if it did not say within 10 s).
serve_start() {
	serve_log=$1
	shift
	${NMT:-./nmt} serve --port 0 "$@" 2>"$serve_log" &
	SPID=$!
	PORT=
	serve_tries=0
	while [ -z "$PORT" ] && [ "$serve_tries" -lt 40 ]; do
		PORT=$(sed -n 's/^nmt: serving .* on http:\/\/127.0.0.1:\([0-9]*\) .*/\1/p' "$serve_log" 2>/dev/null || true)
		[ -n "$PORT" ] || sleep 0.25
		serve_tries=$((serve_tries + 1))
	done
	[ -n "$PORT" ]
}

# serve_stop: SIGTERM to the server serve_start started, and its exit
# status once it has exited (0 after a clean shutdown); SPID is emptied, so
# that an EXIT trap that stops a server still running finds none.
serve_stop() {
	kill "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
	serve_status=$?
	SPID=
	return "$serve_status"
}
