"""What a stopped iteration's answer is worth, judged by Fairy-Stockfish.

    python -m bench.stopped_iteration [--level Master] [--every 12] [--depth 14]
                                      [--jobs 2] [--out bench/results/stopped_iteration]

When the node cap stops an iteration after a root move has been searched in
full, the search answers with that iteration's best root move so far rather
than with the last completed iteration's (docs/ENGINE.md "Nodes").  This
measures the rule where it acts, on positions from real games: every
`--every`-th position with the level to move in the ladder's games
(bench/results/ladder/games.jsonl), searched by the reference without the
book.  For each search the cap stopped, both answers are known in one run:
the result (the rule) and the last completed iteration (`on_iteration`,
what the search answered before the rule).  Where they differ, one
Fairy-Stockfish search at `--depth` (from a cleared hash, MultiPV over the
two moves, `searchmoves`) scores both; the gain is the rule's move's score
minus the other's, in centipawns for the side to move (mate scores capped
at +-500: beyond that the game is decided, and a larger gap says little), reported with
its mean and a 95% interval (normal approximation), and how many changes
Fairy-Stockfish prefers each way with the two-sided sign test's p.  A
position met in several games is searched once.
"""
from __future__ import annotations

import argparse
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
from reference_py.fen import START_FEN, format_fen  # noqa: E402
from reference_py.rules import Game  # noqa: E402
from reference_py.search import Searcher, level_by_name  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402

GAMES = ROOT / "bench" / "results" / "ladder" / "games.jsonl"
CAP_CP = 500           # scores beyond this (a mate, a won game) count as this many centipawns


def positions(level: str, every: int) -> list[tuple[str, list[str]]]:
    """(start FEN, moves) of every `every`-th position with `level` to move
    (each distinct position once)."""
    out, seen, k = [], set(), 0
    for line in GAMES.read_text().splitlines():
        g = json.loads(line)
        if level not in (g["red"], g["black"]):
            continue
        side = 0 if g["red"] == level else 1
        fen = g.get("fen", START_FEN)
        for ply in range(len(g["moves"])):
            if ply % 2 != side:
                continue
            key = (fen, tuple(g["moves"][:ply]))
            if key in seen:
                continue
            seen.add(key)
            k += 1
            if k % every == 0:
                out.append((fen, g["moves"][:ply]))
    return out


def search_one(args: tuple[str, str, list[str]]) -> dict | None:
    """The level's search of one position: None unless the cap stopped it
    and the two answers differ."""
    level, fen, moves = args
    game = Game(fen)
    for m in moves:
        game.play_text(m)
    lv = level_by_name(level)
    its: list = []
    r = Searcher(game.pos.copy(), lv, book=None, on_iteration=its.append).run()
    row = {"fen": format_fen(game.pos), "capped": r.nodes >= lv.nodes}
    if not row["capped"] or not its or r.move == its[-1].move:
        return row
    return {**row, "rule": move_iccs(r.move), "before": move_iccs(its[-1].move),
            "depth": its[-1].depth}


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="Master")
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "stopped_iteration")
    a = ap.parse_args(argv)
    from tools.book.engine import Engine

    todo = [(a.level, fen, moves) for fen, moves in positions(a.level, a.every)]
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(search_one, todo, chunksize=4))
    changed = [r for r in rows if r.get("rule")]
    engine = Engine()
    for r in changed:
        engine.new_game()
        s = engine.search_moves(r["fen"], a.depth, [r["rule"], r["before"]])
        r["fs_rule"], r["fs_before"] = s[r["rule"]].score, s[r["before"]].score
        r["gain"] = clip(r["fs_rule"]) - clip(r["fs_before"])
    engine.close()

    gains = [r["gain"] for r in changed]
    n = len(gains)
    mean = statistics.fmean(gains) if gains else 0.0
    half = 1.96 * statistics.stdev(gains) / math.sqrt(n) if n > 1 else float("nan")
    better, worse = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
    summary = {"level": a.level, "positions": len(rows), "capped": sum(r["capped"] for r in rows),
               "changed": n, "better": better, "worse": worse,
               "sign_test_p": round(sign_test_p(better, worse), 4),
               "mean_gain_cp": round(mean, 1), "ci95_cp": round(half, 1), "fs_depth": a.depth,
               "every": a.every, "engine": engine.id}
    cmd = f"python -m bench.stopped_iteration --level {a.level} --every {a.every} --depth {a.depth}"
    md = [f"# A stopped iteration's answer, judged by Fairy-Stockfish (bench/stopped_iteration.py)", "",
          f"`{cmd}`: every {a.every}th position with {a.level} to move in the ladder's games "
          f"(bench/results/ladder/games.jsonl; each distinct position once), searched by the reference "
          f"without the book; where the "
          f"node cap stopped the search and the stopped iteration's best root move differs from the last "
          f"completed iteration's, {engine.id} at depth {a.depth} scores both (centipawns for the side "
          f"to move, mates as +-{CAP_CP}).", "",
          "| positions | stopped by the cap | answer changed | FS prefers the new | FS prefers the old "
          "| sign test p | mean gain (cp) | 95% interval |",
          "|---:|---:|---:|---:|---:|---:|---:|---|",
          f"| {len(rows)} | {summary['capped']} | {n} | {better} | {worse} | {summary['sign_test_p']:.3f} "
          f"| {mean:+.1f} | {mean - half:+.1f} .. {mean + half:+.1f} |", "",
          "| position | completed depth | before | new | FS before | FS new |", "|---|---:|---|---|---:|---:|"]
    md += [f"| `{r['fen']}` | {r['depth']} | {r['before']} | {r['rule']} | {r['fs_before']} | {r['fs_rule']} |"
           for r in changed]
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(a.out.with_suffix(".md"), ("\n".join(md) + "\n").encode())
    write_atomic(a.out.with_suffix(".json"), (json.dumps({**summary, "rows": changed}, indent=1) + "\n").encode())
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
