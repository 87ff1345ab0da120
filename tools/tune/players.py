"""Who plays: the player specifications a match names, and the engines behind them.

A player is named by a short text that travels in every game task (so a
worker process, or a Ray worker on another machine, can build it):

  * `Master`, `Novice`, ...: a difficulty level of the reference engine
    (reference_py with config/*.yaml), which plays exactly as the ROM does;
  * `TREE:LEVEL`: a level of another engine tree (an A/B test's base or
    test side: tools/tune/trees.py), e.g. `base:Master`;
  * `fs:nodes=2000`, `fs:depth=6`: Fairy-Stockfish (Debian's
    /usr/games/fairy-stockfish, or $FAIRY_STOCKFISH) with UCI_Variant
    xiangqi, one thread, 16 MiB hash cleared before every game, and a
    fixed node or depth limit per move, so that its games are repeatable.

Fairy-Stockfish numbers the ranks 1-10 in its UCI; the games here are kept
in the project's ICCS (ranks 0-9) and converted at the pipe.
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
from dataclasses import dataclass

from reference_py.protocol.client import EngineClient, bestmove
from reference_py.protocol.coords import Coordinates

FS_DEFAULT = "/usr/games/fairy-stockfish"
FS_LIMITS = ("nodes", "depth")
FS_TIMEOUT = 120.0            # seconds for one move (a fixed-limit search takes far less)
MATE_SCORE = 30000            # a mate in n plies scores +-(MATE_SCORE - n)


class PlayerError(ValueError):
    """A player specification that cannot be used."""


@dataclass(frozen=True)
class AnchorSpec:
    """A Fairy-Stockfish anchor: one fixed limit per move."""
    text: str
    limit: str          # "nodes" or "depth"
    value: int

    @property
    def go(self) -> str:
        return f"go {self.limit} {self.value}"


def parse_anchor(text: str) -> AnchorSpec:
    """`fs:nodes=N` or `fs:depth=D`."""
    m = re.fullmatch(r"fs:(\w+)=(\d+)", text.strip())
    if not m:
        raise PlayerError(f"anchor '{text}': expected fs:nodes=N or fs:depth=D")
    limit, value = m.group(1), int(m.group(2))
    if limit not in FS_LIMITS:
        raise PlayerError(f"anchor '{text}': the limit must be one of {', '.join(FS_LIMITS)}, not '{limit}'")
    if not 1 <= value <= (10**9 if limit == "nodes" else 64):
        raise PlayerError(f"anchor '{text}': {limit} = {value} is out of range")
    return AnchorSpec(f"fs:{limit}={value}", limit, value)


def is_anchor(text: str) -> bool:
    return text.startswith("fs:")


def split_level(text: str) -> tuple[str | None, str]:
    """(tree name or None for the current tree, level name)."""
    tree, sep, level = text.partition(":")
    return (tree, level) if sep else (None, text)


def fs_path() -> str:
    """The Fairy-Stockfish binary, or a PlayerError saying how to get it."""
    path = os.environ.get("FAIRY_STOCKFISH", FS_DEFAULT)
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    raise PlayerError(f"Fairy-Stockfish not found at {path}: install it (apt-get install fairy-stockfish, "
                      "Debian) or set FAIRY_STOCKFISH to its path")


class FairyStockfish:
    """One Fairy-Stockfish process playing xiangqi at fixed limits."""

    def __init__(self, path: str | None = None) -> None:
        self.client = EngineClient([path or fs_path()])
        self.client.send("uci")
        lines = self.client.until("uciok", 30)
        self.name = next((ln[8:] for ln in lines if ln.startswith("id name ")), "Fairy-Stockfish")
        self.client.send("setoption name UCI_Variant value xiangqi", "setoption name Threads value 1",
                         "setoption name Hash value 16", "isready")
        self.client.until("readyok", 30)
        self.coords = Coordinates(base=1, fixed=True)

    def new_game(self) -> None:
        self.client.send("ucinewgame", "isready")
        self.client.until("readyok", 60)

    def move(self, moves: list[str], spec: AnchorSpec) -> str | None:
        """Its move (ICCS) after `moves` (ICCS) from the start position."""
        line = "position startpos" + (" moves " + " ".join(self.coords.to_client(m) for m in moves) if moves else "")
        self.client.send(line, spec.go)
        got = bestmove(self.client.until("bestmove", FS_TIMEOUT))
        return None if got is None else self.coords.to_iccs(got)

    def evaluate(self, moves: list[str], depth: int) -> int:
        """Its score (centipawns, side to move; mates as +-30000) at `depth`."""
        return self._search(moves, depth)[0]

    def analyse(self, moves: list[str], depth: int) -> tuple[int, str | None]:
        """(score, best move or None) as evaluate() gives them, from a cleared
        hash table, so that the answer depends on the position and depth only
        (a cache may keep it)."""
        self.new_game()
        return self._search(moves, depth)

    def _search(self, moves: list[str], depth: int) -> tuple[int, str | None]:
        line = "position startpos" + (" moves " + " ".join(self.coords.to_client(m) for m in moves) if moves else "")
        self.client.send(line, f"go depth {depth}")
        lines = self.client.until("bestmove", FS_TIMEOUT)
        score = 0
        for ln in lines:
            m = re.search(r" score (cp|mate) (-?\d+)", ln)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (MATE_SCORE - abs(v)) * (1 if v > 0 else -1)
        got = bestmove(lines)
        return score, (None if got is None else self.coords.to_iccs(got))

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:       # noqa: BLE001 - a dying engine at exit is not worth a traceback
            pass


_ENGINES: dict[int, FairyStockfish] = {}


def fairy_stockfish() -> FairyStockfish:
    """This process's Fairy-Stockfish (started on first use, closed at exit).
    Keyed by process id: a forked worker must not share its parent's pipes."""
    pid = os.getpid()
    if pid not in _ENGINES:
        _ENGINES[pid] = FairyStockfish()
        atexit.register(_ENGINES[pid].close)
    return _ENGINES[pid]
