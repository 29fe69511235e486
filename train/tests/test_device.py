"""train/train.py --device: both families compute the same on a GPU as on
the host (within TF32's rounding), and greedy decoding, which reads the
pieces back each step, gives the same pieces. Skipped where torch sees no
GPU, which is everywhere but a lent GPU machine.

    make test-train    (needs Debian's python3-torch and python3-sentencepiece)
"""
import copy
import os
import sys

import pytest

torch = pytest.importorskip('torch')
pytest.importorskip('sentencepiece')
if not torch.cuda.is_available():
    pytest.skip('no GPU', allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import data  # noqa: E402
import ssru  # noqa: E402
import train  # noqa: E402
from model import NMT, Config  # noqa: E402


def batch():
    pairs = [([5, 9, 12, 7, 2], [4, 8, 11]), ([6, 3, 2], [9, 10, 12, 5])]
    return data.collate(pairs, range(2), bos=1, eos=2)


def models():
    torch.manual_seed(1)
    gru = NMT(Config(src_vocab=40, tgt_vocab=30, emb=8, enc_hidden=4, dec_hidden=6, att=4, fc=8, fc_layers=1))
    tiny = ssru.Config(src_vocab=40, tgt_vocab=30, emb=8, heads=2, ffn=16, enc_layers=2, dec_layers=2, tied='tgt',
                       eos_id=2)
    return [gru, ssru.SSRU(tiny, dropout=0.0)]


@pytest.mark.parametrize('index', [0, 1])
def test_the_gpu_computes_what_the_host_does(index):
    host = models()[index].eval()
    gpu = copy.deepcopy(host).to('cuda')
    src, src_len, tin, tout = batch()
    on_host = host(src, src_len, tin)
    on_gpu = gpu(*train.on_device((src, src_len, tin), 'cuda'))
    assert on_gpu.device.type == 'cuda'
    assert torch.allclose(on_gpu.cpu(), on_host, atol=1e-4)
    assert train.greedy_batch(gpu, *train.on_device((src, src_len), 'cuda')) == \
        train.greedy_batch(host, src, src_len)
