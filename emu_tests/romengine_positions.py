"""Seeded positions for the ROM-vs-reference tests, with their categories.

Positions come from random games (seeded, so every run tests the same
ones) started from the opening and from the perft-suite positions; moves
are chosen at random among the legal ones with captures and checks
preferred, so games reach endgames, checks, pins and mates.  A few
hand-written positions make sure every category is present.
"""
from __future__ import annotations

import random
from pathlib import Path

from reference_py.board import CANNON, KING, WIDTH
from reference_py.fen import START_FEN, parse_fen
from reference_py.position import Position

SUITE = Path("/work/shared/positions/perft.txt")
EXTRA_FENS = [
    # Red is checkmated by two rooks
    "3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1",
    # Red has no legal move and is not in check (stalemate: a loss in xiangqi)
    "5k3/4r4/9/9/9/9/9/9/8r/3K5 w - - 0 1",
    # flying-general pins and cannon screens
    "4k4/9/9/9/4c4/9/4R4/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4C4/4K1c2 b - - 0 1",
    # cannon checks over a screen, along a file and along a rank
    "4k4/9/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/c2AK4 w - - 0 1",
]


def suite_fens() -> list[str]:
    fens = [START_FEN]
    if SUITE.exists():
        for raw in SUITE.read_text().splitlines():
            line = raw.split("#", 1)[0].strip()
            if ";" in line:
                fens.append(line.split(";", 1)[0].strip())
    return fens


def kings_face(pos: Position) -> bool:
    r, b = pos.piece_sq[0], pos.piece_sq[16]
    if not r or not b or (r - b) % WIDTH:
        return False
    lo, hi = sorted((r, b))
    return all(pos.board[s] == 0 for s in range(lo + WIDTH, hi, WIDTH))


def cannon_checks(pos: Position, side: int) -> bool:
    """Does an enemy cannon attack side's king over exactly one screen?"""
    k = pos.piece_sq[side << 4]
    for i in range(16):
        e = ((side ^ 1) << 4) | i
        sq = pos.piece_sq[e]
        if not sq or pos.piece_kind[e] != CANNON or (sq - k) % WIDTH and (sq - 1) // WIDTH != (k - 1) // WIDTH:
            continue
        step = WIDTH if (sq - k) % WIDTH == 0 else 1
        lo, hi = sorted((sq, k))
        if sum(1 for s in range(lo + step, hi, step) if pos.board[s]) == 1:
            return True
    return False


def categories(pos: Position) -> set[str]:
    """Which of the interesting cases a position shows (reference only)."""
    cats = set()
    side = pos.side
    if pos.in_check(side):
        cats.add("check")
        if cannon_checks(pos, side):
            cats.add("cannon_screen_check")
    legal = 0
    for m in pos.generate():
        frm, to = m & 0xFF, m >> 8
        code = pos.board[frm]
        kind = pos.piece_kind[(code & 0x0F) | (side << 4)]
        if kind == CANNON and pos.board[to]:
            cats.add("cannon_capture")
        pos.make(m)
        illegal = pos.in_check(side)
        if illegal:
            if kings_face(pos):
                cats.add("flying_general")
            if kind != KING and "check" not in cats:
                cats.add("pin")
        else:
            legal += 1
        pos.unmake()
    if legal == 0:
        cats.add("no_legal_moves")
    return cats


def positions(count: int = 520, seed: int = 2024) -> list[Position]:
    """`count` positions from seeded random games plus EXTRA_FENS."""
    rng = random.Random(seed)
    out: list[Position] = [parse_fen(f) for f in EXTRA_FENS]
    starts = suite_fens()
    while len(out) < count:
        pos = parse_fen(rng.choice(starts))
        for ply in range(rng.randrange(20, 160)):
            legal = pos.legal_moves()
            if not legal:
                break
            captures = [m for m in legal if pos.board[m >> 8]]
            pool = captures if captures and rng.random() < 0.6 else legal
            m = rng.choice(pool)
            pos.make(m)
            if ply % 7 == 3 or not pos.legal_moves():
                snap = pos.copy()
                snap.undo = []
                out.append(snap)
    return out[:count]
