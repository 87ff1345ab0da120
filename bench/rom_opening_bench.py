"""NES time of the ROM's search (eng_search under py65) on opening positions.

    python -m bench.rom_opening_bench [--check] [--levels A,B] [--out FILE]

The search-speed target (bench/summary.py's TARGET_*) is about the moves a
level thinks over in the cartridge's games, and the middlegame suite of
bench/rom_search_bench.py is not where a game starts.  The positions here are
the ends of the lines of the tuning matches' opening suite (bench/openings.txt,
tools/tune/openings.py), each with its game history, keeping for each level
only those where the level's opening book has no move (reference_py.book: out
of the book, or deeper than the level's book plies): those are the opening
positions the level searches.  The table is rom_search_bench's (the same code,
seed 0), with the positions kept and dropped as in book; py65's cycles are the
search's NES time within about 2% (the cartridge's NMI costs little).

Writes bench/results/rom_opening_bench.md (or --out); `python -m bench.summary`
copies its table into SUMMARY.md.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.rom_search_bench import level_row, run_cli, table_header, write_report  # noqa: E402
from reference_py.book import Book, book_move, default_book  # noqa: E402
from reference_py.position import Position  # noqa: E402
from reference_py.search import level_by_name  # noqa: E402
from tools.nes.search import RomSearch  # noqa: E402
from tools.nes.timing import NES_HZ  # noqa: E402
from tools.tune.openings import DEFAULT_SUITE, Opening, Suite, load_suite  # noqa: E402

OUT = ROOT / "bench" / "results" / "rom_opening_bench.md"
LEVELS = "Hard,Master"


def in_book(book: Book | None, pos: Position, book_plies: int) -> bool:
    """True when a level with `book_plies` answers pos from the book
    (reference_py.book.book_move; the checked book holds legal moves only,
    so the LFSR's pick, fixed here, does not change the answer)."""
    return book is not None and book_move(book, pos, book_plies, lambda: 0) is not None


def opening_positions(suite: Suite, level: str, book: Book | None) -> tuple[list[tuple[Opening, Position]], int]:
    """The suite's openings whose end positions (with history) `level`
    searches, with those positions, and how many were dropped because its
    book answers them."""
    plies = level_by_name(level).book
    kept, dropped = [], 0
    for opening in suite.openings:
        pos = opening.game().pos
        if in_book(book, pos, plies):
            dropped += 1
        else:
            kept.append((opening, pos))
    return kept, dropped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.rom_opening_bench")
    ap.add_argument("--levels", default=LEVELS, help=f"comma-separated (default {LEVELS})")
    ap.add_argument("--check", action="store_true", help="compare with the reference")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the report (default {OUT.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    suite = load_suite(DEFAULT_SUITE)
    book = default_book()
    rs = RomSearch()
    banked = rs.cart.switchable
    lines = ["# ROM search on opening positions (bench/rom_opening_bench.py)", "",
             f"The ends of the {len(suite)} lines of {suite.path.relative_to(ROOT)} (SHA-256 "
             f"`{suite.sha256[:16]}`) where the level's opening book has no move; seed 0, py65, "
             f"NES CPU at {NES_HZ:,} Hz: `python -m bench.rom_opening_bench"
             + (" --check" if args.check else "") + f" --levels {args.levels}`.", ""]
    lines += table_header(banked, args.check, ("positions", "in book (dropped)"))
    print("\n".join(lines), flush=True)
    t0 = time.time()
    details = []
    for level in args.levels.split(","):
        kept, dropped = opening_positions(suite, level, book)
        if not kept:
            raise SystemExit(f"error: {level}: every opening position is in its book")
        results: list[dict] = []
        row = level_row(rs, [pos for _, pos in kept], level, args.check, banked,
                        (str(len(kept)), str(dropped)), results)
        lines.append(row)
        print(row, flush=True)
        details += ["", f"## {level}, per position", "",
                    "| line | plies | opening | move | nodes | depth | s |", "|---|---|---|---|---|---|---|"]
        details += [f"| {o.line} | {len(o.moves)} | {o.name} | {r['move']} | {r['nodes']:,} | {r['depth']} "
                    f"| {r['cycles'] / NES_HZ:.2f} |" for (o, _), r in zip(kept, results)]
    lines += details
    write_report(args.out, lines, t0)
    return 0


if __name__ == "__main__":
    run_cli(main)
