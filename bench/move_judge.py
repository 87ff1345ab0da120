"""Two search configurations' moves on positions from real games, judged by Fairy-Stockfish.

    python -m bench.move_judge B [--base A] [--level Master] [--every 6] [--depth 14]
                               [--jobs 2] [--out FILE]

A configuration is a comma-separated list of `key=value` (empty: the level
as shipped): `depth`, `qdepth`, `nodes`, `noise`, `check_ext` and `eval` (a
weight set's name) replace the level's own (config/difficulty.yaml),
`sparse_pieces` and `sparse_nodes` its `sparse` block's (`sparse_pieces=0`:
none; a level without the block takes both), every other key one of the
search's pruning knobs
(config/search.yaml `pruning:`, reference_py.config.Pruning), so an
experiment the reference implements is measured before the ROM has it.
`--base` defaults to the shipped level.

Positions: every `--every`-th distinct position with the level to move in
the ladder's games (bench/results/ladder/games.jsonl), searched by the
reference without the book, once per configuration.  Where the two moves
differ, one Fairy-Stockfish search at `--depth` (from a cleared hash,
MultiPV over the two moves with `searchmoves`) scores both; B's gain is
its move's score minus A's, in centipawns for the side to move, each score
capped at +-500 (beyond that the game is decided and a larger gap says
little).  Reported: how many moves changed, how many of them
Fairy-Stockfish prefers each way (with the two-sided sign test's p), the
mean gain with a 95% interval (normal approximation), and the nodes each
configuration searched in all, which is the NES time it costs (the ROM's
cycles per node hardly depend on the configuration).

Why paired moves rather than games: a game between two close
configurations differs from its pair only after their first different
move, so a 100-game match measures a few dozen differing decisions through
the noise of whole games; here every differing decision is scored
directly.  It measures move choice at the level's node budget, not how the
moves add up over a game: a change that only pays late in a game, or
loses by a pattern Fairy-Stockfish's depth misses, needs the ladder too.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.board import move_iccs  # noqa: E402
from reference_py.cli import game_after  # noqa: E402
from reference_py.config import PRUNING_KEYS, Level, Pruning, SparseLimits  # noqa: E402
from reference_py.fen import START_FEN, format_fen  # noqa: E402
from reference_py.search import Searcher, level_by_name, search_config  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402

GAMES = ROOT / "bench" / "results" / "ladder" / "games.jsonl"
CAP_CP = 500           # scores beyond this (a mate, a won game) count as this many centipawns
LEVEL_KEYS = ("depth", "qdepth", "nodes", "noise", "check_ext")   # a level's integers
NAME_KEYS = ("eval",)                                              # a level's names
SPARSE_KEYS = ("sparse_pieces", "sparse_nodes")                    # its `sparse` block's


class SpecError(ValueError):
    """A configuration that names no knob or gives it no integer."""


def parse_spec(spec: str, level: str) -> tuple[Level, Pruning]:
    """The level and pruning knobs of `spec` (see the module's docstring);
    bench/pruning_experiments.py reads its NAME:SPEC configurations with it."""
    lv, pr = level_by_name(level), search_config().pruning
    sparse: dict[str, int] = {}
    for item in filter(None, (s.strip() for s in spec.split(","))):
        key, eq, value = item.partition("=")
        if key in NAME_KEYS and eq and value:
            lv = dataclasses.replace(lv, **{key: value})
            continue
        if not eq or not value.strip().lstrip("-").isdigit():
            raise SpecError(f"configuration '{spec}': '{item}' is not key=integer")
        if key in LEVEL_KEYS:
            lv = dataclasses.replace(lv, **{key: int(value)})
        elif key in SPARSE_KEYS:
            sparse[key.removeprefix("sparse_")] = int(value)
        elif key in PRUNING_KEYS:
            pr = dataclasses.replace(pr, **{key: int(value)})
        else:
            raise SpecError(f"configuration '{spec}': unknown key '{key}' "
                            f"(level: {', '.join(LEVEL_KEYS + NAME_KEYS + SPARSE_KEYS)}; "
                            f"pruning: {', '.join(PRUNING_KEYS)})")
    if sparse.get("pieces") == 0:
        lv = dataclasses.replace(lv, sparse=None)
    elif sparse:
        if lv.sparse is None and len(sparse) < 2:
            raise SpecError(f"configuration '{spec}': level {lv.name} has no sparse block: "
                            f"give both {' and '.join(SPARSE_KEYS)}")
        lv = dataclasses.replace(lv, sparse=dataclasses.replace(lv.sparse or SparseLimits(0, 0), **sparse))
    return lv, pr


def positions(level: str, every: int, games: Path = GAMES) -> list[tuple[str, list[str]]]:
    """(start FEN, moves) of every `every`-th position with `level` to move
    (each distinct position once), in the order of the games."""
    out, seen, k = [], set(), 0
    for line in games.read_text().splitlines():
        g = json.loads(line)
        if level not in (g["red"], g["black"]):
            continue
        side = 0 if g["red"] == level else 1
        fen = g.get("fen", START_FEN)
        for ply in range(side, len(g["moves"]), 2):
            key = (fen, tuple(g["moves"][:ply]))
            if key in seen:
                continue
            seen.add(key)
            k += 1
            if k % every == 0:
                out.append((fen, g["moves"][:ply]))
    return out


def clip(score: int) -> int:
    return max(-CAP_CP, min(CAP_CP, score))


def sign_test_p(better: int, worse: int) -> float:
    """Two-sided binomial sign test of better vs worse (ties left out)."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def judge(rows: list[dict], depth: int) -> dict:
    """Scores row["a"] and row["b"] (ICCS moves at row["fen"]) with
    Fairy-Stockfish; adds fs_a, fs_b and gain (b's) to each row.  Returns
    the summary: changed, better, worse, sign_test_p, mean_gain_cp, ci95_cp, engine."""
    from tools.book.engine import Engine
    engine = Engine()
    try:
        for r in rows:
            engine.new_game()
            s = engine.search_moves(r["fen"], depth, [r["a"], r["b"]])
            r["fs_a"], r["fs_b"] = s[r["a"]].score, s[r["b"]].score
            r["gain"] = clip(r["fs_b"]) - clip(r["fs_a"])
    finally:
        engine.close()
    gains = [r["gain"] for r in rows]
    n = len(gains)
    mean = statistics.fmean(gains) if gains else 0.0
    half = 1.96 * statistics.stdev(gains) / math.sqrt(n) if n > 1 else float("nan")
    better, worse = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
    return {"changed": n, "better": better, "worse": worse,
            "sign_test_p": round(sign_test_p(better, worse), 4),
            "mean_gain_cp": round(mean, 1), "ci95_cp": round(half, 1), "fs_depth": depth,
            "engine": engine.id}


def verdict_row(s: dict) -> str:
    """The summary's markdown table row (after its header: VERDICT_HEADER)."""
    lo, hi = s["mean_gain_cp"] - s["ci95_cp"], s["mean_gain_cp"] + s["ci95_cp"]
    return (f"| {s['changed']} | {s['better']} | {s['worse']} | {s['sign_test_p']:.3f} "
            f"| {s['mean_gain_cp']:+.1f} | {lo:+.1f} .. {hi:+.1f} |")


VERDICT_HEADER = ("| moves changed | FS prefers B | FS prefers A | sign test p | mean gain (cp) | 95% interval |\n"
                  "|---:|---:|---:|---:|---:|---|")


def search_pair(args: tuple[str, str, str, str, list[str]]) -> dict:
    """Both configurations' searches of one position."""
    level, a, b, fen, moves = args
    game = game_after(fen, moves, past_the_end=True)
    row: dict = {"fen": format_fen(game.pos)}
    for name, spec in (("a", a), ("b", b)):
        lv, pr = parse_spec(spec, level)
        r = Searcher(game.pos.copy(), lv, book=None, pruning=pr).run()
        row[name] = move_iccs(r.move) if r.move else None
        row[f"nodes_{name}"] = r.nodes
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("b", help="configuration B (key=value,...)")
    ap.add_argument("--base", default="", help="configuration A (default: the level as shipped)")
    ap.add_argument("--level", default="Master")
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write the report here (.md) and beside it (.json)")
    a = ap.parse_args(argv)
    try:
        for spec in (a.base, a.b):
            parse_spec(spec, a.level)
    except (SpecError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    todo = [(a.level, a.base, a.b, fen, moves) for fen, moves in positions(a.level, a.every)]
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(search_pair, todo, chunksize=4))
    changed = [r for r in rows if r["a"] != r["b"] and r["a"] and r["b"]]
    summary = {"level": a.level, "a": a.base, "b": a.b, "positions": len(rows), "every": a.every,
               "nodes_a": sum(r["nodes_a"] for r in rows), "nodes_b": sum(r["nodes_b"] for r in rows),
               **judge(changed, a.depth)}
    summary["nodes_ratio"] = round(summary["nodes_b"] / max(1, summary["nodes_a"]), 3)
    print(json.dumps(summary))
    if a.out:
        write_atomic(a.out.with_suffix(".md"), report(summary).encode())
        write_atomic(a.out.with_suffix(".json"), (json.dumps({**summary, "rows": changed}, indent=1) + "\n").encode())
    return 0


def report(summary: dict) -> str:
    """The markdown report of a run (its summary, as main() prints it)."""
    s = summary
    cmd = (f"python -m bench.move_judge '{s['b']}'" + (f" --base '{s['a']}'" if s["a"] else "")
           + f" --level {s['level']} --every {s['every']} --depth {s['fs_depth']}")
    a_name, b_name = (f"`{x}`" if x else f"{s['level']} as shipped" for x in (s["a"], s["b"]))
    md = [f"# {s['level']}: {b_name} (B) against {a_name} (A), judged by Fairy-Stockfish", "",
          f"`{cmd}` (bench/move_judge.py): {s['positions']:,} positions from the ladder's games; nodes in "
          f"all: A {s['nodes_a']:,}, B {s['nodes_b']:,} ({s['nodes_ratio']:.3f} times A's); {s['engine']} at "
          f"depth {s['fs_depth']} scores both moves where they differ (centipawns for the side to move, "
          f"each capped at +-{CAP_CP}).", "", VERDICT_HEADER, verdict_row(s), ""]
    return "\n".join(md)


if __name__ == "__main__":
    sys.exit(main())
