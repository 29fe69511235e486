"""The trainer's data path: SentencePiece encoding of the training pairs.

    make test-train    (needs Debian's python3-torch and python3-sentencepiece)
"""
import os
import sys

import pytest

spm = pytest.importorskip('sentencepiece')
pytest.importorskip('torch')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import data  # noqa: E402

SOURCES = [
    'a man in an orange hat starring at something .',
    'a farmer is sowing seeds on the high plateaus .',
    'two young , white males are outside near many bushes .',
    'a sign reads " el corazon " above the door of a shop .',
] * 8
TARGETS = ['ein mann .'] * len(SOURCES)


@pytest.fixture(scope='module')
def models():
    # the caption model's vocabularies: lowercased caption text, as SOURCES
    load = lambda name: spm.SentencePieceProcessor(model_file=os.path.join(ROOT, 'models', 'captions', name))
    return load('ende.en.model'), load('ende.de.model')


def encode(models, alpha, seed=1):
    spm.set_random_generator_seed(seed)
    return data.encode_pairs(models[0], models[1], SOURCES, TARGETS, src_sampling_alpha=alpha)


def test_without_sampling_sources_take_the_best_segmentation(models):
    sp_src = models[0]
    pairs = encode(models, 0.0)
    assert [s for s, _ in pairs] == [ids + [sp_src.eos_id()] for ids in sp_src.encode(SOURCES)]


def test_sampled_sources_spell_the_same_text_in_other_pieces(models):
    sp_src = models[0]
    best = encode(models, 0.0)
    sampled = encode(models, 0.5)
    assert len(sampled) == len(best)
    for (s, t), (b, bt) in zip(sampled, best):
        assert s[-1] == sp_src.eos_id()
        assert sp_src.decode(s[:-1]) == sp_src.decode(b[:-1])
        assert t == bt, 'targets are never sampled'
    changed = sum(s != b for (s, _), (b, _) in zip(sampled, best))
    assert changed >= len(SOURCES) // 4   # 12 of 32 at alpha 0.5, seed 1
    # sampling splits words the best segmentation keeps whole, more often than it merges
    assert sum(len(s) for s, _ in sampled) > sum(len(b) for b, _ in best)


def test_sampling_repeats_with_the_same_seed_and_differs_with_another(models):
    assert encode(models, 0.5, seed=7) == encode(models, 0.5, seed=7)
    assert encode(models, 0.5, seed=7) != encode(models, 0.5, seed=8)
