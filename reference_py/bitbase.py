"""The horse bitbases: which positions of king + horse against king + one
elephant (KH vs KE) and against king + two advisors (KH vs KAA) the horse
side wins.

docs/ENGINE.md ("Endgames", "Bitbases") is the specification.  The data,
config/bitbase_h_e.bin and config/bitbase_h_aa.bin, is written by
`python -m tools.rom.gen_bitbase` (a retrograde analysis of these classes
and of every class a capture reaches); both engines read the same bytes,
so neither engine nor the ROM build runs the analysis.

Coordinates: a position is seen from the defending side D (the side with
the elephant or the advisors): the square of each piece is
board.sq90(sq, D) (D's back rank is rank 0; for Black that turns the
board).  The squares of D's men (the elephant, or the two advisors,
sorted) give the position's *class*; when they are the mirror image
(file f -> 8 - f) of a class's squares, every square is mirrored first
(the mirror image has the same value).  KH vs KE has 4 classes (the
elephant left of or on the centre file), KH vs KAA 6 (of the 10 pairs of
advisor squares, 4 are the mirror images of others).

Index of a position (one bit, 1 = a win for the horse side):

    bit = ((stm * classes + class) * 9 + dk) * 810 + ak * 90 + h

stm: 0 the horse side to move, 1 the defender; dk, ak: the defender's and
the attacker's king in their palace, (rank - first palace rank) * 3 +
file - 3; h: the horse's square (rank * 9 + file).  Byte bit >> 3 holds
it as bit (bit & 7) (1 << (bit & 7)).  Index entries of impossible
positions (two pieces on one square, kings facing, the side not to move
in check) hold 0.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .board import ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, PAWN, RED, ROOK, sq90
from .position import FIRST_SLOT, Position

CONFIG: Final = Path(__file__).resolve().parent.parent / "config"
ROW_BITS: Final = 810                   # ak * 90 + h
# The defender's men's squares (rank * 9 + file, its own view).
ELEPHANT_SQUARES_ALL: Final = (2, 6, 18, 22, 26, 38, 42)       # c0 g0 a2 e2 i2 c4 g4
ADVISOR_SQUARES: Final = (3, 5, 13, 21, 23)                    # d0 f0 e1 d2 f2


def mirror90(s: int) -> int:
    """The square's mirror image (file f -> 8 - f)."""
    return s - s % 9 + 8 - s % 9


def palace_index(s: int) -> int:
    """A palace square (rank 0-2 or 7-9, file 3-5) as 0..8."""
    r, f = divmod(s, 9)
    return (r % 7) * 3 + f - 3


@dataclass(frozen=True)
class Bitbase:
    """One horse bitbase: its file, the defender's men and their classes.

    `classes` lists each class's men squares (sorted); a set of men squares
    that is the mirror image of a class's belongs to that class with the
    position mirrored (fold())."""
    name: str                           # the class's name in docs and messages
    file: str                           # its data in config/
    men: tuple[int, ...]                # the defender's men's kinds (sorted)
    classes: tuple[tuple[int, ...], ...]
    fold_table: dict[tuple[int, ...], tuple[int, bool]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        table: dict[tuple[int, ...], tuple[int, bool]] = {}
        for i, men in enumerate(self.classes):
            table[men] = (i, False)
            mirrored = tuple(sorted(map(mirror90, men)))
            table.setdefault(mirrored, (i, True))
        object.__setattr__(self, "fold_table", table)

    @property
    def path(self) -> Path:
        return CONFIG / self.file

    @property
    def bits(self) -> int:
        return 2 * len(self.classes) * 9 * ROW_BITS

    @property
    def size(self) -> int:
        return self.bits // 8

    def fold(self, men: tuple[int, ...]) -> tuple[int, bool]:
        """(class, mirror the position) of the defender's men's squares."""
        return self.fold_table[tuple(sorted(men))]

    def index(self, stm_defender: bool, ak: int, dk: int, h: int, men: tuple[int, ...]) -> int:
        """The bit of a position in the defender's view (squares 0..89,
        before the mirror fold)."""
        cls, mirror = self.fold(men)
        if mirror:
            ak, dk, h = mirror90(ak), mirror90(dk), mirror90(h)
        return ((int(stm_defender) * len(self.classes) + cls) * 9 + palace_index(dk)) * ROW_BITS \
            + palace_index(ak) * 90 + h

    def load(self) -> bytes:
        return _load(self.path, self.size)


H_E: Final = Bitbase("KH vs KE", "bitbase_h_e.bin", (ELEPHANT,), ((18,), (2,), (38,), (22,)))   # a2 c0 c4 e2
H_AA: Final = Bitbase("KH vs KAA", "bitbase_h_aa.bin", (ADVISOR, ADVISOR),
                      ((3, 5), (3, 13), (3, 21), (3, 23), (13, 21), (21, 23)))
BITBASES: Final = (H_E, H_AA)


@functools.lru_cache(maxsize=None)
def _load(path: Path, size: int) -> bytes:
    """A bitbase's bytes, read once per process (the evaluation probes it at
    every leaf of its class)."""
    data = Path(path).read_bytes()
    if len(data) != size:
        raise ValueError(f"{path}: {len(data)} bytes, the bitbase has {size}")
    return data


def is_class(count: list[int]) -> tuple[int, Bitbase] | None:
    """(the horse side, its bitbase) when the material is exactly king +
    horse against king + one elephant or king + two advisors, else None."""
    for att in (RED, BLACK):
        a, d = att * 8, (att ^ 1) * 8
        if (count[a + HORSE] != 1 or count[a + ROOK] + count[a + CANNON] + count[a + PAWN]
                + count[a + ADVISOR] + count[a + ELEPHANT]
                or count[d + ROOK] + count[d + HORSE] + count[d + CANNON] + count[d + PAWN]):
            continue
        men = (count[d + ADVISOR], count[d + ELEPHANT])
        if men == (0, 1):
            return att, H_E
        if men == (2, 0):
            return att, H_AA
    return None


def probe_squares(bb: Bitbase, att: int, side: int, ak: int, dk: int, h: int, men: tuple[int, ...]) -> bool:
    """Win for the horse side `att` with `side` to move; squares are padded."""
    d = att ^ 1
    bit = bb.index(side == d, sq90(ak, d), sq90(dk, d), sq90(h, d), tuple(sq90(m, d) for m in men))
    return bool(bb.load()[bit >> 3] >> (bit & 7) & 1)


def probe(pos: Position, att: int, bb: Bitbase) -> bool:
    """Win for the horse side `att` in a position of bb's class (is_class).
    The horse and the defender's men are in their kinds' fixed slots
    (position.py)."""
    ps = pos.piece_sq
    a, d = 16 * att, 16 * (att ^ 1)
    h = ps[a + FIRST_SLOT[HORSE]] or ps[a + FIRST_SLOT[HORSE] + 1]
    kind = bb.men[0]
    men = tuple(s for s in ps[d + FIRST_SLOT[kind]:d + FIRST_SLOT[kind] + 2] if s)
    return probe_squares(bb, att, pos.side, ps[a], ps[d], h, men)


__all__ = ["ADVISOR_SQUARES", "BITBASES", "Bitbase", "ELEPHANT_SQUARES_ALL", "H_AA", "H_E", "ROW_BITS",
           "is_class", "mirror90", "palace_index", "probe", "probe_squares"]
