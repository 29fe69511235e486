"""Size/coverage trade-off of the vocabulary map (train/vmap.py), measured.

    /usr/bin/python3 train/vmap_sweep.py --src-train X.en --tgt-train X.de \
        --src-val V.en --tgt-val V.de --spm-src S.model --spm-tgt T.model \
        [--per-ngram 10,20,50] [--zero 100,300,600] [--max-n 1,2] \
        [--min-count N] [--zero-short N] [--out-dir DIR]

Aligns once (IBM Model 1), then builds the map for every combination and
prints one line each: settings, entries, validation coverage (share of
reference target pieces inside the shortlist) and mean shortlist size.
With --out-dir each map is also written there, as train/vmap.py writes it
(DIR/vmap-SPREAD-MAXN-PERNGRAM-ZERO.txt), to be packed and scored by BLEU.
"""
import argparse
import itertools
import os
import sys
import time

import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import vmap  # noqa: E402


def int_list(text):
    return [int(x) for x in text.split(',')]


def main():
    p = argparse.ArgumentParser()
    for k in ('src-train', 'tgt-train', 'src-val', 'tgt-val', 'spm-src', 'spm-tgt'):
        p.add_argument('--' + k, required=True)
    p.add_argument('--per-ngram', type=int_list, default=[10, 20, 50])
    p.add_argument('--zero', type=int_list, default=[100, 300, 600])
    p.add_argument('--max-n', type=int_list, default=[1, 2])
    p.add_argument('--zero-short', type=int, default=2)
    p.add_argument('--min-count', type=int, default=1)
    p.add_argument('--out-dir', help='write each map here')
    p.add_argument('--iterations', type=int, default=5)
    p.add_argument('--spread', type=int_list, default=[0, 1], help='0: piece links, 1: spread over target words')
    a = p.parse_args()
    sp_src = spm.SentencePieceProcessor(model_file=a.spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=a.spm_tgt)
    s_txt, t_txt = data.read_parallel(a.src_train, a.tgt_train)
    src, tgt = sp_src.encode(s_txt), sp_tgt.encode(t_txt)
    vs_txt, vt_txt = data.read_parallel(a.src_val, a.tgt_val)
    val_src, val_tgt = sp_src.encode(vs_txt), sp_tgt.encode(vt_txt)
    t0 = time.time()
    table = vmap.ibm1(src, tgt, sp_src.get_piece_size(), sp_tgt.get_piece_size(), a.iterations)
    links = vmap.viterbi_links(src, tgt, table, sp_src.get_piece_size())
    print(f'alignment: {time.time() - t0:.0f} s for {len(src)} pairs', flush=True)
    short = vmap.short_pieces(sp_tgt, a.zero_short)
    starts = vmap.word_starts(sp_tgt)
    print('spread max_n per_ngram zero | 0-grams n-grams targets | val coverage % | mean shortlist')
    for spread, max_n, per_ngram, n_zero in itertools.product(a.spread, a.max_n, a.per_ngram, a.zero):
        zero, entries = vmap.build(src, tgt, links, max_n, per_ngram, a.min_count, n_zero, sp_tgt.eos_id(),
                                   starts if spread else None)
        seen = set(zero)
        zero += [t for t in short if t not in seen]
        vmap.add_ttable_candidates(entries, table, sp_src.get_piece_size(), per_ngram)
        cov, size = vmap.coverage(val_src, val_tgt, zero, entries, max_n)
        if a.out_dir:
            os.makedirs(a.out_dir, exist_ok=True)
            vmap.write(os.path.join(a.out_dir, f'vmap-{spread}-{max_n}-{per_ngram}-{n_zero}.txt'), zero, entries)
        print(f'{spread} {max_n} {per_ngram} {n_zero} | {len(zero)} {len(entries)} '
              f'{sum(map(len, entries.values()))} | {100 * cov:.2f} | {size:.1f}', flush=True)


if __name__ == '__main__':
    main()
