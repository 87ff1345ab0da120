"""The horse-against-one-elephant bitbase (KH vs KE): which positions the
horse side wins.

docs/ENGINE.md ("Endgames", "Bitbase") is the specification.  The data,
config/bitbase_h_e.bin, is written by `python -m tools.rom.gen_bitbase`
(a retrograde analysis of KH vs KE, KH vs K, K vs KE and K vs K); both
engines read the same bytes, so neither engine nor the ROM build runs the
analysis.

Coordinates: a position is seen from the elephant side (the *defender* D):
the square of each piece is board.sq90(sq, D) (D's back rank is rank 0; for
Black that turns the board), then, when D's elephant stands right of the
centre file, every file f becomes 8 - f (the mirror image has the same
value).  The elephant is then on one of four squares (ELEPHANT_SQUARES).

Index of a position (one bit, 1 = a win for the horse side):

    bit = ((stm * 4 + e) * 9 + dk) * 810 + ak * 90 + h

stm: 0 the horse side to move, 1 the elephant side; e: the elephant's
class (ELEPHANT_CLASS); dk, ak: the defender's and the attacker's king
in their palace, (rank - first palace rank) * 3 + file - 3; h: the
horse's square (rank * 9 + file).  Byte bit >> 3 holds it as bit
(bit & 7) (1 << (bit & 7)).  Index entries of impossible positions
(two pieces on one square, kings facing, the side not to move in check)
hold 0.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

from .board import ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, PAWN, RED, ROOK, sq90
from .position import FIRST_SLOT, Position

BITBASE_PATH: Final = Path(__file__).resolve().parent.parent / "config" / "bitbase_h_e.bin"
# The defender's elephant squares (rank * 9 + file, its own view) and the
# class of each after the mirror fold: left of or on the centre file.
ELEPHANT_SQUARES: Final = (2 * 9 + 0, 0 * 9 + 2, 4 * 9 + 2, 2 * 9 + 4)     # a2, c0, c4, e2
ELEPHANT_CLASS: Final = {sq: i for i, sq in enumerate(ELEPHANT_SQUARES)}
ROW_BITS: Final = 810                   # ak * 90 + h
BITS: Final = 2 * 4 * 9 * ROW_BITS      # 58,320
SIZE: Final = BITS // 8                 # 7,290 bytes


def mirror90(s: int) -> int:
    """The square's mirror image (file f -> 8 - f)."""
    return s - s % 9 + 8 - s % 9


def palace_index(s: int) -> int:
    """A palace square (rank 0-2 or 7-9, file 3-5) as 0..8."""
    r, f = divmod(s, 9)
    return (r % 7) * 3 + f - 3


def index(stm_defender: bool, ak: int, dk: int, h: int, e: int) -> int:
    """The bit of a position in the defender's view (squares 0..89, before
    the mirror fold)."""
    if e % 9 > 4:
        ak, dk, h, e = mirror90(ak), mirror90(dk), mirror90(h), mirror90(e)
    return ((int(stm_defender) * 4 + ELEPHANT_CLASS[e]) * 9 + palace_index(dk)) * ROW_BITS \
        + palace_index(ak) * 90 + h


@functools.lru_cache(maxsize=None)
def load(path: Path = BITBASE_PATH) -> bytes:
    """The bitbase's bytes, read once per process (the evaluation probes it
    at every KH vs KE leaf)."""
    data = Path(path).read_bytes()
    if len(data) != SIZE:
        raise ValueError(f"{path}: {len(data)} bytes, the bitbase has {SIZE}")
    return data


def is_class(count: list[int]) -> int | None:
    """The horse side (RED or BLACK) when the material is exactly king +
    horse against king + one elephant, else None."""
    for att in (RED, BLACK):
        a, d = att * 8, (att ^ 1) * 8
        if (count[a + HORSE] == 1 and count[a + ROOK] + count[a + CANNON] + count[a + PAWN]
                + count[a + ADVISOR] + count[a + ELEPHANT] == 0
                and count[d + ELEPHANT] == 1 and count[d + ADVISOR] + count[d + ROOK] + count[d + HORSE]
                + count[d + CANNON] + count[d + PAWN] == 0):
            return att
    return None


def probe_squares(data: bytes, att: int, side: int, ak: int, dk: int, h: int, e: int) -> bool:
    """Win for the horse side `att` with `side` to move; squares are padded."""
    d = att ^ 1
    bit = index(side == d, sq90(ak, d), sq90(dk, d), sq90(h, d), sq90(e, d))
    return bool(data[bit >> 3] >> (bit & 7) & 1)


def probe(pos: Position, att: int) -> bool:
    """Win for the horse side `att` in a KH vs KE position (is_class).  The
    horse and the elephant are in their kinds' fixed slots (position.py)."""
    ps = pos.piece_sq
    a, d = 16 * att, 16 * (att ^ 1)
    h = ps[a + FIRST_SLOT[HORSE]] or ps[a + FIRST_SLOT[HORSE] + 1]
    e = ps[d + FIRST_SLOT[ELEPHANT]] or ps[d + FIRST_SLOT[ELEPHANT] + 1]
    return probe_squares(load(), att, pos.side, ps[a], ps[d], h, e)


__all__ = ["BITBASE_PATH", "BITS", "ELEPHANT_CLASS", "ELEPHANT_SQUARES", "SIZE", "index", "is_class",
           "load", "mirror90", "palace_index", "probe", "probe_squares"]
