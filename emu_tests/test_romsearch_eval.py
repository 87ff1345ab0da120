"""The ROM's static evaluation (asm/eng_eval.s) equals reference evaluate()
on 520 random-game positions for every weight set, and the leaf evaluation
with noise (search_eval: the 16-bit Galois LFSR) equals Searcher.eval() call
by call for every level and a few seeds.  Runs under py65 with the guards of
tools/romengine (undocumented opcodes, out-of-map accesses, stack floor,
cycle limit).  The cycle counts of eng_eval are printed (pytest -s)."""
from __future__ import annotations

import statistics

import pytest

from emu_tests.romengine_positions import positions
from reference_py.config import load_eval
from reference_py.evaluate import evaluate, tables_for
from reference_py.search import Searcher, levels
from tools.romsearch import RomSearch

SETS = list(load_eval().sets)
POSITIONS = positions(520)


@pytest.fixture(scope="module")
def rs() -> RomSearch:
    return RomSearch()


@pytest.mark.parametrize("set_name", SETS)
def test_eval_equals_reference(rs, set_name):
    t = tables_for(set_name)
    cycles, bad = [], []
    for i, pos in enumerate(POSITIONS):
        p = pos.copy()
        p.rebuild()
        p.set_values(t.values)
        want = evaluate(p, t)
        got, c = rs.eval(p, set_name)
        cycles.append(c)
        if got != want:
            bad.append((i, want, got))
    print(f"\neng_eval [{set_name}] cycles over {len(cycles)} positions: min {min(cycles)}, "
          f"median {statistics.median(cycles):.0f}, max {max(cycles)} (call to final RTS)")
    assert not bad, f"{len(bad)} mismatches (index, reference, rom): {bad[:5]}"
    assert len(POSITIONS) >= 500


@pytest.mark.parametrize("level_index", range(len(levels())))
@pytest.mark.parametrize("seed", [0, 1, 0xBEEF])
def test_noisy_leaf_eval_equals_searcher_eval(rs, level_index, seed):
    lv = levels()[level_index]
    for pos in POSITIONS[:: 97]:
        p = pos.copy()
        p.rebuild()
        s = Searcher(p, lv, seed=seed)
        p.set_values(s.tables.values)
        want = [s.eval() for _ in range(40)]
        assert rs.noisy_evals(p, level_index, seed, 40) == want
