# model-pack: the vocabulary map (shortlist), quantized weights (q8, q4, i8),
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

# ---- quantized weights (q8, q4, i8) ------------------------------------------
for q in q8 q4 i8; do
	check "pack --quant $q" $PACK --quant $q -o "$TMP/$q.nmt" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
	check "nmt info shows quant=$q" sh -c "$NMT info --verify $TMP/$q.nmt | grep -qx 'quant=$q'"
	$NMT -m "$TMP/$q.nmt" -b 4 <"$TMP/src.txt" >"$TMP/got.$q"
	check "$q: one line per input" test "$(wc -l <"$TMP/got.$q")" -eq "$n_sent"
done

{ cat "$TMP/src.txt"; echo; paste -d ' ' "$TMP/src.txt" "$TMP/src.txt"; echo "  "; cat "$TMP/src.txt"; } >"$TMP/mixed1.txt"
# Precomputed tables (model-pack --precompute-top K), filled by each
# translator as it meets the words (the input's lines come back, so later
# batches read rows earlier ones filled; two threads, one table each) or
# stored (--store-precomputed): the same n-best lists, scores included, for
# every weight format, with part of the vocabulary covered (K=50) and all of
# it (K larger than the vocabulary).
for q in f32 q8 q4 i8; do
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
