# shellcheck shell=sh
# Sourced by the training scripts (POSIX sh, run from the repository root).
#
# logged [-a] LOG CMD...: CMD run with its output shown and written to LOG
# (-a: appended), failing as CMD fails. `CMD | tee LOG` would take tee's
# status instead, so under `set -e` a failed step would let the next one
# start on missing files; POSIX sh has no pipefail.
logged() {
	logged_mode=
	if [ "$1" = -a ]; then
		logged_mode=-a
		shift
	fi
	logged_file=$1
	shift
	logged_status=$(mktemp)
	{
		if "$@"; then logged_rc=0; else logged_rc=$?; fi
		echo "$logged_rc" >"$logged_status"
	} | tee $logged_mode "$logged_file"
	logged_rc=$(cat "$logged_status")
	rm -f "$logged_status"
	return "$logged_rc"
}
