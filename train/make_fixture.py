"""Make the parity fixture: a tiny randomly initialised model and what the
reference produces with it. The C tests compare the engine against these files.

    /usr/bin/python3 train/make_fixture.py tests/fixtures/tiny

Reads OUT/src.model and OUT/tgt.model (SentencePiece) and writes
  OUT/tiny.safetensors   the checkpoint model-pack packs
  OUT/bad_*.safetensors  checkpoints with a missing tensor / a wrong shape
  OUT/vmap_*.txt         vocabulary maps: the whole vocabulary, and a small one
  OUT/expected.txt       per sentence: text, source ids, teacher-forced logits
                         along the greedy path, greedy and beam-4 n-best results
Format of expected.txt (one record per line, fields separated by TAB):
  sent <i> <source text>
  src <i> <ids...>                  source ids including the final EOS
  logits <i> <step> <prev token> <V floats>   logits of step <step> (0-based) fed <prev token>
  hyp <i> <beam> <rank> <logprob> <score> <ids...>  n-best entry (ids without EOS),
                                    for beam 1, beam 4 (4-best) and beam 8 (8-best)
  text <i> <beam> <rank> <detokenized text>
"""
import sys

import sentencepiece as spm
import torch

from model import NMT, Config
from search import beam_search
import export

SENTENCES = [
    "A dog runs along the beach.",
    "Two young children are playing in the sand.",
    "A man in a blue shirt is riding a bicycle.",
    "Women sing.",
    "An old woman sits on a bench next to the river and reads a newspaper.",
    "x",
    "THE CAT!",
    "Three people are standing on a snowy hill.",
    "A girl with a red umbrella waits at the bus stop.",
    "Two dogs play with a ball in the park.",
    "The old man is fishing from a small boat.",
    "A woman in a green dress dances on the stage.",
    "Children are running through the water fountain.",
    "A man is cooking food on a grill outside.",
    "Several workers repair the road in the rain.",
]
LOGIT_SENTENCES = 3   # sentences whose logits are recorded
LOGIT_STEPS = 8       # steps recorded per such sentence
ALPHA = 0.6


def main(out):
    torch.manual_seed(1234)
    sp_src = spm.SentencePieceProcessor(model_file=f'{out}/src.model')
    sp_tgt = spm.SentencePieceProcessor(model_file=f'{out}/tgt.model')
    cfg = Config(src_vocab=sp_src.get_piece_size(), tgt_vocab=sp_tgt.get_piece_size(),
                 emb=16, enc_hidden=12, enc_layers=2, dec_hidden=20, att=10, fc=24,
                 fc_layers=2, bos_id=sp_tgt.bos_id(), eos_id=sp_tgt.eos_id())
    model = NMT(cfg)
    with torch.no_grad():
        # PyTorch's default init gives near-uniform, input-blind outputs at this
        # size; larger weights make the outputs depend on the source, and an EOS
        # bias lets some hypotheses end before max length.
        for name, p in model.named_parameters():
            if 'emb' not in name:
                p.mul_(4.0)
        model.out_bias.normal_(0, 0.5)
        model.out_bias[cfg.eos_id] = 2.0
    model.eval()
    export.save(model, f'{out}/tiny.safetensors')
    write_broken_checkpoints(model, out)
    write_vmaps(cfg, sp_src, out)
    model, _ = export.load(f'{out}/tiny.safetensors')  # exactly what was written
    model.eval()

    lines = []
    for i, text in enumerate(SENTENCES):
        src_ids = sp_src.encode(text) + [sp_src.eos_id()]
        lines.append(f'sent\t{i}\t{text}')
        lines.append(f'src\t{i}\t' + ' '.join(map(str, src_ids)))
        greedy = beam_search(model, src_ids, beam=1, alpha=ALPHA)[0][0]
        if i < LOGIT_SENTENCES:
            lines += logit_lines(model, i, src_ids, greedy)
        for beam, nbest in ((1, 1), (4, 4), (8, 8)):
            for rank, (ids, logp, score) in enumerate(
                    beam_search(model, src_ids, beam=beam, alpha=ALPHA, nbest=nbest)):
                lines.append(f'hyp\t{i}\t{beam}\t{rank}\t{logp:.9g}\t{score:.9g}\t'
                             + ' '.join(map(str, ids)))
                lines.append(f'text\t{i}\t{beam}\t{rank}\t{sp_tgt.decode(ids)}')
    with open(f'{out}/expected.txt', 'w') as f:
        f.write('\n'.join(lines) + '\n')


def write_vmaps(cfg, sp_src, out):
    """Two vocabulary maps in train/vmap.py's text form: one whose 0-grams are
    the whole target vocabulary (a shortlist that must change nothing), and a
    small one (20 0-grams; each source unigram and bigram of the fixture
    sentences maps to 5 targets chosen by arithmetic on its ids)."""
    header = '# nmt vmap 1: fixture\n'
    with open(f'{out}/vmap_full.txt', 'w') as f:
        f.write(header + '\t' + ' '.join(map(str, range(cfg.tgt_vocab))) + '\n')
    grams = set()
    for text in SENTENCES:
        ids = sp_src.encode(text)
        grams.update((i,) for i in ids)
        grams.update(zip(ids, ids[1:]))
    with open(f'{out}/vmap_small.txt', 'w') as f:
        f.write(header + '\t' + ' '.join(str(3 + 7 * k) for k in range(20)) + '\n')
        for g in sorted(grams):
            targets = sorted({(sum(g) * 31 + 17 * k) % cfg.tgt_vocab for k in range(5)})
            f.write(' '.join(map(str, g)) + '\t' + ' '.join(map(str, targets)) + '\n')


def write_broken_checkpoints(model, out):
    """Checkpoints model-pack must refuse: a missing tensor, a wrong shape."""
    full = model.state_dict()

    class Fake:   # export.save needs .cfg and .state_dict()
        def __init__(self, state):
            self.cfg, self._state = model.cfg, state

        def state_dict(self):
            return self._state

    missing = {k: v for k, v in full.items() if k != 'fc.bias'}
    export.save(Fake(missing), f'{out}/bad_missing.safetensors')
    wrong = dict(full)
    wrong['top.weight'] = full['top.weight'][:, :-1]
    export.save(Fake(wrong), f'{out}/bad_shape.safetensors')


@torch.no_grad()
def logit_lines(model, i, src_ids, path):
    src = torch.tensor([src_ids])
    states, keys, mask, h = model.encode(src, torch.tensor([len(src_ids)]))
    prev = model.cfg.bos_id
    out = []
    for step in range(min(LOGIT_STEPS, len(path) + 1)):
        logits, h = model.step(torch.tensor([prev]), h, states, keys, mask)
        out.append(f'logits\t{i}\t{step}\t{prev}\t'
                   + ' '.join(f'{v:.9g}' for v in logits[0].tolist()))
        if step < len(path):
            prev = path[step]
    return out


if __name__ == '__main__':
    main(sys.argv[1])
