"""bench/move_judge.py's configurations: a level's `sparse` block by its keys."""
from __future__ import annotations

import pytest

from bench.move_judge import SpecError, parse_spec
from reference_py.config import SparseLimits
from reference_py.search import level_by_name


def test_sparse_keys_set_change_or_drop_the_block():
    master = level_by_name("Master")
    assert parse_spec("sparse_pieces=0", "Master")[0].sparse is None
    assert parse_spec("sparse_nodes=11000", "Master")[0].sparse == SparseLimits(master.sparse.pieces, 11000)
    lv = parse_spec("sparse_pieces=28,sparse_nodes=10000", "Hard")[0]
    assert lv.sparse == SparseLimits(28, 10000) and lv.nodes == level_by_name("Hard").nodes
    with pytest.raises(SpecError, match="has no sparse block"):
        parse_spec("sparse_pieces=28", "Hard")
