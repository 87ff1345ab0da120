"""bench/thin_board_bench.py picks the positions it says it times."""
from __future__ import annotations

import pytest

from bench.rom_opening_bench import in_book
from bench.thin_board_bench import MAX_PLY, thin_positions
from reference_py.book import default_book
from reference_py.search import level_by_name


def test_thin_positions_are_early_out_of_book_and_at_the_piece_limit():
    master = level_by_name("Master")
    picked = thin_positions("Master", 6)
    assert len(picked) == 6
    book = default_book()
    for pos in picked:
        assert sum(pos.count) in (master.sparse.pieces, master.sparse.pieces - 1)
        assert len(pos.keys) - 1 <= MAX_PLY
        assert not in_book(book, pos, master.book)
    assert [p.keys[-1] for p in thin_positions("Master", 6)] == [p.keys[-1] for p in picked]   # a fixed sample


def test_a_level_without_a_sparse_block_is_refused():
    with pytest.raises(SystemExit, match="has no sparse block"):
        thin_positions("Novice", 3)
