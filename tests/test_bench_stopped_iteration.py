"""bench/stopped_iteration.py: its sign test and its choice of positions."""
from __future__ import annotations

import math

from bench.stopped_iteration import clip, positions, search_one, sign_test_p


def test_sign_test_p_is_the_two_sided_binomial_tail():
    assert sign_test_p(0, 0) == 1.0
    assert sign_test_p(5, 5) == 1.0
    assert math.isclose(sign_test_p(14, 5), 2 * sum(math.comb(19, i) for i in range(6)) / 2 ** 19)
    assert math.isclose(sign_test_p(10, 0), 2 / 2 ** 10)
    assert sign_test_p(3, 9) == sign_test_p(9, 3)


def test_clip_caps_decided_scores():
    assert clip(29990) == 500 and clip(-29990) == -500 and clip(37) == 37


def test_positions_are_distinct_and_searchable():
    picked = positions("Master", 40)
    assert picked and len(set((f, tuple(m)) for f, m in picked)) == len(picked)
    row = search_one(("Novice", *picked[0]))       # a cheap level: a searched position's row
    assert set(row) >= {"fen", "capped"}
