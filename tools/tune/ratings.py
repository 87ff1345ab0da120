"""One Elo scale for every player of a ladder, from all its matches at once.

Each match gives only a difference; the ladder's levels meet several
anchors and their neighbours, so their ratings come from a joint
maximum-likelihood fit of the logistic Elo model (the expected score of A
against B is 1 / (1 + 10^(-(R_A - R_B)/400)), a draw counting half a win),
with the first anchor fixed at 0.  One virtual draw is added to every
match (a weak prior, as BayesElo's): a 100% score then gives a large but
finite rating instead of an infinite one.  The 95% interval comes from a
bootstrap that resamples each match's game pairs (so it keeps the pairs'
correlation) and refits: the 2.5% and 97.5% quantiles of each rating.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LN10_400 = math.log(10) / 400


class RatingError(ValueError):
    pass


@dataclass(frozen=True)
class MatchPoints:
    a: str
    b: str
    pair_points: tuple[float, ...]      # A's points in each pair (0..2)


def _fit(players: list[str], fixed: int, pairs_idx: list[tuple[int, int]], n: np.ndarray, s: np.ndarray,
         prior: float) -> np.ndarray:
    """Ratings (Elo) maximizing the likelihood; Newton's method on the free players."""
    k = len(players)
    x = np.zeros(k)
    free = [i for i in range(k) if i != fixed]
    ia = np.array([a for a, _ in pairs_idx])
    ib = np.array([b for _, b in pairs_idx])
    nn = n + prior
    ss = s + prior / 2
    for _ in range(100):
        e = 1 / (1 + np.exp(-(x[ia] - x[ib])))
        g = np.zeros(k)
        np.add.at(g, ia, ss - nn * e)
        np.add.at(g, ib, -(ss - nn * e))
        w = nn * e * (1 - e)
        h = np.zeros((k, k))
        np.add.at(h, (ia, ia), w)
        np.add.at(h, (ib, ib), w)
        np.add.at(h, (ia, ib), -w)
        np.add.at(h, (ib, ia), -w)
        hf = h[np.ix_(free, free)]
        step = np.linalg.solve(hf, g[free])
        x[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return x / LN10_400


def fit_ratings(matches: list[MatchPoints], fixed: str, *, prior_draws: float = 1.0, boot: int = 500,
                seed: int = 0) -> dict[str, dict]:
    """{player: {"elo", "elo_lo", "elo_hi", "elo_ci95"}} on the scale where `fixed` is 0."""
    players = sorted({m.a for m in matches} | {m.b for m in matches})
    if fixed not in players:
        raise RatingError(f"{fixed} played no game")
    idx = {p: i for i, p in enumerate(players)}
    # every player must be connected to the fixed one by matches
    reach, frontier = {fixed}, [fixed]
    while frontier:
        p = frontier.pop()
        for m in matches:
            for u, v in ((m.a, m.b), (m.b, m.a)):
                if u == p and v not in reach and m.pair_points:
                    reach.add(v)
                    frontier.append(v)
    if len(reach) != len(players):
        raise RatingError(f"no games connect {', '.join(sorted(set(players) - reach))} to {fixed}")
    played = [m for m in matches if m.pair_points]
    pairs_idx = [(idx[m.a], idx[m.b]) for m in played]
    n = np.array([2.0 * len(m.pair_points) for m in played])
    s = np.array([float(sum(m.pair_points)) for m in played])
    best = _fit(players, idx[fixed], pairs_idx, n, s, prior_draws)
    rng = np.random.default_rng(seed)
    pts = [np.array(m.pair_points, dtype=float) for m in played]
    samples = np.empty((boot, len(players)))
    for b in range(boot):
        sb = np.array([p[rng.integers(0, len(p), len(p))].sum() for p in pts])
        samples[b] = _fit(players, idx[fixed], pairs_idx, n, sb, prior_draws)
    lo = np.quantile(samples, 0.025, axis=0) if boot else best
    hi = np.quantile(samples, 0.975, axis=0) if boot else best
    return {p: {"elo": round(float(best[i]), 1), "elo_lo": round(float(lo[i]), 1), "elo_hi": round(float(hi[i]), 1),
                "elo_ci95": round(float(hi[i] - lo[i]) / 2, 1)} for p, i in idx.items()}
