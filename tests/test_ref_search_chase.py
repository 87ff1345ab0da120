"""The search scores a repetition as the game's perpetual-chase rule judges
it (docs/ENGINE.md, "Repetition in search"): the side that alone chased
perpetually through the cycle loses, +-perpetual_chase.  The scores are
checked against the game rule itself (reference_py.rules.Game.outcome on
the line the search foresees), not against the search's own code."""
from __future__ import annotations

import random

import pytest

from reference_py.board import BLACK, RED, move_iccs
from reference_py.chase import chase_attacks, ring_cycle
from reference_py.cli import game_after, game_position
from reference_py.notation import parse_move
from reference_py.rules import PERPETUAL_CHASE, Game
from reference_py.search import Searcher, level_by_name, levels, search_config
from tests.chase_oracle import load
from tests.chase_shuttles import shuttle_games

LEVELS = [lv.name for lv in levels()]
CHASE = search_config().perpetual_chase

# Red's rook has chased the lone, unprotected black cannon twice round
# (a6a7 h7h8 a7a8 h8h7): a8a7 would repeat the position a third time with
# Red chasing on every move.  Red is a rook down: without the chase rule the
# repetition (a draw, 0) is its best move.
CHASER_FEN = "3aka3/9/7c1/R8/9/9/9/9/1r7/3K5 w"
CHASER_LINE = "a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7".split()
# The same chase from a8, Black to move: h8h7 repeats the starting position
# a third time, and every red move of the cycle chased the cannon: Black wins.
VICTIM_FEN = "3aka3/R8/7c1/9/9/9/9/9/1r7/3K5 w"
VICTIM_LINE = "a8a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8".split()


def _outcome_after(fen: str, line: list[str], move: str):
    game = game_after(fen, line)
    assert game.outcome() is None
    game.play_text(move)
    return game.outcome()


def test_the_repetition_is_the_chasers_loss_by_the_game_rule():
    over = _outcome_after(CHASER_FEN, CHASER_LINE, "a8a7")
    assert over is not None and over.winner == BLACK and PERPETUAL_CHASE in over.reason
    over = _outcome_after(VICTIM_FEN, VICTIM_LINE, "h8h7")
    assert over is not None and over.winner == BLACK and PERPETUAL_CHASE in over.reason


@pytest.mark.parametrize("level", LEVELS)
def test_the_chaser_avoids_the_losing_repetition(level):
    pos = game_position(CHASER_FEN, CHASER_LINE)
    repeat = parse_move(pos, "a8a7")
    res = Searcher(pos.copy(), level_by_name(level), book=None).run()
    assert res.move != repeat
    assert -CHASE < res.score < 0                     # a rook down, but no loss by rule
    # the repetition alone: the side to move (Red) loses by the rule's score
    others = [m for m in pos.legal_moves() if m != repeat]
    only = Searcher(pos.copy(), level_by_name(level), book=None, exclude=others).run()
    assert (only.move, only.score) == (repeat, -CHASE)


@pytest.mark.parametrize("level", LEVELS)
def test_the_victim_takes_the_repetition_that_wins(level):
    pos = game_position(VICTIM_FEN, VICTIM_LINE)
    res = Searcher(pos, level_by_name(level), book=None).run()
    assert move_iccs(res.move) == "h8h7"
    assert res.score == CHASE                         # Black, to move, wins by the rule


def _draw_score_after(game: Game, move: int) -> int | None:
    """The search's score of a node one ply below the root, after `move`,
    for the side to move there (the searcher's move stack empty)."""
    pos = game.pos.copy()
    s = Searcher(pos, level_by_name(LEVELS[0]), book=None)
    pos.make(move)
    pos.push_history(pos.in_check(pos.side), move >> 8)
    return s._draw_score(1)


def _rule_score(over, side_to_move: int, cfg) -> int:
    if over.winner is None:
        return 0
    value = cfg.perpetual_chase if PERPETUAL_CHASE in over.reason else cfg.perpetual_check
    return value if over.winner == side_to_move else -value


def test_one_repetition_is_scored_as_the_game_rule_judges_the_shuttle():
    """Shuttles (one or two pieces a side to and fro, from the suite's
    positions and from random middlegames): a repetition found one ply below
    the root scores as Game.outcome judges the cycle at its third
    occurrence (the search's cycle is the last repeat, the game's the same
    moves twice)."""
    cfg = search_config()
    seen = set()
    for seed in range(3):
        for fen, moves, over in shuttle_games(seed, 8):
            game = Game(fen)
            for m in moves[:-1]:
                game.play(m)
            side = game.pos.side ^ 1                  # to move after the last move
            assert _draw_score_after(game, moves[-1]) == _rule_score(over, side, cfg), (fen, moves)
            seen.add(_rule_score(over, side, cfg))
    assert seen == {0, CHASE, -CHASE}                 # draws and both signs of chase


@pytest.mark.parametrize("case", load(), ids=lambda c: c["id"])
def test_suite_cases_score_as_their_verdict(case):
    """Every case of tests/data/chase_suite.yaml, its last move made one ply
    below the root: the search's score is the game's verdict."""
    if len(case["moves"]) < 5:
        pytest.skip("no repetition before the last move")
    game = Game(case["fen"])
    for text in case["moves"][:-1]:
        game.play_text(text)
    last = parse_move(game.pos, case["moves"][-1])
    over = _outcome_after(case["fen"], case["moves"][:-1], case["moves"][-1])
    assert _draw_score_after(game, last) == _rule_score(over, game.pos.side ^ 1, search_config())


def test_ring_cycle_gives_back_the_moves():
    g = game_after(CHASER_FEN, CHASER_LINE)
    moves = ring_cycle(g.pos, g.pos.keys, g.pos.dests, 8)
    assert moves == g.moves[-8:]
    with pytest.raises(ValueError):
        ring_cycle(g.pos, g.pos.keys, [0] * len(g.pos.keys), 4)   # no destination recorded


def test_a_capture_list_that_does_not_fit_is_empty():
    """chase_attacks' room models the ROM's move stack: a capture list that
    does not fit is empty (nothing attacked, no take-back)."""
    g = game_after(CHASER_FEN, CHASER_LINE[:1])        # the rook on a7 attacks the cannon
    pos = g.pos
    assert chase_attacks(pos, RED) != 0
    assert chase_attacks(pos, RED, room=0) == 0
    rng = random.Random(5)
    for _ in range(50):                               # a room that fits everything changes nothing
        side = rng.choice((RED, BLACK))
        assert chase_attacks(pos, side, room=192) == chase_attacks(pos, side)
