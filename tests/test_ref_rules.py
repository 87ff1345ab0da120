"""Game-level rules: checkmate, stalemate, repetition, perpetual check, 60-move rule, undo."""
from __future__ import annotations

import random

from reference_py.board import BLACK, RED
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.rules import DRAW_PLIES, GAME_WINDOW, Game, Outcome


def play(game: Game, *moves: str) -> Game:
    for m in moves:
        game.play_text(m)
    return game


def test_start_position_has_no_outcome():
    assert Game(START_FEN).outcome() is None


def test_checkmate_side_to_move_loses():
    # Red pawn d7 -> d8 checks; it is guarded by the rook on d1 and e9 faces the red king.
    game = Game("3k5/9/3P5/9/9/9/9/9/3R5/4K4 w - - 0 1")
    assert game.outcome() is None
    play(game, "d7d8")
    out = game.outcome()
    assert out == Outcome(RED, "checkmate")
    assert out.describe() == "Red wins: checkmate."


def test_checkmate_black_wins():
    # The mirror image: a black pawn mates the red king.
    game = Game("4k4/9/3r5/9/9/9/9/3p5/9/3K5 b - - 0 1")
    play(game, "d2d1")
    assert game.outcome() == Outcome(BLACK, "checkmate")


def test_checkmate_in_the_start_fen_itself():
    out = Game("3k5/3P5/9/9/9/9/9/9/3R5/4K4 b - - 0 1").outcome()
    assert out is not None and out.winner == RED and out.reason == "checkmate"


def test_stalemate_side_to_move_loses():
    # After e7e8 the black king on d9 has no move (d8 and e9 are covered) and is not in check.
    game = Game("3k5/9/4P4/9/9/9/9/9/9/5K3 w - - 0 1")
    assert game.outcome() is None
    play(game, "e7e8")
    assert not game.pos.in_check(game.pos.side)
    out = game.outcome()
    assert out is not None and out.winner == RED
    assert out.reason.startswith("stalemate")
    assert out.describe().startswith("Red wins: stalemate")


def test_stalemate_red_loses():
    # Red king d0: d1 and e0 are covered by the black pawn on e1, which it cannot reach.
    game = Game("5k3/9/9/9/9/9/9/9/4p4/3K5 w - - 0 1")
    assert not game.pos.in_check(RED)
    out = game.outcome()
    assert out is not None and out.winner == BLACK and out.reason.startswith("stalemate")


def test_sixty_move_rule():
    fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 1"
    game = Game(fen)
    assert game.pos.clock == 119
    assert game.outcome() is None
    play(game, "a1a2")                                   # a quiet move: the 120th ply
    assert game.pos.clock == DRAW_PLIES == 120
    out = game.outcome()
    assert out == Outcome(None, "60 moves (120 plies) without a capture")
    assert out.describe().startswith("Draw:")


def test_sixty_move_rule_one_ply_short():
    game = play(Game("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 118 1"), "a1a2")
    assert game.pos.clock == 119
    assert game.outcome() is None


def test_capture_resets_the_clock():
    game = Game("3k5/9/9/9/9/9/9/9/p8/R3K4 w - - 119 1")
    play(game, "a0a1")                                   # captures the pawn
    assert game.pos.clock == 0
    assert game.outcome() is None
    play(game, "d9d8")
    assert game.pos.clock == 1
    assert game.outcome() is None


def test_mate_on_the_120th_ply_is_still_mate():
    game = Game("3k5/9/3P5/9/9/9/9/9/3R5/4K4 w - - 119 1")
    play(game, "d7d8")
    assert game.pos.clock == 120
    assert game.outcome() == Outcome(RED, "checkmate")


HORSE_SHUFFLE = ["b0c2", "b9c7", "c2b0", "c7b9"]


def test_threefold_repetition_draw():
    game = Game(START_FEN)
    for rep in range(2):
        for i, m in enumerate(HORSE_SHUFFLE):
            play(game, m)
            if rep == 0 or i < 3:
                assert game.outcome() is None, (rep, i)
    # The start position has now occurred three times.
    assert game.outcome() == Outcome(None, "the same position occurred three times")


def test_twofold_repetition_is_not_a_draw():
    game = play(Game(START_FEN), *HORSE_SHUFFLE)
    assert format_fen(game.pos) == START_FEN.replace(" 0 1", " 4 1")
    assert game.outcome() is None


def test_repetition_interrupted_by_capture_does_not_count():
    # Same shuffle, but a capture in the middle resets the window.
    game = Game("r1bakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1")
    play(game, "b0c2", "a9a8", "c2b0", "a8a9", "b0c2", "a9a8", "c2b0")
    assert game.outcome() is None
    play(game, "a8a9")
    assert game.outcome() == Outcome(None, "the same position occurred three times")


# Red rook checks from a9/a8 while the black king shuttles d9 <-> d8.
PERPETUAL_FEN = "3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1"
PERPETUAL = ["a1a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9", "a8a9"]


def test_perpetual_check_loses():
    game = Game(PERPETUAL_FEN)
    for i, m in enumerate(PERPETUAL):
        play(game, m)
        if i < len(PERPETUAL) - 1:
            assert game.outcome() is None, (i, m)
        if i % 2 == 0:
            assert game.pos.in_check(BLACK)
    out = game.outcome()
    assert out == Outcome(BLACK, "Red gave perpetual check")
    assert out.describe() == "Black wins: Red gave perpetual check."


def test_perpetual_check_by_black_loses():
    # The same pattern with colours swapped: the black rook checks on ranks 0/1.
    game = Game("5k3/r8/9/9/9/9/9/9/9/3K5 b - - 0 1")
    play(game, "a8a0", "d0d1", "a0a1", "d1d0", "a1a0", "d0d1", "a0a1", "d1d0", "a1a0")
    assert game.outcome() == Outcome(RED, "Black gave perpetual check")


def test_repetition_with_some_checks_only_is_a_draw():
    # Red checks on only some moves of the cycle: an ordinary repetition.
    game = Game("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1")
    cycle = ["a1a9", "d9d8", "a9a1", "d8d9"]             # check, -, quiet, -
    play(game, *cycle, *cycle)
    assert game.outcome() == Outcome(None, "the same position occurred three times")


# Both sides check on every move: the cannon on d3/f3 blocks one line and opens another.
MUTUAL_FEN = "9/3c5/5k3/3r5/9/9/5C3/5R3/9/3K1A3 w - - 0 1"
MUTUAL = ["f3d3", "d6f6", "d3f3", "f6d6"]


def test_mutual_perpetual_check_is_a_draw():
    game = Game(MUTUAL_FEN)
    assert game.pos.in_check(RED)
    for rep in range(2):
        for i, m in enumerate(MUTUAL):
            play(game, m)
            assert game.pos.in_check(game.pos.side), m     # every move gives check
            if rep == 0 or i < 3:
                assert game.outcome() is None
    assert game.outcome() == Outcome(None, "the same position occurred three times")


def test_undo_restores_positions_including_captures():
    rng = random.Random(2024)
    game = Game(START_FEN)
    fens = [format_fen(game.pos)]
    captures = 0
    for _ in range(80):
        moves = game.pos.legal_moves()
        if not moves:
            break
        caps = [m for m in moves if game.pos.is_capture(m)]
        m = rng.choice(caps) if caps else rng.choice(moves)
        captures += bool(caps)
        game.play(m)
        fens.append(format_fen(game.pos))
    assert captures >= 5
    n = len(game.moves)
    game.undo()
    assert format_fen(game.pos) == fens[n - 1]
    game.undo(2)
    assert format_fen(game.pos) == fens[n - 3]
    assert len(game.moves) == n - 3
    # Undo every remaining capture: step back one ply at a time.
    for k in range(n - 4, -1, -1):
        game.undo()
        assert format_fen(game.pos) == fens[k]
        assert game.pos.key == parse_fen(fens[k]).key
    game.undo(5)                                          # more than was played
    assert format_fen(game.pos) == START_FEN
    assert game.moves == []


def test_undo_restores_repetition_history():
    game = play(Game(START_FEN), *HORSE_SHUFFLE, *HORSE_SHUFFLE)
    assert game.outcome() is not None
    game.undo()
    assert game.outcome() is None
    play(game, "c7b9")
    assert game.outcome() == Outcome(None, "the same position occurred three times")


def test_undo_after_a_capture_restores_the_captured_piece():
    game = Game(START_FEN)
    play(game, "h2h9")                                    # cannon takes the horse
    assert game.pos.clock == 0
    before = "rnbakabCr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 1"
    assert format_fen(game.pos) == before
    play(game, "i9h9")                                    # rook takes the cannon
    game.undo()
    assert format_fen(game.pos) == before
    game.undo()
    assert format_fen(game.pos) == START_FEN


# Quiet, check-free moves from the start position (after one horse shuffle) that
# never repeat a position; played out and then taken back move by move they
# return to the start position 4 * pairs plies later.
EXCURSION = ["f0e1", "i9i7", "b0c2", "h7h3", "a0b0", "i7g7", "h2d2", "h9i7", "b2b5", "g9e7",
             "h0g2", "b7a7", "b5g5", "e9e8", "g5e5", "h3h2", "d2f2", "e8e9", "e5g5", "h2h6",
             "e1f0", "e7g9", "b0b6", "g7c7", "i0i1", "e9e8", "b6b7", "e8e9", "f2f8", "c7c8"]


def excursion(pairs: int) -> list[str]:
    out = EXCURSION[:2 * pairs]
    back = []
    for r, b in zip(reversed(out[0::2]), reversed(out[1::2])):
        back += [r[2:] + r[:2], b[2:] + b[:2]]
    return out + back


def test_repetition_window_is_game_window_positions():
    # Start position at plies 0, 4 and GAME_WINDOW (48): the first occurrence
    # has left the window, so this is only a second occurrence.
    assert GAME_WINDOW % 4 == 0
    game = play(Game(START_FEN), *HORSE_SHUFFLE)
    for m in excursion((GAME_WINDOW - 4) // 4):
        play(game, m)
        assert game.outcome() is None, m
    assert format_fen(game.pos).split()[0] == START_FEN.split()[0]
    assert len(game.moves) == GAME_WINDOW and game.pos.side == RED
    # Two more shuffles: occurrences at 48, 52 and 56, all inside the window.
    play(game, *HORSE_SHUFFLE)
    assert game.outcome() is None
    play(game, *HORSE_SHUFFLE)
    assert game.outcome() == Outcome(None, "the same position occurred three times")


def test_repetition_inside_the_window_is_a_draw():
    # The same with one pair less: occurrences at plies 0, 4 and 44 all fit.
    game = play(Game(START_FEN), *HORSE_SHUFFLE)
    moves = excursion((GAME_WINDOW - 4) // 4 - 1)
    for m in moves[:-1]:
        play(game, m)
        assert game.outcome() is None, m
    play(game, moves[-1])
    assert len(game.moves) == GAME_WINDOW - 4
    assert game.outcome() == Outcome(None, "the same position occurred three times")
