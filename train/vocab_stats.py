"""Measure SentencePiece vocabulary choices on a parallel corpus.

    /usr/bin/python3 train/vocab_stats.py SRC_TRAIN TGT_TRAIN SRC_VAL TGT_VAL [--sizes 4000,8000]
        [--types unigram,bpe]

For separate source/target models of each size and type, and a joint model
of each (trained on both sides), prints pieces per sentence on train and
val for each side, how many of the vocabulary's pieces the side's training
text uses, and how many of its training words begin with the bare
word-start piece '▁' followed by pieces from inside words. Sequence length
drives the recurrent cost of training and decoding; vocabulary size drives
the output layer's cost; pieces a side never uses are output rows (or
embedding rows) that cost without helping; a bare '▁' is where a decoder
has to start a word without a piece that says which word (docs/DESIGN.md §7).
"""
import argparse
import os
import sys
import tempfile

import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402


def train_spm(lines, prefix, size, model_type):
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_prefix=prefix, vocab_size=size,
                                   model_type=model_type, character_coverage=1.0, num_threads=2,
                                   minloglevel=2)
    return spm.SentencePieceProcessor(model_file=prefix + '.model')


def side_stats(sp, train, val):
    ids = sp.encode(train)
    used = len({i for s in ids for i in s})
    val_ids = sp.encode(val)
    bare = sp.piece_to_id('▁')
    bare_starts = sum(1 for s in ids for i in s[:-1] if i == bare) if sp.id_to_piece(bare) == '▁' else 0
    return (sum(map(len, ids)) / len(ids), sum(map(len, val_ids)) / len(val_ids), used, bare_starts)


def main():
    p = argparse.ArgumentParser()
    for k in ('src_train', 'tgt_train', 'src_val', 'tgt_val'):
        p.add_argument(k)
    p.add_argument('--sizes', default='4000,8000')
    p.add_argument('--types', default='unigram', help='SentencePiece model types, comma-separated')
    a = p.parse_args()
    src, tgt = data.read_parallel(a.src_train, a.tgt_train)
    vsrc, vtgt = data.read_parallel(a.src_val, a.tgt_val)
    print('vocabulary | side | pieces/sentence train | val | pieces used in train | words begun by a bare \u2581')
    with tempfile.TemporaryDirectory() as tmp:
        for kind in a.types.split(','):
            for size in map(int, a.sizes.split(',')):
                for name, (sp_s, sp_t) in vocabularies(src, tgt, f'{tmp}/{kind}{size}', size, kind):
                    for side, sp, tr, va in (('source', sp_s, src, vsrc), ('target', sp_t, tgt, vtgt)):
                        n_tr, n_va, used, bare = side_stats(sp, tr, va)
                        print(f'{name} {kind} {size} | {side} | {n_tr:.2f} | {n_va:.2f} | '
                              f'{used} of {sp.get_piece_size()} | {bare}', flush=True)


def vocabularies(src, tgt, prefix, size, kind):
    """(name, (source model, target model)): separate where SentencePiece can
    make that many pieces of each side, and joint."""
    try:
        yield 'separate', (train_spm(src, f'{prefix}s', size, kind), train_spm(tgt, f'{prefix}t', size, kind))
    except RuntimeError as e:
        print(f'separate {kind} {size} | - | cannot be trained: {str(e).splitlines()[0]}')
    joint = train_spm(src + tgt, f'{prefix}j', size, kind)
    yield 'joint', (joint, joint)


if __name__ == '__main__':
    main()
