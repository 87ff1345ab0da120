"""Seeded random positions with a bare side (or one capture from one), for
the ROM-vs-reference tests of the endgame terms (reference_py/endgame.py).

Each position has one side with only its king, advisors and elephants and
the other with a few attackers from a list of material signatures that
covers every row of the endgame scale table (a lone rook, horse, cannon
with and without an advisor, one and two pawns, and larger sets), both
sides bare, and `near` positions where the bare side still has one
attacker the strong side can take, so that a search crosses into and out
of the endgame class through make and unmake.
"""
from __future__ import annotations

import random

from reference_py.board import ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK, square
from reference_py.fen import _can_stand
from reference_py.position import Position

CODE = {"A": ADVISOR, "E": ELEPHANT, "H": HORSE, "R": ROOK, "C": CANNON, "P": PAWN}
# the strong side's pieces besides its king: every row of the scale table
STRONG = ("R", "H", "C", "CE", "CA", "CAA", "P", "PP", "PPP", "RA", "HP", "CP", "RP", "HH", "RC",
          "RAAEE", "HAE", "", "AE")
DEFENCE = ("", "A", "AA", "E", "AE", "AAE", "EE", "AEE", "AAEE")


def random_position(strong: str, weak: str, rng: random.Random) -> Position:
    """A legal position: `strong` (letters of CODE) for one side, `weak` for
    the other, each with its king, the side to move at random."""
    while True:
        strong_side = rng.choice((RED, BLACK))
        occ: dict[tuple[int, int], tuple[int, int]] = {}
        ok = True
        for side, spec in ((strong_side, "K" + strong), (strong_side ^ 1, "K" + weak)):
            for ch in spec:
                kind = KING if ch == "K" else CODE[ch]
                for _ in range(300):
                    f, r = rng.randrange(9), rng.randrange(10)
                    if (f, r) not in occ and _can_stand(side, kind, f, r):
                        occ[(f, r)] = (side, kind)
                        break
                else:
                    ok = False
        if not ok:
            continue
        side = rng.choice((RED, BLACK))
        pos = Position()
        pos.set_pieces({square(f, r): occ[(f, r)] for r in range(9, -1, -1) for f in range(9) if (f, r) in occ},
                       side)
        if not pos.in_check(side ^ 1) and pos.legal_moves():   # (as parse_fen refuses the first)
            return pos


def endgame_positions(n: int, seed: int = 2026) -> list[Position]:
    """n positions: bare sides against every signature of STRONG, and near
    positions (the weak side keeps one pawn, horse or cannon)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        strong = STRONG[i % len(STRONG)]
        weak = rng.choice(DEFENCE)
        if i % 5 == 4:
            weak += rng.choice("PHC")
        out.append(random_position(strong, weak, rng))
    return out


def horse_positions(men: str, n: int, seed: int = 2027) -> list[Position]:
    """n positions of exactly king + horse against king + `men` ("E": one
    elephant, "AA": two advisors; a bitbase's class: reference_py/bitbase.py),
    either colour the horse's, either side to move."""
    rng = random.Random(seed)
    return [random_position("H", men, rng) for _ in range(n)]


# Two positions of the suite's H_vs_E.2 and H_vs_E.4 endings (bench/endgames.yaml)
# where a depth-8 search of the elephant side, without the bitbase, chose a move
# into a lost position (a stalemate about 23 plies on): the FEN and that move.
LOSING_MOVES = (("5k3/6N2/4b4/9/9/9/9/4K4/9/9 b - - 51 1", "e7g9"),
                ("9/4k4/9/9/9/9/9/3nB4/5K3/9 w - - 108 1", "f1e1"))
