"""Check every book move with Fairy-Stockfish.

The rule (config/book.yaml, `check`): in each position the engine searches
all moves to `depth`; a book move that is not its best move is searched
alone (`go depth D searchmoves MOVE`).  The move's loss is the best move's
score minus the book move's, in centipawns for the side to move, never
below 0.  A move that loses more than `max_loss_cp` is searched again, with
the best move, at `recheck_depth`, and that deeper result decides.  Moves
that still lose too much fail: they are reported with their lines and left
out of the data.

Positions are checked in the order the lines of config/book.yaml first
reach them, so consecutive searches are of neighbouring positions and the
engine's hash, kept from one search to the next, saves about 40% of the
nodes; a check stopped part-way has covered the first lines of the file.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TextIO

from .engine import Cache, Engine, Result
from .source import CheckRule
from .tree import Node, Tree


@dataclass(frozen=True)
class Verdict:
    """How one book move fared against the engine's best move."""
    fen: str
    move: str
    loss_cp: int
    depth: int                  # the depth that decided
    best: str                   # the engine's best move at that depth
    best_score: int
    score: int                  # the book move's score

    def passed(self, rule: CheckRule) -> bool:
        return self.loss_cp <= rule.max_loss_cp


class Missing(Exception):
    """A result that is not in the cache, when the engine may not run."""


class Checker:
    """Results from the cache, or from the engine when one is given."""

    def __init__(self, cache: Cache, engine_id: str, engine: Engine | None) -> None:
        self.cache = cache
        self.engine_id = engine_id
        self.engine = engine
        self.searches = 0

    def result(self, fen: str, move: str | None, depth: int) -> Result:
        got = self.cache.get(self.engine_id, fen, move, depth)
        if got is not None:
            return got
        if self.engine is None:
            raise Missing(fen)
        got = self.engine.search(fen, depth, move)
        self.cache.add(got)
        self.searches += 1
        return got

    def judge(self, fen: str, move: str, rule: CheckRule) -> Verdict:
        v = self._at(fen, move, rule.depth)
        if v.loss_cp > rule.max_loss_cp and rule.recheck_depth > rule.depth:
            v = self._at(fen, move, rule.recheck_depth)
        return v

    def _at(self, fen: str, move: str, depth: int) -> Verdict:
        best = self.result(fen, None, depth)
        if best.best == move:
            return Verdict(fen, move, 0, depth, best.best, best.score, best.score)
        alone = self.result(fen, move, depth)
        return Verdict(fen, move, max(0, best.score - alone.score), depth, best.best,
                       best.score, alone.score)


@dataclass
class Progress:
    checked: int = 0            # positions whose every move has a verdict
    searched: int = 0           # of those, positions that needed new searches
    missing: int = 0            # positions without results (cache-only runs)
    seconds: float = 0.0        # wall time spent in new searches


def order(tree: Tree) -> list[Node]:
    """Positions with book moves, in the order the lines first reach them."""
    return [n for n in tree.nodes.values() if n.moves]


def check_tree(tree: Tree, checker: Checker, log: TextIO | None = sys.stderr,
               every: int = 25) -> tuple[dict[tuple[str, str], Verdict], Progress]:
    """A verdict for every book move that has (or can get) engine results."""
    rule = tree.book.check
    verdicts: dict[tuple[str, str], Verdict] = {}
    progress = Progress()
    nodes = order(tree)
    for n, node in enumerate(nodes, start=1):
        before = checker.searches
        t0 = time.monotonic()
        try:
            got = {m: checker.judge(node.fen, m, rule) for m in sorted(node.moves)}
        except Missing:
            progress.missing += 1
            continue
        verdicts.update({(node.fen, m): v for m, v in got.items()})
        progress.checked += 1
        if checker.searches > before:
            progress.searched += 1
            progress.seconds += time.monotonic() - t0
            if log is not None and progress.searched % every == 0:
                _report(log, n, len(nodes), node, progress)
    return verdicts, progress


def _report(log: TextIO, n: int, total: int, node: Node, p: Progress) -> None:
    rate = p.searched / p.seconds * 3600 if p.seconds else 0.0
    left = (total - n) / rate if rate else 0.0
    log.write(f"[{n}/{total}] ply {node.ply}: {p.searched} positions searched in "
              f"{p.seconds / 60:.1f} min ({rate:.0f}/hour), at most {left:.1f} h left\n")
    log.flush()


