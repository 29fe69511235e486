"""Write and read the checkpoint format model-pack consumes: safetensors.

safetensors = u64 little-endian header length N, N bytes of JSON mapping each
tensor name to {"dtype", "shape", "data_offsets"}, then the raw little-endian
tensor bytes. "__metadata__" (string -> string) carries the model Config, one
key per field, plus the language pair. Written by hand: Debian has no
safetensors package, and the format is simple enough not to need one.
"""
import dataclasses
import json
import struct

import numpy as np
import torch

from model import NMT, Config

_DTYPES = {'F32': np.float32, 'F16': np.float16}


def save(model: NMT, path, dtype='F32', src_lang='en', tgt_lang='de', alpha=None):
    """alpha: the beam search's length normalization chosen for these
    weights (model-pack records it in the packed file), None for none."""
    meta = {k: str(v) for k, v in dataclasses.asdict(model.cfg).items()}
    meta.update(src_lang=src_lang, tgt_lang=tgt_lang, format='nmt-checkpoint-1')
    if alpha is not None:
        meta['alpha'] = str(alpha)
    header = {'__metadata__': meta}
    blobs, offset = [], 0
    for name, tensor in model.state_dict().items():
        data = tensor.detach().cpu().numpy().astype(_DTYPES[dtype]).tobytes()
        header[name] = {'dtype': dtype, 'shape': list(tensor.shape),
                        'data_offsets': [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    head = json.dumps(header, separators=(',', ':')).encode()
    head += b' ' * (-len(head) % 8)  # keep the data 8-byte aligned, as safetensors does
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(head)))
        f.write(head)
        for b in blobs:
            f.write(b)


def load(path):
    """Inverse of save(): returns (NMT model in float32, metadata dict)."""
    with open(path, 'rb') as f:
        (n,) = struct.unpack('<Q', f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    meta = header.pop('__metadata__')
    fields = {f.name: f.type for f in dataclasses.fields(Config)}
    cfg = Config(**{k: int(meta[k]) for k in fields if k in meta})
    model = NMT(cfg)
    state = {}
    for name, info in header.items():
        b, e = info['data_offsets']
        arr = np.frombuffer(data[b:e], dtype=_DTYPES[info['dtype']]).reshape(info['shape'])
        state[name] = torch.from_numpy(arr.astype(np.float32))
    model.load_state_dict(state)
    return model, meta


if __name__ == '__main__':
    # Re-export a checkpoint in another dtype, its alpha kept or set:
    #   export.py IN OUT [F16|F32] [--alpha A]
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument('model_in')
    ap.add_argument('model_out')
    ap.add_argument('dtype', nargs='?', default='F16', choices=sorted(_DTYPES))
    ap.add_argument('--alpha', type=float, help="the search's length normalization, 0..10")
    args = ap.parse_args()
    if args.alpha is not None and not 0 <= args.alpha <= 10:
        ap.error('--alpha must be in 0..10')
    model_in, meta_in = load(args.model_in)
    save(model_in, args.model_out, dtype=args.dtype,
         src_lang=meta_in.get('src_lang', 'und'), tgt_lang=meta_in.get('tgt_lang', 'und'),
         alpha=args.alpha if args.alpha is not None else meta_in.get('alpha'))
