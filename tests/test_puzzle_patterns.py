"""The pattern puzzles (config/puzzles.yaml's `pattern`): Fairy-Stockfish's
line for each (config/puzzles.checked.json) replayed with reference_py ends
in the player's checkmate within the limit, as long as Fairy-Stockfish's
mate, and the mate is the named pattern: tools/rom/mate_patterns.py looks
at the checking pieces, the cannons' screens and what holds the king's
flight squares (and, for two patterns, at the line's moves).  The pattern
tests refuse mates by other means."""
from __future__ import annotations

import pytest

from tools.rom.gen_puzzles import load_puzzles, pattern_problem, read_checked
from tools.rom.mate_patterns import PATTERNS, line_board, matches, matches_line

PUZZLES = [p for p in load_puzzles() if p.pattern]


def line(p) -> list[str]:
    return read_checked()[p.fen]["line"]


def test_at_least_ten_patterns_one_puzzle_each():
    names = [p.pattern for p in PUZZLES]
    assert len(names) >= 10 and len(set(names)) == len(names)


@pytest.mark.parametrize("p", PUZZLES, ids=lambda p: p.pattern)
def test_the_line_ends_in_the_named_mate(p):
    v = read_checked()[p.fen]
    game, board = line_board(p.fen, v["line"])
    out = game.outcome()
    assert out is not None and out.reason == "checkmate" and out.winner == p.player
    assert len(v["line"]) == 2 * v["mate_moves"] - 1, "the line's mate is as long as the search's"
    assert v["mate_moves"] <= p.limit
    assert PATTERNS[p.pattern](board) and matches_line(p.pattern, p.fen, v["line"])
    assert pattern_problem(p, v["line"]) is None


def test_each_pattern_refuses_most_other_mates():
    """Every pattern's test is false on the final position of at least half
    of the other puzzles: none of them accepts any mate."""
    for name in PATTERNS:
        others = [matches_line(name, p.fen, line(p)) for p in PUZZLES if p.pattern != name]
        assert sum(others) <= len(others) // 2, (name, others)


def test_a_wrong_pattern_or_line_is_refused():
    p = next(p for p in PUZZLES if p.pattern == "horse_cannon")
    moves = line(p)
    from dataclasses import replace
    assert "not the pattern double_cannons" in pattern_problem(replace(p, pattern="double_cannons"), moves)
    assert "does not end in the player's checkmate" in pattern_problem(p, moves[:-1] or ["d0e0"])
    assert "no mate line" in pattern_problem(p, None)


@pytest.mark.parametrize("fen, last, pattern, want", [
    # 马后炮 with the horse as the screen, and the same with a rook as the screen
    ("4k4/9/4N4/9/9/9/9/4C4/9/3K5 b - - 0 1", "e7", "horse_cannon", True),
    ("4k4/9/4R4/9/9/9/9/4C4/9/3K5 b - - 0 1", "e7", "horse_cannon", False),
    # 重炮: two cannons on the king's file; a cannon screened by a pawn is not
    ("3ak4/3P1P3/9/9/4C4/9/9/4C4/9/3K5 b - - 0 1", "e5", "double_cannons", True),
    ("3ak4/3P1P3/9/9/4P4/9/9/4C4/9/3K5 b - - 0 1", "e5", "double_cannons", False),
    # 闷宫 needs both advisors beside the king
    ("3aka3/4N4/9/9/9/9/9/4C4/9/3K5 b - - 0 1", "e8", "smothered", True),
    ("4ka3/4N4/9/9/9/9/9/4C4/9/3K5 b - - 0 1", "e8", "smothered", False),
    # 闷宫 is the cannon's mate: a pawn checking beside it is another mate
    ("3aka3/4P4/9/9/9/9/9/4C4/9/3K5 b - - 0 1", "e8", "smothered", False),
])
def test_hand_made_positions(fen, last, pattern, want):
    from reference_py.board import square
    from reference_py.fen import parse_fen
    pos = parse_fen(fen)
    to = square(ord(last[0]) - 97, int(last[1]))
    assert matches(pattern, pos.pieces(), pos.side, to) is want


@pytest.mark.parametrize("pattern", ["heart_piercing", "back_to_temple"])
def test_line_patterns_need_the_line(pattern):
    """大胆穿心 and 送佛归殿 are about how the mate came: their final position
    alone (no moves) is not enough; 送佛归殿's mating move alone from the
    position before it is not either (the pawn's check came earlier; 大胆穿心's
    mating move is the rook's capture itself)."""
    from reference_py.board import move_to
    from reference_py.fen import format_fen
    from reference_py.rules import Game
    p = next(p for p in PUZZLES if p.pattern == pattern)
    moves = line(p)
    game, board = line_board(p.fen, moves)
    assert PATTERNS[pattern](board)
    assert not matches(pattern, game.pos.pieces(), game.pos.side, move_to(game.moves[-1]))
    before = Game(p.fen)
    for text in moves[:-1]:
        before.play_text(text)
    assert matches_line(pattern, format_fen(before.pos), moves[-1:]) == (pattern == "heart_piercing")
