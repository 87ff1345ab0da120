"""The ROM's static evaluation (asm/engine/eng_eval.s) equals reference evaluate()
on 520 random-game positions for every weight set, and the leaf evaluation
with noise (search_eval: the 16-bit Galois LFSR) equals Searcher.eval() call
by call for every level and a few seeds.  The lazy test e >= T
(eng_eval_ge, and search_eval_ge with noise) answers as the exact value
would, and gives the value when it is below T.  Runs under py65 with the guards of
tools/nes (undocumented opcodes, out-of-map accesses, stack floor,
cycle limit).  The cycle counts of eng_eval are printed (pytest -s)."""
from __future__ import annotations

import statistics

import pytest

from emu_tests.romengine_positions import positions
from reference_py.config import load_eval
from reference_py.evaluate import evaluate, tables_for
from reference_py.search import Searcher, levels
from tools.nes.search import RomSearch

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


# Thresholds around the evaluation e for the lazy test (eng_eval_ge): far
# below and above, at e, and at e +- the largest weakness of a side, where
# the bound (e >= base - W(own)) decides or fails to.
T_OFFSETS = (-32000, -300, -125, -124, -60, -1, 0, 1, 2, 60, 124, 300, 32000)


@pytest.mark.parametrize("set_name", SETS)
def test_lazy_eval_answers_e_at_least_t(rs, set_name):
    """eng_eval_ge says whether e >= T, and gives e exactly when e < T, for
    thresholds around e on every fourth test position; the bound settles
    part of the answers early (fewer cycles than the exact evaluation)."""
    t = tables_for(set_name)
    early = total = 0
    early_cycles, below_cycles = [], []
    for i, pos in enumerate(POSITIONS[::4]):
        p = pos.copy()
        p.rebuild()
        p.set_values(t.values)
        want = evaluate(p, t)
        _, exact_cycles = rs.eval(p, set_name)
        for off in T_OFFSETS:
            threshold = off if abs(off) > 1000 else want + off
            ge, got, cycles = rs.eval_ge(p, set_name, threshold, load=False)
            assert ge == (want >= threshold), f"position {i}, T = e {off:+}: says {ge}"
            if not ge:
                assert got == want, f"position {i}, T = e {off:+}: {got} != {want}"
            total += 1
            settled = ge and cycles < exact_cycles - 20
            early += settled
            (early_cycles if settled else below_cycles if not ge else []).append(cycles)
    print(f"\neng_eval_ge [{set_name}]: {early} of {total} answers settled by the bound"
          + (f" (cycles median {statistics.median(early_cycles):.0f})" if early_cycles else "")
          + f"; e < T: cycles min {min(below_cycles)}, median {statistics.median(below_cycles):.0f}, "
          f"max {max(below_cycles)}")
    if t.knowledge:
        assert early > total // 10


@pytest.mark.parametrize("level_index", range(len(levels())))
def test_leaf_eval_test_with_noise_equals_searcher(rs, level_index):
    """search_eval_ge (quiescence's stand pat): C says whether the leaf value
    (with the level's noise) is at least T, rv holds it when it is below,
    and the LFSR steps once per call, as Searcher.eval()."""
    lv = levels()[level_index]
    for pos in POSITIONS[:: 97]:
        p = pos.copy()
        p.rebuild()
        s = Searcher(p, lv, seed=7)
        p.set_values(s.tables.values)
        want = [s.eval() for _ in range(24)]
        rs.load(p, rs.sets.index(lv.eval))
        rs.write("s_level", [level_index])
        rs.write("s_lfsr", [7, 0])
        for k, e in enumerate(want):
            threshold = e + (-1, 0, 1)[k % 3] if k % 4 else (-32000, 32000)[(k // 4) & 1]
            rs.write("eval_t", [threshold & 0xFF, (threshold >> 8) & 0xFF])
            rs.call("search_eval_ge")
            ge = not rs.cpu.mpu.p & 1
            assert ge == (e >= threshold), (k, e, threshold)
            if not ge:
                assert rs.word("rv") == e & 0xFFFF
        lfsr = rs.word("s_lfsr")
        assert lfsr == s.lfsr
