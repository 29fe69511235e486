"""The n-gram vocabulary map (docs/DESIGN.md §6; OpenNMT WNMT 2018 §3.2).

    /usr/bin/python3 train/vmap.py --src-train X.en --tgt-train X.de \
        --spm-src S.model --spm-tgt T.model --out vmap.txt [--max-n 2] [--per-ngram 20]

1. Word alignment of the training data at the SentencePiece level with IBM
   Model 1 (EM, a NULL source word, dense float32 table Vs x Vt, pairs
   processed in chunks so memory stays bounded as the corpus grows).
2. Viterbi alignment: each target piece goes to its most probable source
   position or to NULL; then every piece of a target word takes the links
   of all pieces of that word (--no-spread turns this off).
3. 0-grams: the most frequent target pieces aligned to NULL, filled up with
   the most frequent pieces overall to `zero`, plus every piece of at most
   `zero_short` characters (word fragments no single source word explains),
   plus EOS.
4. For each source n-gram (n = 1..max_n) the target pieces aligned to its
   positions, counted over the corpus; each n-gram keeps its `per_ngram`
   most frequent ones (seen at least `min_count` times). Source unigrams
   also get their `per_ngram` most probable IBM Model 1 translations
   (p(t|s) >= 0.01), the context-free candidate list of Devlin 2017 §3.

Output, text: a header line, the 0-gram line "\t<t> <t> ...", then one line
per n-gram: "<s> <s> ...\t<t> <t> ...". model-pack reads this file.
"""
import argparse
import collections
import os
import sys

import numpy as np
import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402

CHUNK_PAIRS = 4_000_000


def pair_chunks(src, tgt, null_id):
    """Yield (s_ids, t_ids, occurrence index) for all (source position incl.
    NULL) x (target position) pairs, grouped by target occurrence."""
    s_buf, t_buf, o_buf, occ, n = [], [], [], 0, 0
    for s, t in zip(src, tgt):
        ss = np.asarray(s + [null_id], dtype=np.int64)
        for tok in t:
            s_buf.append(ss)
            t_buf.append(np.full(len(ss), tok, dtype=np.int64))
            o_buf.append(np.full(len(ss), occ, dtype=np.int64))
            occ += 1
            n += len(ss)
        if n >= CHUNK_PAIRS:
            yield np.concatenate(s_buf), np.concatenate(t_buf), np.concatenate(o_buf) - o_buf[0][0]
            s_buf, t_buf, o_buf, n = [], [], [], 0
    if s_buf:
        yield np.concatenate(s_buf), np.concatenate(t_buf), np.concatenate(o_buf) - o_buf[0][0]


def ibm1(src, tgt, vs, vt, iterations):
    """t[s, t] = p(target t | source s); row vs is NULL."""
    table = np.full((vs + 1, vt), 1.0 / vt, dtype=np.float32)
    for it in range(iterations):
        counts = np.zeros((vs + 1) * vt, dtype=np.float64)
        for s, t, o in pair_chunks(src, tgt, vs):
            p = table[s, t]
            denom = np.bincount(o, weights=p)
            post = p / denom[o]
            # summed over the chunk's distinct (source, target) pairs only: a
            # bincount over the whole table would write (vs + 1) x vt cells
            # per chunk (2 GB with 16,000 pieces a side); the sums are the
            # same, each pair's terms added in the same order
            keys, index = np.unique(s * vt + t, return_inverse=True)
            counts[keys] += np.bincount(index, weights=post, minlength=len(keys))
        counts = counts.reshape(vs + 1, vt)
        totals = counts.sum(axis=1, keepdims=True)
        table = np.where(totals > 0, counts / np.maximum(totals, 1e-30), 1.0 / vt).astype(np.float32)
        print(f'IBM1 iteration {it + 1}/{iterations}', flush=True)
    return table


def viterbi_links(src, tgt, table, vs):
    """For every sentence, the source position of each target piece (-1 = NULL)."""
    links = []
    for s, t in zip(src, tgt):
        if not t:
            links.append([])
            continue
        probs = table[np.asarray(s + [vs])][:, np.asarray(t)]   # (|s|+1) x |t|
        best = probs.argmax(axis=0)
        links.append([int(b) if b < len(s) else -1 for b in best])
    return links


def short_pieces(sp, max_chars):
    """Ids of pieces of at most max_chars characters once the word-start mark is removed."""
    if max_chars <= 0:
        return []
    out = []
    for i in range(sp.get_piece_size()):
        if sp.is_control(i) or sp.is_unknown(i):
            continue
        if len(sp.id_to_piece(i).replace('\u2581', '')) <= max_chars:
            out.append(i)
    return out


def add_ttable_candidates(entries, table, vs, per_ngram, threshold=0.01):
    """Source unigrams: their most probable translations under IBM Model 1."""
    top = np.argsort(-table[:vs], axis=1)[:, :per_ngram]
    for s in range(vs):
        cands = [int(t) for t in top[s] if table[s, t] >= threshold]
        if cands:
            merged = entries.get((s,), [])
            entries[(s,)] = merged + [t for t in cands if t not in merged]


def word_starts(sp):
    """starts[id] is True when piece id begins a word (carries the U+2581 mark)."""
    return [sp.id_to_piece(i).startswith('\u2581') for i in range(sp.get_piece_size())]


def spread_links(t, link, starts):
    """Give every piece of a target word the links of all pieces of that word:
    IBM Model 1 aligns the fragments of a split German word ('ort', 'ige')
    poorly, but the word as a whole is well aligned, so a source word that
    brings one piece of it brings the rest."""
    words, cur = [], []
    for j, tok in enumerate(t):
        if starts[tok] and cur:
            words.append(cur)
            cur = []
        cur.append(j)
    if cur:
        words.append(cur)
    out = [[] for _ in t]
    for w in words:
        srcs = sorted({link[j] for j in w if link[j] >= 0})
        for j in w:
            out[j] = srcs if srcs else [-1]
    return out


def build(src, tgt, links, max_n, per_ngram, min_count, n_zero, eos, starts=None):
    """starts: word_starts() of the target vocabulary to spread links over
    whole target words (spread_links), or None for piece links only."""
    unaligned, frequent = collections.Counter(), collections.Counter()
    table = collections.defaultdict(collections.Counter)
    for s, t, link in zip(src, tgt, links):
        by_pos = collections.defaultdict(list)
        frequent.update(t)
        multi = spread_links(t, link, starts) if starts else [[i] for i in link]
        for j, positions in enumerate(multi):
            for i in positions:
                if i < 0:
                    unaligned[t[j]] += 1
                else:
                    by_pos[i].append(t[j])
        for n in range(1, max_n + 1):
            for i in range(len(s) - n + 1):
                key = tuple(s[i:i + n])
                for k in range(i, i + n):
                    table[key].update(by_pos.get(k, ()))
    # IBM Model 1 rarely prefers NULL, so the unaligned pieces alone are a
    # short list; the most frequent pieces overall fill it up to n_zero.
    zero = [tok for tok, _ in unaligned.most_common(n_zero)]
    for tok, _ in frequent.most_common():
        if len(zero) >= n_zero:
            break
        if tok not in zero:
            zero.append(tok)
    if eos not in zero:
        zero.append(eos)
    entries = {}
    for key, cnt in table.items():
        keep = [tok for tok, c in cnt.most_common(per_ngram) if c >= min_count]
        if keep:
            entries[key] = keep
    return zero, entries


def shortlist(src_ids, zero, entries, max_n):
    out = set(zero)
    for n in range(1, max_n + 1):
        for i in range(len(src_ids) - n + 1):
            out.update(entries.get(tuple(src_ids[i:i + n]), ()))
    return out


def coverage(src, tgt, zero, entries, max_n):
    """Share of reference target pieces inside the shortlist, and its mean size."""
    hit = total = size = 0
    for s, t in zip(src, tgt):
        sl = shortlist(s, zero, entries, max_n)
        size += len(sl)
        total += len(t)
        hit += sum(1 for x in t if x in sl)
    return hit / max(total, 1), size / max(len(src), 1)


def write(path, zero, entries):
    with open(path, 'w') as f:
        f.write('# nmt vmap 1: source ids TAB target ids; the first line after this is the 0-gram list\n')
        f.write('\t' + ' '.join(map(str, zero)) + '\n')
        for key in sorted(entries):
            f.write(' '.join(map(str, key)) + '\t' + ' '.join(map(str, entries[key])) + '\n')


def main():
    p = argparse.ArgumentParser()
    for k in ('src-train', 'tgt-train', 'spm-src', 'spm-tgt', 'out'):
        p.add_argument('--' + k, required=True)
    p.add_argument('--src-val')
    p.add_argument('--tgt-val')
    p.add_argument('--max-n', type=int, default=2)
    p.add_argument('--per-ngram', type=int, default=20)
    p.add_argument('--min-count', type=int, default=1)
    p.add_argument('--zero', type=int, default=300)
    p.add_argument('--zero-short', type=int, default=2,
                   help='also allow every target piece of at most this many characters')
    p.add_argument('--iterations', type=int, default=5)
    p.add_argument('--no-spread', action='store_true',
                   help='keep piece links as aligned instead of spreading them over whole target words')
    a = p.parse_args()
    sp_src = spm.SentencePieceProcessor(model_file=a.spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=a.spm_tgt)
    s_txt, t_txt = data.read_parallel(a.src_train, a.tgt_train)
    src, tgt = sp_src.encode(s_txt), sp_tgt.encode(t_txt)
    table = ibm1(src, tgt, sp_src.get_piece_size(), sp_tgt.get_piece_size(), a.iterations)
    links = viterbi_links(src, tgt, table, sp_src.get_piece_size())
    starts = None if a.no_spread else word_starts(sp_tgt)
    zero, entries = build(src, tgt, links, a.max_n, a.per_ngram, a.min_count, a.zero,
                          sp_tgt.eos_id(), starts)
    seen = set(zero)
    zero += [t for t in short_pieces(sp_tgt, a.zero_short) if t not in seen]
    add_ttable_candidates(entries, table, sp_src.get_piece_size(), a.per_ngram)
    write(a.out, zero, entries)
    print(f'vmap: {len(zero)} 0-grams, {len(entries)} n-grams, '
          f'{sum(map(len, entries.values()))} targets', flush=True)
    if a.src_val:
        vs, vt = data.read_parallel(a.src_val, a.tgt_val)
        cov, size = coverage(sp_src.encode(vs), sp_tgt.encode(vt), zero, entries, a.max_n)
        print(f'val coverage {100 * cov:.2f}% mean shortlist {size:.1f}', flush=True)


if __name__ == '__main__':
    main()
