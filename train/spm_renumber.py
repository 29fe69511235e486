"""Renumber a SentencePiece model's pieces by how often they occur in a text,
the most frequent first, without changing how it segments.

    /usr/bin/python3 train/spm_renumber.py IN.model TEXT OUT.model

The engine takes low ids to be the frequent ones: it precomputes table rows
for the first K target ids (docs/DESIGN.md §4). A unigram model is numbered by
score, which follows frequency; a BPE model is numbered by merge, with every
single character at the end, so '.' and ',' get ids near 8000. Both kinds
segment by the pieces' scores, never by their ids, so moving the pieces
changes only their numbers. Control and unknown pieces keep their places
(their ids are in the trainer spec). The model file is rewritten as raw
protobuf (field 1 of ModelProto is the repeated piece), since Debian's
sentencepiece package comes without the protobuf bindings.
"""
import collections
import sys

import sentencepiece as spm

PIECES_FIELD = 1
PIECE_TYPE_FIELD = 3
NORMAL = 1


def varint(data, pos):
    value, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7f) << shift
        shift += 7
        if b < 0x80:
            return value, pos


def fields(data):
    """(field number, raw bytes of the whole field) for each top-level field."""
    pos = 0
    while pos < len(data):
        start = pos
        key, pos = varint(data, pos)
        wire = key & 7
        if wire == 0:
            _, pos = varint(data, pos)
        elif wire == 1:
            pos += 8
        elif wire == 2:
            n, pos = varint(data, pos)
            pos += n
        elif wire == 5:
            pos += 4
        else:
            raise SystemExit(f'unexpected protobuf wire type {wire}')
        yield key >> 3, data[start:pos]


def payload(field):
    """The bytes inside a length-delimited field."""
    _, pos = varint(field, 0)
    n, pos = varint(field, pos)
    return field[pos:pos + n]


def piece_type(piece_field):
    for number, raw in fields(payload(piece_field)):
        if number == PIECE_TYPE_FIELD:
            return varint(raw, 1)[0]
    return NORMAL


def renumber(model_bytes, counts):
    """model_bytes with its normal pieces reordered by counts[id], highest
    first (ties keep their order); the other pieces stay where they are."""
    pieces, rest = [], []
    for number, raw in fields(model_bytes):
        (pieces if number == PIECES_FIELD else rest).append(raw)
    movable = [i for i, p in enumerate(pieces) if piece_type(p) == NORMAL]
    order = sorted(movable, key=lambda i: (-counts[i], i))
    new = list(pieces)
    for slot, i in zip(movable, order):
        new[slot] = pieces[i]
    return b''.join(new) + b''.join(rest)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    in_path, text_path, out_path = sys.argv[1:]
    sp = spm.SentencePieceProcessor(model_file=in_path)
    with open(text_path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    counts = collections.Counter(i for ids in sp.encode(lines) for i in ids)
    with open(in_path, 'rb') as f:
        data = f.read()
    with open(out_path, 'wb') as f:
        f.write(renumber(data, counts))
    print(f'{out_path}: {sp.get_piece_size()} pieces renumbered by their counts in {len(lines)} lines')


if __name__ == '__main__':
    main()
