"""What an engine back-end offers the protocol session, and what it reports.

A back-end searches one position at one difficulty level; the session
owns the protocol, the clock and the threads.  Moves cross this boundary
as ICCS text (ranks 0-9), whatever the client's convention.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

from ..config import Level
from ..position import Position


@dataclass
class Request:
    """One search: `pos` carries the game's history (repetition keys)."""
    pos: Position
    level: Level
    seed: int
    depth: int | None = None          # stop after this iteration (<= the level's depth)
    nodes: int | None = None          # stop at this many nodes (<= the level's cap)
    exclude: frozenset[str] = frozenset()   # root moves not to play (banmoves, searchmoves)
    book: bool = True                 # the opening book, within the level's book plies


@dataclass
class Report:
    """A completed iteration (or the final answer): an `info` line."""
    depth: int
    score: int
    nodes: int
    pv: list[str] = field(default_factory=list)
    nes_cycles: int | None = None     # the ROM's 6502 cycles so far
    nes_seconds: float | None = None  # ... as NES time


@dataclass
class Answer:
    """The search's result: `move` None when there is nothing to play."""
    move: str | None
    score: int
    depth: int
    nodes: int
    pv: list[str] = field(default_factory=list)
    nes_cycles: int | None = None
    nes_seconds: float | None = None
    notes: list[str] = field(default_factory=list)   # said to the client as `info string`


class Backend(Protocol):
    """An engine behind the protocol."""

    name: str

    def prepare(self) -> None:
        """Load what the first search needs (called by `isready` and `go`)."""

    def search(self, request: Request, should_stop: Callable[[], bool],
               report: Callable[[Report], None]) -> Answer:
        """Search; `should_stop()` turns true on `stop` or when the clock
        runs out, and the search then answers with its last completed
        iteration as soon as it can; `report` hears each completed one."""
