# Languages: nmt -l / --from --to, nmt models, the pivot through English.
M=$(shared tiny.nmt)
awk -F '\t' '$1 == "sent" { print $3 }' "$FIX/expected.txt" >"$TMP/src.txt"
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

# -l auto-TGT: each line from its detected language. With the models above,
# into de: French through the pivot (fr-en, en-de), English directly (the
# directory's en-de first), German and a line without letters unchanged.
printf '%s\n' "Le chien court le long de la plage avec les enfants." "A dog runs along the beach with the children." \
	"Der Hund läuft mit den Kindern am Strand entlang." "123 456 !" \
	"Deux hommes parlent dans la rue près de la gare." >"$TMP/auto.in"
sed -n '1p;5p' "$TMP/auto.in" | $L $NMT -l fr-de -b 4 >"$TMP/auto.fr" 2>/dev/null
sed -n 2p "$TMP/auto.in" | $NMT -m "$TMP/models/b-ende.nmt" -b 4 >"$TMP/auto.en"
{ sed -n 1p "$TMP/auto.fr"; cat "$TMP/auto.en"; sed -n '3,4p' "$TMP/auto.in"; sed -n 2p "$TMP/auto.fr"; } >"$TMP/auto.want"
check "-l auto-de: each line by its language's models, German and no-letter lines unchanged" \
	sh -c "$L $NMT -l auto-de -b 4 <$TMP/auto.in 2>/dev/null | cmp -s - $TMP/auto.want"
check "--from auto --to de = -l auto-de" \
	sh -c "$L $NMT --from auto --to de -b 4 <$TMP/auto.in 2>/dev/null | cmp -s - $TMP/auto.want"
# into en: French by fr-en, German by the home directory's de-en, English unchanged
sed -n 1p "$TMP/auto.in" | $NMT -m "$TMP/models/a-fren.nmt" >"$TMP/auto.en1"
sed -n 3p "$TMP/auto.in" | $NMT -m "$TMP/home/.local/share/nmt/deen.nmt" >"$TMP/auto.en3"
$L $NMT -l auto-en <"$TMP/auto.in" >"$TMP/auto.out" 2>/dev/null
check "-l auto-en: French and German by their models, English unchanged" sh -c \
	"sed -n 1p $TMP/auto.out | cmp -s - $TMP/auto.en1 && sed -n 3p $TMP/auto.out | cmp -s - $TMP/auto.en3 && sed -n 2p $TMP/auto.out | grep -qx 'A dog runs along the beach with the children.'"
expect_error "-l auto-xx: no model into xx" 1 $L $NMT -l auto-xx
check "... says so in one line" sh -c "$L $NMT -l auto-xx 2>&1 </dev/null | grep -qx 'nmt: no installed model .* translates into xx, directly or through en (nmt models lists them)'"
expect_error "-l auto-de --json: refused" 2 $L $NMT -l auto-de --json
check "-l auto-de: empty input, empty output" sh -c "$L $NMT -l auto-de </dev/null | wc -c | grep -qx 0"
# Each model is opened once for translating (and once more by the catalog's
# scan of the metadata), however the languages alternate: en-de serves the
# English lines and the French ones' second step.
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null && [ -z "${RUNNER:-}" ] && [ -z "${E2E_SANITIZED:-}" ]; then
	for n in 1 2 5 2 1; do sed -n ${n}p "$TMP/auto.in"; done >"$TMP/auto.alt"
	$L strace -f -e trace=open,openat -o "$TMP/auto.trace" $NMT -l auto-de <"$TMP/auto.alt" >"$TMP/auto.altout" 2>/dev/null
	check "-l auto-de: alternating languages, each model opened once" sh -c \
		"test \$(grep -c 'b-ende.nmt\"' $TMP/auto.trace) -eq 2 && test \$(grep -c 'a-fren.nmt\"' $TMP/auto.trace) -eq 2 && test \$(wc -l <$TMP/auto.altout) -eq 5"
	check "... and the lines in order" sh -c "sed -n 4p $TMP/auto.altout | cmp -s - $TMP/auto.en && sed -n 5p $TMP/auto.altout | grep -qxF \"\$(sed -n 1p $TMP/auto.fr)\""
fi
