# The default model, embedded in ./nmt: the binary alone translates (into
# German, with the letters German needs); without it, a clear error.
if has_embedded; then
	# the default model is embedded: the binary alone translates, from anywhere
	check "embedded model translates" sh -c "cd / && echo 'A dog runs along the beach.' | ${RUNNER:-} $PWD/nmt -b 1 | grep -q '[a-z]'"
	check "nmt info describes the embedded model" sh -c "$NMT info | grep -q '^file: (embedded)' && $NMT info --verify | grep -q '^arch=gru-fc-1'"
	check "embedded model: one line per line" test "$(printf 'A dog.\n\nTwo cats.\n' | $NMT -b 1 | wc -l)" -eq 3
	# a trained English->German model, not noise: the words any such model knows
	check "embedded model speaks German (beam 4)" sh -c "echo 'Two young children are playing in the sand.' | $NMT | grep -q 'Kinder'"
	check "embedded model speaks German (greedy)" sh -c "echo 'A man and a woman are sitting on a bench.' | $NMT -b 1 | grep -q 'Mann'"
	# its target vocabulary spells German: capital umlauts and digits come
	# out as themselves, not as the unknown piece " ⁇ " (an earlier default
	# model wrote " ⁇ rzte", " ⁇ bung", "Nummer  ⁇ " here)
	printf '%s\n' 'Two doctors are examining a patient.' 'A girl in a red shirt is doing an exercise on a mat.' \
		'A boy wears a jersey with the number 23.' >"$TMP/unk.en"
	for b in 1 4; do
		check "embedded model writes no unknown piece (beam $b)" sh -c "$NMT -b $b <$TMP/unk.en | grep -c '⁇' | grep -qx 0"
	done
	# a long line of many sentences (over 200 pieces) loses none of them: it
	# translates to its sentences' translations, one after the other
	awk -F '\t' '$1 == "sent" && $3 != "x" { print $3 }' tests/fixtures/tiny/expected.txt >"$TMP/sents"
	for i in 1 2 3 4 5 6; do cat "$TMP/sents"; done >"$TMP/sents6"
	$NMT -b 1 <"$TMP/sents6" | tr '\n' ' ' | sed 's/ $//' >"$TMP/words.lines"
	echo >>"$TMP/words.lines"
	tr '\n' ' ' <"$TMP/sents6" | $NMT -b 1 >"$TMP/words.long"
	check "embedded model: a long line of sentences keeps them all" \
		sh -c "cmp -s $TMP/words.long $TMP/words.lines && [ \$(wc -w <$TMP/words.lines) -gt 100 ]"
else
	expect_error "no embedded model" 1 $NMT
	expect_error "nmt info: no embedded model" 1 $NMT info
fi
