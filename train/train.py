"""Train the reference model (train/model.py) on a parallel corpus.

    /usr/bin/python3 train/train.py --out DIR --src-train X.en --tgt-train X.de \
        --src-val V.en --tgt-val V.de --spm-src S.model --spm-tgt T.model [dims]

Batches by token count, label-smoothed cross-entropy, dropout, Adam with a
linear warm-up and halving on validation plateaus, gradient clipping, periodic
validation (loss, greedy BLEU and chrF on the validation set), early stopping,
best-checkpoint keeping (DIR/best.safetensors via export.py) and resumption
from DIR/last.pt. A progress line shows tokens/s and the ETA.

Quantization-aware fine-tuning starts from a trained model and trains
through the q8 or q4 quantizer (train/qat.py):
    train.py --init BEST.safetensors --quant q4 --lr 2e-4 --warmup 1 ... --out DIR

--self-distill W (with --init and --quant) also teaches the quantized model
its own float weights' word distributions: the loss becomes (1 - W) x the
cross-entropy plus W x KL(float || quantized) at every target position,
the frozen --init model (no dropout; or --float-weights, when the run starts
from weights already fine-tuned for q4) giving the float side. The codes
then aim at what the float weights predict, not only at the data.

--negatives NEG.tsv (train/negatives.py) adds, at every step, sequence-level
unlikelihood on a batch of the model's own looping translations: the pieces
that carry each loop on are pushed down where the model wrote them.

--family ssru trains the other family (train/ssru.py: Marian's students, a
Transformer encoder and SSRU decoder; --emb, --enc-layers, --heads, --ffn,
--dec-ffn, --dec-layers, --tied), from scratch or from a Marian .npz given
to --init (its configuration wins), and keeps its checkpoints as Marian
.npz files (DIR/best.npz, DIR/step-N.npz) for `model-pack --marian`.

--device cuda trains on an NVIDIA GPU: the training pairs are put there once
(data.Packed) and each batch is cut out of them there; the step reads
nothing back but the loss every 50 steps; Adam is torch's fused one; the
SSRU family's layer norms and recurrences take the GPU's forms (one fused
kernel; ssru.linear_scan), the same formulas rounded otherwise. --bf16 adds
bfloat16 autocast (matrix products in bfloat16, norms, softmax and the loss
in float32). On the host every step computes exactly what it did before,
unless --bf16 asks for bfloat16 matrix products there too (the training
steps only; the GRU's gates and state stay float32).

Teachers (a GPU, a few minutes, large batches): --family ssru --pre-norm
--bf16 --decay-by-time, e.g. --emb 512 --ffn 2048 --enc-layers 6 --max-tokens
25000 --lr 8e-4 --warmup 300. A pre-norm model is kept as torch files
(DIR/best.pt, and DIR/last.pt to resume from), which train/translate.py
reads; it has no Marian .npz form.
"""
import argparse
import contextlib
import dataclasses
import math
import os
import random
import sys
import time


# the host's settings, before torch loads (train/host.py)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host  # noqa: E402

host.prepare(__name__ == '__main__')

import sentencepiece as spm  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import bleu  # noqa: E402
import data  # noqa: E402
import export  # noqa: E402
import negatives  # noqa: E402
import qat  # noqa: E402
import search  # noqa: E402
import ssru  # noqa: E402
from model import NMT, Config, default_max_len  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--out', required=True)
    for k in ('src-train', 'tgt-train', 'src-val', 'tgt-val', 'spm-src', 'spm-tgt'):
        p.add_argument('--' + k, required=True)
    p.add_argument('--src-lang', default='en')
    p.add_argument('--tgt-lang', default='de')
    for f in dataclasses.fields(Config):
        if f.name not in ('src_vocab', 'tgt_vocab', 'bos_id', 'eos_id', 'pad_id'):
            p.add_argument('--' + f.name.replace('_', '-'), type=int, default=f.default)
    p.add_argument('--family', choices=('gru', 'ssru'), default='gru')
    p.add_argument('--heads', type=int, default=8, help='ssru: attention heads')
    p.add_argument('--ffn', type=int, default=1536, help='ssru: feed-forward width')
    p.add_argument('--dec-ffn', type=int, default=0, help="ssru: the decoder's (0: --ffn)")
    p.add_argument('--dec-layers', type=int, default=2, help='ssru: SSRU decoder layers')
    p.add_argument('--tied', choices=('all', 'tgt', 'none'), default='all', help='ssru: embedding tying')
    p.add_argument('--pre-norm', action='store_true',
                   help='ssru: layer norm before each sublayer (a teacher: deep stacks train from the start; '
                        'checkpoints are torch files, not Marian .npz)')
    p.add_argument('--bf16', action='store_true',
                   help='matrix products in bfloat16 (autocast): on a GPU, and in the training steps on a host '
                        "with AVX-512 BF16 (there 2.2x the tokens/s of two GRU students side by side, which share "
                        "the memory system; the GRU state stays float32)")
    p.add_argument('--dropout', type=float, default=0.3)
    p.add_argument('--label-smoothing', type=float, default=0.1)
    p.add_argument('--unlikelihood', type=float, default=0.0,
                   help='weight of the token-level unlikelihood loss on pieces already written (0: off)')
    p.add_argument('--negatives', help="the model's own looping translations (train/negatives.py mine), "
                   'pushed down by sequence-level unlikelihood where they loop')
    p.add_argument('--negatives-weight', type=float, default=1.0)
    p.add_argument('--negatives-batch', type=int, default=32, help='negatives per step')
    p.add_argument('--src-sampling-alpha', type=float, default=0.0,
                   help='segment the training sources by subword sampling with this alpha '
                   '(0: the best segmentation); drawn once, at loading, from --seed')
    p.add_argument('--batch-vocab', type=int, default=0,
                   help='gru: score each batch on its own target pieces and N more drawn at random, not '
                        'the whole vocabulary (Jean et al. 2015; the engine scores a shortlist too): the '
                        'output layer is most of a step on CPU (0: off)')
    p.add_argument('--lr', type=float, default=1e-3)
    p.add_argument('--warmup', type=int, default=400)
    p.add_argument('--decay-by-time', action='store_true',
                   help='after the warm-up, the LR falls linearly with the time spent, to a tenth of it '
                        'at --max-minutes (a run cut by time ends annealed)')
    p.add_argument('--clip', type=float, default=1.0)
    p.add_argument('--max-tokens', type=int, default=3000)
    p.add_argument('--max-epochs', type=int, default=30)
    p.add_argument('--max-minutes', type=float, default=90)
    p.add_argument('--valid-every', type=int, default=1000, help='steps between validations')
    p.add_argument('--patience', type=int, default=4, help='validations without improvement before stopping')
    p.add_argument('--plateau', choices=('bleu', 'loss'), default='bleu',
                   help='what counts as improvement for halving the LR and for --patience: the greedy BLEU '
                        "(which the model's loops, removed in the engine by its guard, can pull down while "
                        'it learns) or the validation loss; best.* is the best BLEU either way')
    p.add_argument('--ema', type=float, default=0.0,
                   help='also keep an exponential moving average of the weights with this decay per step '
                        "(Marian's exponential smoothing, e.g. 0.9995), exported beside each validated "
                        'checkpoint as step-N-ema.* with --keep-checkpoints (0: off)')
    p.add_argument('--save-every', type=int, default=0,
                   help='also write DIR/last.pt every N steps between validations (0: only at them): '
                        'a run stopped with the session loses at most N steps')
    p.add_argument('--threads', type=int, default=os.cpu_count())
    p.add_argument('--device', default='cpu', help='cpu, or cuda (a GPU: the same training, faster)')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--keep-checkpoints', action='store_true',
                   help='also export every validated model as DIR/step-N.safetensors (for train/average.py)')
    p.add_argument('--init', help="start from these weights (export.py safetensors; ssru: Marian .npz, or a "
                   "pre-norm teacher's torch .pt; their dimensions win)")
    p.add_argument('--quant', choices=('q8', 'q4', 'q4n', 'q4n+i8'),
                   help='quantization-aware fine-tuning: train through the q8/q4/q4n quantizer, or q4n for the '
                        'embeddings and i8 for the rest (train/qat.py)')
    p.add_argument('--self-distill', type=float, default=0.0,
                   help='with --init and --quant: weight of the KL divergence from the float '
                   "weights' word distributions (0: off)")
    p.add_argument('--float-weights', help='--self-distill: the float weights (default: --init)')
    args = p.parse_args()
    if args.self_distill and not (args.init and args.quant and args.family == 'gru'):
        p.error('--self-distill needs --init, --quant and the gru family')
    # --negatives scores its own small batch over the whole vocabulary, so it
    # goes with --batch-vocab; the other two compare the main batch's full
    # distributions
    if args.batch_vocab and (args.family != 'gru' or args.self_distill or args.unlikelihood):
        p.error('--batch-vocab is for the gru family, without --self-distill or --unlikelihood')
    return args


@torch.no_grad()
def greedy_batch(model, src, src_len):
    """Batched greedy decoding for validation (the C engine's beam 1)."""
    if hasattr(model, 'greedy'):   # the SSRU family, capped as marian-decoder caps it
        return model.greedy(src, src_len, 3 * int(src_len.max()))
    cfg = model.cfg
    states, keys, mask, h = model.encode(src, src_len)
    B = src.size(0)
    max_len = default_max_len(int(src_len.max()))
    prev = torch.full((B,), cfg.bos_id, dtype=torch.long, device=src.device)
    done = [False] * B
    out = [[] for _ in range(B)]
    for _ in range(max_len):
        logits, h = model.step(prev, h, states, keys, mask)
        prev = logits.argmax(-1)
        if search.take_pieces(out, done, prev, cfg.eos_id):
            break
    return out


def unlikelihood(logits, tout):
    """Token-level unlikelihood (Welleck et al. 2019): at each target
    position, every distinct piece already written before it, other than the
    one that comes next, is pushed down by -log(1 - p). A model that keeps
    probability on what it has just written is the one that, unsure of a
    word, writes the same piece again and again; this trains that away
    instead of catching it in the search. Averaged over the target tokens."""
    B, T, _ = logits.shape
    real = tout != data.IGNORE
    prev = tout.clamp(min=0)
    earlier = torch.ones(T, T, dtype=torch.bool, device=logits.device).tril(-1)   # [t, j]: j < t
    same = prev.unsqueeze(2) == prev.unsqueeze(1)                     # [B, j, j']
    repeated = (same & earlier).any(-1)                               # piece j seen before j
    cand = earlier & (real & ~repeated).unsqueeze(1) & real.unsqueeze(2)
    cand = cand & (prev.unsqueeze(1) != prev.unsqueeze(2))            # not the next piece
    p = logits.softmax(-1).gather(2, prev.unsqueeze(1).expand(B, T, T))
    loss = -torch.log((1 - p).clamp(min=1e-5)) * cand
    return loss.sum() / real.sum().clamp(min=1)


def load_negatives(path, sp_src, sp_tgt, max_positions=8):
    """(source ids, looping translation ids cut after its last penalized
    piece, the penalized positions): the first max_positions places where the
    translation goes on with a loop (negatives.repeat_positions)."""
    found = []
    for line in data.read_lines(path):
        src, hyp = line.split('\t')
        s = sp_src.encode(src) + [sp_src.eos_id()]
        h = sp_tgt.encode(hyp)
        bad = negatives.repeat_positions(h)[:max_positions]
        if bad and len(s) <= 100:
            found.append((s, h[:bad[-1] + 1], bad))
    return found


def negatives_loss(model, negs, rng, n, device):
    """Sequence-level unlikelihood (Welleck et al. 2019) on the model's own
    loops: fed its looping translation, the model is pushed away, by
    -log(1 - p), from each piece that carries the loop on. The plain
    token-level loss only sees reference prefixes, which never loop; these
    are the states the model is in when it does."""
    pick = [negs[rng.randrange(len(negs))] for _ in range(n)]
    src, src_len, tin, _ = on_device(data.collate([(s, h) for s, h, _ in pick], range(n),
                                                  model.cfg.bos_id, model.cfg.eos_id), device)
    logits = model(src, src_len, tin)
    rows = torch.tensor([b for b, (_, _, bad) in enumerate(pick) for _ in bad], device=device)
    cols = torch.tensor([t for _, _, bad in pick for t in bad], device=device)
    toks = torch.tensor([h[t] for _, h, bad in pick for t in bad], device=device)
    p = logits[rows, cols].softmax(-1).gather(1, toks.unsqueeze(1)).squeeze(1)
    return -torch.log((1 - p).clamp(min=1e-5)).mean()


def validate(model, val_pairs, val_refs, sp_tgt, args):
    model.eval()
    total_loss, total_tok, hyps = 0.0, 0, [None] * len(val_pairs)
    with torch.no_grad():
        for idx in data.token_batches(val_pairs, args.max_tokens, shuffle=False):
            src, src_len, tin, tout = on_device(data.collate(val_pairs, idx, model.cfg.bos_id, model.cfg.eos_id),
                                                args.device)
            with autocast(args):
                logits = model(src, src_len, tin)
                out = greedy_batch(model, src, src_len)
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), tout.reshape(-1),
                                   ignore_index=data.IGNORE, reduction='sum')
            total_loss += loss.item()
            total_tok += int((tout != data.IGNORE).sum())
            for i, ids in zip(idx, out):
                hyps[i] = sp_tgt.decode(ids)
    model.train()
    return total_loss / total_tok, bleu.bleu(hyps, val_refs), bleu.chrf(hyps, val_refs)


def autocast(args, training=False):
    """bfloat16 matrix products with --bf16: on a GPU everywhere, on the host
    in the training steps only (there the validation's greedy search stays
    in float32, so its figures compare with earlier ones); without --bf16
    nothing changes."""
    gpu = args.device.startswith('cuda')
    on = bool(getattr(args, 'bf16', False)) and (gpu or training)
    return torch.autocast('cuda' if gpu else 'cpu', dtype=torch.bfloat16, enabled=on)


def on_device(tensors, device):
    """A batch built on the host (data.collate), where the model is."""
    return tuple(t.to(device, non_blocking=True) for t in tensors)


def load_corpus(args, sp_src, sp_tgt):
    src, tgt = data.read_parallel(args.src_train, args.tgt_train)
    spm.set_random_generator_seed(args.seed)
    train = data.encode_pairs(sp_src, sp_tgt, src, tgt, src_sampling_alpha=args.src_sampling_alpha)
    vsrc, vtgt = data.read_parallel(args.src_val, args.tgt_val)
    # Validation keeps every line (no length filter) so BLEU is over the whole set.
    val = [(sp_src.encode(s) + [sp_src.eos_id()], sp_tgt.encode(t)) for s, t in zip(vsrc, vtgt)]
    return train, val, vtgt


def save_state(path, model, opt, state):
    tmp = path + '.tmp'
    saved = {'model': model.state_dict(), 'opt': opt.state_dict(), 'state': state,
             'cfg': dataclasses.asdict(model.cfg)}
    if getattr(model, 'ema', None):
        saved['ema'] = model.ema.averages
    torch.save(saved, tmp)
    os.replace(tmp, path)


class Smoothing:
    """An exponential moving average of a model's trainable weights (Marian's
    --exponential-smoothing): each step moves the average a (1 - decay) part
    of the way to the weights. The average of a run's recent weights usually
    translates better than its last weights, whose noise the average evens
    out. Starts from the weights as they are, or from a saved average."""

    def __init__(self, model, decay, saved=None):
        self.decay = decay
        named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
        self.params = [p for _, p in named]
        self.averages = {n: (saved[n] if saved is not None else p).detach().clone() for n, p in named}
        self.avg = list(self.averages.values())   # the same tensors, in the order of params

    @torch.no_grad()
    def update(self):
        torch._foreach_mul_(self.avg, self.decay)
        torch._foreach_add_(self.avg, self.params, alpha=1.0 - self.decay)

    @contextlib.contextmanager
    def swapped(self):
        """A context in which the model holds the averages (for export)."""
        kept = [p.detach().clone() for p in self.params]
        with torch.no_grad():
            for p, a in zip(self.params, self.avg):
                p.copy_(a)
        try:
            yield
        finally:
            with torch.no_grad():
                for p, k in zip(self.params, kept):
                    p.copy_(k)


def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    if args.device.startswith('cuda'):
        torch.backends.cuda.matmul.allow_tf32 = True   # training tolerates TF32's 10-bit mantissa
    os.makedirs(args.out, exist_ok=True)
    sp_src = spm.SentencePieceProcessor(model_file=args.spm_src)
    sp_tgt = spm.SentencePieceProcessor(model_file=args.spm_tgt)
    dims = {f.name: getattr(args, f.name) for f in dataclasses.fields(Config)
            if hasattr(args, f.name)}
    cfg = Config(src_vocab=sp_src.get_piece_size(), tgt_vocab=sp_tgt.get_piece_size(),
                 bos_id=sp_tgt.bos_id(), eos_id=sp_tgt.eos_id(), **dims)
    if args.family == 'ssru':
        model = new_ssru(args, sp_src, sp_tgt)
    elif args.init:
        if not args.init.endswith('.safetensors'):
            raise SystemExit(f'--init {args.init}: the GRU family starts from an export.py .safetensors file')
        init, _ = export.load(args.init)
        cfg = init.cfg
        model = NMT(cfg, dropout=args.dropout)
        model.load_state_dict(init.state_dict())
    else:
        model = NMT(cfg, dropout=args.dropout)
    model.to(args.device)
    model.fq = qat.FakeQuant(model, args.quant) if args.quant else None
    args.float_model = float_teacher(args.float_weights or args.init, args.device) if args.self_distill else None
    # fused: one kernel for every parameter's update (a GPU's; the host keeps its own)
    fused = {'fused': True} if args.device.startswith('cuda') else {}
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.98), **fused)
    state = {'step': 0, 'epoch': 0, 'batch': 0, 'best_bleu': -1.0, 'bad_valids': 0,
             'lr_scale': 1.0, 'elapsed': 0.0, 'history': []}
    last = os.path.join(args.out, 'last.pt')
    saved_ema = None
    if os.path.exists(last):
        ck = torch.load(last, map_location=args.device, weights_only=False)
        model.load_state_dict(ck['model'])
        opt.load_state_dict(ck['opt'])
        state = ck['state']
        saved_ema = ck.get('ema')
        print(f'resumed from {last} at step {state["step"]}', flush=True)
    model.ema = Smoothing(model, args.ema, saved_ema) if args.ema else None
    train, val, val_refs = load_corpus(args, sp_src, sp_tgt)
    if args.negatives:
        args.negs = load_negatives(args.negatives, sp_src, sp_tgt)
        print(f'{len(args.negs)} negatives from {args.negatives}'
              + ('' if args.negs else ': none to push down'), flush=True)
    n_params = sum(p.numel() for p in model.parameters())
    print(f'config {dataclasses.asdict(model.cfg)} params {n_params / 1e6:.2f}M '
          f'train pairs {len(train)} val {len(val)}', flush=True)
    run(model, opt, state, train, val, val_refs, sp_tgt, args, last)


def float_teacher(path, device):
    """The float weights at path, frozen, for --self-distill."""
    init, _ = export.load(path)
    teacher = NMT(init.cfg, dropout=0.0)
    teacher.load_state_dict(init.state_dict())
    teacher.to(device)
    teacher.eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher


def self_distill_loss(teacher, src, src_len, tin, tout, logits):
    """KL(float || quantized), summed over the pieces, averaged over the
    target positions that are not padding."""
    with torch.no_grad():
        target = F.log_softmax(teacher(src, src_len, tin), dim=-1)
    kl = F.kl_div(F.log_softmax(logits, dim=-1), target, log_target=True, reduction='none').sum(-1)
    real = (tout != data.IGNORE).float()
    return (kl * real).sum() / real.sum().clamp(min=1)


def new_ssru(args, sp_src, sp_tgt):
    if args.init and args.init.endswith('.pt'):   # a teacher carried from an earlier GPU run
        model = ssru.SSRU.from_torch(args.init, dropout=args.dropout)
    elif args.init:
        model = ssru.SSRU.from_npz(args.init, dropout=args.dropout, eos_id=sp_tgt.eos_id())
    else:
        cfg = ssru.Config(src_vocab=sp_src.get_piece_size(), tgt_vocab=sp_tgt.get_piece_size(), emb=args.emb,
                          heads=args.heads, ffn=args.ffn, dec_ffn=args.dec_ffn, enc_layers=args.enc_layers,
                          dec_layers=args.dec_layers, tied=args.tied, eos_id=sp_tgt.eos_id(),
                          pre_norm=args.pre_norm)
        model = ssru.SSRU(cfg, dropout=args.dropout)
    if model.cfg.src_vocab != sp_src.get_piece_size() or model.cfg.tgt_vocab != sp_tgt.get_piece_size():
        raise SystemExit(f'the model has {model.cfg.src_vocab}/{model.cfg.tgt_vocab} pieces, '
                         f'the vocabularies {sp_src.get_piece_size()}/{sp_tgt.get_piece_size()}')
    return model


def save_checkpoint(model, stem, args):
    """DIR/NAME.safetensors for the GRU family, DIR/NAME.npz (Marian's) for
    SSRU, DIR/NAME.pt (torch: weights and config) for a pre-norm teacher."""
    if isinstance(model, ssru.SSRU) and model.cfg.pre_norm:
        torch.save({'model': model.state_dict(), 'cfg': dataclasses.asdict(model.cfg)}, stem + '.pt')
    elif isinstance(model, ssru.SSRU):
        model.save_npz(stem + '.npz')
    else:
        export.save(model, stem + '.safetensors', dtype='F32', src_lang=args.src_lang, tgt_lang=args.tgt_lang)


def lr_at(args, state, elapsed):
    lr = args.lr * state['lr_scale'] * min(1.0, state['step'] / args.warmup)
    if args.decay_by_time:
        lr *= max(0.1, 1.0 - 0.9 * elapsed / (args.max_minutes * 60))
    return lr


def batch_vocabulary(tout, vocab, extra, seed):
    """The target pieces a batch is scored on: its own (tout's, less
    IGNORE) and `extra` more drawn uniformly (some push-down for pieces no
    batch nearby holds), sorted; and tout as positions in that list."""
    real = tout[tout != data.IGNORE]
    g = torch.Generator(device='cpu').manual_seed(seed)
    drawn = torch.randint(0, vocab, (extra,), generator=g).to(tout.device)
    rows = torch.unique(torch.cat([real, drawn]))
    mapped = torch.searchsorted(rows, tout.clamp(min=0))
    return rows, torch.where(tout == data.IGNORE, tout, mapped)


def run(model, opt, state, train, val, val_refs, sp_tgt, args, last):
    model.train()
    packed = data.Packed(train, args.device)
    t0 = time.time() - state['elapsed']
    tok_window, time_window = 0, time.time()
    stop = False
    while state['epoch'] < args.max_epochs and not stop:
        batches = data.token_batches(train, args.max_tokens, seed=args.seed + state['epoch'])
        while state['batch'] < len(batches):
            idx = batches[state['batch']]
            state['batch'] += 1
            state['step'] += 1
            # built where the model is, the same tensors as data.collate's
            src, src_len, tin, tout = packed.collate(idx, model.cfg.bos_id, model.cfg.eos_id)
            n_tokens = packed.shape(idx)[3]   # counted from the host's lengths: no wait for the device
            lr = lr_at(args, state, time.time() - t0)
            for g in opt.param_groups:
                g['lr'] = lr
            if model.fq:
                model.fq.quantize()
            rows = None
            if args.batch_vocab:
                rows, tout = batch_vocabulary(tout, model.cfg.tgt_vocab, args.batch_vocab,
                                              args.seed * 1000003 + state['step'])
            with autocast(args, training=True):
                logits = model(src, src_len, tin, rows) if rows is not None else model(src, src_len, tin)
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), tout.reshape(-1),
                                   ignore_index=data.IGNORE, label_smoothing=args.label_smoothing)
            if args.float_model is not None:
                w = args.self_distill
                loss = (1 - w) * loss + w * self_distill_loss(args.float_model, src, src_len, tin, tout, logits)
            if args.unlikelihood > 0:
                loss = loss + args.unlikelihood * unlikelihood(logits, tout)
            if args.negatives and args.negs:   # a model that did not loop has none
                neg_rng = random.Random(args.seed * 1000003 + state['step'])
                loss = loss + args.negatives_weight * negatives_loss(model, args.negs, neg_rng,
                                                                     args.negatives_batch, args.device)
            opt.zero_grad()
            loss.backward()
            if model.fq:
                model.fq.restore()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            if model.ema:
                model.ema.update()
            tok_window += n_tokens
            elapsed = time.time() - t0
            state['elapsed'] = elapsed
            if state['step'] % 50 == 0:
                rate = tok_window / (time.time() - time_window)
                done = (state['epoch'] + state['batch'] / len(batches)) / args.max_epochs
                eta = min(elapsed / max(done, 1e-9) - elapsed, args.max_minutes * 60 - elapsed)
                print(f'step {state["step"]} epoch {state["epoch"] + 1} batch {state["batch"]}/{len(batches)} '
                      f'loss {loss.item():.3f} lr {lr:.2e} {rate:.0f} tok/s '
                      f'elapsed {elapsed / 60:.1f}m ETA {max(eta, 0) / 60:.1f}m', flush=True)
                tok_window, time_window = 0, time.time()
            if state['step'] % args.valid_every == 0:
                stop = validation(model, opt, state, val, val_refs, sp_tgt, args, last)
            elif args.save_every and state['step'] % args.save_every == 0:
                save_state(last, model, opt, state)
            if elapsed > args.max_minutes * 60:
                print('time limit reached', flush=True)
                stop = True
            if stop:
                break
        if not stop:
            state['epoch'] += 1
            state['batch'] = 0
            save_state(last, model, opt, state)
    if state['step'] % args.valid_every != 0:
        validation(model, opt, state, val, val_refs, sp_tgt, args, last)
    print(f'done: best validation BLEU {state["best_bleu"]:.2f}', flush=True)


def validation(model, opt, state, val, val_refs, sp_tgt, args, last):
    """Validate, keep the best model, halve the LR on a plateau; True = stop."""
    if model.fq:
        # fresh scales, and validate the model as it will be packed
        model.fq.rescale()
        model.fq.quantize()
    vloss, vbleu, vchrf = validate(model, val, val_refs, sp_tgt, args)
    if model.fq:
        model.fq.restore()
    state['history'].append((state['step'], vloss, vbleu, vchrf))
    improved = vbleu > state['best_bleu']
    print(f'valid step {state["step"]} loss {vloss:.3f} ppl {math.exp(vloss):.2f} '
          f'BLEU {vbleu:.2f} chrF {vchrf:.2f}{" (best)" if improved else ""}', flush=True)
    if args.keep_checkpoints:
        stem = os.path.join(args.out, f'step-{state["step"]}')
        save_checkpoint(model, stem, args)
        if model.ema:
            with model.ema.swapped():
                save_checkpoint(model, stem + '-ema', args)
    if improved:
        state['best_bleu'] = vbleu
        save_checkpoint(model, os.path.join(args.out, 'best'), args)
    if plateau_improved(state, vloss, improved, args):
        state['bad_valids'] = 0
    else:
        state['bad_valids'] += 1
        state['lr_scale'] *= 0.5
    save_state(last, model, opt, state)
    return state['bad_valids'] >= args.patience


def plateau_improved(state, vloss, bleu_improved, args):
    """Whether this validation improved on --plateau's measure: for the
    loss, whether it is below every earlier validation's in the history
    (this one is its last entry)."""
    if args.plateau == 'bleu':
        return bleu_improved
    return vloss < min((h[1] for h in state['history'][:-1]), default=math.inf)


if __name__ == '__main__':
    main()
