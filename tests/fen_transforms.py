"""FEN string transforms for property tests, written on the FEN text alone
(no reference_py code), so a bug in the engine's own board code cannot hide
in them.

  colour_flip: the board turned 180 degrees with the colours swapped and the
               other side to move: the same game seen from the other chair;
  mirror:      files a..i reflected to i..a, nothing else changed.
Both keep the clock and the move number.
"""
from __future__ import annotations


def _rows(fen: str) -> tuple[list[list[str]], list[str]]:
    """The ten ranks (rank 9 first) as lists of 9 cells ('.' = empty), and the other fields."""
    board, *rest = fen.split()
    rows = []
    for text in board.split("/"):
        row: list[str] = []
        for ch in text:
            row.extend("." * int(ch) if ch.isdigit() else ch)
        if len(row) != 9:
            raise ValueError(f"bad FEN rank {text!r} in {fen!r}")
        rows.append(row)
    if len(rows) != 10:
        raise ValueError(f"FEN {fen!r} has {len(rows)} ranks, not 10")
    return rows, rest


def _join(rows: list[list[str]], rest: list[str]) -> str:
    out = []
    for row in rows:
        text, run = "", 0
        for ch in row:
            if ch == ".":
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += ch
        out.append(text + (str(run) if run else ""))
    return " ".join(["/".join(out), *rest])


def colour_flip(fen: str) -> str:
    rows, rest = _rows(fen)
    turned = [[c.swapcase() for c in reversed(row)] for row in reversed(rows)]
    rest = list(rest)
    rest[0] = {"w": "b", "b": "w", "r": "b"}[rest[0]]
    return _join(turned, rest)


def mirror(fen: str) -> str:
    rows, rest = _rows(fen)
    return _join([list(reversed(row)) for row in rows], list(rest))


def with_clock(fen: str, clock: int) -> str:
    """The FEN with its half-move clock (the fifth field) set to `clock`."""
    fields = fen.split()
    while len(fields) < 6:
        fields.append({2: "-", 3: "-", 4: "0", 5: "1"}[len(fields)])
    fields[4] = str(clock)
    return " ".join(fields)
