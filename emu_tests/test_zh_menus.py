"""The title's menu and the puzzle menu in Chinese (the title's NOTATION
item: ALL CHINESE, ui_lang), through the controller in cynes, read back from
the screen as test_zh_texts.py does (each 16x16 cell's ink looked up in the
ROM's zh_glyph_bits):

  * choosing ALL CHINESE redraws the title's menu at once: 玩家 级别 中文
    开始 残局 摆棋 and the values (执红 执黑 双人 转盘, 入门 .. 大师) follow
    Left/Right; choosing CHINESE again gives back the English title, the
    same picture as at power-on;
  * the puzzle menu's heading 残局 and help 开始 返回 已解 (the puzzles' rows
    stay English), and B back to the Chinese title;
  * a puzzle's end says 成功 (solved) or 失败 (failed) in place of 终局;
  * docs/screenshots/chinese_title.png (UPDATE_SCREENSHOTS=1 rewrites it).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("cynes")

from tools.nes.console import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402
from tools.rom.art import PANEL_LEFT_COL, STATUS_MROW, TITLE_LABEL_COL, TITLE_MENU_ROW, TITLE_VALUE_COL  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    GAME_CHECKMATE, NO_WINNER, RED, SCREEN_GAME_OVER, SCREEN_TITLE, human_move, power_on)
from emu_tests.test_rom_puzzles import (  # noqa: E402
    PUZ_PAGE_ROWS, PUZZLES, RESULT_LIMIT, SCREEN_PUZZLES, after, mate_in_one, open_menu, solved, start_puzzle)
from emu_tests.test_zh_panel import font_ink, settle_list  # noqa: E402
from emu_tests.test_zh_texts import LANG_EN, LANG_ZH, TEXT, choose_chinese, read_text  # noqa: E402
from reference_py.board import move_iccs  # noqa: E402

DOCS_SHOT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "chinese_title.png"
LABELS = ["title_players", "title_level", "title_lang", "setup_play", "title_puzzles", "title_setup"]
PLAYERS = ["p1_red", "p1_black", "p2_fixed", "p2_turn"]          # players_choice 0-3
LEVELS = [f"level_{n}" for n in range(5)]                          # ui_level 0-4
PUZ_HEAD_ROW, PUZ_HELP_ROW = 1, 3 + PUZ_PAGE_ROWS                # puzzles.s: rows 2, PUZ_FIRST_ROW + PUZ_PAGE_ROWS


def frame(con) -> np.ndarray:
    settle_list(con)
    return con.step(1)


def title_menu(con) -> tuple[list[str], str, str]:
    """The six labels, the players' value and the level's."""
    f = frame(con)
    labels = [read_text(con, f, TITLE_LABEL_COL, TITLE_MENU_ROW + 2 * k, 2) for k in range(6)]
    return (labels, read_text(con, f, TITLE_VALUE_COL, TITLE_MENU_ROW, 2),
            read_text(con, f, TITLE_VALUE_COL, TITLE_MENU_ROW + 2, 2))


def font_text(f: np.ndarray, col: int, row: int, n: int) -> list[bytes]:
    """The ink of n font cells from tile (col, row), as font_ink gives it."""
    line = f[row * 8:row * 8 + 8, col * 8:(col + n) * 8].astype(int)
    colours, counts = np.unique(line.reshape(-1, 3), axis=0, return_counts=True)
    ink = (line != colours[counts.argmax()]).any(axis=2)
    return [bytes(sum(0x80 >> x for x in range(8) if ink[y, c * 8 + x]) for y in range(8)) for c in range(n)]


def test_title_menu_in_chinese_and_back(rom_path):
    con = power_on(rom_path)
    english = frame(con)
    level = con.byte("ui_level")
    choose_chinese(con)                                            # Left on NOTATION: ALL CHINESE
    assert con.screen_id() == SCREEN_TITLE and con.byte("ui_menu") == 0
    assert title_menu(con) == ([TEXT[k] for k in LABELS], TEXT["p1_red"], TEXT[LEVELS[level]])
    if os.environ.get("UPDATE_SCREENSHOTS"):                       # the README's picture
        Image.fromarray(frame(con), "RGB").save(DOCS_SHOT, optimize=True)
    for choice in (1, 2, 3, 0):                                    # Right: the players round
        con.press(RIGHT)
        assert title_menu(con)[1] == TEXT[PLAYERS[choice]]
    con.press(DOWN)
    for n in range(5):                                             # the levels, Left to the weakest first
        con.press(LEFT)
    for n in range(5):
        assert con.byte("ui_level") == n
        assert title_menu(con)[2] == TEXT[LEVELS[n]]
        con.press(RIGHT)
    while con.byte("ui_level") != level:
        con.press(LEFT)
    con.press(DOWN)
    con.press(RIGHT)                                               # ALL CHINESE -> CHINESE: English again
    assert (con.byte("ui_lang"), con.byte("ui_notation")) == (LANG_EN, 0)
    con.press(UP)
    con.press(UP)
    assert np.array_equal(frame(con), english), "the English title as at power-on"
    con.press(DOWN)
    con.press(DOWN)
    con.press(LEFT)                                                # and Chinese once more
    assert con.byte("ui_lang") == LANG_ZH
    assert title_menu(con)[0] == [TEXT[k] for k in LABELS]


def test_puzzle_menu_in_chinese(rom_path):
    con = power_on(rom_path)
    choose_chinese(con)
    open_menu(con)
    f = frame(con)
    assert read_text(con, f, 14, PUZ_HEAD_ROW, 2) == TEXT["title_puzzles"]
    assert [read_text(con, f, col, PUZ_HELP_ROW, 2) for col in (7, 14, 23)] == \
        [TEXT["setup_play"], TEXT["puz_back"], TEXT["puz_solved"]]
    assert font_text(f, 5, PUZ_HELP_ROW, 2) == [font_ink(ord(c)) for c in "A:"]
    assert font_text(f, 12, PUZ_HELP_ROW, 2) == [font_ink(ord(c)) for c in "B:"]
    first = PUZZLES[0].name.upper()[:4]                             # the rows stay English
    assert font_text(f, 6, 3, len(first)) == [font_ink(ord(c)) for c in first]
    while con.byte("ui_menu") != PUZ_PAGE_ROWS:                     # page 2: the same heading and help
        con.press(DOWN)
    f = frame(con)
    assert read_text(con, f, 14, PUZ_HEAD_ROW, 2) == TEXT["title_puzzles"]
    assert [read_text(con, f, col, PUZ_HELP_ROW, 2) for col in (7, 14, 23)] == \
        [TEXT["setup_play"], TEXT["puz_back"], TEXT["puz_solved"]]
    first = PUZZLES[PUZ_PAGE_ROWS].name.upper()[:4]
    assert font_text(f, 6, 3, len(first)) == [font_ink(ord(c)) for c in first]
    assert font_text(f, 26, 2, 3) == [font_ink(ord(c)) for c in "2/2"]
    con.press(B)
    con.wait_screen(SCREEN_TITLE, 60)
    assert title_menu(con)[0] == [TEXT[k] for k in LABELS]


def verdict(con) -> str:
    f = frame(con)
    return read_text(con, f, PANEL_LEFT_COL + 2, 2 * STATUS_MROW, 2)


def test_puzzle_end_in_chinese(rom_path):
    """Puzzle 1 mated: 成功; puzzle 1 again with a quiet move at its limit: 失败."""
    con = power_on(rom_path)
    choose_chinese(con)
    open_menu(con)
    menu = con.save()
    game = start_puzzle(con, 1)
    human_move(con, game, mate_in_one(game))
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (GAME_CHECKMATE, RED)
    assert solved(con) == [1]
    assert verdict(con) == TEXT["solved"]
    con.load(menu)
    game = start_puzzle(con, 1)
    p = PUZZLES[0]
    assert p.goal == "win" and p.limit
    con.write("game_ply", [p.limit_plies() - 1, 0])               # (the ply count only: the limit's test)
    move = next(m for m in game.pos.legal_moves() if after(game, m).outcome() is None)
    con.play_move(move_iccs(move))
    con.wait_screen(SCREEN_GAME_OVER, 60)
    assert (con.byte("ui_result"), con.byte("ui_winner")) == (RESULT_LIMIT, NO_WINNER)
    assert verdict(con) == TEXT["failed"]
    con.press(A)
    con.wait_screen(SCREEN_PUZZLES, 60)
