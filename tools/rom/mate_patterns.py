"""The classic xiangqi mating patterns (杀法) of the pattern puzzles, as
geometric tests of a final, mated position.

A pattern puzzle in config/puzzles.yaml names one of PATTERNS (its key
`pattern`); tools/rom/gen_puzzles.py and tests/test_puzzle_patterns.py
replay Fairy-Stockfish's line (config/puzzles.checked.json) and ask
`matches_line` whether the mate it ends in is that pattern.  The tests look
at the final position's pieces: which attacker pieces give check, what
screens a cannon's check, and which pieces hold the king's flight squares,
so that a mate by some other means fails them; two (大胆穿心, 送佛归殿) also
look at the line's moves (Board.played).

Coordinates are (file 0-8, rank 0-9) seen from the attacker: the mated
king's palace is ranks 7-9 (a mate of the Red king is mirrored first).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reference_py.board import ADVISOR, CANNON, HORSE, KING, PAWN, ROOK, file_of, move_from, move_to, rank_of

Sq = tuple[int, int]
PALACE = {(f, r) for f in (3, 4, 5) for r in (7, 8, 9)}
CORNERS = {(3, 7), (5, 7), (3, 9), (5, 9)}


@dataclass(frozen=True)
class Move:
    """One move of the line, in the attacker's coordinates."""
    attacker: bool       # played by the attacker
    kind: int
    frm: Sq
    to: Sq
    captured: int        # the kind taken, 0: none
    check: bool          # it gives check
    king: Sq             # the defender's king after it


@dataclass(frozen=True)
class Board:
    """A mated position from the attacker's side: its pieces and the
    defender's, by square, kinds only; `last` the mating move's destination;
    `played` the line's moves when known."""
    att: dict[Sq, int]
    dfn: dict[Sq, int]
    last: Sq
    played: tuple[Move, ...] = ()

    @property
    def king(self) -> Sq:
        return next(s for s, k in self.dfn.items() if k == KING)

    def occupied(self, sq: Sq) -> bool:
        return sq in self.att or sq in self.dfn

    def between(self, a: Sq, b: Sq) -> list[Sq] | None:
        """The occupied squares strictly between a and b on a file or rank (None: not on one line)."""
        if a[0] == b[0]:
            lo, hi = sorted((a[1], b[1]))
            return [(a[0], r) for r in range(lo + 1, hi) if self.occupied((a[0], r))]
        if a[1] == b[1]:
            lo, hi = sorted((a[0], b[0]))
            return [(f, a[1]) for f in range(lo + 1, hi) if self.occupied((f, a[1]))]
        return None

    def attacks(self, frm: Sq, to: Sq) -> bool:
        """Does the attacker's piece on frm attack `to` (by the move rules; kings facing excluded)?"""
        kind = self.att[frm]
        df, dr = to[0] - frm[0], to[1] - frm[1]
        if kind in (ROOK, CANNON):
            screens = self.between(frm, to)
            return screens is not None and len(screens) == (0 if kind == ROOK else 1)
        if kind == HORSE:
            if sorted((abs(df), abs(dr))) != [1, 2]:
                return False
            leg = (frm[0] + (df // 2 if abs(df) == 2 else 0), frm[1] + (dr // 2 if abs(dr) == 2 else 0))
            return not self.occupied(leg)
        if kind == PAWN:
            return (df, dr) == (0, 1) or (frm[1] >= 5 and dr == 0 and abs(df) == 1)
        if kind == KING:
            return abs(df) + abs(dr) == 1 and to in {(f, r) for f in (3, 4, 5) for r in (0, 1, 2)}
        return False      # advisors and elephants never reach the defender's palace

    def checkers(self) -> list[Sq]:
        return [s for s in self.att if self.attacks(s, self.king)]

    def screen(self, cannon: Sq) -> Sq:
        """The one piece between a checking cannon and the king."""
        return self.between(cannon, self.king)[0]

    def flights(self) -> list[Sq]:
        """The king's palace neighbours not held by its own pieces."""
        f, r = self.king
        return [s for s in ((f - 1, r), (f + 1, r), (f, r - 1), (f, r + 1)) if s in PALACE and s not in self.dfn]

    def facing_only(self, sq: Sq) -> bool:
        """Would the king on `sq` face the attacker's king, and is that all that holds `sq`?"""
        moved = Board(self.att, {**{s: k for s, k in self.dfn.items() if k != KING}, sq: KING}, self.last)
        king = next(s for s, k in self.att.items() if k == KING)
        if king[0] != sq[0] or moved.between(king, sq):
            return False
        return not any(moved.attacks(s, sq) for s in self.att if s != sq and self.att[s] != KING)


def _flip(mated: int) -> Callable[[int], Sq]:
    """reference_py square -> Sq from the attacker's side (the mated side at the top)."""
    if mated == 0:
        return lambda sq: (file_of(sq), 9 - rank_of(sq))
    return lambda sq: (file_of(sq), rank_of(sq))


def board_of(pieces: dict[int, tuple[int, int]], mated: int, last_to: int, played: tuple[Move, ...] = ()) -> Board:
    """The Board of reference_py pieces (square -> (side, kind)) with `mated` the side in mate."""
    at = _flip(mated)
    att, dfn = {}, {}
    for sq, (side, kind) in pieces.items():
        (dfn if side == mated else att)[at(sq)] = kind
    return Board(att, dfn, at(last_to), played)


def _of(b: Board, kind: int) -> list[Sq]:
    return [s for s, k in b.att.items() if k == kind]


def horse_cannon(b: Board) -> bool:
    """马后炮: a cannon checks with an attacker's horse as its screen, and the
    horse holds one of the king's flight squares."""
    return any(b.att[c] == CANNON and b.att.get(b.screen(c)) == HORSE
               and any(b.attacks(b.screen(c), s) for s in b.flights())
               for c in b.checkers())


def trough_horse(b: Board) -> bool:
    """卧槽马: a horse checks from the trough, the defender's third-file square
    of its second rank from the back (c7 or g7)."""
    return any(b.att[s] == HORSE and s in ((2, 7), (6, 7)) for s in b.checkers())


def corner_horse(b: Board) -> bool:
    """挂角马: a horse checks from a corner of the palace."""
    return any(b.att[s] == HORSE and s in CORNERS for s in b.checkers())


def double_rooks(b: Board) -> bool:
    """双车错: a rook checks along a line and the other rook holds the line next to it."""
    k = b.king
    for r1 in b.checkers():
        if b.att[r1] != ROOK:
            continue
        axis = 1 if r1[1] == k[1] else 0       # a check along a rank: the rooks' ranks differ by one
        if any(abs(r2[axis] - k[axis]) == 1 for r2 in _of(b, ROOK) if r2 != r1):
            return True
    return False


def double_cannons(b: Board) -> bool:
    """重炮: a cannon checks with the other cannon as its screen."""
    return any(b.att[c] == CANNON and b.att.get(b.screen(c)) == CANNON for c in b.checkers())


def smothered(b: Board) -> bool:
    """闷宫: a cannon alone checks, along the king's file, and the king's own
    advisors fill the squares beside it, its only way off the line."""
    k = b.king
    checkers = b.checkers()
    sides = [s for s in ((k[0] - 1, k[1]), (k[0] + 1, k[1])) if s in PALACE]
    return (bool(checkers) and all(b.att[c] == CANNON and c[0] == k[0] for c in checkers)
            and all(b.dfn.get(s) == ADVISOR for s in sides))


def iron_bolt(b: Board) -> bool:
    """铁门栓: with the king beside the centre file, a rook checks and a cannon
    on the centre file holds the king's square on it."""
    k = b.king
    if k[0] == 4 or not any(b.att[s] == ROOK for s in b.checkers()):
        return False
    return any(b.attacks(c, (4, k[1])) for c in _of(b, CANNON) if c[0] == 4)


def heaven_earth(b: Board) -> bool:
    """天地炮: the king on its back rank, one cannon on its file and one on
    that rank, and a cannon gives the check."""
    k = b.king
    cannons = _of(b, CANNON)
    return (k[1] == 9 and any(c[0] == k[0] for c in cannons) and any(c[1] == k[1] for c in cannons)
            and any(b.att[s] == CANNON for s in b.checkers()))


def facing_kings(b: Board) -> bool:
    """白脸将 (对面笑): a flight square of the king is held by nothing but the
    rule that the kings must not face each other."""
    return any(b.facing_only(s) for s in b.flights() if s not in b.att)


def eight_corner_horse(b: Board) -> bool:
    """八角马: a horse on the palace corner diagonally opposite the king, which
    stands in a corner, holds its flights while another piece checks."""
    k = b.king
    if k not in CORNERS:
        return False
    far = (8 - k[0], 16 - k[1])
    return b.att.get(far) == HORSE and any(b.att[s] != HORSE for s in b.checkers())


def fishing_horse(b: Board) -> bool:
    """钓鱼马: a horse on c8 or g8 holds the king's flights while a rook checks."""
    return (any(b.att.get(s) == HORSE for s in ((2, 8), (6, 8)))
            and any(b.att[s] == ROOK for s in b.checkers()))


def two_ghosts(b: Board) -> bool:
    """二鬼拍门: two pawns in the palace's side files, d and f, each holding
    a flight square of the king."""
    flights = b.flights()
    pawns = [s for s in _of(b, PAWN) if s in PALACE and s[0] != 4 and any(b.attacks(s, f) for f in flights)]
    return {s[0] for s in pawns} == {3, 5}


def moon_from_sea(b: Board) -> bool:
    """海底捞月: the king driven off its back rank, a rook checks from the back
    rank behind it on its file."""
    k = b.king
    return k[1] < 9 and any(b.att[s] == ROOK and s == (k[0], 9) for s in b.checkers())


def heart_piercing(b: Board) -> bool:
    """大胆穿心: a rook takes the advisor on the palace's centre with check
    (the heart: the square next to the king's home), the mate follows."""
    return any(m.attacker and m.kind == ROOK and m.to == (4, 8) and m.captured == ADVISOR and m.check
               for m in b.played)


def back_to_temple(b: Board) -> bool:
    """送佛归殿: the king, out of its home square after the line's first move
    (the attacker's), is driven back by a pawn's check and mated at home."""
    return (bool(b.played) and b.played[0].king != (4, 9) and b.king == (4, 9)
            and any(m.attacker and m.kind == PAWN and m.check for m in b.played))


def two_horses(b: Board) -> bool:
    """双马饮泉: a horse checks and the other horse holds a flight square."""
    horses = _of(b, HORSE)
    return any(b.att[h] == HORSE and any(b.attacks(o, f) for o in horses if o != h for f in b.flights())
               for h in b.checkers())


PATTERNS: dict[str, Callable[[Board], bool]] = {
    "horse_cannon": horse_cannon,
    "trough_horse": trough_horse,
    "corner_horse": corner_horse,
    "double_rooks": double_rooks,
    "double_cannons": double_cannons,
    "smothered": smothered,
    "iron_bolt": iron_bolt,
    "heaven_earth": heaven_earth,
    "facing_kings": facing_kings,
    "eight_corner_horse": eight_corner_horse,
    "fishing_horse": fishing_horse,
    "two_ghosts": two_ghosts,
    "moon_from_sea": moon_from_sea,
    "heart_piercing": heart_piercing,
    "back_to_temple": back_to_temple,
    "two_horses": two_horses,
}


def matches(pattern: str, pieces: dict[int, tuple[int, int]], mated: int, last_to: int) -> bool:
    """Is the mated position (reference_py pieces) the named pattern?  (Its
    line unknown: the patterns of the line's moves say no.)"""
    return PATTERNS[pattern](board_of(pieces, mated, last_to))


def line_board(fen: str, line: list[str]):
    """The reference game after the ICCS `line` from `fen`, and its Board with
    the line's moves (the side to move at the end is the mated one)."""
    from reference_py.rules import Game
    game = Game(fen)
    moves = [game.play_text(text) for text in line]
    mated = game.pos.side
    at = _flip(mated)
    replay = Game(fen)
    played = []
    for move in moves:
        pieces = replay.pos.pieces()
        side, kind = pieces[move_from(move)]
        taken = pieces.get(move_to(move), (0, 0))[1]
        replay.play(move)
        king = next(s for s, (sd, k) in replay.pos.pieces().items() if sd == mated and k == KING)
        played.append(Move(side != mated, kind, at(move_from(move)), at(move_to(move)), taken,
                           replay.pos.in_check(replay.pos.side), at(king)))
    last = move_to(moves[-1]) if moves else 0
    return game, board_of(game.pos.pieces(), mated, last, tuple(played))


def matches_line(pattern: str, fen: str, line: list[str]) -> bool:
    """Does the line from `fen` end in a mate by the named pattern?"""
    game, board = line_board(fen, line)
    out = game.outcome()
    return out is not None and out.reason == "checkmate" and PATTERNS[pattern](board)
