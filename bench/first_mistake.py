"""Where Master's games are lost: its first decisive mistake against Fairy-Stockfish.

    python -m bench.first_mistake [--config NAME=SPEC ...] [--pairs 50] [--level Master]
                                  [--opponent fs:depth=8] [--depth 12] [--threshold 150]
                                  [--openings start|FILE] [--seed 1] [--jobs 1] [--cache DIR]
                                  [--out bench/results/first_mistake]

For each configuration (bench/tree_configs.py; by default Master without
the book, `without-book=nobook:config`, and with it, `with-book=config`),
`--pairs` game pairs against the opponent, each pair once with Master as
Red and once as Black (tools/tune's game runner; each game has its own
seed, which is what varies Master's book choices).  Then every game is
read by Fairy-Stockfish at a fixed depth (`--depth`, from a cleared hash
table, so a position's score is a function of the position): the score
before each of Master's moves, Master to move, and after it, the
opponent to move, both from Master's point of view.  Master's first
decisive mistake is its first move whose drop (before minus after) is
`--threshold` centipawns or more, unless the move is Fairy-Stockfish's own
choice there (then the drop is the two searches' horizons, not a mistake);
a game may have none.  Only the plies
up to the first mistake are read.

A mistake's ply is the move's number in the game counting from 1 (Red's
first move is ply 1), and its pieces are those on the board before it.
The report gives, per configuration: games (and how many distinct move
sequences), Master's score and Elo against the opponent (pentanomial,
95% interval), how many games have a mistake, the median and quartiles of
its ply over those games, and the pieces left then; the JSON keeps every
game's mistake.

Games are cached in CACHE/games.jsonl and analyses in CACHE/analyses.jsonl
(default build/bench/first_mistake/), so a stopped run resumes, and a
position already scored (at the same depth, by the same engine) is not
scored again.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Sequence

from reference_py.fen import START_FEN
from reference_py.rules import Game
from tools.tune.games import points, task_key
from tools.tune.match import make_match, tally
from tools.tune.players import fairy_stockfish, parse_anchor
from tools.tune.runner import GameCache, run_tasks

from . import tree_configs

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIGS = ("without-book=nobook:config", "with-book=config")
DEFAULT_OUT = ROOT / "bench" / "results" / "first_mistake"
DEFAULT_CACHE = ROOT / "build" / "bench" / "first_mistake"
ANALYSIS_VERSION = 2          # bump when what an analysis computes changes (its cache key includes it)


# ---- the mistake finder (pure: scores in, the first mistake out)

@dataclass(frozen=True)
class Mistake:
    """Master's first move whose drop reaches the threshold."""
    index: int          # the move's index in the game's move list (0-based)
    ply: int            # index + 1
    move: str           # ICCS
    before: int         # Fairy-Stockfish's score before the move, Master's view (centipawns)
    after: int          # after the move, Master's view
    drop: int           # before - after
    best: str | None    # Fairy-Stockfish's best move before it


def master_indices(n_moves: int, master_side: int, start: int) -> range:
    """The indices of Master's moves: from `start` (after the opening) on,
    every move made with Master's side to move (Red moves at even indices)."""
    first = start + ((master_side - start) % 2)
    return range(first, n_moves, 2)


def find_first_mistake(moves: Sequence[str], master_side: int, start: int, threshold: int,
                       score: Callable[[int], tuple[int, str | None]]) -> Mistake | None:
    """Master's first mistake in a game, or None.

    `score(i)` is Fairy-Stockfish's (score, best move) of the position after
    the first i moves, from the view of the side to move there; it is asked
    only for the positions around Master's moves up to the first mistake.
    A move that is Fairy-Stockfish's own best move is no mistake, whatever
    the drop: two fixed-depth searches a ply apart see different horizons,
    and a drop along the best move is theirs."""
    if master_side not in (0, 1):
        raise ValueError(f"master_side must be 0 (Red) or 1 (Black), not {master_side}")
    if threshold <= 0:
        raise ValueError(f"the threshold must be positive, not {threshold}")
    for i in master_indices(len(moves), master_side, start):
        before, best = score(i)
        if moves[i] == best:
            continue            # its own choice: a drop there is the horizon's, not Master's
        after = -score(i + 1)[0]
        if before - after >= threshold:
            return Mistake(i, i + 1, moves[i], before, after, before - after, best)
    return None


def pieces_before(moves: Sequence[str], index: int) -> int:
    """How many pieces stand on the board before move `index`."""
    g = Game(START_FEN)
    for m in moves[:index]:
        g.play_text(m)
    return len(g.pos.pieces())


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """(Q1, median, Q3), linear interpolation between order statistics
    (statistics.quantiles' inclusive method; one value is its own quartiles)."""
    if not values:
        raise ValueError("no values")
    if len(values) == 1:
        return (values[0],) * 3
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


# ---- the analysis of one game (a task for tools/tune's runner)

def position_key(engine: str, depth: int, moves: Sequence[str]) -> str:
    return hashlib.sha256(json.dumps([engine, depth, list(moves)]).encode()).hexdigest()[:24]


def analysis_key(task: dict) -> str:
    t = {k: task[k] for k in ("moves", "master_side", "start", "depth", "threshold", "engine")}
    t["version"] = ANALYSIS_VERSION
    return hashlib.sha256(json.dumps(t, sort_keys=True).encode()).hexdigest()[:24]


def analyse_game(task: dict) -> dict:
    """Score the game's positions up to Master's first mistake.  The task:
    {"moves", "master_side", "start", "depth", "threshold", "engine",
     "known": {str(i): [score, best]}} (known: positions already scored)."""
    t0 = time.perf_counter()
    known = {int(i): tuple(v) for i, v in task.get("known", {}).items()}
    scored: dict[int, tuple[int, str | None]] = {}
    fresh = 0

    def score(i: int) -> tuple[int, str | None]:
        nonlocal fresh
        if i not in scored:
            if i in known:
                scored[i] = known[i]
            else:
                scored[i] = fairy_stockfish().score_fresh(task["moves"][:i], task["depth"])
                fresh += 1
        return scored[i]

    mistake = find_first_mistake(task["moves"], task["master_side"], task["start"], task["threshold"], score)
    return {"key": analysis_key(task), **{k: task[k] for k in ("moves", "master_side", "start", "depth",
                                                                "threshold", "engine")},
            "mistake": None if mistake is None else asdict(mistake),
            "pieces": None if mistake is None else pieces_before(task["moves"], mistake.index),
            "scores": {str(i): list(v) for i, v in sorted(scored.items())},
            "fresh": fresh, "wall_s": round(time.perf_counter() - t0, 3)}


def analysis_task(game: dict, master: str, depth: int, threshold: int, engine: str) -> dict:
    """The analysis task of a finished game (without the known scores)."""
    return {"moves": game["moves"], "master_side": 0 if game["red"] == master else 1,
            "start": len(game["opening"]), "depth": depth, "threshold": threshold, "engine": engine}


def known_scores(cache: GameCache) -> dict[str, list]:
    """{position key: [score, best]} from every cached analysis."""
    out = {}
    for a in cache.games.values():
        for i, v in a.get("scores", {}).items():
            out[position_key(a["engine"], a["depth"], a["moves"][:int(i)])] = v
    return out


# ---- the report

def book_indices(config: tree_configs.Config, level: str, moves: Sequence[str], master_side: int,
                 start: int) -> list[int]:
    """The indices of Master's moves that came from its opening book: the
    position in the book within the level's plies and the move one of its
    book moves (there the engine always plays a book move)."""
    pkg = tree_configs.load(config.ref)
    plies = pkg.search.level_by_name(level).book
    book = pkg.book.default_book() if plies else None
    if book is None:
        return []
    mine = set(master_indices(len(moves), master_side, start))
    g = pkg.rules.Game(pkg.fen.START_FEN)
    out = []
    for i, text in enumerate(moves):
        if i in mine:
            found = book.moves(g.pos)         # (a transposition may lead back into the book)
            if found and found[0].depth < plies and pkg.notation.parse_iccs(g.pos, text) in {mv for mv, _ in found[1]}:
                out.append(i)
        g.play_text(text)
    return out


def summarize(config: tree_configs.Config, level: str, match, games: dict, analyses: dict, book: int) -> dict:
    """One configuration's row: the games' score and the mistakes' statistics."""
    master = config.player(level)
    rows = []
    for t in match.tasks:
        g = games.get(task_key(t))
        if g is None:
            continue
        a = analyses.get(g["key"])
        side = 0 if g["red"] == master else 1
        from_book = book_indices(config, level, g["moves"], side, len(g["opening"]))
        rows.append({"game": g["key"], "master": "red" if g["red"] == master else "black",
                     "result": g["result"], "reason": g["reason"], "plies": g["plies"],
                     "points": points(g, master), "game_wall_s": g["wall_s"],
                     "analysis_wall_s": a["wall_s"] if a else None,
                     "positions": len(a["scores"]) if a else None, "fresh": a["fresh"] if a else None,
                     "mistake": a["mistake"] if a else None, "pieces": a["pieces"] if a else None,
                     "book_moves": len(from_book),
                     "mistake_from_book": bool(a and a["mistake"] and a["mistake"]["index"] in from_book),
                     "analysed": a is not None})
    t = tally(match, games)
    est = t.estimate()
    plies = sorted(r["mistake"]["ply"] for r in rows if r["mistake"])
    pieces = sorted(r["pieces"] for r in rows if r["mistake"])
    out = {"name": config.name, "spec": config.spec, "tree": config.ref["digest"][:16], "book_plies": book,
           "book_data_sha256": tree_configs.book_sha256(config),
           "games": len(rows), "distinct_games": len({tuple(games[r["game"]]["moves"]) for r in rows}),
           "analysed": sum(r["analysed"] for r in rows),
           "wins": t.wins, "draws": t.draws, "losses": t.losses, "score": round(t.score, 4),
           "elo": est.as_json() if est else None,
           "with_mistake": len(plies), "without_mistake": sum(r["analysed"] and not r["mistake"] for r in rows),
           "before_ply_30": sum(p < 30 for p in plies),
           "mistakes_from_book": sum(r["mistake_from_book"] for r in rows),
           "book_moves_per_game": round(statistics.mean(r["book_moves"] for r in rows), 1) if rows else 0}
    if plies:
        q1, med, q3 = quartiles(plies)
        out["ply"] = {"q1": q1, "median": med, "q3": q3, "min": plies[0], "max": plies[-1]}
        p1, pmed, p3 = quartiles(pieces)
        out["pieces"] = {"q1": p1, "median": pmed, "q3": p3, "min": pieces[0], "max": pieces[-1]}
    timed = [r for r in rows if r["analysis_wall_s"] is not None]
    if timed:
        out["mean_game_s"] = round(statistics.mean(r["game_wall_s"] for r in timed), 2)
        out["mean_positions"] = round(statistics.mean(r["positions"] for r in timed), 1)
        fresh = sum(r["fresh"] for r in timed)
        if fresh:       # analyses that scored positions themselves (the others read them from the cache)
            scoring = [r for r in timed if r["fresh"]]
            out["s_per_position"] = round(sum(r["analysis_wall_s"] for r in scoring) /
                                          sum(r["fresh"] for r in scoring), 3)
    out["rows"] = rows
    return out


def _num(x: float) -> str:
    return f"{x:g}"


def render(data: dict) -> str:
    lines = ["# Master's first decisive mistake against Fairy-Stockfish", "",
             f"Command: `{data['command']}`  ",
             f"{data['date']}; {data['engine']}; level {data['level']} against `{data['opponent']}`, "
             f"{data['pairs']} pairs per configuration ({data['openings']}); a mistake is a move after which "
             f"Fairy-Stockfish's `go depth {data['depth']}` score, from Master's point of view, drops by "
             f"{data['threshold']} centipawns or more (Fairy-Stockfish's own choice never counts).", "",
             "| configuration | book plies | games (distinct) | Master W-D-L | score | Elo ± 95% | with a mistake | "
             "none | before ply 30 | ply Q1 / median / Q3 (min-max) | pieces Q1 / median / Q3 (min-max) | "
             "book moves a game | mistakes that were book moves |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|---|---|---:|---:|"]
    for r in data["configs"]:
        elo, _ = tree_configs.elo_text(r["elo"], r["score"])
        ply = (f"{_num(r['ply']['q1'])} / {_num(r['ply']['median'])} / {_num(r['ply']['q3'])} "
               f"({r['ply']['min']}-{r['ply']['max']})") if "ply" in r else "-"
        pcs = (f"{_num(r['pieces']['q1'])} / {_num(r['pieces']['median'])} / {_num(r['pieces']['q3'])} "
               f"({r['pieces']['min']}-{r['pieces']['max']})") if "pieces" in r else "-"
        lines.append(f"| {r['name']} (`{r['spec']}`) | {r['book_plies']} | {r['games']} ({r['distinct_games']}) | "
                     f"{r['wins']}-{r['draws']}-{r['losses']} | {r['score']:.1%} | {elo} | {r['with_mistake']} | "
                     f"{r['without_mistake']} | {r['before_ply_30']} | {ply} | {pcs} | "
                     f"{r['book_moves_per_game']:g} | {r['mistakes_from_book']} |")
    lines += ["", "Book data (SHA-256 of each tree's config/book.checked.json): " + "; ".join(
        f"{r['name']} `{(r['book_data_sha256'] or 'none')[:16]}`" for r in data["configs"]) + "."]
    lines += ["", "Quartiles are over the games that have a mistake; \"none\" counts the games without one. "
              "A ply counts from 1 (Red's first move); the pieces are those on the board before the move. "
              "Distinct games are distinct move sequences: from one opening, games against a fixed-depth engine "
              "differ only by the book's seeded choices (a level without book or noise plays one game per "
              "colour), so the statistics weigh each line by how often the book picks it.", ""]
    if data.get("partial"):
        lines += [f"**Partial:** {data['partial']}", ""]
    timing = [r for r in data["configs"] if "mean_game_s" in r]
    if timing:
        lines += ["Wall time (one worker, this run's machine): " + "; ".join(
            f"{r['name']} {r['mean_game_s']:.1f} s to play a game, {r['mean_positions']:g} positions scored "
            f"a game" + (f" at {r['s_per_position']:.2f} s each" if "s_per_position" in r else "")
            for r in timing) + " (a game's analysis stops at its first mistake; positions already scored "
            "come from the cache).", ""]
    lines += ["Each game's mistake (move, scores before and after, Fairy-Stockfish's choice) is in the JSON "
              "beside this file.", ""]
    return "\n".join(lines)


# ---- the command

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench.first_mistake", description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", default=None, metavar="NAME=SPEC",
                    help=f"a configuration (repeatable; default: {' and '.join(DEFAULT_CONFIGS)})")
    ap.add_argument("--pairs", type=int, default=50, help="game pairs per configuration (default 50)")
    ap.add_argument("--level", default="Master")
    ap.add_argument("--opponent", default="fs:depth=8")
    ap.add_argument("--depth", type=int, default=12, help="Fairy-Stockfish's analysis depth (default 12)")
    ap.add_argument("--threshold", type=int, default=150, help="the drop that makes a mistake, centipawns")
    tree_configs.add_run_args(ap, DEFAULT_CACHE, DEFAULT_OUT)
    a = ap.parse_args(argv)
    tree_configs.check_run_args(a)
    if not 1 <= a.depth <= 64:
        raise ValueError(f"--depth {a.depth}: between 1 and 64")
    if a.threshold < 1:
        raise ValueError(f"--threshold {a.threshold}: at least 1 centipawn")
    a.opponent = parse_anchor(a.opponent).text
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    suite = tree_configs.openings(a.openings)
    md, js = a.out.with_suffix(".md"), a.out.with_suffix(".json")
    tree_configs.check_outputs(md, js)
    configs = tree_configs.build_all(a.config or list(DEFAULT_CONFIGS), a.level, ship=bool(a.cluster))
    engine = fairy_stockfish().name
    game_cache = GameCache(a.cache / "games.jsonl")
    analysis_cache = GameCache(a.cache / "analyses.jsonl")
    rows = []
    partial = []
    for c in configs:
        master = c.player(a.level)
        match = make_match(master, a.opponent, a.pairs, suite, seed=a.seed, trees={c.name: c.ref},
                           max_plies=a.max_plies)
        games = run_tasks(match.tasks, jobs=a.jobs, cluster=a.cluster, cache=game_cache,
                          desc=f"{c.name} games", progress=not a.quiet)
        known = known_scores(analysis_cache)
        tasks = {}
        for t in match.tasks:
            g = games.get(task_key(t))
            if g is None:
                continue
            task = analysis_task(g, master, a.depth, a.threshold, engine)
            task["known"] = {str(i): known[k] for i in range(len(g["moves"]) + 1)
                             if (k := position_key(engine, a.depth, g["moves"][:i])) in known}
            tasks.setdefault(analysis_key(task), task)        # identical games are analysed once
        done = run_tasks(list(tasks.values()), jobs=a.jobs, cluster=a.cluster, cache=analysis_cache,
                         desc=f"{c.name} analyses", progress=not a.quiet, fn=analyse_game, key=analysis_key)
        by_game = {}
        for t in match.tasks:
            g = games.get(task_key(t))
            if g is None:
                continue
            k = analysis_key(analysis_task(g, master, a.depth, a.threshold, engine))
            if k in done:
                by_game[g["key"]] = done[k]
        row = summarize(c, a.level, match, games, by_game, tree_configs.book_plies(c, a.level))
        if row["analysed"] < len(match.tasks):
            partial.append(f"{c.name}: {row['analysed']} of {len(match.tasks)} games analysed")
        rows.append(row)
    data = {"command": tree_configs.command_text("bench.first_mistake", argv),
            "date": datetime.date.today().isoformat(), "engine": engine, "level": a.level,
            "opponent": a.opponent, "pairs": a.pairs, "depth": a.depth, "threshold": a.threshold,
            "openings": "from the start position" if suite is tree_configs.START_SUITE else
            f"openings from {a.openings}", "seed": a.seed, "configs": rows}
    if partial:
        data["partial"] = "; ".join(partial) + " (run the same command again to resume)"
    tree_configs.write_report(md, js, data, render)
    return 0


def run(argv: list[str] | None = None) -> int:
    return tree_configs.run_cli(main, argv)


if __name__ == "__main__":
    sys.exit(run())
