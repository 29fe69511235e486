# Output formats with the default model: --alignment and --json, alone and
# with --nbest (the plain n-best lists: translate.sh).
if has_embedded; then
	# --alignment: " ||| S-T ..." after the translation, one pair per target
	# word, every index a word of the source line / of the output line; the
	# translations themselves unchanged
	printf '%s\n' 'A man in a blue shirt is riding a bike. Two dogs play in the snow!' \
		'Two young children are playing in the sand.' '' 'A dog.   A cat.' >"$TMP/al.en"
	$NMT --alignment <"$TMP/al.en" >"$TMP/al.out"
	check "--alignment: indices within the source and output words, one per target word" sh -c "paste -d '\t' $TMP/al.en $TMP/al.out | awk -F '\t' '
		{ ns = split(\$1, S, \" \"); n = split(\$2, parts, \" [|][|][|] \"); if (\$1 != \"\" && n != 2) exit 1
		  nt = split(parts[1], T, \" \"); np = split(parts[2], P, \" \"); if (np != nt) exit 1
		  for (i = 1; i <= np; i++) { split(P[i], st, \"-\"); if (st[1] >= ns || st[2] >= nt) exit 1 } }'"
	check "--alignment: the translations are those without it" sh -c \
		"$NMT <$TMP/al.en | cmp -s - \$(sed 's/ [|][|][|] .*//' $TMP/al.out >$TMP/al.text; echo $TMP/al.text)"
	check "--alignment --nbest: LINE ||| TEXT ||| ALIGNMENT ||| SCORE ||| LOGPROB" sh -c \
		"head -n 2 $TMP/al.en | $NMT --alignment --nbest 2 | awk -F ' [|][|][|] ' 'NF != 5 || \$3 !~ /^[0-9]+-[0-9]+( [0-9]+-[0-9]+)*\$/ { exit 1 }'"
	# --json: one object a line, a "word" per word of the translation
	$NMT --json --alignment <"$TMP/al.en" >"$TMP/al.json"
	check "--json: one object per input line" sh -c \
		"[ \$(wc -l <$TMP/al.json) -eq 4 ] && ! grep -qv '^{\"translation\":\".*}\$' $TMP/al.json"
	check "--json: a word and its probability for each word" sh -c "paste -d '\t' $TMP/al.text $TMP/al.json | awk -F '\t' '
		{ n = split(\$1, w, \" \"); if (gsub(/\"word\":/, \"\", \$2) != n || gsub(/\"prob\":(0|1)\\.[0-9]+/, \"\", \$2) != n) exit 1 }'"
	check "--json --nbest: an nbest list" sh -c "echo 'A dog runs.' | $NMT --json --nbest 3 | grep -q '\"nbest\":\[{\"translation\"'"
fi
