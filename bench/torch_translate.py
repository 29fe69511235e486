"""The PyTorch reference translating a file, for bench/speed.sh: the same
weights as nmt (train/export.py safetensors), SentencePiece in and out, on one
thread. `--batch 1` runs the reference search (train/search.py) sentence by
sentence, the way one would translate with the trainer's model; `--batch N`
decodes greedily N sentences at a time, sorted by length, with train.py's
batched validation decoder. Prints the translations; the seconds spent
(model load excluded) go to stderr as "seconds N".

  /usr/bin/python3 bench/torch_translate.py MODEL.safetensors SRC.model TGT.model \
      [--batch N] < input > output
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'train'))
import train  # noqa: E402  (sets OPENBLAS_CORETYPE before torch loads OpenBLAS)
import export  # noqa: E402
import search  # noqa: E402
import sentencepiece as spm  # noqa: E402
import torch  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument('model')
    p.add_argument('spm_src')
    p.add_argument('spm_tgt')
    p.add_argument('--batch', type=int, default=1)
    args = p.parse_args()
    torch.set_num_threads(1)
    model, _ = export.load(args.model)
    model.eval()
    sp_src = spm.SentencePieceProcessor(model_file=args.spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=args.spm_tgt)
    lines = sys.stdin.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()

    start = time.perf_counter()
    src = [sp_src.encode(line) + [sp_src.eos_id()] for line in lines]
    out = [None] * len(lines)
    if args.batch == 1:
        for i, ids in enumerate(src):
            out[i] = search.beam_search(model, ids, beam=1)[0][0]
    else:
        order = sorted(range(len(src)), key=lambda i: len(src[i]))
        for b in range(0, len(order), args.batch):
            idx = order[b:b + args.batch]
            s = torch.zeros(len(idx), max(len(src[i]) for i in idx), dtype=torch.long)
            for row, i in enumerate(idx):
                s[row, :len(src[i])] = torch.tensor(src[i])
            lens = torch.tensor([len(src[i]) for i in idx])
            for i, ids in zip(idx, train.greedy_batch(model, s, lens)):
                out[i] = ids
    text = [sp_tgt.decode(ids) for ids in out]
    seconds = time.perf_counter() - start
    sys.stdout.write(''.join(t + '\n' for t in text))
    print(f'seconds {seconds:.3f}', file=sys.stderr)


if __name__ == '__main__':
    main()
