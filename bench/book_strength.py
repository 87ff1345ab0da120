"""What the opening book is worth: Master with it against Master without it,
and each against a Fairy-Stockfish anchor.

    python -m bench.book_strength [--with NAME=SPEC] [--without NAME=SPEC] [--level Master]
                                  [--anchor fs:depth=6] [--pairs 50] [--openings FILE|start]
                                  [--seed 1] [--jobs 1] [--cache DIR] [--out bench/results/book_strength]

Three matches of `--pairs` game pairs each (each pair one opening played
twice, colours swapped: tools/tune/match.py): WITH against WITHOUT, WITH
against the anchor, WITHOUT against the anchor.  The configurations are
bench/tree_configs.py's (by default `with-book=config` and
`without-book=nobook:config`, the same tree with the level's book set to 0).
Each match gives the first player's score and its logistic Elo difference
with a 95% interval from the game pairs (tools/tune/stats.py).

Openings: by default every game starts from the start position, where the
book matters most.  There a game against a fixed-depth anchor is decided by
the book's seeded choices alone, so games repeat (the report counts the
distinct ones): Master without the book plays one game per colour against
the anchor, and Master with it only as many as the book's lines reach
before the opponent leaves them.  The interval is then one over the book's
random choices.  `--openings FILE` plays pair k
from line k of a suite instead (bench/openings.txt, the ladder's): every
match varies, but out of the book the two configurations are the same
engine (about two thirds of the suite's positions are not in the book), so
the book's effect is diluted.

Games are cached in CACHE/games.jsonl (default build/bench/book_strength/):
a stopped run resumes.
"""
from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from tools.tune.games import task_key
from tools.tune.ladder import interleave
from tools.tune.match import Match, make_match, running_text, tally
from tools.tune.openings import DEFAULT_SUITE
from tools.tune.players import fairy_stockfish, parse_anchor
from tools.tune.runner import GameCache, run_tasks

from . import tree_configs

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WITH = "with-book=config"
DEFAULT_WITHOUT = "without-book=nobook:config"
DEFAULT_OUT = ROOT / "bench" / "results" / "book_strength"
DEFAULT_CACHE = ROOT / "build" / "bench" / "book_strength"


def match_row(m: Match, results: dict) -> dict:
    """The first player's result in a match, and how many of its games differ."""
    t = tally(m, results)
    est = t.estimate()
    games = [results[task_key(x)] for x in m.tasks if task_key(x) in results]
    return {"a": m.a, "b": m.b, "planned_games": len(m.tasks), "games": t.games,
            "distinct_games": len({tuple(g["moves"]) for g in games}),
            "wins": t.wins, "draws": t.draws, "losses": t.losses, "score": round(t.score, 4),
            "pentanomial": list(t.penta), "elo": est.as_json() if est else None}


def render(data: dict) -> str:
    lines = ["# The opening book's strength", "",
             f"Command: `{data['command']}`  ",
             f"{data['date']}; {data['engine']}; level {data['level']}; {data['pairs']} pairs per match "
             f"({data['openings']}). WITH = `{data['with']['spec']}` (book {data['with']['book_plies']} plies), "
             f"WITHOUT = `{data['without']['spec']}` (book {data['without']['book_plies']} plies); book data "
             f"`{(data['with']['book_data_sha256'] or 'none')[:16]}`.", "",
             "| match | games (distinct) | W-D-L | score | Elo ± 95% | interval | LOS |",
             "|---|---:|---|---:|---:|---|---:|"]
    for r in data["matches"]:
        e = r["elo"] or {}
        elo, ival = tree_configs.elo_text(r["elo"], r["score"])
        los = f"{e['los']:.1%}" if "los" in e else "-"
        lines.append(f"| {r['a']} vs {r['b']} | {r['games']} ({r['distinct_games']}) | "
                     f"{r['wins']}-{r['draws']}-{r['losses']} | {r['score']:.1%} | {elo} | {ival} | {los} |")
    lines += ["", "Scores and Elo are the first player's; the interval is the 95% interval of the logistic "
              "Elo difference from the game pairs (pentanomial). Distinct games are distinct move sequences: "
              "from one opening, games against a fixed-depth engine differ only by the book's seeded choices, "
              "so the interval is one over those choices, and few distinct games describe those games rather "
              "than play in general.", ""]
    if data.get("partial"):
        lines += [f"**Partial:** {data['partial']}", ""]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench.book_strength", description=__doc__.splitlines()[0])
    ap.add_argument("--with", dest="with_", default=DEFAULT_WITH, metavar="NAME=SPEC",
                    help=f"the configuration with the book (default {DEFAULT_WITH})")
    ap.add_argument("--without", default=DEFAULT_WITHOUT, metavar="NAME=SPEC",
                    help=f"the configuration without it (default {DEFAULT_WITHOUT})")
    ap.add_argument("--level", default="Master")
    ap.add_argument("--anchor", default="fs:depth=6")
    ap.add_argument("--pairs", type=int, default=50, help="game pairs per match (default 50: 100 games)")
    tree_configs.add_run_args(ap, DEFAULT_CACHE, DEFAULT_OUT, f" (e.g. {DEFAULT_SUITE.relative_to(ROOT)})")
    a = ap.parse_args(argv)
    tree_configs.check_run_args(a)
    a.anchor = parse_anchor(a.anchor).text
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    suite = tree_configs.openings(a.openings)
    md, js = a.out.with_suffix(".md"), a.out.with_suffix(".json")
    tree_configs.check_outputs(md, js)
    with_, without = tree_configs.build_all([a.with_, a.without], a.level, ship=bool(a.cluster))
    engine = fairy_stockfish().name
    trees = {with_.name: with_.ref, without.name: without.ref}
    pw, pwo = with_.player(a.level), without.player(a.level)
    matches = [make_match(pw, pwo, a.pairs, suite, seed=a.seed, trees=trees, max_plies=a.max_plies),
               make_match(pw, a.anchor, a.pairs, suite, seed=a.seed, trees={with_.name: with_.ref},
                          max_plies=a.max_plies),
               make_match(pwo, a.anchor, a.pairs, suite, seed=a.seed, trees={without.name: without.ref},
                          max_plies=a.max_plies)]
    results = run_tasks(interleave(matches), jobs=a.jobs, cluster=a.cluster, cache=GameCache(a.cache / "games.jsonl"),
                        desc="book strength", progress=not a.quiet,
                        status=lambda res: running_text([tally(m, res) for m in matches]))
    rows = [match_row(m, results) for m in matches]
    data = {"command": tree_configs.command_text("bench.book_strength", argv),
            "date": datetime.date.today().isoformat(), "engine": engine, "level": a.level, "anchor": a.anchor,
            "pairs": a.pairs, "seed": a.seed,
            "openings": "from the start position" if suite is tree_configs.START_SUITE else
            f"openings from {a.openings}, {len(suite)} lines, sha256 {suite.sha256[:16]}",
            "with": {"spec": with_.spec, "tree": with_.ref["digest"][:16],
                     "book_data_sha256": tree_configs.book_sha256(with_),
                     "book_plies": tree_configs.book_plies(with_, a.level)},
            "without": {"spec": without.spec, "tree": without.ref["digest"][:16],
                        "book_data_sha256": tree_configs.book_sha256(without),
                        "book_plies": tree_configs.book_plies(without, a.level)},
            "matches": rows}
    missing = sum(r["planned_games"] - r["games"] for r in rows)
    if missing:
        data["partial"] = f"{missing} planned games not played (run the same command again to resume)"
    tree_configs.write_report(md, js, data, render)
    return 0


def run(argv: list[str] | None = None) -> int:
    return tree_configs.run_cli(main, argv)


if __name__ == "__main__":
    sys.exit(run())
