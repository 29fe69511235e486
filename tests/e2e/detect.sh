# nmt detect: one language code per input line (text/langid.h, the profile
# embedded from models/langid.bin), --json, the candidates (--langs, the
# installed models' source languages), --profile and its refusals.
printf '%s\n' 'The weather is nice today.' 'Wo ist der Bahnhof?' '' '12:30 !!' 'Je voudrais un café.' \
	'¿Dónde está la biblioteca?' 'Muž jede na kole po ulici.' 'Καλημέρα κόσμε' >"$TMP/in.txt"
printf '%s\n' en de und und fr es cs und >"$TMP/want.txt"
E="env HOME=$TMP/nohome NMT_MODELS="
$E $NMT detect <"$TMP/in.txt" >"$TMP/out.txt" 2>"$TMP/err.txt"
check "detect: one code per line, in order; und for no letters or a script no candidate writes" \
	cmp -s "$TMP/out.txt" "$TMP/want.txt"
check "detect: nothing on stderr" test ! -s "$TMP/err.txt"
check "detect: a last line without a newline counts" sh -c \
	"printf 'Wo ist der Bahnhof?\nThe dog sleeps.' | $E $NMT detect | tr '\n' ' ' | grep -qx 'de en '"
check "detect: no input, no output" sh -c "$E $NMT detect </dev/null | cmp -s - /dev/null"

$E $NMT detect --json <"$TMP/in.txt" >"$TMP/json.txt"
check "--json: one object per line" test "$(wc -l <"$TMP/json.txt")" -eq 8
check "--json: language, confidence, the runners-up" \
	grep -q '^{"language":"de","confidence":[01]\.[0-9]*,"alternatives":\[{"language":"[a-z]*","confidence":' \
	"$TMP/json.txt"
check "--json: und has no runners-up" grep -qx '{"language":"und","confidence":0.0000,"alternatives":\[\]}' \
	"$TMP/json.txt"
if command -v "$PYTHON" >/dev/null 2>&1; then
	check "--json: valid JSON whose confidences sum to 1" "$PYTHON" -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["language"] != "und":
        s = o["confidence"] + sum(a["confidence"] for a in o["alternatives"])
        assert abs(s - 1) < 0.01 and len(o["alternatives"]) == 4, line
' "$TMP/json.txt"
fi

check "--langs: only those are answered" sh -c \
	"$E $NMT detect --langs en,fr <$TMP/in.txt | grep -v und | sort -u | tr '\n' ' ' | grep -qx 'en fr '"
check "--langs with one language: every line with letters in its script is it" sh -c \
	"printf 'Wo ist der Bahnhof?\n' | $E $NMT detect --langs cs | grep -qx cs"

# the candidates by default: the installed models' source languages (de, fr
# here, and the embedded model's), so Spanish is answered among those
mkdir -p "$TMP/models"
$PACK --src-lang fr --tgt-lang en -o "$TMP/models/fren.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
$PACK --src-lang de --tgt-lang en -o "$TMP/models/deen.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
check "the installed models' source languages are the candidates" sh -c \
	"printf '¿Dónde está la biblioteca?\n' | env HOME=$TMP/nohome NMT_MODELS=$TMP/models $NMT detect | grep -Eqx 'fr|de|en'"
check "... and with fewer than two, every language of the profile" sh -c \
	"printf '¿Dónde está la biblioteca?\n' | $E $NMT detect | grep -qx es"

# the short everyday sentences (train/langid.py built them from held-out
# corpus lines): at least 95% right
cut -f 2 tests/fixtures/langid/short.tsv | $E $NMT detect --langs en,de,fr,es,cs >"$TMP/short.out"
check "short sentences (<= 6 words): >= 95% right" sh -c \
	"cut -f 1 tests/fixtures/langid/short.tsv | paste - $TMP/short.out | awk '\$1 == \$2 { r++ } END { exit !(NR > 0 && r / NR >= 0.95) }'"

check "--profile FILE: the same as the embedded one" sh -c \
	"$E $NMT detect --profile models/langid.bin <$TMP/in.txt | cmp -s - $TMP/want.txt"
head -c 100 models/langid.bin >"$TMP/short.bin"
expect_error "--profile: a truncated profile is refused" 1 $NMT detect --profile "$TMP/short.bin"
check "... saying why" grep -q 'short.bin: language profile: 100 bytes, but its header makes it' "$TMP/err"
expect_error "--profile: not a profile" 1 $NMT detect --profile "$FIX/src.model"
expect_error "--profile: a missing file" 1 $NMT detect --profile "$TMP/none.bin"
expect_error "--langs: a language the profile lacks" 2 $NMT detect --langs en,xx
expect_error "--langs: an empty code" 2 $NMT detect --langs en,
expect_error "detect: an unknown option" 2 $NMT detect --beam 4
expect_error "detect: an argument" 2 $NMT detect file.txt
check "detect --help" sh -c "$NMT detect --help | grep -q '^usage: nmt detect'"
