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
