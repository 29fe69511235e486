# The tiny fixture model: packed, described, and translating exactly as the
# PyTorch reference does (greedy and beam 4, n-best lists); the repetition
# guard; one output line per input line.
check "model-pack packs the fixture" $PACK -o "$TMP/tiny.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
M="$TMP/tiny.nmt"
check "nmt info" sh -c "$NMT info $M | grep -q '^arch=gru-fc-1'"
check "nmt info --verify" sh -c "$NMT info --verify $M | grep -q 'checksums OK'"

awk -F '\t' '$1 == "sent" { print $3 }' "$FIX/expected.txt" >"$TMP/src.txt"
n_sent=$(wc -l <"$TMP/src.txt")
for beam in 1 4; do
	i=0
	: >"$TMP/want.$beam"
	while [ "$i" -lt "$n_sent" ]; do
		field text "$i" "$beam" 0 >>"$TMP/want.$beam"
		i=$((i + 1))
	done
	# the reference search has no repetition guard and translates a
	# sentence in capitals as written: parity is without either
	$NMT -m "$M" -b "$beam" --no-repeat-guard --no-case-fold <"$TMP/src.txt" >"$TMP/unguarded.$beam"
	check "beam $beam output equals the PyTorch reference" cmp -s "$TMP/want.$beam" "$TMP/unguarded.$beam"
	# with it (the default), the random model's loops go: no word three
	# times in a row, no letter four times (test_engine checks that only
	# looping translations change)
	$NMT -m "$M" -b "$beam" <"$TMP/src.txt" >"$TMP/got.$beam"
	check "beam $beam: the repetition guard changes some lines" sh -c "! cmp -s $TMP/got.$beam $TMP/unguarded.$beam"
	check "beam $beam: with the repetition guard, no loops" sh -c "awk '
		{ n = split(\$0, w, \" \"); for (i = 3; i <= n; i++) if (w[i] == w[i - 1] && w[i] == w[i - 2]) bad++
		  for (i = 1; i + 3 <= length(\$0); i++) { c = substr(\$0, i, 1)
			if (c ~ /[a-z]/ && substr(\$0, i, 4) == c c c c) bad++ } }
		END { exit bad > 0 }' $TMP/got.$beam"
done

head -n 2 "$TMP/src.txt" | $NMT -m "$M" -b 4 --nbest 4 --no-repeat-guard >"$TMP/nbest"
check "nbest line count" test "$(wc -l <"$TMP/nbest")" -eq 8
check "nbest format" sh -c "awk -F ' [|][|][|] ' 'NF != 4 || \$1 !~ /^[01]\$/ { exit 1 }' $TMP/nbest"
want=$(field text 1 4 2)
check "nbest third hypothesis" sh -c "sed -n 7p $TMP/nbest | awk -F ' [|][|][|] ' '{print \$2}' | grep -qxF -- '$want'"

# one output line per input line: empty lines, CRLF, no final newline, blanks
printf 'A dog.\n\n\r\nTwo men.\r\n   \nlast line' >"$TMP/lines"
$NMT -m "$M" -b 1 <"$TMP/lines" >"$TMP/lines.out"
check "one output line per input line" test "$(wc -l <"$TMP/lines.out")" -eq 6
check "empty line gives empty line" sh -c "sed -n 2p $TMP/lines.out | grep -qx ''"
check "CRLF line equals LF line" sh -c "[ \"\$(sed -n 4p $TMP/lines.out)\" = \"\$(printf 'Two men.\n' | $NMT -m $M -b 1)\" ]"
check "empty input gives empty output" sh -c "$NMT -m $M </dev/null | wc -c | grep -qx 0"
