# Threads (-t), batches (--batch) and streaming: the same output for any
# thread count and batch size, for every weight format; a line through a
# pipe answered at once; the options' errors.
M=$(shared tiny.nmt)
awk -F '\t' '$1 == "sent" { print $3 }' "$FIX/expected.txt" >"$TMP/src.txt"
# Under an emulator (RUNNER: qemu-user, where this file took half an hour)
# the same checks over fewer copies, thread counts and batch sizes: still
# more lines than one batch, several threads, an odd batch and a whole one.
if [ -n "${RUNNER:-}" ]; then
	copies=18 mixed_copies=2 thread_counts="2 8" batch_sizes="7 256"
else
	copies=60 mixed_copies=8 thread_counts="2 3 8" batch_sizes="2 7 64 256"
fi
# Threads: byte-identical output for any thread count, over more lines than
# one batch (256), 1-best and n-best with scores.
for i in $(seq $copies); do cat "$TMP/src.txt"; done >"$TMP/many.txt"
check "more lines than one batch" test "$(wc -l <"$TMP/many.txt")" -gt 256
$NMT -m "$M" -b 4 -t 1 <"$TMP/many.txt" >"$TMP/threads.1"
$NMT -m "$M" -b 4 --nbest 3 -t 1 <"$TMP/many.txt" >"$TMP/threads.nbest.1"
check "-t 1: one line per input line" test "$(wc -l <"$TMP/threads.1")" -eq "$(wc -l <"$TMP/many.txt")"
check "-t 1: n-best lines" test "$(wc -l <"$TMP/threads.nbest.1")" -ge "$(wc -l <"$TMP/many.txt")"
for t in $thread_counts; do
	$NMT -m "$M" -b 4 -t $t <"$TMP/many.txt" >"$TMP/threads.$t"
	check "-t $t translates like -t 1" cmp -s "$TMP/threads.1" "$TMP/threads.$t"
	$NMT -m "$M" -b 4 --nbest 3 --threads $t <"$TMP/many.txt" >"$TMP/threads.nbest.$t"
	check "-t $t: n-best like -t 1" cmp -s "$TMP/threads.nbest.1" "$TMP/threads.nbest.$t"
done
{ cat "$TMP/src.txt"; echo; paste -d ' ' "$TMP/src.txt" "$TMP/src.txt"; echo "  "; cat "$TMP/src.txt"; } >"$TMP/mixed1.txt"
# Batches: byte-identical output for any --batch, for every weight format,
# greedy and beam, with and without a shortlist, over lines of mixed lengths
# (empty ones among them) that sort into different batches each time.
for i in $(seq $mixed_copies); do cat "$TMP/mixed1.txt"; done >"$TMP/mixed.txt"
for model in "$M" "$(shared q8.nmt)" "$(shared q4.nmt)" "$(shared vmap.nmt)"; do
	name=$(basename "$model" .nmt)
	for beam in 1 4; do
		$NMT -m "$model" -b $beam --nbest $((beam > 1 ? 3 : 1)) -t 1 --batch 1 <"$TMP/mixed.txt" >"$TMP/batch.1"
		ok=1
		for b in $batch_sizes; do
			$NMT -m "$model" -b $beam --nbest $((beam > 1 ? 3 : 1)) -t 2 --batch $b <"$TMP/mixed.txt" >"$TMP/batch.$b"
			cmp -s "$TMP/batch.1" "$TMP/batch.$b" || ok=0
		done
		check "$name beam $beam: --batch $(echo $batch_sizes | tr ' ' /) (-t 2) translate like --batch 1" test $ok -eq 1
		[ $beam = 1 ] && cp "$TMP/batch.256" "$TMP/batch.greedy"
	done
done
check "--batch: one line per input line" test "$(wc -l <"$TMP/batch.greedy")" -eq "$(wc -l <"$TMP/mixed.txt")"
expect_error "batch 0" 2 $NMT --batch 0
expect_error "batch too big" 2 $NMT --batch 100000
# Streaming: a line sent alone through a pipe is answered before the next is
# sent (the writer keeps the pipe open and waits up to 10 s for the answer).
mkfifo "$TMP/fifo"
: >"$TMP/stream.out"
($NMT -m "$M" -b 1 -t 2 <"$TMP/fifo" | cat >>"$TMP/stream.out") &
stream_pid=$!
exec 3>"$TMP/fifo"
head -n 1 "$TMP/src.txt" >&3
tries=0
while [ "$(wc -l <"$TMP/stream.out")" -lt 1 ] && [ $tries -lt 100 ]; do sleep 0.1; tries=$((tries + 1)); done
check "streaming: the first line is answered while the pipe stays open" test "$(wc -l <"$TMP/stream.out")" -eq 1
sed -n 2p "$TMP/src.txt" >&3
exec 3>&-
wait $stream_pid
check "streaming: then the second" test "$(wc -l <"$TMP/stream.out")" -eq 2
expect_error "threads 0" 2 $NMT -t 0
expect_error "threads not a number" 2 $NMT --threads x
