"""A/B test of two configurations: a pentanomial SPRT on game pairs.

    python -m tools.tune sprt BASE TEST [--level Master] [--elo0 0 --elo1 5 --alpha 0.05 --beta 0.05]
                              [--model normalized|logistic] [--max-pairs N] [--jobs N] [--cluster ADDRESS] [--out DIR]

BASE and TEST each name an engine tree (tools/tune/trees.py): a directory
of YAML files, a checkout holding config/, or a git revision.  TEST plays
BASE at the same level, game pairs on the opening suite (each opening
with both colours); after every completed pair, in pair order, the SPRT
(tools/tune/stats.Sprt, fishtest's rules: H0 elo = elo0 against H1
elo = elo1, in normalized Elo by default as fishtest's tests are, or
logistic Elo) is updated, and the test stops as soon as it accepts H1
(TEST is better by about elo1) or H0 (not better than elo0), or at
--max-pairs undecided.  Games are cached in DIR/games.jsonl (resumable);
DIR/sprt.json, DIR/sprt.md and DIR/games.pgn are the result.

A pair cycle beyond the suite's length repeats openings; there the games
start with two more plies chosen by the pair's seed, so deterministic
levels do not replay the same games.
"""
from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
from pathlib import Path

from tools.atomic import write_atomic

from .games import MAX_PLIES, points, stable_seed, task_key
from .openings import DEFAULT_SUITE, Suite, load_suite
from .players import PlayerError, split_level
from .runner import GameCache, run_tasks
from .stats import MODELS, Sprt, elo_estimate, pentanomial
from .trees import TreeError, level_names, prepare


def opening_for_pair(suite: Suite, k: int) -> list[str]:
    """Pair k's opening: the suite's line k mod N, plus 2 seeded random plies
    from the second cycle of the suite on."""
    moves = list(suite.for_pair(k).moves)
    cycle = k // len(suite)
    if cycle:
        import random
        g = suite.for_pair(k).game()
        rng = random.Random(stable_seed("sprt-extension", k))
        from reference_py.board import move_iccs
        for _ in range(2):
            legal = sorted(g.pos.legal_moves())
            if not legal or g.outcome():
                break
            m = rng.choice(legal)
            g.play(m)
            moves.append(move_iccs(m))
    return moves


def sprt_tasks(level: str, pairs: int, suite: Suite, trees: dict, seed: int, max_plies: int) -> list[dict]:
    a, b = f"test:{level}", f"base:{level}"
    tasks = []
    for k in range(pairs):
        opening = opening_for_pair(suite, k)
        for g, (red, black) in enumerate(((a, b), (b, a))):
            tasks.append({"red": red, "black": black, "opening": opening, "seed": stable_seed(seed, "sprt", k, g),
                          "max_plies": max_plies, "trees": trees})
    return tasks


class SprtRun:
    """Feeds finished pairs, in pair order, to the SPRT."""

    def __init__(self, sprt: Sprt, tasks: list[dict], a: str) -> None:
        self.sprt, self.tasks, self.a = sprt, tasks, a
        self.pair_points: list[float] = []
        self.trace: list[dict] = []

    def feed(self, results: dict) -> None:
        while not self.sprt.state and 2 * len(self.pair_points) < len(self.tasks):
            k = len(self.pair_points)
            g0, g1 = (results.get(task_key(t)) for t in self.tasks[2 * k:2 * k + 2])
            if g0 is None or g1 is None:
                return
            self.pair_points.append(points(g0, self.a) + points(g1, self.a))
            self.sprt.update(pentanomial(self.pair_points))
            self.trace.append({"pairs": len(self.pair_points), "llr": round(self.sprt.llr, 4)})

    def text(self) -> str:
        if not self.pair_points:
            return "waiting for the first pair"
        e = elo_estimate(pentanomial(self.pair_points))
        return (f"LLR {self.sprt.llr:+.2f} ({self.sprt.lower:.2f}, {self.sprt.upper:.2f}) "
                f"score {e.score:.1%} Elo {e.elo:+.1f}")


def render(data: dict) -> str:
    s, e = data["sprt"], data["elo"]
    verdict = {"accepted": "H1 accepted: TEST is better (about elo1 or more)",
               "rejected": "H0 accepted: TEST is not better than elo0",
               "": "undecided at the pair limit"}[s["state"]]
    elo = "n/a" if e.get("elo") is None else f"{e['elo']:+.1f} ± {e['elo_ci95'] if e.get('elo_ci95') is not None else 'n/a'}"
    return "\n".join([
        "# SPRT", "",
        f"Command: `{data['command']}`  ",
        f"BASE `{data['base']['spec']}` (tree `{data['base']['digest'][:16]}`), TEST `{data['test']['spec']}` "
        f"(tree `{data['test']['digest'][:16]}`), level {data['level']}; {data['date']}.", "",
        f"**{verdict}.**", "",
        f"SPRT({s['elo0']}, {s['elo1']}) {s['model']} Elo, alpha {s['alpha']}, beta {s['beta']}: LLR {s['llr']:+.3f} "
        f"(bounds {s['lower']:.3f}, {s['upper']:.3f}) after {s['pairs']} pairs ({2 * s['pairs']} games).", "",
        "| pairs | pentanomial LL,LD,WL+DD,WD,WW | score | Elo | nElo | LOS |",
        "|---:|---|---:|---:|---:|---:|",
        f"| {s['pairs']} | {','.join(map(str, s['pentanomial']))} | {e['score']:.1%} | {elo} | "
        f"{'n/a' if e.get('nelo') is None else format(e['nelo'], '+.1f')} | {e['los']:.1%} |", "",
        "Games: [games.pgn](games.pgn).", ""])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.tune sprt", description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("test")
    ap.add_argument("--level", default="Master")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--model", choices=MODELS, default="normalized")
    ap.add_argument("--max-pairs", type=int, default=2000)
    ap.add_argument("--openings", type=Path, default=DEFAULT_SUITE)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--cluster", default=None)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--out", type=Path, default=None, help="default: build/tune/sprt/BASEDIGEST-TESTDIGEST-LEVEL")
    a = ap.parse_args(argv)
    sprt = Sprt(a.elo0, a.elo1, a.alpha, a.beta, a.model)
    if a.max_pairs < 1:
        raise ValueError("--max-pairs must be at least 1")
    base, test = prepare(a.base, ship=bool(a.cluster)), prepare(a.test, ship=bool(a.cluster))
    _, level = split_level(a.level)
    for side in (base, test):
        names = level_names(side)
        if level not in names:
            raise PlayerError(f"{side['spec']}: no level '{level}' (known: {', '.join(names)})")
    suite = load_suite(a.openings)
    out = a.out or Path("build/tune/sprt") / f"{base['digest'][:12]}-{test['digest'][:12]}-{level}"
    tasks = sprt_tasks(level, a.max_pairs, suite, {"base": base, "test": test}, a.seed, a.max_plies)
    run = SprtRun(sprt, tasks, f"test:{level}")
    cache = GameCache(out / "games.jsonl")
    results = run_tasks(tasks, jobs=a.jobs, cluster=a.cluster, cache=cache, desc=f"SPRT {level}",
                        status=lambda res: (run.feed(res), run.text())[1], stop=lambda: bool(run.sprt.state),
                        progress=not a.quiet)
    run.feed(results)
    used = tasks[:2 * len(run.pair_points)]
    games = [results[task_key(t)] for t in used]
    penta = pentanomial(run.pair_points) if run.pair_points else [0] * 5
    est = elo_estimate(penta).as_json() if run.pair_points else {"score": 0.0, "los": 0.5}
    data = {"command": "python -m tools.tune sprt " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:])),
            "date": datetime.date.today().isoformat(), "level": level,
            "base": {k: base[k] for k in ("spec", "digest")}, "test": {k: test[k] for k in ("spec", "digest")},
            "sprt": {"elo0": a.elo0, "elo1": a.elo1, "alpha": a.alpha, "beta": a.beta, "model": a.model,
                     "llr": round(sprt.llr, 4), "lower": round(sprt.lower, 4), "upper": round(sprt.upper, 4),
                     "state": sprt.state, "pairs": len(run.pair_points), "pentanomial": penta},
            "elo": est, "trace": run.trace}
    from .report import games_pgn
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "games.pgn", games_pgn(games, event=f"NES Xiangqi SPRT {level}").encode())
    write_atomic(out / "sprt.json", (json.dumps(data, indent=1) + "\n").encode())
    write_atomic(out / "sprt.md", render(data).encode())
    print("\n\n".join(render(data).split("\n\n")[2:4]))
    print(f"wrote {out / 'sprt.md'}, {out / 'sprt.json'}, {out / 'games.pgn'}")
    return 0 if sprt.state else 3


def run(argv: list[str] | None = None) -> int:
    try:
        return main(argv)
    except (TreeError, PlayerError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
