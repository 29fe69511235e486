# The kernel implementations (NMT_KERNELS); an unknown one is an error.
M=$(shared tiny.nmt)
awk -F '\t' '$1 == "sent" { print $3 }' "$FIX/expected.txt" >"$TMP/src.txt"
# Every kernel implementation this CPU runs translates identically, for every
# weight format (the f32 kernels have a fixed summation order; the integer
# ones are exact): 4-best lists with their scores, byte for byte.
for q in f32 q8 q4 q4n i8; do
	[ $q = f32 ] && model=$M || model=$(shared $q.nmt)
	NMT_KERNELS=scalar $NMT -m "$model" -b 4 --nbest 4 <"$TMP/src.txt" >"$TMP/kern.scalar.$q"
	check "$q: NMT_KERNELS=scalar translates" test -s "$TMP/kern.scalar.$q"
	for k in avx2 avx512 avx512-vbmi neon neon-dotprod; do
		NMT_KERNELS=$k $NMT -m "$model" -b 4 --nbest 4 <"$TMP/src.txt" >"$TMP/kern.$k.$q" 2>/dev/null || continue
		check "$q: NMT_KERNELS=$k translates like scalar" cmp -s "$TMP/kern.scalar.$q" "$TMP/kern.$k.$q"
	done
done
expect_error "unknown NMT_KERNELS" 1 env NMT_KERNELS=bogus $NMT -m "$M"
