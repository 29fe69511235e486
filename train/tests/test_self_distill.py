"""train/train.py --self-distill: the KL term between the float weights and
the quantized ones.

    make test-train    (needs Debian's python3-torch and python3-sentencepiece)
"""
import os
import sys

import pytest

torch = pytest.importorskip('torch')
pytest.importorskip('sentencepiece')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import data  # noqa: E402
import qat  # noqa: E402
import train  # noqa: E402
from model import NMT, Config  # noqa: E402


def batch():
    torch.manual_seed(3)
    src = torch.randint(3, 40, (2, 5))
    src_len = torch.tensor([5, 4])
    tin = torch.randint(3, 30, (2, 4))
    tout = tin.clone()
    tout[1, 3] = data.IGNORE   # the second sentence is a piece shorter
    return src, src_len, tin, tout


def small_model():
    torch.manual_seed(1)
    model = NMT(Config(src_vocab=40, tgt_vocab=30, emb=8, enc_hidden=4, dec_hidden=6, att=4, fc=8,
                       fc_layers=1), dropout=0.0)
    model.eval()
    return model


def test_the_float_model_against_itself_is_zero():
    model = small_model()
    src, src_len, tin, tout = batch()
    logits = model(src, src_len, tin)
    assert train.self_distill_loss(model, src, src_len, tin, tout, logits).item() == pytest.approx(0, abs=1e-6)


def test_the_q4_codes_are_pulled_towards_the_float_model():
    teacher, student = small_model(), small_model()
    src, src_len, tin, tout = batch()
    fq = qat.FakeQuant(student, 'q4')
    fq.quantize()
    logits = student(src, src_len, tin)
    loss = train.self_distill_loss(teacher, src, src_len, tin, tout, logits)
    loss.backward()
    fq.restore()
    assert loss.item() > 0
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in student.parameters() if p.dim() == 2)
    assert all(p.grad is None for p in teacher.parameters())


def test_padding_is_left_out():
    teacher, student = small_model(), small_model()
    with torch.no_grad():
        for p in student.parameters():
            p.add_(0.1 * torch.randn_like(p))
    src, src_len, tin, tout = batch()
    logits = student(src, src_len, tin)
    changed = logits.clone()
    changed[1, 3] += 5.0 * torch.randn(changed.size(-1))   # the padded position
    a = train.self_distill_loss(teacher, src, src_len, tin, tout, logits)
    b = train.self_distill_loss(teacher, src, src_len, tin, tout, changed)
    assert a.item() == pytest.approx(b.item(), rel=1e-6)
