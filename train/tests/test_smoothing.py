"""train/train.py --ema (weights averaged over the steps) and --plateau
(what halves the learning rate).

    make test-train    (needs Debian's python3-torch and python3-sentencepiece)
"""
import argparse
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip('torch')
pytest.importorskip('sentencepiece')

TRAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TRAIN)
import export  # noqa: E402
import train  # noqa: E402
from model import NMT, Config  # noqa: E402


def small_model():
    torch.manual_seed(1)
    return NMT(Config(src_vocab=40, tgt_vocab=30, emb=8, enc_hidden=4, dec_hidden=6, att=4, fc=8,
                      fc_layers=1), dropout=0.0)


def test_each_step_moves_the_average_part_of_the_way():
    model = small_model()
    ema = train.Smoothing(model, 0.9)
    start = {n: p.detach().clone() for n, p in model.named_parameters()}
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1.0)
    ema.update()
    for n, p in model.named_parameters():
        assert torch.allclose(ema.averages[n], start[n] + 0.1, atol=1e-6)
    ema.update()
    for n in start:
        assert torch.allclose(ema.averages[n], start[n] + 0.1 + 0.09, atol=1e-6)


def test_swapping_in_the_average_gives_the_weights_back_after():
    model = small_model()
    ema = train.Smoothing(model, 0.5)
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(3.0)
    ema.update()
    now = {n: p.detach().clone() for n, p in model.named_parameters()}
    with ema.swapped():
        for n, p in model.named_parameters():
            assert torch.equal(p, ema.averages[n])
            assert not torch.equal(p, now[n]) or not now[n].any()
    for n, p in model.named_parameters():
        assert torch.equal(p, now[n])


def test_a_saved_average_is_taken_up_as_it_was():
    model = small_model()
    saved = {n: torch.full_like(p, 0.25) for n, p in model.named_parameters()}
    ema = train.Smoothing(model, 0.99, saved)
    assert all(torch.equal(ema.averages[n], saved[n]) for n in saved)
    assert not any(torch.equal(p, saved[n]) for n, p in model.named_parameters())


def test_the_loss_plateau_ignores_bleu_and_starts_from_the_history():
    args = argparse.Namespace(plateau='loss')
    state = {'history': [(1000, 4.0, 9.0, 30.0), (2000, 3.9, 5.0, 28.0)]}
    assert train.plateau_improved(state, 3.9, False, args)      # the loss fell, BLEU did not rise
    state['history'].append((3000, 3.95, 12.0, 31.0))
    assert not train.plateau_improved(state, 3.95, True, args)  # BLEU rose, the loss did not fall
    assert train.plateau_improved({'history': [(1, 5.0, 0, 0)]}, 5.0, False, args)   # the first one
    bleu = argparse.Namespace(plateau='bleu')
    assert train.plateau_improved(dict(state), 9.0, True, bleu)
    assert not train.plateau_improved(dict(state), 1.0, False, bleu)


def run(*cmd):
    return subprocess.run([sys.executable, *cmd], capture_output=True, text=True, check=True)


def test_a_run_exports_and_resumes_its_average(tmp_path, german_text, german_bpe):
    lines = open(german_text).read().split('\n')[:40]
    for name in ('src', 'tgt'):
        (tmp_path / name).write_text('\n'.join(lines) + '\n')
    out = tmp_path / 'run'
    common = [os.path.join(TRAIN, 'train.py'), '--out', str(out),
              '--src-train', str(tmp_path / 'src'), '--tgt-train', str(tmp_path / 'tgt'),
              '--src-val', str(tmp_path / 'src'), '--tgt-val', str(tmp_path / 'tgt'),
              '--spm-src', german_bpe, '--spm-tgt', german_bpe, '--emb', '8', '--enc-hidden', '4',
              '--dec-hidden', '6', '--att', '4', '--fc', '8', '--max-tokens', '400', '--threads', '1',
              '--valid-every', '3', '--keep-checkpoints', '--ema', '0.5', '--plateau', 'loss',
              '--patience', '100', '--warmup', '1', '--lr', '3e-3']
    run(*common, '--max-epochs', '1')
    steps = sorted(int(f.split('-')[1].split('.')[0]) for f in os.listdir(out)
                   if f.startswith('step-') and f.endswith('-ema.safetensors'))
    assert steps and all(os.path.exists(out / f'step-{n}.safetensors') for n in steps)
    raw, _ = export.load(str(out / f'step-{steps[-1]}.safetensors'))
    avg, _ = export.load(str(out / f'step-{steps[-1]}-ema.safetensors'))
    differ = [n for n, p in raw.state_dict().items() if not torch.equal(p, avg.state_dict()[n])]
    assert differ                                  # the average is not the weights of the moment
    ck = torch.load(out / 'last.pt', weights_only=False)
    assert set(ck['ema']) == {n for n, _ in raw.named_parameters()}
    second = run(*common, '--max-epochs', '2')
    assert 'resumed from' in second.stdout
