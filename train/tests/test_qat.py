"""qat.FakeQuant rounds each matrix as model-pack packs it: the GRU decoder's
input weights as two matrices (the embedding's columns, the context's), each
with its own row scales; and restore() gives the float weights back."""
import os

import pytest

torch = pytest.importorskip('torch')

import export  # noqa: E402
import logquant  # noqa: E402
import qat  # noqa: E402

TINY = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    'tests', 'fixtures', 'tiny', 'tiny.safetensors')


def packed(w, fmt):
    """w as model-pack rounds it (its scale search, nearest codes)."""
    w = w.contiguous()
    return logquant.torch_fake_quantize(w, fmt, logquant.torch_scales(w, fmt))


@pytest.mark.parametrize('fmt', ['q4', 'q4n'])
def test_matrices_rounded_as_the_packer_splits_them(fmt):
    model, _ = export.load(TINY)
    before = {k: p.detach().clone() for k, p in model.named_parameters()}
    fq = qat.FakeQuant(model, fmt)
    fq.quantize()
    e = model.cfg.emb
    for name, p in model.named_parameters():
        if name == 'dec.weight_ih':
            assert torch.equal(p[:, :e], packed(before[name][:, :e], fmt))
            assert torch.equal(p[:, e:], packed(before[name][:, e:], fmt))
            # one scale a row over both blocks would round them otherwise
            assert not torch.equal(p.data, packed(before[name], fmt))
        elif p.dim() == 2:
            assert torch.equal(p.data, packed(before[name], fmt)), name
    fq.restore()
    for name, p in model.named_parameters():
        assert torch.equal(p.data, before[name]), name


def test_q4n_i8_rounds_the_embeddings_to_q4n_and_the_rest_to_i8():
    """model-pack --quant q4n+i8: the embeddings on q4n's codes, every other
    matrix in linear 8-bit (quant/qlayout.c: each row's scale max|w| / 127,
    codes -127..127, rounded half to even as lrintf does)."""
    model, _ = export.load(TINY)
    before = {k: p.detach().clone() for k, p in model.named_parameters()}
    fq = qat.FakeQuant(model, 'q4n+i8')
    fq.quantize()
    e = model.cfg.emb
    for name, p in model.named_parameters():
        if name in ('src_emb.weight', 'tgt_emb.weight'):
            assert torch.equal(p.data, packed(before[name], 'q4n')), name
        elif p.dim() == 2:
            blocks = [(p.data[:, :e], before[name][:, :e]), (p.data[:, e:], before[name][:, e:])] \
                if name == 'dec.weight_ih' else [(p.data, before[name])]
            for got, w in blocks:
                scale = w.abs().max(dim=1, keepdim=True).values.double() / 127
                codes = got.double() / scale
                assert torch.allclose(codes, codes.round(), atol=1e-4), name
                assert codes.abs().max() <= 127 + 1e-4
                assert torch.allclose(got, (w.double() / scale).round().mul(scale).float(), atol=1e-7), name
    fq.restore()
    for name, p in model.named_parameters():
        assert torch.equal(p.data, before[name]), name
