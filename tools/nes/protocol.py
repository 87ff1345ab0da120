"""The ROM's 6502 engine behind the UCI/UCCI session (reference_py/protocol).

`python -m tools.romengine uci|ucci` makes the cartridge's exact play
available to any xiangqi GUI: every search is eng_search on py65
(tools/nes/search.py), with the same position, history, level and seed as
`python -m tools.romengine search`, so it answers the same move.  The NES
time the cartridge would think (the 6502 cycles at 1.789773 MHz) is
reported after each iteration and with the answer.

How `stop`, the clock and `go depth/nodes` reach the 6502 code: between two
py65 instruction chunks the poll reads the search's progress and, to stop
it, sets s_abort, the flag the level's node cap sets: the search unwinds
and answers exactly as at the cap (docs/ENGINE.md "Nodes").  `go depth N`
and `go nodes N` lower the level's depth and node caps exactly, as the
reference's adapter does (Level.limited): the level's entries of the ROM's
lvl_depth, lvl_nodes and lvl_sparse_lo/hi tables read as the lower values
during that search (in py65's copy of the cartridge only; RomSearch.search).

`banmoves` and `searchmoves`: the cartridge's search cannot leave out a
root move.  When its move is one the client excluded, the answer is the
reference search's with the exclusion (the reference is the ROM's
specification, move for move), and an `info string` says so.
"""
from __future__ import annotations

from typing import Callable

from reference_py.protocol.backend import Answer, Report, Request
from reference_py.protocol.reference import ReferenceBackend
from tools.nes.search import RomSearch
from tools.nes.timing import NES_HZ



class RomBackend:
    """One RomSearch (one py65 6502 with the cartridge) for the session."""

    name = "NES Xiangqi ROM engine (6502 under py65)"

    def __init__(self) -> None:
        self.rom: RomSearch | None = None

    def prepare(self) -> None:
        if self.rom is None:
            self.rom = RomSearch()          # builds the ROM first if it is stale

    def search(self, request: Request, should_stop: Callable[[], bool],
               report: Callable[[Report], None]) -> Answer:
        self.prepare()
        rom = self.rom
        assert rom is not None
        seen = {"depth": 0}
        stopping = False

        def poll(cycles: int) -> None:
            nonlocal stopping
            if not rom.settled():
                return
            depth = rom.byte("s_res_depth")
            if depth > seen["depth"]:
                seen["depth"] = depth
                r = rom.result()
                report(Report(depth, r["score"], r["nodes"], r["pv"], cycles, round(cycles / NES_HZ, 3)))
            stopping = stopping or should_stop()
            if stopping:
                rom.request_stop()          # again at every poll: eng_search's start clears s_abort

        level = request.level
        depth = None if request.depth is None else max(1, min(level.depth, request.depth))
        nodes = sparse_nodes = None
        if request.nodes is not None:
            limited = level.limited(request.nodes)
            nodes = limited.nodes
            sparse_nodes = limited.sparse.nodes if limited.sparse else None
        res = rom.search(request.pos, level.name, request.seed, poll=poll, book=request.book,
                         depth=depth, nodes=nodes, sparse_nodes=sparse_nodes)
        answer = Answer(res["move"], res["score"], res["depth"], res["nodes"], res["pv"],
                        res["cycles"], res["seconds"])
        if res.get("book"):
            answer.notes.append(f"book move ({res['book']})")
        if answer.move is not None and answer.move in request.exclude:
            ref = ReferenceBackend().search(request, should_stop, lambda r: None)
            ref.notes.append(f"the cartridge's search chose {answer.move}, which the client excluded, and cannot "
                             f"leave a move out: this is the reference search's move without it")
            ref.nes_cycles, ref.nes_seconds = answer.nes_cycles, answer.nes_seconds
            return ref
        return answer


