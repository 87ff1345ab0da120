"""Board geometry and piece encoding shared by every part of the engine.

The layout is the one the 6502 uses (docs/ENGINE.md, "Board"): a padded
mailbox of 11 columns x 14 rows = 154 bytes.  Files a-i sit in columns 1-9,
ranks 0-9 in rows 2-11; the border is two rows deep so a horse jump from
any square lands on a sentinel, never outside the array.  Every value here
is an 8-bit quantity on the 6502, so nothing in this module exceeds 255.
"""
from __future__ import annotations

from typing import Final

WIDTH: Final = 11
HEIGHT: Final = 14
BOARD_SIZE: Final = WIDTH * HEIGHT  # 154 bytes of RAM

# Square contents.
EMPTY: Final = 0x00
OFFBOARD: Final = 0xFF
RED_TAG: Final = 0x10      # red pieces are 0x10 | slot (slot 0-15)
BLACK_TAG: Final = 0x20    # black pieces are 0x20 | slot
SLOT_MASK: Final = 0x0F

RED: Final = 0
BLACK: Final = 1
SIDE_TAG: Final = (RED_TAG, BLACK_TAG)

# Piece kinds (3 bits).  The numbering is part of the ROM's tables.
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(1, 8)
KIND_NAMES: Final = {KING: "king", ADVISOR: "advisor", ELEPHANT: "elephant",
                     HORSE: "horse", ROOK: "rook", CANNON: "cannon", PAWN: "pawn"}
FEN_LETTERS: Final = {KING: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n",
                      ROOK: "r", CANNON: "c", PAWN: "p"}

# Direction deltas on the padded board.  "Up" is towards rank 9 (Black's side).
UP: Final = WIDTH
DOWN: Final = -WIDTH
LEFT: Final = -1
RIGHT: Final = 1
ORTHO: Final = (UP, DOWN, LEFT, RIGHT)
DIAG: Final = (UP + RIGHT, UP + LEFT, DOWN + RIGHT, DOWN + LEFT)   # +12 +10 -10 -12
# Horse moves as (leg, target) in generation order: for each orthogonal leg,
# the two targets in ascending delta order.
HORSE_MOVES: Final = (
    (UP, 2 * UP + LEFT), (UP, 2 * UP + RIGHT),
    (DOWN, 2 * DOWN + LEFT), (DOWN, 2 * DOWN + RIGHT),
    (LEFT, 2 * LEFT + DOWN), (LEFT, 2 * LEFT + UP),
    (RIGHT, 2 * RIGHT + DOWN), (RIGHT, 2 * RIGHT + UP),
)
# Squares from which a horse attacks a king, grouped by the diagonal square
# next to the king that is that horse's leg.
HORSE_CHECKS: Final = (
    (UP + RIGHT, (2 * UP + RIGHT, UP + 2 * RIGHT)),
    (UP + LEFT, (2 * UP + LEFT, UP + 2 * LEFT)),
    (DOWN + RIGHT, (2 * DOWN + RIGHT, DOWN + 2 * RIGHT)),
    (DOWN + LEFT, (2 * DOWN + LEFT, DOWN + 2 * LEFT)),
)


def square(file: int, rank: int) -> int:
    """Padded-board index of (file 0-8, rank 0-9)."""
    return (rank + 2) * WIDTH + file + 1


def file_of(sq: int) -> int:
    return sq % WIDTH - 1


def rank_of(sq: int) -> int:
    return sq // WIDTH - 2


def on_board(sq: int) -> bool:
    return 0 <= sq < BOARD_SIZE and 0 <= file_of(sq) <= 8 and 0 <= rank_of(sq) <= 9


PLAYABLE: Final = tuple(square(f, r) for r in range(10) for f in range(9))  # ascending order


def sq90(sq: int, side: int = RED) -> int:
    """0-89 index of a square seen from `side`: row 0 is that side's back rank.

    Black's view is the board turned 180 degrees, so tables written for Red
    apply to Black unchanged.
    """
    f, r = file_of(sq), rank_of(sq)
    if side == BLACK:
        f, r = 8 - f, 9 - r
    return r * 9 + f


def _flags() -> tuple[int, ...]:
    """Per-square flag byte: the ROM keeps this table in PRG ROM."""
    out = []
    for sq in range(BOARD_SIZE):
        if not on_board(sq):
            out.append(0)
            continue
        f, r = file_of(sq), rank_of(sq)
        v = FLAG_ON_BOARD
        if r <= 4:
            v |= FLAG_RED_HALF
        else:
            v |= FLAG_BLACK_HALF
        if 3 <= f <= 5 and r <= 2:
            v |= FLAG_RED_PALACE
        if 3 <= f <= 5 and r >= 7:
            v |= FLAG_BLACK_PALACE
        out.append(v)
    return tuple(out)


FLAG_ON_BOARD: Final = 0x01
FLAG_RED_HALF: Final = 0x02
FLAG_BLACK_HALF: Final = 0x04
FLAG_RED_PALACE: Final = 0x08
FLAG_BLACK_PALACE: Final = 0x10
SQUARE_FLAGS: Final = _flags()
HALF_FLAG: Final = (FLAG_RED_HALF, FLAG_BLACK_HALF)
PALACE_FLAG: Final = (FLAG_RED_PALACE, FLAG_BLACK_PALACE)
PAWN_FORWARD: Final = (UP, DOWN)


def iccs_square(sq: int) -> str:
    return "abcdefghi"[file_of(sq)] + str(rank_of(sq))


def move_from(move: int) -> int:
    """A move is 16 bits: low byte = from square, high byte = to square."""
    return move & 0xFF


def move_to(move: int) -> int:
    return move >> 8


def make_move_code(frm: int, to: int) -> int:
    return frm | (to << 8)


def move_iccs(move: int) -> str:
    return iccs_square(move_from(move)) + iccs_square(move_to(move))
