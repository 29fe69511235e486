# --html with the default model: tags and attributes kept byte for byte, in
# order, around whole words; hostile markup.
if has_embedded; then
	# --html: the same tags, attributes byte for byte, in the same order
	printf '%s\n' 'The <b>red</b> car is parked near the house.' \
		'A <a href="x.html?a=1&amp;b=2" title="a > b">dog</a> runs on the <i>beach</i>.<br>Two men talk.' \
		'<p>A man &amp; a woman sit on a <em>bench</em>.</p> <!-- note -->' \
		'Run <code>ls <b>-l</b></code> now. A <b>dog <i>runs</i></b>.' >"$TMP/html.in"
	$NMT --html <"$TMP/html.in" >"$TMP/html.out"
	check "--html: one line per line" test "$(wc -l <"$TMP/html.out")" -eq 4
	check "--html: every tag and attribute kept, in order" sh -c \
		"grep -o '<[^<]*>' $TMP/html.in >$TMP/html.tags.in; grep -o '<[^<]*>' $TMP/html.out | cmp -s - $TMP/html.tags.in"
	check "--html: a tag goes around whole words" sh -c "head -n 1 $TMP/html.out | grep -Eq '<b>[^ <]+</b>'"
	# without --html the tags reach the model as text (which a model of
	# general text may copy), so the lines translate otherwise than with it
	check "without --html, markup is text" sh -c "! $NMT <$TMP/html.in | cmp -s - $TMP/html.out"
	# hostile markup: 10,000 nested tags, unclosed and stray tags, a comment
	# never closed, CDATA, '<' in text, '>' inside quotes: one line each, no crash
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "<b>"; printf "A dog runs."; for (i = 0; i < 10000; i++) printf "</b>"; print "" }' >"$TMP/hostile.html"
	printf '%s\n' '<b>A dog <i>runs</b> fast</i>' '</p>A man <div>sits' 'A <!-- never closed dog' '<![CDATA[<b>]]> a dog' \
		'1 < 2 and a dog' '<a title="x > y" href=\x27>\x27>A dog</a>' >>"$TMP/hostile.html"
	$NMT --html -b 1 <"$TMP/hostile.html" >"$TMP/hostile.html.out" 2>"$TMP/hostile.html.err"
	check "--html: hostile markup, one output line per input line" test "$(wc -l <"$TMP/hostile.html.out")" -eq 7
	check "--html: 10,000 nested tags kept" test "$(head -n 1 "$TMP/hostile.html.out" | grep -o '<b>' | wc -l)" -eq 10000
fi
