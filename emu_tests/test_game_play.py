"""Whole games on the real ROM in cynes (NMIs running), played with the pad.

Every test starts from power-on and presses buttons like a player (the
title menu with the D-pad, the cursor and A on the board, Start for the
pause menu).  A reference_py Game is kept in step with the ROM: after every
ply the board, side, clock, key, ply count and repetition ring in RAM must
equal it, and every move the computer makes must be the reference search's
move for that position and the seed the ROM used (game_last_seed), with the
same score, node count and depth (eng_search's s_res_score, s_nodes,
s_res_depth, read right after the move, before any other search runs).

  * scripted games vs the computer (1P as Red at Novice, 1P as Black at Easy);
  * illegal attempts are refused and change nothing; buttons mashed while
    the computer thinks do nothing;
  * games to the end: checkmate, repetition (two players), resignation;
  * the pause menu: take-back, hint, new game;
  * the Reset button during a long search;
  * the attract mode (the demo's moves are the reference's too);
  * screenshots of every screen against emu_tests/screenshots/*.png
    (UPDATE_SCREENSHOTS=1 rewrites them: review them before committing);
  * no dropped NMI while the computer thinks at Hard.

Inputs are at fixed frames from power-on, so each test is deterministic
(game_seed is stirred with nmi_count when a game starts).
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cynes")

from tools.nes.console import A, B, DOWN, LEFT, RIGHT, START, UP, Console  # noqa: E402
from tools.nes.linkmap import built  # noqa: E402
from emu_tests.screenshot_diff import compare_screenshot  # noqa: E402
from reference_py.board import BLACK, BOARD_SIZE, RED, file_of, move_from, move_iccs, move_to, rank_of, square  # noqa: E402
from reference_py.fen import START_FEN  # noqa: E402
from reference_py.rules import GAME_WINDOW, PERPETUAL_CHASE, Game  # noqa: E402
from reference_py.search import levels, search  # noqa: E402

SHOTS = Path(__file__).resolve().parent / "screenshots"
LEVELS = levels()
NOVICE, EASY, HARD, MASTER = 0, 1, 3, 4

# asm/global.inc's constants, as the build exports them (asm/exports.s)
_X = built().exports
SCREEN_TITLE, SCREEN_BOARD, SCREEN_PAUSE, SCREEN_GAME_OVER, SCREEN_ATTRACT = (
    _X[f"UI_SCREEN_{n}"] for n in ("TITLE", "PLAY", "PAUSE", "OVER", "ATTRACT"))
GAME_CHECKMATE, GAME_STALEMATE, GAME_PERPETUAL, GAME_REPETITION, GAME_DRAW_60 = (
    _X[f"GAME_{n}"] for n in ("CHECKMATE", "STALEMATE", "PERPETUAL", "REPETITION", "DRAW_60"))
UI_RESULT_RESIGN, NO_WINNER = _X["UI_RESULT_RESIGN"], _X["GAME_NO_WINNER"]
HUMAN_RED, HUMAN_BLACK = _X["UI_HUMAN_RED"], _X["UI_HUMAN_BLACK"]
TWO_PLAYERS = HUMAN_RED | HUMAN_BLACK
THINK_NONE, THINK_MOVE, THINK_HINT = (_X[f"UI_THINK_{n}"] for n in ("NONE", "MOVE", "HINT"))
# docs/UI.md: the pause menu's items in order, and the demo after 20 s idle on the title
ITEM_RESUME, ITEM_TAKEBACK, ITEM_HINT, ITEM_RESIGN, ITEM_NEW_GAME = range(5)
ATTRACT_IDLE_FRAMES = 1200

GAME_PERPETUAL_CHASE = _X["GAME_PERPETUAL_CHASE"]
# ui_result for a reference Outcome reason
RESULT_OF_REASON = {"checkmate": GAME_CHECKMATE, "stalemate": GAME_STALEMATE,
                    "perpetual check": GAME_PERPETUAL, PERPETUAL_CHASE: GAME_PERPETUAL_CHASE,
                    "three times": GAME_REPETITION, "60 moves": GAME_DRAW_60}

# A first move out of the opening book, so that the computer searches (the
# tests that need it thinking); h2e2 is answered from the book.
OUT_OF_BOOK = "e3e4"


def s16(v: int) -> int:
    return v - 0x10000 if v & 0x8000 else v


def reference_result(outcome) -> tuple[int, int]:
    """(ui_result, ui_winner) the ROM should show for a reference Outcome."""
    for key, result in RESULT_OF_REASON.items():
        if key in outcome.reason:
            return result, NO_WINNER if outcome.winner is None else outcome.winner
    raise AssertionError(f"unknown outcome {outcome}")


# ---- the console -------------------------------------------------------------------
class Player(Console):
    """The harness' Console pressing buttons for 3 frames (docs/UI.md: "a
    test can press a button for 3 or more frames"): the main loop may spend
    2 frames on one pass (e.g. flushing the panel text after a hint), and a
    2-frame press can fall entirely inside it."""

    pad = 1                      # which controller presses go to (cynes: pad 2 = high byte)

    def press(self, buttons: int, frames: int = 3, release: int = 4) -> None:
        super().press(buttons, frames, release)

    def hold(self, buttons: int, frames: int = 2) -> None:
        super().hold(buttons << 8 if self.pad == 2 else buttons, frames)


def power_on(rom_path: Path) -> Player:
    """A console at power-on, on the title."""
    con = Player(rom_path)
    con.wait_frames(20)
    assert con.screen_id() == SCREEN_TITLE, con.where()
    return con


def choose_and_start(con: Console, players: int, level: int, button: int = START,
                     seed: int | None = None) -> None:
    """On the title: players and level with the D-pad (checking ui_menu and
    the values), then Start; waits for the board.  With `seed`, presses
    Start when the game's seed (game_seed is 0 at power-on, stirred with
    nmi_count when the game starts) will be `seed` (1-255)."""
    assert con.screen_id() == SCREEN_TITLE and con.byte("ui_menu") == 0, con.where()
    for _ in range(3):
        if con.byte("ui_players") == players:
            break
        con.press(RIGHT)
    assert con.byte("ui_players") == players
    con.press(DOWN)
    assert con.byte("ui_menu") == 1
    for _ in range(len(LEVELS)):
        have = con.byte("ui_level")
        if have == level:
            break
        con.press(RIGHT if level > have else LEFT)
    assert con.byte("ui_level") == level
    con.press(DOWN)
    assert con.byte("ui_menu") == 2
    if seed is not None:
        assert con.word("game_seed") == 0, "game_seed is stirred from 0 only after power-on"
        # the press is read after the next NMI, which counts one more
        con.wait_until(lambda c: (c.byte("nmi_count") + 1) & 0xFF == seed, 256, f"nmi_count {seed - 1}")
    con.press(button)
    con.wait_screen(SCREEN_BOARD, 120)
    if seed is not None:                               # (no search yet: the human moves first)
        assert con.word("game_seed") == seed, f"game seed ${con.word('game_seed'):04X}, wanted ${seed:04X}"
    assert (con.byte("ui_players"), con.byte("ui_level")) == (players, level)
    assert con.word("game_ply") == 0 and con.byte("ui_result") == 0


def pause_choose(con: Console, item: int) -> None:
    """Start (the pause menu), Down to `item`, A."""
    con.wait_until(lambda c: c.screen_id() == SCREEN_BOARD and c.human_to_move(), 600, "the human's turn")
    con.press_until(START, lambda c: c.screen_id() == SCREEN_PAUSE, 120, "Start (pause)")
    assert con.byte("ui_menu") == ITEM_RESUME
    while con.byte("ui_menu") != item:
        con.press(DOWN)
    con.press(A)


# ---- keeping the reference in step ---------------------------------------------------
def settled(con: Console) -> bool:
    """The main loop is waiting for the next frame (in wait_frame: frame_ready
    is 1 until the NMI; cynes' frames end just before it) and no search runs:
    the engine's board is the game's position, not a move being tried
    (game_outcome and the search make and unmake moves, over several frames)."""
    return con.byte("frame_ready") == 1 and not con.busy()


def wait_settled(con: Console, max_frames: int = 30) -> None:
    con.wait_until(settled, max_frames, "the main loop waiting for a frame")


def check_same(con: Console, game: Game, what: str = "") -> None:
    """The ROM's game equals the reference Game (checked at the next settled()
    frame, which always comes before a search starts)."""
    wait_settled(con)
    where = f"{what} after {[move_iccs(m) for m in game.moves]} ({con.where()})"
    pos = con.position()                               # a legal position (validated)
    ref = game.pos
    assert pos.pieces() == ref.pieces(), f"board differs {where}\n  rom {con.fen()}"
    assert (con.byte("eng_side"), con.byte("eng_clock")) == (ref.side, ref.clock), where
    assert con.word("eng_key") == ref.key, where
    assert con.word("game_ply") == len(game.moves), where
    n = con.byte("game_rep_top") + 1
    lo, hi = (bytes_at(con, name, n) for name in ("rep_key_lo", "rep_key_hi"))
    keys = [l | h << 8 for l, h in zip(lo, hi)]
    checks = [bool(b & 0x80) for b in con.read("rep_info", n)]
    assert keys == ref.keys[-GAME_WINDOW:], f"repetition ring {where}"
    assert checks == ref.checks[-GAME_WINDOW:], f"repetition ring check bits {where}"


def bytes_at(con: Console, name: str, n: int) -> list[int]:
    return [con.byte(con.addr(name) + i) for i in range(n)]


def last_move(con: Console) -> int:
    return con.byte("game_last_from") | con.byte("game_last_to") << 8


def search_result(con: Console) -> dict:
    """eng_search's outputs in RAM."""
    return {"move": con.byte("s_res_from") | con.byte("s_res_to") << 8 if con.byte("s_res_pvlen") else None,
            "score": s16(con.word("s_res_score")), "nodes": con.word("s_nodes"),
            "depth": con.byte("s_res_depth")}


def check_search(con: Console, game: Game, level: int, what: str) -> int:
    """The last game_think equals the reference search of game.pos (before
    the move) with the ROM's seed: move, score, nodes, depth.  Returns the move."""
    seed = con.word("game_last_seed")
    ref = search(game.pos.copy(), LEVELS[level], seed=seed)
    got = search_result(con)
    want = {"move": ref.move, "score": ref.score, "nodes": ref.nodes, "depth": ref.depth}
    assert got == want, (f"{what}: ROM search {fmt(got)} != reference {LEVELS[level].name} "
                         f"seed ${seed:04X} {fmt(want)} after {[move_iccs(m) for m in game.moves]}")
    return ref.move


def fmt(r: dict) -> str:
    return str({**r, "move": move_iccs(r["move"]) if r["move"] else None})


def computer_reply(con: Console, game: Game, level: int, max_frames: int = 1200) -> int:
    """Waits for the computer's move, checks it against the reference search
    and the position, plays it into `game`; at the end of the game waits for
    the game-over screen.  Returns the move."""
    plies = len(game.moves)
    con.wait_until(lambda c: c.word("game_ply") == plies + 1 and settled(c), max_frames,
                   "the computer's move")
    move = check_search(con, game, level, f"computer move {plies + 1}")
    assert last_move(con) == move, f"played {move_iccs(last_move(con))}, searched {move_iccs(move)}"
    assert move in game.pos.legal_moves()
    game.play(move)
    check_same(con, game, "computer move")
    if game.outcome() is not None:
        con.wait_screen(SCREEN_GAME_OVER, 120)
    return move


def press_watching(con: Console, buttons: int, predicate, max_frames: int = 60,
                   hold: int = 3, what: str = "") -> None:
    """Press `buttons` (held `hold` frames) and step one frame at a time until
    predicate(con): a state that lasts only a frame or two is not missed."""
    con.nes.controller = buttons << 8 if getattr(con, "pad", 1) == 2 else buttons
    try:
        for n in range(max_frames):
            if n == hold:
                con.nes.controller = 0
            con.step(1)
            if predicate(con):
                return
    finally:
        con.nes.controller = 0
    raise AssertionError(f"{what or 'press'}: not seen after {max_frames} frames ({con.where()})")


def released(con: Console) -> None:
    """After press_watching returned with the button perhaps still down for
    the ROM: wait until it has read the pad released (or a search started:
    think_end reads the pads afterwards), so the next press is a new one."""
    con.wait_until(lambda c: c.byte("pad_held") == 0 or c.busy(), 60, "the pad read released")


def human_move(con: Console, game: Game, move: int) -> None:
    """Plays `move` with the cursor and A; checks the position at the first
    frame the main loop waits after it (before the computer's search starts)."""
    assert move in game.pos.legal_moves()
    frm, to = move_from(move), move_to(move)
    plies = len(game.moves)
    con.wait_until(lambda c: c.human_to_move() and c.byte("ui_think") == THINK_NONE, 600, "the human's turn")
    con.move_cursor_to(file_of(frm), rank_of(frm))
    if con.byte("ui_sel") != frm:
        con.press_until(A, lambda c: c.byte("ui_sel") == frm, 60, f"A on {move_iccs(move)[:2]}")
    con.move_cursor_to(file_of(to), rank_of(to))
    press_watching(con, A, lambda c: c.word("game_ply") == plies + 1 and settled(c), 60,
                   what=f"A on {move_iccs(move)[2:]} (move {move_iccs(move)})")
    assert last_move(con) == move
    game.play(move)
    check_same(con, game, "human move")
    released(con)
    if game.outcome() is not None:
        con.wait_screen(SCREEN_GAME_OVER, 120)


def check_game_over(con: Console, game: Game) -> None:
    outcome = game.outcome()
    assert outcome is not None
    assert con.screen_id() == SCREEN_GAME_OVER
    assert (con.byte("ui_result"), con.byte("ui_winner")) == reference_result(outcome), outcome


def play_vs_computer(con: Console, game: Game, human: int, level: int, plies: int,
                     choose) -> None:
    """Alternates human moves (choose(game) -> move) and checked computer
    replies until `plies` plies or the end of the game."""
    while len(game.moves) < plies and game.outcome() is None:
        if game.pos.side == human:
            human_move(con, game, choose(game))
        else:
            computer_reply(con, game, level)


# ---- 1. scripted games ---------------------------------------------------------------
def test_game_as_red_vs_novice(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, NOVICE)
    assert con.cursor() == (4, 3)
    game = Game(START_FEN)
    check_same(con, game, "start")
    rng = random.Random(2024)
    play_vs_computer(con, game, RED, NOVICE, 40, lambda g: rng.choice(g.pos.legal_moves()))
    if game.outcome() is not None:
        check_game_over(con, game)
    else:
        assert len(game.moves) == 40 and con.screen_id() == SCREEN_BOARD


def test_game_as_black_vs_easy(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_BLACK, EASY, button=A)
    assert con.cursor() == (4, 6)                      # on Black's middle pawn
    game = Game(START_FEN)
    rng = random.Random(7)
    # the computer (Red) moves first; the human picks among the reference's
    # Novice move and random legal moves
    play_vs_computer(con, game, BLACK, EASY, 16,
                     lambda g: rng.choice(g.pos.legal_moves()) if rng.random() < 0.5
                     else search(g.pos.copy(), LEVELS[NOVICE], seed=rng.randrange(1, 65536)).move)
    if game.outcome() is None:
        assert len(game.moves) == 16 and con.screen_id() == SCREEN_BOARD
    else:
        check_game_over(con, game)


# ---- 2. illegal attempts ---------------------------------------------------------------
def snapshot_state(con: Console) -> tuple:
    return (con.read("board", BOARD_SIZE), con.byte("eng_side"), con.word("game_ply"), con.screen_id())


def test_illegal_attempts_change_nothing(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, EASY)
    game = Game(START_FEN)
    before = snapshot_state(con)

    def refused(sel: int, what: str) -> None:
        con.wait_frames(10)
        assert snapshot_state(con) == before, what
        assert con.byte("ui_sel") == sel, what
        assert con.byte("ui_think") == THINK_NONE and not con.busy(), what

    con.move_cursor_to(7, 9)                           # Black's horse h9
    con.press(A)
    refused(0, "A on the opponent's piece")
    con.move_cursor_to(4, 4)                           # e4: empty
    con.press(A)
    refused(0, "A on an empty square")
    con.move_cursor_to(0, 0)                           # Red's rook a0: pick it up
    con.press(A)
    assert con.byte("ui_sel") == square(0, 0)
    for f, r, what in ((0, 4, "the rook through its own pawn"), (0, 9, "the rook through pieces onto a9"),
                       (1, 1, "the rook diagonally"), (4, 4, "an empty square out of reach")):
        con.move_cursor_to(f, r)
        con.press(A)
        refused(square(0, 0), what)
    con.move_cursor_to(1, 9)                           # A on an opponent's piece out of reach
    con.press(A)
    refused(square(0, 0), "A on an opponent's piece out of the rook's reach")
    con.press(B)                                       # B puts it down
    refused(0, "B")
    con.move_cursor_to(0, 0)
    con.press(A)
    con.press(A)                                       # A on the picked-up piece: down
    refused(0, "A twice")
    check_same(con, game, "after the refused attempts")

    # Buttons mashed while the computer (Easy) thinks: no effect at all.
    rng = random.Random(5)
    human_move(con, game, _iccs(game, OUT_OF_BOOK))
    cursor = con.cursor()
    con.wait_until(lambda c: c.busy(), 30, "the computer thinking")
    mashed = 0
    while con.busy():
        assert mashed < 1200, con.where()
        con.nes.controller = rng.choice((A, A, UP, DOWN, LEFT, RIGHT, B, START, A | RIGHT, 0, 0))
        con.step(1)
        mashed += 1
        if con.busy():
            assert con.word("game_ply") == 1 and con.cursor() == cursor, con.where()
    con.nes.controller = 0
    assert mashed >= 30, f"the search took only {mashed} frames: too short to mash"
    computer_reply(con, game, EASY)
    con.wait_frames(60)                                # the blink is over, input read again
    assert con.screen_id() == SCREEN_BOARD and con.byte("ui_sel") == 0 and con.cursor() == cursor
    check_same(con, game, "after mashing")
    human_move(con, game, _iccs(game, "h0g2", "b0c2"))   # and the game goes on
    computer_reply(con, game, EASY)


def _iccs(game: Game, *texts: str) -> int:
    """The first of the ICCS moves that is legal now (else the reference's
    Novice move): scripts that survive a different computer reply."""
    legal = {move_iccs(m): m for m in game.pos.legal_moves()}
    for text in texts:
        if text in legal:
            return legal[text]
    return search(game.pos.copy(), LEVELS[NOVICE], seed=1).move


# ---- 3. games to the end -----------------------------------------------------------------
def test_checkmate_vs_novice(rom_path):
    """Red (the test) plays the reference at Hard against the ROM at Novice
    until the game ends: Red mates.  Hard beats Novice from 246 of the 255
    seeds the title can give by checkmate (the others by stalemate), in 7 to
    119 plies; seed 31 is a checkmate in 13 plies."""
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, NOVICE, seed=31)
    game = Game(START_FEN)
    play_vs_computer(con, game, RED, NOVICE, 200,
                     lambda g: search(g.pos.copy(), LEVELS[HARD], seed=1).move)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == RED and outcome.reason == "checkmate", \
        (outcome, len(game.moves))
    check_game_over(con, game)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_CHECKMATE, RED)
    con.press(A)
    con.wait_screen(SCREEN_TITLE, 120)


def test_repetition_draw_two_players(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    for text in ["b0c2", "b9c7", "c2b0", "c7b9"] * 2:
        assert game.outcome() is None and con.screen_id() == SCREEN_BOARD
        assert not con.byte("ui_think")                 # nobody thinks for two players
        human_move(con, game, _iccs(game, text))
    check_game_over(con, game)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_REPETITION, NO_WINNER)
    con.press(START)
    con.wait_screen(SCREEN_TITLE, 120)


def test_two_players_two_controllers(rom_path):
    """Two players: Black may use controller 2 (or share controller 1);
    Red plays with controller 1 only, so pad 2 cannot move Red's pieces."""
    con = power_on(rom_path)
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    human_move(con, game, _iccs(game, "h2e2"))            # Red, pad 1
    con.pad = 2
    human_move(con, game, _iccs(game, "h9g7"))            # Black, pad 2
    before = snapshot_state(con)
    cursor = con.cursor()
    con.press(RIGHT)
    con.press(A)
    assert con.cursor() == cursor and con.byte("ui_sel") == 0 and snapshot_state(con) == before
    con.pad = 1
    human_move(con, game, _iccs(game, "b0c2"))            # Red, pad 1
    human_move(con, game, _iccs(game, "b9c7"))            # Black may share pad 1 too


def test_resign(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, NOVICE)
    game = Game(START_FEN)
    human_move(con, game, _iccs(game, "h2e2"))
    computer_reply(con, game, NOVICE)
    pause_choose(con, ITEM_RESIGN)
    con.wait_screen(SCREEN_GAME_OVER, 60)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (UI_RESULT_RESIGN, BLACK)
    check_same(con, game, "resigned")
    con.press(A)
    con.wait_screen(SCREEN_TITLE, 120)


# ---- 4. the pause menu ----------------------------------------------------------------------
def test_pause_takeback_hint_new_game(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, NOVICE)
    game = Game(START_FEN)

    # nothing to take back at the start: refused, the game goes on
    pause_choose(con, ITEM_TAKEBACK)
    con.wait_frames(10)
    assert con.screen_id() == SCREEN_BOARD and con.byte("ui_think") == THINK_NONE
    check_same(con, game, "take-back with nothing to take back")

    # RESUME and B leave everything as it was
    pause_choose(con, ITEM_RESUME)
    con.wait_frames(4)
    assert con.screen_id() == SCREEN_BOARD
    con.press(START)
    con.wait_screen(SCREEN_PAUSE, 30)
    con.press(B)
    con.wait_screen(SCREEN_BOARD, 30)
    check_same(con, game, "resumed")

    for text in ("h2e2", "h0g2", "i0h0"):  # (fallbacks: _iccs)
        human_move(con, game, _iccs(game, text))
        computer_reply(con, game, NOVICE)
    pause_choose(con, ITEM_TAKEBACK)
    con.wait_until(lambda c: c.word("game_ply") == len(game.moves) - 2, 60, "take-back")
    game.undo(2)
    check_same(con, game, "take-back")
    assert con.screen_id() == SCREEN_BOARD and con.human_to_move()
    assert last_move(con) == game.moves[-1]

    # the game goes on from there
    human_move(con, game, _iccs(game, "c3c4", "g3g4", "a3a4"))
    computer_reply(con, game, NOVICE)

    # HINT: the engine at Novice for the human: the piece picked up, the cursor on its destination
    pause_choose(con, ITEM_HINT)
    con.wait_until(lambda c: not c.busy() and c.byte("ui_think") == THINK_NONE and c.byte("ui_sel"),
                   300, "the hint")
    hint = check_search(con, game, NOVICE, "hint")
    sel, (f, r) = con.byte("ui_sel"), con.cursor()
    assert sel == move_from(hint) and (f, r) == (file_of(move_to(hint)), rank_of(move_to(hint)))
    legal = game.pos.legal_moves()
    assert sel | square(f, r) << 8 in legal
    assert con.screen_id() == SCREEN_BOARD and con.word("game_ply") == len(game.moves)
    check_same(con, game, "hint shown")
    press_watching(con, A, lambda c: c.word("game_ply") == len(game.moves) + 1 and settled(c), 30,
                   what="A: the hint's move")                  # A plays it
    assert last_move(con) == hint
    game.play(hint)
    check_same(con, game, "hint played")
    released(con)
    computer_reply(con, game, NOVICE)

    # NEW GAME: back to the title, and a new game starts from the opening
    pause_choose(con, ITEM_NEW_GAME)
    con.wait_screen(SCREEN_TITLE, 60)
    con.wait_frames(10)
    choose_and_start(con, HUMAN_RED, NOVICE)
    game = Game(START_FEN)
    check_same(con, game, "new game")


# ---- 5. reset while thinking -------------------------------------------------------------
def test_reset_while_thinking(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, MASTER)
    game = Game(START_FEN)
    human_move(con, game, _iccs(game, OUT_OF_BOOK))
    con.wait_until(lambda c: c.busy(), 30, "the computer thinking")
    con.wait_frames(90)
    assert con.busy() and con.word("game_ply") == 1   # still thinking (Master: ~40 s here)
    con.reset()                                        # cynes' NES.reset: the console's Reset button
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(30)                                # the title drawn (NMI off meanwhile)
    nmi = con.byte("nmi_count")
    con.wait_frames(30)
    assert (con.byte("nmi_count") - nmi) & 0xFF == 30, "NMIs not running after the reset"
    assert con.screen_id() == SCREEN_TITLE and not con.busy() and con.byte("ui_think") == THINK_NONE
    # the title's settings survive the reset (settings_save / settings_load)
    assert (con.byte("ui_menu"), con.byte("ui_players"), con.byte("ui_level")) == (0, HUMAN_RED, MASTER)
    # the title drawn cleanly: the picture of a fresh console's title with Master chosen by hand
    fresh = power_on(rom_path)
    fresh.press(DOWN)
    for _ in range(MASTER):
        fresh.press(RIGHT)
    fresh.press(UP)
    fresh.wait_frames(4)
    con.wait_frames(4)
    assert fresh.byte("ui_level") == MASTER and fresh.byte("ui_menu") == 0
    assert np.array_equal(np.asarray(con.screen()), np.asarray(fresh.screen()))
    choose_and_start(con, HUMAN_RED, NOVICE)
    game = Game(START_FEN)
    check_same(con, game, "new game after the reset")
    human_move(con, game, _iccs(game, "b2e2"))
    computer_reply(con, game, NOVICE)


def test_settings_survive_a_soft_reset_only(rom_path):
    """A soft reset keeps the title's players and level; a power-on, a
    damaged signature or check byte, or a level the ROM does not have start
    from the defaults (1 player as Red, the first level)."""
    con = power_on(rom_path)
    con.press(RIGHT)                                   # 1 player as Black,
    con.press(RIGHT)                                   # 2 players
    con.press(DOWN)
    con.press(RIGHT)                                   # the second level
    assert (con.byte("ui_players"), con.byte("ui_level")) == (TWO_PLAYERS, EASY)
    start = con.save()
    con.reset()
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(10)
    assert (con.byte("ui_players"), con.byte("ui_level")) == (TWO_PLAYERS, EASY)
    con.reset()                                        # and again: still kept
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(10)
    assert (con.byte("ui_players"), con.byte("ui_level")) == (TWO_PLAYERS, EASY)
    for label, damage in (("keep_sig", lambda v: v ^ 1), ("keep_check", lambda v: v ^ 0x10),
                          ("keep_settings", lambda v: v ^ 0x04)):
        con.load(start)
        con.write(label, [damage(con.byte(label))])
        con.reset()
        con.wait_screen(SCREEN_TITLE, 5)
        con.wait_frames(10)
        assert (con.byte("ui_players"), con.byte("ui_level")) == (HUMAN_RED, NOVICE), label
    con.load(start)                                    # a level the ROM does not have: the first
    bad = 7 << 2 | TWO_PLAYERS
    con.write("keep_settings", [bad])
    con.write("keep_check", [bad ^ _X["KEEP_CHECK"]])
    con.reset()
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(10)
    assert (con.byte("ui_players"), con.byte("ui_level")) == (TWO_PLAYERS, NOVICE)
    assert (power_on(rom_path).byte("ui_players"), power_on(rom_path).byte("ui_level")) == (HUMAN_RED, NOVICE)


# ---- 6. attract mode ----------------------------------------------------------------------
def test_attract_mode(rom_path):
    con = power_on(rom_path)
    idle = con.wait_until(lambda c: c.screen_id() != SCREEN_TITLE, ATTRACT_IDLE_FRAMES + 60, "the demo")
    assert con.screen_id() == SCREEN_ATTRACT
    assert con.frames >= ATTRACT_IDLE_FRAMES, f"the demo started after {idle} frames"
    assert con.byte("ui_players") == 0
    game = Game(START_FEN)
    # follow the demo ply by ply: each move is the reference's at Novice
    for _ in range(900):
        plies = con.word("game_ply")
        if plies == len(game.moves) + 1:
            move = check_search(con, game, NOVICE, f"demo move {plies}")
            assert last_move(con) == move
            game.play(move)
        assert plies == len(game.moves), con.where()
        if settled(con):
            check_same(con, game, "demo")
        assert con.screen_id() == SCREEN_ATTRACT, con.where()
        con.step(1)
    assert len(game.moves) >= 10, f"only {len(game.moves)} demo plies in 900 frames"
    # any button: back to the title (held until the ROM sees it)
    con.hold_until(B, lambda c: c.screen_id() == SCREEN_TITLE, 120, "B in the demo")
    con.wait_frames(10)
    assert con.screen_id() == SCREEN_TITLE and con.byte("ui_players") == HUMAN_RED


@pytest.mark.parametrize("phase", ["search", "blink"])
def test_attract_tap_returns_to_title(rom_path, phase):
    """A short tap (3 frames) ends the demo, whether it comes while the
    computer searches or while its piece blinks."""
    con = power_on(rom_path)
    con.wait_screen(SCREEN_ATTRACT, ATTRACT_IDLE_FRAMES + 60)
    con.wait_until(lambda c: c.word("game_ply") >= 3, 900, "three demo plies")
    if phase == "search":
        con.wait_until(lambda c: c.busy(), 300, "a demo search")
    else:
        plies = con.word("game_ply")
        con.wait_until(lambda c: c.word("game_ply") > plies, 300, "a demo move")
        assert not con.busy()
    con.press(A)
    con.wait_screen(SCREEN_TITLE, 120)


# ---- 7. screenshots ---------------------------------------------------------------------------
SCREENSHOT_SEED = 0x31


def board_shot(con: Console, name: str) -> None:
    """Compares the board screen at the frame the sprite rotation
    (ui_oam_rot) is at 0, so which sprites a crowded line drops does not
    depend on the timing."""
    con.wait_until(lambda c: c.byte("ui_oam_rot") == 0, 80, "ui_oam_rot == 0")
    compare_screenshot(con.screen(), SHOTS / f"{name}.png")


def test_screenshots(rom_path):
    """Every screen, with the game's seed fixed (the computer's reply and the
    demo after it do not depend on how long the title took)."""
    con = power_on(rom_path)
    con.wait_frames(10)
    compare_screenshot(con.screen(), SHOTS / "title.png")
    choose_and_start(con, HUMAN_RED, NOVICE, seed=SCREENSHOT_SEED)
    con.wait_frames(30)
    board_shot(con, "board_start")
    con.move_cursor_to(7, 2)                           # Red's cannon h2: picked up, dots on its destinations
    con.press(A)
    assert con.byte("ui_sel") == square(7, 2)
    board_shot(con, "board_selected")
    con.press(B)
    con.press(START)
    con.wait_screen(SCREEN_PAUSE, 30)
    con.press(DOWN)
    board_shot(con, "pause")
    con.press(B)
    game = Game(START_FEN)
    human_move(con, game, _iccs(game, "h2e2"))
    computer_reply(con, game, NOVICE)
    pause_choose(con, ITEM_RESIGN)
    con.wait_screen(SCREEN_GAME_OVER, 60)
    con.wait_frames(30)
    board_shot(con, "game_over")
    con.press(A)
    con.wait_screen(SCREEN_TITLE, 120)
    con.wait_screen(SCREEN_ATTRACT, ATTRACT_IDLE_FRAMES + 60)
    con.wait_until(lambda c: c.word("game_ply") >= 6, 900, "six demo plies")
    con.wait_until(lambda c: c.busy(), 120, "the next demo search")   # the panel is complete
    con.wait_frames(1)                                 # the spinner and "00 SEC" up
    compare_screenshot(con.screen(), SHOTS / "attract.png")


# ---- 8. no dropped NMI while thinking ---------------------------------------------------------
def test_one_nmi_per_frame_while_thinking(rom_path):
    """The computer thinks at Hard (about 10 s here): nmi_count goes up by
    exactly one every frame, and the move is still the reference's."""
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, HARD)
    game = Game(START_FEN)
    human_move(con, game, _iccs(game, OUT_OF_BOOK))
    con.wait_until(lambda c: c.busy(), 30, "the computer thinking")
    nmi, frames, secs = con.byte("nmi_count"), 0, []
    while con.busy():
        con.step(1)
        frames += 1
        now = con.byte("nmi_count")
        assert (now - nmi) & 0xFF == 1, f"nmi_count went {nmi} -> {now} in one frame ({con.where()})"
        nmi = now
        secs.append(con.byte("think_secs"))
        assert frames < 3000, con.where()
    assert frames >= 180, f"the Hard search took only {frames} frames"
    assert max(secs) >= 3                              # the clock counted the seconds (BCD)
    computer_reply(con, game, HARD)
