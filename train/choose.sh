# choose TABLE: the checkpoint to keep, from a LOOPS=1 bench/val_bleu.sh
# table: of those within 0.5 of the best beam-4 BLEU, the ones with the
# fewest degenerate lines (val's and the task-2 captions', where the table
# has them), give or take LOOP_SLACK (default 5), then the best beam 4 of
# them; the fewer loops on a tie. The counts are of some 4,000 translations:
# a few lines more or less is noise, which is not worth 0.4 BLEU (en->fr's
# q4n stage: GPTQ's 16.99 with 30 lines against step 500's 16.55 with 27).
# Sourced by the recipes.
choose() {
	awk -v slack="${LOOP_SLACK:-5}" '
	     NR > 1 { c[NR] = $1; b[NR] = $4; l[NR] = $5 + $6 + $7 + $8; if (top == "" || $4 > top) top = $4 }
	     END { for (i in c) if (b[i] >= top - 0.5 && (fewest == "" || l[i] < fewest)) fewest = l[i]
		   for (i in c) if (b[i] >= top - 0.5 && l[i] <= fewest + slack &&
				    (w == "" || b[i] > b[w] || (b[i] == b[w] && l[i] < l[w]))) w = i
		   print c[w] }' "$1"
}

# choose_keeping TABLE KEEP MARGIN [FLOOR]: choose's pick from TABLE among
# the checkpoints whose beam-4 BLEU in KEEP (a bench/val_bleu.sh table of
# the same checkpoints on a second validation set) is within MARGIN of
# KEEP's best, or at least FLOOR there: what the choice must not give up
# elsewhere (FLOOR: what the users of that domain had before, the caption
# model's score; above it nothing is given up); choose's alone where KEEP
# rules out every row.
choose_keeping() {
	choose_kept=$(mktemp)
	awk -v m="$3" -v floor="${4:-}" 'NR == FNR { if (FNR > 1) { k[$1] = $4; if ($4 > top) top = $4 } next }
	     FNR == 1 { t = top - m; if (floor != "" && floor + 0 < t) t = floor + 0; print; next }
	     $1 in k && k[$1] >= t' "$2" "$1" >"$choose_kept"
	if [ "$(wc -l <"$choose_kept")" -gt 1 ]; then choose "$choose_kept"; else choose "$1"; fi
	rm -f "$choose_kept"
}

# choose_alpha TABLE KEEP GAIN [FLOOR]: the alpha of a bench/alpha.sh table
# with the best FLORES dev BLEU, among those whose Multi30k val BLEU is at
# most KEEP below the engine's default's (alpha 0.6: the caption domain must
# not lose to the change), or at least FLOOR (as choose_keeping's); every
# row where the table has no Multi30k column, or KEEP is "-"; the default
# itself unless that best is more than GAIN above it (a difference within
# noise changes nothing). The first such row on a tie.
choose_alpha() {
	awk -v keep="$2" -v gain="$3" -v floor="${4:-}" '
	     NR > 1 { a[NR] = $1; b[NR] = $2; m[NR] = $5; n = NR; if ($1 + 0 == 0.6) d = NR }
	     END { for (i = 2; i <= n; i++)
			if ((keep == "-" || d == "" || m[d] == "-" || m[i] >= m[d] - keep ||
			     (floor != "" && m[i] >= floor + 0)) && (w == "" || b[i] > b[w])) w = i
		   if (d != "" && b[w] <= b[d] + gain) w = d
		   print a[w] }' "$1"
}

# shipped_format FLORES_TXT DIRECTION: the format a direction ships in, from
# its bench/flores.sh table: q8 where its 4-bit file (q4n+i8, q4n or q4) loses more
# than 0.5 BLEU against q8 at beam 4, else that 4-bit format; en->de always
# 4-bit (embedded, nmt stays within 8 MB).
shipped_format() {
	awk -v d="$2" '/\.q8\.nmt/ && $2 == "beam4" { q8 = $3 }
		/\.q4(n|n\+i8)?\.nmt/ && $2 == "beam4" { q4 = $3; f = $1; sub(/\.nmt$/, "", f); sub(/.*\./, "", f) }
		END { if (f == "") f = "q4"; print ((d != "ende" && q8 - q4 > 0.5) ? "q8" : f) }' "$1"
}

# caption_keep DIRECTION KEEP: the margin on Multi30k val within which the
# choices for DIRECTION stay of the best there: KEEP where given, else 0.1
# for en->de (its caption target, test_2016 >= 34, is close) and 0.5 for
# the others (on 1,014 captions 0.1 is within noise, and picks the captions'
# best alone: fr->en took a checkpoint 0.56 worse on FLORES dev, with more
# loops, for 0.15 there).
caption_keep() {
	if [ -n "$2" ]; then echo "$2"; elif [ "$1" = ende ]; then echo 0.1; else echo 0.5; fi
}
