"""Independent search oracles for the reference search's tests.

Only the rules (legal moves, make/unmake, in_check: cross-checked against
Fairy-Stockfish by tests/test_ref_oracle.py) and the static evaluation are
shared with reference_py/search.py; the search itself is written again here
in its plainest form, from docs/ENGINE.md's text:

  mates_in(pos, n)  the moves that force a mate (no legal reply: checkmate
                    or stalemate, both lose) within n moves, by brute force;
  minimax(...)      the value of the specified search tree without any
                    pruning, ordering or window: every legal move at every
                    node, quiescence with stand pat, the draw rules and the
                    mate scores of the specification.  With pruning off,
                    alpha-beta must return exactly this value.
"""
from __future__ import annotations

from dataclasses import dataclass

from reference_py.evaluate import EvalTables, evaluate
from reference_py.position import Position

MATE = 30000          # docs/ENGINE.md "Mate scores"
MAX_PLY = 16          # docs/ENGINE.md "Capacities"
DRAW_PLIES = 120      # docs/ENGINE.md "Game rules"


def _legal(pos: Position) -> list[int]:
    out = []
    for m in pos.generate():
        pos.make(m)
        if not pos.in_check(pos.side ^ 1):
            out.append(m)
        pos.unmake()
    return out


def mates_in(pos: Position, n: int) -> list[int]:
    """The side to move's moves after which every line ends with the
    opponent unable to move within n moves of ours (n >= 1)."""
    out = []
    for m in _legal(pos):
        pos.make(m)
        if _forced(pos, n - 1):
            out.append(m)
        pos.unmake()
    return out


def _forced(pos: Position, n: int) -> bool:
    """Is the side to move (the defender) lost within n more moves of the attacker?"""
    replies = _legal(pos)
    if not replies:
        return True
    if n == 0:
        return False
    for r in replies:
        pos.make(r)
        ok = bool(mates_in(pos, n))
        pos.unmake()
        if not ok:
            return False
    return True


@dataclass
class Spec:
    """What the plain search needs from a level and the configuration."""
    tables: EvalTables
    qdepth: int
    perpetual_check: int
    check_ext: int = 0        # the check extension's reach (docs/ENGINE.md Search step 6)
    reach: int = MAX_PLY      # the level's depth + qdepth: a quiescence node there is a leaf


def _draw(pos: Position, ply: int, spec: Spec) -> int | None:
    """docs/ENGINE.md Search step 1, from its text (repetition, then the limit)."""
    keys, checks, clock = pos.keys, pos.checks, pos.clock
    n = len(keys) - 1
    for k in range(4, min(clock, n) + 1, 2):
        if keys[n - k] == keys[n]:
            mover_all = all(checks[n - j] for j in range(0, k, 2))
            other_all = all(checks[n - j] for j in range(1, k, 2))
            if mover_all and not other_all:
                return spec.perpetual_check
            if other_all and not mover_all:
                return -spec.perpetual_check
            return 0
    if clock >= DRAW_PLIES:
        return 0 if _legal(pos) else -MATE + ply
    return None


def minimax(pos: Position, depth: int, spec: Spec, ply: int = 0) -> int:
    """The negamax value of the main search to `depth` (then quiescence)."""
    in_check = pos.in_check(pos.side)
    if ply > 0:
        d = _draw(pos, ply, spec)
        if d is not None:
            return d
    if depth <= 0:
        return _quiesce(pos, spec, ply, 0, in_check)
    moves = _legal(pos)
    if not moves:
        return -MATE + ply
    best = -10 ** 9
    for m in moves:
        pos.make(m)
        gives_check = pos.in_check(pos.side)
        pos.push_history(gives_check)
        child = depth if gives_check and ply + depth < spec.check_ext else depth - 1
        best = max(best, -minimax(pos, child, spec, ply + 1))
        pos.pop_history()
        pos.unmake()
    return best


def _quiesce(pos: Position, spec: Spec, ply: int, qply: int, in_check: bool) -> int:
    if qply >= spec.qdepth or ply >= spec.reach:
        return evaluate(pos, spec.tables)
    if in_check:
        best = None
        for m in _legal(pos):
            pos.make(m)
            v = -_quiesce(pos, spec, ply + 1, qply + 1, pos.in_check(pos.side))
            pos.unmake()
            best = v if best is None else max(best, v)
        return -MATE + ply if best is None else best
    best = evaluate(pos, spec.tables)              # stand pat
    for m in _legal(pos):
        if not pos.is_capture(m):
            continue
        pos.make(m)
        best = max(best, -_quiesce(pos, spec, ply + 1, qply + 1, pos.in_check(pos.side)))
        pos.unmake()
    return best
