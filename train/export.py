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


def save(model: NMT, path, dtype='F32', src_lang='en', tgt_lang='de'):
    meta = {k: str(v) for k, v in dataclasses.asdict(model.cfg).items()}
    meta.update(src_lang=src_lang, tgt_lang=tgt_lang, format='nmt-checkpoint-1')
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
    # Re-export a checkpoint in another dtype:  export.py IN OUT [F16|F32]
    import sys
    model_in, meta_in = load(sys.argv[1])
    save(model_in, sys.argv[2], dtype=sys.argv[3] if len(sys.argv) > 3 else 'F16',
         src_lang=meta_in.get('src_lang', 'und'), tgt_lang=meta_in.get('tgt_lang', 'und'))
