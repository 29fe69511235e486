# Sentence splitting with the default model: a line is a paragraph, its
# sentences translated one by one and joined as they were; --split none.
if has_embedded; then
	# a line is a paragraph: its sentences are translated one by one, exactly
	# as on lines of their own, and joined with the whitespace between them
	printf '%s\n' 'A man is riding a bike.' 'Two dogs play in the snow!' 'Dr. Smith, a woman in a red coat, smiles.' \
		'Is the child sleeping?' >"$TMP/para.sents"
	for b in 1 4; do
		$NMT -b $b <"$TMP/para.sents" >"$TMP/para.lines.$b"
		printf '%s %s  %s\t%s\n' "$(sed -n 1p "$TMP/para.sents")" "$(sed -n 2p "$TMP/para.sents")" \
			"$(sed -n 3p "$TMP/para.sents")" "$(sed -n 4p "$TMP/para.sents")" | $NMT -b $b >"$TMP/para.out.$b"
		printf '%s %s  %s\t%s\n' "$(sed -n 1p "$TMP/para.lines.$b")" "$(sed -n 2p "$TMP/para.lines.$b")" \
			"$(sed -n 3p "$TMP/para.lines.$b")" "$(sed -n 4p "$TMP/para.lines.$b")" >"$TMP/para.want.$b"
		check "paragraph (beam $b): its sentences' translations, joined by the same whitespace" \
			cmp -s "$TMP/para.out.$b" "$TMP/para.want.$b"
	done
	check "paragraph: the same for any --batch and -t" sh -c \
		"cat $TMP/para.sents $TMP/para.sents | tr '\n' ' ' | $NMT -b 1 --batch 1 -t 2 | cmp -s - \
		 \$(cat $TMP/para.sents $TMP/para.sents | tr '\n' ' ' | $NMT -b 1 --batch 64 -t 1 >$TMP/para.b64; echo $TMP/para.b64)"
	check "--split none: a line is one sentence (fewer words than split)" sh -c \
		"[ \$(tr '\n' ' ' <$TMP/para.sents | $NMT -b 1 --split none | wc -w) -lt \$(wc -w <$TMP/para.out.1) ]"
	check "--split none: a single sentence translates as with splitting" sh -c \
		"head -n 1 $TMP/para.sents | $NMT -b 1 --split none | cmp -s - \$(head -n 1 $TMP/para.lines.1 >$TMP/para.one; echo $TMP/para.one)"
	check "paragraph with --nbest: one hypothesis list per line" sh -c \
		"printf 'A dog runs. A cat sleeps.\n\nTwo men talk.\n' | $NMT -b 4 --nbest 2 | cut -d '|' -f 1 | sort -u | tr -d ' \n' | grep -qx 012"
fi
expect_error "--split needs sentence or none" 2 sh -c "echo A dog. | $NMT --split words"
