"""Quantization-aware fine-tuning (Aji & Heafield; Marian 2019 §6): the
forward and backward passes see the weights as the engine will (every weight
matrix rounded to its q8/q4/q4n/i8 codes, train/logquant.py, the same
quantizer as model-pack; with q4n+i8, the embeddings to q4n's and the rest to
i8's), and the gradient updates the float weights underneath as if the
rounding were the identity (the straight-through estimator).

Usage inside the training loop:
    fq.quantize()   # before the forward pass: matrices -> quantized values
    ...loss.backward()
    fq.restore()    # before the optimizer step: back to the float weights
The float weights are what gets exported; model-pack quantizes them again.
A matrix that model-pack cuts into column blocks, each with its own row
scales (the GRU decoder's input weights: the embedding's columns and the
context's), is quantized here block by block too.
"""
import torch

import logquant


def column_blocks(model):
    """{parameter name: the column where model-pack starts a new matrix}."""
    cfg = getattr(model, 'cfg', None)
    names = dict(model.named_parameters())
    if cfg is not None and hasattr(cfg, 'emb') and 'dec.weight_ih' in names:
        return {'dec.weight_ih': cfg.emb}
    return {}


class FakeQuant:
    def __init__(self, model, fmt):
        self.fmt = fmt
        self.params = [(n, p) for n, p in model.named_parameters() if p.dim() == 2]
        self.split = column_blocks(model)
        self.scales = {}
        self.saved = {}

    def blocks(self, name, w):
        at = self.split.get(name)
        return [w] if at is None else [w[:, :at], w[:, at:]]

    def format_of(self, name):
        """model-pack's format for the parameter (--quant EMB+F: the embeddings' EMB)."""
        return logquant.matrix_format(name, self.fmt)

    def rescale(self):
        """Per-row scales by the full search (slow: once in a while)."""
        for name, p in self.params:
            self.scales[name] = [logquant.torch_scales(b.contiguous(), self.format_of(name))
                                 for b in self.blocks(name, p.data)]

    def quantize(self):
        if not self.scales:
            self.rescale()
        for name, p in self.params:
            self.saved[name] = p.data
            q = [logquant.torch_fake_quantize(b, self.format_of(name), s)
                 for b, s in zip(self.blocks(name, p.data), self.scales[name])]
            p.data = q[0] if len(q) == 1 else torch.cat(q, 1)

    def restore(self):
        for name, p in self.params:
            p.data = self.saved.pop(name)
