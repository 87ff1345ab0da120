"""Check every book move with Fairy-Stockfish.

The rule (config/book.yaml, `check`): Fairy-Stockfish searches each book
position to `depth` for its best move; that move and the position's other
book moves are then searched together to the same depth (`go depth D
searchmoves MOVE ...` with one MultiPV line per move), so that their
scores come from one tree.  A book move's loss is the best move's score
minus its own in that search, in centipawns for the side to move (never
below 0; 0 for the best move, and for a position whose only book move is
the best: no second search).  Moves that lose more than
`max_loss_cp` fail: they are reported with their lines and left out of
the data.

Positions are checked in the order the lines of config/book.yaml reach
them, so consecutive searches are of neighbouring positions and the
engine's hash, kept from one search to the next, saves nodes; a check
stopped part-way has covered the first lines of the file.
"""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from .engine import Cache, Engine, Result, multipv_key
from .source import CheckRule
from .tree import Node, Tree


@dataclass(frozen=True)
class Verdict:
    """How one book move fared against the engine's best move."""
    fen: str
    move: str
    loss_cp: int
    best: str                   # the engine's best move
    best_score: int             # its score, for the side to move
    score: int                  # the book move's score, likewise

    def passed(self, rule: CheckRule) -> bool:
        return self.loss_cp <= rule.max_loss_cp


class Missing(Exception):
    """A result that is not in the cache, when the engine may not run."""


class Checker:
    """Search results from the cache, or from the engine when one is given."""

    def __init__(self, cache: Cache, engine_id: str, engine: Engine | None) -> None:
        self.cache = cache
        self.engine_id = engine_id
        self.engine = engine
        self.searches = 0
        self.used: set[tuple[str, str, str | None, int]] = set()   # keys the verdicts rest on

    def result(self, fen: str, depth: int) -> Result:
        """The engine's best move in `fen` and its score."""
        got = self.cache.get(self.engine_id, fen, None, depth)
        self.used.add((self.engine_id, fen, None, depth))
        if got is not None:
            return got
        if self.engine is None:
            raise Missing(fen)
        got = self.engine.search(fen, depth)
        self.cache.add(got)
        self.searches += 1
        return got

    def multipv(self, fen: str, depth: int, k: int) -> Result:
        """A MultiPV search of `fen` with `k` lines."""
        key = multipv_key(k)
        got = self.cache.get(self.engine_id, fen, key, depth)
        self.used.add((self.engine_id, fen, key, depth))
        if got is not None:
            return got
        if self.engine is None:
            raise Missing(fen)
        got = self.engine.search_multipv(fen, depth, k)
        self.cache.add(got)
        self.searches += 1
        return got

    def scores(self, fen: str, moves: list[str], depth: int) -> dict[str, int]:
        """The scores of `moves` in `fen`; those not cached are searched
        together, one MultiPV line each."""
        got = {m: self.cache.get(self.engine_id, fen, m, depth) for m in moves}
        self.used.update((self.engine_id, fen, m, depth) for m in moves)
        todo = [m for m, r in got.items() if r is None]
        if todo:
            if self.engine is None:
                raise Missing(fen)
            for m, r in self.engine.search_moves(fen, depth, todo).items():
                self.cache.add(r)
                got[m] = r
            self.searches += 1
        return {m: r.score for m, r in got.items() if r is not None}

    def judge(self, fen: str, moves: list[str], rule: CheckRule) -> dict[str, Verdict]:
        """A verdict for each book move of a position."""
        best = self.result(fen, rule.depth)
        others = [m for m in moves if m != best.best]
        if not others:
            return {best.best: Verdict(fen, best.best, 0, best.best, best.score, best.score)}
        # the best move and the other book moves in one search, so that
        # their scores come from the same tree
        scores = self.scores(fen, [best.best] + others, rule.depth)
        top = scores[best.best]
        return {m: Verdict(fen, m, max(0, top - scores[m]), best.best, top, scores[m]) for m in moves}


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
            got = checker.judge(node.fen, sorted(node.moves), rule)
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


def fill_cache(tree: Tree, make_checker: Callable[[], Checker], jobs: int,
               log: TextIO | None = sys.stderr) -> None:
    """Search the positions the check needs with `jobs` engines at once.

    The positions are cut into `jobs` runs of consecutive positions (so each
    engine's hash still serves neighbours) and every engine fills the shared
    cache; the sequential check that follows then finds every result there.
    A result depends on the engine's hash, that is on the positions searched
    before it, so a parallel fill gives results a serial one need not: the
    cache records which were used, and the data is made from the cache.
    """
    nodes = order(tree)
    rule = tree.book.check
    run_parallel(nodes, jobs, make_checker, lambda checker, node: checker.judge(node.fen, sorted(node.moves), rule),
                 lambda checker, n, total: f"{n}/{total} positions, {checker.searches} searches", log)


def run_parallel(items: list, jobs: int, make_checker: Callable[[], Checker],
                 work: Callable[[Checker, object], object], progress: Callable[[Checker, int, int], str],
                 log: TextIO | None) -> None:
    """`work(checker, item)` for every item, with `jobs` engines at once, each
    on a run of consecutive items (so its hash still serves neighbours); a
    line of `progress` every 50 items; the first error is raised after all
    engines stop."""
    size = -(-len(items) // jobs) if items else 1
    errors: list[BaseException] = []

    def run(part: list, name: str) -> None:
        checker = make_checker()
        try:
            for n, item in enumerate(part, start=1):
                work(checker, item)
                if log is not None and n % 50 == 0:
                    log.write(f"{name}: {progress(checker, n, len(part))}\n")
                    log.flush()
        except BaseException as exc:           # reported by the caller
            errors.append(exc)
        finally:
            if checker.engine is not None:
                checker.engine.close()

    threads = [threading.Thread(target=run, args=(items[i:i + size], f"engine {i // size + 1}"))
               for i in range(0, len(items), size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
