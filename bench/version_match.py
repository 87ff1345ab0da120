"""Self-play of today's reference engine against the one at an earlier commit.

    python -m bench.version_match REV LEVEL [--games 40] [--seed 1] [--jobs 2]

A specification change (a new move order, a new pruning rule) changes what
both engines play, so "is it still as strong?" needs the old engine as the
opponent.  This extracts `reference_py/` and `config/` at git revision REV
into a temporary directory, renames the package to `reference_py_old` (so
both versions load in one process), and plays the same openings as
bench.match: each pair of games from one seeded random 2-ply opening, once
with each side as Red, both at LEVEL, adjudicated a draw after 300 plies.
Both engines see the whole game (each keeps its own Game, fed every move).
Prints one JSON line; the score is today's engine's.
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.match import MAX_PLIES, OPENING_PLIES, positive  # noqa: E402
from reference_py import search as new_search  # noqa: E402
from reference_py.board import RED  # noqa: E402
from reference_py.config import ConfigError  # noqa: E402
from reference_py.fen import START_FEN  # noqa: E402
from reference_py.rules import Game  # noqa: E402

OLD = "reference_py_old"


def extract(rev: str, into: Path) -> None:
    """reference_py/ and config/ at `rev` into `into`, the package renamed to OLD."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "reference_py", "config"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        tf.extractall(into, filter="data")
    rename_package(into)


def rename_package(into: Path) -> None:
    """into/reference_py becomes into/OLD, its imports of itself renamed, so
    that it loads beside today's package in one process."""
    (into / "reference_py").rename(into / OLD)
    for f in (into / OLD).rglob("*.py"):
        f.write_text(re.sub(r"\breference_py\b", OLD, f.read_text()))


def _old(old_dir: str, module: str):
    if old_dir not in sys.path:
        sys.path.insert(0, old_dir)
    return importlib.import_module(f"{OLD}.{module}")


def play_game(args: tuple) -> float:
    """One game; 1 / 0.5 / 0 from today's engine's point of view."""
    old_dir, new_is_red, level, opening_seed, game_seed = args
    old_rules, old_search = _old(old_dir, "rules"), _old(old_dir, "search")
    rng = random.Random(opening_seed)
    game, old_game = Game(START_FEN), old_rules.Game(START_FEN)
    for _ in range(OPENING_PLIES):
        m = rng.choice(game.pos.legal_moves())
        game.play(m)
        old_game.play(m)
    outcome = None
    while len(game.moves) < MAX_PLIES:
        outcome = game.outcome()
        if outcome:
            break
        seed = (game_seed * 1000 + len(game.moves)) & 0xFFFF
        if (game.pos.side == RED) == new_is_red:
            m = new_search.Searcher(game.pos, new_search.level_by_name(level), seed=seed).run().move
        else:
            m = old_search.Searcher(old_game.pos, old_search.level_by_name(level), seed=seed).run().move
        game.play(m)
        old_game.play(m)
    if not outcome or outcome.winner is None:
        return 0.5
    return 1.0 if (outcome.winner == RED) == new_is_red else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="git revision of the old engine, e.g. b827811")
    ap.add_argument("level")
    ap.add_argument("--games", type=positive, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=positive, default=2)
    a = ap.parse_args(argv)
    try:
        names = [lv.name for lv in new_search.levels()]
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if a.level not in names:
        print(f"error: unknown level '{a.level}' (known: {', '.join(names)})", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            extract(a.rev, Path(tmp))
        except subprocess.CalledProcessError as e:
            print(f"error: git archive {a.rev}: {e.stderr.decode().strip()}", file=sys.stderr)
            return 2
        tasks = [(tmp, i % 2 == 0, a.level, a.seed * 10007 + i // 2, a.seed * 7919 + i) for i in range(a.games)]
        t = time.time()
        with ProcessPoolExecutor(max_workers=a.jobs) as pool:
            res = list(pool.map(play_game, tasks))
    w, d, lo = res.count(1.0), res.count(0.5), res.count(0.0)
    print(json.dumps({"old": a.rev, "level": a.level, "games": a.games, "seed": a.seed, "new_wins": w,
                      "draws": d, "new_losses": lo, "new_score": round((w + d / 2) / a.games, 4),
                      "seconds": round(time.time() - t)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
