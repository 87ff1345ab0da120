"""Endgame conversion: a level plays the suite's basic endings out against Fairy-Stockfish.

    python -m bench.endgame_bench [--player Master] [--tree NAME=SPEC ...]
        [--defender fs:depth=10] [--jobs 1] [--out bench/results] [--only CLASS,...]

Every position of bench/endgames.yaml (bench/endgame_suite.py) is played
from its FEN, refereed by reference_py.rules (mate and stalemate lose,
perpetual check loses, repetition and 120 plies without a capture draw):

  * a won position: the player takes the side that should win, the
    defender the other; converted = the player wins;
  * a drawn position, twice: the player holds (takes the side without the
    extra material, the defender pushes) and the player pushes (the
    defender holds); in both the player must not lose.

Fairy-Stockfish plays the variant xiangqi-rules (tools/tune/fairy_variants.ini:
the game rules' 60-move draw; the built-in xiangqi draws at 50 moves, and
would give up defending after 100 quiet plies).

The player is a level of the reference engine (`Master`) or of another
engine tree named with --tree (`--tree base=main --player base:Master`,
tools/tune/trees.py), so a change can be measured before and after.
The games go through tools/tune's runner: a process pool, a JSON-lines
cache (build/endgame_bench/games.jsonl unless --cache), so a run that is
interrupted resumes.  Writes OUT/endgames.md and OUT/endgames.json.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import shlex
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.endgame_suite import CHECKED, FS_VARIANT, SIDE_WORD, SUITE, Endgame, SuiteError, load_suite, read_checked  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402
from tools.tune.games import stable_seed, task_key  # noqa: E402
from tools.tune.players import PlayerError, is_anchor, parse_anchor, split_level  # noqa: E402
from tools.tune.runner import GameCache, run_tasks  # noqa: E402
from tools.tune.trees import TreeError, prepare  # noqa: E402

OUT = ROOT / "bench" / "results"
CACHE = ROOT / "build" / "endgame_bench" / "games.jsonl"
DEFENDER = "fs:depth=10"
MAX_PLIES = 400          # the 60-move rule ends a game without captures at 120 plies; captures reset it
ROLES = {"convert": "converts a won ending", "hold": "holds a drawn ending", "push": "presses a drawn ending"}


def plan(suite: list[Endgame], player: str, defender: str, trees: dict, max_plies: int) -> list[dict]:
    """The games: one per won position, two per drawn one, in suite order."""
    tasks = []
    for eg in suite:
        for role in (("convert",) if eg.result != "draw" else ("hold", "push")):
            side = eg.strong if role in ("convert", "push") else eg.strong ^ 1
            red, black = (player, defender) if side == 0 else (defender, player)
            task = {"red": red, "black": black, "opening": [], "seed": stable_seed("endgame", eg.fen, role),
                    "max_plies": max_plies, "fen": eg.fen, "fs_variant": FS_VARIANT, "id": eg.id, "role": role,
                    "player_side": SIDE_WORD[side]}
            if trees:
                task["trees"] = trees
            tasks.append(task)
    return tasks


def outcome_for_player(game: dict) -> str:
    """won, drawn or lost, for the side the player took."""
    if game["result"] == "1/2-1/2":
        return "drawn"
    winner = "red" if game["result"] == "1-0" else "black"
    return "won" if winner == game["player_side"] else "lost"


def summarize(suite: list[Endgame], tasks: list[dict], results: dict[str, dict], verdicts: dict) -> dict:
    """Per class and in all: conversions, drawn endings not lost, median plies to mate."""
    by_id = {eg.id: eg for eg in suite}
    classes: dict[str, dict] = {}          # "CLASS win" / "CLASS draw": its tallies
    positions = []
    for t in tasks:
        g = results.get(task_key(t))
        if g is None:
            continue
        eg = by_id[t["id"]]
        kind = "draw" if eg.result == "draw" else "win"      # a class may have won and drawn positions
        c = classes.setdefault(f"{eg.cls} {kind}", {"class": eg.cls, "result": kind,
                                        "positions": 0, "converted": 0, "mate_plies": [],
                                        "hold_games": 0, "hold_not_lost": 0, "push_games": 0,
                                        "push_not_lost": 0, "push_won": 0})
        out = outcome_for_player(g)
        v = verdicts.get(eg.fen, {})
        positions.append({"id": eg.id, "class": eg.cls, "fen": eg.fen, "result": eg.result, "role": t["role"],
                          "player_side": t["player_side"], "outcome": out, "plies": g["plies"],
                          "reason": g["reason"], "fs_verdict": v.get("verdict"), "moves": g["moves"]})
        if t["role"] == "convert":
            c["positions"] += 1
            if out == "won":
                c["converted"] += 1
                c["mate_plies"].append(g["plies"])
        else:
            c[f"{t['role']}_games"] += 1
            c[f"{t['role']}_not_lost"] += out != "lost"
            if t["role"] == "push":
                c["positions"] += 1
                c["push_won"] += out == "won"
    classes = dict(sorted(classes.items(), key=lambda kv: kv[1]["result"] == "draw"))
    for c in classes.values():
        c["median_mate_plies"] = statistics.median(c["mate_plies"]) if c["mate_plies"] else None
    won = [c for c in classes.values() if c["result"] == "win"]
    drawn = [c for c in classes.values() if c["result"] == "draw"]
    conv, total = sum(c["converted"] for c in won), sum(c["positions"] for c in won)
    all_plies = [p for c in won for p in c["mate_plies"]]
    return {"classes": list(classes.values()), "positions": positions,
            "totals": {"won_positions": total, "converted": conv,
                       "converted_pct": round(100 * conv / total, 1) if total else None,
                       "median_mate_plies": statistics.median(all_plies) if all_plies else None,
                       "drawn_positions": sum(c["positions"] for c in drawn),
                       "hold_not_lost": sum(c["hold_not_lost"] for c in drawn),
                       "hold_games": sum(c["hold_games"] for c in drawn),
                       "push_not_lost": sum(c["push_not_lost"] for c in drawn),
                       "push_games": sum(c["push_games"] for c in drawn),
                       "push_won": sum(c["push_won"] for c in drawn)}}


def render(data: dict) -> str:
    t = data["totals"]
    pct = "" if t["converted_pct"] is None else f" ({t['converted_pct']}%)"
    lines = [
        "# Endgame conversion", "",
        f"Command: `{data['command']}`  ",
        f"Player `{data['player']}`{data['tree_note']} against `{data['defender']}` defending "
        f"(UCI_Variant {data['fs_variant']}); "
        f"suite `{data['suite']['file']}` ({data['suite']['positions']} positions, sha256 "
        f"`{data['suite']['sha256'][:12]}`); {data['engine']}; {data['date']}.", "",
        "Each game starts from the suite's FEN and is refereed by the game rules (reference_py.rules): "
        "mate and stalemate lose, 120 plies without a capture draw.  A won position is converted when the "
        "player wins it; a drawn position is played twice, the player holding and the player pressing, "
        "and must not be lost.", "",
        f"**Won endings converted: {t['converted']} of {t['won_positions']}{pct}"
        f"; median plies to mate {t['median_mate_plies']}.  Drawn endings not lost: holding "
        f"{t['hold_not_lost']} of {t['hold_games']}, pressing {t['push_not_lost']} of {t['push_games']} "
        f"(won {t['push_won']}).**", "",
        "| class | result | positions | converted | median plies to mate | held (not lost) | pressed (not lost, won) |",
        "|---|---|---:|---:|---:|---:|---:|"]
    for c in data["classes"]:
        if c["result"] == "win":
            lines.append(f"| {c['class']} | win | {c['positions']} | {c['converted']}/{c['positions']} | "
                         f"{c['median_mate_plies'] if c['median_mate_plies'] is not None else '-'} | | |")
        else:
            lines.append(f"| {c['class']} | draw | {c['positions']} | | | {c['hold_not_lost']}/{c['hold_games']} | "
                         f"{c['push_not_lost']}/{c['push_games']}, {c['push_won']} won |")
    bad = [p for p in data["positions"] if (p["role"] == "convert" and p["outcome"] != "won") or p["outcome"] == "lost"]
    lines += ["", "## Games not converted, and drawn endings lost", ""]
    if not bad:
        lines.append("None.")
    else:
        lines += ["| position | role | player | outcome | plies | why | FEN |", "|---|---|---|---|---:|---|---|"]
        for p in bad:
            lines.append(f"| {p['id']} | {p['role']} | {p['player_side']} | {p['outcome']} | {p['plies']} | "
                         f"{p['reason']} | `{p['fen']}` |")
        lines += ["", "The moves of every game are in endgames.json."]
    return "\n".join(lines) + "\n"


def parse_trees(items: list[str], ship: bool = False) -> dict:
    trees = {}
    for item in items:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec or not name.isidentifier():
            raise PlayerError(f"--tree '{item}': expected NAME=SPEC (a directory of YAML, a checkout or a git revision)")
        trees[name] = prepare(spec, ship=ship)
    return trees


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.endgame_bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="Master", help="a level (Master) or TREE:LEVEL with --tree")
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=SPEC",
                    help="an engine tree the player may name (tools/tune/trees.py), e.g. base=main")
    ap.add_argument("--defender", default=DEFENDER, help=f"the opponent (default {DEFENDER})")
    ap.add_argument("--suite", type=Path, default=SUITE)
    ap.add_argument("--checked", type=Path, default=CHECKED)
    ap.add_argument("--only", default="", help="comma-separated classes (default: all)")
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    try:
        suite = load_suite(a.suite)
        if a.only:
            wanted = set(a.only.split(","))
            unknown = wanted - {eg.cls for eg in suite}
            if unknown:
                raise SuiteError(f"--only: no class {', '.join(sorted(unknown))} in {a.suite}")
            suite = [eg for eg in suite if eg.cls in wanted]
        if not is_anchor(a.defender):
            raise PlayerError(f"--defender '{a.defender}': expected a Fairy-Stockfish anchor such as {DEFENDER}")
        parse_anchor(a.defender)
        trees = parse_trees(a.tree)
        tree, level = split_level(a.player)
        if tree is not None and tree not in trees:
            raise PlayerError(f"--player '{a.player}': no --tree named '{tree}'")
        if a.max_plies < 1:
            raise PlayerError("--max-plies must be at least 1")
        verdicts = read_checked(a.checked).get("verdicts", {}) if a.checked.exists() else {}
    except (SuiteError, PlayerError, TreeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unchecked = [eg.id for eg in suite if eg.fen not in verdicts]
    if unchecked:
        print(f"warning: {len(unchecked)} positions have no Fairy-Stockfish verdict in {a.checked} "
              f"({', '.join(unchecked[:5])}{'...' if len(unchecked) > 5 else ''})", file=sys.stderr)
    tasks = plan(suite, a.player, a.defender, trees, a.max_plies)
    try:
        results = run_tasks(tasks, jobs=a.jobs, cache=GameCache(a.cache), desc="endgames", progress=not a.quiet)
    except PlayerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from tools.tune.players import fairy_stockfish
    data = {"command": "python -m bench.endgame_bench " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:])),
            "date": datetime.date.today().isoformat(), "player": a.player, "defender": a.defender,
            "trees": {n: {k: r[k] for k in ("spec", "digest")} for n, r in trees.items()},
            "tree_note": "".join(f" (tree {n} = `{r['spec']}`, `{r['digest'][:12]}`)" for n, r in trees.items()),
            "engine": fairy_stockfish(FS_VARIANT).name, "fs_variant": FS_VARIANT, "max_plies": a.max_plies,
            "suite": {"file": str(a.suite.relative_to(ROOT) if a.suite.is_relative_to(ROOT) else a.suite),
                      "positions": len(suite), "sha256": hashlib.sha256(a.suite.read_bytes()).hexdigest()},
            "games": len(results)}
    data.update(summarize(suite, tasks, results, verdicts))
    a.out.mkdir(parents=True, exist_ok=True)
    write_atomic(a.out / "endgames.json", (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode())
    write_atomic(a.out / "endgames.md", render(data).encode())
    print(render(data).split("\n\n")[3])
    print(f"wrote {a.out / 'endgames.md'}, {a.out / 'endgames.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
