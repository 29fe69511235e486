# choose TABLE: the checkpoint to keep, from a LOOPS=1 bench/val_bleu.sh
# table: of those within 0.5 of the best beam-4 BLEU, the one with the
# fewest degenerate lines (val's and the task-2 captions', where the table
# has them), then the best beam 4. Sourced by the recipes.
choose() {
	awk 'NR > 1 { c[NR] = $1; b[NR] = $4; l[NR] = $5 + $6 + $7 + $8; if ($4 > top) top = $4 }
	     END { for (i in c) if (b[i] >= top - 0.5 && (w == "" || l[i] < l[w] || (l[i] == l[w] && b[i] > b[w]))) w = i
		   print c[w] }' "$1"
}

# choose_keeping TABLE KEEP MARGIN: choose's pick from TABLE among the
# checkpoints whose beam-4 BLEU in KEEP (a bench/val_bleu.sh table of the
# same checkpoints on a second validation set) is within MARGIN of KEEP's
# best: what the choice must not give up elsewhere; choose's alone where
# KEEP rules out every row.
choose_keeping() {
	choose_kept=$(mktemp)
	awk -v m="$3" 'NR == FNR { if (FNR > 1) { k[$1] = $4; if ($4 > top) top = $4 } next }
	     FNR == 1 || ($1 in k && k[$1] >= top - m)' "$2" "$1" >"$choose_kept"
	if [ "$(wc -l <"$choose_kept")" -gt 1 ]; then choose "$choose_kept"; else choose "$1"; fi
	rm -f "$choose_kept"
}
