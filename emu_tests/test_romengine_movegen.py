"""Move generation, legality and the attack test of the ROM's engine equal
the reference's, move for move and in order, on 520 seeded positions.

Each position is loaded with eng_load (the canonical rebuild) and compared
with the reference position after Position.rebuild(): every state byte,
the pseudo-legal list (all moves and captures only), the legal list (make,
eng_is_legal, unmake per move) and eng_in_check for both sides.
"""
from __future__ import annotations

from collections import Counter

import pytest

from emu_tests.romengine_positions import categories, positions
from reference_py.config import load_eval
from reference_py.evaluate import tables_for
from tools.nes.engine import RomEngine, reference_state

SETS = list(load_eval().sets)
MIN_CATEGORY = {"check": 20, "pin": 20, "flying_general": 20, "cannon_capture": 20,
                "cannon_screen_check": 3, "no_legal_moves": 5}


@pytest.fixture(scope="module")
def eng() -> RomEngine:
    return RomEngine()


@pytest.fixture(scope="module")
def cases():
    return positions(520, seed=2024)


def test_categories_are_covered(cases):
    seen = Counter()
    for p in cases:
        seen.update(categories(p.copy()))
    for cat, least in MIN_CATEGORY.items():
        assert seen[cat] >= least, f"only {seen[cat]} positions with {cat}: {dict(seen)}"


def test_generation_order_and_legality_match_reference(eng, cases):
    seen = Counter()
    for n, p in enumerate(cases):
        vset = n % len(SETS)
        ref = p.copy()
        ref.set_values(tables_for(SETS[vset]).values)
        ref.rebuild()
        eng.load(ref, vset)
        where = f"position {n} ({SETS[vset]})"
        assert eng.state() == reference_state(ref), where
        assert eng.generate() == ref.generate(), where
        eng.write("ms_top", [0])
        assert eng.generate(captures_only=True) == ref.generate(True), where
        eng.write("ms_top", [0])
        legal = eng.legal_moves()
        assert legal == ref.legal_moves(), where
        assert eng.in_check(0) == ref.in_check(0), where
        assert eng.in_check(1) == ref.in_check(1), where
        assert eng.byte("eng_ply") == 0 and eng.byte("ms_top") == 0
        seen["positions"] += 1
        seen["legal moves"] += len(legal)
    assert seen["positions"] == 520
