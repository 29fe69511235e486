# Shell helpers the speed benchmarks share; sourced, not run:
#   . "$(dirname "$0")/common.sh"

# repeat_test_2016 CORPUS_DIR REPEAT OUT: Multi30k's test_2016_flickr.en
# REPEAT times over, into OUT.
repeat_test_2016() {
	zcat "$1/test_2016_flickr.en.gz" >"$3.one"
	: >"$3"
	_i=0
	while [ $_i -lt "$2" ]; do cat "$3.one" >>"$3"; _i=$((_i + 1)); done
	rm -f "$3.one"
}

# run_ms IN OUT CMD...: runs CMD < IN > OUT and prints its wall-clock
# milliseconds.
run_ms() {
	_in=$1 _out=$2
	shift 2
	_s=$(date +%s%N)
	"$@" <"$_in" >"$_out"
	echo $((($(date +%s%N) - _s) / 1000000))
}
