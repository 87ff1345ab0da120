"""The 60-move rule inside the reference search, at every level.

The game's rules (reference_py/rules.py) end a game in this order: no legal
move (the side to move loses), repetition, 120 plies without a capture (a
draw).  The search applies them in the same order (docs/ENGINE.md, Search
step 1), so a mate delivered on the 120th ply wins, a capture on it resets
the clock, and a repetition at the limit is scored as a repetition.  Each
expectation here comes from the game rules or a brute-force mate search
(tests/search_oracle.py), not from the engine; emu_tests/test_romsearch_edges.py
checks that the ROM answers exactly as the reference on these positions.
"""
from __future__ import annotations

import dataclasses

import pytest

from reference_py.board import move_iccs
from reference_py.fen import parse_fen
from reference_py.rules import DRAW_PLIES, Game
from reference_py.search import MATE, MATE_BOUND, Searcher, levels, search
from tests.fen_transforms import colour_flip, with_clock
from tests.search_oracle import mates_in

LEVELS = levels()
IDS = [lv.name for lv in LEVELS]

# Red mates in one at clock 119: a1d1 (checkmate) and a1a8 (stalemate: e9 faces the king).
MATE_AT_LIMIT = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 1"
# Red (a rook up) can take the pawn on a2 (the clock restarts) or play on to a draw.
CAPTURE_WINS = "3akab2/9/9/9/9/9/9/p8/9/R2K5 w - - 119 1"
# Black (a rook down) can take the horse on a1 (the game goes on, lost) or draw.
CAPTURE_LOSES = "3akab2/9/9/9/9/9/9/p8/N8/3K1R3 b - - 119 1"
# Red mates in two (d0d8 f8f9 c1c9); the mating move is ply 3 from the root.
MATE_IN_TWO = "9/5k3/4ba3/9/9/9/9/9/2R2K3/3R5 w - - 0 1"


def _play(fen: str, move: str) -> Game:
    g = Game(fen)
    g.play_text(move)
    return g


@pytest.mark.parametrize("fen", [MATE_AT_LIMIT, colour_flip(MATE_AT_LIMIT)], ids=["red", "black"])
@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_mate_on_the_last_ply_wins(level, fen):
    pos = parse_fen(fen)
    assert pos.clock == DRAW_PLIES - 1
    mates = {move_iccs(m) for m in mates_in(pos, 1)}
    assert mates, "the position has a mate in one"
    r = search(pos.copy(), level).as_json()
    assert (r["move"] in mates, r["score"]) == (True, MATE - 1), r
    outcome = _play(fen, r["move"]).outcome()     # the game agrees: the mover has won
    assert outcome is not None and outcome.winner == pos.side, outcome


@pytest.mark.parametrize("fen", [CAPTURE_WINS, colour_flip(CAPTURE_WINS)], ids=["red", "black"])
@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_capture_on_the_last_ply_keeps_a_won_game_going(level, fen):
    pos = parse_fen(fen)
    assert not mates_in(pos, 1)
    r = search(pos.copy(), level).as_json()
    g = _play(fen, r["move"])
    assert g.pos.clock == 0, f"{r['move']} is not a capture: every quiet move draws"
    assert g.outcome() is None
    assert 0 < r["score"] < MATE_BOUND


@pytest.mark.parametrize("fen", [CAPTURE_LOSES, colour_flip(CAPTURE_LOSES)], ids=["black", "red"])
@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_the_losing_side_takes_the_draw_instead_of_a_capture(level, fen):
    pos = parse_fen(fen)
    r = search(pos.copy(), level).as_json()
    g = _play(fen, r["move"])
    assert r["score"] == 0
    assert g.pos.clock == DRAW_PLIES and g.outcome().winner is None


DEEP = [lv for lv in LEVELS if lv.depth >= 3]


@pytest.mark.parametrize("level", DEEP, ids=[lv.name for lv in DEEP])
def test_a_mate_in_two_counts_only_when_it_lands_by_the_120th_ply(level):
    """At clock 117 the mating move is the 120th ply (a win); at 118 it would
    be the 121st, and the position before it is already drawn."""
    base = parse_fen(MATE_IN_TWO)
    assert not mates_in(base, 1) and mates_in(base, 2)
    on_time = search(parse_fen(with_clock(MATE_IN_TWO, DRAW_PLIES - 3)), level).as_json()
    assert on_time["score"] == MATE - 3
    assert on_time["move"] in {move_iccs(m) for m in mates_in(base, 2)}
    late = search(parse_fen(with_clock(MATE_IN_TWO, DRAW_PLIES - 2)), level).as_json()
    assert abs(late["score"]) < MATE_BOUND, late


# ---- the rule's order inside one node (Searcher._draw_score) -------------------

def _searcher(fen: str, moves: list[str], level_name: str = "Master") -> Searcher:
    g = Game(fen)
    for m in moves:
        g.play_text(m)
    lv = next(lv for lv in LEVELS if lv.name == level_name)
    return Searcher(g.pos, lv)


# Red checks on the e- and f-files in turn, Black's king steps between e9 and f9:
# every Red move of the cycle gives check, no Black move does (checked below).
CHECK_CYCLE = ("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 110 1", ["a1e1", "e9f9", "e1f1", "f9e9", "f1e1"])


def test_check_cycle_is_what_it_says():
    g = Game(CHECK_CYCLE[0])
    for i, m in enumerate(CHECK_CYCLE[1]):
        g.play_text(m)
        assert g.pos.in_check(g.pos.side) == (i % 2 == 0), m   # Red's moves check, Black's do not
    assert g.pos.keys[-1] == g.pos.keys[-5]                      # the position after a1e1 is back


def test_repetition_is_scored_before_the_move_limit():
    """At the limit a repetition still decides: Red, who checked throughout,
    is scored as the perpetual checker, not as a plain draw (the node 5
    plies below the root, the cycle on the search path)."""
    s = _searcher(*CHECK_CYCLE)
    assert s.pos.clock >= DRAW_PLIES - 5
    s.pos.clock = DRAW_PLIES                 # the same cycle with the clock at the limit
    assert s._draw_score(5) == s.cfg.perpetual_check   # Black to move: Red gave every check
    assert s._draw_score(1) == 0             # the cycle in the game's past: one earlier occurrence is none
    assert s.cfg.perpetual_check != 0


def test_move_limit_without_repetition_is_a_draw_or_a_mate():
    s = _searcher(MATE_AT_LIMIT, ["a1d1"])   # clock 120, Black mated
    assert s.pos.clock == DRAW_PLIES
    assert s._draw_score(1) == -MATE + 1
    assert s._draw_score(3) == -MATE + 3
    s = _searcher(MATE_AT_LIMIT, ["a1a8"])   # stalemated: the side without a move loses
    assert s._draw_score(1) == -MATE + 1
    s = _searcher(MATE_AT_LIMIT, ["a1a2"])   # Black can move: the draw
    assert s._draw_score(1) == 0
    s = _searcher(with_clock(MATE_AT_LIMIT, DRAW_PLIES - 2), ["a1d1"])   # clock 119: no rule yet
    assert s._draw_score(1) is None


def test_move_limit_test_that_does_not_fit_the_move_stack_stands_as_a_draw():
    s = _searcher(MATE_AT_LIMIT, ["a1d1"])
    s.stack = s.cfg.move_stack_entries - len(s.pos.generate()) + 1   # one entry short
    assert s._draw_score(1) == 0
    s.stack -= 1                                                      # exactly fits
    assert s._draw_score(1) == -MATE + 1


def test_move_limit_test_counts_no_node_and_leaves_the_position():
    s = _searcher(MATE_AT_LIMIT, ["a1a2"])
    before = (list(s.pos.board), s.pos.key, s.pos.score, list(s.pos.keys), s.lfsr)
    assert s._draw_score(2) == 0
    assert (list(s.pos.board), s.pos.key, s.pos.score, list(s.pos.keys), s.lfsr) == before
    assert s.nodes == 0 and s.hist == [0] * len(s.hist)


@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_node_cap_still_holds_at_the_limit(level):
    small = level.limited(3)
    r = search(parse_fen(MATE_AT_LIMIT), small).as_json()
    assert r["nodes"] <= 3 and r["move"] is not None
