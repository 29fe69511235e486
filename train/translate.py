"""Translate a file with a trained SSRU-family checkpoint, in batches, on a
CPU or a GPU: the teachers' text for their students.

    /usr/bin/python3 train/translate.py --checkpoint DIR_OR_FILE --spm-src S.model \
        --spm-tgt T.model --input IN [--output OUT] [--reference REF] [--device cuda]

The checkpoint is train.py's: DIR/best.pt (a pre-norm teacher), DIR/best.npz
(Marian's form), or DIR/last.pt when no best was written. Greedy decoding,
as train.py validates: sentences sorted by length and batched by a token
budget, the output written back in input order, one line per input line
(an empty line for an empty one). On a GPU the products run in bfloat16.
--reference prints BLEU and chrF (train/bleu.py: 13a-style tokenization,
cased) as the last line.
"""
import argparse
import os
import sys
import time

import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bleu  # noqa: E402
import data  # noqa: E402
import ssru  # noqa: E402


def load_model(path, device):
    if os.path.isdir(path):
        path = next((os.path.join(path, n) for n in ('best.pt', 'best.npz', 'last.pt')
                     if os.path.exists(os.path.join(path, n))), None)
        if path is None:
            raise SystemExit(f'translate.py: no best.pt, best.npz or last.pt in {path}')
    if path.endswith('.npz'):
        model = ssru.SSRU.from_npz(path, dropout=0.0)
    else:
        model = ssru.SSRU.from_torch(path, dropout=0.0)
    return model.to(device).eval()


def batches(lengths, max_tokens):
    """Indices of sentences sorted by length, cut so each batch's padded
    size stays under max_tokens."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    cur, longest = [], 0
    for i in order:
        n = lengths[i]
        if cur and max(longest, n) * (len(cur) + 1) > max_tokens:
            yield cur
            cur, longest = [], 0
        cur.append(i)
        longest = max(longest, n)
    if cur:
        yield cur


@torch.no_grad()
def translate(model, sp_src, sp_tgt, lines, device, max_tokens, max_len=200):
    eos = sp_src.eos_id()
    ids = [sp_src.encode(l)[:max_len] + [eos] if l.strip() else [] for l in lines]
    out = [''] * len(lines)
    todo = [i for i in range(len(lines)) if ids[i]]
    on_gpu = device.startswith('cuda')
    for idx in batches([len(ids[i]) for i in todo], max_tokens):
        rows = [todo[j] for j in idx]
        S = max(len(ids[r]) for r in rows)
        src = torch.zeros(len(rows), S, dtype=torch.long)
        for b, r in enumerate(rows):
            src[b, :len(ids[r])] = torch.tensor(ids[r])
        src_len = torch.tensor([len(ids[r]) for r in rows])
        with torch.autocast('cuda' if on_gpu else 'cpu', dtype=torch.bfloat16, enabled=on_gpu):
            hyps = model.greedy(src.to(device), src_len.to(device), 3 * S)
        for r, h in zip(rows, hyps):   # each capped by its own length, not its batch's
            out[r] = sp_tgt.decode(h[:3 * len(ids[r])])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--checkpoint', required=True)
    p.add_argument('--spm-src', required=True)
    p.add_argument('--spm-tgt', required=True)
    p.add_argument('--input', required=True)
    p.add_argument('--output', help='default: standard output')
    p.add_argument('--reference')
    p.add_argument('--device', default='cpu')
    p.add_argument('--max-tokens', type=int, default=0, help='batch budget in source pieces (0: 60000 on a GPU, 2000 else)')
    p.add_argument('--threads', type=int, default=1)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    max_tokens = a.max_tokens or (60000 if a.device.startswith('cuda') else 2000)
    model = load_model(a.checkpoint, a.device)
    sp_src = spm.SentencePieceProcessor(model_file=a.spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=a.spm_tgt)
    lines = data.read_lines(a.input)
    t0 = time.time()
    out = translate(model, sp_src, sp_tgt, lines, a.device, max_tokens)
    secs = time.time() - t0
    if a.output:
        with open(a.output, 'w', encoding='utf-8') as f:
            f.writelines(o + '\n' for o in out)
    else:
        sys.stdout.writelines(o + '\n' for o in out)
    print(f'translate.py: {len(lines)} lines in {secs:.1f} s, {len(lines) / max(secs, 1e-9):.0f} lines/s',
          file=sys.stderr)
    if a.reference:
        refs = data.read_lines(a.reference)
        print(f'BLEU {bleu.bleu(out, refs):.2f} chrF {bleu.chrf(out, refs):.2f}', file=sys.stderr)


if __name__ == '__main__':
    main()
