"""train/train.py --batch-vocab: each batch scored on its own target pieces
and some drawn at random instead of the whole vocabulary.

    make test-train    (needs Debian's python3-torch and python3-sentencepiece)
"""
import os
import sys

import pytest

torch = pytest.importorskip('torch')
pytest.importorskip('sentencepiece')
F = torch.nn.functional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import data  # noqa: E402
import train  # noqa: E402
from model import NMT, Config  # noqa: E402


def batch():
    torch.manual_seed(3)
    src = torch.randint(3, 40, (2, 5))
    src_len = torch.tensor([5, 4])
    tin = torch.randint(3, 30, (2, 4))
    tout = torch.randint(3, 30, (2, 4))
    tout[1, 3] = data.IGNORE
    return src, src_len, tin, tout


def small_model():
    torch.manual_seed(1)
    model = NMT(Config(src_vocab=40, tgt_vocab=30, emb=8, enc_hidden=4, dec_hidden=6, att=4, fc=8,
                       fc_layers=1), dropout=0.0)
    model.eval()
    return model


def loss(logits, tout):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), tout.reshape(-1), ignore_index=data.IGNORE,
                           label_smoothing=0.1)


def test_rows_hold_every_target_and_the_targets_point_at_them():
    _, _, _, tout = batch()
    rows, mapped = train.batch_vocabulary(tout, 30, 5, seed=7)
    assert torch.equal(rows, torch.unique(rows))                  # sorted, once each
    real = tout != data.IGNORE
    assert torch.equal(rows[mapped[real]], tout[real])
    assert torch.equal(mapped[~real], tout[~real])                  # padding stays padding
    assert len(rows) <= len(torch.unique(tout[real])) + 5
    assert torch.equal(rows, train.batch_vocabulary(tout, 30, 5, seed=7)[0])   # the same draw for a seed


def test_with_every_piece_drawn_it_is_the_full_softmax():
    model = small_model()
    src, src_len, tin, tout = batch()
    full = loss(model(src, src_len, tin), tout)
    rows, mapped = train.batch_vocabulary(tout, 30, 3000, seed=1)  # 3,000 draws of 30: all of them
    assert len(rows) == 30
    assert torch.allclose(loss(model(src, src_len, tin, rows), mapped), full, atol=1e-6)


def test_a_subset_scores_its_columns_of_the_full_logits():
    model = small_model()
    src, src_len, tin, tout = batch()
    rows, _ = train.batch_vocabulary(tout, 30, 2, seed=4)
    assert len(rows) < 30
    assert torch.allclose(model(src, src_len, tin, rows), model(src, src_len, tin)[..., rows], atol=1e-6)


def parsed(monkeypatch, *argv):
    required = [f'--{k}' if i % 2 == 0 else 'x' for k in ('src-train', 'tgt-train', 'src-val', 'tgt-val', 'spm-src',
                                                       'spm-tgt') for i in range(2)]
    monkeypatch.setattr(sys, 'argv', ['train.py', '--out', 'x', *required, *argv])
    return train.parse_args()


def test_goes_with_negatives_but_not_with_the_full_distribution_losses(monkeypatch):
    # the q4 stage trains on its loops (--negatives, scored on their own batch
    # over the whole vocabulary) at the students' speed
    assert parsed(monkeypatch, '--batch-vocab', '1024', '--negatives', 'neg.tsv').batch_vocab == 1024
    with pytest.raises(SystemExit):
        parsed(monkeypatch, '--batch-vocab', '1024', '--unlikelihood', '0.5')
