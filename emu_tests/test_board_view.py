"""The board seen from Black's side, on the real ROM in cynes, driven with the pad.

  * 1 player as Black: the pieces, the river text, the last-move marks and
    the cursor are drawn turned half round (Black at the bottom); Up moves
    the cursor up the screen (towards Red's side); a move picked with the
    turned cursor is the intended board move;
  * 2 players "turning": the side to move is at the bottom after every
    move (and after a take-back); 2 players "fixed": Red stays at the bottom;
  * the players choice (with the 2-player view) survives a soft reset, not
    a power-on;
  * draw_square alone (py65): turned, square s is drawn exactly where square
    89 - s is drawn from Red's side, within its 800 cycles.

Red as the human and the demo keep Red at the bottom (test_boot.py and
test_game_play.py's screenshots).  Also writes docs/screenshots/black_view.png
(the README's picture) when it changed and UPDATE_SCREENSHOTS is set.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cynes")

from tools.nes.console import A, B, DOWN, LEFT, RIGHT, START, UP  # noqa: E402
from emu_tests.screenshot_diff import compare_screenshot  # noqa: E402
from emu_tests.test_boot import cell_origin, cursor_sprites, masks  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    _X, HUMAN_BLACK, HUMAN_RED, ITEM_TAKEBACK, NOVICE, SCREEN_BOARD, SCREEN_TITLE, SHOTS, TWO_PLAYERS,
    check_same, choose_and_start, computer_reply, human_move, pause_choose, power_on, press_watching,
    released, settled,
)
from reference_py.board import BLACK, RED, file_of, move_from, move_iccs, move_to, rank_of, square  # noqa: E402
from reference_py.fen import START_FEN  # noqa: E402
from reference_py.rules import Game  # noqa: E402

VIEW_FIXED, VIEW_TURN, PAL_MARK = _X["UI_VIEW_FIXED"], _X["UI_VIEW_TURN"], _X["PAL_MARK"]
DOCS_SHOT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "black_view.png"
SEED = 0x31                      # the computer's first (book) move does not depend on timing
OAM, SPR_TILE_DOT, DOT_OFFSET = 0x0200, 0x02, 5   # asm/tiles.inc, ui_board.s
RIVER_Y = 7 * 16                 # asm/tiles.inc RIVER_MROW
RIVER_WORDS = ((2 * 16, 4 * 16), (7 * 16, 9 * 16))   # x spans of 楚河 and 漢界 (files b-c, g-h)


def screen_cell(f: int, r: int, turned: bool) -> tuple[int, int]:
    """The screen cell (file, rank as Red's view numbers them) showing board square (f, r)."""
    return (8 - f, 9 - r) if turned else (f, r)


def cell_side(frame: np.ndarray, f: int, r: int) -> str:
    """'R' red piece, 'B' black piece, '.' empty on the screen cell (f, r) (Red's
    numbering): test_boot.classify, with a marked piece's face (PAL_MARK, not
    white) counted as a face too."""
    x, y = cell_origin(f, r)
    cell = frame[y:y + 16, x:x + 16].astype(int)
    red, black, *_ = masks(cell)
    light = cell.sum(axis=2) > 450                 # a white or marked face
    if light.sum() < 40:
        assert red.sum() == 0, f"red pixels on the empty cell {f},{r}"
        return "."
    return "R" if red.sum() >= 20 else "B" if black.sum() >= 20 else "?"


def drawn_sides(frame: np.ndarray, turned: bool) -> dict[tuple[int, int], str]:
    """{(file, rank): 'R' / 'B' / '.'} as the frame shows each board square."""
    return {(f, r): cell_side(frame, *screen_cell(f, r, turned)) for f in range(9) for r in range(10)}


def board_sides(game: Game) -> dict[tuple[int, int], str]:
    """The same map from the reference position."""
    out = {(f, r): "." for f in range(9) for r in range(10)}
    for sq, (side, _kind) in game.pos.pieces().items():
        out[(file_of(sq), rank_of(sq))] = "R" if side == RED else "B"
    return out


def cell_palette(con, f: int, r: int) -> int:
    """The palette attr_shadow gives the screen cell (f, r) (Red's numbering)."""
    x, y = cell_origin(f, r)
    mcol, mrow = x // 16, y // 16
    byte = con.read("attr_shadow", 64)[(mrow // 2) * 8 + mcol // 2]
    return byte >> (2 * ((mrow & 1) * 2 + (mcol & 1))) & 3


def settle_frame(con) -> np.ndarray:
    """A frame after the screen has caught up (queue flushed, blink over)."""
    con.wait_frames(40)
    return np.asarray(con.screen())


def river(frame: np.ndarray) -> list[np.ndarray]:
    return [frame[RIVER_Y:RIVER_Y + 16, x0:x1] for x0, x1 in RIVER_WORDS]


def check_view(con, game: Game, turned: bool) -> np.ndarray:
    """ui_flip, the pieces, the river and the last-move marks as seen from
    Black (turned) or Red.  Returns the frame."""
    assert con.byte("ui_flip") == int(turned), con.where()
    frame = settle_frame(con)
    assert drawn_sides(frame, turned) == board_sides(game), f"pieces as drawn (turned={turned})"
    left, right = river(frame)
    red_view = red_river(con.rom)
    assert np.array_equal(left, red_view[1 if turned else 0]), "the river's left word"
    assert np.array_equal(right, red_view[0 if turned else 1]), "the river's right word"
    for sq in (con.byte("game_last_from"), con.byte("game_last_to")):
        if sq:
            cell = screen_cell(file_of(sq), rank_of(sq), turned)
            assert cell_palette(con, *cell) == PAL_MARK, f"the last move's mark on {cell}"
    return frame


_RED_RIVER: list[np.ndarray] = []


def red_river(rom_path) -> list[np.ndarray]:
    """The river's two words on a board seen from Red (1P as Red, fresh)."""
    if not _RED_RIVER:
        con = power_on(rom_path)
        choose_and_start(con, HUMAN_RED, NOVICE)
        _RED_RIVER.extend(river(settle_frame(con)))
    return _RED_RIVER


def cursor_cell(con) -> tuple[int, int]:
    """The screen cell (Red's numbering) the cursor sprites frame."""
    corners = cursor_sprites(con.nes)
    assert len(corners) == 4, corners
    x, y = min(c[0] for c in corners) + 3, min(c[1] for c in corners) + 3 + 1   # CURSOR_NEAR; OAM Y
    for f in range(9):
        for r in range(10):
            if cell_origin(f, r) == (x, y):
                return f, r
    raise AssertionError(f"cursor sprites at {corners}: no board cell")


def dot_cells(con) -> set[tuple[int, int]]:
    """The screen cells (Red's numbering) of the legal-destination dots
    (tile SPR_TILE_DOT, centred on the intersection: 5 px into the cell)."""
    out = set()
    for i in range(64):
        y, tile, attr, x = (con.nes[OAM + 4 * i + k] for k in range(4))
        if tile == SPR_TILE_DOT and y < 0xEF:
            out.add(next((f, r) for f in range(9) for r in range(10)
                         if cell_origin(f, r) == (x - DOT_OFFSET, y + 1 - DOT_OFFSET)))
    return out


def test_one_player_as_black_sees_the_board_from_black(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_BLACK, NOVICE, seed=SEED)
    game = Game(START_FEN)
    computer_reply(con, game, NOVICE)                  # Red moves first
    frame = check_view(con, game, turned=True)
    # Black's pieces at the bottom: the two bottom rows of the screen are black
    assert all(cell_side(frame, f, 0) == "B" for f in range(9))
    # the cursor starts on Black's middle pawn (e6), drawn where e6 is seen
    con.wait_until(lambda c: c.human_to_move(), 600, "the human's turn")
    assert con.cursor() == (4, 6)
    assert cursor_cell(con) == screen_cell(4, 6, True)
    # Up moves the cursor up the screen (towards Red: a lower rank), Right to the right
    con.press(UP)
    con.wait_frames(2)
    assert con.cursor() == (4, 5) and cursor_cell(con) == (4, 4)      # the cell above
    con.press(RIGHT)
    con.wait_frames(2)
    assert con.cursor() == (3, 5) and cursor_cell(con) == (5, 4)      # file d, on the right of e
    con.press(DOWN)
    con.press(LEFT)
    assert con.cursor() == (4, 6)
    # a move with the turned cursor, by screen directions only: the cannon
    # h7 is 3 cells left and 1 down from e6, its destination e7 1 down
    move = next(m for m in game.pos.legal_moves() if move_iccs(m) == "h7e7")
    for button in (LEFT, LEFT, LEFT, DOWN):
        con.press(button)
    assert con.cursor() == (7, 7)
    con.press(A)
    assert con.byte("ui_sel") == square(7, 7)
    con.wait_frames(2)
    dests = {move_to(m) for m in game.pos.legal_moves() if move_from(m) == square(7, 7)}
    assert dot_cells(con) == {screen_cell(file_of(sq), rank_of(sq), True) for sq in dests}
    for button in (RIGHT, RIGHT, RIGHT):
        con.press(button)
    assert con.cursor() == (4, 7)
    press_watching(con, A, lambda c: c.word("game_ply") == 2 and settled(c), 60, what="A on e7")
    assert (con.byte("game_last_from"), con.byte("game_last_to")) == (move_from(move), move_to(move))
    game.play(move)
    check_same(con, game, "h7e7 with the turned cursor")
    released(con)
    computer_reply(con, game, NOVICE)
    check_view(con, game, turned=True)


def test_black_view_screenshot(rom_path):
    """The picture of a game as Black after Red's first move (the seed
    fixes the book's reply); also the README's docs/screenshots/black_view.png."""
    from PIL import Image
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_BLACK, NOVICE, seed=SEED)
    game = Game(START_FEN)
    computer_reply(con, game, NOVICE)
    con.wait_frames(60)
    con.wait_until(lambda c: c.byte("ui_oam_rot") == 0, 80, "ui_oam_rot == 0")
    img = np.asarray(con.screen()).astype(np.uint8)
    compare_screenshot(con.screen(), SHOTS / "board_black.png")
    if os.environ.get("UPDATE_SCREENSHOTS") and (
            not DOCS_SHOT.exists() or not np.array_equal(np.asarray(Image.open(DOCS_SHOT).convert("RGB")), img)):
        Image.fromarray(img, "RGB").save(DOCS_SHOT, optimize=True)


def choose_two_players(con, view: int) -> None:
    """On the title: 2 players with the given view, the first level, Start."""
    for _ in range(4):
        if (con.byte("ui_players"), con.byte("ui_view")) == (TWO_PLAYERS, view):
            break
        con.press(RIGHT)
    assert (con.byte("ui_players"), con.byte("ui_view")) == (TWO_PLAYERS, view)
    con.press(START)
    con.wait_screen(SCREEN_BOARD, 120)


def test_two_players_turning_puts_the_side_to_move_at_the_bottom(rom_path):
    con = power_on(rom_path)
    choose_two_players(con, VIEW_TURN)
    game = Game(START_FEN)
    check_view(con, game, turned=False)                # Red to move
    for text in ("h2e2", "h9g7", "h0g2"):
        human_move(con, game, next(m for m in game.pos.legal_moves() if move_iccs(m) == text))
        check_view(con, game, turned=game.pos.side == BLACK)
    pause_choose(con, ITEM_TAKEBACK)                  # one ply back: Red to move again
    con.wait_until(lambda c: c.word("game_ply") == 2, 60, "the take-back")
    game.undo()
    check_same(con, game, "take-back")
    check_view(con, game, turned=False)


def test_two_players_fixed_keeps_red_at_the_bottom(rom_path):
    con = power_on(rom_path)
    choose_two_players(con, VIEW_FIXED)
    game = Game(START_FEN)
    for text in ("h2e2", "h9g7"):
        human_move(con, game, next(m for m in game.pos.legal_moves() if move_iccs(m) == text))
        check_view(con, game, turned=False)
    assert con.byte("ui_flip") == 0


def test_view_setting_survives_a_soft_reset_only(rom_path):
    con = power_on(rom_path)
    for _ in range(3):
        con.press(RIGHT)                               # 1P Black, 2P fixed, 2P turning
    assert (con.byte("ui_players"), con.byte("ui_view")) == (TWO_PLAYERS, VIEW_TURN)
    assert con.byte("keep_settings") & _X["KEEP_VIEW_TURN"]
    for _ in range(2):
        con.reset()
        con.wait_screen(SCREEN_TITLE, 5)
        con.wait_frames(10)
        assert (con.byte("ui_players"), con.byte("ui_view")) == (TWO_PLAYERS, VIEW_TURN)
    con.press(RIGHT)                                   # round to 1P as Red: the view goes with it
    assert (con.byte("ui_players"), con.byte("ui_view")) == (HUMAN_RED, VIEW_FIXED)
    con.press(LEFT)
    assert (con.byte("ui_players"), con.byte("ui_view")) == (TWO_PLAYERS, VIEW_TURN)
    con.press(LEFT)
    assert (con.byte("ui_players"), con.byte("ui_view")) == (TWO_PLAYERS, VIEW_FIXED)
    con.press(LEFT)                                    # 1P as Black, kept too
    con.reset()
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(10)
    assert (con.byte("ui_players"), con.byte("ui_view")) == (HUMAN_BLACK, VIEW_FIXED)
    # a started game as Black after the reset is seen from Black
    con.press(START)
    con.wait_screen(SCREEN_BOARD, 120)
    assert con.byte("ui_flip") == 1
    fresh = power_on(rom_path)
    assert (fresh.byte("ui_players"), fresh.byte("ui_view"), fresh.byte("ui_flip")) == (HUMAN_RED, VIEW_FIXED, 0)


def test_draw_square_turned_draws_the_opposite_cell(tmp_path):
    """draw_square in isolation (py65, as test_boot's test): with ui_flip set,
    square s queues exactly what square 89 - s queues from Red's side (the
    cell turned half round, its empty intersection read from there), within
    the header's 800 cycles."""
    from py65.devices.mpu6502 import MPU
    from emu_tests.test_boot import _call, _symbols_and_prg
    syms, prg, nt = _symbols_and_prg(tmp_path)
    mpu = MPU()
    mpu.memory = [0] * 0x8000 + list(prg)
    q, attr, flip = syms["vram_queue"], syms["attr_shadow"], syms["ui_flip"]

    def queued(square: int, piece: int, turned: bool) -> tuple[list[int], int]:
        mpu.memory[attr:attr + 64] = list(nt[960:1024])
        mpu.memory[syms["vram_queue_len"]] = 0
        mpu.memory[q] = 0
        mpu.memory[flip] = int(turned)
        cycles = _call(mpu, syms["draw_square"], a=piece, x=square)
        return mpu.memory[q:q + 15], cycles

    worst = 0
    for square in range(90):
        for piece in (0, 5, 5 + 8):
            got, cycles = queued(square, piece, True)
            want, _ = queued(89 - square, piece, False)
            assert got == want, f"square {square} piece {piece}"
            worst = max(worst, cycles)
    assert worst <= 800, f"draw_square took {worst} cycles turned (header says at most 800)"
