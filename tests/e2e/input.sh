# Hostile input (invalid UTF-8, NUL bytes, control characters, a 1 MB line:
# docs/INPUT.md), --max-length, and failures of the output and the input.
M=$(shared tiny.nmt)

# ---- hostile input: exactly one output line per input line, in order --------
# Plain lines between hostile ones must translate as they do alone.
plain=$(printf 'A dog.\n' | $NMT -m "$M" -b 1)
{
	printf 'A dog.\n'; printf 'caf\351 \377\376 \300\257 broken UTF-8\n'
	printf 'A dog.\n'; printf 'NUL\000bytes\000inside\n'
	printf 'A dog.\n'; printf 'bell\007 escape\033[31m delete\177 tab\t end\n'
	printf 'A dog.\n'; printf '\344\270\255\346\226\207 \340\270\201\340\270\262 \330\247\331\204\n'
	printf 'A dog.\n'; printf ' \t  \t \n'
	printf 'A dog.\n'; printf '\n'
	printf 'A dog.\r\n'; printf 'A dog.'
} >"$TMP/hostile"
$NMT -m "$M" -b 1 <"$TMP/hostile" >"$TMP/hostile.out" 2>"$TMP/hostile.err"
check "hostile input: exit 0, nothing on stderr" test $? -eq 0 -a ! -s "$TMP/hostile.err"
check "hostile input: one output line per input line" test "$(wc -l <"$TMP/hostile.out")" -eq 14
check "hostile input: the plain lines are unchanged" \
	sh -c "awk 'NR % 2 == 1 || NR == 14' $TMP/hostile.out | grep -cxF -- \"$plain\" | grep -qx 8"
check "hostile input: whitespace-only and empty lines give empty lines" \
	sh -c "sed -n '10p;12p' $TMP/hostile.out | grep -c '^\$' | grep -qx 2"

# A 1 MB line is translated whole, segment by segment (docs/INPUT.md), in
# bounded memory: 256 MB of address space, of which the old whole-line
# encoder needed 1.2 GB (not checked under ASan, whose shadow memory is huge).
# Under an emulator (RUNNER: qemu-user, some 50 times slower) a 64 KB line,
# still hundreds of segments; the memory bound is not checked there anyway.
line_bytes=1048576
[ -n "${RUNNER:-}" ] && line_bytes=65536
yes 'A man in a red shirt runs on the beach.' | head -c $line_bytes | tr '\n' ' ' >"$TMP/mb"
printf '\nA dog.\n' >>"$TMP/mb"
limit=   # not under ASan or qemu, which reserve huge address spaces
[ -z "${E2E_SANITIZED:-}" ] && [ -z "${RUNNER:-}" ] && limit="ulimit -v 262144;"
sh -c "$limit exec timeout 600 $NMT -m $M -b 1" <"$TMP/mb" >"$TMP/mb.out" 2>"$TMP/mb.err"
check "$line_bytes-byte line: exit 0 within the limits" test $? -eq 0 -a ! -s "$TMP/mb.err"
check "$line_bytes-byte line: one output line for it, one for the next" test "$(wc -l <"$TMP/mb.out")" -eq 2
check "$line_bytes-byte line: the next line is unchanged" sh -c "sed -n 2p $TMP/mb.out | grep -qxF -- \"$plain\""
check "$line_bytes-byte line: every segment translated (over a tenth of its size in output)" \
	test "$(head -n 1 "$TMP/mb.out" | wc -c)" -gt $((line_bytes / 10))

# --max-length N: at most N target pieces, so at most N words, on every line
$NMT -m "$M" -b 4 --max-length 3 <"$TMP/hostile" >"$TMP/maxlen.out"
check "--max-length 3: one line per input line" test "$(wc -l <"$TMP/maxlen.out")" -eq 14
check "--max-length 3: no line over 3 words" sh -c "awk 'NF > 3 { exit 1 }' $TMP/maxlen.out"

# ---- output and input failures ----------------------------------------------
# A reader that goes away: nmt ends quietly, by SIGPIPE (status 141) or 0.
yes 'A dog.' | head -n 20000 >"$TMP/many2"
( $NMT -m "$M" -b 1 <"$TMP/many2"; echo $? >"$TMP/pipe.status" ) 2>"$TMP/pipe.err" | head -n 1 >/dev/null
check "closed pipe: status 141 or 0" grep -Eqx '141|0' "$TMP/pipe.status"
check "closed pipe: nothing on stderr" test ! -s "$TMP/pipe.err"
expect_error "full disk: a write error, not silent loss" 1 sh -c "exec $NMT -m $M -b 1 <$TMP/many2 >/dev/full"
expect_error "unreadable input (a directory)" 1 sh -c "exec $NMT -m $M -b 1 <$TMP"
