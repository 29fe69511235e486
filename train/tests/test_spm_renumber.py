"""train/spm_renumber.py: pieces renumbered by frequency, segmentation unchanged.

    make test-train    (needs python3-sentencepiece)
"""
import collections
import os
import sys

import pytest

spm = pytest.importorskip('sentencepiece')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'train'))
import spm_renumber  # noqa: E402
from conftest import GERMAN  # noqa: E402

OTHER_TEXT = ['Eine Frau sitzt im Café oder auf der Treppe.', 'Hochebene, Tal und Büsche!']


@pytest.fixture(scope='module')
def renumbered(german_bpe, german_text, tmp_path_factory):
    out = tmp_path_factory.mktemp('renumbered') / 'r.model'
    sys.argv = ['spm_renumber.py', german_bpe, german_text, str(out)]
    spm_renumber.main()
    return spm.SentencePieceProcessor(model_file=german_bpe), spm.SentencePieceProcessor(model_file=str(out))


def test_segmentation_is_unchanged(renumbered):
    before, after = renumbered
    for line in GERMAN[:4] + OTHER_TEXT:
        assert after.encode(line, out_type=str) == before.encode(line, out_type=str)
        assert after.decode(after.encode(line)) == before.decode(before.encode(line))


def test_pieces_are_numbered_by_their_counts(renumbered):
    before, after = renumbered
    assert {before.id_to_piece(i) for i in range(before.get_piece_size())} == \
        {after.id_to_piece(i) for i in range(after.get_piece_size())}
    counts = collections.Counter(i for ids in after.encode(GERMAN) for i in ids)
    normal = [i for i in range(after.get_piece_size()) if not after.is_control(i) and not after.is_unknown(i)]
    assert [counts[i] for i in normal] == sorted((counts[i] for i in normal), reverse=True)
    assert after.id_to_piece(normal[0]) != before.id_to_piece(normal[0])


def test_control_and_unknown_pieces_keep_their_ids(renumbered):
    before, after = renumbered
    for i in (before.unk_id(), before.bos_id(), before.eos_id()):
        assert after.id_to_piece(i) == before.id_to_piece(i)
    assert (after.unk_id(), after.bos_id(), after.eos_id()) == (before.unk_id(), before.bos_id(), before.eos_id())
