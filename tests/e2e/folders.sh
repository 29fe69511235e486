# A Marian model's folder as Firefox Translations publishes one, packed by
# model-pack --marian DIR and installed by nmt install (FILE.nmt or DIR):
# the files found by their names (gzipped or not), the languages from the
# names or metadata.json, the same packed file as the files named one by
# one, and the errors. The folders are made here from the Marian fixture
# (tests/fixtures/marian, an en->de model on the tiny fixture's vocabulary).
MF=tests/fixtures/marian
MO="--alpha 0 --no-repeat-guard --no-protect --no-case-fold --split none"
printf '%s\n' "A dog runs along the beach." "Two young children are playing in the sand." "Women sing." >"$TMP/in.txt"
# folder NAME FILE:AS...: $TMP/NAME holding each FILE as AS (gzipped if AS ends in .gz)
folder() {
	f_dir=$TMP/$1
	shift
	rm -rf "$f_dir"
	mkdir -p "$f_dir"
	for f_spec in "$@"; do
		case ${f_spec#*:} in
		*.gz) gzip -9 -c "${f_spec%%:*}" >"$f_dir/${f_spec#*:}" ;;
		*) cp "${f_spec%%:*}" "$f_dir/${f_spec#*:}" ;;
		esac
	done
}
# pack_dir NAME [OPTIONS]: model-pack --marian $TMP/NAME -o $TMP/NAME.nmt, what it found in $TMP/NAME.found
pack_dir() {
	p_dir=$1
	shift
	$PACK --marian "$TMP/$p_dir" "$@" -o "$TMP/$p_dir.nmt" 2>"$TMP/$p_dir.found"
}
found() { grep -Eq "^  $2 +$3\$" "$TMP/$1.found"; }   # found NAME ROLE TEXT (an ERE)

# ---- model-pack --marian DIR ----------------------------------------------------
$PACK --marian $MF/all.int8emb.bin --vocab $FIX/tgt.model --shortlist $MF/small.lex.bin --src-lang en --tgt-lang de \
	-o "$TMP/files.nmt" 2>/dev/null
folder ff $MF/all.int8emb.bin:model.ende.intgemm.alphas.bin.gz $MF/small.lex.bin:lex.50.50.ende.s2t.bin.gz \
	$FIX/tgt.model:vocab.ende.spm.gz
check "folders: pack a Firefox folder (gzipped files)" pack_dir ff
check "folders: ... byte-identical to the files named one by one" cmp "$TMP/files.nmt" "$TMP/ff.nmt"
check "folders: ... says what it found: the model" found ff model 'model\.ende\.intgemm\.alphas\.bin\.gz'
check "folders: ... the vocabulary" found ff vocabulary 'vocab\.ende\.spm\.gz \(source and target\)'
check "folders: ... the shortlist" found ff shortlist 'lex\.50\.50\.ende\.s2t\.bin\.gz'
check "folders: ... the languages, from the names" found ff languages 'en -> de \(from the file names\)'
check "folders: ... recorded for nmt -l" sh -c "$NMT info $TMP/ff.nmt | grep -qx src_lang=en && $NMT info $TMP/ff.nmt | grep -qx tgt_lang=de"
folder plain $MF/all.int8emb.bin:model.ende.intgemm.alphas.bin $MF/small.lex.bin:lex.50.50.ende.s2t.bin \
	$FIX/tgt.model:vocab.ende.spm $FIX/expected.txt:README.txt
check "folders: pack a folder of plain files (and a README)" pack_dir plain
check "folders: ... the same file" cmp "$TMP/files.nmt" "$TMP/plain.nmt"
folder i8 $MF/all.intgemm8.bin:model.ende.intgemm8.bin $FIX/tgt.model:vocab.ende.spm
$PACK --marian $MF/all.intgemm8.bin --vocab $FIX/tgt.model --src-lang en --tgt-lang de -o "$TMP/i8files.nmt" 2>/dev/null
check "folders: model.PAIR.intgemm8.bin, no shortlist" pack_dir i8
check "folders: ... the same file as named one by one" cmp "$TMP/i8files.nmt" "$TMP/i8.nmt"
check "folders: ... says there is no shortlist" found i8 shortlist 'none \(every output word is scored\)'
$PACK --marian $MF/tgt.npz --vocab $FIX/src.model --vocab $FIX/tgt.model --shortlist $MF/small.lex.bin --src-lang en \
	--tgt-lang de -o "$TMP/twofiles.nmt" 2>/dev/null
folder two $MF/tgt.npz:model.ende.npz.gz $FIX/src.model:srcvocab.ende.spm.gz $FIX/tgt.model:trgvocab.ende.spm.gz \
	$MF/small.lex.bin:lex.50.50.ende.s2t.bin.gz
check "folders: srcvocab and trgvocab, an .npz model" pack_dir two
check "folders: ... the same file" cmp "$TMP/twofiles.nmt" "$TMP/two.nmt"
check "folders: ... both vocabularies named" sh -c "grep -Eq '^  source vocabulary +srcvocab.ende.spm.gz' $TMP/two.found && grep -Eq '^  target vocabulary +trgvocab.ende.spm.gz' $TMP/two.found"
folder meta $MF/all.int8emb.bin:model.ende.intgemm.alphas.bin.gz $MF/small.lex.bin:lex.50.50.ende.s2t.bin.gz \
	$FIX/tgt.model:vocab.ende.spm.gz
printf '{"architecture": "tiny", "modelConfig": {"dim-emb": 32, "dim-vocabs": [8000, 8000]}, "sourceLanguage": "en",\n "targetLanguage": "de", "flores": {"bleu": 1.5}}\n' >"$TMP/meta/metadata.json"
check "folders: with Firefox's metadata.json" pack_dir meta
check "folders: ... the same file" cmp "$TMP/files.nmt" "$TMP/meta.nmt"
check "folders: ... the languages from it, the names agreeing" found meta languages 'en -> de \(from metadata.json; the file names agree\)'
folder unnamed $MF/all.npz:model.npz $FIX/tgt.model:vocab.spm
printf '{"sourceLanguage": "en", "targetLanguage": "zh-Hans"}' | gzip -c >"$TMP/unnamed/metadata.json.gz"
check "folders: names without a pair, a gzipped metadata.json" pack_dir unnamed
check "folders: ... its BCP 47 tag recorded as a code (zh_Hans)" sh -c "$NMT info $TMP/unnamed.nmt | grep -qx tgt_lang=zh_Hans"
folder nolang $MF/all.npz:model.npz $FIX/tgt.model:vocab.spm
check "folders: no pair and no metadata.json: packed as und" pack_dir nolang
check "folders: ... and says so" found nolang languages 'und -> und \(none in the file names or a metadata.json\)'
check "folders: --src-lang and --tgt-lang name them" pack_dir nolang --src-lang en --tgt-lang de
check "folders: ... recorded" sh -c "$NMT info $TMP/nolang.nmt | grep -qx tgt_lang=de"
folder prec $MF/all.int8emb.bin:model.ende.intgemm.alphas.bin.gz $MF/all.npz:model.npz \
	$MF/small.lex.bin:lex.50.50.ende.s2t.bin.gz $FIX/tgt.model:vocab.ende.spm.gz $MF/small.lex.bin:qualityModel.ende.bin.gz
check "folders: Firefox's model name before another .npz, qualityModel passed over" pack_dir prec
check "folders: ... the same file" cmp "$TMP/files.nmt" "$TMP/prec.nmt"
check "folders: ... says which it chose over which" found prec model 'model\.ende\.intgemm\.alphas\.bin\.gz \(chosen over model\.npz\)'
folder three $MF/all.npz:model.engdeu.npz $FIX/tgt.model:vocab.engdeu.spm
check "folders: a pair of 3-letter codes" pack_dir three
check "folders: ... split 3 + 3" found three languages 'eng -> deu \(from the file names\)'
folder five $MF/all.npz:model.enfil.npz $FIX/tgt.model:vocab.enfil.spm
check "folders: a 5-letter pair with en on one side" pack_dir five
check "folders: ... split en + fil" found five languages 'en -> fil \(from the file names\)'

# ---- its errors: one line, status 1 (2 for usage), no output left -----------------
mkdir -p "$TMP/empty"
expect_error "folders: an empty folder" 1 $PACK --marian "$TMP/empty" -o "$NOOUT"
check "folders: ... says there is no model" grep -q "^model-pack: $TMP/empty: no model" "$TMP/err"
folder twomodels $MF/all.int8emb.bin:model.ende.intgemm.alphas.bin.gz $MF/all.int8emb.bin:model.enfr.intgemm.alphas.bin.gz \
	$FIX/tgt.model:vocab.ende.spm.gz
expect_error "folders: two models" 1 $PACK --marian "$TMP/twomodels" -o "$NOOUT"
check "folders: ... names both" grep -q "two models, model.ende.intgemm.alphas.bin.gz and model.enfr.intgemm.alphas.bin.gz" "$TMP/err"
folder gzandplain $MF/all.npz:model.npz $MF/all.npz:model.npz.gz $FIX/tgt.model:vocab.spm
expect_error "folders: a model there plain and gzipped" 1 $PACK --marian "$TMP/gzandplain" -o "$NOOUT"
folder novocab $MF/all.int8emb.bin:model.ende.intgemm.alphas.bin.gz $MF/small.lex.bin:lex.50.50.ende.s2t.bin.gz
expect_error "folders: no vocabulary" 1 $PACK --marian "$TMP/novocab" -o "$NOOUT"
check "folders: ... says so" grep -q ": no vocabulary" "$TMP/err"
folder nosrc $MF/tgt.npz:model.ende.npz $FIX/tgt.model:trgvocab.ende.spm
expect_error "folders: trgvocab without srcvocab" 1 $PACK --marian "$TMP/nosrc" -o "$NOOUT"
folder both $MF/tgt.npz:model.ende.npz $FIX/tgt.model:trgvocab.ende.spm $FIX/src.model:srcvocab.ende.spm $FIX/tgt.model:vocab.ende.spm
expect_error "folders: a shared vocabulary and a pair" 1 $PACK --marian "$TMP/both" -o "$NOOUT"
folder pairs $MF/all.npz:model.enfr.npz $FIX/tgt.model:vocab.ende.spm
expect_error "folders: files named for two pairs" 1 $PACK --marian "$TMP/pairs" -o "$NOOUT"
check "folders: ... names both" grep -q "two language pairs: enfr (model.enfr.npz) and ende (vocab.ende.spm)" "$TMP/err"
folder ambiguous $MF/all.npz:model.ensen.npz $FIX/tgt.model:vocab.ensen.spm
expect_error "folders: a 5-letter pair that splits two ways" 1 $PACK --marian "$TMP/ambiguous" -o "$NOOUT"
check "folders: ... asks for --src-lang and --tgt-lang" grep -q "more than one way: give --src-lang and --tgt-lang" "$TMP/err"
check "folders: ... which settle it" pack_dir ambiguous --src-lang ens --tgt-lang en
cp -r "$TMP/meta" "$TMP/badmeta"
printf '{"sourceLanguage": "en", "targetLanguage": ' >"$TMP/badmeta/metadata.json"
expect_error "folders: metadata.json that is not JSON" 1 $PACK --marian "$TMP/badmeta" -o "$NOOUT"
printf '{"sourceLanguage": "en", "targetLanguage": "fr"}' >"$TMP/badmeta/metadata.json"
expect_error "folders: metadata.json disagreeing with the names" 1 $PACK --marian "$TMP/badmeta" -o "$NOOUT"
printf '{"sourceLanguage": "en", "targetLanguage": "d\\u000ae"}' >"$TMP/badmeta/metadata.json"
expect_error "folders: a language tag with a newline" 1 $PACK --marian "$TMP/badmeta" -o "$NOOUT"
printf '{"sourceLanguage": "en"}' >"$TMP/badmeta/metadata.json"
expect_error "folders: metadata.json with one language" 1 $PACK --marian "$TMP/badmeta" -o "$NOOUT"
cp -r "$TMP/ff" "$TMP/corrupt"
head -c 3000 "$TMP/ff/model.ende.intgemm.alphas.bin.gz" >"$TMP/corrupt/model.ende.intgemm.alphas.bin.gz"
$PACK --marian "$TMP/corrupt" -o "$NOOUT" >/dev/null 2>"$TMP/corrupt.err"
check "folders: a truncated .gz model: status 1" test $? -eq 1
check "folders: ... the last line names it" sh -c "tail -n 1 $TMP/corrupt.err | grep -q '^model-pack: $TMP/corrupt/model.ende.intgemm.alphas.bin.gz: truncated'"
expect_error "folders: --vocab with a folder" 2 $PACK --marian "$TMP/ff" --vocab $FIX/tgt.model -o "$NOOUT"
expect_error "folders: --vmap with a folder's shortlist" 2 $PACK --marian "$TMP/ff" --vmap $FIX/vmap_small.txt -o "$NOOUT"

# ---- nmt install -------------------------------------------------------------------
# A home of its own; nmt's user folder is ~/.local/share/nmt (cli/catalog.h).
I="env HOME=$TMP/home NMT_MODELS="
U=$TMP/home/.local/share/nmt
installed() { # installed NAME: no temporary file left, and NAME the only model
	[ "$(ls -A "$U")" = "$1" ]
}
check "install: a packed file" sh -c "$I $NMT install $TMP/files.nmt >$TMP/inst.out"
check "install: ... says where it went" grep -qx "installed en -> de (transformer-ssru, f32, $(wc -c <"$TMP/files.nmt") bytes) as $U/en-de.nmt" "$TMP/inst.out"
check "install: ... copied byte for byte" cmp "$TMP/files.nmt" "$U/en-de.nmt"
check "install: ... nothing else left there" installed en-de.nmt
expect_error "install: again without --force" 1 $I $NMT install "$TMP/files.nmt"
check "install: ... says how to replace it" grep -q "en-de.nmt is installed already (nmt install --force replaces it)" "$TMP/err"
head -c 20000 "$TMP/ff.nmt" >"$TMP/broken.nmt"
expect_error "install: a truncated model" 1 $I $NMT install --force "$TMP/broken.nmt"
cp "$TMP/ff.nmt" "$TMP/flipped.nmt"
printf '\001' | dd of="$TMP/flipped.nmt" bs=1 seek=30000 conv=notrunc 2>/dev/null
expect_error "install: a model with a damaged section (checksums verified)" 1 $I $NMT install --force "$TMP/flipped.nmt"
expect_error "install: a file that is no model" 1 $I $NMT install --force "$FIX/tgt.model"
$PACK --marian $MF/all.npz --vocab $FIX/tgt.model -o "$TMP/und.nmt" 2>/dev/null
expect_error "install: a model that names no languages" 1 $I $NMT install --force "$TMP/und.nmt"
check "install: ... nothing replaced" cmp "$TMP/files.nmt" "$U/en-de.nmt"
expect_error "install: --quant with a packed file" 2 $I $NMT install --quant q4 "$TMP/files.nmt"
expect_error "install: a missing file" 1 $I $NMT install "$TMP/nope.nmt"
expect_error "install: no HOME" 1 env -u HOME NMT_MODELS= $NMT install "$TMP/files.nmt"
check "install: a Firefox folder, --force (packed i8 on the way)" sh -c "$I $NMT install --force $TMP/ff >$TMP/inst.out 2>$TMP/inst.err"
check "install: ... says what it found" grep -q '^  shortlist  *lex.50.50.ende.s2t.bin.gz$' "$TMP/inst.err"
check "install: ... and where it went" grep -q "^installed en -> de (transformer-ssru, i8, .* as $U/en-de.nmt\$" "$TMP/inst.out"
$PACK --marian "$TMP/ff" --quant i8 -o "$TMP/ff.i8.nmt" 2>/dev/null
check "install: ... the file model-pack --marian DIR --quant i8 makes" cmp "$TMP/ff.i8.nmt" "$U/en-de.nmt"
check "install: ... nothing else left there" installed en-de.nmt
check "install: nmt models lists it" sh -c "$I $NMT models | grep -Eq '^en-de +transformer-ssru +i8 .*$U/en-de.nmt\$'"
$I $NMT -l en-de $MO <"$TMP/in.txt" >"$TMP/l.out"
$NMT -m "$U/en-de.nmt" $MO <"$TMP/in.txt" >"$TMP/m.out"
check "install: nmt -l en-de translates with it, as -m FILE does" cmp "$TMP/m.out" "$TMP/l.out"
check "install: ... 3 lines" test "$(wc -l <"$TMP/l.out")" -eq 3
check "install: ... not the embedded en-de model, which it comes before" sh -c "! $NMT $MO <$TMP/in.txt 2>/dev/null | cmp -s - $TMP/l.out"
expect_error "install: a folder again without --force" 1 $I $NMT install "$TMP/ff"
check "install: a second pair, with srcvocab and trgvocab, --quant f32" sh -c "$I $NMT install --quant f32 --src-lang de --tgt-lang en $TMP/two >/dev/null 2>&1"
$PACK --marian "$TMP/two" --src-lang de --tgt-lang en -o "$TMP/two.deen.nmt" 2>/dev/null
check "install: ... under its languages, as model-pack packs it" cmp "$TMP/two.deen.nmt" "$U/de-en.nmt"
check "install: ... listed beside the first" sh -c "$I $NMT models | grep -q '^de-en .*$U/de-en.nmt\$' && $I $NMT models | grep -q '^en-de .*$U/en-de.nmt\$'"
expect_error "install: an empty folder" 1 $I $NMT install "$TMP/empty"
expect_error "install: a folder without languages" 1 $I $NMT install "$TMP/nolang"
check "install: ... asks for them" grep -q "give --src-lang and --tgt-lang" "$TMP/err"
$I $NMT install --force "$TMP/corrupt" >/dev/null 2>"$TMP/corrupt.err"
check "install: a folder with a truncated .gz model: status 1" test $? -eq 1
check "install: ... the packer's message last" sh -c "tail -n 1 $TMP/corrupt.err | grep -q '^nmt: .*model.ende.intgemm.alphas.bin.gz: truncated'"
check "install: ... the installed model kept, no temporary file left" sh -c "cmp -s $TMP/ff.i8.nmt $U/en-de.nmt && [ \"\$(ls -A $U)\" = \"de-en.nmt
en-de.nmt\" ]"
mkdir -p "$TMP/first"
cp "$TMP/files.nmt" "$TMP/first/ende.nmt"
check "install: a note when another model comes first for nmt -l" sh -c "env HOME=$TMP/home NMT_MODELS=$TMP/first $NMT install --force $TMP/files.nmt 2>&1 >/dev/null | grep -q '^nmt: note: nmt -l en-de takes $TMP/first/ende.nmt'"
