"""Fairy-Stockfish over UCI, with every result cached on disk.

The book's check runs thousands of depth-16 searches (seconds each), so
every result is appended to a JSON-lines cache as soon as it is known,
keyed by (engine id, FEN, move, depth): an interrupted check resumes where
it stopped, and a new line in config/book.yaml costs only its new
positions.  Fairy-Stockfish's UCI numbers the ranks 1-10; everything here
speaks ICCS (ranks 0-9) and converts at the pipe.

Searches are single-threaded with a fixed hash, cleared when the engine
starts and then kept: a result depends on the position, the depth and the
searches made before it (tools/book/check.py searches neighbouring
positions in turn).  The cache keeps what was found, so the checked data
never changes unless a search is made again.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from reference_py.notation import iccs_to_uci, uci_to_iccs
from tools.atomic import write_atomic

DEFAULT_ENGINE = "/usr/games/fairy-stockfish"
MATE_CP = 30000


class EngineError(RuntimeError):
    """Fairy-Stockfish is missing or did not answer as UCI says it should."""


@dataclass(frozen=True)
class Result:
    """One search: the best move and its score in centipawns for the side
    to move; with `move`, the score of that move (searched among the book
    moves with `searchmoves`, one MultiPV line each); with `multipv` K, a
    search of the whole position with K MultiPV lines, `lines` holding each
    line's first move and score, best first (`best` and `score` are the
    first line's)."""
    engine: str
    fen: str
    depth: int
    best: str
    score: int
    nodes: int
    time_ms: int
    move: str | None = None
    multipv: int = 0
    lines: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        # JSON gives lists: keep the lines hashable and comparable
        object.__setattr__(self, "lines", tuple((str(m), int(s)) for m, s in self.lines))

    @property
    def key(self) -> tuple[str, str, str | None, int]:
        return (self.engine, self.fen, multipv_key(self.multipv) if self.multipv else self.move,
                self.depth)


def multipv_key(k: int) -> str:
    """The cache key's move field for a K-line MultiPV search."""
    return f"multipv={k}"


def parse_info(line: str) -> dict[str, object] | None:
    """depth, score (cp, mates as +-(30000 - plies)), bound, nodes, time and
    pv of a UCI `info` line that has a score; None for other lines."""
    parts = line.split()
    if not parts or parts[0] != "info" or "score" not in parts:
        return None
    out: dict[str, object] = {"bound": None, "nodes": 0, "time": 0, "pv": []}
    i = 1
    while i < len(parts):
        word = parts[i]
        if word in ("depth", "nodes", "time", "multipv", "seldepth"):
            out[word] = int(parts[i + 1])
            i += 2
        elif word == "score":
            kind, value = parts[i + 1], int(parts[i + 2])
            if kind == "mate":
                value = MATE_CP - abs(value) if value > 0 else -(MATE_CP - abs(value))
            out["score"] = value
            i += 3
            if i < len(parts) and parts[i] in ("lowerbound", "upperbound"):
                out["bound"] = parts[i]
                i += 1
        elif word == "pv":
            out["pv"] = parts[i + 1:]
            break
        else:
            i += 1
    return out if "score" in out and "depth" in out else None


class Engine:
    """A Fairy-Stockfish process set up for xiangqi."""

    def __init__(self, path: str = DEFAULT_ENGINE, threads: int = 1, hash_mb: int = 64) -> None:
        exe = shutil.which(path)
        if exe is None:
            raise EngineError(f"{path}: not found (Debian package fairy-stockfish)")
        self.proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.id = ""
        self._send("uci")
        for line in self._until("uciok"):
            if line.startswith("id name "):
                self.id = line[len("id name "):].strip()
        if not self.id:
            raise EngineError(f"{exe} gave no 'id name' before 'uciok'")
        self._send("setoption name UCI_Variant value xiangqi")
        self._send(f"setoption name Threads value {threads}")
        self._send(f"setoption name Hash value {hash_mb}")
        self.new_game()

    def _send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def _until(self, word: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EngineError(f"the engine exited while we waited for '{word}'")
            line = line.strip()
            lines.append(line)
            if line == word or line.startswith(word + " "):
                return lines

    def new_game(self) -> None:
        """Clear the hash: results then depend on the position, not on history."""
        self._send("ucinewgame")
        self._send("isready")
        self._until("readyok")

    def search(self, fen: str, depth: int) -> Result:
        """`go depth` on `fen`."""
        self._send(f"position fen {fen}")
        self._send(f"go depth {depth}")
        lines = self._until("bestmove")
        best_uci = lines[-1].split()[1]
        infos = [i for i in map(parse_info, lines) if i is not None and i.get("multipv", 1) == 1]
        if not infos or best_uci in ("(none)", "0000"):
            raise EngineError(f"no score or no move for '{fen}' ({lines[-1]})")
        exact = [i for i in infos if i["bound"] is None]
        last = (exact or infos)[-1]
        return Result(self.id, fen, depth, uci_to_iccs(best_uci), int(last["score"]),
                      int(last["nodes"]), int(last["time"]))

    def search_moves(self, fen: str, depth: int, moves: list[str]) -> dict[str, Result]:
        """Each of `moves` scored by one search restricted to them
        (`searchmoves`, with MultiPV set to their number): a line per move."""
        self._send(f"setoption name MultiPV value {len(moves)}")
        self._send(f"position fen {fen}")
        self._send(f"go depth {depth} searchmoves {' '.join(iccs_to_uci(m) for m in moves)}")
        lines = self._until("bestmove")
        self._send("setoption name MultiPV value 1")
        last: dict[str, dict[str, object]] = {}
        for info in map(parse_info, lines):
            if info is None or not info["pv"] or info["depth"] != depth:
                continue
            move = uci_to_iccs(str(info["pv"][0]))       # type: ignore[index]
            if move in moves and (info["bound"] is None or move not in last):
                last[move] = info
        missing = [m for m in moves if m not in last]
        if missing:
            raise EngineError(f"no depth-{depth} score for {', '.join(missing)} in '{fen}'")
        return {m: Result(self.id, fen, depth, m, int(i["score"]), int(i["nodes"]),
                          int(i["time"]), m) for m, i in last.items()}

    def search_multipv(self, fen: str, depth: int, k: int) -> Result:
        """`go depth` on `fen` with MultiPV k: the first move and score of
        each line, best first (fewer lines where fewer moves are legal)."""
        self._send(f"setoption name MultiPV value {k}")
        self._send(f"position fen {fen}")
        self._send(f"go depth {depth}")
        lines = self._until("bestmove")
        self._send("setoption name MultiPV value 1")
        last: dict[int, dict[str, object]] = {}
        for info in map(parse_info, lines):
            if info is None or not info["pv"] or info["depth"] != depth:
                continue
            index = int(info.get("multipv", 1))       # type: ignore[arg-type]
            if info["bound"] is None or index not in last:
                last[index] = info
        if 1 not in last:
            raise EngineError(f"no depth-{depth} score for '{fen}' ({lines[-1]})")
        got = tuple((uci_to_iccs(str(last[i]["pv"][0])), int(last[i]["score"]))  # type: ignore[index]
                    for i in sorted(last))
        top = last[1]
        return Result(self.id, fen, depth, got[0][0], got[0][1], int(top["nodes"]),
                      int(top["time"]), None, k, got)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send("quit")
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


class Cache:
    """Search results in a JSON-lines file, one result a line, appended and
    flushed as each search ends (a torn last line is dropped on load)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.results: dict[tuple[str, str, str | None, int], Result] = {}
        self._lock = threading.Lock()      # engines of a parallel check add together
        if path.exists():
            lines = path.read_text(encoding="utf-8").splitlines()
            for no, line in enumerate(lines, start=1):
                try:
                    r = Result(**json.loads(line))
                except (ValueError, TypeError) as exc:
                    if no == len(lines):
                        # A write cut short by an interrupt: drop it, so that
                        # the next result starts a line of its own.
                        write_atomic(path, "".join(x + "\n" for x in lines[:-1]).encode("utf-8"))
                        break
                    raise EngineError(f"{path}:{no}: not a cached result: {exc}") from None
                self.results[r.key] = r

    def get(self, engine: str, fen: str, move: str | None, depth: int) -> Result | None:
        """A search's result: `move` None for the best move, a move for its
        score among the book moves, multipv_key(K) for a MultiPV search."""
        return self.results.get((engine, fen, move, depth))

    def add(self, result: Result) -> None:
        with self._lock:
            self.results[result.key] = result
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(_line(result))

    def rewrite(self, keep: set[tuple[str, str, str | None, int]]) -> None:
        """Keep only the results in `keep` (those the data uses), sorted."""
        kept = sorted((r for k, r in self.results.items() if k in keep),
                      key=lambda r: (r.engine, r.fen, r.key[2] or "", r.depth))
        write_atomic(self.path, "".join(map(_line, kept)).encode("utf-8"))
        self.results = {r.key: r for r in kept}


def _line(result: Result) -> str:
    d = asdict(result)
    if not result.multipv:          # the fields of a MultiPV search only
        del d["multipv"], d["lines"]
    return json.dumps(d, ensure_ascii=False, sort_keys=True) + "\n"
