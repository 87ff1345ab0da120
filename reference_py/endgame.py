"""Endgame knowledge: a bare side, the score's scale and the king drive.

A side with no rook, horse, cannon or pawn (its king, advisors and
elephants only) is *bare*: it can never mate.  When one side is bare the
evaluation changes in two ways (docs/ENGINE.md, "Endgames"):

  * the drive: the other side (the *strong* side) gains points for each
    square the bare king cannot step to (its palace neighbours that are
    off the palace, hold its own piece or are attacked by the strong side),
    for its own king on the centre file, and for each of its horses and
    pawns near the bare king; these give the search a slope towards the
    mate that its depth cannot see (and the bare side, which minimises the
    same score, a reason to keep its king free, away from stalemate);
  * the scale: the whole score is shifted right (divided by 2^k, rounding
    down) by k from a table whose row is the strong side's attackers
    (a lone rook, horse, cannon with or without an advisor of its own,
    one pawn, two pawns) and whose column is the bare side's advisors and
    elephants, so that material that cannot win (a lone cannon, a lone
    pawn against an advisor, a rook against the full guard) scores near 0
    and the engine neither seeks nor avoids it for its material.
When both sides are bare the score is shifted by `both_bare` and there is
no drive.  When the material is exactly king + horse against king + one
elephant or king + two advisors, that class's bitbase (bitbase.py) decides
after the shift: a draw scores 0, a win for the horse side gains
`bitbase_win` for it.  The tables are in config/eval.yaml (`endgame:`); a weight set
uses them when its `endgame` is true.

Everything here depends on the piece counts except the drive's squares, so
the ROM keeps the class (eng_bare) up to date at captures and computes the
drive only in the rare positions that have a bare side.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import bitbase
from .board import (
    ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, ORTHO, PALACE_FLAG, PAWN, RED, ROOK, SIDE_TAG, SQUARE_FLAGS,
    file_of, rank_of,
)

if TYPE_CHECKING:
    from .position import Position

# The rows of the scale table, in the order of config/eval.yaml and the ROM's table.
CLASSES: tuple[str, ...] = ("other", "R", "H", "C", "CA", "P", "PP")
# The columns: the bare side's advisors + 3 * elephants.
DEFENCE_NAMES: tuple[str, ...] = ("K", "A", "AA", "E", "AE", "AAE", "EE", "AEE", "AAEE")
SHIFT_MAX = 7
NEAR_MAX_DISTANCE = 17        # |files| + |ranks| between two squares of the board: 0..17


@dataclass(frozen=True)
class EndgameTables:
    """The endgame terms' tables (config/eval.yaml `endgame:`)."""
    scale: tuple[tuple[int, ...], ...]     # [class][advisors + 3 * elephants] = shift
    both_bare: int                         # the shift when both sides are bare
    king_mobility: tuple[int, ...]         # [free squares 0..4 around the bare king]
    king_centre: int                       # the strong king on the centre file (e)
    near: tuple[int, ...]                  # [distance 0..17] per strong horse or pawn
    bitbase_win: int = 0                   # KH vs KE or KAA won for the horse side (bitbase.py): its bonus

    def drive_max(self) -> int:
        """The largest drive (for the bound checks of the ROM build)."""
        return max(self.king_mobility) + max(self.king_centre, 0) + 7 * max(max(self.near), 0)

    def drive_min(self) -> int:
        return min(self.king_mobility) + min(self.king_centre, 0) + 7 * min(min(self.near), 0)


def attackers(count: list[int], side: int) -> int:
    """The side's rooks + horses + cannons + pawns."""
    b = side * 8
    return count[b + ROOK] + count[b + HORSE] + count[b + CANNON] + count[b + PAWN]


def strong_class(count: list[int], side: int) -> int:
    """The row of the scale table for the strong side `side` (CLASSES)."""
    b = side * 8
    r, h, c, p = count[b + ROOK], count[b + HORSE], count[b + CANNON], count[b + PAWN]
    if h + c + p == 0 and r == 1:
        return CLASSES.index("R")
    if r + c + p == 0 and h == 1:
        return CLASSES.index("H")
    if r + h + p == 0 and c == 1:
        return CLASSES.index("CA" if count[b + ADVISOR] else "C")
    if r + h + c == 0 and p in (1, 2):
        return CLASSES.index("P" if p == 1 else "PP")
    return CLASSES.index("other")


def defence(count: list[int], side: int) -> int:
    """The column of the scale table for the bare side `side`."""
    return count[side * 8 + ADVISOR] + 3 * count[side * 8 + ELEPHANT]


def bare_side(count: list[int]) -> int | None:
    """RED or BLACK when exactly that side is bare, 2 when both are, else None."""
    red, black = attackers(count, RED), attackers(count, BLACK)
    if red and black:
        return None
    if not red and not black:
        return 2
    return RED if not red else BLACK


def free_squares(pos: Position, weak: int) -> int:
    """The bare king's orthogonal neighbours in its palace that hold no piece
    of its own and that the strong side does not attack (Position.attacked:
    pins and the facing kings are not considered)."""
    wk = pos.piece_sq[16 * weak]
    free = 0
    for d in ORTHO:
        sq = wk + d
        if not SQUARE_FLAGS[sq] & PALACE_FLAG[weak] or pos.board[sq] & SIDE_TAG[weak]:
            continue
        if not pos.attacked(sq, weak ^ 1):
            free += 1
    return free


def drive(pos: Position, strong: int, t: EndgameTables, horse_slots: tuple[int, ...],
          pawn_slots: tuple[int, ...]) -> int:
    """The strong side's drive points (>= 0: the ROM build checks the tables)."""
    piece_sq = pos.piece_sq
    weak = strong ^ 1
    wk = piece_sq[16 * weak]
    wf, wr = file_of(wk), rank_of(wk)
    d = t.king_mobility[free_squares(pos, weak)]
    if file_of(piece_sq[16 * strong]) == 4:
        d += t.king_centre
    for i in horse_slots + pawn_slots:
        sq = piece_sq[16 * strong + i]
        if sq:
            d += t.near[abs(file_of(sq) - wf) + abs(rank_of(sq) - wr)]
    return d


def adjust(e: int, pos: Position, t: EndgameTables, horse_slots: tuple[int, ...],
           pawn_slots: tuple[int, ...]) -> int:
    """The evaluation e (for the side to move) with the endgame terms."""
    count = pos.count
    bare = bare_side(count)
    if bare is None:
        return e
    if bare == 2:
        return e >> t.both_bare
    strong = bare ^ 1
    d = drive(pos, strong, t, horse_slots, pawn_slots)
    e += d if pos.side == strong else -d
    e >>= t.scale[strong_class(count, strong)][defence(count, bare)]
    cls = bitbase.is_class(count)
    if cls is not None:                               # exactly KH vs KE or KAA: the horse side is `strong`
        if not bitbase.probe(pos, strong, cls[1]):
            return 0
        e += t.bitbase_win if pos.side == strong else -t.bitbase_win
    return e


__all__ = ["CLASSES", "DEFENCE_NAMES", "EndgameTables", "adjust", "attackers", "bare_side", "defence",
           "drive", "free_squares", "strong_class"]
