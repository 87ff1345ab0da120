"""Forward-pruning experiments for the Master level (bench/results/pruning_experiments.md).

A configuration is a level from config/difficulty.yaml with optional level
overrides and optional `Pruning` settings (reference_py/config.py), written
as NAME or NAME:key=value,key=value, e.g.

    Master
    Master:futility_margin1=100,rfp_depth=2,rfp_margin=120
    Master:qdepth=4,lmr_min_moves=2

Level fields (depth, qdepth, nodes, noise, check_ext, eval) override the level, every
other key a Pruning field.  Usage:

    python -m bench.pruning_experiments nodes CONFIG [CONFIG ...]
    python -m bench.pruning_experiments match CONFIG_A CONFIG_B [--games 40] [--seed 1] [--jobs 2]

`nodes` searches the 40 positions of bench/middlegames.fen and prints median,
mean and maximum nodes, the node-cap hits, how many best moves agree with the
first configuration, the quiescence share and the moves pruned.  `match`
plays self-play games with bench/match.py's procedure (seeded two-ply random
openings, each played with both colours, 300-ply adjudication).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.engine_bench import suite_fens
from bench.match import match
from bench.move_judge import SpecError, parse_spec
from reference_py.fen import parse_fen
from reference_py.search import Searcher
from tools.nes.timing import NES_HZ

CYCLES_PER_NODE = 6000
PRUNED_MOVE_CYCLES = 1600      # pick 270 + make ~340 + 2 x in-check 337 + unmake 293
EVAL_CYCLES = 1800             # eng_eval, Master's full weights


def parse_config(spec: str):
    """NAME[:SPEC]: the level NAME with bench.move_judge's SPEC applied."""
    name, _, rest = spec.partition(":")
    try:
        return parse_spec(rest, name)
    except SpecError as exc:
        raise SystemExit(str(exc)) from None


def _suite_one(args):
    spec, fen = args
    level, pruning = parse_config(spec)
    s = Searcher(parse_fen(fen), level, pruning=pruning)
    r = s.run()
    return r.nodes, r.depth, r.move, s.qnodes, s.pruned, s.static_evals


def nodes_report(specs: list[str], jobs: int) -> list[dict]:
    fens = suite_fens()
    out = []
    base_moves = None
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for spec in specs:
            level, _ = parse_config(spec)
            t = time.time()
            rs = list(pool.map(_suite_one, [(spec, f) for f in fens]))
            nodes = [r[0] for r in rs]
            moves = [r[2] for r in rs]
            if base_moves is None:
                base_moves = moves
            row = {"config": spec, "median": statistics.median(nodes), "mean": round(statistics.mean(nodes)),
                   "max": max(nodes), "capped": sum(n >= level.nodes for n in nodes), "positions": len(nodes),
                   "min_depth": min(r[1] for r in rs),
                   "same_move": sum(a == b for a, b in zip(moves, base_moves)),
                   "q_share": sum(r[3] for r in rs) / max(1, sum(nodes)),
                   "pruned": sum(r[4] for r in rs), "static_evals": sum(r[5] for r in rs),
                   "seconds": round(time.time() - t, 1)}
            # Rough ROM cost: nodes at CYCLES_PER_NODE, plus per pruned move pick + make + two
            # in-check tests + unmake, plus an eval per extra static eval (bench/results/rom_search_bench.md).
            extra = [r[4] * PRUNED_MOVE_CYCLES + r[5] * EVAL_CYCLES for r in rs]
            cyc = [n * CYCLES_PER_NODE + e for n, e in zip(nodes, extra)]
            row["est_nes_median_s"] = statistics.median(cyc) / NES_HZ
            row["est_nes_max_s"] = max(cyc) / NES_HZ
            row["nes_median_s"] = row["median"] * CYCLES_PER_NODE / NES_HZ
            row["nes_max_s"] = row["max"] * CYCLES_PER_NODE / NES_HZ
            print(f"{spec:60s} median {row['median']:7.0f} mean {row['mean']:6d} max {row['max']:6d} "
                  f"cap {row['capped']:2d}/{row['positions']} mindepth {row['min_depth']} "
                  f"same {row['same_move']:2d} q {row['q_share']:.0%} pruned {row['pruned']:6d} "
                  f"evals {row['static_evals']:6d} NES {row['nes_median_s']:.1f}/{row['nes_max_s']:.1f} s "
                  f"est {row['est_nes_median_s']:.1f}/{row['est_nes_max_s']:.1f} s ({row['seconds']} s)", flush=True)
            out.append(row)
    return out


def config_searcher(spec: str, pos, seed: int) -> Searcher:
    """A player named by a configuration (parse_config), for bench.match."""
    level, pruning = parse_config(spec)
    return Searcher(pos, level, seed=seed, pruning=pruning)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("cmd", choices=("nodes", "match"))
    p.add_argument("configs", nargs="+")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default="")
    args = p.parse_args(argv)
    if args.cmd == "nodes":
        res = nodes_report(args.configs, args.jobs)
    else:
        a, b = args.configs
        res = match(a, b, args.games, args.jobs, args.seed, searcher=config_searcher)
        print(f"{a} vs {b}: +{res['a_wins']} ={res['draws']} -{res['a_losses']} score {res['a_score']:.1%} "
              f"over {res['games']} games, seed {args.seed}; A nodes/move {res['a_nodes_per_move']} "
              f"({res['seconds']} s)", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
