#!/bin/sh
# End-to-end tests of the built binaries (./nmt, ./model-pack) on the tiny
# fixture model. Run from the repository root after `make` (make test does).
# Prints "e2e: N passed, M failed".
set -u
# NMT and PACK may name other builds of the same programs (make test
# SANITIZE=1 runs this script again with ASan/UBSan-instrumented ones; make
# test ARCH=aarch64 gives them as "qemu-aarch64-static ./nmt", and RUNNER
# runs the other test programs the same way).
NMT=${NMT:-./nmt}
PACK=${PACK:-./model-pack}
FIX=tests/fixtures/tiny
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { # check NAME COMMAND...: the command must succeed
	name=$1; shift
	if "$@"; then ok; else bad "$name"; fi
}

# expect_error NAME STATUS CMD...: exit STATUS, exactly one stderr line "nmt: ..." (or "model-pack: ...")
expect_error() {
	name=$1 want=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	status=$?
	lines=$(wc -l <"$TMP/err")
	if [ "$status" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -Eq '^(nmt|model-pack): ' "$TMP/err"; then
		ok
	else
		bad "$name (status $status, want $want; stderr: $(cat "$TMP/err"))"
	fi
}

field() { # field KIND SENT BEAM RANK: the expected text from expected.txt
	awk -F '\t' -v k="$1" -v s="$2" -v b="$3" -v r="$4" \
		'$1 == k && $2 == s && $3 == b && $4 == r { print $5 }' "$FIX/expected.txt"
}

# ---- the binaries ---------------------------------------------------------
NMT_BIN=${NMT##* } PACK_BIN=${PACK##* }   # the programs themselves, without a qemu in front
if [ "$NMT_BIN" = ./nmt ]; then
	check "nmt is statically linked" sh -c "readelf -l $NMT_BIN | grep -q LOAD && ! readelf -l $NMT_BIN | grep -q INTERP"
	check "model-pack is statically linked" sh -c "readelf -l $PACK_BIN | grep -q LOAD && ! readelf -l $PACK_BIN | grep -q INTERP"
fi
check "--help" sh -c "$NMT --help | grep -q usage"
check "--version" sh -c "$NMT --version | grep -q '^nmt '"
expect_error "unknown option" 2 $NMT --bogus
expect_error "beam 0" 2 $NMT -b 0
expect_error "beam 9" 2 $NMT --beam 9
expect_error "nbest > beam" 2 $NMT -b 2 --nbest 3
expect_error "missing option value" 2 $NMT -m
expect_error "stray argument" 2 $NMT something
expect_error "unknown device" 2 $NMT --device gpu
# this build has no CUDA path (make CUDA=1 builds nmt-cuda): a clear error before any input is read
expect_error "--device cuda without CUDA" 1 $NMT --device cuda
if [ "$NMT_BIN" = ./nmt ] && [ -f models/ende.safetensors ]; then
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
	# protected spans come through byte for byte (with --no-protect the
	# default model, which never saw them, loses them)
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
	check "--no-protect: spans are translated as words" sh -c "! $NMT --no-protect <$TMP/spans.en | grep -qF -e '12/05/2021' -e '\"El Corazon\"'"
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
	check "without --html, markup is text" sh -c "! head -n 1 $TMP/html.in | $NMT | grep -q '<b>[^ <]*</b>'"
	# hostile markup: 10,000 nested tags, unclosed and stray tags, a comment
	# never closed, CDATA, '<' in text, '>' inside quotes: one line each, no crash
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "<b>"; printf "A dog runs."; for (i = 0; i < 10000; i++) printf "</b>"; print "" }' >"$TMP/hostile.html"
	printf '%s\n' '<b>A dog <i>runs</b> fast</i>' '</p>A man <div>sits' 'A <!-- never closed dog' '<![CDATA[<b>]]> a dog' \
		'1 < 2 and a dog' '<a title="x > y" href=\x27>\x27>A dog</a>' >>"$TMP/hostile.html"
	$NMT --html -b 1 <"$TMP/hostile.html" >"$TMP/hostile.html.out" 2>"$TMP/hostile.html.err"
	check "--html: hostile markup, one output line per input line" test "$(wc -l <"$TMP/hostile.html.out")" -eq 7
	check "--html: 10,000 nested tags kept" test "$(head -n 1 "$TMP/hostile.html.out" | grep -o '<b>' | wc -l)" -eq 10000
else
	expect_error "no embedded model" 1 $NMT
	expect_error "nmt info: no embedded model" 1 $NMT info
fi
expect_error "nmt info: two models" 2 $NMT info a.nmt b.nmt
expect_error "--split needs sentence or none" 2 sh -c "echo A dog. | $NMT --split words"

# ---- packing and translating with the tiny model ---------------------------
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

# ---- the vocabulary map (shortlist) ------------------------------------------
check "pack with --vmap" $PACK --vmap "$FIX/vmap_small.txt" -o "$TMP/vmap.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
check "nmt info shows the vmap" sh -c "$NMT info $TMP/vmap.nmt | grep -q '^section vmap'"
$NMT -m "$TMP/vmap.nmt" -b 4 --no-shortlist <"$TMP/src.txt" >"$TMP/noshort"
check "--no-shortlist equals the model without a map" cmp -s "$TMP/noshort" "$TMP/got.4"
$NMT -m "$TMP/vmap.nmt" -b 4 <"$TMP/src.txt" >"$TMP/short"
check "shortlist: one line per input" test "$(wc -l <"$TMP/short")" -eq "$n_sent"
check "shortlist changes the small model's output" sh -c "! cmp -s $TMP/short $TMP/got.4"
printf '# x\n\t1 2\n5\t1 999\n' >"$TMP/badvmap.txt"
expect_error "pack: vmap id outside the vocabulary" 1 $PACK --vmap "$TMP/badvmap.txt" -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"

# ---- quantized weights (q8, q4) ----------------------------------------------
for q in q8 q4; do
	check "pack --quant $q" $PACK --quant $q -o "$TMP/$q.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
	check "nmt info shows quant=$q" sh -c "$NMT info --verify $TMP/$q.nmt | grep -qx 'quant=$q'"
	$NMT -m "$TMP/$q.nmt" -b 4 <"$TMP/src.txt" >"$TMP/got.$q"
	check "$q: one line per input" test "$(wc -l <"$TMP/got.$q")" -eq "$n_sent"
done
# Every kernel implementation this CPU runs translates identically, for every
# weight format (the f32 kernels have a fixed summation order; the integer
# ones are exact): 4-best lists with their scores, byte for byte.
for q in f32 q8 q4; do
	[ $q = f32 ] && model=$M || model=$TMP/$q.nmt
	NMT_KERNELS=scalar $NMT -m "$model" -b 4 --nbest 4 <"$TMP/src.txt" >"$TMP/kern.scalar.$q"
	check "$q: NMT_KERNELS=scalar translates" test -s "$TMP/kern.scalar.$q"
	for k in avx2 avx512 avx512-vbmi neon neon-dotprod; do
		NMT_KERNELS=$k $NMT -m "$model" -b 4 --nbest 4 <"$TMP/src.txt" >"$TMP/kern.$k.$q" 2>/dev/null || continue
		check "$q: NMT_KERNELS=$k translates like scalar" cmp -s "$TMP/kern.scalar.$q" "$TMP/kern.$k.$q"
	done
done
# Threads: byte-identical output for any thread count, over more lines than
# one batch (256), 1-best and n-best with scores.
for i in $(seq 60); do cat "$TMP/src.txt"; done >"$TMP/many.txt"
$NMT -m "$M" -b 4 -t 1 <"$TMP/many.txt" >"$TMP/threads.1"
$NMT -m "$M" -b 4 --nbest 3 -t 1 <"$TMP/many.txt" >"$TMP/threads.nbest.1"
check "-t 1: one line per input line" test "$(wc -l <"$TMP/threads.1")" -eq "$(wc -l <"$TMP/many.txt")"
check "-t 1: n-best lines" test "$(wc -l <"$TMP/threads.nbest.1")" -ge "$(wc -l <"$TMP/many.txt")"
for t in 2 3 8; do
	$NMT -m "$M" -b 4 -t $t <"$TMP/many.txt" >"$TMP/threads.$t"
	check "-t $t translates like -t 1" cmp -s "$TMP/threads.1" "$TMP/threads.$t"
	$NMT -m "$M" -b 4 --nbest 3 --threads $t <"$TMP/many.txt" >"$TMP/threads.nbest.$t"
	check "-t $t: n-best like -t 1" cmp -s "$TMP/threads.nbest.1" "$TMP/threads.nbest.$t"
done
{ cat "$TMP/src.txt"; echo; paste -d ' ' "$TMP/src.txt" "$TMP/src.txt"; echo "  "; cat "$TMP/src.txt"; } >"$TMP/mixed1.txt"
# Precomputed tables (model-pack --precompute-top K), computed at open or
# stored (--store-precomputed): the same n-best lists, scores included, for
# every weight format, with part of the vocabulary covered (K=50) and all of
# it (K larger than the vocabulary).
for q in f32 q8 q4; do
	check "pack --quant $q --precompute-top 0" $PACK --quant $q --precompute-top 0 -o "$TMP/pre.$q.0.nmt" \
		"$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
	check "--precompute-top 0: no precomp section" sh -c "! $NMT info $TMP/pre.$q.0.nmt | grep -q '^section precomp'"
	$NMT -m "$TMP/pre.$q.0.nmt" -b 4 --nbest 4 <"$TMP/mixed1.txt" >"$TMP/pre.plain"
	check "$q --precompute-top 0 translates" test -s "$TMP/pre.plain"
	for k in 50 100000; do
		check "pack --quant $q --precompute-top $k" $PACK --quant $q --precompute-top $k -o "$TMP/pre.$q.$k.nmt" \
			"$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
		$NMT -m "$TMP/pre.$q.$k.nmt" -b 4 --nbest 4 <"$TMP/mixed1.txt" >"$TMP/pre.got"
		check "$q --precompute-top $k translates exactly as without" cmp -s "$TMP/pre.plain" "$TMP/pre.got"
		check "pack --quant $q --precompute-top $k --store-precomputed" $PACK --quant $q --precompute-top $k \
			--store-precomputed -o "$TMP/pre.$q.$k.s.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
		$NMT -m "$TMP/pre.$q.$k.s.nmt" -b 4 --nbest 4 <"$TMP/mixed1.txt" >"$TMP/pre.got"
		check "$q --precompute-top $k stored translates exactly as without" cmp -s "$TMP/pre.plain" "$TMP/pre.got"
	done
done
check "nmt info: tables asked for, not stored, by default" sh -c "$NMT info $TMP/pre.q8.50.nmt | grep -qx 'precompute=50' && ! $NMT info $TMP/pre.q8.50.nmt | grep -q '^section precomp'"
check "nmt info shows a stored precomp section" sh -c "$NMT info $TMP/pre.q8.50.s.nmt | grep -q '^section precomp'"
expect_error "pack: --precompute-top -1" 2 $PACK --precompute-top -1 -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
# Batches: byte-identical output for any --batch, for every weight format,
# greedy and beam, with and without a shortlist, over lines of mixed lengths
# (empty ones among them) that sort into different batches each time.
for i in $(seq 8); do cat "$TMP/mixed1.txt"; done >"$TMP/mixed.txt"
for model in "$M" "$TMP/q8.nmt" "$TMP/q4.nmt" "$TMP/vmap.nmt"; do
	name=$(basename "$model" .nmt)
	for beam in 1 4; do
		$NMT -m "$model" -b $beam --nbest $((beam > 1 ? 3 : 1)) -t 1 --batch 1 <"$TMP/mixed.txt" >"$TMP/batch.1"
		ok=1
		for b in 2 7 64 256; do
			$NMT -m "$model" -b $beam --nbest $((beam > 1 ? 3 : 1)) -t 2 --batch $b <"$TMP/mixed.txt" >"$TMP/batch.$b"
			cmp -s "$TMP/batch.1" "$TMP/batch.$b" || ok=0
		done
		check "$name beam $beam: --batch 2/7/64/256 (-t 2) translate like --batch 1" test $ok -eq 1
		[ $beam = 1 ] && cp "$TMP/batch.64" "$TMP/batch.greedy"
	done
done
check "--batch: one line per input line" test "$(wc -l <"$TMP/batch.greedy")" -eq "$(wc -l <"$TMP/mixed.txt")"
expect_error "batch 0" 2 $NMT --batch 0
expect_error "batch too big" 2 $NMT --batch 100000
# Streaming: a line sent alone through a pipe is answered before the next is
# sent (the writer keeps the pipe open and waits up to 10 s for the answer).
mkfifo "$TMP/fifo"
: >"$TMP/stream.out"
($NMT -m "$M" -b 1 -t 2 <"$TMP/fifo" | cat >>"$TMP/stream.out") &
stream_pid=$!
exec 3>"$TMP/fifo"
head -n 1 "$TMP/src.txt" >&3
tries=0
while [ "$(wc -l <"$TMP/stream.out")" -lt 1 ] && [ $tries -lt 100 ]; do sleep 0.1; tries=$((tries + 1)); done
check "streaming: the first line is answered while the pipe stays open" test "$(wc -l <"$TMP/stream.out")" -eq 1
sed -n 2p "$TMP/src.txt" >&3
exec 3>&-
wait $stream_pid
check "streaming: then the second" test "$(wc -l <"$TMP/stream.out")" -eq 2
expect_error "threads 0" 2 $NMT -t 0
expect_error "threads not a number" 2 $NMT --threads x
expect_error "unknown NMT_KERNELS" 1 env NMT_KERNELS=bogus $NMT -m "$M"
expect_error "pack: unknown --quant" 2 $PACK --quant q3 -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"

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
yes 'A man in a red shirt runs on the beach.' | head -c 1048576 | tr '\n' ' ' >"$TMP/mb"
printf '\nA dog.\n' >>"$TMP/mb"
limit=   # not under ASan or qemu, which reserve huge address spaces
[ -z "${E2E_SANITIZED:-}" ] && [ -z "${RUNNER:-}" ] && limit="ulimit -v 262144;"
sh -c "$limit exec timeout 600 $NMT -m $M -b 1" <"$TMP/mb" >"$TMP/mb.out" 2>"$TMP/mb.err"
check "1 MB line: exit 0 within the limits" test $? -eq 0 -a ! -s "$TMP/mb.err"
check "1 MB line: one output line for it, one for the next" test "$(wc -l <"$TMP/mb.out")" -eq 2
check "1 MB line: the next line is unchanged" sh -c "sed -n 2p $TMP/mb.out | grep -qxF -- \"$plain\""
check "1 MB line: every segment translated (over 100 KB of output)" test "$(head -n 1 "$TMP/mb.out" | wc -c)" -gt 100000

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

# ---- the fuzz harnesses over their committed corpora (tests/fuzz/) ----------
R=${REPLAY:-build/host/tests/fuzz}
if [ -z "${E2E_SANITIZED:-}" ]; then
	for n in model tokenizer lines translate split spans html; do
		check "fuzz corpus replays clean: $n" sh -c "${RUNNER:-} $R/replay_$n tests/fuzz/$n >/dev/null"
	done
fi

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

# ---- bad model files --------------------------------------------------------
: >"$TMP/empty.nmt"
head -c 1000 "$M" >"$TMP/trunc.nmt"
head -c 300000 /dev/urandom >"$TMP/random.nmt"
cp "$M" "$TMP/flip.nmt"
# flip one byte inside the metadata section (at 4096 + some: the sections follow the table)
printf '\377' | dd of="$TMP/flip.nmt" bs=1 seek=400 conv=notrunc 2>/dev/null
expect_error "zero-length model" 1 $NMT -m "$TMP/empty.nmt"
expect_error "truncated model" 1 $NMT -m "$TMP/trunc.nmt"
expect_error "random-bytes model" 1 $NMT -m "$TMP/random.nmt"
expect_error "bit-flipped model" 1 $NMT -m "$TMP/flip.nmt"
expect_error "missing model" 1 $NMT -m "$TMP/does-not-exist.nmt"
expect_error "directory as model" 1 $NMT -m "$TMP"
expect_error "info on truncated model" 1 $NMT info "$TMP/trunc.nmt"
# a flipped byte in the bulk weights: only --verify sees it
size=$(wc -c <"$M")
cp "$M" "$TMP/wflip.nmt"
printf '\001' | dd of="$TMP/wflip.nmt" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect_error "info --verify on flipped weights" 1 $NMT info --verify "$TMP/wflip.nmt"

# ---- imported Marian models (the SSRU family) --------------------------------
# tests/fixtures/marian: tiny random models in Marian's files and what the
# PyTorch reference (train/marian_ref.py) translates with them; nmt must give
# the same translations, greedy and beam 4 (4-best), scores within 1e-3.
MF=tests/fixtures/marian
printf '%s\n' "A dog runs along the beach." "Two young children are playing in the sand." "Women sing." "x" \
	"An old woman sits on a bench next to the river." "THE CAT!" >"$TMP/marian.in"
MO="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"
marian_same() { # marian_same EXPECTED PACKED: greedy and 4-best as the reference, scores within 1e-3
	{ $NMT -m "$2" -b 1 $MO <"$TMP/marian.in" | awk '{ print "1 ||| " NR - 1 " ||| " $0 " ||| x" }'
	  $NMT -m "$2" -b 4 --nbest 4 $MO <"$TMP/marian.in" | sed 's/^/4 ||| /'; } >"$TMP/marian.out" &&
	awk -F' \\|\\|\\| ' 'NR == FNR { want[FNR] = $1 "|" $2 "|" $3; score[FNR] = $4; n = FNR; next }
		{ m++; if ($1 "|" $2 "|" $3 != want[FNR]) bad++; if ($4 != "x") { d = $4 - score[FNR]; if (d < 0) d = -d; if (d > 1e-3) bad++ } }
		END { exit !(m == n && bad == 0) }' "$1" "$TMP/marian.out"
}
V1="--vocab $FIX/tgt.model"
check "marian: pack .npz (tied all)" $PACK --marian $MF/all.npz $V1 -o "$TMP/m_all.nmt"
check "marian: .npz tied all = reference" marian_same $MF/all.expected "$TMP/m_all.nmt"
check "marian: pack .bin float32" $PACK --marian $MF/all.bin $V1 -o "$TMP/m_allbin.nmt"
check "marian: .bin = .npz, byte for byte" cmp "$TMP/m_all.nmt" "$TMP/m_allbin.nmt"
check "marian: pack .bin intgemm8" $PACK --marian $MF/all.intgemm8.bin $V1 -o "$TMP/m_all8.nmt"
check "marian: intgemm8 = reference on its weights" marian_same $MF/all.intgemm8.expected "$TMP/m_all8.nmt"
check "marian: pack intgemm8 with int8 embeddings (Firefox's files)" $PACK --marian $MF/all.int8emb.bin $V1 -o "$TMP/m_all8e.nmt"
check "marian: ... = reference on its weights" marian_same $MF/all.int8emb.expected "$TMP/m_all8e.nmt"
check "marian: pack tied target, two vocabularies" $PACK --marian $MF/tgt.npz --vocab $FIX/src.model --vocab $FIX/tgt.model -o "$TMP/m_tgt.nmt"
check "marian: tied target = reference" marian_same $MF/tgt.expected "$TMP/m_tgt.nmt"
check "marian: pack untied" $PACK --marian $MF/none.npz $V1 -o "$TMP/m_none.nmt"
check "marian: untied = reference" marian_same $MF/none.expected "$TMP/m_none.nmt"
check "marian: pack tied decoder layers" $PACK --marian $MF/tiedlayers.npz $V1 -o "$TMP/m_tiedl.nmt"
check "marian: tied decoder layers = reference" marian_same $MF/tiedlayers.expected "$TMP/m_tiedl.nmt"
# marian-decoder's own outputs on the same models (train/marian_outputs.sh,
# run with a Marian built outside the repository): nmt must match Marian
# itself, not only the PyTorch reference.
for n in all:m_all tgt:m_tgt none:m_none tiedlayers:m_tiedl; do
	check "marian: ${n%%:*} = marian-decoder's own output" marian_same "$MF/${n%%:*}.marian" "$TMP/${n#*:}.nmt"
done
check "marian: ... the layer map recorded" sh -c "$NMT info $TMP/m_tiedl.nmt | grep -qx 'dec_tied=2,1,2'"
expect_error "marian: a tied-layer list of the wrong length" 1 $PACK --marian $MF/badtied.npz $V1 -o "$TMP/x.nmt"
check "marian: ... names the key" sh -c "$PACK --marian $MF/badtied.npz $V1 -o $TMP/x.nmt 2>&1 | grep -q 'transformer-tied-layers'"
check "marian: nmt info shows the family" sh -c "$NMT info $TMP/m_tgt.nmt | grep -qx 'arch=transformer-ssru' && $NMT info $TMP/m_tgt.nmt | grep -qx 'heads=4'"
$NMT -m "$TMP/m_all.nmt" -b 4 -t 1 <"$TMP/marian.in" >"$TMP/m1.out"
$NMT -m "$TMP/m_all.nmt" -b 4 --nbest 4 $MO <"$TMP/marian.in" >"$TMP/marian.nbest.noshortlist"
check "marian: -t 2 --batch 2 gives the same" sh -c "$NMT -m $TMP/m_all.nmt -b 4 -t 2 --batch 2 <$TMP/marian.in | cmp -s - $TMP/m1.out"
for k in scalar avx2 avx512; do
	if NMT_KERNELS=$k $NMT -m "$TMP/m_all.nmt" -b 1 </dev/null 2>/dev/null; then
		check "marian: NMT_KERNELS=$k gives the same" sh -c "NMT_KERNELS=$k $NMT -m $TMP/m_all.nmt -b 4 -t 1 <$TMP/marian.in | cmp -s - $TMP/m1.out"
	fi
done
for q in q8 q4; do
	check "marian: pack $q" $PACK --marian $MF/all.npz $V1 --quant $q -o "$TMP/m_$q.nmt"
	check "marian: $q translates every line" test "$($NMT -m $TMP/m_$q.nmt -b 4 <$TMP/marian.in | wc -l)" -eq 6
done
check "marian: alignments from the cross-attention" sh -c "$NMT -m $TMP/m_all.nmt -b 1 --alignment $MO <$TMP/marian.in | grep -c ' ||| [0-9]*-[0-9]' | grep -qx 6"
check "marian: pack with a binary shortlist" $PACK --marian $MF/all.npz $V1 --shortlist $MF/small.lex.bin -o "$TMP/m_sl.nmt"
check "marian: ... marian-decoder's padding recorded" sh -c "$NMT info $TMP/m_sl.nmt | grep -qx 'shortlist_pad=8'"
check "marian: ... translates every line" test "$($NMT -m $TMP/m_sl.nmt -b 4 $MO <$TMP/marian.in | wc -l)" -eq 6
check "marian: pack with a text shortlist" $PACK --marian $MF/all.npz $V1 --shortlist $MF/small.lex.txt -o "$TMP/m_slt.nmt"
check "marian: ... translates every line" test "$($NMT -m $TMP/m_slt.nmt -b 1 $MO <$TMP/marian.in | wc -l)" -eq 6
check "marian: pack with a shortlist allowing every id" $PACK --marian $MF/all.npz $V1 --shortlist $MF/full.lex.bin -o "$TMP/m_slf.nmt"
check "marian: ... changes nothing" sh -c "$NMT -m $TMP/m_slf.nmt -b 4 --nbest 4 $MO <$TMP/marian.in | cmp -s - $TMP/marian.nbest.noshortlist"
# A model of this family trained on nmt's own vocabularies takes nmt's
# n-gram map (the tied-target fixture uses the tiny fixture's vocabularies).
$NMT -m "$TMP/m_tgt.nmt" -b 4 --nbest 4 $MO <"$TMP/marian.in" >"$TMP/m_tgt.nbest"
check "marian: pack with an n-gram map allowing every id" $PACK --marian $MF/tgt.npz --vocab $FIX/src.model --vocab $FIX/tgt.model --vmap $FIX/vmap_full.txt -o "$TMP/m_vmf.nmt"
check "marian: ... changes nothing" sh -c "$NMT -m $TMP/m_vmf.nmt -b 4 --nbest 4 $MO <$TMP/marian.in | cmp -s - $TMP/m_tgt.nbest"
check "marian: pack with a small n-gram map" $PACK --marian $MF/tgt.npz --vocab $FIX/src.model --vocab $FIX/tgt.model --vmap $FIX/vmap_small.txt -o "$TMP/m_vms.nmt"
check "marian: ... translates every line" test "$($NMT -m $TMP/m_vms.nmt -b 4 $MO <$TMP/marian.in | wc -l)" -eq 6
expect_error "marian: --vmap and --shortlist together" 2 $PACK --marian $MF/tgt.npz --vocab $FIX/src.model --vocab $FIX/tgt.model --vmap $FIX/vmap_full.txt --shortlist $MF/small.lex.bin -o "$TMP/x.nmt"
cp $MF/small.lex.bin "$TMP/bad.lex.bin"
printf '\001' | dd of="$TMP/bad.lex.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
expect_error "marian: damaged shortlist (checksum)" 1 $PACK --marian $MF/all.npz $V1 --shortlist "$TMP/bad.lex.bin" -o "$TMP/x.nmt"
expect_error "marian: --shortlist without --marian" 2 $PACK --shortlist $MF/small.lex.bin -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "marian: unsupported configuration named" 1 $PACK --marian $MF/unsupported.npz $V1 -o "$TMP/x.nmt"
check "marian: ... names the key" sh -c "$PACK --marian $MF/unsupported.npz $V1 -o $TMP/x.nmt 2>&1 | grep -q 'transformer-ffn-activation: swish'"
expect_error "marian: --marian without --vocab" 2 $PACK --marian $MF/all.npz -o "$TMP/x.nmt"
expect_error "marian: vocabulary of the wrong size" 1 $PACK --marian $MF/all.npz --vocab tests/fixtures/spm/uni_ident.model -o "$TMP/x.nmt"
head -c 5000 $MF/all.npz >"$TMP/trunc.npz"
expect_error "marian: truncated .npz" 1 $PACK --marian "$TMP/trunc.npz" $V1 -o "$TMP/x.nmt"
head -c 5000 $MF/all.bin >"$TMP/trunc.bin"
expect_error "marian: truncated .bin" 1 $PACK --marian "$TMP/trunc.bin" $V1 -o "$TMP/x.nmt"
expect_error "marian: --vocab without --marian" 2 $PACK --vocab $FIX/tgt.model -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"

# ---- libnmt.so exports nmt.h's functions and the embedded model, nothing else --
if [ -f libnmt.so ] && command -v nm >/dev/null 2>&1 && [ -z "${E2E_SANITIZED:-}" ]; then
	nm -D --defined-only libnmt.so | awk '{ print $3 }' | sort >"$TMP/so.syms"
	{ grep -oE '\bnmt_[a-z_]+\(' nmt.h | tr -d '('; echo nmt_embedded_model; echo nmt_embedded_model_size; } |
		sort -u >"$TMP/h.syms"
	check "libnmt.so: exactly nmt.h's API and the embedded model" cmp -s "$TMP/so.syms" "$TMP/h.syms"
fi

# ---- languages: nmt -l, nmt models, the pivot ----------------------------------
# Two copies of the tiny model recorded as fr->en and en->de in a directory
# of NMT_MODELS: -l fr-en picks the first, -l fr-de chains both through
# English exactly as a pipe of the two would, alignments chained.
mkdir -p "$TMP/models" "$TMP/home/.local/share/nmt"
check "pack with --src-lang/--tgt-lang" $PACK --src-lang fr --tgt-lang en -o "$TMP/models/a-fren.nmt" \
	"$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
$PACK --src-lang en --tgt-lang de -o "$TMP/models/b-ende.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
$PACK --src-lang de --tgt-lang en -o "$TMP/home/.local/share/nmt/deen.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
echo "not a model" >"$TMP/models/c-broken.nmt"
L="env NMT_MODELS=$TMP/models HOME=$TMP/home"
$L $NMT models >"$TMP/models.out" 2>"$TMP/models.err"
check "models: lists the directory's models, the home one, the embedded one" sh -c "grep -q '^fr-en .*f32 .*a-fren.nmt' $TMP/models.out && grep -q '^en-de .*b-ende.nmt' $TMP/models.out && grep -q '^de-en .*deen.nmt' $TMP/models.out"
check "models: ... and what a pivot offers" grep -qx 'fr-de via en (pivot)' "$TMP/models.out"
check "models: a broken file is skipped with a warning" grep -q '^nmt: skipped: .*c-broken.nmt' "$TMP/models.err"
$NMT -m "$TMP/models/a-fren.nmt" -b 4 <"$TMP/src.txt" >"$TMP/l.direct"
check "-l fr-en = -m its model" sh -c "$L $NMT -l fr-en -b 4 <$TMP/src.txt 2>/dev/null | cmp -s - $TMP/l.direct"
check "--from fr --to en = -l fr-en" sh -c "$L $NMT --from fr --to en -b 4 <$TMP/src.txt 2>/dev/null | cmp -s - $TMP/l.direct"
$NMT -m "$TMP/models/b-ende.nmt" -b 4 --nbest 2 <"$TMP/l.direct" >"$TMP/l.chain"
check "-l fr-de: the pivot = the two models piped" sh -c "$L $NMT -l fr-de -b 4 --nbest 2 <$TMP/src.txt 2>/dev/null | cmp -s - $TMP/l.chain"
$L $NMT -l fr-de -b 4 --alignment <"$TMP/src.txt" >"$TMP/l.align" 2>/dev/null
check "-l fr-de --alignment: one line per input, alignments given" sh -c "test \$(wc -l <$TMP/l.align) -eq \$(wc -l <$TMP/src.txt) && grep -c ' ||| [0-9]' $TMP/l.align | grep -qv '^0$'"
check "-l de-en: a model in ~/.local/share/nmt" sh -c "$L $NMT -l de-en <$TMP/src.txt 2>/dev/null | wc -l | grep -qx $(wc -l <"$TMP/src.txt")"
expect_error "-l with no model for the pair" 1 $L $NMT -l xx-yy
check "... says so" sh -c "$L $NMT -l xx-yy 2>&1 </dev/null | grep -q 'no installed model translates xx to yy'"
expect_error "-l without a dash" 2 $NMT -l ende
expect_error "-l and -m together" 2 $NMT -l en-de -m "$M"
expect_error "--from without --to" 2 $NMT --from en

# ---- the shipped models: en<->de, en<->fr, and fr->de / de->fr through English --
# SHIPPED lists the packed files `make install` installs (Makefile,
# DIRECTION_SHIPPED plus the embedded one). Sentences written for this test,
# not taken from any corpus; each translation must hold the word a
# translator would use for the sentence's subject.
ship_has() { case " ${SHIPPED:-} " in *"/$1."*) return 0 ;; esac; return 1; }
if ship_has enfr && ship_has fren && ship_has deen; then
	mkdir -p "$TMP/shipped"
	cp $SHIPPED "$TMP/shipped/"
	S="env NMT_MODELS=$TMP/shipped HOME=/nonexistent"
	$S $NMT models >"$TMP/shipped.out"
	for pair in en-de de-en en-fr fr-en; do
		check "shipped: $pair installed" grep -q "^$pair " "$TMP/shipped.out"
	done
	check "shipped: fr-de and de-fr offered through English" sh -c "grep -qx 'fr-de via en (pivot)' $TMP/shipped.out && grep -qx 'de-fr via en (pivot)' $TMP/shipped.out"
	printf 'Un chien noir court sur la plage.\nDeux hommes jouent au football dans un parc.\n' >"$TMP/fr.txt"
	printf 'A black dog runs on the beach.\nTwo men play soccer in a park.\n' >"$TMP/en.txt"
	printf 'Ein schwarzer Hund läuft am Strand.\nZwei Männer spielen Fußball in einem Park.\n' >"$TMP/de.txt"
	words() { # words PAIR FILE WORD1 WORD2: line 1 holds WORD1, line 2 WORD2 (any case)
		$S $NMT -l "$1" <"$2" >"$TMP/w.out" 2>/dev/null &&
			sed -n 1p "$TMP/w.out" | grep -qi "$3" && sed -n 2p "$TMP/w.out" | grep -qi "$4"
	}
	check "shipped: fr-en translates" words fr-en "$TMP/fr.txt" dog men
	check "shipped: en-fr translates" words en-fr "$TMP/en.txt" chien hommes
	check "shipped: de-en translates" words de-en "$TMP/de.txt" dog men
	check "shipped: fr-de through English translates" words fr-de "$TMP/fr.txt" hund männer
	check "shipped: de-fr through English translates" words de-fr "$TMP/de.txt" chien hommes
	$S $NMT -l fr-en -b 4 <"$TMP/fr.txt" | $S $NMT -l en-de -b 4 >"$TMP/fr-de.piped"
	check "shipped: fr-de = fr-en piped into en-de" sh -c "$S $NMT -l fr-de -b 4 <$TMP/fr.txt | cmp -s - $TMP/fr-de.piped"
fi

# ---- nmt serve: LibreTranslate's API ------------------------------------------------
# With curl (a real client) and tests/http_tool.c (raw and slow requests).
# The server listens on a port the system picks (--port 0), read from its
# first line.
serve_start() { # serve_start LOG [options]: starts nmt serve, sets SPID and PORT
	log=$1
	shift
	$NMT serve --port 0 "$@" 2>"$log" &
	SPID=$!
	PORT=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		PORT=$(sed -n 's/^nmt: serving .* on http:\/\/127.0.0.1:\([0-9]*\) .*/\1/p' "$log" 2>/dev/null)
		[ -n "$PORT" ] && break
		sleep 0.25
	done
}
if command -v curl >/dev/null 2>&1 && [ -n "${HTTP_TOOL:-}" ]; then
	serve_start "$TMP/serve.log" -t 2 -m "$M" --max-body 4096 --timeout 2
	check "serve: listening" test -n "$PORT"
	U="http://127.0.0.1:$PORT"
	J="Content-Type: application/json"
	check "serve: /languages lists the model's languages" sh -c "curl -s $U/languages | grep -qxF '[{\"code\":\"en\",\"name\":\"English\",\"targets\":[\"de\"]},{\"code\":\"de\",\"name\":\"German\",\"targets\":[]}]'"
	want=$(echo "A dog runs along the beach." | $NMT -m "$M")
	check "serve: q a string = nmt's translation" sh -c "curl -s -H '$J' -d '{\"q\":\"A dog runs along the beach.\",\"source\":\"en\",\"target\":\"de\"}' $U/translate | grep -qxF '{\"translatedText\":\"$want\"}'"
	check "serve: q an array gives an array" sh -c "curl -s -H '$J' -d '{\"q\":[\"A dog runs along the beach.\",\"\"],\"source\":\"en\",\"target\":\"de\"}' $U/translate | grep -qxF '{\"translatedText\":[\"$want\",\"\"]}'"
	check "serve: a form body" sh -c "curl -s --data-urlencode 'q=A dog runs along the beach.' -d source=en -d target=de $U/translate | grep -qxF '{\"translatedText\":\"$want\"}'"
	check "serve: format html keeps the tags" sh -c "curl -s -H '$J' -d '{\"q\":\"A <b>dog</b> runs.\",\"source\":\"en\",\"target\":\"de\",\"format\":\"html\"}' $U/translate | grep -q '<b>'"
	status() { curl -s -o "$TMP/serve.body" -w '%{http_code}' "$@"; }
	check "serve: missing q -> 400 with LibreTranslate's message" sh -c "test \$(curl -s -o $TMP/sb -w '%{http_code}' -H '$J' -d '{\"source\":\"en\",\"target\":\"de\"}' $U/translate) = 400 && grep -qxF '{\"error\":\"Invalid request: missing q parameter\"}' $TMP/sb"
	check "serve: bad JSON -> 400" test "$(status -H "$J" -d '{"q":"x",' "$U/translate")" = 400
	check "serve: unsupported language -> 400" sh -c "test \$(curl -s -o $TMP/sb -w '%{http_code}' -H '$J' -d '{\"q\":\"x\",\"source\":\"fr\",\"target\":\"de\"}' $U/translate) = 400 && grep -q 'fr is not supported' $TMP/sb"
	check "serve: unknown path -> 404" test "$(status "$U/nope")" = 404
	check "serve: GET /translate -> 405" test "$(status "$U/translate")" = 405
	head -c 5000 /dev/zero | tr '\0' ' ' >"$TMP/body5k"
	check "serve: body over --max-body -> 413" test "$(status -H "$J" --data-binary @"$TMP/body5k" "$U/translate")" = 413
	head -c 20000 /dev/zero | tr '\0' a >"$TMP/hdr"
	check "serve: a huge header -> 431" test "$(status -H "X-Big: $(cat "$TMP/hdr")" "$U/languages")" = 431
	check "serve: chunked bodies -> 501" test "$(status -H "$J" -H 'Transfer-Encoding: chunked' -d '{}' "$U/translate")" = 501
	check "serve: keep-alive: two requests, one connection" sh -c "curl -sv $U/languages $U/languages 2>&1 | grep -q 'Re-using existing connection'"
	printf 'POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"q":"A dog' >"$TMP/slow.req"
	$HTTP_TOOL "$PORT" 1000 <"$TMP/slow.req" >"$TMP/slow.out" &
	slow=$!
	check "serve: others are answered while a client sends one byte a second" sh -c "curl -s -m 5 $U/languages | grep -q English"
	wait $slow
	check "serve: ... and the slow one gets 408" grep -q '^HTTP/1.1 408' "$TMP/slow.out"
	printf 'GET /languages HTTP/1.1\r\n\r\nGET /languages HTTP/1.1\r\nConnection: close\r\n\r\n' | $HTTP_TOOL "$PORT" >"$TMP/pipe.out"
	check "serve: pipelined requests both answered" test "$(grep -o 'HTTP/1.1 200' "$TMP/pipe.out" | wc -l)" -eq 2
	printf 'BROKEN\r\n\r\n' | $HTTP_TOOL "$PORT" >"$TMP/bad.out"
	check "serve: a malformed request line -> 400" grep -q '^HTTP/1.1 400' "$TMP/bad.out"
	kill "$SPID"; wait "$SPID" 2>/dev/null
	# SIGTERM while a request is arriving (40 ms a byte): it is still answered
	printf 'POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 53\r\n\r\n{"q":"A dog runs.","source":"en","target":"de"}      ' >"$TMP/term.req"
	serve_start "$TMP/serve2.log" -t 1 -m "$M" --timeout 30
	$HTTP_TOOL "$PORT" 40 <"$TMP/term.req" >"$TMP/inflight.out" &
	cpid=$!
	sleep 1
	kill -TERM "$SPID"
	wait "$SPID"
	check "serve: SIGTERM exits 0" test $? -eq 0
	wait $cpid
	check "serve: ... after answering the request in flight" sh -c "grep -q '^HTTP/1.1 200' $TMP/inflight.out && grep -q 'translatedText' $TMP/inflight.out"
	serve_start "$TMP/serve3.log" -t 1 -m "$M" --max-connections 1 --timeout 3
	$HTTP_TOOL "$PORT" 500 <"$TMP/slow.req" >/dev/null &
	slow=$!
	sleep 0.5
	check "serve: beyond --max-connections -> 503" test "$(status "http://127.0.0.1:$PORT/languages")" = 503
	wait $slow
	kill "$SPID"; wait "$SPID" 2>/dev/null
	expect_error "serve: a bad --port" 2 $NMT serve --port 70000
	expect_error "serve: a host that is not an address" 1 $NMT serve --host example.org --port 0 -m "$M"
fi

# ---- progress -------------------------------------------------------------------
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

# ---- model-pack errors --------------------------------------------------------
expect_error "pack: missing tensor" 1 $PACK -o "$TMP/x.nmt" "$FIX/bad_missing.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: wrong shape" 1 $PACK -o "$TMP/x.nmt" "$FIX/bad_shape.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: unknown vocab type" 1 $PACK -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/word.model"
expect_error "pack: vocab size mismatch" 1 $PACK -o "$TMP/x.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" tests/fixtures/spm/uni_ident.model
expect_error "pack: checkpoint is not safetensors" 1 $PACK -o "$TMP/x.nmt" "$FIX/src.model" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: missing file" 1 $PACK -o "$TMP/x.nmt" "$TMP/nope" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: usage" 2 $PACK -o "$TMP/x.nmt"
check "pack: no output left behind on error" test ! -e "$TMP/x.nmt"

echo "e2e: $passed passed, $failed failed"
