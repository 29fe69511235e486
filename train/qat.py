"""Quantization-aware fine-tuning (Aji & Heafield; Marian 2019 §6): the
forward and backward passes see the weights as the engine will (every weight
matrix rounded to its q8/q4 codes, train/logquant.py, the same quantizer as
model-pack), and the gradient updates the float weights underneath as if the
rounding were the identity (the straight-through estimator).

Usage inside the training loop:
    fq.quantize()   # before the forward pass: matrices -> quantized values
    ...loss.backward()
    fq.restore()    # before the optimizer step: back to the float weights
The float weights are what gets exported; model-pack quantizes them again.
"""
import logquant


class FakeQuant:
    def __init__(self, model, fmt):
        self.fmt = fmt
        self.params = [(n, p) for n, p in model.named_parameters() if p.dim() == 2]
        self.scales = {}
        self.saved = {}

    def rescale(self):
        """Per-row scales by the full search (slow: once in a while)."""
        for name, p in self.params:
            self.scales[name] = logquant.torch_scales(p.data, self.fmt)

    def quantize(self):
        if not self.scales:
            self.rescale()
        for name, p in self.params:
            self.saved[name] = p.data
            p.data = logquant.torch_fake_quantize(p.data, self.fmt, self.scales[name])

    def restore(self):
        for name, p in self.params:
            p.data = self.saved.pop(name)
