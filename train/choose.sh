# choose TABLE: the checkpoint to keep, from a LOOPS=1 bench/val_bleu.sh
# table: of those within 0.5 of the best beam-4 BLEU, the one with the
# fewest degenerate lines (val's and the task-2 captions', where the table
# has them), then the best beam 4. Sourced by the recipes.
choose() {
	awk 'NR > 1 { c[NR] = $1; b[NR] = $4; l[NR] = $5 + $6 + $7 + $8; if ($4 > top) top = $4 }
	     END { for (i in c) if (b[i] >= top - 0.5 && (w == "" || l[i] < l[w] || (l[i] == l[w] && b[i] > b[w]))) w = i
		   print c[w] }' "$1"
}
