"""Reference greedy and beam search, the specification engine/search.c follows.

Beam search with a shrinking beam (Amun 2018, Alg. 2 for one sentence):
  - start from one live hypothesis [] with score 0 and state h0;
  - each step, k = beam - len(finished); expand every live hypothesis by the
    log-softmax of its logits, pick the k best (score, token) candidates over all
    of them, best first, ties broken by the lower (hypothesis index * V + token);
  - a pick that ends in EOS moves to `finished` (its length counts the EOS);
    the others are the next step's live hypotheses, in pick order;
  - stop when nothing is live or after max_len steps; hypotheses still live then
    are finished as they are;
  - rank finished hypotheses by score / len**alpha (stable: on ties, the one that
    finished first wins). Greedy is beam 1.
All arithmetic is float32, as in the C engine.
"""
import numpy as np
import torch

from model import default_max_len


def take_pieces(out, done, pieces, eos_id):
    """One step of batched greedy decoding: each unfinished sentence's
    piece (pieces: a tensor of B ids, read back from the device once) goes
    onto its output, or finishes it at EOS. True when every one is done."""
    for b, piece in enumerate(pieces.tolist()):
        if not done[b]:
            if piece == eos_id:
                done[b] = True
            else:
                out[b].append(piece)
    return all(done)


def log_softmax_f32(logits):
    return torch.log_softmax(logits.float(), dim=-1)


@torch.no_grad()
def beam_search(model, src_ids, beam=1, alpha=0.6, max_len=None, nbest=1):
    """src_ids: list of source ids INCLUDING the final EOS.
    Returns up to nbest (tokens without EOS, raw logP, normalized score)."""
    cfg = model.cfg
    src = torch.tensor([src_ids], dtype=torch.long)
    src_len = torch.tensor([len(src_ids)])
    states, keys, mask, h0 = model.encode(src, src_len)
    if max_len is None:
        max_len = default_max_len(len(src_ids))

    live_tokens = [[]]
    live_scores = torch.zeros(1)
    live_h = h0
    finished = []  # (tokens incl. EOS, score)
    for _ in range(max_len):
        k = beam - len(finished)
        n = len(live_tokens)
        prev = torch.tensor([t[-1] if t else cfg.bos_id for t in live_tokens])
        logits, h = model.step(prev, live_h, states.expand(n, -1, -1),
                               keys.expand(n, -1, -1), mask.expand(n, -1))
        cand = (live_scores[:, None] + log_softmax_f32(logits)).reshape(-1)
        picks = top_k_stable(cand, k)
        V = logits.size(1)
        next_tokens, next_scores, next_rows = [], [], []
        for flat in picks:
            row, tok = divmod(flat, V)
            toks = live_tokens[row] + [tok]
            score = cand[flat].item()
            if tok == cfg.eos_id:
                finished.append((toks, score))
            else:
                next_tokens.append(toks)
                next_scores.append(cand[flat])
                next_rows.append(row)
        if not next_tokens:
            live_tokens = []
            break
        live_tokens = next_tokens
        live_scores = torch.stack(next_scores)
        live_h = h[torch.tensor(next_rows)]
    for toks, score in zip(live_tokens, live_scores.tolist() if live_tokens else []):
        finished.append((toks, score))

    def normalized(item):
        toks, score = item
        return score / (max(len(toks), 1) ** alpha)

    ranked = sorted(finished, key=normalized, reverse=True)  # sorted() is stable
    out = []
    for toks, score in ranked[:nbest]:
        body = toks[:-1] if toks and toks[-1] == cfg.eos_id else toks
        out.append((body, score, normalized((toks, score))))
    return out


def top_k_stable(values, k):
    """Indices of the k largest values, largest first; equal values by lower index."""
    order = np.argsort(-values.numpy(), kind='stable')
    return [int(i) for i in order[:k]]
