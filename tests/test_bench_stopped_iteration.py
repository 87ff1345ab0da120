"""bench/move_judge.py and bench/stopped_iteration.py: the sign test, the
configurations, the choice of positions."""
from __future__ import annotations

import math

import pytest

from bench.move_judge import SpecError, clip, parse_spec, positions, search_pair, sign_test_p
from bench.stopped_iteration import main, search_one
from reference_py.search import level_by_name, search_config


def test_sign_test_p_is_the_two_sided_binomial_tail():
    assert sign_test_p(0, 0) == 1.0
    assert sign_test_p(5, 5) == 1.0
    assert math.isclose(sign_test_p(14, 5), 2 * sum(math.comb(19, i) for i in range(6)) / 2 ** 19)
    assert math.isclose(sign_test_p(10, 0), 2 / 2 ** 10)
    assert sign_test_p(3, 9) == sign_test_p(9, 3)


def test_clip_caps_decided_scores():
    assert clip(29990) == 500 and clip(-29990) == -500 and clip(37) == 37


def test_parse_spec_sets_level_and_pruning_knobs():
    lv, pr = parse_spec("", "Hard")
    assert lv == level_by_name("Hard") and pr == search_config().pruning
    lv, pr = parse_spec("nodes=1234, rfp_margin=33", "Hard")
    assert lv.nodes == 1234 and pr.rfp_margin == 33 and lv.depth == level_by_name("Hard").depth
    lv, _ = parse_spec("eval=basic,noise=7,check_ext=4", "Hard")
    assert (lv.eval, lv.noise, lv.check_ext) == ("basic", 7, 4)
    for bad in ("nodes", "nodes=x", "speed=3"):
        with pytest.raises(SpecError, match="configuration"):
            parse_spec(bad, "Hard")


def test_positions_are_distinct_and_searchable():
    picked = positions("Master", 40)
    assert picked and len(set((f, tuple(m)) for f, m in picked)) == len(picked)
    row = search_one(("Novice", "", *picked[0]))   # a cheap level: a searched position's row
    assert set(row) >= {"fen", "capped"}
    assert search_one(("Novice", "nodes=5,next_iteration=0", *picked[0]))["capped"]   # the spec reaches the search
    pair = search_pair(("Novice", "", "nodes=5", *picked[0]))
    assert pair["nodes_b"] <= 5 and pair["a"] and pair["b"]


def test_an_unknown_config_knob_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--config", "speed=3"])
    assert e.value.code == 2 and "unknown key 'speed'" in capsys.readouterr().err
