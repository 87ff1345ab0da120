"""The fixed slot layout of the piece lists (docs/ENGINE.md, "Board").

Every kind owns a fixed range of slots and the move generator visits the
slots in order, so the layout decides the generation order, which the ROM
must reproduce move for move; the ROM's evaluation and generators also read
a kind's pieces straight from its slots.  These tests pin the layout, the
rebuild that fills it and the generation order that follows from it.
"""
from __future__ import annotations

import random

import pytest

from reference_py.board import (
    ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK, SIDE_TAG, square,
)
from reference_py.fen import MAX_COUNT, START_FEN, parse_fen
from reference_py.position import FIRST_SLOT, KIND_RANGES, KIND_SLOTS, MAX_SLOTS, Position


def random_game_positions(seed: int, count: int) -> list[Position]:
    """Positions along seeded random games (captures preferred, so that the
    piece lists get holes and pieces pass each other)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = parse_fen(START_FEN)
        for _ in range(rng.randrange(10, 120)):
            legal = pos.legal_moves()
            if not legal:
                break
            caps = [m for m in legal if pos.is_capture(m)]
            pos.make(rng.choice(caps if caps and rng.random() < 0.5 else legal))
            if rng.random() < 0.1:
                out.append(pos.copy())
    return out


POSITIONS = random_game_positions(7, 60)


def test_layout_is_king_advisors_elephants_horses_rooks_cannons_pawns():
    """The layout the specification and the ROM (SLOT_* constants) use."""
    assert [(kind, list(r)) for kind, r in KIND_RANGES] == [
        (KING, [0]), (ADVISOR, [1, 2]), (ELEPHANT, [3, 4]), (HORSE, [5, 6]),
        (ROOK, [7, 8]), (CANNON, [9, 10]), (PAWN, [11, 12, 13, 14, 15])]
    assert FIRST_SLOT[KING] == 0 and sum(KIND_SLOTS.values()) == MAX_SLOTS
    assert MAX_COUNT == KIND_SLOTS          # fen.py refuses what would not fit


def check_canonical(pos: Position) -> None:
    """Each side's pieces fill their kind's slots from the first one, in
    ascending square order; unused slots are empty (square 0, kind 0)."""
    for side in (RED, BLACK):
        for kind, slots in KIND_RANGES:
            squares = sorted(sq for sq, (s, k) in pos.pieces().items() if s == side and k == kind)
            got = [pos.piece_sq[side * 16 + s] for s in slots]
            assert got == squares + [0] * (len(slots) - len(squares)), (side, kind)
            for s, sq in zip(slots, got):
                assert pos.piece_kind[side * 16 + s] == (kind if sq else 0)
                if sq:
                    assert pos.board[sq] == SIDE_TAG[side] | s
            assert pos.count[side * 8 + kind] == len(squares)


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 6))
def test_rebuild_fills_the_kind_slots_in_square_order(index):
    pos = POSITIONS[index].copy()
    key, score = pos.key, pos.score
    pos.rebuild()
    check_canonical(pos)
    assert (pos.key, pos.score) == (key, score)


def test_games_leave_slots_out_of_canonical_order():
    """Captures leave holes and pieces of a kind pass each other during a game
    (pieces keep their slots), so the rebuild has work to do: otherwise the
    test above would prove nothing."""
    def canonical(pos: Position) -> bool:
        try:
            check_canonical(pos)
            return True
        except AssertionError:
            return False
    assert sum(not canonical(p) for p in POSITIONS) >= 10


@pytest.mark.parametrize("captures_only", [False, True])
def test_generation_visits_the_slots_in_order(captures_only):
    """Moves come slot by slot, 0..15 (docs/ENGINE.md "Move generation"), so
    king moves first, then advisors, elephants, horses, rooks, cannons, pawns."""
    seen_kinds = set()
    for pos in POSITIONS:
        pos = pos.copy()
        pos.rebuild()
        base = pos.side * 16
        slots = [pos.board[m & 0xFF] & 0x0F for m in pos.generate(captures_only)]
        assert slots == sorted(slots)
        seen_kinds.update(pos.piece_kind[base + s] for s in slots)
    # every kind moved somewhere (captures by an advisor are rare)
    assert len(seen_kinds) >= (5 if captures_only else len(KIND_SLOTS))


def test_a_missing_king_leaves_slot_0_empty():
    pos = Position()
    pos.set_pieces({square(4, 9): (BLACK, KING), square(0, 0): (RED, ROOK),
                    square(8, 0): (RED, ROOK), square(4, 4): (RED, PAWN)}, RED)
    assert pos.piece_sq[0] == 0 and pos.piece_kind[0] == 0
    assert pos.piece_sq[7:9] == [square(0, 0), square(8, 0)]
    assert pos.piece_sq[11] == square(4, 4) and pos.piece_sq[16] == square(4, 9)


@pytest.mark.parametrize("kind", [KING, ADVISOR, HORSE, CANNON, PAWN])
def test_rebuild_refuses_more_pieces_than_slots(kind):
    """A position with more pieces of a kind than the kind has slots cannot
    be represented (fen.py refuses it first; a hand-made one raises)."""
    pieces = {square(4, 9): (BLACK, KING)}
    for i in range(KIND_SLOTS[kind] + 1):
        pieces[square(i, 5 + i % 2)] = (RED, kind)
    with pytest.raises(ValueError, match="no slot left"):
        Position().set_pieces(pieces, RED)
