"""Match statistics: Elo with a 95% interval, LOS, and the pentanomial SPRT.

Results come as frequency lists over evenly spaced scores, lowest first,
the convention fishtest uses:
  * trinomial, one entry per game: [losses, draws, wins];
  * pentanomial, one entry per game pair (the same opening with colours
    swapped): [LL, LD+DL, LW+WL+DD, WD+DW, WW], i.e. the pair's points
    0, 0.5, 1, 1.5, 2.

The Elo estimate and its interval follow fastchess (elo_wdl.cpp,
elo_pentanomial.cpp): the mean score per game and its variance from the
empirical distribution, a normal 95% interval on the score mapped to Elo,
and LOS = P(true score > 1/2) under the same normal approximation.  Pair
statistics count the variance per pair, which is smaller than per game
when colours or openings matter, so the interval is honest about them.

The SPRT is fishtest's (server/fishtest/stats/LLRcalc.py and
stat_util.update_SPRT): the generalized log-likelihood ratio of the
multinomial maximum-likelihood distributions under H0 and H1, for either
logistic Elo bounds (score = 1 / (1 + 10^(-elo/400))) or normalized Elo
bounds (t = (score - 1/2) / sigma, per game pair sigma * sqrt(2)); the
stopping bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha), with
fishtest's dynamic overshoot correction (Siegmund, Corollary 8.33).  An
empty result class gets fishtest's regularization (1e-3 instead of 0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

NELO_PER_NT = 800 / math.log(10)          # normalized Elo per unit of t (347.43...)
Z95 = 1.959963984540054                   # the normal 97.5% quantile
REGULARIZE = 1e-3                         # fishtest's stand-in for an empty class


def elo_to_score(elo: float) -> float:
    """Expected score of a player `elo` logistic Elo above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of an expected score; +-inf at 1 and 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _scores(n: int) -> list[float]:
    if n not in (3, 5):
        raise ValueError(f"results must have 3 (L, D, W) or 5 (pentanomial) entries, not {n}")
    return [i / (n - 1) for i in range(n)]


def _mean_var(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mu = sum(p * a for a, p in zip(values, probs))
    return mu, sum(p * (a - mu) ** 2 for a, p in zip(values, probs))


@dataclass(frozen=True)
class EloEstimate:
    """What a match says about A against B (A's point of view)."""
    units: int            # games (trinomial) or game pairs (pentanomial)
    games: int
    score: float          # A's mean score per game, 0..1
    elo: float            # logistic Elo difference (+-inf for a 100% / 0% score)
    elo_ci95: float       # half-width of the 95% interval (nan when elo is infinite)
    elo_lo: float
    elo_hi: float
    los: float            # likelihood of superiority, P(A stronger)
    nelo: float           # normalized Elo (nan without variance)
    nelo_ci95: float

    def as_json(self) -> dict:
        def num(x: float, nd: int) -> float | None:
            return None if math.isnan(x) or math.isinf(x) else round(x, nd)
        return {"games": self.games, "score": round(self.score, 4), "elo": num(self.elo, 1),
                "elo_ci95": num(self.elo_ci95, 1), "elo_lo": num(self.elo_lo, 1), "elo_hi": num(self.elo_hi, 1),
                "los": round(self.los, 4), "nelo": num(self.nelo, 1), "nelo_ci95": num(self.nelo_ci95, 1)}


def elo_estimate(results: Sequence[int]) -> EloEstimate:
    """Elo, its 95% interval and LOS from trinomial or pentanomial counts."""
    values = _scores(len(results))
    n = sum(results)
    if n <= 0:
        raise ValueError("no results")
    probs = [r / n for r in results]
    score, var = _mean_var(values, probs)
    per_unit = var / n
    penta = len(results) == 5
    games = n * (2 if penta else 1)
    elo = score_to_elo(score)
    if per_unit > 0:
        sd = math.sqrt(per_unit)
        lo, hi = score_to_elo(score - Z95 * sd), score_to_elo(score + Z95 * sd)
        ci = (hi - lo) / 2 if math.isfinite(lo) and math.isfinite(hi) else math.nan
        los = 0.5 * (1.0 - math.erf(-(score - 0.5) / math.sqrt(2.0 * per_unit)))
        sigma = math.sqrt((2.0 if penta else 1.0) * var)
        nelo = (score - 0.5) / sigma * NELO_PER_NT
        nelo_ci = Z95 * sd / sigma * NELO_PER_NT
    else:
        lo = hi = elo
        ci = 0.0 if math.isfinite(elo) else math.nan
        los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
        nelo = nelo_ci = math.nan
    return EloEstimate(n, games, score, elo, ci, lo, hi, los, nelo, nelo_ci)


# ---- fishtest's generalized log-likelihood ratio

def _solve(f, lo: float, hi: float) -> float:
    """The root of an increasing-or-decreasing continuous f on (lo, hi) by bisection
    (f changes sign on the interval; ends are poles, so stay inside)."""
    eps = 1e-9
    a, b = lo + eps, hi - eps
    fa = f(a)
    for _ in range(200):
        m = (a + b) / 2
        fm = f(m)
        if fm == 0 or b - a < 1e-15:
            return m
        if (fm < 0) == (fa < 0):
            a, fa = m, fm
        else:
            b = m
    return (a + b) / 2


def _secular(pdf: list[tuple[float, float]]) -> float:
    """x with sum p_i a_i / (1 + x a_i) = 0 (the a_i straddle zero)."""
    v = min(a for a, _ in pdf)
    w = max(a for a, _ in pdf)
    if v * w >= 0:
        raise ValueError("the secular equation needs values on both sides of zero")
    return _solve(lambda x: sum(p * a / (1 + x * a) for a, p in pdf), -1 / w, -1 / v)


def _mle_expected(pdf: list[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution closest (maximum likelihood) to pdf whose mean is s."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def _mle_t_value(pdf: list[tuple[float, float]], ref: float, t: float) -> list[tuple[float, float]]:
    """The maximum-likelihood distribution with (mean - ref) / sigma = t."""
    n = len(pdf)
    mle = [(a, 1 / n) for a, _ in pdf]
    for _ in range(10):
        prev = mle
        mu, var = _mean_var([a for a, _ in mle], [p for _, p in mle])
        sigma = math.sqrt(var)
        phi = [(a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = _secular(phi)
        mle = [(pdf[i][0], pdf[i][1] / (1 + x * phi[i][0])) for i in range(n)]
        if max(abs(prev[i][1] - mle[i][1]) for i in range(n)) < 1e-9:
            break
    return mle


def _pdf(results: Sequence[int]) -> tuple[float, list[tuple[float, float]]]:
    reg = [r if r else REGULARIZE for r in results]
    n = sum(reg)
    return n, [(a, r / n) for a, r in zip(_scores(len(results)), reg)]


def _llr(pdf: list[tuple[float, float]], p0: list[tuple[float, float]], p1: list[tuple[float, float]]) -> float:
    return sum(p * (math.log(p1[i][1]) - math.log(p0[i][1])) for i, (_, p) in enumerate(pdf))


def llr_logistic(elo0: float, elo1: float, results: Sequence[int]) -> float:
    """LLR of H1: elo = elo1 against H0: elo = elo0, bounds in logistic Elo."""
    n, pdf = _pdf(results)
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * _llr(pdf, _mle_expected(pdf, s0), _mle_expected(pdf, s1))


def llr_normalized(nelo0: float, nelo1: float, results: Sequence[int]) -> float:
    """LLR with bounds in normalized Elo (fishtest's default model)."""
    scale = math.sqrt(2) if len(results) == 5 else 1.0
    t0, t1 = (e / NELO_PER_NT * scale for e in (nelo0, nelo1))
    n, pdf = _pdf(results)
    return n * _llr(pdf, _mle_t_value(pdf, 0.5, t0), _mle_t_value(pdf, 0.5, t1))


MODELS = ("normalized", "logistic")


@dataclass
class Sprt:
    """A running SPRT, updated after every game pair (fishtest's batch size 1)."""
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"
    llr: float = 0.0
    state: str = ""                     # "", "accepted" (H1) or "rejected" (H0)
    samples: int = 0
    _o: dict = field(default_factory=lambda: {"ref0": 0.0, "m0": 0.0, "sq0": 0.0,
                                              "ref1": 0.0, "m1": 0.0, "sq1": 0.0})

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"SPRT model must be one of {', '.join(MODELS)}, not '{self.model}'")
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1 (got {self.elo0} and {self.elo1})")
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < v < 1:
                raise ValueError(f"SPRT {name} must be between 0 and 1 (got {v})")
        if self.alpha + self.beta >= 1:
            raise ValueError("SPRT needs alpha + beta < 1")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def compute_llr(self, results: Sequence[int]) -> float:
        if self.model == "logistic":
            return llr_logistic(self.elo0, self.elo1, results)
        return llr_normalized(self.elo0, self.elo1, results)

    def update(self, results: Sequence[int]) -> str:
        """Feed the cumulative results after one more unit (pair or game);
        returns the state.  As fishtest: skipped updates reset the overshoot
        record instead of corrupting it."""
        n = sum(results)
        self.llr = self.compute_llr(results)
        o = self._o
        if n == self.samples + 1:
            if self.llr < o["ref0"]:
                d = self.llr - o["ref0"]
                o["m0"] += d
                o["sq0"] += d * d
                o["ref0"] = self.llr
            if self.llr > o["ref1"]:
                d = self.llr - o["ref1"]
                o["m1"] += d
                o["sq1"] += d * d
                o["ref1"] = self.llr
        elif n != self.samples:
            o["ref0"] = o["ref1"] = self.llr
        self.samples = n
        o0 = -o["sq0"] / o["m0"] / 2 if o["m0"] else 0.0
        o1 = o["sq1"] / o["m1"] / 2 if o["m1"] else 0.0
        self.state = ""
        if self.llr < self.lower + o0:
            self.state = "rejected"
        elif self.llr > self.upper - o1:
            self.state = "accepted"
        return self.state


# ---- tallies

def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Pentanomial counts from each pair's points for A (0, 0.5, ..., 2)."""
    out = [0] * 5
    for p in pair_points:
        i = round(p * 2)
        if not 0 <= i <= 4 or abs(p * 2 - i) > 1e-9:
            raise ValueError(f"a game pair scores 0, 0.5, 1, 1.5 or 2 points, not {p}")
        out[i] += 1
    return out


def trinomial(game_points: Sequence[float]) -> list[int]:
    """[losses, draws, wins] from each game's points for A."""
    out = [0, 0, 0]
    for p in game_points:
        i = round(p * 2)
        if not 0 <= i <= 2 or abs(p * 2 - i) > 1e-9:
            raise ValueError(f"a game scores 0, 0.5 or 1, not {p}")
        out[i] += 1
    return out
