"""FEN input and output, with errors a player can act on.

Letters: K A B N R C P (Red, upper case), k a b n r c p (Black); `E`/`e` is
accepted for the elephant and `H`/`h` for the horse.  Side to move `w` (or
`r`) for Red, `b` for Black.  The fifth field, if present, is the number of
plies since the last capture (the 60-move rule counts it), 0..255.
"""
from __future__ import annotations

from typing import Sequence

from .board import (
    ADVISOR, BLACK, CANNON, ELEPHANT, FEN_LETTERS, HORSE, KIND_NAMES, KING, PAWN, RED, ROOK,
    file_of, rank_of, square,
)
from .position import KIND_SLOTS, Position

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

LETTER_KIND = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
               "r": ROOK, "c": CANNON, "p": PAWN}
# The most pieces of a kind per side: exactly the kind's slots in the piece
# lists (position.KIND_SLOTS), so a position with more is refused here and
# never reaches Position.rebuild or the ROM's loader.
MAX_COUNT: dict[int, int] = dict(KIND_SLOTS)
SIDE_NAME = ("Red", "Black")
MAX_CLOCK = 255          # the fifth field: plies since the last capture, one byte


class FenError(ValueError):
    """A FEN that does not describe a legal Xiangqi position."""


def _can_stand(side: int, kind: int, file: int, rank: int) -> bool:
    """Can a piece of this side and kind ever stand on (file, rank)?"""
    r = rank if side == RED else 9 - rank       # rank seen from its own side
    if kind == KING:
        return 3 <= file <= 5 and r <= 2
    if kind == ADVISOR:
        return (file, r) in {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
    if kind == ELEPHANT:
        return (file, r) in {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
    if kind == PAWN:
        return r >= 5 or (r in (3, 4) and file % 2 == 0)
    return True


def parse_pieces(board_text: str) -> dict[int, tuple[int, int]]:
    ranks = board_text.split("/")
    if len(ranks) != 10:
        raise FenError(f"the board has {len(ranks)} ranks, expected 10 separated by '/'")
    pieces: dict[int, tuple[int, int]] = {}
    for i, row in enumerate(ranks):
        rank = 9 - i
        file = 0
        for ch in row:
            if ch in "123456789":
                file += int(ch)
                continue
            if ch == "0" or ch.isdigit():
                raise FenError(f"bad empty-square count '{ch}' in rank {rank} (row {i + 1}): "
                               "use a digit 1-9")
            kind = LETTER_KIND.get(ch.lower())
            if kind is None:
                raise FenError(f"unknown piece letter '{ch}' in rank {rank} (field 1, row {i + 1})")
            if file > 8:
                raise FenError(f"rank {rank} (row {i + 1}) has more than 9 files")
            side = RED if ch.isupper() else BLACK
            if not _can_stand(side, kind, file, rank):
                raise FenError(f"{SIDE_NAME[side]} {KIND_NAMES[kind]} '{ch}' can never stand on "
                               f"{'abcdefghi'[file]}{rank}")
            pieces[square(file, rank)] = (side, kind)
            file += 1
        if file != 9:
            raise FenError(f"rank {rank} (row {i + 1}) has {file} files, expected 9")
    for side in (RED, BLACK):
        for kind, most in MAX_COUNT.items():
            n = sum(1 for s, k in pieces.values() if s == side and k == kind)
            if kind == KING and n == 0:
                raise FenError(f"{SIDE_NAME[side]} has no king")
            if n > most:
                raise FenError(f"{SIDE_NAME[side]} has {n} {_plural(kind)}, at most {most} allowed")
    return pieces


def _plural(kind: int) -> str:
    return {KING: "kings", ADVISOR: "advisors", ELEPHANT: "elephants", HORSE: "horses",
            ROOK: "rooks", CANNON: "cannons", PAWN: "pawns"}[kind]


def parse_fen(fen: str, values: Sequence[Sequence[int]] | None = None) -> Position:
    """Parse a FEN into a Position, or raise FenError saying what is wrong."""
    fields = fen.split()
    if not fields:
        raise FenError("empty FEN")
    pieces = parse_pieces(fields[0])
    if len(fields) < 2:
        raise FenError("missing side to move (field 2: 'w' or 'b')")
    stm = fields[1].lower()
    if stm not in ("w", "r", "b"):
        raise FenError(f"side to move must be 'w' or 'b', got '{fields[1]}'")
    side = BLACK if stm == "b" else RED
    clock = 0
    if len(fields) >= 5:
        if not (fields[4].isascii() and fields[4].isdigit()):
            raise FenError(f"field 5 (plies since the last capture) must be a number, got '{fields[4]}'")
        if len(fields[4]) > 3 or int(fields[4]) > MAX_CLOCK:
            raise FenError(f"field 5 (plies since the last capture) is {fields[4][:12]}"
                           f"{'...' if len(fields[4]) > 12 else ''}, at most {MAX_CLOCK} (both engines keep "
                           "it in one byte)")
        clock = int(fields[4])
    if len(fields) >= 6 and not (fields[5].isascii() and fields[5].isdigit()):
        raise FenError(f"field 6 (move number) must be a number, got '{fields[5]}'")
    if len(fields) > 6:
        raise FenError(f"too many fields ({len(fields)}), expected at most 6")
    pos = Position(values)
    pos.set_pieces(pieces, side, clock)
    if pos.in_check(side ^ 1):
        raise FenError(f"{SIDE_NAME[side ^ 1]} is in check (or the kings face each other) "
                       f"but it is {SIDE_NAME[side]} to move")
    return pos


def format_fen(pos: Position, fullmove: int = 1) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            code = pos.board[square(file, rank)]
            if not code:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            slot = (code & 0x0F) | (16 if code & 0x20 else 0)
            letter = FEN_LETTERS[pos.piece_kind[slot]]
            row += letter.upper() if slot < 16 else letter
        if empty:
            row += str(empty)
        rows.append(row)
    return f"{'/'.join(rows)} {'b' if pos.side == BLACK else 'w'} - - {pos.clock} {fullmove}"


__all__ = ["START_FEN", "FenError", "parse_fen", "format_fen", "file_of", "rank_of"]
