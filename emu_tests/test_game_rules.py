"""asm/game/game_rules.s against reference_py/rules.py (Game), under py65.

Every ply of seeded random games checks: the legal-move list in generation
order, the position after game_play and game_undo, the repetition ring
(keys and check bits, at most GAME_WINDOW entries), game_check, and the
outcome (checkmate, stalemate, perpetual check, repetition, 60-move rule).
"""
from __future__ import annotations

import random

import pytest

from reference_py.board import move_iccs
from reference_py.fen import START_FEN, parse_fen
from reference_py.notation import parse_move
from reference_py.rules import GAME_WINDOW, Game
from reference_py.search import levels, search
from tools.nes.engine import reference_state
from tools.nes.game import RomGame, reference_outcome


@pytest.fixture(scope="module")
def rom(rom_path) -> RomGame:
    return RomGame(rom_path, build=False)


def same_position(rom: RomGame, game: Game) -> None:
    ref = reference_state(game.pos)
    got = rom.state()
    # the ROM's slots may be numbered differently after a take-back
    # (eng_load), so compare what is on each square and the derived state
    for k in ("side", "clock", "key", "count"):
        assert got[k] == ref[k], k

    def squares(state):
        out = {}
        for sq, code in enumerate(state["board"]):
            if code in (0, 0xFF):
                out[sq] = code
            else:
                slot = (code & 0x0F) | (16 if code & 0x20 else 0)
                out[sq] = (code & 0x30, state["piece_kind"][slot])
        return out
    assert squares(got) == squares(ref)


def same_ring(rom: RomGame, game: Game, exact: bool = True) -> None:
    """The ring is the reference's last GAME_WINDOW positions; after a
    take-back in a game longer than that, a shorter suffix of them (the
    entries that dropped out are not restored: game_rules.s header)."""
    keys, checks = rom.ring()
    want_keys, want_checks = game.pos.keys[-GAME_WINDOW:], game.pos.checks[-GAME_WINDOW:]
    if not exact:
        assert 1 <= len(keys) <= len(want_keys)
        want_keys, want_checks = want_keys[-len(keys):], want_checks[-len(keys):]
    assert keys == want_keys
    assert checks == want_checks


def check_ply(rom: RomGame, game: Game, ring_exact: bool = True) -> list[int]:
    same_position(rom, game)
    same_ring(rom, game, ring_exact)
    assert rom.byte("game_check") == int(game.pos.in_check(game.pos.side))
    assert rom.word("game_ply") == len(game.moves)
    got = rom.outcome()
    assert got == reference_outcome(game.outcome()), [move_iccs(m) for m in game.moves]
    moves = rom.legal()
    # the order is generation order, which follows the piece slots; a
    # take-back reloads the ROM's position with canonical slots while the
    # reference replays the game, so compare the lists as sets
    assert len(set(moves)) == len(moves)
    assert sorted(moves) == sorted(game.pos.legal_moves())
    return moves


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_take_backs(rom: RomGame, seed: int) -> None:
    rng = random.Random(seed)
    rom.new()
    game = Game(START_FEN)
    undone = 0
    ring_exact = True
    for _ply in range(160):
        moves = check_ply(rom, game, ring_exact)
        if not moves or game.outcome() is not None:
            break
        if game.moves and rng.random() < 0.12:
            plies = min(rng.choice((1, 2)), rom.byte("game_undo_n"))
            for _ in range(plies):
                assert rom.undo()
            ring_exact = ring_exact and len(game.moves) < GAME_WINDOW
            game.undo(plies)
            undone += plies
            continue
        # prefer quiet moves now and then so repetitions and long games happen
        move = rng.choice(moves)
        assert rom.find(move)
        rom.play(move)
        game.play(move)
        last = rom.byte("game_last_from") | (rom.byte("game_last_to") << 8)
        assert last == move
    assert len(game.moves) > 20


def test_take_back_is_bounded_and_exact(rom: RomGame) -> None:
    rom.new()
    game = Game(START_FEN)
    rng = random.Random(7)
    for _ in range(12):
        m = rng.choice(game.pos.legal_moves())
        rom.play(m)
        game.play(m)
    for _ in range(8):                      # GAME_UNDO_PLIES
        assert rom.undo()
        game.undo(1)
        same_position(rom, game)
        same_ring(rom, game)
    assert not rom.undo()                   # the record is empty
    same_position(rom, game)


def test_illegal_moves_are_not_found(rom: RomGame) -> None:
    rom.new()
    rom.legal()
    pos = parse_fen(START_FEN)
    assert rom.find(parse_move(pos, "h2e2"))
    assert not rom.find(parse_move(pos, "b0c2") ^ 0x0100)   # a square the horse cannot reach
    assert not rom.find(0x0000)


def play_line(rom: RomGame, fen: str, line: list[str]) -> Game:
    game = Game(fen)
    if fen == START_FEN:
        rom.new()
    else:
        rom.setup(game.pos)
    for text in line:
        m = parse_move(game.pos, text)
        rom.legal()
        assert rom.find(m), text
        rom.play(m)
        game.play(m)
    return game


def test_threefold_repetition_is_a_draw(rom: RomGame) -> None:
    shuffle = ["b0c2", "b9c7", "c2b0", "c7b9"]
    game = play_line(rom, START_FEN, shuffle * 2)
    assert rom.outcome() == reference_outcome(game.outcome()) == ("repetition", None)


def test_perpetual_check_loses(rom: RomGame) -> None:
    # Red's rook checks from e8 and d8... the black king shuttles; Red checks
    # with every move, Black does not: Red loses.
    fen = "3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1"
    line = ["a0a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9", "a8a9"]
    game = play_line(rom, fen, line)
    ref = reference_outcome(game.outcome())
    assert ref[0] == "perpetual"
    assert rom.outcome() == ref


def test_sixty_move_rule(rom: RomGame) -> None:
    fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80"
    game = play_line(rom, fen, ["a0a1"])
    assert rom.outcome() == reference_outcome(game.outcome()) == ("60 moves", None)


@pytest.mark.parametrize("fen, name", [
    ("3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1", "checkmate"),       # two rooks
    ("3k5/9/9/9/9/9/9/9/9/3n1Kr2 w - - 77 1", "checkmate"),    # rook and horse
    ("5k3/4r4/9/9/9/9/9/9/8r/3K5 w - - 0 1", "stalemate"),     # no move, not in check
    ("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1", "stalemate"),    # the facing kings' file
])
def test_end_of_game_positions(rom: RomGame, fen: str, name) -> None:
    game = Game(fen)
    rom.setup(game.pos)
    assert rom.outcome() == reference_outcome(game.outcome())
    if name:
        assert rom.outcome()[0] == name


def test_think_equals_the_reference(rom: RomGame) -> None:
    """game_think hands the search the game's ring and seed: same move as
    the reference with the same history and seed, and it reports the seed."""
    game = play_line(rom, START_FEN, ["h2e2", "h9g7", "b0c2"])
    rom.write("game_seed", [0x34, 0x12])
    lv = levels()[0]
    move = rom.think(0)
    assert rom.word("game_last_seed") == 0x1234
    ref = search(game.pos, lv, seed=0x1234)
    assert move == ref.move
    assert rom.word("s_nodes") == ref.nodes
    assert rom.word("game_seed") != 0x1234
    same_position(rom, game)                 # the position is unchanged
