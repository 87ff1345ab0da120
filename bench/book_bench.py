"""The opening book's size, its NES cost and the variety it gives.

    python -m bench.book_bench [--games N] [--out FILE]

* Size: positions, moves and openings of config/book.checked.json, the
  bytes of the book's banks in the ROM (from the link map).
* NES cost: eng_search under py65 at Master in every book position the
  level answers from the book (a seed per position): median and max
  6502 cycles and NES seconds of a book answer; and, for comparison, the
  cost the probe adds to a search out of the book (the same level, its
  book plies read as 0, on the middlegame suite).
* Variety: N Master self-play games from the start (game g starts with
  seed g and advances it as the cartridge does; reference engine, whose
  book picks the ROM's equal, emu_tests/test_rom_book.py): how many distinct
  6-ply and 10-ply openings they play.

Writes build/book_bench.md (or --out); bench/results/book.md quotes a run.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.engine_bench import suite_fens  # noqa: E402
from reference_py.board import move_iccs  # noqa: E402
from reference_py.book import default_book  # noqa: E402
from reference_py.cli import game_position  # noqa: E402
from reference_py.fen import START_FEN, parse_fen  # noqa: E402
from reference_py.search import Searcher, level_by_name  # noqa: E402
from tools.nes.search import RomSearch  # noqa: E402
from tools.nes.timing import NES_HZ  # noqa: E402

OUT = ROOT / "build" / "book_bench.md"
LEVEL = "Master"


def next_seed(seed: int) -> int:
    """The cartridge's seed after a search (asm/game/game_rules.s: x * 5 + $3B)."""
    return (seed * 5 + 0x3B) & 0xFFFF


def variety(games: int, plies: int = 10) -> list[list[str]]:
    """The first `plies` moves of Master self-play from the start: game g
    starts with seed g and advances it after every move as the cartridge
    does (its first seed comes from the frame counter)."""
    lv = level_by_name(LEVEL)
    out = []
    for game in range(1, games + 1):
        pos = parse_fen(START_FEN)
        line = []
        seed = game
        for _ in range(plies):
            res = Searcher(pos.copy(), lv, seed=seed).run()
            seed = next_seed(seed)
            if res.move is None:
                break
            line.append(move_iccs(res.move))
            pos.make(res.move)
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.book_bench")
    ap.add_argument("--games", type=int, default=20, help="self-play games for the variety (default 20)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    book = default_book()
    if book is None:
        print("error: no book data (config/book.checked.json)", file=sys.stderr)
        return 1
    t0 = time.time()
    rs = RomSearch()
    lv = level_by_name(LEVEL)
    entries = sorted((e for e in book.entries.values() if e.depth < lv.book), key=lambda e: e.fen)
    moves = sum(len(e.moves) for e in book.entries.values())
    lines = ["# Opening book benchmark (bench/book_bench.py)", "",
             f"Book: {len(book.entries):,} positions (mirror images folded), {moves:,} moves, "
             f"{len(book.openings)} openings; source SHA-256 `{book.source_sha256[:16]}`.", ""]

    cycles = []
    for i, e in enumerate(entries):
        res = rs.search(parse_fen(e.fen), LEVEL, seed=1 + i)
        if res["book"] is None:
            raise SystemExit(f"error: {e.fen}: {LEVEL} did not answer from the book")
        cycles.append(res["cycles"])
    lines += [f"## NES time of a book answer ({LEVEL}, every book position within its {lv.book} plies)", "",
              "| positions | cycles median | cycles max | NES s median | NES s max |", "|---:|---:|---:|---:|---:|",
              f"| {len(cycles):,} | {statistics.median(cycles):,.0f} | {max(cycles):,} | "
              f"{statistics.median(cycles) / NES_HZ:.3f} | {max(cycles) / NES_HZ:.3f} |", ""]

    extra = []
    for fen in suite_fens()[:10]:
        pos = game_position(fen)
        on = rs.search(pos.copy(), LEVEL)
        off = rs.search(pos.copy(), LEVEL, book=False)
        assert {k: on[k] for k in ("move", "score", "nodes")} == {k: off[k] for k in ("move", "score", "nodes")}
        extra.append(on["cycles"] - off["cycles"])
    lines += ["## The probe's cost out of the book", "",
              f"{LEVEL} on 10 middlegames (bench/middlegames.fen), the same search with and without the "
              f"probe: {statistics.median(extra):,.0f} cycles median, {max(extra):,} max "
              f"({max(extra) / NES_HZ * 1000:.1f} ms of NES time).", ""]

    lines_played = variety(args.games)
    six = Counter(" ".join(ln[:6]) for ln in lines_played)
    ten = Counter(" ".join(ln[:10]) for ln in lines_played)
    lines += [f"## Variety: {args.games} {LEVEL} self-play games from the start (seeds 1-{args.games})", "",
              f"{len(six)} distinct 6-ply openings, {len(ten)} distinct 10-ply openings.", "",
              "| 6-ply opening | games |", "|---|---:|"]
    lines += [f"| {k} | {n} |" for k, n in six.most_common()]
    lines += ["", f"(run time {time.time() - t0:.0f} s)"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
