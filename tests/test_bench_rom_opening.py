"""bench/rom_opening_bench.py: which opening positions a level searches.

A suite of two lines, one whose end is in Master's book (the start, then
the book's own first moves) and one that leaves the book (a rook's pawn
shuffle no book line plays): Master keeps only the second, Novice (4 book
plies) the same, and a level without a book would keep both.  The positions
carry their game history, which the search's repetition rules read.
"""
from __future__ import annotations

from pathlib import Path

from bench.rom_opening_bench import in_book, opening_positions
from reference_py.book import default_book
from reference_py.search import level_by_name
from tools.tune.openings import load_suite


def _suite(tmp_path: Path, text: str):
    path = tmp_path / "openings.txt"
    path.write_text(text)
    return load_suite(path)


def test_book_positions_are_dropped_and_the_rest_kept(tmp_path: Path):
    book = default_book()
    assert book is not None
    suite = _suite(tmp_path, "h2e2 h9g7   # in the book\na3a4 a6a5 i3i4   # out of it\n")
    kept, dropped = opening_positions(suite, "Master", book)
    assert dropped == 1 and len(kept) == 1
    assert kept[0][0] is suite.openings[1]
    assert len(kept[0][1].keys) == 4                       # the start and three plies
    assert in_book(book, suite.openings[0].game().pos, level_by_name("Master").book)
    assert not in_book(book, kept[0][1], level_by_name("Master").book)


def test_a_book_position_deeper_than_the_levels_plies_is_searched(tmp_path: Path):
    book = default_book()
    suite = _suite(tmp_path, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7\n")
    pos = suite.openings[0].game().pos
    entry = book.moves(pos)
    assert entry is not None and entry[0].depth == 6
    assert in_book(book, pos, 7) and not in_book(book, pos, 6)
    assert not in_book(None, pos, 40)
