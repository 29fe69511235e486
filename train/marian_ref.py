"""The reference for Marian's student models (a Transformer encoder and a
decoder of SSRU layers, as Firefox Translations ships them), in PyTorch, on
the weights of a Marian .npz: what nmt's engine must compute for a model
imported with `model-pack --marian` (docs/DESIGN.md describes the math).

    marian_ref.py MODEL.npz VOCAB.spm [--beam 1] [--first N] < source > translations

Greedy or beam search as marian-decoder runs them with --normalize 0
--word-penalty 0 --max-length-factor 3: cumulative log-probabilities, the
beam shrinking as hypotheses end, at most ceil(3 x source pieces) tokens.
"""
import argparse
import math
import os
import sys

import numpy as np
import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ssru import parse_yml  # noqa: E402


def config(z):
    return parse_yml(bytes(z['special:model.yml']).split(b'\0')[0].decode())


class Marian:
    def __init__(self, path):
        z = np.load(path)
        self.cfg = config(z)
        self.w = {k: torch.from_numpy(z[k].astype(np.float32)) for k in z.files if not k.startswith('special')}
        c = self.cfg
        if c.get('type') != 'transformer' or c.get('transformer-decoder-autoreg') != 'rnn' or c.get('dec-cell') != 'ssru':
            raise SystemExit('not a Transformer encoder + SSRU decoder model')
        self.d = int(c['dim-emb'])
        self.heads = int(c['transformer-heads'])
        self.enc_depth = int(c['enc-depth'])
        self.dec_depth = int(c['dec-depth'])
        # transformer-tied-layers: decoder layer i runs the weights of layer tied[i]
        tied = c.get('transformer-tied-layers') or []
        self.dec_weights = [int(x) for x in tied] if tied else list(range(1, self.dec_depth + 1))
        if len(self.dec_weights) != self.dec_depth:
            raise SystemExit('transformer-tied-layers does not name one layer per decoder layer')
        w = self.w
        self.src_emb = w['Wemb'] if 'Wemb' in w else w['encoder_Wemb']
        self.dec_emb = w['Wemb'] if 'Wemb' in w else w['decoder_Wemb']
        self.out_emb = w.get('decoder_ff_logit_out_Wt', self.dec_emb)

    def p(self, name):
        return self.w[name]

    @staticmethod
    def layer_norm(x, g, b):
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return g * ((x - mean) / torch.sqrt(var + 1e-6)) + b

    def positions(self, start, n):
        half = self.d // 2
        inc = math.log(10000.0) / (half - 1)
        freq = torch.exp(torch.arange(half, dtype=torch.float32) * -inc)
        pos = torch.arange(start, start + n, dtype=torch.float32)[:, None] * freq[None, :]
        return torch.cat([torch.sin(pos), torch.cos(pos)], -1)

    def attention(self, prefix, q_in, kv_in, mask=None):
        """Multi-head attention, q_in [T, d], kv_in [S, d]; returns the
        post-processed output and the weights [heads, T, S]."""
        P = self.p
        dk = self.d // self.heads
        q = q_in @ P(prefix + '_Wq') + P(prefix + '_bq')
        k = kv_in @ P(prefix + '_Wk') + P(prefix + '_bk')
        v = kv_in @ P(prefix + '_Wv') + P(prefix + '_bv')
        T, S = q.shape[0], k.shape[0]
        q = q.view(T, self.heads, dk).transpose(0, 1)
        k = k.view(S, self.heads, dk).transpose(0, 1)
        v = v.view(S, self.heads, dk).transpose(0, 1)
        z = (q @ k.transpose(1, 2)) * (1.0 / math.sqrt(dk))
        if mask is not None:
            z = z + mask
        a = torch.softmax(z, -1)
        ctx = (a @ v).transpose(0, 1).reshape(T, self.d)
        out = ctx @ P(prefix + '_Wo') + P(prefix + '_bo')
        return self.layer_norm(out + q_in, P(prefix + '_Wo_ln_scale'), P(prefix + '_Wo_ln_bias')), a

    def ffn(self, prefix, x):
        P = self.p
        h = torch.relu(x @ P(prefix + '_W1') + P(prefix + '_b1'))
        out = h @ P(prefix + '_W2') + P(prefix + '_b2')
        return self.layer_norm(out + x, P(prefix + '_ffn_ln_scale'), P(prefix + '_ffn_ln_bias'))

    def encode(self, ids):
        x = self.src_emb[ids] * math.sqrt(self.d) + self.positions(0, len(ids))
        for l in range(1, self.enc_depth + 1):
            x, _ = self.attention(f'encoder_l{l}_self', x, x)
            x = self.ffn(f'encoder_l{l}_ffn', x)
        return x

    def step(self, enc, y_prev, pos, cells):
        """Rows y_prev [R] (None at the first step: a zero embedding), their
        SSRU cells [layers][R, d]; returns log-probabilities [R, V], new
        cells and the last layer's cross-attention (heads averaged)."""
        P = self.p
        R = cells[0].shape[0]
        e = torch.zeros(R, self.d) if y_prev is None else self.dec_emb[y_prev]
        x = e * math.sqrt(self.d) + self.positions(pos, 1)
        new_cells, att = [], None
        for l in range(1, self.dec_depth + 1):
            n = self.dec_weights[l - 1]
            pre = f'decoder_l{n}_rnn'
            f = torch.sigmoid(x @ P(pre + '_Wf') + P(pre + '_bf'))
            c = f * cells[l - 1] + (1 - f) * (x @ P(pre + '_W'))
            new_cells.append(c)
            x = self.layer_norm(torch.relu(c) + x, P(pre + '_ffn_ln_scale'), P(pre + '_ffn_ln_bias'))
            rows = []
            for r in range(R):
                out, a = self.attention(f'decoder_l{n}_context', x[r:r + 1], enc)
                rows.append(out)
                att = a
            x = torch.cat(rows, 0)
            x = self.ffn(f'decoder_l{n}_ffn', x)
        logits = x @ self.out_emb.T + P('decoder_ff_logit_out_b')
        return torch.log_softmax(logits, -1), new_cells

    def translate(self, ids, beam, eos, unk):
        enc = self.encode(torch.tensor(ids))
        max_len = math.ceil(3 * len(ids))
        cells = [torch.zeros(1, self.d) for _ in range(self.dec_depth)]
        hyps = [([], 0.0)]   # (tokens, score)
        finished = []
        prev = None
        for t in range(max_len):
            lp, cells = self.step(enc, prev, t, cells)
            lp[:, unk] = -math.inf
            scores = torch.tensor([s for _, s in hyps])[:, None] + lp
            k = beam if t == 0 else len(hyps)   # the start fills the beam; then it only shrinks
            top = torch.topk(scores.flatten(), k)
            V = lp.shape[1]
            new_hyps, carry = [], []
            for value, flat in zip(top.values.tolist(), top.indices.tolist()):
                h, w = divmod(flat, V)
                toks = hyps[h][0] + [w]
                if w == eos or t + 1 == max_len:
                    finished.append((toks, value))
                else:
                    new_hyps.append((toks, value))
                    carry.append(h)
            if not new_hyps:
                break
            hyps = new_hyps
            cells = [c[carry] for c in cells]
            prev = torch.tensor([toks[-1] for toks, _ in hyps])
        return sorted(finished, key=lambda x: -x[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('model')
    ap.add_argument('vocab')
    ap.add_argument('--beam', type=int, default=1)
    ap.add_argument('--first', type=int, default=0)
    ap.add_argument('--nbest', action='store_true')
    a = ap.parse_args()
    torch.set_num_threads(1)
    m = Marian(a.model)
    sp = spm.SentencePieceProcessor(model_file=a.vocab)
    eos, unk = sp.eos_id(), sp.unk_id()
    with torch.no_grad():
        for n, line in enumerate(sys.stdin):
            if a.first and n >= a.first:
                break
            ids = sp.encode(line.rstrip('\n')) + [eos]
            out = m.translate(ids, a.beam, eos, unk)
            if a.nbest:
                for toks, score in out:
                    text = sp.decode([t for t in toks if t != eos])
                    print(f'{n} ||| {text} ||| F0= {score:g} ||| {score:g}')
            else:
                print(sp.decode([t for t in out[0][0] if t != eos]))
            sys.stdout.flush()


if __name__ == '__main__':
    main()
