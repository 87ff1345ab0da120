"""The endgame puzzles on the real ROM in cynes, through the controller
(docs/UI.md: the title's PUZZLES item, the puzzle menu, a puzzle's game).

  * the menu lists config/puzzles.yaml's puzzles; every puzzle, chosen with
    Down and A, loads its FEN into the engine (board, side to move) with
    the human on its player's side and its goal in the panel;
  * puzzle 1 (a mate in one) played with its mating move (found with
    reference_py's rules) is solved: the mark shows in the menu, stays after
    a soft reset (NES.reset) and is gone after a power-on;
  * the menu's two pages: Left / Right turn them, and the cursor moving
    past puzzle PUZ_PAGE_ROWS shows the second page (its page number, the cursor and a solved mark on their
    rows there); a pattern puzzle of that page (a mate in two, config's
    `pattern`) is solved through the pad with Fairy-Stockfish's first move
    and a mate in one after the ROM's reply;
  * a puzzle's move limit ends it (a win puzzle not won in time: failed; a
    draw puzzle held to it: solved);
  * random buttons on the puzzle screens never crash the ROM;
  * the menu's pages against emu_tests/screenshots/puzzles.png and
    puzzles_page2.png, also the README's docs/screenshots/puzzles.png and
    puzzles_page2.png (UPDATE_SCREENSHOTS=1 rewrites them).
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cynes")

from emu_tests.screenshot_diff import compare_screenshot  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    GAME_CHECKMATE, HUMAN_BLACK, HUMAN_RED, NO_WINNER, SCREEN_BOARD, SCREEN_GAME_OVER, SCREEN_TITLE, SHOTS,
    computer_reply, human_move, power_on, settled,
)
from reference_py.board import KING, RED, move_from, move_iccs  # noqa: E402
from reference_py.fen import parse_fen  # noqa: E402
from reference_py.rules import Game  # noqa: E402
from tools.nes.console import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP  # noqa: E402
from tools.nes.linkmap import built  # noqa: E402
from tools.rom.gen_puzzles import load_puzzles  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS_SHOT = ROOT / "docs" / "screenshots" / "puzzles.png"
DOCS_SHOT_2 = ROOT / "docs" / "screenshots" / "puzzles_page2.png"
_X = built().exports
SCREEN_PUZZLES, RESULT_LIMIT, PUZ_COUNT = _X["UI_SCREEN_PUZZLES"], _X["UI_RESULT_LIMIT"], _X["PUZ_COUNT"]
PUZ_FIRST_ROW, PUZ_PAGE_ROWS = _X["PUZ_FIRST_ROW"], _X["PUZ_PAGE_ROWS"]
TITLE_ITEM_PUZZLES = 4
MASTER = 4
PUZZLES = load_puzzles()


def open_menu(con) -> None:
    """From the title: Down to PUZZLES, A."""
    assert con.screen_id() == SCREEN_TITLE, con.where()
    while con.byte("ui_menu") != TITLE_ITEM_PUZZLES:
        con.press(DOWN)
    con.press(A)
    con.wait_screen(SCREEN_PUZZLES, 60)
    con.wait_frames(5)


def solved(con) -> list[int]:
    bits = con.read("puz_solved", (PUZ_COUNT + 7) // 8)
    return [i + 1 for i in range(PUZ_COUNT) if bits[i >> 3] >> (i & 7) & 1]


def start_puzzle(con, number: int) -> Game:
    """On the menu: the cursor to puzzle `number` (1-based), A; checks the
    engine's position and the side to move against the FEN, the human's
    side; returns the reference game."""
    assert con.screen_id() == SCREEN_PUZZLES, con.where()
    while con.byte("ui_menu") != number - 1:
        con.press(DOWN if con.byte("ui_menu") < number - 1 else UP)
    con.press(A)
    con.wait_screen(SCREEN_BOARD, 120)
    con.wait_until(settled, 30, "the main loop settled")
    p = PUZZLES[number - 1]
    ref = parse_fen(p.fen)
    assert con.position().pieces() == ref.pieces(), f"puzzle {number}: board {con.fen()} != {p.fen}"
    assert con.byte("eng_side") == ref.side, f"puzzle {number}: side to move"
    assert con.byte("puz_cur") == number
    assert con.byte("ui_players") == (HUMAN_RED if p.player == RED else HUMAN_BLACK)
    assert con.word("game_ply") == 0
    return Game(p.fen)


def test_every_puzzle_loads(rom_path):
    """The menu lists PUZ_COUNT puzzles; each one loads its FEN exactly."""
    assert PUZ_COUNT == len(PUZZLES)
    con = power_on(rom_path)
    open_menu(con)
    assert con.byte("ui_menu") == 0
    menu = con.save()
    for number in range(1, PUZ_COUNT + 1):
        con.load(menu)
        start_puzzle(con, number)


def after(game: Game, move: int) -> Game:
    """A copy of the reference game with `move` played."""
    g = Game(game.start_fen)
    for m in game.moves:
        g.play(m)
    g.play(move)
    return g


def mate_in_one(game: Game) -> int:
    for m in game.pos.legal_moves():
        out = after(game, m).outcome()
        if out is not None and out.reason == "checkmate":
            return m
    raise AssertionError("no mate in one")


def test_solve_mark_survives_soft_reset_not_power_on(rom_path):
    con = power_on(rom_path)
    open_menu(con)
    game = start_puzzle(con, 1)
    move = mate_in_one(game)
    human_move(con, game, move)                        # waits for the game-over screen
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_CHECKMATE, RED)
    assert solved(con) == [1]
    con.wait_frames(10)
    con.press(A)                                       # back to the menu, the cursor on puzzle 1
    con.wait_screen(SCREEN_PUZZLES, 60)
    con.wait_frames(5)
    assert con.byte("ui_menu") == 0
    marked = np.asarray(con.screen())
    con.reset()
    con.wait_screen(SCREEN_TITLE, 10)
    con.wait_frames(10)
    assert solved(con) == [1], "kept over a soft reset"
    open_menu(con)
    assert np.array_equal(np.asarray(con.screen()), marked), "the menu after the reset shows the mark"
    con.press(B)
    con.wait_screen(SCREEN_TITLE, 60)
    fresh = power_on(rom_path)
    assert solved(fresh) == [], "a power-on forgets the solved puzzles"
    open_menu(fresh)
    assert not np.array_equal(np.asarray(fresh.screen()), marked), "no mark after power-on"


def test_move_limit_ends_a_win_puzzle(rom_path):
    """Puzzle 3 (mate in 2, limit 2) played with king moves only: after the
    human's second move the limit ends it, failed, nothing marked."""
    con = power_on(rom_path)
    open_menu(con)
    game = start_puzzle(con, 3)
    assert PUZZLES[2].limit == 2 and PUZZLES[2].goal == "win"
    for n in range(2):
        king = next(sq for sq, (side, kind) in game.pos.pieces().items() if side == RED and kind == KING)
        move = next(m for m in game.pos.legal_moves()
                    if move_from(m) == king and after(game, m).outcome() is None)
        human_move(con, game, move)
        if n == 0:
            computer_reply(con, game, MASTER, max_frames=60 * 120)
    con.wait_screen(SCREEN_GAME_OVER, 60)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (RESULT_LIMIT, NO_WINNER)
    assert solved(con) == []
    con.press(A)
    con.wait_screen(SCREEN_PUZZLES, 60)


def test_a_draw_puzzle_held_to_its_limit_is_solved(rom_path):
    """The last puzzle (a draw to hold for its limit): game_ply set to one
    ply before the limit, then one move with the pad reaches it: the game
    ends at the limit with no winner, and the puzzle is solved."""
    number = max(p.number for p in PUZZLES if p.goal == "draw")
    p = PUZZLES[number - 1]
    assert p.goal == "draw" and p.limit
    con = power_on(rom_path)
    open_menu(con)
    game = start_puzzle(con, number)
    assert game.pos.side == p.player, "the player moves first"
    con.write("game_ply", [p.limit_plies() - 1, 0])    # (the ply count only: the limit's test)
    move = next(m for m in game.pos.legal_moves() if after(game, m).outcome() is None)
    con.play_move(move_iccs(move))
    con.wait_screen(SCREEN_GAME_OVER, 60)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (RESULT_LIMIT, NO_WINNER)
    assert solved(con) == [number]


def menu_row(index: int) -> int:
    """The tile row of puzzle `index` (0-based) on its page of the menu."""
    return PUZ_FIRST_ROW + index % PUZ_PAGE_ROWS


def test_left_right_turn_the_pages(rom_path):
    """Right on page 1: the same row of page 2 (or its last puzzle); Left on
    page 2: the same row of page 1; Right on page 2 and Left on page 1 do
    nothing.  The cursor sprite follows on the page's row."""
    con = power_on(rom_path)
    open_menu(con)
    page_one = np.asarray(con.screen())
    for button, before, after_ in ((RIGHT, 0, PUZ_PAGE_ROWS), (RIGHT, PUZ_PAGE_ROWS, PUZ_PAGE_ROWS),
                                   (LEFT, PUZ_PAGE_ROWS, 0), (LEFT, 0, 0)):
        assert con.byte("ui_menu") == before
        con.press(button)
        con.wait_frames(5)
        assert con.byte("ui_menu") == after_, (button, before)
        assert con.read("oam", 1)[0] == menu_row(after_) * 8 + 1
    assert np.array_equal(np.asarray(con.screen()), page_one), "page 1 as it was"
    while con.byte("ui_menu") != PUZ_PAGE_ROWS - 1:
        con.press(DOWN)
    con.press(RIGHT)
    con.wait_frames(5)
    assert con.byte("ui_menu") == min(2 * PUZ_PAGE_ROWS - 1, PUZ_COUNT - 1)
    con.press(LEFT)
    assert con.byte("ui_menu") == min(2 * PUZ_PAGE_ROWS - 1, PUZ_COUNT - 1) - PUZ_PAGE_ROWS


def test_pattern_puzzle_on_page_two_solved_through_the_pad(rom_path):
    """Double cannons (a mate in two on the second page): the cursor moved
    there with Down shows page 2; Fairy-Stockfish's first move, the ROM's
    reply at Master, then a mate in one: solved, marked on page 2's row,
    and kept over a soft reset (its bit in the fourth byte of puz_solved)."""
    from tools.rom.gen_puzzles import read_checked
    p = next(p for p in PUZZLES if p.pattern == "double_cannons")
    assert p.number > PUZ_PAGE_ROWS and p.limit == 2
    con = power_on(rom_path)
    open_menu(con)
    page_one = np.asarray(con.screen())
    while con.byte("ui_menu") != p.number - 1:
        con.press(DOWN)
    con.wait_frames(5)
    oam = con.read("oam", 4)
    assert oam[0] == menu_row(p.number - 1) * 8 + 1, "the cursor on the puzzle's row of page 2"
    page_two = np.asarray(con.screen())
    assert not np.array_equal(page_one[24:], page_two[24:]), "the rows of page 2"
    while con.byte("ui_menu") != PUZ_PAGE_ROWS - 1:
        con.press(UP)
    con.wait_frames(5)
    cursor_col = slice(8, 16)                           # the cursor's column aside
    again = np.asarray(con.screen()).copy()
    again[:, cursor_col] = page_one[:, cursor_col]
    assert np.array_equal(again, page_one), "page 1 again"
    assert con.read("oam", 1)[0] == menu_row(PUZ_PAGE_ROWS - 1) * 8 + 1
    game = start_puzzle(con, p.number)
    first = read_checked()[p.fen]["line"][0]
    human_move(con, game, next(m for m in game.pos.legal_moves() if move_iccs(m) == first))
    computer_reply(con, game, MASTER, max_frames=60 * 120)
    human_move(con, game, mate_in_one(game))
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_CHECKMATE, RED)
    assert solved(con) == [p.number]
    con.wait_frames(10)
    con.press(A)
    con.wait_screen(SCREEN_PUZZLES, 60)
    con.wait_frames(5)
    assert con.byte("ui_menu") == p.number - 1
    oam = con.read("oam", 12)
    assert oam[8] == menu_row(p.number - 1) * 8 + 1, "the solved mark on its row of page 2 (slot 2)"
    assert p.number > 24, "a mark beyond the first three bytes of puz_solved"
    con.reset()
    con.wait_screen(SCREEN_TITLE, 10)
    assert solved(con) == [p.number], "kept over a soft reset"


def test_menu_screenshot(rom_path):
    con = power_on(rom_path)
    open_menu(con)
    con.press(DOWN)
    con.wait_frames(5)
    compare_screenshot(con.screen(), SHOTS / "puzzles.png")
    save_docs_shot(con, DOCS_SHOT)
    con.press(RIGHT)                                   # page 2: the mating patterns
    con.wait_frames(5)
    compare_screenshot(con.screen(), SHOTS / "puzzles_page2.png")
    save_docs_shot(con, DOCS_SHOT_2)


def save_docs_shot(con, path: Path) -> None:
    """The README's copy of the screen (UPDATE_SCREENSHOTS=1, or none yet)."""
    if os.environ.get("UPDATE_SCREENSHOTS") == "1" or not path.exists():
        from PIL import Image
        Image.fromarray(np.asarray(con.screen()).astype(np.uint8), "RGB").save(path, optimize=True)


def test_fuzz_puzzle_screens(rom_path):
    """Random buttons on the menu and in puzzles: no crash, a known screen,
    the menu cursor on a puzzle."""
    rng = random.Random(20261126)
    con = power_on(rom_path)
    open_menu(con)
    buttons = (UP, DOWN, LEFT, RIGHT, A, B, START, SELECT)
    seen = set()
    for i in range(2000):
        if con.screen_id() == SCREEN_TITLE:
            open_menu(con)
        b = rng.choice(buttons) if rng.random() < 0.8 else rng.randrange(256)
        con.press(b, frames=rng.randint(1, 4), release=rng.randint(1, 6))
        if con.busy():
            con.wait_until(lambda c: not c.busy(), 60 * 120, "the search")
        s = con.screen_id()
        assert s in con.screen_names, f"ui_screen {s}"
        seen.add(con.screen_names[s])
        if s == SCREEN_PUZZLES:
            assert con.byte("ui_menu") < PUZ_COUNT
        f, r = con.cursor()
        assert f <= 8 and r <= 9
        assert not con.nes.has_crashed
    assert {"puzzles", "play", "pause"} <= seen, seen
