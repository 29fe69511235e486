# Progress reports (--progress, -q): on a pipe, and on a terminal.
M=$(shared tiny.nmt)
# On a pipe nothing by default; --progress writes a line per update there;
# on a terminal (script(1) gives one) a large input shows the redrawn line
# by default and -q hides it. stdout is the same either way.
# (1,100 lines of a few words padded with spaces: over 1 MiB, quick to translate)
awk 'BEGIN { pad = sprintf("%990s", ""); for (i = 0; i < 1100; i++) print "a b c d e" pad }' >"$TMP/big.in"
$NMT -m "$M" -b 1 -t 2 <"$TMP/big.in" >"$TMP/big.plain" 2>"$TMP/big.err"
check "progress: none on a pipe by default" test ! -s "$TMP/big.err"
$NMT -m "$M" -b 1 -t 2 --progress <"$TMP/big.in" >"$TMP/big.out" 2>"$TMP/big.err"
check "progress: --progress reports lines, words/s and ETA" grep -q '^nmt: 1,100 lines, [0-9,]* words/s, 100%, ETA 0:00$' "$TMP/big.err"
check "progress: ... stdout unchanged" cmp -s "$TMP/big.plain" "$TMP/big.out"
check "progress: -q wins when last" sh -c "$NMT -m $M -b 1 --progress -q <$TMP/big.in 2>&1 >/dev/null | wc -c | grep -qx 0"
if command -v script >/dev/null 2>&1 && [ "$(wc -c <"$TMP/big.in")" -ge 1048576 ]; then
	script -qec "$NMT -m $M -b 1 -t 2 <$TMP/big.in >$TMP/big.tty" "$TMP/tty.log" >/dev/null 2>&1 </dev/null
	check "progress: on a terminal by default for a large input" grep -q 'nmt: 1,100 lines' "$TMP/tty.log"
	check "progress: ... stdout unchanged" cmp -s "$TMP/big.plain" "$TMP/big.tty"
	script -qec "$NMT -m $M -b 1 -t 2 -q <$TMP/big.in >$TMP/big.tty" "$TMP/tty.log" >/dev/null 2>&1 </dev/null
	check "progress: -q hides it on a terminal" sh -c "! grep -q 'nmt: ' $TMP/tty.log"
fi
