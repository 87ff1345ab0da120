"""The search's rare paths, and the positions that reach them at each level.

    python -m emu_tests.edge_paths        (rewrites emu_tests/edge_suite.fen)

A ROM == reference diff only sees the paths its positions reach.  Most
positions never reach the 60-move limit, a repetition at the edge of its
window, the history table's aging, the deepest ply, or a depth-0 node in
check.  PathProbe is the reference Searcher with counters on those paths;
build() picks, for every level and every path, positions whose search
reaches it, and writes them as `FEN [; moves ...] # path level`.  The test
(emu_tests/test_romsearch_edges.py) diffs the ROM against the reference on
each line and checks with the probe that the line still reaches its path,
so a change of configuration that moves a position off its path fails
loudly instead of testing nothing.  Deterministic: the same file every run.
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.board import move_iccs  # noqa: E402
from reference_py.cli import game_position  # noqa: E402
from reference_py.fen import format_fen, parse_fen  # noqa: E402
from reference_py.position import Position  # noqa: E402
from reference_py.rules import DRAW_PLIES, GAME_WINDOW  # noqa: E402
from reference_py.search import MATE, SearchResult, Searcher, level_by_name, levels  # noqa: E402

OUT = Path(__file__).resolve().parent / "edge_suite.fen"
SEARCH_SUITE = Path(__file__).resolve().parent / "search_suite.fen"

# The paths, each a count PathProbe keeps (`hits` key), and what it means.
PATHS = {
    "limit-draw": "a node at the move limit whose side to move has a legal move (a draw)",
    "limit-mate": "a node at the move limit whose side to move has none (mated or stalemated)",
    "limit-overflow": "a node at the move limit whose moves do not fit the move stack",
    "rep-at-clock": "a repetition decided exactly `clock` plies back (the rule's clock bound)",
    "rep-past-clock": "a repeated key just past the clock bound (k = clock + 1 or + 2): not a repetition",
    "rep-at-window": "a repetition decided at the oldest position of the game window (k = n)",
    "rep-short-bound": "a repetition 4 plies back when the clock or the window allows only 4 or 5",
    "rep-past-once": "one earlier occurrence, at or before the root (k >= ply): not a repetition",
    "rep-past-twice": "two earlier occurrences at or before the root: a repetition, judged by the first",
    "rep-past-ahead": "an earlier occurrence at or before the root with the root's side ahead: a repetition",
    "rep-perpetual-mover": "a repetition scored +perpetual (the side that just moved checked throughout)",
    "rep-perpetual-to-move": "a repetition scored -perpetual (the side to move checked throughout)",
    "aging": "the history table halved (an entry plus its bonus above 255)",
    "deepest": "a node at the level's deepest ply (depth + qdepth)",
    "mated-in-search": "a main-search node (depth >= 1, below the root) with no legal move",
    "horizon-check": "a depth-0 node in check (quiescence starts with evasions)",
    "check-extended": "a node a checking move reached a ply deeper (the check extension: ply + depth > depth)",
    "ply-cut": "a quiescence node at ply depth + qdepth before its qdepth (a leaf: an extended line)",
    "single": "exactly one legal root move (the search stops after iteration 1)",
}


class PathProbe(Searcher):
    """The reference Searcher, counting the rare paths it takes (PATHS)."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.hits: Counter[str] = Counter()
        self.max_ply = 0

    def _move_limit_score(self, ply: int) -> int:
        fits = self.stack + len(self.pos.generate()) <= self.cfg.move_stack_entries
        v = super()._move_limit_score(ply)
        self.hits["limit-overflow" if not fits else "limit-draw" if v == 0 else "limit-mate"] += 1
        return v

    def _draw_score(self, ply: int) -> int | None:
        pos = self.pos
        keys, clock = pos.keys, pos.clock
        n = len(keys) - 1
        ks = [k for k in range(4, min(clock, n) + 1, 2) if keys[n - k] == keys[n]]
        # the match that makes the node a repetition: the first on the search
        # path (k < ply), else a second one in the game's past
        decisive = ks[0] if ks and (ks[0] < ply or self.root_ahead) else ks[1] if len(ks) >= 2 else None
        if ks and ks[0] >= ply:
            self.hits["rep-past-ahead" if self.root_ahead else
                      "rep-past-twice" if len(ks) >= 2 else "rep-past-once"] += 1
        if decisive is not None:
            self.hits["rep-at-clock"] += decisive == clock
            self.hits["rep-at-window"] += decisive == n
            self.hits["rep-short-bound"] += decisive == 4 and min(clock, n) <= 5
        elif not ks and any(keys[n - k] == keys[n] for k in (clock + 1, clock + 2) if 4 <= k <= n):
            self.hits["rep-past-clock"] += 1
        judged = self.chase_judged
        v = super()._draw_score(ply)
        if decisive is not None and v and self.chase_judged == judged:   # (not a chase's score)
            self.hits["rep-perpetual-mover" if v > 0 else "rep-perpetual-to-move"] += 1
        return v

    def _reward(self, move: int, depth: int, ply: int, cutoff: bool) -> None:
        before = self.hist
        super()._reward(move, depth, ply, cutoff)
        self.hits["aging"] += self.hist is not before

    def _alphabeta(self, depth: int, alpha: int, beta: int, ply: int, on_pv: bool, in_check: bool) -> int:
        self._at(ply)
        if ply + depth > self.level.depth:
            self.hits["check-extended"] += 1
        v = super()._alphabeta(depth, alpha, beta, ply, on_pv, in_check)
        if ply > 0 and depth > 0 and v == -MATE + ply and not self.aborted and not self.pos.legal_moves():
            self.hits["mated-in-search"] += 1
        return v

    def _quiesce(self, alpha: int, beta: int, ply: int, qply: int, in_check: bool) -> int:
        self._at(ply)
        if qply == 0 and in_check:
            self.hits["horizon-check"] += 1
        if ply >= self.level.depth + self.level.qdepth and qply < self.level.qdepth:
            self.hits["ply-cut"] += 1
        return super()._quiesce(alpha, beta, ply, qply, in_check)

    def _at(self, ply: int) -> None:
        self.max_ply = max(self.max_ply, ply)
        if ply == self.level.depth + self.level.qdepth:
            self.hits["deepest"] += 1

    def run(self) -> SearchResult:
        res = super().run()
        if len(self.pos.legal_moves()) == 1:
            self.hits["single"] += 1
        return res


def probe(fen: str, moves: list[str], level: str, seed: int = 0) -> tuple[dict, Counter]:
    """The reference's result (its JSON) and the paths its search took."""
    s = PathProbe(game_position(fen, moves, past_the_end=True), level_by_name(level), seed=seed)
    return s.run().as_json(), s.hits


def read_suite(path: Path = OUT) -> list[tuple[str, list[str], str, str]]:
    """(fen, moves, path, level) per line."""
    out = []
    for raw in path.read_text().splitlines():
        line, _, tail = raw.partition("#")
        line = line.strip()
        if not line:
            continue
        fen, _, moves = line.partition(";")
        moves = moves.strip()
        if moves.startswith("moves"):
            moves = moves[len("moves"):]
        path_name, level = tail.split()
        out.append((fen.strip(), moves.split(), path_name, level))
    return out


# ---- candidate positions -----------------------------------------------------

def _suite_lines() -> list[tuple[str, list[str], str]]:
    out = []
    for raw in SEARCH_SUITE.read_text().splitlines():
        line, _, cat = raw.partition("#")
        if not line.strip():
            continue
        fen, _, moves = line.partition(";")
        moves = moves.strip()[len("moves"):] if moves.strip().startswith("moves") else ""
        out.append((fen.strip(), moves.split(), cat.strip()))
    return out


def _with_clock(fen: str, clock: int) -> str:
    f = fen.split()
    f[4] = str(clock)
    return " ".join(f)


def _limit_candidates() -> list[tuple[str, list[str]]]:
    """Endgames, mates and middlegames of the search suite with the clock at 110..120."""
    rng = random.Random(120)
    base = [(f, m) for f, m, c in _suite_lines() if not m and c in ("endgame", "mate", "single", "middlegame")]
    out = []
    for clock in range(110, DRAW_PLIES + 1):
        for fen, _ in rng.sample(base, 6):
            out.append((_with_clock(fen, clock), []))
    return out


# A hand-made position in which each side has at least 86 pseudo-legal moves
# (open rooks and cannons, central horses, crossed pawns; found by moving
# pieces at random and keeping what raised the smaller side's count): at
# clock 117 the move limit falls at ply 3, under the lists of plies 0-2, and
# the four lists pass the 255 entries of the move stack.
CROWDED = "1PbakabP1/R5P1P/3r5/1P2N1N2/7C1/2c1n1p2/1c3R1n1/r7C/2p2p1p1/2BAKABp1 w - - 117 60"


def _overflow_candidates() -> list[tuple[str, list[str]]]:
    """The crowded position at the clocks that put the move limit at plies 1-3."""
    return [(_with_clock(CROWDED, clock), []) for clock in (117, 118, 119)]


def _cycling_games(count: int, seed: int, plies: tuple[int, int]) -> list[tuple[str, list[str]]]:
    """Random games from the suite's endgames that often undo the move two
    plies back and prefer checks: histories with repetitions and perpetual
    checks, some longer than the game window."""
    rng = random.Random(seed)
    starts = [f for f, m, c in _suite_lines() if not m and c in ("endgame", "mate")]
    out = []
    while len(out) < count:
        fen = _with_clock(rng.choice(starts), 0)
        pos = parse_fen(fen)
        played: list[int] = []
        for _ in range(rng.randrange(*plies)):
            legal = pos.legal_moves()
            if not legal:
                break
            back = [m for m in legal if len(played) >= 2 and m == ((played[-2] >> 8) | ((played[-2] & 0xFF) << 8))]
            checks = []
            for m in legal:
                pos.make(m)
                if pos.in_check(pos.side):
                    checks.append(m)
                pos.unmake()
            r = rng.random()
            pool = back if back and r < 0.6 else checks if checks and r < 0.8 else legal
            m = rng.choice(pool)
            pos.make(m)
            pos.push_history(pos.in_check(pos.side), m >> 8)
            played.append(m)
        if pos.legal_moves():
            out.append((fen, [move_iccs(m) for m in played]))
    return out


# A 64-ply cycle without captures: Red's king steps e0-e1-e0, Black's rook
# tours 32 squares (files a-c and g-i, ranks 2-7) and comes back.  After its
# first 63 plies the root's window holds exactly the cycle, and Black's
# 64th move repeats the window's oldest position (k = n = 64 at ply 1).
WINDOW_CYCLE_FEN = "3k5/9/9/9/9/9/9/r8/9/4K4 w - - 10 1"
ROOK_TOUR = (["a2", "a7", "b7", "b6", "b5", "b4", "b3", "b2", "c2", "c3", "c4", "c5", "c6", "c7",
              "g7", "g6", "g5", "g4", "g3", "g2", "h2", "h3", "h4", "h5", "h6", "h7",
              "i7", "i6", "i5", "i4", "i3", "i2"])


# The same pieces on a 24-ply cycle (the rook tours 12 squares), played
# twice less one ply: Black's next move makes the third occurrence of the
# window's oldest position (k = 24 and k = n = 48 at ply 1).
WINDOW_TWICE_TOUR = ["a2", "a7", "b7", "b2", "c2", "c7", "g7", "g2", "h2", "h7", "i7", "i2"]


def _window_twice() -> list[tuple[str, list[str]]]:
    moves = []
    for _ in range(2):
        for i in range(len(WINDOW_TWICE_TOUR)):
            moves.append("e0e1" if i % 2 == 0 else "e1e0")
            moves.append(WINDOW_TWICE_TOUR[i] + WINDOW_TWICE_TOUR[(i + 1) % len(WINDOW_TWICE_TOUR)])
    return [(WINDOW_CYCLE_FEN, moves[:GAME_WINDOW - 1])]


# Red has checked a1e1 e9f9 e1f1 f9e9: f1e1 now repeats a position with Red
# checking throughout (the perpetual scored for the side that just moved),
# and so do the later plies of the same cycle; a cycle later they are third
# occurrences.  The quiet shuttle returns to its first position (k = clock).
CHECK_CYCLE = ("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
               ["a1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9", "e1f1", "f9e9", "f1e1", "e9f9"])
QUIET_SHUTTLE = ("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", ["a1a2", "e9f9", "a2a1", "f9e9"] * 2)


def _check_cycles() -> list[tuple[str, list[str]]]:
    return [(fen, moves[:k]) for fen, moves in (CHECK_CYCLE, QUIET_SHUTTLE) for k in range(3, len(moves) + 1)]


def _window_cycle() -> list[tuple[str, list[str]]]:
    moves = []
    for i in range(len(ROOK_TOUR)):
        moves.append("e0e1" if i % 2 == 0 else "e1e0")
        moves.append(ROOK_TOUR[i] + ROOK_TOUR[(i + 1) % len(ROOK_TOUR)])
    return [(WINDOW_CYCLE_FEN, moves[:GAME_WINDOW - 1])]


def build(per_path: int = 2) -> list[str]:
    """Up to `per_path` positions per (path, level), the cheapest (fewest
    nodes) of the candidates that reach the path; for the history's aging
    also the `per_path` that age it most often (early aging changes the
    move order of the rest of the search, where a mistake in it shows)."""
    cands = (_limit_candidates() + _overflow_candidates() + _window_cycle() + _window_twice() + _check_cycles() + _cycling_games(40, 7, (6, 30))
             + _cycling_games(12, 8, (60, 90))
             + [(f, m) for f, m, _ in _suite_lines()])
    lines = ["# Edge-path suite (emu_tests/edge_paths.py): FEN [; moves ...] # path level"]
    for lv in levels():
        found: dict[str, list[tuple[int, str, list[str]]]] = {p: [] for p in PATHS}
        for fen, moves in cands:
            res, hits = probe(fen, moves, lv.name)
            for p in PATHS:
                if hits[p]:
                    found[p].append((res["nodes"], -hits[p], fen, moves))
        for p in PATHS:
            seen: set = set()
            orders = [sorted(found[p])] + ([sorted(found[p], key=lambda t: t[1])] if p == "aging" else [])
            for order in orders:
                taken = 0
                for _, _, fen, moves in order:
                    key = (fen, tuple(moves))
                    if key in seen:
                        continue
                    seen.add(key)
                    tail = f" ; moves {' '.join(moves)}" if moves else ""
                    lines.append(f"{fen}{tail} # {p} {lv.name}")
                    taken += 1
                    if taken >= per_path:
                        break
    return lines


def main() -> int:
    lines = build()
    OUT.write_text("\n".join(lines) + "\n")
    got = Counter((p, lv) for _, _, p, lv in read_suite())
    missing = [f"{p} {lv.name}" for lv in levels() for p in PATHS if not got[(p, lv.name)]]
    print(f"{OUT}: {len(lines) - 1} positions; paths no candidate reaches: {', '.join(missing) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
