"""The one exception type of the toolchain.

Every problem the assembler or linker finds is reported as an ``AsmError``
carrying the source position, so the CLI can print a clean one-line
``file:line:col: error: message`` and library users can catch one type.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """A source position (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class AsmError(Exception):
    """An assembly or link error, optionally tied to a source position."""

    def __init__(self, message: str, pos: Pos | None = None):
        self.message = message
        self.pos = pos
        self.file = pos.file if pos else None
        self.line = pos.line if pos else None
        self.col = pos.col if pos else None
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if self.pos is None:
            return f"error: {self.message}"
        return f"{self.pos}: error: {self.message}"


class AreaOverflow(AsmError):
    """A memory area too small for the segments the config puts in it: the
    area, the bytes that do not fit and the segment that crossed its end
    (for callers that explain the overflow in their own terms)."""

    def __init__(self, message: str, pos: Pos | None, area: str, excess: int, segment: str):
        super().__init__(message, pos)
        self.area = area
        self.excess = excess
        self.segment = segment
