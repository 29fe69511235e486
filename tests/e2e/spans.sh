# Protected spans with the default model: prices, times, dates, URLs,
# addresses, paths, code, numbers and quoted names come through verbatim
# (and aligned to their own words); --no-protect.
if has_embedded; then
	# protected spans come through byte for byte
	printf '%s\n' 'A man pays $4.50 at 10:30 on 12/05/2021.' 'Two dogs run (see https://example.com/a.html).' \
		'A woman writes to anna@example.org and @anna_b from /home/anna/x.jpg.' 'A boy types `ls -l` in room 214.' \
		'A woman on a boat named "El Corazon" drops weights.' \
		'A dog runs along the beach.' 'Two young children are playing in the sand.' >"$TMP/spans.en"
	$NMT <"$TMP/spans.en" >"$TMP/spans.out"
	for span in '$4.50' '10:30' '12/05/2021' 'https://example.com/a.html' 'anna@example.org' '@anna_b' \
		'/home/anna/x.jpg' '`ls -l`' '214' '"El Corazon"'; do
		check "protected span comes through: $span" grep -qF -- "$span" "$TMP/spans.out"
	done
	check "protected spans: lines without any, batched with them, translate as alone" sh -c \
		"tail -n 2 $TMP/spans.en | $NMT | cmp -s - \$(tail -n 2 $TMP/spans.out >$TMP/spans.tail; echo $TMP/spans.tail)"
	# --no-protect: the spans reach the model as words (a model of general
	# text may copy some of them itself), so the lines that hold spans
	# translate otherwise, and the two without any the same
	$NMT --no-protect <"$TMP/spans.en" >"$TMP/spans.noprot"
	check "--no-protect: the lines with spans translate otherwise" sh -c \
		"! head -n 5 $TMP/spans.out | cmp -s - \$(head -n 5 $TMP/spans.noprot >$TMP/spans.np5; echo $TMP/spans.np5)"
	check "--no-protect: the lines without spans translate the same" sh -c \
		"tail -n 2 $TMP/spans.out | cmp -s - \$(tail -n 2 $TMP/spans.noprot >$TMP/spans.np2; echo $TMP/spans.np2)"
	check "protected spans: --alignment indices stay within the line's words" sh -c "$NMT --alignment <$TMP/spans.en | paste -d '\t' $TMP/spans.en - | awk -F '\t' '
		{ ns = split(\$1, S, \" \"); split(\$2, parts, \" [|][|][|] \"); nt = split(parts[1], T, \" \"); np = split(parts[2], P, \" \")
		  if (np != nt) exit 1; for (i = 1; i <= np; i++) { split(P[i], st, \"-\"); if (st[1] >= ns || st[2] >= nt) exit 1 } }'"
	# a sentence of a thousand numbers, translated in chunks: every number
	# once, aligned to its own source word (the chunks' words are numbered
	# from the sentence's first)
	awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%d%s", i, i < 999 ? " " : "\n" }' >"$TMP/numbers.en"
	check "protected spans: a long sentence in chunks keeps every number, each aligned to its own word" sh -c \
		"$NMT -b 1 --alignment <$TMP/numbers.en | awk -F ' [|][|][|] ' '{ split(\$1, T, \" \"); np = split(\$2, P, \" \")
		 for (i = 1; i <= np; i++) { split(P[i], st, \"-\"); w = T[st[2] + 1]; sub(/[[:punct:]]+\$/, \"\", w)
		   if (w !~ /^[0-9]+\$/ || w != st[1]) exit 1; seen[w]++ }
		 for (i = 0; i < 1000; i++) if (seen[i] != 1) exit 1 }'"
fi
