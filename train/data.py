"""Parallel text: reading, SentencePiece encoding, token-count batches."""
import gzip
import lzma
import random

import torch


def open_text(path):
    """A UTF-8 text file to read, plain, .gz or .xz."""
    path = str(path)
    opener = gzip.open if path.endswith('.gz') else lzma.open if path.endswith('.xz') else open
    return opener(path, 'rt', encoding='utf-8')


def read_lines(path):
    with open_text(path) as f:
        return [line.rstrip('\n') for line in f]


def read_parallel(src_path, tgt_path):
    src, tgt = read_lines(src_path), read_lines(tgt_path)
    if len(src) != len(tgt):
        raise SystemExit(f'{src_path} has {len(src)} lines but {tgt_path} has {len(tgt)}')
    return src, tgt


def encode_pairs(sp_src, sp_tgt, src, tgt, max_len=100, src_sampling_alpha=0.0):
    """Source ids get EOS appended (as the engine does); target ids are
    returned without BOS/EOS. Pairs that are empty or longer than max_len
    pieces are dropped (training only).

    src_sampling_alpha > 0 segments each source by SentencePiece's subword
    sampling (Kudo 2018) instead of its best segmentation: a word the model
    knows only whole is then also seen split into smaller pieces, as an
    unfamiliar word is at translation time. One segmentation per sentence,
    drawn from SentencePiece's generator (seed it for a repeatable run)."""
    if src_sampling_alpha > 0:
        s_ids = sp_src.encode(src, enable_sampling=True, alpha=src_sampling_alpha, nbest_size=-1)
    else:
        s_ids = sp_src.encode(src)
    t_ids = sp_tgt.encode(tgt)
    eos = sp_src.eos_id()
    pairs = []
    for s, t in zip(s_ids, t_ids):
        if 0 < len(s) <= max_len and 0 < len(t) <= max_len:
            pairs.append((s + [eos], t))
    return pairs


def token_batches(pairs, max_tokens, shuffle=True, seed=0):
    """Batches of similar-length pairs whose padded size (sentences x longest
    target+1, or source) stays under max_tokens."""
    order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i][1]), len(pairs[i][0])))
    batches, cur, longest = [], [], 0
    for i in order:
        n = max(len(pairs[i][0]), len(pairs[i][1]) + 1)
        if cur and max(longest, n) * (len(cur) + 1) > max_tokens:
            batches.append(cur)
            cur, longest = [], 0
        cur.append(i)
        longest = max(longest, n)
    if cur:
        batches.append(cur)
    if shuffle:
        random.Random(seed).shuffle(batches)
    return batches


IGNORE = -100   # target padding, skipped by the loss


def collate(pairs, idx, bos, eos, pad=0):
    """Tensors for one batch: src [B,S], src_len [B], tgt_in [B,T] (BOS first,
    padded with `pad`, any valid id), tgt_out [B,T] (EOS last, padded with IGNORE)."""
    src = [pairs[i][0] for i in idx]
    tgt = [pairs[i][1] for i in idx]
    B, S, T = len(idx), max(map(len, src)), max(map(len, tgt)) + 1
    s = torch.full((B, S), pad, dtype=torch.long)
    ti = torch.full((B, T), pad, dtype=torch.long)
    to = torch.full((B, T), IGNORE, dtype=torch.long)
    for b in range(B):
        s[b, :len(src[b])] = torch.tensor(src[b])
        ti[b, :len(tgt[b]) + 1] = torch.tensor([bos] + tgt[b])
        to[b, :len(tgt[b]) + 1] = torch.tensor(tgt[b] + [eos])
    return s, torch.tensor([len(x) for x in src]), ti, to


class Packed:
    """The training pairs as flat id tensors (every source, then every
    target, end to end) with their offsets, so that a batch is cut out by
    a few tensor operations instead of a Python loop over its sentences
    (data.collate: ~35 ms for a 2,000-sentence batch here, ~1 ms this way).
    collate() returns exactly what data.collate returns. device: where the
    flat tensors live (a GPU: the batch is built there, nothing is copied
    but its indices); the lengths stay on the host, so the batch's shape
    and token count need no read-back."""

    def __init__(self, pairs, device='cpu'):
        self.n = len(pairs)
        self.src_len = torch.tensor([len(s) for s, _ in pairs], dtype=torch.long)
        self.tgt_len = torch.tensor([len(t) for _, t in pairs], dtype=torch.long)
        self.src_lens, self.tgt_lens = self.src_len.tolist(), self.tgt_len.tolist()
        self.src_off = torch.cumsum(self.src_len, 0) - self.src_len
        self.tgt_off = torch.cumsum(self.tgt_len, 0) - self.tgt_len
        flat_s = torch.tensor([i for s, _ in pairs for i in s] or [0], dtype=torch.long)
        flat_t = torch.tensor([i for _, t in pairs for i in t] or [0], dtype=torch.long)
        self.device = torch.device(device)
        self.flat_s, self.flat_t = flat_s.to(self.device), flat_t.to(self.device)
        self.src_off_d, self.tgt_off_d = self.src_off.to(self.device), self.tgt_off.to(self.device)
        self.src_len_d, self.tgt_len_d = self.src_len.to(self.device), self.tgt_len.to(self.device)

    def shape(self, idx):
        """(sentences, source width, target width incl. BOS/EOS, target tokens incl. EOS), from the host's lengths."""
        sl, tl = self.src_lens, self.tgt_lens
        return len(idx), max(sl[i] for i in idx), max(tl[i] for i in idx) + 1, sum(tl[i] + 1 for i in idx)

    def collate(self, idx, bos, eos, pad=0):
        B, S, T, _ = self.shape(idx)
        dev = self.device
        ix = torch.as_tensor(idx, dtype=torch.long).to(dev, non_blocking=True)
        sl, tl = self.src_len_d[ix], self.tgt_len_d[ix]
        pos_s = torch.arange(S, device=dev)[None, :]
        pos_t = torch.arange(T, device=dev)[None, :]
        in_s = pos_s < sl[:, None]
        s = self.flat_s[(self.src_off_d[ix][:, None] + pos_s).clamp(max=self.flat_s.numel() - 1)]
        s = torch.where(in_s, s, torch.full_like(s, pad))
        # target piece j sits at position j of tgt_out and j + 1 of tgt_in
        gather = (self.tgt_off_d[ix][:, None] + pos_t).clamp(max=self.flat_t.numel() - 1)
        body = self.flat_t[gather]
        is_body = pos_t < tl[:, None]
        to = torch.where(is_body, body, torch.full_like(body, IGNORE))
        to = torch.where(pos_t == tl[:, None], torch.full_like(body, eos), to)
        shifted = torch.cat([torch.full_like(body[:, :1], bos), body[:, :-1]], 1)
        ti = torch.where(pos_t <= tl[:, None], shifted, torch.full_like(body, pad))
        return s, sl.clone(), ti, to
