"""The reference engine (reference_py.search) behind the UCI/UCCI session."""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..board import move_iccs
from ..search import SearchResult, Searcher
from .backend import Answer, Report, Request


class ReferenceBackend:
    """reference_py's Searcher: `go depth/nodes` lower the level's own
    limits exactly (the level with a smaller depth or node cap), `stop` and
    the clock end it through Searcher's should_stop hook."""

    name = "NES Xiangqi reference engine"

    def prepare(self) -> None:
        pass

    def search(self, request: Request, should_stop: Callable[[], bool],
               report: Callable[[Report], None]) -> Answer:
        level = request.level
        if request.depth is not None:
            level = dataclasses.replace(level, depth=max(1, min(level.depth, request.depth)))
        if request.nodes is not None:
            level = level.limited(request.nodes)
        pos = request.pos.copy()
        exclude = [m for m in pos.legal_moves() if move_iccs(m) in request.exclude]

        def on_iteration(r: SearchResult) -> None:
            report(Report(r.depth, r.score, r.nodes, [move_iccs(m) for m in r.pv]))

        result = Searcher(pos, level, seed=request.seed, should_stop=should_stop,
                          on_iteration=on_iteration, exclude=exclude, book=request.book).run()
        answer = Answer(move_iccs(result.move) if result.move else None, result.score, result.depth,
                        result.nodes, [move_iccs(m) for m in result.pv])
        if result.book:
            answer.notes.append(f"book move ({result.book})")
        return answer
