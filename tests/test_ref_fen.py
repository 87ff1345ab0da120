"""FEN parsing and formatting: round trips and error messages."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from reference_py.board import BLACK, ELEPHANT, HORSE, RED, square
from reference_py.fen import START_FEN, FenError, format_fen, parse_fen
from reference_py.rules import random_walk

ROOT = Path(__file__).resolve().parent.parent
BOARD = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def random_position(seed: int, plies: int):
    return random_walk(START_FEN, plies, random.Random(seed))


def snapshot(pos):
    return (tuple(sorted(pos.pieces().items())), pos.side, pos.clock, pos.key, pos.score)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_round_trip_random_positions(seed, plies):
    pos = random_position(seed, plies)
    fen = format_fen(pos)
    again = parse_fen(fen)
    assert format_fen(again) == fen
    assert snapshot(again) == snapshot(pos)


@given(fullmove=st.integers(1, 500))
def test_format_fen_fields(fullmove):
    pos = parse_fen(START_FEN)
    assert format_fen(pos, fullmove) == f"{BOARD} w - - 0 {fullmove}"
    pos.make(pos.legal_moves()[0])
    assert format_fen(pos).split()[1:] == ["b", "-", "-", "1", "1"]


def test_start_fen_round_trip_and_fields():
    assert format_fen(parse_fen(START_FEN)) == START_FEN
    pos = parse_fen(f"{BOARD} b - - 17 9")
    assert pos.side == BLACK and pos.clock == 17
    assert format_fen(pos) == f"{BOARD} b - - 17 1"
    assert parse_fen(f"{BOARD} r").side == RED           # 'r' accepted for Red
    assert parse_fen(f"{BOARD} w").clock == 0             # short FENs accepted


def test_aliases_h_and_e():
    alias = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
    pos = parse_fen(alias)
    assert format_fen(pos) == START_FEN
    assert pos.key == parse_fen(START_FEN).key
    assert pos.pieces()[square(1, 0)] == (RED, HORSE)
    assert pos.pieces()[square(2, 9)] == (BLACK, ELEPHANT)


def fen_error(fen: str) -> str:
    with pytest.raises(FenError) as exc:
        parse_fen(fen)
    return str(exc.value)


def with_rows(**rows: str) -> str:
    """START board with some rows (r0 = rank 9 ... r9 = rank 0) replaced."""
    parts = BOARD.split("/")
    for k, v in rows.items():
        parts[int(k[1:])] = v
    return "/".join(parts) + " w - - 0 1"


@pytest.mark.parametrize("fen,words", [
    # wrong number of ranks
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", ["9 ranks", "expected 10"]),
    (BOARD + "/9 w", ["11 ranks", "expected 10"]),
    # wrong number of files in a rank
    (with_rows(r0="rnbakabnr1"), ["rank 9", "10 files", "expected 9"]),
    (with_rows(r0="rnbakabnrr"), ["rank 9", "more than 9 files"]),
    (with_rows(r1="8"), ["rank 8", "8 files", "expected 9"]),
    (with_rows(r9="RNBAKABN"), ["rank 0", "8 files"]),
    (with_rows(r5=""), ["rank 4", "0 files"]),
    (with_rows(r4="90"), ["'0'", "rank 5"]),
    (with_rows(r4="\u00b2\u2077"), ["rank 5", "1-9"]),
    # unknown letter
    (with_rows(r9="RNBAKABNX"), ["unknown piece letter 'X'", "rank 0"]),
    (with_rows(r3="p1p1p1p1q"), ["unknown piece letter 'q'", "rank 6"]),
    # kings
    (with_rows(r0="rnba1abnr"), ["Black has no king"]),
    (with_rows(r9="RNBA1ABNR"), ["Red has no king"]),
    (with_rows(r1="4k4"), ["Black has 2 kings", "at most 1"]),
    (with_rows(r8="3K5"), ["Red has 2 kings"]),
    # too many of a kind
    (with_rows(r8="R8"), ["Red has 3 rooks", "at most 2"]),
    (with_rows(r1="c8"), ["Black has 3 cannons", "at most 2"]),
    (with_rows(r4="P8"), ["Red has 6 pawns", "at most 5"]),
    (with_rows(r8="4A4"), ["Red has 3 advisors"]),
    # squares a piece can never occupy
    (with_rows(r9="RNBA1ABNR", r8="K8"), ["Red king 'K'", "never stand on a1"]),               # king outside palace
    (with_rows(r9="RNBA1ABNR", r6="4K4"), ["Red king", "e3"]),
    (with_rows(r0="rnba1abnr", r3="p1p1pkp1p"), ["Black king 'k'", "f6"]),
    (with_rows(r9="RNB1KABNR", r8="A8"), ["Red advisor 'A'", "a1"]),               # advisor off its 5 points
    (with_rows(r9="RNB1KABNR", r8="3A5"), ["Red advisor", "d1"]),
    (with_rows(r9="RN1AKABNR", r4="2B6"), ["Red elephant 'B'", "c5"]),              # elephant across the river
    (with_rows(r9="RN1AKABNR", r8="1B7"), ["Red elephant", "b1"]),                    # elephant off its 7 points
    (with_rows(r0="rn1akabnr", r5="2b6"), ["Black elephant 'b'", "c4"]),
    (with_rows(r8="4P4"), ["Red pawn 'P'", "e1"]),                             # red pawn on rank 1
    (with_rows(r7="1C5CP"), ["Red pawn", "i2"]),                           # red pawn on rank 2
    (with_rows(r6="P1P1P1PP1"), ["Red pawn", "h3"]),                       # unadvanced pawn, file h
    (with_rows(r5="1P7"), ["Red pawn", "b4"]),                             # unadvanced pawn, file b
    (with_rows(r4="1p7"), ["Black pawn 'p'", "b5"]),
    (with_rows(r0="rnbakabnp"), ["Black pawn", "i9"]),
    # side to move and the fields after it
    (BOARD, ["missing side to move"]),
    (BOARD + " x", ["side to move", "'x'"]),
    (BOARD + " red", ["side to move", "'red'"]),
    (BOARD + " w - - x 1", ["field 5", "'x'"]),
    (BOARD + " w - - -3 1", ["field 5", "'-3'"]),
    (BOARD + " w - - 0 one", ["field 6", "'one'"]),
    (BOARD + " w - - 0 1 extra", ["too many fields"]),
    ("", ["empty FEN"]),
    # the side not to move is in check, or the kings face each other
    ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", ["kings face each other"]),
    ("4k4/9/9/9/9/9/9/9/9/3Kr4 b - - 0 1", ["Red is in check", "Black to move"]),     # rook
    ("3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", ["Black is in check", "Red to move"]),     # rook
    ("4k4/9/3N5/9/9/9/9/9/9/3K5 w - - 0 1", ["Black is in check"]),                   # horse
    ("4k4/4a4/9/9/4C4/9/9/9/9/3K5 w - - 0 1", ["Black is in check"]),                 # cannon
    ("3k5/9/9/9/9/9/9/9/4p4/3K5 b - - 0 1", ["Red is in check"]),                     # pawn
])
def test_fen_errors(fen, words):
    msg = fen_error(fen)
    for w in words:
        assert w in msg, (w, msg)


def test_legal_positions_near_the_errors_are_accepted():
    # The same shapes as above, but legal: guards against over-strict checks.
    parse_fen("4k4/4a4/9/9/9/9/9/9/9/3K5 w - - 0 1")            # no facing: different files
    parse_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")             # side to move may be in check
    parse_fen("4k4/4a4/9/9/9/9/9/9/9/4K4 w - - 0 1")            # a piece between the kings
    parse_fen(with_rows(r5="P8", r6="2P1P1P1P"))                 # pawn a4: advanced, file a
    parse_fen(with_rows(r9="RN1AKABNR", r7="1C2B2C1"))           # elephant e2
    parse_fen(with_rows(r9="RNB1KABNR", r7="1C1A3C1"))           # advisor d2
    parse_fen(with_rows(r9="RNBA1ABNR", r7="1C1K3C1"))           # king d2


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference_py", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("fen", [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
    BOARD + " x",
    "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    with_rows(r4="\u00b2\u2077"),
])
def test_cli_search_bad_fen(fen):
    r = run_cli("search", fen, "--level", "Novice")
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:")
    assert "Traceback" not in r.stderr
