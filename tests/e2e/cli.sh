# The binaries and their command line: static linking, --help, --version,
# options and their errors (exit 2 for usage, 1 for the rest).
if [ "$NMT_BIN" = ./nmt ]; then
	check "nmt is statically linked" sh -c "readelf -l $NMT_BIN | grep -q LOAD && ! readelf -l $NMT_BIN | grep -q INTERP"
	check "model-pack is statically linked" sh -c "readelf -l $PACK_BIN | grep -q LOAD && ! readelf -l $PACK_BIN | grep -q INTERP"
fi
check "--help" sh -c "$NMT --help | grep -q usage"
check "--version" sh -c "$NMT --version | grep -q '^nmt '"
expect_error "unknown option" 2 $NMT --bogus
expect_error "beam 0" 2 $NMT -b 0
expect_error "beam 9" 2 $NMT --beam 9
expect_error "nbest > beam" 2 $NMT -b 2 --nbest 3
expect_error "missing option value" 2 $NMT -m
check "a missing value names its option (-m at the end of the line)" sh -c "$NMT -m </dev/null 2>&1 | grep -qx 'nmt: option -m needs a value (try --help)'"
check "a missing value names its option (--model)" sh -c "$NMT --model </dev/null 2>&1 | grep -q 'option --model needs'"
expect_error "stray argument" 2 $NMT something
expect_error "unknown device" 2 $NMT --device gpu
# this build has no CUDA path (make CUDA=1 builds nmt-cuda): a clear error before any input is read
expect_error "--device cuda without CUDA" 1 $NMT --device cuda
expect_error "nmt info: two models" 2 $NMT info a.nmt b.nmt
