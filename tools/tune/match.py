"""Matches: game pairs on the opening suite, and what their results say.

A match between A and B of `pairs` pairs plays, for pair k, opening
(offset + k) of the suite twice: game 0 with A as Red, game 1 with B as
Red.  Each game's seed comes from (match name, k, game), so a match is the
same set of games on every run and every machine, and so is its cache.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .games import MAX_PLIES, points, stable_seed, task_key
from .openings import Suite
from .stats import EloEstimate, elo_estimate, pentanomial, trinomial


@dataclass
class Match:
    a: str
    b: str
    pairs: int
    tasks: list[dict] = field(default_factory=list)     # 2 per pair, pair by pair

    def pair_tasks(self, k: int) -> tuple[dict, dict]:
        return self.tasks[2 * k], self.tasks[2 * k + 1]


def make_match(a: str, b: str, pairs: int, suite: Suite, *, seed: int = 1, offset: int = 0,
               trees: dict | None = None, max_plies: int = MAX_PLIES) -> Match:
    m = Match(a, b, pairs)
    for k in range(pairs):
        opening = list(suite.for_pair(k, offset).moves)
        for g, (red, black) in enumerate(((a, b), (b, a))):
            task = {"red": red, "black": black, "opening": opening, "seed": stable_seed(seed, a, b, k, g),
                    "max_plies": max_plies}
            if trees:
                task["trees"] = trees
            m.tasks.append(task)
    return m


@dataclass(frozen=True)
class Tally:
    """A's results in the finished pairs of a match."""
    a: str
    b: str
    wins: int
    draws: int
    losses: int
    penta: tuple[int, int, int, int, int]    # [LL, LD, WL+DD, WD, WW]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def pairs(self) -> int:
        return sum(self.penta)

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def estimate(self) -> EloEstimate | None:
        return elo_estimate(list(self.penta)) if self.pairs else None

    def as_json(self) -> dict:
        out = {"a": self.a, "b": self.b, "games": self.games, "wins": self.wins, "draws": self.draws,
               "losses": self.losses, "pentanomial": list(self.penta)}
        est = self.estimate()
        if est:
            out.update(est.as_json())
        return out


def tally(match: Match, results: dict[str, dict]) -> Tally:
    """A's score over the pairs whose two games are both finished."""
    pair_points, game_points = [], []
    for k in range(match.pairs):
        t0, t1 = match.pair_tasks(k)
        g0, g1 = results.get(task_key(t0)), results.get(task_key(t1))
        if g0 is None or g1 is None:
            continue
        p = [points(g0, match.a), points(g1, match.a)]
        pair_points.append(sum(p))
        game_points += p
    lo, dr, wi = trinomial(game_points)
    return Tally(match.a, match.b, wi, dr, lo, tuple(pentanomial(pair_points)))


def running_text(tallies: list[Tally]) -> str:
    """The progress bar's text: each match's score and Elo so far."""
    parts = []
    for t in tallies:
        if not t.pairs:
            continue
        e = t.estimate()
        elo = f"{e.elo:+.0f}±{e.elo_ci95:.0f}" if e.elo == e.elo and abs(e.elo) != float("inf") and \
            e.elo_ci95 == e.elo_ci95 else ("+inf" if e.elo > 0 else "-inf")
        parts.append(f"{t.a}-{t.b} {t.score:.0%} {elo}")
    return "; ".join(parts[-3:])
