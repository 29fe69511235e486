"""Carry a GRU model's weights over to a new target vocabulary (and, given
two more files, a new source vocabulary), so that a student can be trained on
from them instead of from scratch: a new vocabulary for the same pair, or a
parent model of another pair (en->de's weights starting en->fr's student:
transfer learning, Zoph et al. 2016, Kocmi and Bojar 2018).

    /usr/bin/python3 train/revocab.py IN.safetensors OLD_TGT.model NEW_TGT.model OUT.safetensors \
        [OLD_SRC.model NEW_SRC.model]

Only the embeddings depend on the vocabularies: the target one (tied to the
output layer, with the output bias) and the source one. A piece of the new
vocabulary that the old one has keeps its row; any other piece gets the mean
row (and mean bias) of the old pieces that spell it, found longest first, so
that a new whole-word piece starts near the pieces the model wrote that word
with. Every other weight is copied unchanged.
"""
import dataclasses
import os
import sys

import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export  # noqa: E402
from model import NMT  # noqa: E402


def spell(text, old_ids):
    """The old pieces that spell text, each the longest that fits; None if a
    character has no piece."""
    out, i = [], 0
    while i < len(text):
        for j in range(len(text), i, -1):
            if text[i:j] in old_ids:
                out.append(old_ids[text[i:j]])
                i = j
                break
        else:
            return None
    return out


def carry_rows(old_sp, new_sp):
    """For each new piece id, the old ids whose rows it starts from."""
    old_ids = {old_sp.id_to_piece(i): i for i in range(old_sp.get_piece_size())
               if not old_sp.is_control(i) and not old_sp.is_unknown(i)}
    rows, spelled = [], 0
    for i in range(new_sp.get_piece_size()):
        piece = new_sp.id_to_piece(i)
        if new_sp.is_control(i) or new_sp.is_unknown(i):
            rows.append([old_sp.piece_to_id(piece)])   # <unk>, <s>, </s> by name
        elif piece in old_ids:
            rows.append([old_ids[piece]])
        else:
            parts = spell(piece, old_ids)
            rows.append(parts if parts else [old_sp.unk_id()])
            spelled += 1
    return rows, spelled


def carried(table, rows):
    """Each new row: the mean of the old rows it starts from."""
    return torch.stack([table[r].mean(0) for r in rows])


def revocab(model, old_sp, new_sp, old_src=None, new_src=None):
    """model (an NMT on old_sp's target pieces) carried over to new_sp's, and
    from old_src's source pieces to new_src's where they are given; returns
    the new model and how many pieces of each side were spelled."""
    rows, spelled = carry_rows(old_sp, new_sp)
    cfg = dataclasses.replace(model.cfg, tgt_vocab=new_sp.get_piece_size())
    state = model.state_dict()
    emb, bias = state.pop('tgt_emb.weight'), state.pop('out_bias')
    state['tgt_emb.weight'] = carried(emb, rows)
    state['out_bias'] = carried(bias, rows)
    src_spelled = 0
    if new_src is not None:
        src_rows, src_spelled = carry_rows(old_src, new_src)
        cfg = dataclasses.replace(cfg, src_vocab=new_src.get_piece_size())
        state['src_emb.weight'] = carried(state.pop('src_emb.weight'), src_rows)
    out = NMT(cfg)
    out.load_state_dict(state)
    return out, spelled, src_spelled


def main():
    if len(sys.argv) not in (5, 7):
        raise SystemExit(__doc__)
    src_path, old_path, new_path, out_path = sys.argv[1:5]
    model, meta = export.load(src_path)
    old_sp = spm.SentencePieceProcessor(model_file=old_path)
    new_sp = spm.SentencePieceProcessor(model_file=new_path)
    if model.cfg.tgt_vocab != old_sp.get_piece_size():
        raise SystemExit(f'{src_path}: {model.cfg.tgt_vocab} target pieces, {old_path} has {old_sp.get_piece_size()}')
    old_src = new_src = None
    if len(sys.argv) == 7:
        old_src = spm.SentencePieceProcessor(model_file=sys.argv[5])
        new_src = spm.SentencePieceProcessor(model_file=sys.argv[6])
        if model.cfg.src_vocab != old_src.get_piece_size():
            raise SystemExit(f'{src_path}: {model.cfg.src_vocab} source pieces, '
                             f'{sys.argv[5]} has {old_src.get_piece_size()}')
    out, spelled, src_spelled = revocab(model, old_sp, new_sp, old_src, new_src)
    export.save(out, out_path, dtype='F32', src_lang=meta.get('src_lang', 'und'),
                tgt_lang=meta.get('tgt_lang', 'und'))
    for side, sp, n_spelled in (('target', new_sp, spelled), ('source', new_src, src_spelled)):
        if sp is not None:
            n = sp.get_piece_size()
            print(f'{n} {side} pieces: {n - n_spelled} kept, {n_spelled} new '
                  f'(spelled from old pieces, or <unk>\'s row)')


if __name__ == '__main__':
    main()
