"""ICCS and WXF notation: parse errors, WXF output, tandem pieces, round trips."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from reference_py.board import move_iccs
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.notation import (
    NotationError, format_wxf, iccs_to_uci, kind_at, parse_iccs, parse_move,
)

try:
    import pyffish as sf
except ImportError:        # pragma: no cover
    sf = None


def start():
    return parse_fen(START_FEN)


def play(pos, *iccs: str):
    for t in iccs:
        pos.make(parse_iccs(pos, t))
    return pos


def notation_error(pos, text: str) -> str:
    with pytest.raises(NotationError) as exc:
        parse_move(pos, text)
    return str(exc.value)


# ---- ICCS ------------------------------------------------------------------

@pytest.mark.parametrize("text", ["h2e2", "H2E2", " h2e2 ", "h2-e2", "h2 e2"])
def test_iccs_accepted_spellings(text):
    assert move_iccs(parse_iccs(start(), text)) == "h2e2"


@pytest.mark.parametrize("text", ["", "h2", "h2e", "h2e2e2", "j2e2", "h2e10", "hh22", "2h2e", "h2xe2"])
def test_iccs_malformed(text):
    msg = notation_error(start(), text)
    assert "is not a move" in msg and "ICCS" in msg
    with pytest.raises(NotationError, match="is not a move"):
        parse_iccs(start(), text)


@pytest.mark.parametrize("fen,text,words", [
    (START_FEN, "e5e6", ["no piece on e5"]),
    (START_FEN, "h7e7", ["h7", "Black's", "Red to move"]),
    (START_FEN.replace(" w ", " b "), "h2e2", ["h2", "Red's", "Black to move"]),
    (START_FEN, "h2i3", ["cannon cannot move from h2 to i3"]),
    (START_FEN, "b0d1", ["horse cannot move from b0 to d1"]),
    (START_FEN, "c0e3", ["elephant cannot move from c0 to e3"]),
    (START_FEN, "a3a5", ["pawn cannot move from a3 to a5"]),
    (START_FEN, "a3b3", ["pawn cannot move from a3 to b3"]),          # sideways before the river
    (START_FEN, "e0e2", ["king cannot move from e0 to e2"]),
    (START_FEN, "a0a3", ["rook cannot move from a0 to a3"]),          # own piece
    (START_FEN, "b2b7", ["cannon cannot move from b2 to b7"]),        # capture without a screen
    # pinned rook: it shields its king from the black rook
    ("3k5/9/9/4r4/9/9/9/9/4R4/4K4 w - - 0 1", "e1d1", ["illegal", "king in check"]),
    # the advisor is the only piece between the kings
    ("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e1d0", ["illegal", "facing the other king"]),
    # the king may not step onto the open file of the other king
    ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0", ["illegal"]),
    # in check: a move that does not answer it
    ("3k5/9/9/9/9/9/9/9/9/R3K1r2 w - - 0 1", "a0a1", ["illegal", "king in check"]),
    ("3k5/9/9/9/9/9/9/9/9/R3K1r2 w - - 0 1", "e0f0", ["illegal"]),
])
def test_iccs_illegal_moves_explained(fen, text, words):
    msg = notation_error(parse_fen(fen), text)
    assert msg.startswith(text)
    for w in words:
        assert w in msg, (w, msg)


def test_iccs_legal_counterparts_accepted():
    assert move_iccs(parse_iccs(parse_fen("3k5/9/9/4r4/9/9/9/9/4R4/4K4 w - - 0 1"), "e1e6")) == "e1e6"
    assert move_iccs(parse_iccs(parse_fen("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1"), "d0e0")) == "d0e0"
    assert move_iccs(parse_iccs(parse_fen("3k5/9/9/9/9/9/9/9/9/R3K1r2 w - - 0 1"), "e0e1")) == "e0e1"
    assert move_iccs(parse_iccs(start(), "b2b9")) == "b2b9"         # cannon capture over a screen


# ---- WXF output --------------------------------------------------------------

@pytest.mark.parametrize("iccs,wxf", [
    ("h2e2", "C2=5"), ("b2e2", "C8=5"), ("h0g2", "H2+3"), ("b0c2", "H8+7"), ("i0i1", "R1+1"),
    ("a0a2", "R9+2"), ("g3g4", "P3+1"), ("c3c4", "P7+1"), ("g0e2", "E3+5"), ("c0e2", "E7+5"),
    ("f0e1", "A4+5"), ("d0e1", "A6+5"), ("e0e1", "K5+1"), ("h2h9", "C2+7"), ("b2b6", "C8+4"),
])
def test_wxf_red_openings(iccs, wxf):
    pos = start()
    assert format_wxf(pos, parse_iccs(pos, iccs)) == wxf


# Black numbers the files from its own right, which is file a: b -> 2, h -> 8
# (the classic reply to C2=5 is H8+7 = h9g7).
@pytest.mark.parametrize("iccs,wxf", [
    ("b7e7", "C2=5"), ("h7e7", "C8=5"), ("b9c7", "H2+3"), ("h9g7", "H8+7"), ("c6c5", "P3+1"),
    ("g6g5", "P7+1"), ("a9a8", "R1+1"), ("i9i7", "R9+2"), ("c9e7", "E3+5"), ("d9e8", "A4+5"),
    ("e9e8", "K5+1"), ("h7h3", "C8+4"), ("b7b0", "C2+7"),
])
def test_wxf_black_replies(iccs, wxf):
    pos = play(start(), "h2e2")
    assert format_wxf(pos, parse_iccs(pos, iccs)) == wxf


@pytest.mark.skipif(sf is None, reason="pyffish not installed")
def test_wxf_black_file_numbering_matches_fairy_stockfish():
    fen = format_fen(play(start(), "h2e2"))
    pos = parse_fen(fen)
    for iccs in ("b7e7", "h7e7", "b9c7", "h9g7", "c6c5", "g6g5", "c9e7", "d9e8", "e9e8"):
        theirs = sf.get_san("xiangqi", fen, iccs_to_uci(iccs), False, sf.NOTATION_XIANGQI_WXF)
        assert format_wxf(pos, parse_iccs(pos, iccs)) == theirs


def test_wxf_backward_moves():
    pos = play(start(), "h2h6", "a6a5")                     # red cannon on h6
    assert format_wxf(pos, parse_iccs(pos, "h6h3")) == "C2-3"
    pos = parse_fen("3k5/9/9/9/4N4/9/9/9/9/5K3 w - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "e5d3")) == "H5-6"
    assert format_wxf(pos, parse_iccs(pos, "e5g4")) == "H5-3"
    pos = parse_fen("3k5/9/9/9/4n4/9/9/9/9/5K3 b - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "e5d7")) == "H5-4"
    assert format_wxf(pos, parse_iccs(pos, "e5c4")) == "H5+3"
    pos = play(parse_fen(START_FEN), "f0e1", "f9e8")
    assert format_wxf(pos, parse_iccs(pos, "e1f0")) == "A5-4"
    pos = play(pos, "e1f0")
    assert format_wxf(pos, parse_iccs(pos, "e8f9")) == "A5-6"


def test_wxf_tandem_rooks():
    # Two red rooks on file e (WXF file 5): e5 is in front, e1 behind.
    pos = parse_fen("3k5/9/9/9/4R4/9/9/9/4R4/5K3 w - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "e5e7")) == "R++2"
    assert format_wxf(pos, parse_iccs(pos, "e5a5")) == "R+=9"
    assert format_wxf(pos, parse_iccs(pos, "e1e2")) == "R-+1"
    assert format_wxf(pos, parse_iccs(pos, "e1e0")) == "R--1"
    assert format_wxf(pos, parse_iccs(pos, "e1i1")) == "R-=1"
    for text, iccs in (("R+=9", "e5a5"), ("R-+1", "e1e2"), ("r--1", "e1e0")):
        assert move_iccs(parse_move(pos, text)) == iccs
    # Black: the front rook is the one nearer rank 0.
    pos = parse_fen("3k5/4r4/9/9/9/4r4/9/9/9/5K3 b - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "e4e3")) == "R++1"
    assert format_wxf(pos, parse_iccs(pos, "e8e9")) == "R--1"
    assert format_wxf(pos, parse_iccs(pos, "e8a8")) == "R-=1"


def test_wxf_tandem_pawns_and_horses():
    pos = parse_fen("3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "e6e7")) == "P++1"
    assert format_wxf(pos, parse_iccs(pos, "e5d5")) == "P-=6"
    pos = parse_fen("3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "c4d6")) == "H++6"
    assert format_wxf(pos, parse_iccs(pos, "c2b0")) == "H--8"


def test_wxf_three_pawns_on_a_file():
    pos = parse_fen("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "e7e8")) == "P++1"
    assert format_wxf(pos, parse_iccs(pos, "e6d6")) == "P5=6"
    assert format_wxf(pos, parse_iccs(pos, "e5f5")) == "P-=4"


def test_wxf_pawns_official_special_cases():
    # WXF: 3 pawns on two files -> the file digit replaces the letter; the middle pawn is "77".
    pos = parse_fen("3k5/9/2P6/2P1P4/2P1P4/9/9/9/9/5K3 w - - 0 1")
    assert format_wxf(pos, parse_iccs(pos, "c7c8")) == "7++1"
    assert format_wxf(pos, parse_iccs(pos, "c6b6")) == "77=8"
    assert format_wxf(pos, parse_iccs(pos, "c5d5")) == "7-=6"
    assert format_wxf(pos, parse_iccs(pos, "e6e7")) == "5++1"
    assert format_wxf(pos, parse_iccs(pos, "e5f5")) == "5-=4"
    # 5 pawns on a file: ++, P+, P<file>, P-, --.
    pos = parse_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/5K3 w - - 0 1")
    assert [format_wxf(pos, parse_iccs(pos, t)) for t in ("c9d9", "c8d8", "c7b7", "c6d6", "c5b5")] == \
        ["++=6", "P+=6", "P7=8", "P-=6", "--=8"]
    # 4 pawns on a file: ++, P+, P-, --.
    pos = parse_fen("4k4/2P6/2P6/2P6/2P6/9/9/9/9/5K3 w - - 0 1")
    assert [format_wxf(pos, parse_iccs(pos, t)) for t in ("c8c9", "c7d7", "c6b6", "c5d5")] == \
        ["+++1", "P+=6", "P-=8", "--=6"]
    for t in ("+++1", "P+=6", "P-=8", "--=6"):
        assert format_wxf(pos, parse_move(pos, t)) == t


@pytest.mark.parametrize("text", ["C2=5", "c2=5", "C2.5", "c2.5", "H8+7", "h8+7", "N8+7", "E3+5", "B3+5"])
def test_parse_wxf_spellings(text):
    pos = start()
    m = parse_move(pos, text)
    assert format_wxf(pos, m).upper() == text.upper().replace(".", "=").replace("N", "H").replace("B", "E")


@pytest.mark.parametrize("text,words", [
    ("E2=5", ["no legal move matches"]),
    ("C5=1", ["no legal move matches"]),
    ("H2+4", ["no legal move matches"]),
    ("R+=1", ["no legal move matches"]),     # no tandem rooks in the start position
    ("X9=1", ["is not a move"]),
    ("C2=", ["is not a move"]),
])
def test_parse_wxf_errors(text, words):
    msg = notation_error(start(), text)
    for w in words:
        assert w in msg


def random_positions(seed: int, n: int):
    rng = random.Random(seed)
    pos = start()
    out = []
    for ply in range(150):
        moves = pos.legal_moves()
        if not moves:
            break
        if ply % max(1, 150 // n) == 0:
            out.append(pos.copy())
        caps = [m for m in moves if pos.is_capture(m)]
        pos.make(rng.choice(caps) if caps and rng.random() < 0.3 else rng.choice(moves))
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_wxf_round_trip_every_legal_move(seed):
    for pos in random_positions(seed, 10):
        moves = pos.legal_moves()
        texts = [format_wxf(pos, m) for m in moves]
        assert len(set(texts)) == len(texts), "two legal moves share a WXF text"
        for m, t in zip(moves, texts):
            assert parse_move(pos, t) == m
            assert parse_move(pos, t.lower()) == m
            assert parse_move(pos, move_iccs(m)) == m


@pytest.mark.skipif(sf is None, reason="pyffish not installed")
def test_wxf_matches_fairy_stockfish_for_single_pieces():
    """Where no like piece shares the file, WXF has one spelling: compare with FSF."""
    compared = 0
    for seed in range(6):
        for pos in random_positions(500 + seed, 4):
            fen = format_fen(pos)
            for m in pos.legal_moves():
                piece = kind_at(pos, m & 0xFF)
                same_file = [sq for sq in range(len(pos.board))
                             if kind_at(pos, sq) == piece and (sq - (m & 0xFF)) % 11 == 0]
                if len(same_file) > 1:
                    continue
                theirs = sf.get_san("xiangqi", fen, iccs_to_uci(move_iccs(m)), False,
                                    sf.NOTATION_XIANGQI_WXF)
                assert format_wxf(pos, m) == theirs, (fen, move_iccs(m))
                compared += 1
    assert compared >= 500
