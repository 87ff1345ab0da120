"""Legal move generation against Fairy-Stockfish (pyffish), the independent rules oracle."""
from __future__ import annotations

import random

import pytest

sf = pytest.importorskip("pyffish")

from reference_py.board import WIDTH, file_of, move_iccs
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.notation import iccs_to_uci, uci_to_iccs
from reference_py.position import Position

VARIANT = "xiangqi"
N_GAMES = 120
MAX_PLIES = 150
SAMPLE_TARGET = 1100

# Hand-made positions for the rare categories.
HAND_MADE = [
    # Stalemate: lone black king on d9, a red pawn on e8 covers d8 and e9.
    "3k5/4P4/9/9/9/9/9/9/9/5K3 b - - 0 1",
    # Stalemate with a flying-general pin: the advisor on e8 may not leave the file,
    # the rooks on d1 and f1 cover d9 and f9.
    "4k4/4a4/9/9/9/9/9/9/3R1R3/4K4 b - - 0 1",
    # Stalemate: king in the corner of its palace, a rook and a horse cover its exits.
    "5k3/9/9/6N2/4R4/9/9/9/9/3K5 b - - 0 1",
    # Flying general: the only piece between the kings is a red horse.
    "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1",
    # Flying general: a black cannon alone between the kings, black to move.
    "3k5/9/9/9/3c5/9/9/9/9/3K5 b - - 0 1",
    # Flying general: king moves off and onto the open file of the other king.
    "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    # Checkmate helped by the facing king: e9 faces the red king, the pawn is guarded.
    "3k5/3P5/9/9/9/9/9/9/3R5/4K4 b - - 0 1",
]


def kings_face(pos: Position) -> bool:
    k0, k1 = pos.piece_sq[0], pos.piece_sq[16]
    if not (k0 and k1) or file_of(k0) != file_of(k1):
        return False
    lo, hi = min(k0, k1), max(k0, k1)
    return all(pos.board[sq] == 0 for sq in range(lo + WIDTH, hi, WIDTH))


def is_flying_general_case(pos: Position) -> bool:
    """Some pseudo-legal move is illegal only because it leaves the kings face to face."""
    for m in pos.generate():
        pos.make(m)
        facing = kings_face(pos)
        pos.unmake()
        if facing:
            return True
    return False


def random_game(seed: int) -> list[str]:
    """FENs of a random game (half the time a capture is preferred, to reach endings)."""
    rng = random.Random(seed)
    pos = parse_fen(START_FEN)
    fens = []
    for _ in range(MAX_PLIES):
        fens.append(format_fen(pos))
        moves = pos.legal_moves()
        if not moves:
            break
        caps = [m for m in moves if pos.is_capture(m)]
        pos.make(rng.choice(caps) if caps and rng.random() < 0.5 else rng.choice(moves))
    else:
        fens.append(format_fen(pos))
    return fens


def classify(fen: str) -> dict:
    pos = parse_fen(fen)
    legal = pos.legal_moves()
    check = pos.in_check(pos.side)
    return {"fen": fen, "legal": {move_iccs(m) for m in legal}, "check": check,
            "mate": check and not legal, "stale": not check and not legal,
            "fly": is_flying_general_case(pos)}


@pytest.fixture(scope="module")
def sample() -> list[dict]:
    seen: set[str] = set()
    everything = []
    for seed in range(N_GAMES):
        for fen in random_game(1000 + seed):
            key = fen.rsplit(" ", 2)[0]
            if key not in seen:
                seen.add(key)
                everything.append(classify(fen))
    rng = random.Random(7)
    special = [p for p in everything if p["check"] or not p["legal"]]
    fly = [p for p in everything if p["fly"] and not (p["check"] or not p["legal"])]
    rng.shuffle(fly)
    fly = fly[:150]
    chosen = {id(p) for p in special + fly}
    rest = [p for p in everything if id(p) not in chosen]
    rng.shuffle(rest)
    out = special + fly + rest[:max(0, SAMPLE_TARGET - len(special) - len(fly))]
    out += [classify(f) for f in HAND_MADE]
    return out


def test_sample_covers_every_category(sample):
    assert len(sample) >= 1000
    assert sum(p["check"] for p in sample) >= 100
    assert sum(p["mate"] for p in sample) >= 10
    assert sum(p["stale"] for p in sample) >= 3
    assert sum(p["fly"] for p in sample) >= 50


def test_hand_made_positions_are_what_they_claim():
    c = [classify(f) for f in HAND_MADE]
    assert [p["stale"] for p in c[:3]] == [True, True, True]
    assert all(p["fly"] for p in c[3:6])
    assert c[6]["mate"]


def test_legal_move_sets_match_fairy_stockfish(sample):
    mismatches = []
    for p in sample:
        theirs = {uci_to_iccs(u) for u in sf.legal_moves(VARIANT, p["fen"], [])}
        if theirs != p["legal"]:
            mismatches.append((p["fen"], sorted(p["legal"] - theirs), sorted(theirs - p["legal"])))
    assert not mismatches, f"{len(mismatches)} positions differ, first: {mismatches[:3]}"


def test_in_check_matches_fairy_stockfish(sample):
    # Every position in check, and every 5th of the others (pyffish is slow).
    subset = [p for i, p in enumerate(sample) if p["check"] or i % 5 == 0]
    assert sum(p["check"] for p in subset) >= 100
    bad = [p["fen"] for p in subset if sf.gives_check(VARIANT, p["fen"], []) != p["check"]]
    assert not bad, bad[:5]


def test_start_position_and_moves_after_uci_history():
    assert parse_fen(sf.start_fen(VARIANT)).key == parse_fen(START_FEN).key
    # A game given to pyffish as a move list must give the same moves as replaying it here.
    rng = random.Random(99)
    pos = parse_fen(START_FEN)
    history: list[str] = []
    for _ in range(40):
        ours = {move_iccs(m) for m in pos.legal_moves()}
        theirs = {uci_to_iccs(u) for u in sf.legal_moves(VARIANT, START_FEN, history)}
        assert ours == theirs
        m = rng.choice(pos.legal_moves())
        history.append(iccs_to_uci(move_iccs(m)))
        pos.make(m)


def test_uci_iccs_conversion_round_trip():
    for u in sf.legal_moves(VARIANT, sf.start_fen(VARIANT), []):
        assert iccs_to_uci(uci_to_iccs(u)) == u
    assert uci_to_iccs("a10a9") == "a9a8"
    assert iccs_to_uci("h2e2") == "h3e3"
