"""What a teacher's run on a lent GPU goes through, checked on the host:
data.Packed builds data.collate's batches, ssru.linear_scan computes the
SSRU loop, greedy decoding does not depend on how often it reads back,
bfloat16 autocast runs, and train.py -> last.pt -> resume -> translate.py
works end to end for a pre-norm model (one output line per input line).

    make test-train
"""
import argparse
import gzip
import os
import random
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import data
import ssru
import train

TRAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_packed_batches_are_collates():
    rng = random.Random(3)
    pairs = [([rng.randrange(3, 90) for _ in range(rng.randint(1, 12))] + [2],
              [rng.randrange(3, 90) for _ in range(rng.randint(1, 12))]) for _ in range(300)]
    packed = data.Packed(pairs)
    for idx in data.token_batches(pairs, 120, seed=5) + [[0], [299, 0, 17]]:
        want = data.collate(pairs, idx, bos=1, eos=2)
        got = packed.collate(idx, bos=1, eos=2)
        assert all(torch.equal(w, g) and w.dtype == g.dtype for w, g in zip(want, got))
        assert packed.shape(idx)[3] == int((want[3] != data.IGNORE).sum())


@pytest.mark.parametrize('start', [False, True])
def test_the_scan_computes_the_loop(start):
    torch.manual_seed(0)
    f, u = torch.rand(3, 23, 8), torch.randn(3, 23, 8)
    c0 = torch.randn(3, 8) if start else None
    c, want = (c0 if start else torch.zeros(3, 8)), []
    for t in range(23):
        c = f[:, t] * c + u[:, t]
        want.append(c)
    assert torch.allclose(ssru.linear_scan(f, u, c0), torch.stack(want, 1), atol=1e-5)


def tiny(pre_norm=True, vocab=60):
    torch.manual_seed(0)
    cfg = ssru.Config(src_vocab=vocab, tgt_vocab=vocab, emb=32, heads=4, ffn=64, enc_layers=2, dec_layers=2,
                      eos_id=2, pre_norm=pre_norm)
    return ssru.SSRU(cfg, dropout=0.0).eval()


def test_greedy_does_not_depend_on_how_often_it_looks():
    model = tiny(False)
    src, src_len = torch.randint(3, 60, (30, 9)), torch.randint(1, 10, (30,))
    with torch.no_grad():
        model.w['decoder_ff_logit_out_b'][2] = 4.0   # some sentences end early, some never
        each = model.greedy(src, src_len, 20, check_every=1)
        assert each == model.greedy(src, src_len, 20, check_every=7)
    assert len({len(h) for h in each}) > 1   # sentences that end at different steps


def test_bf16_autocast_trains():
    model = tiny(True).train()
    gen = torch.Generator().manual_seed(1)
    src = torch.randint(3, 60, (8, 7), generator=gen)
    tin = torch.cat([torch.zeros(8, 1, dtype=torch.long), src[:, :-1]], 1)
    try:
        with torch.autocast('cpu', dtype=torch.bfloat16):
            logits = model(src, torch.full((8,), 7), tin)
    except RuntimeError as e:   # an old torch without bfloat16 autocast on the host
        pytest.skip(f'no bfloat16 autocast here: {e}')
    loss = F.cross_entropy(logits.float().reshape(-1, 60), src.reshape(-1))
    loss.backward()
    assert torch.isfinite(loss) and all(p.grad is not None for p in model.parameters())


def test_lr_decays_by_time_only_when_asked():
    args = argparse.Namespace(lr=1e-3, warmup=10, decay_by_time=False, max_minutes=1.0)
    state = {'step': 5, 'lr_scale': 1.0}
    assert train.lr_at(args, state, 30.0) == 1e-3 * 0.5
    args.decay_by_time = True
    assert train.lr_at(args, state, 30.0) == pytest.approx(1e-3 * 0.5 * 0.55)
    assert train.lr_at(args, state, 600.0) == pytest.approx(1e-3 * 0.5 * 0.1)


def run(*cmd):
    return subprocess.run([sys.executable, *cmd], capture_output=True, text=True, check=True)


def test_a_pre_norm_teacher_trains_resumes_and_translates(tmp_path, german_text, german_bpe):
    lines = open(german_text).read().split('\n')[:40]
    for name in ('src', 'tgt'):
        (tmp_path / name).write_text('\n'.join(lines) + '\n')
    common = [os.path.join(TRAIN, 'train.py'), '--family', 'ssru', '--pre-norm', '--out', str(tmp_path / 'run'),
              '--src-train', str(tmp_path / 'src'), '--tgt-train', str(tmp_path / 'tgt'),
              '--src-val', str(tmp_path / 'src'), '--tgt-val', str(tmp_path / 'tgt'),
              '--spm-src', german_bpe, '--spm-tgt', german_bpe, '--emb', '16', '--heads', '2', '--ffn', '32',
              '--enc-layers', '2', '--dec-layers', '1', '--max-tokens', '400', '--threads', '1',
              '--valid-every', '1000', '--bf16', '--decay-by-time', '--warmup', '5', '--lr', '3e-3']
    first = run(*common, '--max-epochs', '1')
    assert os.path.exists(tmp_path / 'run' / 'last.pt') and os.path.exists(tmp_path / 'run' / 'best.pt')
    assert not os.path.exists(tmp_path / 'run' / 'best.npz')
    second = run(*common, '--max-epochs', '2')
    assert 'resumed from' in second.stdout
    n1 = int(first.stdout.split('valid step ')[1].split()[0])
    assert f'valid step {2 * n1} ' in second.stdout   # the second epoch only, after the first's steps
    inp = tmp_path / 'in.gz'
    text = ['Ein Mann.', '', 'Zwei junge Männer stehen draußen.', '', '']
    with gzip.open(inp, 'wt', encoding='utf-8') as f:
        f.write('\n'.join(text) + '\n')
    r = run(os.path.join(TRAIN, 'translate.py'), '--checkpoint', str(tmp_path / 'run'), '--spm-src', german_bpe,
            '--spm-tgt', german_bpe, '--input', str(inp), '--output', str(tmp_path / 'out'), '--chunk', '2')
    out = (tmp_path / 'out').read_text().split('\n')
    assert len(out) == len(text) + 1 and out[-1] == ''
    assert out[1] == out[3] == out[4] == ''
    assert 'lines/s' in r.stderr
