"""Teachers: the pre-norm SSRU model, its checkpoints, train/translate.py and
train/expand_pairs.py."""
import lzma
import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import expand_pairs
import ssru
import translate

TRAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tiny(pre_norm, vocab=120):
    torch.manual_seed(0)
    cfg = ssru.Config(src_vocab=vocab, tgt_vocab=vocab, emb=32, heads=4, ffn=64, enc_layers=4, dec_layers=2,
                      eos_id=2, pre_norm=pre_norm)
    return ssru.SSRU(cfg, dropout=0.0)


def copy_batch(gen, vocab=20):
    src = torch.randint(3, vocab, (16, 6), generator=gen)
    tin = torch.cat([torch.zeros(16, 1, dtype=torch.long), src], 1)[:, :6]
    return src, torch.full((16,), 6), tin, src


def test_a_pre_norm_stack_learns_to_copy():
    model = tiny(pre_norm=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    gen = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(100):
        src, src_len, tin, tout = copy_batch(gen)
        loss = F.cross_entropy(model(src, src_len, tin).reshape(-1, 120), tout.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert sum(losses[-5:]) / 5 < 0.5 * sum(losses[:5]) / 5


def test_pre_norm_has_its_own_weights_and_no_marian_form(tmp_path):
    post, pre = tiny(False), tiny(True)
    assert set(pre.w) - set(post.w) == {'encoder_top_ln_scale', 'encoder_top_ln_bias',
                                        'decoder_top_ln_scale', 'decoder_top_ln_bias'}
    with pytest.raises(SystemExit):
        pre.save_npz(str(tmp_path / 'x.npz'))


def save_teacher(model, path):
    import dataclasses
    torch.save({'model': model.state_dict(), 'cfg': dataclasses.asdict(model.cfg)}, path)


def test_translate_keeps_every_line_in_order(tmp_path, german_bpe):
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=german_bpe)
    model = tiny(True, vocab=sp.get_piece_size())
    save_teacher(model, tmp_path / 'best.pt')
    loaded = translate.load_model(str(tmp_path), 'cpu')
    lines = ['Ein Mann mit einem Hut.', '', 'Zwei junge Männer stehen draußen neben vielen Büschen.', 'Ein Bauer.']
    batched = translate.translate(loaded, sp, sp, lines, 'cpu', max_tokens=2000)
    assert len(batched) == len(lines) and batched[1] == ''
    # one at a time, the same: batching and sorting do not change a sentence's output
    assert [translate.translate(loaded, sp, sp, [l], 'cpu', 2000)[0] for l in lines] == batched
    inp = tmp_path / 'in.txt'
    inp.write_text('\n'.join(lines) + '\n')
    r = subprocess.run([sys.executable, os.path.join(TRAIN, 'translate.py'), '--checkpoint', str(tmp_path),
                        '--spm-src', german_bpe, '--spm-tgt', german_bpe, '--input', str(inp),
                        '--reference', str(inp)], capture_output=True, text=True, check=True)
    assert r.stdout.split('\n')[:-1] == batched
    assert r.stderr.strip().splitlines()[-1].startswith('BLEU ')


def test_expand_pairs_repeats_by_copies_and_orders_by_weight(tmp_path, monkeypatch):
    path = tmp_path / 'pairs.xz'
    with lzma.open(path, 'wt') as f:
        f.write('a\tA\tgettext\t1\nb\tB\tding-sent\t3\nc\tC\tx\t0\na\tA2\tx\t2\n')
    monkeypatch.setattr(sys, 'argv', ['expand_pairs.py', str(path), str(tmp_path / 'o'), 'en', 'de'])
    expand_pairs.main()
    src = (tmp_path / 'o' / 'train.en').read_text().split()
    tgt = (tmp_path / 'o' / 'train.de').read_text().split()
    assert sorted(zip(src, tgt)) == [('a', 'A'), ('a', 'A2'), ('a', 'A2'), ('b', 'B'), ('b', 'B'), ('b', 'B')]
    assert (tmp_path / 'o' / 'fwd.en').read_text().split() == ['b', 'a', 'c']
    assert (tmp_path / 'o' / 'fwd.de').read_text().split() == ['B', 'A2', 'A', 'C']


def test_a_carried_teacher_comes_back_within_a_rounding_step(tmp_path):
    import carry
    model = tiny(True)
    save_teacher(model, tmp_path / 'best.pt')
    carry.PART_BYTES, saved = 20000, carry.PART_BYTES   # several parts, as a large teacher makes
    try:
        parts = carry.pack(str(tmp_path / 'best.pt'), str(tmp_path / 'teacher'))
    finally:
        carry.PART_BYTES = saved
    assert len(parts) > 1 and all(os.path.getsize(p) <= 20000 for p in parts)
    assert carry.unpack(str(tmp_path / 'teacher'), str(tmp_path / 'back')) == str(tmp_path / 'back.pt')
    back = ssru.SSRU.from_torch(str(tmp_path / 'back.pt'), dropout=0.0)
    assert back.cfg == model.cfg
    for name, w in model.w.items():
        b = back.w[name]
        if w.dim() == 2:   # within half of the row's int8 step
            step = w.abs().amax(1, keepdim=True) / 127
            assert ((b - w).abs() <= step / 2 + 1e-7).all()
        else:
            assert torch.equal(b, w)


def test_a_carried_student_comes_back_bit_for_bit(tmp_path):
    import carry
    blob = bytes(range(256)) * 300   # what a safetensors file holds is opaque here
    (tmp_path / 'best.safetensors').write_bytes(blob)
    carry.PART_BYTES, saved = 10000, carry.PART_BYTES
    try:
        parts = carry.pack(str(tmp_path / 'best.safetensors'), str(tmp_path / 'student'))
    finally:
        carry.PART_BYTES = saved
    assert len(parts) == 8
    back = carry.unpack(str(tmp_path / 'student'), str(tmp_path / 'init'))
    assert back.endswith('init.safetensors') and open(back, 'rb').read() == blob
