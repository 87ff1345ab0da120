"""Extend the book with Fairy-Stockfish's own moves (config/book.yaml, `extend`).

The source lines end, and some of their moves fail the check; the engine
carries the book on.  Starting from the start position, every position the
book reaches (by source moves that pass the check, or by engine moves) is
visited once, nearest first, where a position's distance is 0 if a source
line reaches it and otherwise one more than that of the position whose
engine move first reached it:

  - a source position with book moves keeps those that pass, and the
    engine's best move (the check's own search, already in the cache) is
    added to them if no line plays it: where every source move fails, it
    keeps the line alive;
  - any other position (the end of a source line, or one reached by engine
    moves only) at distance below `plies` is searched to the check's depth
    with `multipv` lines, and every line whose score is within the check's
    max_loss_cp of the first line's gives a book move, with that loss; at
    most `positions` positions are searched, nearest first (by distance,
    then by plies from the start, then by FEN), which bounds the book's size.

Engine moves weigh `weight` (the human lines' weights are at least 1 and
grow with their quality factor), and a position reached by engine moves
only is named after the opening of the position it was first reached from.
Every search goes through the cache (tools/book/engine.py), so with a warm
cache the extension needs no engine and is the same on every run.
"""
from __future__ import annotations

import heapq
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from reference_py.fen import parse_fen
from reference_py.notation import parse_iccs

from .check import Checker, Missing, Verdict, run_parallel
from .tree import Tree, canonical, canonical_move, position_fen


@dataclass(frozen=True)
class EngineMove:
    move: str                   # in the position's canonical orientation
    loss_cp: int                # against the engine's best move (0 for it)
    weight: int


@dataclass
class Extension:
    moves: dict[str, dict[str, EngineMove]] = field(default_factory=dict)   # fen -> engine moves
    openings: dict[str, int] = field(default_factory=dict)   # positions outside the source
    reached: list[str] = field(default_factory=list)   # positions with a book move, in visit order
    missing: list[str] = field(default_factory=list)   # positions still to search (cache-only)

    def from_source(self, tree: Tree) -> list[str]:
        return [f for f in self.reached if f in tree.nodes and tree.nodes[f].moves]

    def from_engine(self, tree: Tree) -> list[str]:
        return [f for f in self.reached if not (f in tree.nodes and tree.nodes[f].moves)]


def _child(fen: str, move: str) -> str:
    pos = parse_fen(fen)
    pos.make(parse_iccs(pos, move))
    return canonical(position_fen(pos))[0]


def _engine_moves(fen: str, lines: tuple[tuple[str, int], ...], max_loss: int,
                  weight: int) -> dict[str, EngineMove]:
    """The lines of a MultiPV search within `max_loss` of the first, as book
    moves in the canonical orientation (a move and its mirror image in a
    symmetric position are one move, the better line's)."""
    pos = parse_fen(fen)
    top = lines[0][1]
    out: dict[str, EngineMove] = {}
    for move, score in lines:
        loss = max(0, top - score)
        if loss > max_loss:
            continue
        cmove = canonical_move(pos, move)[1]
        if cmove not in out:
            out[cmove] = EngineMove(cmove, loss, weight)
    return out


def extend(tree: Tree, verdicts: dict[tuple[str, str], Verdict], checker: Checker) -> Extension:
    """The engine moves of the book (empty without an `extend` rule).

    Positions whose search is neither in the cache nor possible (no engine)
    are listed in `missing` and not followed."""
    rule, check = tree.book.extend, tree.book.check
    ext = Extension()
    if rule is None:
        return ext
    best_seen = {tree.root: (0, 0)}      # (distance, ply) of each position reached
    heap = [(0, 0, tree.root)]
    done: set[str] = set()
    searched = 0
    missing_at: int | None = None        # the distance of the first missing search
    while heap:
        d, ply, fen = heapq.heappop(heap)
        if fen in done:
            continue
        done.add(fen)
        node = tree.nodes.get(fen)
        follow: list[str] = []
        if node is not None and node.moves:
            follow = [m for m in sorted(node.moves)
                      if (fen, m) in verdicts and verdicts[(fen, m)].passed(check)]
            if all((fen, m) in verdicts for m in node.moves):     # the check has searched it
                best = checker.result(fen, check.depth).best
                best = canonical_move(parse_fen(fen), best)[1]    # as the lines store it
                if best not in node.moves:
                    ext.moves[fen] = {best: EngineMove(best, 0, rule.weight)}
                    follow.append(best)
        elif d < rule.plies and searched < rule.positions:
            searched += 1
            if missing_at is not None and d > missing_at:
                continue        # which positions come next depends on the missing ones
            try:
                got = checker.multipv(fen, check.depth, rule.multipv)
            except Missing:
                ext.missing.append(fen)
                missing_at = d
                continue
            ext.moves[fen] = _engine_moves(fen, got.lines, check.max_loss_cp, rule.weight)
            follow = sorted(ext.moves[fen])
        if not follow:
            continue
        ext.reached.append(fen)
        opening = tree.opening_of(node) if node is not None else ext.openings[fen]
        for move in follow:
            child = _child(fen, move)
            cd = 0 if child in tree.nodes else d + 1
            if child not in tree.nodes and child not in ext.openings:
                ext.openings[child] = opening
            seen = (cd, ply + 1)
            if child not in done and seen < best_seen.get(child, (rule.plies + 1, 0)):
                best_seen[child] = seen
                heapq.heappush(heap, (cd, ply + 1, child))
    return ext


def fill_cache(fens: list[str], make_checker: Callable[[], Checker], jobs: int, depth: int,
               k: int, log: TextIO | None = sys.stderr) -> None:
    """Run the MultiPV searches of `fens` with `jobs` engines at once, each
    on a run of consecutive positions (see check.fill_cache)."""
    run_parallel(fens, jobs, make_checker, lambda checker, fen: checker.multipv(fen, depth, k),
                 lambda checker, n, total: f"{n}/{total} positions past the source", log)
