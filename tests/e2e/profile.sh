# The profile build (make PROFILE=1; engine/profile.h): make test builds
# nmt with the per-stage timers as NMT_PROFILE (its objects apart). It must
# translate exactly as nmt does, print its table at exit on stderr (every
# stage, then the total, the stages adding up to it) and count the
# multiply-adds the dimensions give. Skipped, saying so, without
# NMT_PROFILE.
if [ -z "${NMT_PROFILE:-}" ]; then
	echo "note: profile: skipped: NMT_PROFILE (a make PROFILE=1 nmt) not given"
else
	MF=tests/fixtures/marian
	PO="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"
	printf '%s\n' "A dog runs along the beach." "Two young children are playing in the sand." "Women sing." \
		>"$TMP/in"
	$PACK --marian $MF/all.npz --vocab "$FIX/tgt.model" --shortlist $MF/small.lex.bin --quant q8 -o "$TMP/m.nmt" \
		>/dev/null
	# table OUT: every stage's row once, in order, then the total, whose
	# seconds and multiply-adds the rows add up to (within print rounding)
	table() {
		awk 'NR == 1 { next } NR == 2 && $1 == "stage" { next }
			$1 == "total" { t = $2; m = $4; done = 1; next }
			{ rows++; sec += $2; macs += $4 }
			END { d = sec - t; if (d < 0) d = -d
			      exit !(done && rows == 21 && d < 0.001 + 1e-4 * rows && macs == m && m > 0) }' "$1"
	}
	for b in 1 4; do
		$NMT -m "$TMP/m.nmt" -b $b $PO <"$TMP/in" >"$TMP/want.$b" 2>/dev/null
		$NMT_PROFILE -m "$TMP/m.nmt" -b $b $PO <"$TMP/in" >"$TMP/got.$b" 2>"$TMP/table.$b"
		check "profile: SSRU beam $b translates as nmt" cmp -s "$TMP/want.$b" "$TMP/got.$b"
		check "profile: ... and prints every stage and the total" table "$TMP/table.$b"
	done
	check "profile: the stages of the table" sh -c "awk 'NR > 2 { print \$1 }' $TMP/table.1 | tr '\n' ' ' |
		grep -qx 'enc_embed enc_qkv enc_att enc_out enc_ffn1 enc_ffn2 cross_kv encoder dec_embed dec_ssru cross_q cross_att cross_out dec_ffn1 dec_ffn2 decoder out_shortlist out_product out_softmax search other total '"
	# Multiply-adds from the dimensions (nmt info): over P source positions
	# the encoder's Q/K/V products are 3 P d^2 a layer, its FFN's first P d F.
	$NMT info "$TMP/m.nmt" >"$TMP/info"
	pos=$($NMT_PROFILE -m "$TMP/m.nmt" -b 1 $PO <"$TMP/in" 2>&1 >/dev/null | awk -F '[= ]+' '
		NR == FNR { dim[$1] = $2; next }
		$1 == "enc_qkv" { q = $4 } $1 == "enc_ffn1" { f = $4 }
		END { d = dim["emb"]; L = dim["enc_layers"]; P = q / (3 * d * d * L)
		      if (P == int(P) && P > 0 && f == P * d * dim["ffn"] * L) print P }' "$TMP/info" -)
	check "profile: encoder multiply-adds from the dimensions" test -n "$pos"
	# The GRU family has no stages of its own: its encoder and steps are
	# the "rest" rows, and the table still adds up.
	$NMT -m "$(shared q8.nmt)" -b 4 <"$TMP/in" >"$TMP/gru.want" 2>/dev/null
	$NMT_PROFILE -m "$(shared q8.nmt)" -b 4 <"$TMP/in" >"$TMP/gru.got" 2>"$TMP/gru.table"
	check "profile: GRU translates as nmt" cmp -s "$TMP/gru.want" "$TMP/gru.got"
	check "profile: ... its table adds up" table "$TMP/gru.table"
fi
