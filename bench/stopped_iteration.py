"""What a stopped iteration's answer is worth, judged by Fairy-Stockfish.

    python -m bench.stopped_iteration [--level Master] [--config SPEC] [--every 12] [--depth 14]
                                      [--jobs 2] [--out bench/results/stopped_iteration]

When the node cap stops an iteration after a root move has been searched in
full, the search answers with that iteration's best root move so far rather
than with the last completed iteration's (docs/ENGINE.md "Nodes").  This
measures the rule where it acts, on positions from real games: every
`--every`-th position with the level to move in the ladder's games
(bench/results/ladder/games.jsonl), searched by the reference without the
book.  For each search the cap stopped, both answers are known in one run:
the result (the rule, B) and the last completed iteration (`on_iteration`,
what the search answered without the rule, A).  Where they differ,
Fairy-Stockfish scores both (bench/move_judge.py's judge: its depth, the
score cap, the sign test and the interval).  A position met in several
games is searched once.

--config changes the level and pruning knobs as bench/move_judge.py's
configurations do.  Its default, `next_iteration=0`, starts every iteration
up to the depth: the shipped iteration rule (config/search.yaml) starts
none that the cap would mostly stop, so with it the cap stops few searches
and this would measure almost nothing.
"""
from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.move_judge import VERDICT_HEADER, SpecError, judge, parse_spec, positions, verdict_row  # noqa: E402
from reference_py.board import move_iccs  # noqa: E402
from reference_py.cli import game_after  # noqa: E402
from reference_py.fen import format_fen  # noqa: E402
from reference_py.search import Searcher  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402


DEFAULT_CONFIG = "next_iteration=0"


def search_one(args: tuple[str, str, str, list[str]]) -> dict:
    """The level's search (as changed by the configuration `spec`) of one
    position: whether the cap stopped it and, when the two answers differ,
    both (a: the last completed iteration's, b: the stopped iteration's)."""
    level, spec, fen, moves = args
    game = game_after(fen, moves, past_the_end=True)
    lv, pr = parse_spec(spec, level)
    its: list = []
    r = Searcher(game.pos.copy(), lv, book=None, pruning=pr, on_iteration=its.append).run()
    row = {"fen": format_fen(game.pos), "capped": r.nodes >= lv.nodes}
    if not row["capped"] or not its or r.move == its[-1].move:
        return row
    return {**row, "a": move_iccs(its[-1].move), "b": move_iccs(r.move), "depth": its[-1].depth}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="Master")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help="knob=value,... (bench/move_judge.py)")
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "stopped_iteration")
    a = ap.parse_args(argv)
    try:
        parse_spec(a.config, a.level)
    except (SpecError, KeyError) as e:
        ap.error(f"--config: {e}")
    todo = [(a.level, a.config, fen, moves) for fen, moves in positions(a.level, a.every)]
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(search_one, todo, chunksize=4))
    changed = [r for r in rows if r.get("b")]
    summary = {"level": a.level, "positions": len(rows), "capped": sum(r["capped"] for r in rows),
               "every": a.every, **judge(changed, a.depth)}
    cmd = (f"python -m bench.stopped_iteration --level {a.level} --config '{a.config}' --every {a.every} "
           f"--depth {a.depth}")
    md = [f"# A stopped iteration's answer, judged by Fairy-Stockfish (bench/stopped_iteration.py)", "",
          f"`{cmd}`: every {a.every}th distinct position with {a.level} to move in the ladder's games "
          f"(bench/results/ladder/games.jsonl), {len(rows)} positions, searched by the reference without "
          f"the book, with `{a.config}`.  The node cap stopped {summary['capped']} of the searches; where the stopped "
          f"iteration's best root move (B, the rule) differs from the last completed iteration's (A, the "
          f"answer without the rule), {summary['engine']} at depth {a.depth} scores both (bench/move_judge.py: "
          f"centipawns for the side to move, each capped at +-500).", "",
          VERDICT_HEADER, verdict_row(summary), "",
          "| position | completed depth | A | B | FS A | FS B |", "|---|---:|---|---|---:|---:|"]
    md += [f"| `{r['fen']}` | {r['depth']} | {r['a']} | {r['b']} | {r['fs_a']} | {r['fs_b']} |"
           for r in changed]
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(a.out.with_suffix(".md"), ("\n".join(md) + "\n").encode())
    write_atomic(a.out.with_suffix(".json"), (json.dumps({**summary, "rows": changed}, indent=1) + "\n").encode())
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
