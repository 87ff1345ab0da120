"""Chinese move notation (format_zh): hand-checked cases, tandem pieces of
both sides, and a round trip through tools/book/zh.py's parser over random
games."""
from __future__ import annotations

import random

import pytest

from reference_py.board import PAWN, file_of
from reference_py.fen import START_FEN, parse_fen
from reference_py.notation import format_zh, kind_at, parse_iccs
from tools.book.zh import parse_zh


def play(pos, *iccs: str):
    for t in iccs:
        pos.make(parse_iccs(pos, t))
    return pos


def zh(pos, iccs: str) -> str:
    return format_zh(pos, parse_iccs(pos, iccs))


@pytest.mark.parametrize("iccs,text", [
    ("h2e2", "炮二平五"), ("b2e2", "炮八平五"), ("h0g2", "马二进三"), ("b0c2", "马八进七"),
    ("i0i1", "车一进一"), ("a0a2", "车九进二"), ("g3g4", "兵三进一"), ("c3c4", "兵七进一"),
    ("g0e2", "相三进五"), ("c0e2", "相七进五"), ("f0e1", "仕四进五"), ("d0e1", "仕六进五"),
    ("e0e1", "帅五进一"), ("h2h9", "炮二进七"), ("b2b6", "炮八进四"),
])
def test_red_openings(iccs, text):
    assert zh(parse_fen(START_FEN), iccs) == text


@pytest.mark.parametrize("iccs,text", [
    ("b7e7", "炮２平５"), ("h7e7", "炮８平５"), ("b9c7", "马２进３"), ("h9g7", "马８进７"),
    ("c6c5", "卒３进１"), ("a9a8", "车１进１"), ("i9i7", "车９进２"), ("c9e7", "象３进５"),
    ("d9e8", "士４进５"), ("e9e8", "将５进１"), ("h7h3", "炮８进４"), ("b7b0", "炮２进７"),
])
def test_black_replies(iccs, text):
    assert zh(play(parse_fen(START_FEN), "h2e2"), iccs) == text


def test_backward_moves():
    pos = play(parse_fen(START_FEN), "h2h6", "a6a5")
    assert zh(pos, "h6h3") == "炮二退三"
    pos = parse_fen("3k5/9/9/9/4N4/9/9/9/9/5K3 w - - 0 1")
    assert zh(pos, "e5d3") == "马五退六"
    pos = parse_fen("3k5/9/9/9/4n4/9/9/9/9/5K3 b - - 0 1")
    assert zh(pos, "e5d7") == "马５退４"
    assert zh(pos, "e5c4") == "马５进３"


def test_tandem_red():
    # two red rooks on file e: e5 in front, e1 behind
    pos = parse_fen("3k5/9/9/9/4R4/9/9/9/4R4/5K3 w - - 0 1")
    assert zh(pos, "e5e7") == "前车进二"
    assert zh(pos, "e5a5") == "前车平九"
    assert zh(pos, "e1e0") == "后车退一"
    assert zh(pos, "e1e3") == "后车进二"
    # two red horses on file c
    pos = parse_fen("3k5/9/9/9/9/2N6/9/2N6/9/5K3 w - - 0 1")
    assert zh(pos, "c4d6") == "前马进六"
    assert zh(pos, "c2b0") == "后马退八"


def test_tandem_black():
    # Black's front piece is the one nearer Red (the lower rank)
    pos = parse_fen("3k5/9/2c6/9/2c6/9/9/9/9/5K3 b - - 0 1")
    assert zh(pos, "c5c1") == "前炮进４"
    assert zh(pos, "c7c9") == "后炮退２"
    assert zh(pos, "c7f7") == "后炮平６"


def test_three_pawns_on_a_file():
    pos = parse_fen("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1")
    assert zh(pos, "e7e8") == "前兵进一"
    assert zh(pos, "e6d6") == "中兵平六"
    assert zh(pos, "e5f5") == "后兵平四"
    pos = parse_fen("3k5/9/9/9/9/4p4/4p4/4p4/9/5K3 b - - 0 1")
    assert zh(pos, "e2e1") == "前卒进１"
    assert zh(pos, "e3d3") == "中卒平４"
    assert zh(pos, "e4f4") == "后卒平６"


def _outside_parser(pos, move) -> bool:
    """Moves whose text tools/book/zh.py does not read back: 中 (its WXF
    names the middle pawn by its file), and pawns while two files each hold
    two or more (WXF's pawn-file form)."""
    piece = kind_at(pos, move & 0xFF)
    if piece[1] != PAWN:
        return False
    per_file = [0] * 9
    for sq in range(len(pos.board)):
        if kind_at(pos, sq) == piece:
            per_file[file_of(sq)] += 1
    return per_file[file_of(move & 0xFF)] > 2 or sum(n > 1 for n in per_file) > 1


@pytest.mark.parametrize("seed", range(6))
def test_round_trip_random_games(seed):
    rng = random.Random(seed)
    pos = parse_fen(START_FEN)
    checked = 0
    for _ply in range(120):
        moves = pos.legal_moves()
        if not moves:
            break
        for m in moves:
            if _outside_parser(pos, m):
                continue
            text = format_zh(pos, m)
            assert len(text) == 4
            assert parse_zh(pos, text) == m, text
            checked += 1
        pos.make(rng.choice(moves))
    assert checked > 1000
