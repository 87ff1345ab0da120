"""The ROM's search scores repetitions by the perpetual-chase rule as the
reference does (draw_score / search_chase, asm/engine/eng_search_draw.s):
the same move, score, node count, depth and PV on positions where the
search meets chases: the two positions of tests/test_ref_search_chase.py
at every level (the reference's scores there are checked against the game
rule), a chase begun in the game and closed inside the search (judged at
plies 2 and 3), the chase suite's cases one move before their third
occurrence, and seeded random shuttles; a perpetual check and an endgame
whose earlier occurrences lie in the game's past (one earlier occurrence
there is no repetition, two are)."""
from __future__ import annotations

import pytest

from tests.chase_shuttles import shuttle_games
from reference_py.board import move_iccs
from reference_py.cli import game_position
from reference_py.search import levels
from tests.chase_oracle import load
from tests.test_ref_search_chase import CHASER_FEN, CHASER_LINE, VICTIM_FEN, VICTIM_LINE
from tests.test_search_oracle import CYCLE, CYCLE_FEN, R_AAEE_FEN, R_AAEE_LINE
from tools.nes.search import RomSearch, reference_search

LEVELS = [lv.name for lv in levels()]


@pytest.fixture(scope="module")
def rs() -> RomSearch:
    return RomSearch()


def _check(rs: RomSearch, fen: str, moves: list[str], level: str) -> dict:
    pos = game_position(fen, moves, past_the_end=True)
    want = reference_search(pos, level)
    got = rs.search(pos, level)
    assert {k: got[k] for k in want} == want, f"{fen} moves {moves} at {level}"
    return want


@pytest.mark.parametrize("level", LEVELS)
def test_the_chaser_and_the_victim(rs, level):
    assert _check(rs, CHASER_FEN, CHASER_LINE, level)["move"] != "a8a7"
    assert _check(rs, VICTIM_FEN, VICTIM_LINE, level)["score"] > 0


# The rook's chase of the cannon begun in the game, the cycle closed inside
# the search: repetitions judged at plies 2 and 3 as well, with chase
# verdicts (the search's pushed destinations give the cycle's moves).
SHORT_HISTORIES = [(fen, line) for fen in ("3aka3/R8/7c1/9/9/9/9/9/1r7/3K5 w", "5k3/R8/7c1/9/9/9/9/9/9/3K5 w",
                                           "3aka3/R8/7c1/9/9/9/9/9/9/3K5 w")
                   for line in (["a8a7"], ["a8a7", "h7h8"], ["a8a7", "h7h8", "a7a8"])]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("history", SHORT_HISTORIES, ids=lambda h: f"{h[0].split('/')[0]}-{len(h[1])}")
def test_cycles_closed_inside_the_search(rs, history, level):
    _check(rs, history[0], history[1], level)


@pytest.mark.parametrize("case", [c for c in load() if len(c["moves"]) > 4], ids=lambda c: c["id"])
@pytest.mark.parametrize("level", LEVELS)
def test_suite_cases_before_their_last_move(rs, case, level):
    _check(rs, case["fen"], case["moves"][:-1], level)


@pytest.mark.parametrize("level", LEVELS[:3])
@pytest.mark.parametrize("seed", range(3))
def test_random_shuttles_before_their_last_move(rs, seed, level):
    for fen, moves, _ in shuttle_games(seed, 8):
        _check(rs, fen, [move_iccs(m) for m in moves[:-1]], level)


# Red's perpetual check begun in the game: f1e1 one ply below the root makes
# the position's second occurrence (no repetition; the search path's repeat
# five plies down is one) or, a cycle later, its third (Red's perpetual).
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("moves", [CYCLE[:-1], CYCLE + ["e9f9", "e1f1", "f9e9"]], ids=["second", "third"])
def test_perpetual_check_from_the_games_past(rs, moves, level):
    _check(rs, CYCLE_FEN, moves, level)


def test_a_second_occurrence_of_a_past_position_is_no_refuge(rs):
    """R_vs_AAEE.9's 74 plies: e2g0 returns to a position the game has seen
    once and loses the elephant on c4; the ROM does not play it either."""
    assert _check(rs, R_AAEE_FEN, R_AAEE_LINE, "Master")["move"] != "e2g0"
