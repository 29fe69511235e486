#!/bin/sh
# What train/teachers_gpu.sh needs on a lent GPU machine, gathered into
# .devdata/ (ignored by git through .git/info/exclude) from a
# train/general.sh output folder:
#
#   train/devdata.sh OUT_DIR [XX] [TEACHERS_DIR]     (XX: de, fr or es; default de)
#
# pairs.enXX.xz (the corpus's pairs once each, with their copies),
# spm.enXX.model, flores-dev.{en,XX}, mono.{en,XX}.xz where train/mono.sh
# made them (German only for de), and the teacher.*.NNN parts that an
# earlier lent GPU sent back (TEACHERS_DIR), to train on from. Prints the
# size of what will travel: the working tree and the carried paths together
# must stay under 64 MiB, so the device call is made with the large model
# files of models/ moved aside (the teachers need none of them).
# Run from the repository root; FLORES dev is train/common.sh's FLORES.
set -eu
OUT=${1:?usage: train/devdata.sh OUT_DIR [XX] [TEACHERS_DIR]}
XX=${2:-de}
TEACHERS=${3:-}
. train/common.sh
D=.devdata
mkdir -p "$D"
grep -qx '/.devdata/' .git/info/exclude 2>/dev/null || echo /.devdata/ >>.git/info/exclude
rm -f "$D"/pairs.* "$D"/spm.* "$D"/mono.* "$D"/teacher.*
zcat "$OUT/corpus/$XX/pairs.tsv.gz" | cut -f1,2,4 | xz -9 -T2 >"$D/pairs.en$XX.xz"
cp "$OUT/spm.en$XX.model" "$D/"
cp "$FLORES/flores-dev.en" "$FLORES/flores-dev.$XX" "$D/"
for l in en "$XX"; do
	if [ -f "$OUT/mono/mono.$l.tsv.gz" ]; then zcat "$OUT/mono/mono.$l.tsv.gz" | cut -f1 | xz -9 >"$D/mono.$l.xz"; fi
done
if [ -n "$TEACHERS" ]; then cp "$TEACHERS"/teacher.*.[0-9][0-9][0-9] "$D/" 2>/dev/null || true; fi
echo "$D: $(du -sh "$D" | cut -f1); tracked files: $(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1) bytes"
