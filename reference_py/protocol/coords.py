"""Move text as a client writes it.

The project's moves are ICCS (files a-i, ranks 0-9 from Red's side), which
is also what Pikafish, UCCI engines and XBoard (through uci2wb) use.
Fairy-Stockfish and the clients that talk to it with `UCI_Variant xiangqi`
number the ranks 1-10 instead.  A session keeps one convention for its
output; in `auto` mode it follows the evidence of what the client sends (a
rank 0 or a rank 10 can only be one of them) and the client's use of
`UCI_Variant` (see session.py).
"""
from __future__ import annotations

import re

from ..notation import NotationError

MOVE_RE = re.compile(r"([a-i])(\d{1,2})([a-i])(\d{1,2})")


class Coordinates:
    """The rank numbering of one client: `base` 0 (ranks 0-9) or 1 (1-10)."""

    def __init__(self, base: int = 0, fixed: bool = False) -> None:
        self.base = base
        self.fixed = fixed          # a client's explicit choice: no guessing

    @property
    def name(self) -> str:
        return "1-10" if self.base else "0-9"

    def set(self, choice: str) -> None:
        """The `Ranks` option: 'auto', '0-9' or '1-10'."""
        if choice == "auto":
            self.fixed = False
        elif choice in ("0-9", "1-10"):
            self.base, self.fixed = (1 if choice == "1-10" else 0), True
        else:
            raise ValueError(f"Ranks must be auto, 0-9 or 1-10, not '{choice}'")

    def prefer(self, base: int) -> None:
        """A hint from the client's dialect (not evidence from a move)."""
        if not self.fixed:
            self.base = base

    def observe(self, text: str) -> None:
        """Learn the convention from a move that can only be read one way."""
        m = MOVE_RE.fullmatch(text)
        if self.fixed or not m:
            return
        ranks = (int(m.group(2)), int(m.group(4)))
        if 0 in ranks:
            self.base = 0
        elif 10 in ranks:
            self.base = 1

    def to_iccs(self, text: str) -> str:
        """Client text to ICCS, or NotationError naming what is wrong."""
        m = MOVE_RE.fullmatch(text)
        lo, hi = self.base, self.base + 9
        if not m:
            raise NotationError(f"'{text}' is not a move: expected a file a-i and a rank {lo}-{hi}, twice "
                                f"(like {self.to_client('h2e2')})")
        ranks = (int(m.group(2)), int(m.group(4)))
        for r in ranks:
            if not lo <= r <= hi:
                raise NotationError(f"'{text}': rank {r} is outside {lo}-{hi} (ranks {self.name})")
        return f"{m.group(1)}{ranks[0] - self.base}{m.group(3)}{ranks[1] - self.base}"

    def to_client(self, iccs: str) -> str:
        """ICCS to the client's text."""
        if not self.base:
            return iccs
        return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"
