# libnmt: the library's example programs (examples/, linked with libnmt.a;
# EXAMPLES: their directory) translate as nmt does, libnmt.so exports
# exactly nmt.h's functions and the embedded model, and the Python binding's
# copies of nmt.h's numbers are nmt.h's.
M=$(shared tiny.nmt)

# ---- the library's example programs (examples/, linked with libnmt.a) --------
X=${EXAMPLES:-build/host/examples}
if [ -z "${E2E_SANITIZED:-}" ]; then
	printf 'A dog runs along the beach.\nTwo men are talking.\n\nA girl in a red coat sits on a bench.\n' >"$TMP/ex.en"
	$NMT -m "$M" <"$TMP/ex.en" >"$TMP/ex.cli"
	${RUNNER:-} $X/translate "$M" "A dog runs along the beach." "Two men are talking." "" \
		"A girl in a red coat sits on a bench." >"$TMP/ex.lib"
	check "example translate: same as nmt" sh -c "test -s $TMP/ex.lib && cmp -s $TMP/ex.cli $TMP/ex.lib"
	$NMT -m "$M" -b 4 --nbest 3 <"$TMP/ex.en" >"$TMP/exn.cli"
	${RUNNER:-} $X/translate -b 4 -n 3 "$M" "A dog runs along the beach." "Two men are talking." "" \
		"A girl in a red coat sits on a bench." >"$TMP/exn.lib"
	check "example translate: same n-best as nmt --nbest" sh -c "test -s $TMP/exn.lib && cmp -s $TMP/exn.cli $TMP/exn.lib"
	awk -F '\t' '$1 == "sent" { print $3 }' "$FIX/expected.txt" >"$TMP/ex40.en"
	# (not under qemu-user, where a dynamic glibc program's threads never start)
	if [ -z "${RUNNER:-}" ]; then
		$NMT -m "$M" -b 1 <"$TMP/ex40.en" >"$TMP/ex40.cli"
		$X/threads "$M" 3 <"$TMP/ex40.en" >"$TMP/ex40.lib"
		check "example threads: 3 threads sharing one model, same as nmt" sh -c "test -s $TMP/ex40.lib && cmp -s $TMP/ex40.cli $TMP/ex40.lib"
	fi
	${RUNNER:-} $X/translate "$TMP/does-not-exist.nmt" "A dog." >/dev/null 2>"$TMP/ex.err"
	check "example translate: a missing model is an error with a message" grep -q 'does-not-exist.nmt' "$TMP/ex.err"
fi

# ---- libnmt.so exports nmt.h's functions and the embedded model, nothing else --
if [ -f libnmt.so ] && command -v nm >/dev/null 2>&1 && [ -z "${E2E_SANITIZED:-}" ]; then
	nm -D --defined-only libnmt.so | awk '{ print $3 }' | sort >"$TMP/so.syms"
	{ grep -oE '\bnmt_[a-z_]+\(' nmt.h | tr -d '('; echo nmt_embedded_model; echo nmt_embedded_model_size; } |
		sort -u >"$TMP/h.syms"
	check "libnmt.so: exactly nmt.h's API and the embedded model" cmp -s "$TMP/so.syms" "$TMP/h.syms"
fi

# ---- python/nmt's copies of nmt.h's numbers (ctypes cannot read a #define) ----
if command -v "$PYTHON" >/dev/null 2>&1; then
	sed -n 's/^#define \(NMT_[A-Z_]*\) \([0-9][0-9]*\)u\{0,1\}\([^0-9].*\)\{0,1\}$/\1 \2/p' nmt.h | LC_ALL=C sort >"$TMP/h.consts"
	"$PYTHON" -B -c 'import sys; sys.path.insert(0, "python"); import nmt
for k, v in vars(nmt).items():
    if k.startswith("NMT_"): print(k, v)' | LC_ALL=C sort >"$TMP/py.consts"
	check "python/nmt: its NMT_ constants are nmt.h's" \
		sh -c "test -s $TMP/py.consts && LC_ALL=C comm -23 $TMP/py.consts $TMP/h.consts | cmp -s - /dev/null"
fi
