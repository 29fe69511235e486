# Bad model files: empty, truncated, random, bit-flipped, missing, a
# directory; a flipped weight byte only --verify sees.
M=$(shared tiny.nmt)
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
