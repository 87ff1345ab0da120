"""The ladder: every level against anchors of known strength and its
neighbours, on one Elo scale, beside the NES's thinking time.

    python -m tools.tune ladder [--levels A,B,...] [--anchors SPEC,...] [--games N]
                                [--jobs N] [--cluster ADDRESS] --out DIR

Steps: rebuild the ROM from config/*.yaml when stale and check ROM ==
reference on a quick sample (tools/tune/nes.py); play each level against
each anchor and each pair of adjacent levels, N games per match in pairs
on the opening suite; replay a sample of each level's moves through the
ROM for its NES think time; write DIR/report.md, DIR/ladder.json, the plots
and DIR/games.pgn (tools/tune/report.py).

Every finished game is appended to DIR/games.jsonl at once, so a run that
is stopped resumes where it was by running the same command again; the
games are interleaved pair by pair across the matches, so a partial run
still covers every match.  DIR/run.json records the configuration's
SHA-256: a DIR holding games of another configuration is refused (use a
new DIR, or --fresh to discard them).  `--report-only` writes the report
from the games cached so far without playing any.

`--tree SPEC` plays the levels of another engine tree instead of this
one's: a directory of YAML files (eval.yaml, difficulty.yaml, search.yaml:
today's reference engine with that configuration), a checkout, or a git
revision, as an A/B test's sides (tools/tune/trees.py).  Its players are
named `tree:LEVEL`, run.json records the tree's digest as the
configuration's SHA-256, and the ROM steps are skipped (the ROM is built
from config/): a "what if" against the same anchors without editing
config/.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import shlex
import sys
from pathlib import Path

from reference_py.config import CONFIG_DIR
from tools.atomic import write_atomic

from .games import MAX_PLIES, points, task_key
from .match import Match, Tally, make_match, running_text, tally
from .openings import DEFAULT_SUITE, load_suite
from .players import PlayerError, fairy_stockfish, parse_anchor
from .ratings import MatchPoints, fit_ratings
from .runner import GameCache, run_tasks

DEFAULT_ANCHORS = "fs:depth=1,fs:nodes=2000"
TREE = "tree"            # the name of --tree's players: tree:LEVEL


class LadderError(Exception):
    pass


def config_files(config_dir: Path = CONFIG_DIR) -> list[Path]:
    """The files that decide how the engines play: config/*.yaml and the
    data made from them (config/*.json, the checked opening book)."""
    return sorted([*config_dir.glob("*.yaml"), *config_dir.glob("*.json")], key=lambda p: p.name)


def config_sha256(config_dir: Path = CONFIG_DIR) -> str:
    """SHA-256 over config_files() (names and contents, sorted by name)."""
    h = hashlib.sha256()
    for p in config_files(config_dir):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def plan(levels: list[str], anchors: list[str], games: int, neighbour_games: int, suite,
         seed: int, max_plies: int, trees: dict | None = None) -> list[Match]:
    ms = [make_match(lv, a, games // 2, suite, seed=seed, max_plies=max_plies, trees=trees)
          for lv in levels for a in anchors]
    ms += [make_match(levels[i + 1], levels[i], neighbour_games // 2, suite, seed=seed, max_plies=max_plies,
                      trees=trees)
           for i in range(len(levels) - 1)]
    return ms


def interleave(matches: list[Match]) -> list[dict]:
    """All tasks, pair k of every match before pair k + 1 of any."""
    out = []
    for k in range(max((m.pairs for m in matches), default=0)):
        for m in matches:
            if k < m.pairs:
                out += list(m.pair_tasks(k))
    return out


def _pair_points(m: Match, results: dict) -> tuple[float, ...]:
    pts = []
    for k in range(m.pairs):
        g0, g1 = (results.get(task_key(t)) for t in m.pair_tasks(k))
        if g0 and g1:
            pts.append(points(g0, m.a) + points(g1, m.a))
    return tuple(pts)


def summarize(levels: list[str], anchors: list[str], matches: list[Match], results: dict,
              think: dict | None) -> dict:
    """The ladder.json body (without the run's metadata)."""
    mp = [MatchPoints(m.a, m.b, _pair_points(m, results)) for m in matches]
    ratings = fit_ratings(mp, anchors[0]) if any(x.pair_points for x in mp) else {}
    rows = []
    for i, lv in enumerate(levels):
        opp = []
        wins = draws = losses = 0
        for m in matches:
            if lv not in (m.a, m.b):
                continue
            t = tally(m, results)
            if m.b == lv:                 # the level is B: turn the tally round
                t = Tally(m.b, m.a, t.losses, t.draws, t.wins, tuple(reversed(t.penta)))
            opp.append(t.as_json())
            wins, draws, losses = wins + t.wins, draws + t.draws, losses + t.losses
        n = wins + draws + losses
        row = {"level": lv, "games": n, "score": round((wins + draws / 2) / n, 4) if n else None,
               "wins": wins, "draws": draws, "losses": losses,
               **{k: ratings.get(lv, {}).get(k) for k in ("elo", "elo_ci95", "elo_lo", "elo_hi")},
               "los": None, "los_vs": None, "opponents": opp}
        if i > 0:
            weaker = next((o for o in opp if o["b"] == levels[i - 1]), None)
            if weaker and weaker["games"]:
                row["los"], row["los_vs"] = weaker["los"], levels[i - 1]
        th = (think or {}).get(lv)
        row.update({"think_median_s": th["median_s"] if th else None, "think_max_s": th["max_s"] if th else None,
                    "think_moves": th["moves"] if th else 0, "rom_mismatches": th["mismatches"] if th else 0})
        rows.append(row)
    return {"levels": rows, "ratings": ratings}


def throughput(matches: list[Match], results: dict) -> list[dict]:
    rows = []
    for m in matches:
        walls = [results[task_key(t)]["wall_s"] for t in m.tasks if task_key(t) in results]
        if walls:
            per = sum(walls) / len(walls)
            rows.append({"match": f"{m.a} vs {m.b}", "games": len(walls), "wall_s_per_game": round(per, 2),
                         "games_per_hour": round(3600 / per, 1)})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.tune ladder", description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="", help="comma-separated, weakest first (default: every level)")
    ap.add_argument("--anchors", default=DEFAULT_ANCHORS, help=f"comma-separated (default {DEFAULT_ANCHORS})")
    ap.add_argument("--games", type=int, default=100, help="games per level per anchor (even; default 100)")
    ap.add_argument("--neighbour-games", type=int, default=None, help="games per pair of adjacent levels "
                    "(default: --games)")
    ap.add_argument("--openings", type=Path, default=DEFAULT_SUITE)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES)
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    ap.add_argument("--cluster", default=None, help="run the games on a Ray cluster at this address")
    ap.add_argument("--diff-positions", type=int, default=2, help="middlegames per level for ROM == reference")
    ap.add_argument("--think-moves", type=int, default=30, help="moves per level timed on the ROM")
    ap.add_argument("--no-rom", action="store_true", help="skip the ROM steps (no differential check, no think time)")
    ap.add_argument("--tree", default=None, metavar="SPEC", help="play the levels of this engine tree (a directory "
                    "of YAML, a checkout or a git revision) instead of this one's; implies --no-rom")
    ap.add_argument("--report-only", action="store_true", help="write the report from the cached games")
    ap.add_argument("--fresh", action="store_true", help="discard the games cached in DIR")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    trees = None
    if a.tree is not None:
        from . import trees as tree_mod
        ref = tree_mod.prepare(a.tree, ship=a.cluster is not None)
        trees = {TREE: ref}
        known = tree_mod.level_names(ref)
        a.no_rom = True
    else:
        from reference_py.search import levels as all_levels
        known = [lv.name for lv in all_levels()]
    levels = [x.strip() for x in a.levels.split(",") if x.strip()] or list(known)
    for lv in levels:
        if lv not in known:
            raise LadderError(f"unknown level '{lv}' (known: {', '.join(known)})")
    levels.sort(key=known.index)
    if trees:
        levels = [f"{TREE}:{lv}" for lv in levels]
    anchors = [parse_anchor(x).text for x in a.anchors.split(",") if x.strip()]
    if not anchors:
        raise LadderError("at least one anchor is needed (--anchors)")
    if a.games < 2 or a.games % 2:
        raise LadderError(f"--games {a.games}: an even number of at least 2 (games come in pairs)")
    ng = a.games if a.neighbour_games is None else a.neighbour_games
    if ng % 2:
        raise LadderError(f"--neighbour-games {ng}: an even number (games come in pairs)")
    suite = load_suite(a.openings)
    out: Path = a.out
    sha = trees[TREE]["digest"] if trees else config_sha256()
    run_path, cache_path = out / "run.json", out / "games.jsonl"
    if a.fresh:
        for p in (cache_path, out / "think.jsonl", run_path):
            p.unlink(missing_ok=True)
    if run_path.exists():
        old = json.loads(run_path.read_text())
        if old.get("config_sha256") != sha:
            raise LadderError(f"{out} holds games of another configuration (config SHA-256 "
                              f"{old.get('config_sha256', '?')[:16]}, now {sha[:16]}): use another --out, or --fresh")
    engine = fairy_stockfish().name
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(run_path, (json.dumps({"config_sha256": sha, "engine": engine}, indent=1) + "\n").encode())
    matches = plan(levels, anchors, a.games, ng, suite, a.seed, a.max_plies, trees)
    tasks = interleave(matches)
    if len(suite) < max(m.pairs for m in matches):
        print(f"warning: {max(m.pairs for m in matches)} pairs per match but {len(suite)} openings: "
              "deterministic players will repeat games", file=sys.stderr)
    diff = None
    if not a.no_rom and not a.report_only:
        from .nes import differential_sample
        rows = differential_sample(levels, a.diff_positions)
        bad = [r for r in rows if not r["agree"]]
        diff = {"searches": len(rows), "mismatches": len(bad)}
        write_atomic(out / "differential.json", (json.dumps(rows, indent=1) + "\n").encode())
        if bad:
            r = bad[0]
            raise LadderError(f"the ROM and the reference differ ({len(bad)} of {len(rows)} searches), e.g. "
                              f"{r['level']} on {r['fen']}: {', '.join(r['differ'])} (see {out}/differential.json)")
    elif (out / "differential.json").exists():
        rows = json.loads((out / "differential.json").read_text())
        diff = {"searches": len(rows), "mismatches": sum(not r["agree"] for r in rows)}
    cache = GameCache(cache_path)
    if a.report_only:
        results = {task_key(t): cache.games[task_key(t)] for t in tasks if task_key(t) in cache.games}
    else:
        def status(res: dict) -> str:
            return running_text([tally(m, res) for m in matches])
        results = run_tasks(tasks, jobs=a.jobs, cluster=a.cluster, cache=cache, desc="ladder games",
                            status=status, progress=not a.quiet)
    finished = [results[task_key(t)] for m in matches for t in m.tasks if task_key(t) in results]
    think = None
    if not a.no_rom and finished:
        from .nes import think_sample
        think = think_sample(finished, levels, a.think_moves, out / "think.jsonl", progress=not a.quiet)
    shown = [x for x in (sys.argv[1:] if argv is None else argv) if x not in ("--report-only", "--quiet", "--fresh")]
    data = {"command": "python -m tools.tune ladder " + " ".join(shlex.quote(x) for x in shown),
            "date": datetime.date.today().isoformat(), "config_sha256": sha,
            "config_files": {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                             for p in config_files(Path(trees[TREE]["dir"]) / "config" if trees else CONFIG_DIR)},
            "openings": {"file": str(a.openings.resolve().relative_to(Path.cwd().resolve()))
                         if a.openings.resolve().is_relative_to(Path.cwd().resolve()) else str(a.openings),
                         "count": len(suite), "sha256": suite.sha256},
            **({"tree": {"spec": a.tree, "digest": sha}} if trees else {}),
            "engine": engine, "anchors": anchors, "games": len(finished), "planned_games": len(tasks),
            "differential": diff}
    if len(finished) < len(tasks):
        data["partial"] = (f"{len(finished)} of {len(tasks)} planned games played; run the same command again "
                           "to resume")
    data.update(summarize(levels, anchors, matches, results, think))
    data["throughput"] = throughput(matches, results)
    from .report import write_report
    for p in write_report(out, data, finished):
        print(f"wrote {p}")
    return 0


def run(argv: list[str] | None = None) -> int:
    try:
        return main(argv)
    except (LadderError, PlayerError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
