"""Perft: count leaf nodes of the legal move tree (rules correctness check)."""
from __future__ import annotations

from .position import Position


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for m in pos.generate():
        pos.make(m)
        if not pos.in_check(pos.side ^ 1):
            total += 1 if depth == 1 else perft(pos, depth - 1)
        pos.unmake()
    return total


def perft_divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    """(move, count) per legal root move, in generation order."""
    pos.rebuild()
    out = []
    for m in pos.legal_moves():
        pos.make(m)
        out.append((m, perft(pos, depth - 1)))
        pos.unmake()
    return out
