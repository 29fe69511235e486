# Imported Marian models (the SSRU family): model-pack --marian from .npz
# and .bin files (float32, intgemm8), tied and untied, shortlists and the
# n-gram map, nmt's translations against the PyTorch reference and Marian's
# own; model-pack --marian's errors.
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
check "marian: pack --alpha 1 (the model's length normalization)" $PACK --marian $MF/all.npz $V1 --alpha 1 -o "$TMP/m_alpha.nmt"
check "marian: ... recorded" sh -c "$NMT info $TMP/m_alpha.nmt | grep -qx 'alpha=1'"
check "marian: ... and searched with" sh -c "$NMT -m $TMP/m_alpha.nmt -b 4 --nbest 4 <$TMP/marian.in >$TMP/m_alpha.a &&
	$NMT -m $TMP/m_all.nmt -b 4 --nbest 4 --alpha 1 <$TMP/marian.in | cmp -s - $TMP/m_alpha.a"
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
expect_error "marian: a tied-layer list of the wrong length" 1 $PACK --marian $MF/badtied.npz $V1 -o "$NOOUT"
check "marian: ... names the key" sh -c "$PACK --marian $MF/badtied.npz $V1 -o $NOOUT 2>&1 | grep -q 'transformer-tied-layers'"
check "marian: nmt info shows the family" sh -c "$NMT info $TMP/m_tgt.nmt | grep -qx 'arch=transformer-ssru' && $NMT info $TMP/m_tgt.nmt | grep -qx 'heads=4'"
$NMT -m "$TMP/m_all.nmt" -b 4 -t 1 <"$TMP/marian.in" >"$TMP/m1.out"
$NMT -m "$TMP/m_all.nmt" -b 4 --nbest 4 $MO <"$TMP/marian.in" >"$TMP/marian.nbest.noshortlist"
check "marian: -t 2 --batch 2 gives the same" sh -c "$NMT -m $TMP/m_all.nmt -b 4 -t 2 --batch 2 <$TMP/marian.in | cmp -s - $TMP/m1.out"
for k in scalar avx2 avx512; do
	if NMT_KERNELS=$k $NMT -m "$TMP/m_all.nmt" -b 1 </dev/null 2>/dev/null; then
		check "marian: NMT_KERNELS=$k gives the same" sh -c "NMT_KERNELS=$k $NMT -m $TMP/m_all.nmt -b 4 -t 1 <$TMP/marian.in | cmp -s - $TMP/m1.out"
	fi
done
for q in q8 q4 q4n i8; do
	check "marian: pack $q" $PACK --marian $MF/all.npz $V1 --quant $q -o "$TMP/m_$q.nmt"
	check "marian: $q translates every line" test "$($NMT -m $TMP/m_$q.nmt -b 4 <$TMP/marian.in | wc -l)" -eq 6
done
# i8's integer products are exact on every ISA: the same 4-best lists
$NMT -m "$TMP/m_i8.nmt" -b 4 --nbest 4 $MO <"$TMP/marian.in" >"$TMP/m_i8.nbest"
for k in scalar avx2 avx512 avx512-vbmi neon neon-dotprod; do
	if NMT_KERNELS=$k $NMT -m "$TMP/m_i8.nmt" -b 1 </dev/null 2>/dev/null; then
		check "marian: i8, NMT_KERNELS=$k gives the same 4-best" sh -c "NMT_KERNELS=$k $NMT -m $TMP/m_i8.nmt -b 4 --nbest 4 $MO <$TMP/marian.in | cmp -s - $TMP/m_i8.nbest"
	fi
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
expect_error "marian: --vmap and --shortlist together" 2 $PACK --marian $MF/tgt.npz --vocab $FIX/src.model --vocab $FIX/tgt.model --vmap $FIX/vmap_full.txt --shortlist $MF/small.lex.bin -o "$NOOUT"
cp $MF/small.lex.bin "$TMP/bad.lex.bin"
printf '\001' | dd of="$TMP/bad.lex.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
expect_error "marian: damaged shortlist (checksum)" 1 $PACK --marian $MF/all.npz $V1 --shortlist "$TMP/bad.lex.bin" -o "$NOOUT"
expect_error "marian: --shortlist without --marian" 2 $PACK --shortlist $MF/small.lex.bin -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
expect_error "marian: unsupported configuration named" 1 $PACK --marian $MF/unsupported.npz $V1 -o "$NOOUT"
check "marian: ... names the key" sh -c "$PACK --marian $MF/unsupported.npz $V1 -o $NOOUT 2>&1 | grep -q 'transformer-ffn-activation: swish'"
expect_error "marian: --marian without --vocab" 2 $PACK --marian $MF/all.npz -o "$NOOUT"
expect_error "marian: vocabulary of the wrong size" 1 $PACK --marian $MF/all.npz --vocab tests/fixtures/spm/uni_ident.model -o "$NOOUT"
# Firefox Translations publishes its files gzipped: model-pack reads any
# input ending in .gz (or starting with gzip's magic) through its own decoder
# (common/inflate.c), giving the very file the plain inputs give.
for g in all.npz all.intgemm8.bin small.lex.bin; do gzip -6 -c $MF/$g >"$TMP/gz.$g.gz"; done
gzip -9 -c $FIX/tgt.model >"$TMP/gz.tgt.spm.gz"
$PACK --marian $MF/all.npz $V1 --shortlist $MF/small.lex.bin -o "$TMP/m_plain_sl.nmt" 2>/dev/null
check "marian: pack gzipped .npz, vocabulary and shortlist" $PACK --marian "$TMP/gz.all.npz.gz" --vocab "$TMP/gz.tgt.spm.gz" --shortlist "$TMP/gz.small.lex.bin.gz" -o "$TMP/m_gz_sl.nmt"
check "marian: ... byte-identical to the plain files' pack" cmp "$TMP/m_plain_sl.nmt" "$TMP/m_gz_sl.nmt"
check "marian: pack gzipped intgemm8 .bin" $PACK --marian "$TMP/gz.all.intgemm8.bin.gz" $V1 -o "$TMP/m_gz8.nmt"
check "marian: ... byte-identical to the plain file's pack" cmp "$TMP/m_all8.nmt" "$TMP/m_gz8.nmt"
cp "$TMP/gz.all.npz.gz" "$TMP/gz.renamed.npz"
check "marian: gzip's magic under a plain name is decoded too" $PACK --marian "$TMP/gz.renamed.npz" $V1 -o "$TMP/m_gzr.nmt"
check "marian: ... byte-identical" cmp "$TMP/m_all.nmt" "$TMP/m_gzr.nmt"
head -c 3000 "$TMP/gz.all.npz.gz" >"$TMP/gz.trunc.npz.gz"
expect_error "marian: truncated .gz model" 1 $PACK --marian "$TMP/gz.trunc.npz.gz" $V1 -o "$NOOUT"
check "marian: ... names the file" sh -c "$PACK --marian $TMP/gz.trunc.npz.gz $V1 -o $NOOUT 2>&1 | grep -q '^model-pack: $TMP/gz.trunc.npz.gz: truncated'"
cp "$TMP/gz.tgt.spm.gz" "$TMP/gz.badcrc.spm.gz"
gzn=$(wc -c <"$TMP/gz.badcrc.spm.gz")
printf '\377' | dd of="$TMP/gz.badcrc.spm.gz" bs=1 seek=$((gzn - 8)) conv=notrunc 2>/dev/null
expect_error "marian: .gz vocabulary with a bad CRC-32" 1 $PACK --marian $MF/all.npz --vocab "$TMP/gz.badcrc.spm.gz" -o "$NOOUT"
check "marian: ... names the file and the checksum" sh -c "$PACK --marian $MF/all.npz --vocab $TMP/gz.badcrc.spm.gz -o $NOOUT 2>&1 | grep -q 'gz.badcrc.spm.gz: CRC-32 mismatch'"
cp $MF/small.lex.bin "$TMP/gz.notgzip.lex.gz"
expect_error "marian: a .gz name on a file that is not gzip" 1 $PACK --marian $MF/all.npz $V1 --shortlist "$TMP/gz.notgzip.lex.gz" -o "$NOOUT"
head -c 5000 $MF/all.npz >"$TMP/trunc.npz"
expect_error "marian: truncated .npz" 1 $PACK --marian "$TMP/trunc.npz" $V1 -o "$NOOUT"
head -c 5000 $MF/all.bin >"$TMP/trunc.bin"
expect_error "marian: truncated .bin" 1 $PACK --marian "$TMP/trunc.bin" $V1 -o "$NOOUT"
expect_error "marian: --vocab without --marian" 2 $PACK --vocab $FIX/tgt.model -o "$NOOUT" "$FIX/tiny.safetensors" "$FIX/src.model" "$FIX/tgt.model"
