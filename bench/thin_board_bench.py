"""NES time of the ROM's search on early positions just thin enough for a
level's `sparse` node cap.

    python -m bench.thin_board_bench [--level Master] [--positions 60] [--check] [--out FILE]

A level's `sparse` block (config/difficulty.yaml, docs/ENGINE.md
"Difficulty levels") raises its node cap once at most `pieces` pieces are on
the board.  bench/rom_opening_bench.py times the full board the opening
suite ends on, and the middlegame suite is further on; this bench times the
positions in between, where the block first applies: from the ladder's games
(bench/results/ladder/games.jsonl), the positions with the level to move in
the first 40 plies that have the block's `pieces` or one fewer on the board
and that its opening book does not answer, each once, a fixed sample
(`--positions`, seed 1).  The table is rom_search_bench's (the same code,
seed 0).

Writes bench/results/thin_board_bench.md (or --out).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.move_judge import GAMES, positions  # noqa: E402
from bench.rom_opening_bench import in_book  # noqa: E402
from bench.rom_search_bench import level_row, run_cli, table_header, write_report  # noqa: E402
from reference_py.book import default_book  # noqa: E402
from reference_py.cli import game_position  # noqa: E402
from reference_py.position import Position  # noqa: E402
from reference_py.search import level_by_name  # noqa: E402
from tools.nes.search import RomSearch  # noqa: E402
from tools.nes.timing import NES_HZ  # noqa: E402

OUT = ROOT / "bench" / "results" / "thin_board_bench.md"
MAX_PLY = 40           # "early": the game's first 40 plies


def thin_positions(level: str, count: int, games: Path = GAMES) -> list[Position]:
    """`count` positions (seed 1) with `level` to move in the first MAX_PLY
    plies of the ladder's games, with the level's sparse pieces or one fewer
    on the board, out of its book."""
    lv = level_by_name(level)
    if lv.sparse is None:
        raise SystemExit(f"error: level {level} has no sparse block (config/difficulty.yaml)")
    book = default_book()
    found = []
    for fen, moves in positions(level, 1, games):
        if len(moves) > MAX_PLY:
            continue
        pos = game_position(fen, moves, past_the_end=True)
        if sum(pos.count) in (lv.sparse.pieces, lv.sparse.pieces - 1) and not in_book(book, pos, lv.book):
            found.append(pos)
    random.Random(1).shuffle(found)
    return found[:count]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.thin_board_bench")
    ap.add_argument("--level", default="Master")
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--check", action="store_true", help="compare with the reference")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the report (default {OUT.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    lv = level_by_name(args.level)
    kept = thin_positions(args.level, args.positions)
    rs = RomSearch()
    banked = rs.cart.switchable
    t0 = time.time()
    lines = ["# ROM search on early positions where the sparse cap starts (bench/thin_board_bench.py)", "",
             f"{len(kept)} positions with {args.level} to move in the first {MAX_PLY} plies of the ladder's games "
             f"({GAMES.relative_to(ROOT)}), with {lv.sparse.pieces} or {lv.sparse.pieces - 1} pieces on the board "
             f"(the level's sparse cap {lv.sparse.nodes:,} applies; {lv.nodes:,} on a fuller board), out of its "
             f"book; seed 0, py65, NES CPU at {NES_HZ:,} Hz: `python -m bench.thin_board_bench"
             + (" --check" if args.check else "") + f" --level {args.level} --positions {args.positions}`.", ""]
    lines += table_header(banked, args.check)
    lines.append(level_row(rs, kept, args.level, args.check, banked))
    print("\n".join(lines), flush=True)
    write_report(args.out, lines, t0)
    return 0


if __name__ == "__main__":
    run_cli(main)
