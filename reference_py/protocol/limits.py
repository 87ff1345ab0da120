"""A `go` command's limits, and how long the search may take.

The difficulty level defines the search (its depth and node cap, exactly as
the cartridge plays it); a `go` can only shorten it: `depth` and `nodes`
below the level's, a clock, or `stop`.  With no clock the search runs to
the level's end, so an adapter plays the level's exact moves.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MOVES_TO_GO = 30          # moves assumed left when a clock gives no `movestogo`
OVERHEAD = 0.05           # seconds kept for the protocol's round trip
MIN_BUDGET = 0.01


@dataclass
class Limits:
    """Times in seconds.  `my_*` is the side to move's clock."""
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    my_time: float | None = None
    my_inc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)

    def budget(self) -> float | None:
        """Seconds this move may take (None: no clock, the level decides)."""
        if self.movetime is not None:
            return max(MIN_BUDGET, self.movetime - OVERHEAD)
        if self.my_time is None:
            return None
        togo = self.movestogo if self.movestogo and self.movestogo > 0 else MOVES_TO_GO
        share = self.my_time / togo + 0.75 * self.my_inc
        return max(MIN_BUDGET, min(share, 0.5 * self.my_time) - OVERHEAD)
