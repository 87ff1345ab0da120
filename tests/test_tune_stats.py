"""tools/tune/stats.py against published reference values: fastchess's own
unit tests (app/tests/elo_test.cpp, sprt_test.cpp) and numbers computed by
fishtest's code (tests/data/fishtest_sprt.json says how)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tools.tune.stats import (
    Sprt, elo_estimate, elo_to_score, llr_logistic, llr_normalized, pentanomial, score_to_elo, trinomial,
)

DATA = json.loads((Path(__file__).parent / "data" / "fishtest_sprt.json").read_text())


def penta(ll, ld, wl, dd, wd, ww):
    """fastchess's Stats(ll, ld, wl, dd, wd, ww) as fishtest's [LL, LD, WL+DD, WD, WW]."""
    return [ll, ld, wl + dd, wd, ww]


def approx(want, eps=0.01):
    """doctest::Approx(want).epsilon(eps): relative to the larger magnitude."""
    return pytest.approx(want, rel=eps)


# fastchess elo_test.cpp: (stats, nElo, nElo error, Elo, Elo error, LOS text, score)
ELO_WDL = [((76, 89, 123), -20.76, 40.13, None, None, "15.53 %", 0.477),
           ((136, 96, 111), 49.77, 36.77, 40.70, 30.43, "99.60 %", 0.558),
           ((34, 356, 0), -508.44, 34.48, None, None, None, 0.087)]
ELO_PENTA = [((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, "100.00 %", 0.579),
             ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, "5.05 %", 0.488),
             ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, "0.00 %", 0.470)]


@pytest.mark.parametrize("stats, nelo, nerr, elo, err, los, score", ELO_WDL)
def test_trinomial_elo_matches_fastchess(stats, nelo, nerr, elo, err, los, score):
    w, l, d = stats
    e = elo_estimate([l, d, w])
    assert e.nelo == approx(nelo) and e.nelo_ci95 == approx(nerr) and e.score == approx(score)
    if elo is not None:
        assert e.elo == approx(elo) and e.elo_ci95 == approx(err)
    if los is not None:
        assert f"{e.los * 100:.2f} %" == los
    assert e.games == w + l + d


@pytest.mark.parametrize("stats, nelo, nerr, elo, err, los, score", ELO_PENTA)
def test_pentanomial_elo_matches_fastchess(stats, nelo, nerr, elo, err, los, score):
    e = elo_estimate(penta(*stats))
    assert e.nelo == approx(nelo) and e.nelo_ci95 == approx(nerr)
    assert e.elo == approx(elo) and e.elo_ci95 == approx(err)
    assert f"{e.los * 100:.2f} %" == los and e.score == approx(score)
    assert e.games == 2 * sum(stats)


# fastchess sprt_test.cpp: (stats W, L, D or pentanomial, elo0, elo1, model, LLR)
SPRT_TRI = [((36433, 36027, 68692), 0, 2, "normalized", 0.92), ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
            ((4250, 0, 0), 0, 10, "normalized", 120.56), ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
            ((57433, 57030, 106593), 0, 2, "logistic", -2.59)]
SPRT_PENTA = [((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
              ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
              ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
              ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
              ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98)]


@pytest.mark.parametrize("stats, e0, e1, model, llr", SPRT_TRI)
def test_trinomial_llr_matches_fastchess(stats, e0, e1, model, llr):
    w, l, d = stats
    assert Sprt(e0, e1, model=model).compute_llr([l, d, w]) == approx(llr)


@pytest.mark.parametrize("stats, e0, e1, model, llr", SPRT_PENTA)
def test_pentanomial_llr_matches_fastchess(stats, e0, e1, model, llr):
    assert Sprt(e0, e1, model=model).compute_llr(penta(*stats)) == approx(llr)


@pytest.mark.parametrize("case", DATA["llr"], ids=lambda c: f"{c[3]}{c[1]},{c[2]}")
def test_llr_equals_fishtest(case):
    results, e0, e1, model, want = case
    f = llr_logistic if model == "logistic" else llr_normalized
    assert f(e0, e1, results) == pytest.approx(want, abs=1e-8)


@pytest.mark.parametrize("case", DATA["get_elo"], ids=lambda c: str(c[0]))
def test_elo_interval_and_los_equal_fishtest(case):
    results, (elo, elo95, los) = case
    e = elo_estimate(results)
    assert (e.elo, e.elo_ci95, e.los) == pytest.approx((elo, elo95, los), abs=1e-9)


@pytest.mark.parametrize("seq", DATA["sequences"], ids=lambda s: f"{s['model']}{s['elo0']},{s['elo1']}")
def test_sprt_run_equals_fishtest_pair_by_pair(seq):
    """LLR and state after every pair, overshoot correction included, end on the same pair."""
    s = Sprt(seq["elo0"], seq["elo1"], 0.05, 0.05, seq["model"])
    counts = [0] * 5
    for k, (llr, state) in zip(seq["pairs"], seq["trace"]):
        counts[k] += 1
        assert s.update(counts) == state
        assert s.llr == pytest.approx(llr, abs=1e-8)
    assert s.state in ("accepted", "rejected")


def test_sprt_bounds_and_bad_parameters():
    s = Sprt(0, 5, 0.05, 0.05)
    assert s.lower == pytest.approx(math.log(0.05 / 0.95)) and s.upper == pytest.approx(math.log(0.95 / 0.05))
    for kw, says in (({"elo0": 5, "elo1": 0}, "elo0 < elo1"), ({"alpha": 0}, "alpha"), ({"beta": 1.2}, "beta"),
                     ({"alpha": 0.6, "beta": 0.5}, r"alpha \+ beta"), ({"model": "bayes"}, "model")):
        with pytest.raises(ValueError, match=says):
            Sprt(**kw)


def test_scores_and_tallies():
    assert score_to_elo(0.5) == 0 and score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf
    assert score_to_elo(elo_to_score(123.4)) == pytest.approx(123.4)
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2]) == [1, 1, 2, 1, 1]
    assert trinomial([0, 0.5, 1, 1]) == [1, 1, 2]
    with pytest.raises(ValueError, match="0, 0.5, 1, 1.5 or 2"):
        pentanomial([2.5])
    e = elo_estimate([0, 0, 0, 0, 3])
    assert e.elo == math.inf and math.isnan(e.elo_ci95) and e.los == 1.0
    assert e.as_json()["elo"] is None
