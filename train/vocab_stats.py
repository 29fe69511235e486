"""Measure SentencePiece vocabulary choices on a parallel corpus.

    /usr/bin/python3 train/vocab_stats.py SRC_TRAIN TGT_TRAIN SRC_VAL TGT_VAL [--sizes 4000,8000]

For separate source/target unigram models of each size, and a joint model
of each size (trained on both sides), prints pieces per sentence on train
and val for each side and how many of the vocabulary's pieces the side's
training text uses. Sequence length drives the recurrent cost of training
and decoding; vocabulary size drives the output layer's cost; pieces a side
never uses are output rows (or embedding rows) that cost without helping.
"""
import argparse
import os
import sys
import tempfile

import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402


def train_spm(lines, prefix, size):
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_prefix=prefix, vocab_size=size,
                                   character_coverage=1.0, num_threads=2, minloglevel=2)
    return spm.SentencePieceProcessor(model_file=prefix + '.model')


def side_stats(sp, train, val):
    ids = sp.encode(train)
    used = len({i for s in ids for i in s})
    val_ids = sp.encode(val)
    return (sum(map(len, ids)) / len(ids), sum(map(len, val_ids)) / len(val_ids), used)


def main():
    p = argparse.ArgumentParser()
    for k in ('src_train', 'tgt_train', 'src_val', 'tgt_val'):
        p.add_argument(k)
    p.add_argument('--sizes', default='4000,8000')
    a = p.parse_args()
    src, tgt = data.read_parallel(a.src_train, a.tgt_train)
    vsrc, vtgt = data.read_parallel(a.src_val, a.tgt_val)
    print('vocabulary | side | pieces/sentence train | val | pieces used in train')
    with tempfile.TemporaryDirectory() as tmp:
        for size in map(int, a.sizes.split(',')):
            models = {}
            try:
                models['separate'] = (train_spm(src, f'{tmp}/s{size}', size),
                                      train_spm(tgt, f'{tmp}/t{size}', size))
            except RuntimeError as e:
                print(f'separate {size} | - | cannot be trained: {str(e).splitlines()[0]}')
            joint = train_spm(src + tgt, f'{tmp}/j{size}', size)
            models['joint'] = (joint, joint)
            for kind, (sp_s, sp_t) in models.items():
                for side, sp, tr, va in (('source', sp_s, src, vsrc), ('target', sp_t, tgt, vtgt)):
                    n_tr, n_va, used = side_stats(sp, tr, va)
                    print(f'{kind} {size} | {side} | {n_tr:.2f} | {n_va:.2f} | {used} of {sp.get_piece_size()}',
                          flush=True)


if __name__ == '__main__':
    main()
