# model-pack: the vocabulary map (shortlist), quantized weights (q8, q4, q4n, i8),
# precomputed tables, and model-pack's errors. Runs last (run.sh): its
# closing check sees that no failed model-pack run of the suite left output.
M=$(shared tiny.nmt)
awk -F '\t' '$1 == "sent" { print $3 }' "$FIX/expected.txt" >"$TMP/src.txt"
n_sent=$(wc -l <"$TMP/src.txt")
$NMT -m "$M" -b 4 <"$TMP/src.txt" >"$TMP/got.4"   # the model's own translations (translate.sh checks them)

# ---- the vocabulary map (shortlist) ------------------------------------------
check "pack with --vmap" $PACK --vmap "$FIX/vmap_small.txt" -o "$TMP/vmap.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
check "nmt info shows the vmap" sh -c "$NMT info $TMP/vmap.nmt | grep -q '^section vmap'"
$NMT -m "$TMP/vmap.nmt" -b 4 --no-shortlist <"$TMP/src.txt" >"$TMP/noshort"
check "--no-shortlist equals the model without a map" cmp -s "$TMP/noshort" "$TMP/got.4"
$NMT -m "$TMP/vmap.nmt" -b 4 <"$TMP/src.txt" >"$TMP/short"
check "shortlist: one line per input" test "$(wc -l <"$TMP/short")" -eq "$n_sent"
check "shortlist changes the small model's output" sh -c "! cmp -s $TMP/short $TMP/got.4"
printf '# x\n\t1 2\n5\t1 999\n' >"$TMP/badvmap.txt"
expect_error "pack: vmap id outside the vocabulary" 1 $PACK --vmap "$TMP/badvmap.txt" -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"

# ---- quantized weights (q8, q4, q4n, i8) ---------------------------------------
for q in q8 q4 q4n i8; do
	check "pack --quant $q" $PACK --quant $q -o "$TMP/$q.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
	check "nmt info shows quant=$q" sh -c "$NMT info --verify $TMP/$q.nmt | grep -qx 'quant=$q'"
	$NMT -m "$TMP/$q.nmt" -b 4 <"$TMP/src.txt" >"$TMP/got.$q"
	check "$q: one line per input" test "$(wc -l <"$TMP/got.$q")" -eq "$n_sent"
done

# ---- the embeddings in one format, the other matrices in another (EMB+F) ----
weights_bytes() { $NMT info "$1" | awk '$1 == "section" && $2 == "weights" { print $3 }'; }
for q in q4n+i8 i8+q4n q4n+q4n; do
	check "pack --quant $q" $PACK --quant $q -o "$TMP/$q.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
done
check "nmt info shows quant=q4n+i8" sh -c "$NMT info --verify $TMP/q4n+i8.nmt | grep -qx 'quant=q4n+i8'"
check "q4n+q4n is q4n, byte for byte" cmp -s "$TMP/q4n+q4n.nmt" "$TMP/q4n.nmt"
# each tensor takes its own format's bytes: the two mixes together hold what q4n and i8 hold
check "q4n+i8 and i8+q4n: each tensor in its own format" test 	"$(($(weights_bytes "$TMP/q4n+i8.nmt") + $(weights_bytes "$TMP/i8+q4n.nmt")))" -eq 	"$(($(weights_bytes "$TMP/q4n.nmt") + $(weights_bytes "$TMP/i8.nmt")))"
check "q4n+i8: the embeddings' share of the bytes is q4n's" test 	"$(weights_bytes "$TMP/q4n+i8.nmt")" -lt "$(weights_bytes "$TMP/i8.nmt")"
$NMT -m "$TMP/q4n+i8.nmt" -b 4 <"$TMP/src.txt" >"$TMP/got.mix"
check "q4n+i8: one line per input" test "$(wc -l <"$TMP/got.mix")" -eq "$n_sent"
expect_error "pack: --quant with nothing after +" 2 $PACK --quant q4n+ -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: --quant with two +" 2 $PACK --quant q4n+q4n+i8 -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: --quant EMB+F with --marian" 2 $PACK --marian "$FIX/tiny.safetensors" --quant q4n+i8 -o "$NOOUT"

# ---- the model's own length normalization (--alpha, metadata "alpha") ------
# A search that names no --alpha ranks by the file's; one that names it, by its own.
$NMT -m "$M" -b 4 --nbest 4 <"$TMP/src.txt" >"$TMP/alpha.default"
$NMT -m "$M" -b 4 --nbest 4 --alpha 2 <"$TMP/src.txt" >"$TMP/alpha.2"
check "pack --alpha 2" $PACK --alpha 2 -o "$TMP/alpha.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
check "--alpha: nmt info shows alpha=2" sh -c "$NMT info $TMP/alpha.nmt | grep -qx 'alpha=2'"
check "--alpha: the model's alpha ranks the n-best (scores included)" sh -c \
	"$NMT -m $TMP/alpha.nmt -b 4 --nbest 4 <$TMP/src.txt | cmp -s - $TMP/alpha.2"
check "--alpha: ... not the default's" sh -c "! cmp -s $TMP/alpha.2 $TMP/alpha.default"
check "--alpha: nmt --alpha 0.6 overrides the model's" sh -c \
	"$NMT -m $TMP/alpha.nmt -b 4 --nbest 4 --alpha 0.6 <$TMP/src.txt | cmp -s - $TMP/alpha.default"
check "--alpha: a model without one searches at 0.6" sh -c \
	"$NMT -m $M -b 4 --nbest 4 --alpha 0.6 <$TMP/src.txt | cmp -s - $TMP/alpha.default"
expect_error "pack: --alpha over 10" 2 $PACK --alpha 11 -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: --alpha not a number" 2 $PACK --alpha 1x -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
# the checkpoint's own (train/install_general.sh writes it there)
if command -v "$PYTHON" >/dev/null 2>&1; then
	with_alpha() { # with_alpha VALUE OUT: the tiny checkpoint with metadata alpha=VALUE
		"$PYTHON" -c 'import json, struct, sys
data = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", data[:8])[0]
head = json.loads(data[8:8 + n])
head["__metadata__"]["alpha"] = sys.argv[2]
h = json.dumps(head).encode()
h += b" " * (-len(h) % 8)
open(sys.argv[3], "wb").write(struct.pack("<Q", len(h)) + h + data[8 + n:])' "$FIX/tiny.safetensors" "$1" "$2"
	}
	with_alpha 2.0 "$TMP/alpha.safetensors"
	check "pack: the checkpoint's alpha recorded" sh -c "$PACK -o $TMP/alpha_ck.nmt $TMP/alpha.safetensors $FIX/src.model \
		$FIX/tgt.model && $NMT info $TMP/alpha_ck.nmt | grep -qx 'alpha=2'"
	check "pack: --alpha over the checkpoint's" sh -c "$PACK --alpha 0.5 -o $TMP/alpha_ck.nmt $TMP/alpha.safetensors \
		$FIX/src.model $FIX/tgt.model && $NMT info $TMP/alpha_ck.nmt | grep -qx 'alpha=0.5'"
	with_alpha x "$TMP/alpha_bad.safetensors"
	expect_error "pack: a checkpoint's alpha that is not a number" 1 $PACK -o "$NOOUT" "$TMP/alpha_bad.safetensors" \
		"$FIX/src.model" "$FIX/tgt.model"
fi

{ cat "$TMP/src.txt"; echo; paste -d ' ' "$TMP/src.txt" "$TMP/src.txt"; echo "  "; cat "$TMP/src.txt"; } >"$TMP/mixed1.txt"
# Precomputed tables (model-pack --precompute-top K), filled by each
# translator as it meets the words (the input's lines come back, so later
# batches read rows earlier ones filled; two threads, one table each) or
# stored (--store-precomputed): the same n-best lists, scores included, for
# every weight format, with part of the vocabulary covered (K=50) and all of
# it (K larger than the vocabulary).
for q in f32 q8 q4 q4n i8; do
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
		$NMT -m "$TMP/pre.$q.$k.nmt" -b 4 --nbest 4 -t 2 --batch 1 <"$TMP/mixed1.txt" >"$TMP/pre.got"
		check "$q --precompute-top $k, two threads, a sentence a batch, translates exactly as without" \
			cmp -s "$TMP/pre.plain" "$TMP/pre.got"
		check "pack --quant $q --precompute-top $k --store-precomputed" $PACK --quant $q --precompute-top $k \
			--store-precomputed -o "$TMP/pre.$q.$k.s.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
		$NMT -m "$TMP/pre.$q.$k.s.nmt" -b 4 --nbest 4 <"$TMP/mixed1.txt" >"$TMP/pre.got"
		check "$q --precompute-top $k stored translates exactly as without" cmp -s "$TMP/pre.plain" "$TMP/pre.got"
	done
done
check "nmt info: tables asked for, not stored, by default" sh -c "$NMT info $TMP/pre.q8.50.nmt | grep -qx 'precompute=50' && ! $NMT info $TMP/pre.q8.50.nmt | grep -q '^section precomp'"
check "nmt info shows a stored precomp section" sh -c "$NMT info $TMP/pre.q8.50.s.nmt | grep -q '^section precomp'"
expect_error "pack: --precompute-top -1" 2 $PACK --precompute-top -1 -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: unknown --quant" 2 $PACK --quant q3 -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"

# ---- model-pack errors --------------------------------------------------------
expect_error "pack: missing tensor" 1 $PACK -o "$NOOUT" "$FIX/bad_missing.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: wrong shape" 1 $PACK -o "$NOOUT" "$FIX/bad_shape.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: unknown vocab type" 1 $PACK -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/word.model"
expect_error "pack: vocab size mismatch" 1 $PACK -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" tests/fixtures/spm/uni_ident.model
expect_error "pack: checkpoint is not safetensors" 1 $PACK -o "$NOOUT" "$FIX/src.model" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: missing file" 1 $PACK -o "$NOOUT" "$TMP/nope" "$FIX/src.model" "$FIX/tgt.model"
expect_error "pack: usage" 2 $PACK -o "$NOOUT"
check "pack: no output left behind on error" test ! -e "$NOOUT"
