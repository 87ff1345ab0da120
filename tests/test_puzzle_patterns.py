"""The pattern puzzles (config/puzzles.yaml's `pattern`): Fairy-Stockfish's
line for each (config/puzzles.checked.json) replayed with reference_py ends
in the player's checkmate within the limit, as long as Fairy-Stockfish's
mate, and the final position is the named pattern: tools/rom/mate_patterns.py
looks at the checking pieces, the cannons' screens and what holds the
king's flight squares.  The pattern tests refuse mates by other means."""
from __future__ import annotations

import pytest

from reference_py.board import move_to
from reference_py.rules import Game
from tools.rom.gen_puzzles import load_puzzles, pattern_problem, read_checked
from tools.rom.mate_patterns import PATTERNS, matches

PUZZLES = [p for p in load_puzzles() if p.pattern]


def final(p) -> tuple[Game, int]:
    """The game after the puzzle's checked line, and the mating move."""
    game = Game(p.fen)
    last = 0
    for text in read_checked()[p.fen]["line"]:
        last = game.play_text(text)
    return game, last


def test_at_least_ten_patterns_one_puzzle_each():
    names = [p.pattern for p in PUZZLES]
    assert len(names) >= 10 and len(set(names)) == len(names)


@pytest.mark.parametrize("p", PUZZLES, ids=lambda p: p.pattern)
def test_the_line_ends_in_the_named_mate(p):
    v = read_checked()[p.fen]
    game, last = final(p)
    out = game.outcome()
    assert out is not None and out.reason == "checkmate" and out.winner == p.player
    line = v["line"]
    assert len(line) == 2 * v["mate_moves"] - 1, "the line's mate is as long as the search's"
    assert v["mate_moves"] <= p.limit
    assert matches(p.pattern, game.pos.pieces(), game.pos.side, move_to(last))
    assert pattern_problem(p, line) is None


def test_each_pattern_refuses_most_other_mates():
    """Every pattern's test is false on the final position of at least half
    of the other puzzles: none of them accepts any mate."""
    finals = {p.pattern: final(p) for p in PUZZLES}
    for name, test in PATTERNS.items():
        others = [matches(name, g.pos.pieces(), g.pos.side, move_to(m)) for o, (g, m) in finals.items() if o != name]
        assert sum(others) <= len(others) // 2, (name, others)


def test_a_wrong_pattern_or_line_is_refused():
    p = next(p for p in PUZZLES if p.pattern == "horse_cannon")
    line = read_checked()[p.fen]["line"]
    from dataclasses import replace
    assert "not the pattern double_cannons" in pattern_problem(replace(p, pattern="double_cannons"), line)
    assert "does not end in the player's checkmate" in pattern_problem(p, line[:-1] or ["d0e0"])
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
])
def test_hand_made_positions(fen, last, pattern, want):
    from reference_py.board import square
    from reference_py.fen import parse_fen
    pos = parse_fen(fen)
    to = square(ord(last[0]) - 97, int(last[1]))
    assert matches(pattern, pos.pieces(), pos.side, to) is want
