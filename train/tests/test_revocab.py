"""train/revocab.py: a model carried over to another target (and source) vocabulary.

    make test-train    (needs Debian's python3-torch and python3-sentencepiece)
"""
import os
import sys

import pytest

spm = pytest.importorskip('sentencepiece')
torch = pytest.importorskip('torch')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import revocab  # noqa: E402
from model import NMT, Config  # noqa: E402


@pytest.fixture(scope='module')
def vocabularies(german_bpe):
    old = spm.SentencePieceProcessor(model_file=os.path.join(ROOT, 'models', 'captions', 'ende.de.model'))
    return old, spm.SentencePieceProcessor(model_file=german_bpe)


def small_model(old, src_vocab=50):
    torch.manual_seed(1)
    model = NMT(Config(src_vocab=src_vocab, tgt_vocab=old.get_piece_size(), emb=8, enc_hidden=4,
                       dec_hidden=6, att=4, fc=8, fc_layers=1))
    with torch.no_grad():
        model.out_bias.normal_()
    return model


def test_shared_pieces_keep_their_rows_and_new_ones_start_from_their_spelling(vocabularies):
    old, new = vocabularies
    model = small_model(old)
    out, spelled, src_spelled = revocab.revocab(model, old, new)
    assert src_spelled == 0
    assert out.cfg.tgt_vocab == new.get_piece_size()
    old_ids = {old.id_to_piece(i): i for i in range(old.get_piece_size())}
    kept = [i for i in range(3, new.get_piece_size()) if new.id_to_piece(i) in old_ids]
    others = [i for i in range(3, new.get_piece_size()) if new.id_to_piece(i) not in old_ids]
    assert kept and others and spelled == len(others)
    for i in kept:
        j = old_ids[new.id_to_piece(i)]
        assert torch.equal(out.tgt_emb.weight[i], model.tgt_emb.weight[j])
        assert out.out_bias[i] == model.out_bias[j]
    for i in others:
        parts = revocab.spell(new.id_to_piece(i), old_ids)
        assert parts and ''.join(old.id_to_piece(j) for j in parts) == new.id_to_piece(i)
        assert torch.allclose(out.tgt_emb.weight[i], model.tgt_emb.weight[parts].mean(0))
    for i in (new.unk_id(), new.bos_id(), new.eos_id()):
        assert torch.equal(out.tgt_emb.weight[i], model.tgt_emb.weight[i])


def test_weights_that_do_not_depend_on_the_target_vocabulary_are_copied(vocabularies):
    old, new = vocabularies
    model = small_model(old)
    out, _, _ = revocab.revocab(model, old, new)
    mine, theirs = out.state_dict(), model.state_dict()
    for name in mine:
        if name not in ('tgt_emb.weight', 'out_bias'):
            assert torch.equal(mine[name], theirs[name]), name


def test_a_piece_with_a_character_the_old_vocabulary_lacks_cannot_be_spelled(vocabularies):
    old, _ = vocabularies
    old_ids = {old.id_to_piece(i): i for i in range(old.get_piece_size())}
    assert revocab.spell('▁oder', old_ids) is not None
    assert revocab.spell('▁\u4e2d', old_ids) is None


def test_the_source_side_carries_over_the_same_way(vocabularies):
    """A parent model of another pair: its English pieces (the caption
    vocabulary) carried over to the general model's joint vocabulary."""
    old, new = vocabularies
    old_src = spm.SentencePieceProcessor(model_file=os.path.join(ROOT, 'models', 'captions', 'ende.en.model'))
    new_src = spm.SentencePieceProcessor(model_file=os.path.join(ROOT, 'models', 'ende.en.model'))
    model = small_model(old, src_vocab=old_src.get_piece_size())
    out, _, src_spelled = revocab.revocab(model, old, new, old_src, new_src)
    assert out.cfg.src_vocab == new_src.get_piece_size()
    old_ids = {old_src.id_to_piece(i): i for i in range(old_src.get_piece_size())}
    kept = [i for i in range(3, new_src.get_piece_size()) if new_src.id_to_piece(i) in old_ids]
    assert kept and src_spelled == new_src.get_piece_size() - 3 - len(kept)
    for i in kept:
        assert torch.equal(out.src_emb.weight[i], model.src_emb.weight[old_ids[new_src.id_to_piece(i)]])
    for name, value in out.state_dict().items():
        if name not in ('tgt_emb.weight', 'out_bias', 'src_emb.weight'):
            assert torch.equal(value, model.state_dict()[name]), name
