"""gptq.py: the rounding lies on the packer's grid and keeps a layer's outputs
closer than rounding to nearest does; the tool rewrites a Marian model's
matrices and nothing else."""
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip('torch')
pytest.importorskip('sentencepiece')

import gptq  # noqa: E402
import logquant  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MARIAN = os.path.join(ROOT, 'tests', 'fixtures', 'marian', 'all.npz')
TINY = os.path.join(ROOT, 'tests', 'fixtures', 'tiny')
VOCAB = os.path.join(TINY, 'tgt.model')


def correlated_inputs(n, cols, seed):
    """Inputs whose columns are far from independent, as a layer's are."""
    g = torch.Generator().manual_seed(seed)
    mix = torch.randn(cols, cols, generator=g, dtype=torch.float64)
    scale = torch.linspace(3.0, 0.1, cols, dtype=torch.float64)
    return (torch.randn(n, cols, generator=g, dtype=torch.float64) * scale) @ mix


@pytest.mark.parametrize('fmt', ['q4', 'q4n', 'q8'])
def test_rounding_is_on_the_grid_and_beats_nearest(fmt):
    g = torch.Generator().manual_seed(1)
    w = torch.randn(40, 200, generator=g, dtype=torch.float64)
    x = correlated_inputs(600, 200, 2)
    h = x.T @ x / x.shape[0]
    q, scales = gptq.gptq(w, h, fmt)
    # every weight is one of its row's code values, with the packer's scales
    assert torch.equal(q, logquant.torch_fake_quantize(q, fmt, scales))
    # the packer's own search, run on the result, gives it back (q4: its
    # levels are powers of two, so a scale twice as large holds the same
    # values; q4n: a row whose top code is used is fitted exactly at its
    # scale; q8's 2^(1/16) steps are rounded integers, so there it may
    # choose another scale and codes a hair away)
    packed = logquant.torch_fake_quantize(q, fmt, logquant.torch_scales(q, fmt))
    if fmt in ('q4', 'q4n'):
        assert torch.equal(q, packed)
    nearest = logquant.torch_fake_quantize(w, fmt, scales)
    e_nearest = gptq.output_error(w, nearest, h)
    assert gptq.output_error(w, q, h) < 0.8 * e_nearest
    assert gptq.output_error(w, packed, h) < 0.8 * e_nearest
    # on held-out inputs of the same kind too
    x2 = correlated_inputs(600, 200, 2)[300:]
    h2 = x2.T @ x2 / x2.shape[0]
    assert gptq.output_error(w, packed, h2) < gptq.output_error(w, nearest, h2)


def test_refitted_scales_never_raise_the_output_error():
    g = torch.Generator().manual_seed(4)
    w = torch.randn(24, 96, generator=g, dtype=torch.float64)
    x = correlated_inputs(400, 96, 5)
    h = x.T @ x / x.shape[0]
    q0, s0 = gptq.gptq(w, h, 'q4', refits=0)
    q2, s2 = gptq.gptq(w, h, 'q4', refits=2)
    assert gptq.output_error(w, q2, h) <= gptq.output_error(w, q0, h)
    assert torch.all(s2 > 0)
    assert torch.equal(q2, logquant.torch_fake_quantize(q2, 'q4', s2))


def test_dead_inputs_are_zeroed_and_rest_rounded():
    w = torch.randn(8, 16, dtype=torch.float64)
    x = correlated_inputs(100, 16, 3)
    x[:, 5] = 0   # an input that never fires: its weights do not matter
    h = x.T @ x
    q, scales = gptq.gptq(w, h, 'q4')
    assert torch.all(q[:, 5] == 0)
    assert torch.equal(q, logquant.torch_fake_quantize(q, 'q4', scales))


def run_tool(tmp_path, model, *vocab, fmt='q4', exact=True):
    src, tgt = tmp_path / 'src', tmp_path / 'tgt'
    src.write_text('a dog runs\nthe man is here\ntwo girls play\n' * 4)
    tgt.write_text('ein Hund rennt\nder Mann ist hier\nzwei Mädchen spielen\n' * 4)
    out = tmp_path / ('out' + os.path.splitext(model)[1])
    r = subprocess.run([sys.executable, os.path.join(ROOT, 'train', 'gptq.py'), model, str(src), str(tgt),
                        *vocab, '-o', str(out), '--lines', '12', '--format', fmt], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert 'total output error' in r.stderr and ('rounds again' not in r.stderr or not exact)
    return out


def on_grid(w, fmt='q4'):
    w = torch.as_tensor(w, dtype=torch.float64).contiguous()
    return torch.equal(w, logquant.torch_fake_quantize(w, fmt, logquant.torch_scales(w, fmt)))


def test_marian_model_gets_its_matrices_rounded_and_nothing_else(tmp_path):
    out = run_tool(tmp_path, MARIAN, '--vocab', VOCAB)
    a, b = np.load(MARIAN), np.load(out)
    assert sorted(a.files) == sorted(b.files)
    transposed = gptq.MarianModel(MARIAN, VOCAB, None).transposed
    changed = 0
    for k in a.files:
        assert a[k].shape == b[k].shape and a[k].dtype == b[k].dtype
        if k in transposed:
            assert on_grid(b[k].T if transposed[k] else b[k]), k
            changed += not np.array_equal(a[k], b[k])
        else:
            assert np.array_equal(a[k], b[k]), k
    assert changed == len(transposed)


def test_gru_checkpoint_gets_its_matrices_rounded_as_the_packer_splits_them(tmp_path):
    import export
    model = os.path.join(TINY, 'tiny.safetensors')
    out = run_tool(tmp_path, model, '--vocab', os.path.join(TINY, 'src.model'),
                   '--tgt-vocab', os.path.join(TINY, 'tgt.model'))
    a, meta_a = export.load(model)
    b, meta_b = export.load(str(out))
    assert meta_a == meta_b
    sa, sb = a.state_dict(), b.state_dict()
    assert list(sa) == list(sb)
    e = a.cfg.emb
    for k in sa:
        if k == 'dec.weight_ih':   # the packer's two matrices, each on its own grid
            assert on_grid(sb[k][:, :e]) and on_grid(sb[k][:, e:])
            assert not torch.equal(sa[k], sb[k])
        elif sa[k].dim() == 2 and k != 'src_emb.weight':
            assert on_grid(sb[k]) and not torch.equal(sa[k], sb[k]), k
        else:   # vectors, and the source embeddings (model-pack rounds them)
            assert torch.equal(sa[k], sb[k]), k


def test_q4n_i8_rounds_the_output_embeddings_alone(tmp_path):
    """model-pack --quant q4n+i8: the target embeddings (the output layer)
    on q4n's grid; the other matrices left to the packer's i8, the source
    embeddings to its q4n: all as they were."""
    import export
    model = os.path.join(TINY, 'tiny.safetensors')
    out = run_tool(tmp_path, model, '--vocab', os.path.join(TINY, 'src.model'),
                   '--tgt-vocab', os.path.join(TINY, 'tgt.model'), fmt='q4n+i8', exact=False)
    sa, sb = export.load(model)[0].state_dict(), export.load(str(out))[0].state_dict()
    w = sb['tgt_emb.weight'].double()
    # q4n's scale search can land a few rows elsewhere than GPTQ's (the tool says how many)
    # (to float32's precision: the checkpoint stores the values in float32)
    grid = logquant.torch_fake_quantize(w, 'q4n', logquant.torch_scales(w, 'q4n'))
    on = ((w - grid).abs() <= 1e-6 * w.abs().max(dim=1, keepdim=True).values).all(dim=1)
    assert on.float().mean() > 0.9 and not torch.equal(sa['tgt_emb.weight'], sb['tgt_emb.weight'])
    for k in sa:
        if k != 'tgt_emb.weight':
            assert torch.equal(sa[k], sb[k]), k


def test_the_checkpoints_length_normalization_stays_with_the_rounded_weights(tmp_path):
    import export
    model, meta = export.load(os.path.join(TINY, 'tiny.safetensors'))
    with_alpha = tmp_path / 'alpha.safetensors'
    export.save(model, str(with_alpha), src_lang=meta.get('src_lang', 'en'), tgt_lang=meta.get('tgt_lang', 'de'),
                alpha=1.5)
    out = run_tool(tmp_path, str(with_alpha), '--vocab', os.path.join(TINY, 'src.model'),
                   '--tgt-vocab', os.path.join(TINY, 'tgt.model'))
    assert export.load(str(out))[1]['alpha'] == '1.5'
