"""train/train.py --bf16 on the host: bfloat16 matrix products in the
training steps, the GRU's recurrent state kept in float32.

    make test-train    (needs Debian's python3-torch)
"""
import argparse
import os
import sys

import pytest

torch = pytest.importorskip('torch')
F = torch.nn.functional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import data  # noqa: E402
import train  # noqa: E402
from model import NMT, Config  # noqa: E402


def model_and_batch():
    torch.manual_seed(2)
    model = NMT(Config(src_vocab=50, tgt_vocab=40, emb=16, enc_hidden=8, dec_hidden=12, att=8, fc=16,
                       fc_layers=1), dropout=0.0)
    src = torch.randint(3, 50, (3, 7))
    src_len = torch.tensor([7, 5, 3])
    tin = torch.randint(3, 40, (3, 6))
    tout = torch.randint(3, 40, (3, 6))
    tout[2, 4:] = data.IGNORE
    return model, src, src_len, tin, tout


def loss_of(model, src, src_len, tin, tout, args, training):
    with train.autocast(args, training=training):
        logits = model(src, src_len, tin)
    return F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), tout.reshape(-1), ignore_index=data.IGNORE)


def test_the_host_trains_in_bfloat16_only_when_asked_and_only_in_training():
    model, src, src_len, tin, _ = model_and_batch()
    args = argparse.Namespace(device='cpu', bf16=True)
    with train.autocast(args, training=True):
        assert model.fc_in(torch.zeros(1, 12)).dtype == torch.bfloat16
        assert model.decoder_states(src, src_len, tin).dtype == torch.float32   # the GRU state
    with train.autocast(args):
        assert model.fc_in(torch.zeros(1, 12)).dtype == torch.float32          # validation
    with train.autocast(argparse.Namespace(device='cpu', bf16=False), training=True):
        assert model.fc_in(torch.zeros(1, 12)).dtype == torch.float32


def test_a_bfloat16_step_computes_what_a_float32_step_does_to_bfloat16_precision():
    model, src, src_len, tin, tout = model_and_batch()
    f32 = loss_of(model, src, src_len, tin, tout, argparse.Namespace(device='cpu', bf16=False), True)
    f32.backward()
    g32 = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    bf = loss_of(model, src, src_len, tin, tout, argparse.Namespace(device='cpu', bf16=True), True)
    bf.backward()
    assert abs(float(bf) - float(f32)) < 0.02 * float(f32)
    for a, b in zip(g32, (p.grad for p in model.parameters())):
        assert b.dtype == torch.float32
        cos = F.cosine_similarity(a.flatten(), b.flatten(), dim=0)
        assert cos > 0.95
