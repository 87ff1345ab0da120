"""The game's texts in Chinese (the title's NOTATION item: ALL CHINESE,
ui_lang): chosen with the pad, kept over a soft reset (NES.reset()); the
pause menu (继续 悔棋 提示 认输 新局) and the result over the river (红胜 /
黑胜 / 和棋 and the reason) read back from the screen: each 16x16 cell's ink
is looked up in the build's glyph table (zh_glyph_bits read from the ROM, in
the order of tools/rom/art.py's ZH_GLYPHS), as test_zh_panel.py does for the
move list.  English stays the default (the screenshots of test_game_play.py).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("cynes")

from tools.nes.console import A, B, DOWN, LEFT, RIGHT, START, UP  # noqa: E402
from tools.rom.art import MENU_ROW, PANEL_LEFT_COL, RIVER_MROW, STATUS_MROW, ZH_TEXTS  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    BLACK, GAME_PERPETUAL_CHASE, GAME_REPETITION, HUMAN_RED, NO_WINNER, NOVICE, SCREEN_BOARD, SCREEN_GAME_OVER,
    SCREEN_PAUSE, SCREEN_TITLE, TWO_PLAYERS, UI_RESULT_RESIGN, _X, _iccs, check_game_over,
    choose_and_start, computer_reply, human_move, power_on)
from emu_tests.test_zh_panel import expected, font_ink, glyph_table, settle_list, shown_moves  # noqa: E402
from reference_py.fen import START_FEN  # noqa: E402
from reference_py.notation import format_zh  # noqa: E402
from reference_py.rules import Game  # noqa: E402

LANG_EN, LANG_ZH = _X["UI_LANG_EN"], _X["UI_LANG_ZH"]
ITEM_NOTATION, ITEM_RESIGN = 2, 3
TEXT = dict(ZH_TEXTS)
DOCS_SHOT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "chinese_pause.png"
RESULT_COL = 3                                     # ui_panel.s: the result line's first tile column


def glyph_at(frame: np.ndarray, col: int, row: int) -> bytes:
    """The ink of the 16x16 cell at tile (col, row), as zh_glyph_bits stores
    a glyph; ink is every pixel not of the cell's commonest colour."""
    cell = frame[row * 8:row * 8 + 16, col * 8:col * 8 + 16].astype(int)
    colours, counts = np.unique(cell.reshape(-1, 3), axis=0, return_counts=True)
    ink = (cell != colours[counts.argmax()]).any(axis=2)
    out = []
    for ty in (0, 8):
        for tx in (0, 8):
            for y in range(8):
                out.append(sum(0x80 >> x for x in range(8) if ink[ty + y, tx + x]))
    return bytes(out)


def read_text(con, frame, col: int, row: int, n: int) -> str:
    table = glyph_table(con)
    chars = []
    for g in range(n):
        pattern = glyph_at(frame, col + 2 * g, row)
        assert pattern in table, f"tile ({col + 2 * g}, {row}): ink that is no glyph of the table"
        chars.append(table[pattern])
    return "".join(chars)


def blank(frame, col: int, row: int, tiles: int, rows: int = 2) -> bool:
    area = frame[row * 8:(row + rows) * 8, col * 8:(col + tiles) * 8].reshape(-1, 3)
    return len(np.unique(area, axis=0)) == 1


def choose_chinese(con) -> None:
    """On the title: NOTATION, Left (CHINESE -> ALL CHINESE), back to PLAYERS."""
    con.press(DOWN)
    con.press(DOWN)
    assert con.byte("ui_menu") == ITEM_NOTATION
    con.press(LEFT)
    assert (con.byte("ui_lang"), con.byte("ui_notation")) == (LANG_ZH, 0)
    con.press(UP)
    con.press(UP)


def pause_items(con) -> list[str]:
    settle_list(con)
    frame = con.step(1)
    return [read_text(con, frame, PANEL_LEFT_COL + 2, MENU_ROW - 1 + 2 * i, 2) for i in range(5)]


def result_line(con) -> tuple[str, str]:
    settle_list(con)
    frame = con.step(1)
    row = 2 * RIVER_MROW
    winner = read_text(con, frame, RESULT_COL + 1, row, 2)
    n = 4 if con.byte("ui_result") == _X["GAME_DRAW_60"] else 2
    return winner, read_text(con, frame, RESULT_COL + 6, row, n)


def status(con) -> str:
    """The side to move's line (panel rows 10-11): four glyphs, or two in the middle."""
    settle_list(con)
    frame = con.step(1)
    row = 2 * STATUS_MROW
    if blank(frame, PANEL_LEFT_COL, row, 2):
        return read_text(con, frame, PANEL_LEFT_COL + 2, row, 2)
    return read_text(con, frame, PANEL_LEFT_COL, row, 4)


def test_language_choice_kept_over_reset(rom_path):
    con = power_on(rom_path)
    assert con.byte("ui_lang") == LANG_EN                           # the default: English
    choose_chinese(con)
    con.reset()
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(10)
    assert (con.byte("ui_lang"), con.byte("ui_notation")) == (LANG_ZH, 0)
    con.press(DOWN)
    con.press(DOWN)
    for lang, notation in ((LANG_EN, 0), (LANG_EN, 1), (LANG_ZH, 0)):   # Right: CHINESE, ICCS, ALL CHINESE
        con.press(RIGHT)
        assert (con.byte("ui_lang"), con.byte("ui_notation")) == (lang, notation)
    assert power_on(rom_path).byte("ui_lang") == LANG_EN            # a power-on: English again


def test_pause_menu_and_resignation_in_chinese(rom_path):
    con = power_on(rom_path)
    choose_chinese(con)
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    texts = []
    assert status(con) == TEXT["red_to_move"]
    for iccs in ("h2e2", "h9g7", "b0c2"):
        move = _iccs(game, iccs)
        texts.append(format_zh(game.pos, move))
        human_move(con, game, move)
    assert status(con) == TEXT["black_to_move"]
    con.press_until(START, lambda c: c.screen_id() == SCREEN_PAUSE, 120, "Start (pause)")
    assert pause_items(con) == [TEXT[k] for k in ("resume", "takeback", "hint", "resign", "new_game")]
    if os.environ.get("UPDATE_SCREENSHOTS"):                        # the README's picture
        Image.fromarray(con.step(1), "RGB").save(DOCS_SHOT, optimize=True)
    con.press(B)                                                    # resume: the list comes back
    con.wait_screen(SCREEN_BOARD, 10)
    settle_list(con)
    assert shown_moves(con) == expected([(t, 0) for t in texts])      # three moves: the top slot is blank
    assert status(con) == TEXT["black_to_move"]
    assert blank(con.step(1), PANEL_LEFT_COL, MENU_ROW - 1, 8, 1)   # the menu's top row is gone
    texts.append(format_zh(game.pos, _iccs(game, "b9c7")))
    human_move(con, game, _iccs(game, "b9c7"))
    con.press_until(START, lambda c: c.screen_id() == SCREEN_PAUSE, 120, "Start (pause)")
    while con.byte("ui_menu") != ITEM_RESIGN:
        con.press(DOWN)
    con.press(A)                                                    # Red resigns
    con.wait_screen(SCREEN_GAME_OVER, 120)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (UI_RESULT_RESIGN, BLACK)
    assert result_line(con) == (TEXT["black_wins"], TEXT["resigned"])
    assert status(con) == TEXT["game_over"]
    assert shown_moves(con) == ["", ""] + texts[-2:]                # the two newest moves stay
    con.reset()                                                     # the choice survives Reset
    con.wait_screen(SCREEN_TITLE, 5)
    con.wait_frames(10)
    assert con.byte("ui_lang") == LANG_ZH


def test_repetition_draw_in_chinese(rom_path):
    con = power_on(rom_path)
    choose_chinese(con)
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    for text in ["b0c2", "b9c7", "c2b0", "c7b9"] * 2:
        human_move(con, game, _iccs(game, text))
    check_game_over(con, game)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_REPETITION, NO_WINNER)
    assert result_line(con) == (TEXT["draw"], TEXT["repetition"])


# From the opening, Red's rook shuttles a1-h1 while Black's cannon shuttles
# h2-g2: the rook attacks the unprotected cannon anew with every move (the
# reference: "Red chased a piece perpetually").
CHASE_LINE = "b2b5 i9i7 a0a1 c9a7 h2h9 h7h2 a1h1 h2g2 h1a1 g2h2 a1h1 h2g2 h1a1 g2h2".split()


def play_chase(con) -> None:
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    for text in CHASE_LINE:
        human_move(con, game, _iccs(game, text))
    check_game_over(con, game)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_PERPETUAL_CHASE, BLACK)


def test_perpetual_chase_in_chinese(rom_path):
    con = power_on(rom_path)
    choose_chinese(con)
    play_chase(con)
    assert result_line(con) == (TEXT["black_wins"], TEXT["chase"])


def test_perpetual_chase_in_english(rom_path):
    """The end screen's second line over the river (ui_panel.s t_chase),
    read back from the picture as the font's ink."""
    con = power_on(rom_path)
    play_chase(con)
    con.wait_frames(10)
    frame = con.step(1)
    row = 2 * RIVER_MROW + 1
    line = frame[row * 8:row * 8 + 8, RESULT_COL * 8:(RESULT_COL + 15) * 8].astype(int)
    colours, counts = np.unique(line.reshape(-1, 3), axis=0, return_counts=True)
    ink = (line != colours[counts.argmax()]).any(axis=2)         # the line's paper: its commonest colour
    got = [bytes(sum(0x80 >> x for x in range(8) if ink[y, c * 8 + x]) for y in range(8)) for c in range(15)]
    assert got == [font_ink(ord(ch)) for ch in "PERPETUAL CHASE"]


def attr_palette(con, mrow: int, mcol: int) -> int:
    byte = con.byte("attr_shadow", (mrow // 2) * 8 + mcol // 2)
    return byte >> (((mrow & 1) * 2 + (mcol & 1)) * 2) & 3


def test_side_to_move_and_check_in_chinese(rom_path):
    """红方走棋 / 黑方走棋 after every ply, 将军 in the checked side's colour
    (the red pawn leaves file e: the cannon checks over Black's pawn); then
    against the computer, the line again after its reply (the search blanks
    its top row for the clock)."""
    con = power_on(rom_path)
    choose_chinese(con)
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    for iccs in ("h2e2", "b9c7", "e3e4", "c7b9", "e4e5", "b9c7", "e5d5"):
        human_move(con, game, _iccs(game, iccs))
        if game.pos.in_check(game.pos.side):
            break
        side = "black_to_move" if game.pos.side == BLACK else "red_to_move"
        assert status(con) == TEXT[side], iccs
    assert game.pos.in_check(game.pos.side) and con.byte("game_check") == 1
    assert status(con) == TEXT["check"]
    assert attr_palette(con, STATUS_MROW, PANEL_LEFT_COL // 2 + 1) == 2      # PAL_BLACK
    con = power_on(rom_path)
    choose_chinese(con)
    choose_and_start(con, HUMAN_RED, NOVICE)
    game = Game(START_FEN)
    human_move(con, game, _iccs(game, "h2e2"))
    computer_reply(con, game, NOVICE)
    con.wait_frames(90)                                             # the piece blinks, then the turn
    assert status(con) == TEXT["red_to_move"]
