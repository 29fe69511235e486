"""The nmt reference model (docs/DESIGN.md §3), in PyTorch.

This file is the executable specification the C engine is held to: the parity
fixtures under tests/fixtures/ are produced by it, and the C engine must match
its logits and its search results. Keep the math here and in engine/ in step.

Encoder: source embedding -> `enc_layers` bidirectional GRU layers; s_j = [fwd_j; bwd_j].
Decoder step i (previous token y, previous state h):
    x = Et[y]
    k_j = tanh(U_a s_j)                       (once per sentence)
    q = tanh(W_a h + V_a x);  alpha = softmax_j(q . k_j);  c = sum_j alpha_j s_j
    h' = GRU([x; c], h)
    z0 = relu(W_in h' + b_in);  z_k = relu(W_fc z_{k-1} + b_fc) + z_{k-1}  (k = 1..fc_layers, tied)
    t = tanh(W_T z_N + b_T);  logits = t . Et^T + b_out
h_0 = tanh(W_init mean_j(s_j) + b_init).  GRU gates follow torch.nn.GRU (r, z, n).
"""
import dataclasses
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclasses.dataclass
class Config:
    src_vocab: int
    tgt_vocab: int
    emb: int = 256          # e
    enc_hidden: int = 256   # re, per direction
    enc_layers: int = 1     # Le
    dec_hidden: int = 256   # r
    att: int = 256          # a
    fc: int = 512           # f
    fc_layers: int = 2      # N tied residual layers after the first FC layer
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = 0         # padding index used only inside training batches


class NMT(nn.Module):
    def __init__(self, cfg: Config, dropout: float = 0.0):
        super().__init__()
        self.cfg = cfg
        c = cfg
        # Dropout acts in training only (model.train()); in eval mode it is the
        # identity, so it is not part of the math the engine reproduces.
        self.drop = nn.Dropout(dropout)
        self.src_emb = nn.Embedding(c.src_vocab, c.emb)
        self.tgt_emb = nn.Embedding(c.tgt_vocab, c.emb)
        self.enc = nn.GRU(c.emb, c.enc_hidden, num_layers=c.enc_layers,
                          bidirectional=True, batch_first=True)
        ctx = 2 * c.enc_hidden
        self.init = nn.Linear(ctx, c.dec_hidden)
        self.att_U = nn.Linear(ctx, c.att, bias=False)
        self.att_W = nn.Linear(c.dec_hidden, c.att, bias=False)
        self.att_V = nn.Linear(c.emb, c.att, bias=False)
        self.dec = nn.GRUCell(c.emb + ctx, c.dec_hidden)
        self.fc_in = nn.Linear(c.dec_hidden, c.fc)
        self.fc = nn.Linear(c.fc, c.fc)          # shared by all fc_layers (tied)
        self.top = nn.Linear(c.fc, c.emb)
        self.out_bias = nn.Parameter(torch.zeros(c.tgt_vocab))

    # ---- encoder -------------------------------------------------------
    def encode(self, src, src_len):
        """src: [B, S] ids (padded), src_len: [B] lengths >= 1.
        Returns states [B, S, 2re], keys [B, S, a], mask [B, S] (True = real), h0 [B, r]."""
        x = self.drop(self.src_emb(src))
        packed = nn.utils.rnn.pack_padded_sequence(
            x, src_len.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.enc(packed)
        states, _ = nn.utils.rnn.pad_packed_sequence(
            out, batch_first=True, total_length=src.size(1))
        states = self.drop(states)
        mask = torch.arange(src.size(1), device=src.device)[None, :] < src_len[:, None]
        keys = torch.tanh(self.att_U(states))
        mean = (states * mask[..., None]).sum(1) / src_len[:, None].to(states.dtype)
        h0 = torch.tanh(self.init(mean))
        return states, keys, mask, h0

    # ---- decoder -------------------------------------------------------
    def step(self, y_prev, h, states, keys, mask):
        """One decoder step for B rows. Returns (logits [B, Vt], new h [B, r])."""
        h = self.recur(y_prev, h, states, keys, mask)
        return self.readout(h), h

    def recur(self, y_prev, h, states, keys, mask):
        """The recurrent part of a step: attention and the GRU. Returns new h."""
        x = self.drop(self.tgt_emb(y_prev))
        q = torch.tanh(self.att_W(h) + self.att_V(x))
        scores = torch.einsum('ba,bsa->bs', q, keys)
        scores = scores.masked_fill(~mask, float('-inf'))
        alpha = torch.softmax(scores, dim=-1)
        c = torch.einsum('bs,bsd->bd', alpha, states)
        return self.dec(torch.cat([x, c], dim=-1), h)

    def readout(self, h, rows=None):
        """FC stack and tied output layer: logits [..., Vt] from GRU states;
        with rows (target ids), only those columns, in that order."""
        z = F.relu(self.fc_in(self.drop(h)))
        for _ in range(self.cfg.fc_layers):
            z = F.relu(self.fc(z)) + z
        t = torch.tanh(self.top(self.drop(z)))
        if rows is None:
            return t @ self.tgt_emb.weight.t() + self.out_bias
        return t @ self.tgt_emb.weight[rows].t() + self.out_bias[rows]

    def forward(self, src, src_len, tgt_in, rows=None):
        """Teacher forcing. tgt_in: [B, T] (BOS-first). Returns logits [B, T, Vt]
        (with rows: [B, T, len(rows)], the columns of those target ids)."""
        return self.readout(self.decoder_states(src, src_len, tgt_in), rows)

    def decoder_states(self, src, src_len, tgt_in):
        """Teacher forcing up to the GRU: states h_i [B, T, r].

        The same math as calling recur() once per step, rearranged the way
        docs/DESIGN.md §4 tells the engine to (Devlin §4.2-4.3): everything that
        does not depend on h - the embeddings' attention and GRU input
        projections for all steps, and the GRU input projection of every
        source state (W_ic s_j, so W_ic c_i = sum_j alpha_ij W_ic s_j) - is one
        large matrix product before the loop, leaving the loop only the
        products with h."""
        states, keys, mask, h = self.encode(src, src_len)
        e = self.cfg.emb
        x = self.drop(self.tgt_emb(tgt_in))                       # [B, T, e]
        x_att = self.att_V(x)                                     # [B, T, a]
        w_ih, w_hh = self.dec.weight_ih, self.dec.weight_hh
        x_gates = F.linear(x, w_ih[:, :e], self.dec.bias_ih)      # [B, T, 3r]
        ctx_gates = states @ w_ih[:, e:].t()                      # [B, S, 3r]
        mask_bias = torch.zeros(mask.shape, dtype=x.dtype, device=x.device).masked_fill(~mask, float('-inf'))
        keys_t = keys.transpose(1, 2)                             # [B, a, S]
        hs = []
        # unbind, not x_att[:, i]: the backward of a slice is a full-size zero
        # tensor per step, which cost more than the whole step.
        for x_att_i, x_gates_i in zip(x_att.unbind(1), x_gates.unbind(1)):
            q = torch.tanh(self.att_W(h) + x_att_i)
            scores = torch.bmm(q.unsqueeze(1), keys_t).squeeze(1) + mask_bias
            alpha = torch.softmax(scores, dim=-1)
            # .float(): under bfloat16 autocast the products come out in
            # bfloat16; the gates and the state h stay float32, so the
            # recurrence does not round h to 8 bits at every step
            gi = (x_gates_i + torch.bmm(alpha.unsqueeze(1), ctx_gates).squeeze(1)).float()
            gh = F.linear(h, w_hh, self.dec.bias_hh).float()
            i_r, i_z, i_n = gi.chunk(3, dim=1)
            h_r, h_z, h_n = gh.chunk(3, dim=1)
            r = torch.sigmoid(i_r + h_r)
            z = torch.sigmoid(i_z + h_z)
            n = torch.tanh(i_n + r * h_n)
            h = n + z * (h - n)
            hs.append(h)
        return torch.stack(hs, dim=1)

def default_max_len(src_len):
    """Design-notes §1: ceil(1.5 |src| + 10), |src| counting the appended EOS."""
    return int(math.ceil(1.5 * src_len + 10))
