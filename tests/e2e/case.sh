# Sentences in capitals with the default model: translated as in sentence
# case and given back in capitals; --no-case-fold.
if has_embedded; then
	# a sentence in capitals is translated as in sentence case, its
	# translation given back in capitals; its spans as written
	printf '%s\n' 'Two young children are playing in the sand.' 'A man in a red shirt is riding a bike.' \
		'A dog runs. Two men sit on a bench.' >"$TMP/case.en"
	tr 'a-z' 'A-Z' <"$TMP/case.en" >"$TMP/case.upper.en"
	$NMT <"$TMP/case.en" >"$TMP/case.out"
	check "capitals: translated as in sentence case, given back in capitals" sh -c \
		"$NMT <$TMP/case.upper.en | cmp -s - \$(sed 's/ß/SS/g; s/ä/Ä/g; s/ö/Ö/g; s/ü/Ü/g' $TMP/case.out | tr 'a-z' 'A-Z' >$TMP/case.want; echo $TMP/case.want)"
	check "capitals: one sentence of a paragraph, the others as they were" sh -c \
		"echo 'A DOG RUNS ON THE BEACH. Two men sit on a bench.' | $NMT | grep -q '^[^a-z]*[.] [A-Z][a-z]'"
	check "capitals: a span keeps its letters" sh -c \
		"echo 'VISIT WWW.EXAMPLE.COM TODAY.' | $NMT | grep -qF 'WWW.EXAMPLE.COM'"
	check "capitals: a quoted name in capitals stays one" sh -c \
		"echo 'A BOAT NAMED \"EL CORAZON\" DROPS WEIGHTS INTO THE WATER.' | $NMT | grep '^[^a-z]*\$' | grep -qF '\"EL CORAZON\"'"
	check "--no-case-fold: translated as written" sh -c "! $NMT --no-case-fold <$TMP/case.upper.en | cmp -s - $TMP/case.want"
fi
