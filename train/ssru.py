"""The SSRU family (Marian's student models: a Transformer encoder and a
decoder of SSRU layers) as a trainable PyTorch module, read from and written
to Marian's .npz, so that `model-pack --marian` imports what it trains
exactly as it imports a model Marian trained. docs/DESIGN.md §3b has the
math; train/marian_ref.py is the unbatched reference this module agrees with.

Matrices are kept as nmt stores them, [outputs, inputs] (Marian's are
[inputs, outputs] and are transposed on reading and writing), so that
quantization-aware fine-tuning (train/qat.py) quantizes the same rows the
engine does. Vectors are 1-D (and so never fake-quantized).
"""
import dataclasses
import io
import math
import zipfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F



@dataclasses.dataclass
class Config:
    src_vocab: int
    tgt_vocab: int
    emb: int = 256
    heads: int = 8
    ffn: int = 1536
    dec_ffn: int = 0          # 0: the encoder's
    enc_layers: int = 6
    dec_layers: int = 2
    tied: str = 'all'         # all | tgt | none
    dec_tied: tuple = ()      # transformer-tied-layers (1-based), () = untied
    bos_id: int = 0           # unused by the family (its first input is a zero vector)
    eos_id: int = 0
    pre_norm: bool = False    # teachers only: Marian's students and the engine are post-norm


def parse_yml(text):
    """Marian's model.yml as a dict (lists as lists of strings)."""
    cfg, key = {}, None
    for line in text.splitlines():
        if line.startswith('  - ') and key:
            cfg[key].append(line[4:].strip())
        elif ':' in line and not line.startswith(' '):
            key, value = line.split(':', 1)
            value = value.strip()
            cfg[key] = [] if value in ('', '[]') else value.strip('"\'')
    return cfg


def yml_items(c):
    """The keys model-pack --marian reads, for a model trained here."""
    return {
        'type': 'transformer', 'dim-emb': c.emb, 'transformer-heads': c.heads, 'transformer-dim-ffn': c.ffn,
        'transformer-decoder-dim-ffn': c.dec_ffn, 'transformer-ffn-depth': 2, 'transformer-decoder-ffn-depth': 0,
        'transformer-ffn-activation': 'relu', 'enc-depth': c.enc_layers, 'dec-depth': c.dec_layers,
        'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'ssru', 'transformer-postprocess': 'dan',
        'transformer-postprocess-emb': 'd', 'transformer-preprocess': '""',
        'transformer-tied-layers': list(c.dec_tied), 'tied-embeddings-all': str(c.tied == 'all').lower(),
        'tied-embeddings': str(c.tied == 'tgt').lower(), 'tied-embeddings-src': 'false',
        'dim-vocabs': [c.src_vocab, c.tgt_vocab], 'output-omit-bias': 'false', 'layer-normalization': 'false',
        'right-left': 'false', 'version': 'nmt train/ssru.py',
    }


def yml_bytes(items):
    lines = []
    for k, v in items.items():
        if isinstance(v, list):
            lines.append(f'{k}:')
            lines += [f'  - {x}' for x in v] if v else ['  []']
        else:
            lines.append(f'{k}: {v}')
    text = ('\n'.join(lines) + '\n').encode() + b'\0'
    return np.frombuffer(text + b'\0' * ((-len(text)) % 256), dtype=np.int8)


def save_npz(path, arrays, yml):
    """Marian's .npz: stored members NAME.npy, the config as special:model.yml."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_STORED) as z:
        for name in sorted(arrays) + ['special:model.yml']:
            a = io.BytesIO()
            np.save(a, yml if name == 'special:model.yml' else arrays[name])
            z.writestr(zipfile.ZipInfo(name + '.npy', date_time=(1980, 1, 1, 0, 0, 0)), a.getvalue())
    with open(path, 'wb') as f:
        f.write(buf.getvalue())


def is_matrix(name):
    """Marian's x·W matrices (transposed here); embeddings are not."""
    at = name.rfind('_W')
    return at >= 0 and name[at + 2:] in ('', 'q', 'k', 'v', 'o', 'f', '1', '2') and 'Wemb' not in name


def layer_norm(x, g, b):
    x = x.float()   # a no-op in float32; under bf16 autocast the statistics stay exact
    if x.is_cuda:   # on a GPU one fused kernel, the same formula (rounded otherwise)
        return F.layer_norm(x, x.shape[-1:], g, b, 1e-6)
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return g * ((x - mean) / torch.sqrt(var + 1e-6)) + b


def linear_scan(f, u, c0=None):
    """c_t = f_t * c_{t-1} + u_t over dim 1 (f, u [B,T,d]; c0 [B,d] or None:
    zeros), all of it at once: log2(T) steps of Hillis and Steele's scan, each
    composing every position with the one k before it, instead of T steps
    of one position each. Only products of gates in [0, 1] and sums, so as
    stable as the loop; the sums are associated otherwise, so the results
    differ from the loop's by rounding. The GPU's way (a loop of T small
    steps there is kernel launches, forwards and backwards)."""
    a, b = f, u
    if c0 is not None:
        b = torch.cat([b[:, :1] + a[:, :1] * c0[:, None], b[:, 1:]], 1)
    k, T = 1, f.shape[1]
    while k < T:
        b = torch.cat([b[:, :k], a[:, k:] * b[:, :-k] + b[:, k:]], 1)
        a = torch.cat([a[:, :k], a[:, k:] * a[:, :-k]], 1)
        k *= 2
    return b


class SSRU(nn.Module):
    def __init__(self, cfg, dropout=0.1):
        super().__init__()
        self.cfg, self.dropout = cfg, dropout
        self.w = nn.ParameterDict()
        self.yml = yml_bytes(yml_items(cfg))
        d = cfg.emb

        def mat(name, rows, cols):   # [outputs, inputs], Glorot-uniform
            a = math.sqrt(6 / (rows + cols))
            self.w[name] = nn.Parameter(torch.empty(rows, cols).uniform_(-a, a))

        def vec(name, n, value=0.0):
            self.w[name] = nn.Parameter(torch.full((n,), value))

        def attention(p):
            for x in 'qkvo':
                mat(f'{p}_W{x}', d, d)
                vec(f'{p}_b{x}', d)
            vec(p + '_Wo_ln_scale', d, 1.0)
            vec(p + '_Wo_ln_bias', d)

        def ffn(p, width):
            mat(p + '_W1', width, d)
            vec(p + '_b1', width)
            mat(p + '_W2', d, width)
            vec(p + '_b2', d)
            vec(p + '_ffn_ln_scale', d, 1.0)
            vec(p + '_ffn_ln_bias', d)

        if cfg.tied == 'all':
            mat('Wemb', cfg.tgt_vocab, d)
        else:
            mat('encoder_Wemb', cfg.src_vocab, d)
            mat('decoder_Wemb', cfg.tgt_vocab, d)
        if cfg.tied == 'none':
            mat('decoder_ff_logit_out_Wt', cfg.tgt_vocab, d)
        vec('decoder_ff_logit_out_b', cfg.tgt_vocab)
        for l in range(1, cfg.enc_layers + 1):
            attention(f'encoder_l{l}_self')
            ffn(f'encoder_l{l}_ffn', cfg.ffn)
        for l in sorted(set(self.dec_weights())):
            p = f'decoder_l{l}_rnn'
            mat(p + '_W', d, d)
            mat(p + '_Wf', d, d)
            vec(p + '_bf', d)
            vec(p + '_ffn_ln_scale', d, 1.0)
            vec(p + '_ffn_ln_bias', d)
            attention(f'decoder_l{l}_context')
            ffn(f'decoder_l{l}_ffn', cfg.dec_ffn or cfg.ffn)
        if cfg.pre_norm:   # each stack's output normalized once, after its last residual sum
            for side in ('encoder', 'decoder'):
                vec(side + '_top_ln_scale', d, 1.0)
                vec(side + '_top_ln_bias', d)

    def dec_weights(self):
        return [int(x) for x in self.cfg.dec_tied] or list(range(1, self.cfg.dec_layers + 1))

    # ---- Marian's files ----

    @classmethod
    def from_npz(cls, path, dropout=0.1, eos_id=0):
        z = np.load(path)
        raw = bytes(z['special:model.yml'])
        y = parse_yml(raw.split(b'\0')[0].decode())
        if y.get('type') != 'transformer' or y.get('dec-cell') != 'ssru':
            raise SystemExit(f'{path}: not a Transformer encoder + SSRU decoder model')
        tied = 'all' if y.get('tied-embeddings-all') == 'true' or y.get('tied-embeddings-src') == 'true' \
            else 'tgt' if y.get('tied-embeddings') == 'true' else 'none'
        vs, vt = (int(v) for v in y['dim-vocabs'])
        cfg = Config(src_vocab=vs, tgt_vocab=vt, emb=int(y['dim-emb']), heads=int(y.get('transformer-heads', 8)),
                     ffn=int(y['transformer-dim-ffn']), dec_ffn=int(y.get('transformer-decoder-dim-ffn', 0)),
                     enc_layers=int(y['enc-depth']), dec_layers=int(y['dec-depth']), tied=tied,
                     dec_tied=tuple(int(x) for x in y.get('transformer-tied-layers') or []), eos_id=eos_id)
        m = cls(cfg, dropout)
        m.yml = np.frombuffer(raw, dtype=np.int8)   # written back as it was read
        with torch.no_grad():
            for name, p in m.w.items():
                a = torch.from_numpy(z[name].astype(np.float32))
                a = a.T if is_matrix(name) else a
                p.copy_(a.reshape(p.shape))
        return m

    @classmethod
    def from_torch(cls, path, dropout=0.1):
        """A checkpoint train.py wrote as a torch file (a pre-norm teacher's
        DIR/best.pt or last.pt, or train/carry.py's unpacked one)."""
        ck = torch.load(path, map_location='cpu', weights_only=False)
        fields = {f.name for f in dataclasses.fields(Config)}
        cfg = Config(**{k: (tuple(v) if k == 'dec_tied' else v) for k, v in ck['cfg'].items() if k in fields})
        m = cls(cfg, dropout)
        m.load_state_dict(ck['model'])
        return m

    def save_npz(self, path):
        if self.cfg.pre_norm:
            raise SystemExit(f'{path}: a pre-norm model has no Marian form (the engine runs post-norm)')
        arrays = {}
        for name, p in self.w.items():
            a = p.detach().float().cpu().numpy()
            arrays[name] = np.ascontiguousarray(a.T) if is_matrix(name) else a.reshape(1, -1) if a.ndim == 1 else a
        save_npz(path, arrays, self.yml)

    # ---- the computation ----

    def positions(self, n, start=0):
        half, dev = self.cfg.emb // 2, self.src_emb().device
        inc = math.log(10000.0) / (half - 1)
        freq = torch.exp(torch.arange(half, dtype=torch.float32, device=dev) * -inc)
        pos = torch.arange(start, start + n, dtype=torch.float32, device=dev)[:, None] * freq[None, :]
        return torch.cat([torch.sin(pos), torch.cos(pos)], -1)

    def drop(self, x):
        return F.dropout(x, self.dropout, self.training)

    def residual(self, p, x, sublayer):
        """x + sublayer, normalized after the sum (post-norm, Marian's
        'dan'), or the sublayer fed a normalized x (pre-norm: deep stacks
        train without a long warm-up)."""
        g, b = self.w[p + '_scale'], self.w[p + '_bias']
        if self.cfg.pre_norm:
            return x + self.drop(sublayer(layer_norm(x, g, b)))
        return layer_norm(self.drop(sublayer(x)) + x, g, b)

    def attention(self, p, x, kv, key_mask, cache=None):
        """Multi-head attention with its residual; x [B,T,d], kv [B,S,d]
        (None: self-attention), key_mask [B,S] True where a key is padding.
        cache: a dict keeping kv's keys and values from one call to the next
        (decoding: the encoder's do not change from step to step)."""
        return self.residual(p + '_Wo_ln', x,
                             lambda y: self.attend(p, y, y if kv is None else kv, key_mask, cache))

    def attend(self, p, x, kv, key_mask, cache=None):
        w, H = self.w, self.cfg.heads
        B, T, d = x.shape
        S, dk = kv.shape[1], d // H
        q = F.linear(x, w[p + '_Wq'], w[p + '_bq']).view(B, T, H, dk).transpose(1, 2)
        if cache is not None and p in cache:
            k, v = cache[p]
        else:
            k = F.linear(kv, w[p + '_Wk'], w[p + '_bk']).view(B, S, H, dk).transpose(1, 2)
            v = F.linear(kv, w[p + '_Wv'], w[p + '_bv']).view(B, S, H, dk).transpose(1, 2)
            if cache is not None:
                cache[p] = k, v
        z = (q @ k.transpose(-1, -2)) / math.sqrt(dk)
        z = z.masked_fill(key_mask[:, None, None, :], -1e9)
        ctx = (torch.softmax(z, -1) @ v).transpose(1, 2).reshape(B, T, d)
        return F.linear(ctx, w[p + '_Wo'], w[p + '_bo'])

    def ffn(self, p, x):
        w = self.w

        def inner(y):
            h = self.drop(torch.relu(F.linear(y, w[p + '_W1'], w[p + '_b1'])))
            return F.linear(h, w[p + '_W2'], w[p + '_b2'])
        return self.residual(p + '_ffn_ln', x, inner)

    def top(self, side, x):
        if not self.cfg.pre_norm:
            return x
        return layer_norm(x, self.w[side + '_top_ln_scale'], self.w[side + '_top_ln_bias'])

    def src_emb(self):
        return self.w['Wemb'] if 'Wemb' in self.w else self.w['encoder_Wemb']

    def dec_emb(self):
        return self.w['Wemb'] if 'Wemb' in self.w else self.w['decoder_Wemb']

    def out_emb(self):
        return self.w['decoder_ff_logit_out_Wt'] if 'decoder_ff_logit_out_Wt' in self.w else self.dec_emb()

    def encode(self, src, src_len):
        S = src.shape[1]
        mask = torch.arange(S, device=src.device)[None, :] >= src_len[:, None]
        x = self.drop(self.src_emb()[src] * math.sqrt(self.cfg.emb) + self.positions(S))
        for l in range(1, self.cfg.enc_layers + 1):
            x = self.attention(f'encoder_l{l}_self', x, None, mask)
            x = self.ffn(f'encoder_l{l}_ffn', x)
        return self.top('encoder', x), mask

    def decode(self, enc, mask, tin, cells=None, start=0, cache=None):
        """Decoder layers over inputs tin [B,T] (a position's input is the
        previous target piece; tin[:, 0] is ignored at start 0, where the
        input is a zero vector). cells: each layer's SSRU state [B,d]
        (None: zeros). cache: see attention(). Returns logits [B,T,V] and
        the new cells. On a GPU, a sequence of several positions goes
        through the SSRU by linear_scan, in float32."""
        w, d = self.w, self.cfg.emb
        B, T = tin.shape
        e = self.dec_emb()[tin]
        if start == 0:
            e = torch.cat([torch.zeros_like(e[:, :1]), e[:, 1:]], 1)
        x = self.drop(e * math.sqrt(d) + self.positions(T, start))
        new_cells = []
        for l, n in enumerate(self.dec_weights()):
            p = f'decoder_l{n}_rnn'

            def ssru(y):
                f = torch.sigmoid(F.linear(y, w[p + '_Wf'], w[p + '_bf']))
                wx = F.linear(y, w[p + '_W'])
                if y.is_cuda and T > 1:
                    f, wx = f.float(), wx.float()
                    c0 = cells[l].float() if cells is not None else None
                    cs = linear_scan(f, (1 - f) * wx, c0)
                    new_cells.append(cs[:, -1])
                    return torch.relu(cs)
                c = cells[l] if cells is not None else y.new_zeros(B, d, dtype=wx.dtype)
                cs = []
                for t in range(T):
                    c = f[:, t] * c + (1 - f[:, t]) * wx[:, t]
                    cs.append(c)
                new_cells.append(c)
                return torch.relu(torch.stack(cs, 1))
            x = self.residual(p + '_ffn_ln', x, ssru)
            x = self.attention(f'decoder_l{n}_context', x, enc, mask, cache)
            x = self.ffn(f'decoder_l{n}_ffn', x)
        x = self.top('decoder', x)
        return F.linear(x, self.out_emb(), w['decoder_ff_logit_out_b']), new_cells

    def forward(self, src, src_len, tin):
        enc, mask = self.encode(src, src_len)
        return self.decode(enc, mask, tin)[0]

    def greedy(self, src, src_len, max_len, check_every=None):
        """Greedy ids per sentence (without EOS), at most max_len pieces.
        The pieces stay where the model is; whether every sentence has
        ended is read back every check_every steps (default: each step on
        the host, every 8th on a GPU, where each read-back waits for the
        device). Steps past a sentence's EOS are dropped, so the result
        does not depend on check_every."""
        enc, mask = self.encode(src, src_len)
        B, eos = src.shape[0], self.cfg.eos_id
        every = check_every or (8 if src.is_cuda else 1)
        prev = torch.zeros(B, 1, dtype=torch.long, device=src.device)
        ended = torch.zeros(B, dtype=torch.bool, device=src.device)
        cells, cache, steps = None, {}, []
        for t in range(max_len):
            logits, cells = self.decode(enc, mask, prev, cells, start=t, cache=cache)
            prev = logits[:, -1].argmax(-1, keepdim=True)
            steps.append(prev[:, 0])
            ended |= prev[:, 0] == eos
            if (t + 1) % every == 0 and bool(ended.all()):
                break
        out = []
        for row in torch.stack(steps, 1).tolist() if steps else [[]] * B:
            out.append(row[:row.index(eos)] if eos in row else row)
        return out
