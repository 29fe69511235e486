"""Fixtures shared by the trainer's tests."""
import os
import sys

import pytest

# the modules under test (train/*.py) import each other by their plain names
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GERMAN = [
    'Ein Mann mit einem orangefarbenen Hut starrt auf etwas.',
    'Ein Bauer sät Samen auf der Hochebene oder im Tal.',
    'Zwei junge Männer stehen draußen neben vielen Büschen.',
    'Ein Schild über der Tür eines Ladens oder Cafés.',
] * 50


@pytest.fixture(scope='session')
def german_text(tmp_path_factory):
    path = tmp_path_factory.mktemp('text') / 'de.txt'
    path.write_text('\n'.join(GERMAN) + '\n')
    return str(path)


@pytest.fixture(scope='session')
def german_bpe(tmp_path_factory, german_text):
    """A small BPE SentencePiece model of GERMAN; its path."""
    spm = pytest.importorskip('sentencepiece')
    prefix = tmp_path_factory.mktemp('spm') / 'bpe'
    spm.SentencePieceTrainer.train(input=german_text, model_prefix=str(prefix), vocab_size=120,
                                   model_type='bpe', character_coverage=1.0, minloglevel=2)
    return f'{prefix}.model'
