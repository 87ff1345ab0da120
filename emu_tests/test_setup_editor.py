"""The position editor (the title's SET UP), on the real ROM in cynes, driven with the pad.

  * a position set up by pad presses (EMPTY, A on squares, Select for the
    side) is the one `python -m tools.nes fen` reads from a 2 KiB RAM dump;
  * A cycles only through the pieces a square allows (reference_py/fen.py's
    _can_stand) and the counts allow (MAX_COUNT): on the standard position
    an empty square stays empty;
  * PLAY refuses, with its reason over the river, a missing king, facing
    kings, the side not to move in check and no legal move, and stays in
    the editor;
  * a legal position starts a game with the title's settings: 1P as Red
    with Black to move, the computer answers at once with the reference
    search's move (test_game_play.computer_reply); with two players a
    take-back goes back to the set-up position;
  * with ALL CHINESE the menu, the side to move and a reason are glyphs
    (read back through the build's glyph table);
  * a screenshot of the editor (emu_tests/screenshots/setup.png; with
    UPDATE_SCREENSHOTS=1 also docs/screenshots/setup.png, the README's).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("cynes")

from tools.nes.console import A, B, DOWN, RIGHT, SELECT, START, Console  # noqa: E402
from tools.nes.ramfen import RAM_SIZE  # noqa: E402
from emu_tests.screenshot_diff import compare_screenshot  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    _X, HUMAN_RED, ITEM_TAKEBACK, NOVICE, SCREEN_BOARD, SCREEN_TITLE, SHOTS, TWO_PLAYERS, computer_reply,
    human_move, pause_choose, power_on, settled,
)
from emu_tests.test_zh_panel import font_ink, wood  # noqa: E402
from reference_py.board import BLACK, FEN_LETTERS, RED, file_of, move_iccs, rank_of, square  # noqa: E402
from reference_py.fen import MAX_COUNT, START_FEN, _can_stand, parse_pieces  # noqa: E402
from reference_py.rules import Game  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS_SHOT = ROOT / "docs" / "screenshots" / "setup.png"
SCREEN_SETUP, SCREEN_SETUP_MENU = _X["UI_SCREEN_SETUP"], _X["UI_SCREEN_SETUP_MENU"]
ITEM_SETUP = 5                                    # the title's sixth item (docs/UI.md)
ITEM_PLAY, ITEM_SIDE, ITEM_STANDARD, ITEM_EMPTY, ITEM_EXIT = range(5)
REASONS = {_X[f"SETUP_{n}"]: text for n, text in (
    ("NO_RED_KING", "  NO RED KING  "), ("NO_BLACK_KING", " NO BLACK KING "),
    ("KINGS_FACE", " KINGS FACING  "), ("RED_IN_CHECK", " RED IN CHECK  "),
    ("BLACK_IN_CHECK", "BLACK IN CHECK "), ("NO_MOVE", " NO LEGAL MOVE "))}
RIVER_ROW, RESULT_COL = 14, 3                     # asm/ui/ui_setup.s: the refusal's two tile rows
HINT_ROW, HINT_COL = 27, 2
# the cycle of A: Red's kinds, then Black's (king .. pawn), then empty
ORDER = [(side, kind) for side in (RED, BLACK) for kind in range(1, 8)]
# Black to move, neither side in check: Red's advisor between the kings
SETUP_FEN = "4k4/9/7n1/9/9/9/2p6/1C7/4A4/R3K4 b - - 0 1"


# ---- the editor's rules, as the reference states them -----------------------------------
def next_piece(pieces: dict[int, tuple[int, int]], sq: int) -> tuple[int, int] | None:
    """What A puts on `sq`: the next (side, kind) after the square's piece in
    ORDER that may stand there and that its side has fewer than MAX_COUNT
    of; None (empty) after Black's pawn."""
    cur = pieces.get(sq)
    start = ORDER.index(cur) + 1 if cur else 0
    for side, kind in ORDER[start:]:
        have = sum(1 for p in pieces.values() if p == (side, kind))
        if have < MAX_COUNT[kind] and _can_stand(side, kind, file_of(sq), rank_of(sq)):
            return side, kind
    return None


def presses_for(pieces: dict[int, tuple[int, int]], sq: int, want: tuple[int, int]) -> int:
    """How many A presses turn `sq` into `want` (next_piece after next_piece)."""
    trial = dict(pieces)
    for n in range(1, len(ORDER) + 2):
        got = next_piece(trial, sq)
        if got is None:
            trial.pop(sq, None)
        else:
            trial[sq] = got
        if got == want:
            return n
    raise AssertionError(f"{want} can never be put on {sq}")


# ---- the pad ------------------------------------------------------------------------------
def open_editor(con: Console) -> None:
    """From the title: Down to SET UP, A; waits for the editor."""
    assert con.screen_id() == SCREEN_TITLE
    while con.byte("ui_menu") != ITEM_SETUP:
        con.press(DOWN)
    con.press(A)
    con.wait_screen(SCREEN_SETUP, 60)
    con.wait_until(settled, 30, "the editor waiting for a frame")


def menu_choose(con: Console, item: int) -> None:
    """Start (the editor's menu), Down to `item`, A."""
    con.press_until(START, lambda c: c.screen_id() == SCREEN_SETUP_MENU, 60, "Start (the editor's menu)")
    assert con.byte("ui_menu") == ITEM_PLAY
    while con.byte("ui_menu") != item:
        con.press(DOWN)
    con.press(A)
    con.wait_frames(4)


def put(con: Console, sq: int, want: tuple[int, int] | None) -> None:
    """Makes square `sq` hold `want` (None: empty) with A or B, checking each
    step of the cycle against next_piece."""
    con.move_cursor_to(file_of(sq), rank_of(sq))
    pieces = con.board_pieces()
    if want is None:
        con.press(B)
    else:
        for _ in range(presses_for(pieces, sq, want)):
            expect = next_piece(pieces, sq)
            con.press(A)
            pieces = con.board_pieces()
            assert pieces.get(sq) == expect, f"A on {sq}: {pieces.get(sq)}, expected {expect}"
    assert con.board_pieces().get(sq) == want


def set_up(con: Console, fen: str) -> None:
    """EMPTY, then every piece of `fen` by the pad, the kings moved if they
    are elsewhere, and the side to move with Select."""
    menu_choose(con, ITEM_EMPTY)
    assert con.screen_id() == SCREEN_SETUP
    target = parse_pieces(fen.split()[0])
    for sq in list(con.board_pieces()):
        if sq not in target:
            put(con, sq, None)
    for sq, piece in sorted(target.items()):
        if con.board_pieces().get(sq) != piece:
            put(con, sq, piece)
    want_side = BLACK if fen.split()[1] == "b" else RED
    if con.byte("eng_side") != want_side:
        con.press(SELECT)
        con.wait_frames(2)
    assert con.byte("eng_side") == want_side


def ram_dump_fen(con: Console, tmp_path: Path) -> str:
    """The FEN `python -m tools.nes fen` prints from a 2 KiB dump of the console's RAM."""
    dump = tmp_path / "ram.bin"
    dump.write_bytes(bytes(con.read(0, RAM_SIZE)))
    out = subprocess.run([sys.executable, "-m", "tools.nes", "fen", str(dump), "--map", str(con.map_path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def river_text(con: Console, row: int) -> list[bytes]:
    """The ink of the refusal's 15 cells on tile row RIVER_ROW + row."""
    frame = np.asarray(con.screen())
    out = []
    for c in range(15):
        x0, y0 = (RESULT_COL + c) * 8, (RIVER_ROW + row) * 8
        ink = (frame[y0:y0 + 8, x0:x0 + 8].astype(int) != wood(frame)).any(axis=2)
        out.append(bytes(sum(0x80 >> x for x in range(8) if ink[y, x]) for y in range(8)))
    return out


def ink_of(text: str) -> list[bytes]:
    return [font_ink(ord(ch)) for ch in text]


def refused(con: Console, reason: int) -> None:
    """PLAY is refused for `reason`: still the editor, the reason over the river."""
    menu_choose(con, ITEM_PLAY)
    con.wait_frames(10)
    assert con.screen_id() == SCREEN_SETUP, con.where()
    assert con.byte("ui_result") == reason, f"setup_refused {con.byte('ui_result')}, expected {reason}"
    con.move_cursor_to(con.cursor()[0], 0)          # the cursor's corners off the river rows
    con.wait_frames(2)
    assert con.byte("ui_result") == reason, "moving the cursor keeps the refusal"
    assert river_text(con, 0) == ink_of("  CANNOT PLAY  ")
    assert river_text(con, 1) == ink_of(REASONS[reason]), REASONS[reason]


# ---- the tests -----------------------------------------------------------------------------
def test_set_up_by_pad_read_by_the_fen_tool_and_play(rom_path, tmp_path):
    con = power_on(rom_path)
    assert con.byte("ui_players") == HUMAN_RED
    open_editor(con)
    assert con.fen() == START_FEN and ram_dump_fen(con, tmp_path) == START_FEN
    set_up(con, SETUP_FEN)
    assert ram_dump_fen(con, tmp_path) == SETUP_FEN
    assert con.fen() == SETUP_FEN
    menu_choose(con, ITEM_PLAY)                       # 1P as Red, Black to move: the computer first
    con.wait_screen(SCREEN_BOARD, 60)
    game = Game(SETUP_FEN)
    move = computer_reply(con, game, NOVICE)
    assert move in Game(SETUP_FEN).pos.legal_moves(), move_iccs(move)
    assert con.byte("ui_flip") == 0


def test_take_back_to_the_set_up_position(rom_path):
    con = power_on(rom_path)
    while con.byte("ui_players") != TWO_PLAYERS:      # 2P FIXED
        con.press(RIGHT)
    open_editor(con)
    set_up(con, SETUP_FEN)
    menu_choose(con, ITEM_PLAY)
    con.wait_screen(SCREEN_BOARD, 60)
    game = Game(SETUP_FEN)
    human_move(con, game, next(m for m in game.pos.legal_moves() if move_iccs(m) == "h7g5"))
    assert con.word("game_ply") == 1
    pause_choose(con, ITEM_TAKEBACK)
    con.wait_until(lambda c: c.word("game_ply") == 0 and settled(c), 120, "the take-back")
    assert con.fen() == SETUP_FEN
    pause_choose(con, ITEM_TAKEBACK)                  # nothing before the set-up position
    con.wait_frames(10)
    assert con.fen() == SETUP_FEN and con.word("game_ply") == 0


def test_only_legal_placements(rom_path):
    con = power_on(rom_path)
    open_editor(con)
    start = con.board_pieces()
    for f, r in ((0, 5), (4, 4), (1, 3)):             # every kind of both sides at its count
        con.move_cursor_to(f, r)
        con.press(A)
        assert con.board_pieces() == start, f"A on an empty {'abcdefghi'[f]}{r} of the standard position"
    menu_choose(con, ITEM_EMPTY)
    for f, r in ((4, 0), (2, 0), (4, 1), (0, 3), (1, 3), (4, 4), (2, 4), (3, 7), (0, 9), (4, 7)):
        sq = square(f, r)
        con.move_cursor_to(f, r)
        if sq in con.board_pieces():
            con.press(B)
        seen = []
        for _ in range(len(ORDER) + 1):
            pieces = con.board_pieces()
            expect = next_piece(pieces, sq)
            con.press(A)
            got = con.board_pieces().get(sq)
            assert got == expect, f"{'abcdefghi'[f]}{r} after {seen}: {got}, expected {expect}"
            if got is None:
                break
            seen.append(FEN_LETTERS[got[1]].upper() if got[0] == RED else FEN_LETTERS[got[1]])
        else:
            raise AssertionError(f"the cycle on {'abcdefghi'[f]}{r} never came back to empty")
        for side, kind in ORDER:
            letter = FEN_LETTERS[kind].upper() if side == RED else FEN_LETTERS[kind]
            assert (letter in seen) <= _can_stand(side, kind, f, r), f"{letter} on {'abcdefghi'[f]}{r}"


def test_refusals_stay_in_the_editor(rom_path):
    con = power_on(rom_path)
    open_editor(con)
    menu_choose(con, ITEM_EMPTY)                      # the two kings alone: they face each other
    refused(con, _X["SETUP_KINGS_FACE"])
    put(con, square(4, 0), None)
    assert river_text(con, 1) != ink_of(REASONS[_X["SETUP_KINGS_FACE"]]), "an edit takes the refusal off"
    refused(con, _X["SETUP_NO_RED_KING"])
    put(con, square(3, 0), (RED, 1))                  # Red's king on d0
    put(con, square(4, 5), (RED, 5))                  # a rook checks Black's king, Red to move
    refused(con, _X["SETUP_BLACK_IN_CHECK"])
    put(con, square(4, 5), None)
    put(con, square(3, 8), (RED, 5))                  # rooks on d8 and f8: Black's king cannot move
    put(con, square(5, 8), (RED, 5))
    con.press(SELECT)
    con.wait_frames(2)
    assert con.byte("eng_side") == BLACK
    refused(con, _X["SETUP_NO_MOVE"])
    assert con.fen() == "4k4/3R1R3/9/9/9/9/9/9/9/3K5 b - - 0 1"
    menu_choose(con, ITEM_SIDE)                       # Red to move: a legal position
    assert con.byte("eng_side") == RED
    menu_choose(con, ITEM_EXIT)
    con.wait_screen(SCREEN_TITLE, 60)


def test_editor_screenshot(rom_path):
    """The editor with a set-up position, the cursor on Black's horse."""
    con = power_on(rom_path)
    open_editor(con)
    set_up(con, SETUP_FEN)
    con.move_cursor_to(7, 7)
    con.wait_until(lambda c: c.byte("ui_oam_rot") == 0, 80, "ui_oam_rot == 0")
    img = con.screen()
    hint = np.asarray(img)[HINT_ROW * 8:HINT_ROW * 8 + 8, HINT_COL * 8:(HINT_COL + 28) * 8]
    assert (hint != wood(np.asarray(img))).any(), "the hint line under the board"
    compare_screenshot(img, SHOTS / "setup.png")
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        arr = np.asarray(img.convert("RGB"))
        if not DOCS_SHOT.exists() or not np.array_equal(np.asarray(Image.open(DOCS_SHOT).convert("RGB")), arr):
            img.save(DOCS_SHOT, optimize=True)


def test_editor_in_chinese(rom_path):
    """ALL CHINESE: the menu (开始 先后 初始 清空 退出), the side to move (红先 /
    黑先) and a refusal's reason in glyphs, read back through the build's
    glyph table (test_zh_texts.read_text); the game then starts with the
    Chinese panel (黑方走棋 after Red's move)."""
    from emu_tests.test_zh_texts import TEXT, choose_chinese, read_text, status
    from tools.rom.art import MENU_ROW, PANEL_LEFT_COL, STATUS_MROW

    con = power_on(rom_path)
    choose_chinese(con)
    while con.byte("ui_players") != TWO_PLAYERS:
        con.press(RIGHT)
    open_editor(con)
    frame = con.step(1)
    items = [read_text(con, frame, PANEL_LEFT_COL + 2, MENU_ROW - 1 + 2 * i, 2) for i in range(5)]
    assert items == [TEXT[n] for n in ("setup_play", "setup_side", "setup_standard", "setup_empty", "setup_exit")]
    assert read_text(con, frame, PANEL_LEFT_COL + 2, 2 * STATUS_MROW, 2) == TEXT["red_first"]
    menu_choose(con, ITEM_EMPTY)
    menu_choose(con, ITEM_PLAY)
    con.wait_until(lambda c: c.byte("ui_result") != 0 and settled(c), 60, "the refusal")
    con.move_cursor_to(con.cursor()[0], 0)
    frame = con.step(1)
    assert con.byte("ui_result") == _X["SETUP_KINGS_FACE"]
    assert read_text(con, frame, RESULT_COL + 3, RIVER_ROW, 4) == TEXT["kings_face"]
    put(con, square(4, 0), None)
    put(con, square(3, 0), (RED, 1))
    con.press(SELECT)
    con.wait_until(lambda c: c.byte("eng_side") == BLACK and settled(c), 30, "Select")
    con.wait_frames(10)
    frame = con.step(1)
    assert read_text(con, frame, PANEL_LEFT_COL + 2, 2 * STATUS_MROW, 2) == TEXT["black_first"]
    assert river_text(con, 1) != ink_of(REASONS[_X["SETUP_KINGS_FACE"]])
    menu_choose(con, ITEM_PLAY)
    con.wait_screen(SCREEN_BOARD, 60)
    game = Game("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert con.fen() == "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1"
    assert status(con) == TEXT["black_to_move"]
    human_move(con, game, next(m for m in game.pos.legal_moves() if move_iccs(m) == "e9f9"))
    assert status(con) == TEXT["red_to_move"]
