"""Self-play matches between difficulty levels (do the levels differ in strength?).

Each pair of games starts from the same short random opening (seeded), once
with each level as Red.  Games end by the rules of reference_py.rules, or
are adjudicated a draw after MAX_PLIES.  Usage:

    python -m bench.match LEVEL_A LEVEL_B [--games 40] [--jobs 2] [--seed 1] [--pgn FILE]
    python -m bench.match --adjacent [--games 40]     # every adjacent pair

With --pgn every game is added to FILE (reference_py/pgn.py: players and
levels, result and how it ended, the random opening included).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from reference_py.board import BLACK, RED, move_iccs
from reference_py.cli import UsageError, run_cli
from reference_py.fen import START_FEN
from reference_py.pgn import PgnError, append_game, check_can_add, format_game
from reference_py.rules import Game
from reference_py.search import Searcher, level_by_name, levels
from tools.atomic import check_target, write_atomic

MAX_PLIES = 300
OPENING_PLIES = 2


def level_searcher(spec: str, pos, seed: int) -> Searcher:
    """A player named by a difficulty level of config/difficulty.yaml."""
    return Searcher(pos, level_by_name(spec), seed=seed)


def play_game(args: tuple) -> dict:
    """Play one game; returns the result from the first player's point of view.
    args = (red spec, black spec, opening seed, game seed[, searcher]), where
    searcher(spec, pos, seed) makes a player's Searcher (a module-level
    function, so the worker processes can receive it; level_searcher by
    default)."""
    red_spec, black_spec, opening_seed, game_seed, *rest = args
    searcher = rest[0] if rest else level_searcher
    rng = random.Random(opening_seed)
    game = Game(START_FEN)
    for _ in range(OPENING_PLIES):
        game.play(rng.choice(game.pos.legal_moves()))
    players = {RED: red_spec, BLACK: black_spec}
    nodes = {RED: 0, BLACK: 0}
    moves = {RED: 0, BLACK: 0}
    outcome = None
    while len(game.moves) < MAX_PLIES:
        outcome = game.outcome()
        if outcome:
            break
        side = game.pos.side
        result = searcher(players[side], game.pos, (game_seed * 1000 + len(game.moves)) & 0xFFFF).run()
        nodes[side] += result.nodes
        moves[side] += 1
        game.play(result.move)
    winner = outcome.winner if outcome else None
    reason = outcome.reason if outcome else f"adjudicated after {MAX_PLIES} plies"
    return {"red": red_spec, "black": black_spec,
            "winner": None if winner is None else ("red" if winner == RED else "black"),
            "reason": reason, "plies": len(game.moves), "nodes_red": nodes[RED], "nodes_black": nodes[BLACK],
            "moves_red": moves[RED], "moves_black": moves[BLACK], "moves": [move_iccs(m) for m in game.moves]}


def game_pgn(r: dict, round_: int, event: str = "NES Xiangqi self-play") -> str:
    """One result of play_game as PGN."""
    game = Game(START_FEN)
    for text in r["moves"]:
        game.play_text(text)
    result = {"red": "1-0", "black": "0-1", None: "1/2-1/2"}[r["winner"]]
    return format_game(START_FEN, game.moves, red=f"reference {r['red']}", black=f"reference {r['black']}",
                       red_level=r["red"], black_level=r["black"], result=result, termination=r["reason"],
                       event=event, site="bench.match", round_=str(round_))


def match(a: str, b: str, games: int, jobs: int, seed: int, searcher=level_searcher, pgn: str = "") -> dict:
    """`games` games between players a and b (each opening played with both
    colours), in `jobs` processes; wins, draws, losses and score are a's.
    With `pgn`, every game is added to that PGN file."""
    tasks = []
    for i in range(games):
        opening = seed * 10007 + i // 2
        red, black = (a, b) if i % 2 == 0 else (b, a)
        tasks.append((red, black, opening, seed * 7919 + i, searcher))
    t = time.time()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(play_game, tasks))
    if pgn:
        for i, r in enumerate(results, 1):
            append_game(pgn, game_pgn(r, i, f"NES Xiangqi self-play: {a} vs {b}, seed {seed}"))
    wins = draws = losses = 0
    a_nodes = a_moves = 0
    for r in results:
        a_red = r["red"] == a
        a_nodes += r["nodes_red"] if a_red else r["nodes_black"]
        a_moves += r["moves_red"] if a_red else r["moves_black"]
        if r["winner"] is None:
            draws += 1
        elif (r["winner"] == "red") == a_red:
            wins += 1
        else:
            losses += 1
    return {"a": a, "b": b, "games": games, "seed": seed, "a_wins": wins, "draws": draws, "a_losses": losses,
            "a_score": (wins + draws / 2) / games, "a_nodes_per_move": round(a_nodes / max(1, a_moves)),
            "seconds": round(time.time() - t, 1), "results": results}


def positive(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: must be at least 1")
    return n


def run(args: argparse.Namespace) -> int:
    names = [lv.name for lv in levels()]
    if args.adjacent:
        if args.levels:
            raise UsageError("give two levels or --adjacent, not both")
        pairs = [(names[i + 1], names[i]) for i in range(len(names) - 1)]
    elif len(args.levels) != 2:
        raise UsageError(f"give two levels (or --adjacent); got {len(args.levels)}")
    else:
        pairs = [tuple(args.levels)]
    for name in {n for pair in pairs for n in pair}:
        if name not in names:
            raise UsageError(f"unknown level '{name}' (levels: {', '.join(names)})")
    if args.out:                        # before hours of games, not after
        try:
            check_target(args.out)
        except OSError as exc:
            where = "" if str(exc.filename) == args.out else f" ({exc.filename})"
            raise UsageError(f"cannot write {args.out}: {exc.strerror}{where}") from None
    if args.pgn:
        try:
            check_can_add(args.pgn)
        except PgnError as exc:
            raise UsageError(f"--pgn {exc}") from None
    summary = []
    for a, b in pairs:
        m = match(a, b, args.games, args.jobs, args.seed, pgn=args.pgn)
        line = (f"{a} vs {b}: +{m['a_wins']} ={m['draws']} -{m['a_losses']} "
                f"score {m['a_score']:.1%} over {m['games']} games ({m['seconds']} s)")
        print(line, flush=True)
        summary.append(m)
    if args.out:
        write_atomic(args.out, (json.dumps(summary, indent=1) + "\n").encode())
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.match", description=__doc__.splitlines()[0])
    p.add_argument("levels", nargs="*", help="two level names (config/difficulty.yaml)")
    p.add_argument("--adjacent", action="store_true", help="every pair of adjacent levels")
    p.add_argument("--games", type=positive, default=40)
    p.add_argument("--jobs", type=positive, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="", help="write the results as JSON to this file")
    p.add_argument("--pgn", default="", help="add every game to this PGN file")
    args = p.parse_args(argv)
    return run_cli(lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
