"""Who plays: the player specifications a match names, and the engines behind them.

A player is named by a short text that travels in every game task (so a
worker process, or a Ray worker on another machine, can build it):

  * `Master`, `Novice`, ...: a difficulty level of the reference engine
    (reference_py with config/*.yaml), which plays exactly as the ROM does;
  * `TREE:LEVEL`: a level of another engine tree (an A/B test's base or
    test side: tools/tune/trees.py), e.g. `base:Master`;
  * `fs:nodes=2000`, `fs:depth=6`: Fairy-Stockfish (Debian's
    /usr/games/fairy-stockfish, or $FAIRY_STOCKFISH) with UCI_Variant
    xiangqi (or the task's "fs_variant", e.g. xiangqi-rules), one thread, 16 MiB hash cleared before every game, and a
    fixed node or depth limit per move, so that its games are repeatable.

Fairy-Stockfish numbers the ranks 1-10 in its UCI; the games here are kept
in the project's ICCS (ranks 0-9) and converted at the pipe.
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from reference_py.protocol.client import EngineClient, EngineTimeout, bestmove
from reference_py.protocol.coords import Coordinates

FS_DEFAULT = "/usr/games/fairy-stockfish"
FS_LIMITS = ("nodes", "depth")
FS_TIMEOUT = 120.0            # seconds for one move (a fixed-limit search takes far less)
MATE_CP = 30000               # a mate in n plies scores +-(MATE_CP - n)
# UCI_Variant values: the built-in xiangqi (draw after 50 moves without a
# capture), and xiangqi-rules (fairy_variants.ini: draw after 60 moves, as
# reference_py.rules), which games that may go long without a capture use.
VARIANT_FILE = Path(__file__).with_name("fairy_variants.ini")
VARIANTS = ("xiangqi", "xiangqi-rules")
_INFO = re.compile(r"^info .*?\bdepth (\d+) .*?\bscore (cp|mate) (-?\d+)( lowerbound| upperbound)?")


class PlayerError(ValueError):
    """A player specification that cannot be used."""


@dataclass(frozen=True)
class Analysis:
    """One search's answer: the best move (ICCS, None if there is none), the
    score for the side to move (centipawns, mates as +-(MATE_CP - moves)),
    the mate distance in moves (+: the side to move mates; None without a
    mate score) and the depth of that score."""
    move: str | None
    score: int
    mate: int | None
    depth: int


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

    def __init__(self, path: str | None = None, variant: str = "xiangqi") -> None:
        if variant not in VARIANTS:
            raise PlayerError(f"Fairy-Stockfish variant '{variant}': expected one of {', '.join(VARIANTS)}")
        self.client = EngineClient([path or fs_path()])
        self.client.send("uci")
        lines = self.client.until("uciok", 30)
        self.name = next((ln[8:] for ln in lines if ln.startswith("id name ")), "Fairy-Stockfish")
        self.variant = variant
        if variant != "xiangqi":
            self.client.send(f"setoption name VariantPath value {VARIANT_FILE}")
        self.client.send(f"setoption name UCI_Variant value {variant}", "setoption name Threads value 1",
                         "setoption name Hash value 16", "isready")
        lines = self.client.until("readyok", 30)
        if variant != "xiangqi" and not any(ln.startswith(f"info string variant {variant} ") for ln in lines):
            raise PlayerError(f"{self.name} did not load the variant {variant} from {VARIANT_FILE}")
        self.coords = Coordinates(base=1, fixed=True)

    def new_game(self) -> None:
        self.client.send("ucinewgame", "isready")
        self.client.until("readyok", 60)

    def position(self, moves: list[str], fen: str | None = None) -> str:
        """The UCI `position` command for `moves` (ICCS) after `fen` (the start position if None)."""
        start = f"position fen {fen}" if fen else "position startpos"
        return start + (" moves " + " ".join(self.coords.to_client(m) for m in moves) if moves else "")

    def move(self, moves: list[str], spec: AnchorSpec, fen: str | None = None) -> str | None:
        """Its move (ICCS) after `moves` (ICCS) from `fen` (the start position if None)."""
        line = self.position(moves, fen)
        self.client.send(line, spec.go)
        got = bestmove(self.client.until("bestmove", FS_TIMEOUT))
        return None if got is None else self.coords.to_iccs(got)

    def analyse(self, moves: list[str], depth: int, fen: str | None = None,
                cap_s: float | None = None) -> Analysis:
        """`go depth` after `moves` (ICCS) from `fen`, stopped after `cap_s`
        seconds if given: its move and the last completed depth's score."""
        self.client.send(self.position(moves, fen), f"go depth {depth}")
        deadline = None if cap_s is None else time.monotonic() + cap_s
        stopped = False
        last = (0, 0, None)             # depth, cp, mate
        while True:
            if deadline is not None and not stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.client.send("stop")
                    stopped = True
                    continue
                try:
                    line = self.client.read(left)
                except EngineTimeout:
                    continue            # the cap passed: stop it
            else:
                line = self.client.read(FS_TIMEOUT)
            if line.startswith("bestmove"):
                got = bestmove([line])
                d, cp, mate = last
                return Analysis(None if got is None else self.coords.to_iccs(got), cp, mate, d)
            m = _INFO.search(line)
            if m and not m.group(4):    # a bound is not a result
                v = int(m.group(3))
                last = ((int(m.group(1)), v, None) if m.group(2) == "cp" else
                        (int(m.group(1)), (MATE_CP - abs(v)) * (1 if v > 0 else -1), v))

    def evaluate(self, moves: list[str], depth: int) -> int:
        """Its score (centipawns, side to move; mates as +-30000) at `depth`."""
        return self._search(moves, depth)[0]

    def score_fresh(self, moves: list[str], depth: int) -> tuple[int, str | None]:
        """(score, best move or None) as evaluate() gives them, from a cleared
        hash table, so that the answer depends on the position and depth only
        (a cache may keep it)."""
        self.new_game()
        return self._search(moves, depth)

    def _search(self, moves: list[str], depth: int) -> tuple[int, str | None]:
        self.client.send(self.position(moves), f"go depth {depth}")
        lines = self.client.until("bestmove", FS_TIMEOUT)
        score = 0
        for ln in lines:
            m = re.search(r" score (cp|mate) (-?\d+)", ln)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (MATE_CP - abs(v)) * (1 if v > 0 else -1)
        got = bestmove(lines)
        return score, (None if got is None else self.coords.to_iccs(got))

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:       # noqa: BLE001 - a dying engine at exit is not worth a traceback
            pass


_ENGINES: dict[tuple[int, str], FairyStockfish] = {}


def fairy_stockfish(variant: str = "xiangqi") -> FairyStockfish:
    """This process's Fairy-Stockfish for `variant` (started on first use,
    closed at exit).  Keyed by process id: a forked worker must not share
    its parent's pipes."""
    key = (os.getpid(), variant)
    if key not in _ENGINES:
        _ENGINES[key] = FairyStockfish(variant=variant)
        atexit.register(_ENGINES[key].close)
    return _ENGINES[key]
