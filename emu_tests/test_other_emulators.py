"""The cartridge in emulators other than cynes: FCEUX and Nestopia (Debian's).

A ROM that only one emulator has run can hide header, mapper or CHR
mistakes that the others (and flash carts) do not forgive.

  * FCEUX (scripted through Lua, emu_tests/fceux_harness.py): from power-on
    to the title, a 1-player game at Novice started with a fixed seed, the
    human's h2e2 played with the D-pad and A, the computer's reply.  Every
    step is checked as in test_game_play (the board, side, key and
    repetition ring against reference_py, the computer's move, score, nodes
    and depth against the reference search), and then the same inputs are
    run in cynes: the RAM after the reply must be the same bytes and the
    title and board pictures the same up to the palette.
  * Nestopia (no scripting, emu_tests/nestopia_harness.py): its window must
    show the title, then after Start the board, each matching cynes' picture
    up to the palette.

Both need an X server (Xvfb, Xorg's dummy driver) and the emulators from
Debian (.ci/run installs them).  Without them the tests skip, unless
XIANGQI_REQUIRE_EMULATORS=1 (.ci/run sets it): then a missing emulator fails.
Screenshots go to $SCREENSHOT_OUT or <tmp>/xiangqi-screenshots.
"""
from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from emu_tests.fceux_harness import FceuxConsole
from emu_tests.frame_compare import palette_mismatch
from emu_tests.headless import ProgramFailed, ProgramMissing, log_tail, skip_or_fail
from emu_tests.nestopia_harness import NestopiaWindow
from emu_tests.test_game_play import (
    HUMAN_RED, NOVICE, SCREEN_TITLE, Player, choose_and_start, check_same, computer_reply, human_move,
)
from tools.atomic import save_png
from tools.nes.console import Console
from reference_py.board import BOARD_SIZE, move_iccs, square
from reference_py.fen import START_FEN
from reference_py.rules import Game

SEED = 0x31                 # the game's seed: the computer's reply depends on it
TITLE_NMIS = 16             # the title is drawn and NMIs run (nmi_count counts from 0 after it)
HUMAN_MOVE = square(7, 2) | square(4, 2) << 8   # h2e2
CURSOR_AFTER = (4, 5)       # where the cursor goes after the reply (so the blink is over)

# (label, bytes) compared between the emulators after the computer's reply.
COMPARED_RAM = [("board", BOARD_SIZE), ("eng_side", 1), ("eng_clock", 1), ("eng_key", 2),
                ("game_ply", 2), ("game_last_from", 1), ("game_last_to", 1), ("game_last_seed", 2),
                ("game_seed", 2), ("s_res_from", 1), ("s_res_to", 1), ("s_res_score", 2),
                ("s_res_depth", 1), ("s_res_pvlen", 1), ("s_nodes", 2), ("ui_screen", 1),
                ("ui_players", 1), ("ui_level", 1), ("ui_sel", 1), ("ui_result", 1),
                ("cursor_file", 1), ("cursor_rank", 1)]


def out_dir() -> Path:
    path = Path(os.environ.get("SCREENSHOT_OUT") or Path(tempfile.gettempdir()) / "xiangqi-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


class FceuxPlayer(FceuxConsole, Player):
    """FCEUX with test_game_play's 3-frame presses."""


@dataclass
class Run:
    """What one emulator showed for the scripted opening."""
    title: Image.Image
    board: Image.Image
    ram: dict[str, list[int]]
    frames: dict[str, int] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)


def play_opening(con: Console) -> Run:
    """Power-on to the computer's first reply, checked against reference_py
    at every step (test_game_play's helpers)."""
    frames: dict[str, int] = {}
    con.wait_until(lambda c: c.screen_id() == SCREEN_TITLE and c.byte("nmi_count") >= TITLE_NMIS, 600,
                   f"the title drawn (ui_screen 0, nmi_count >= {TITLE_NMIS})")
    frames["title"] = con.frames
    title = con.screen()
    assert (con.byte("ui_menu"), con.byte("ui_players"), con.byte("ui_level")) == (0, HUMAN_RED, NOVICE), \
        f"title menu not at its defaults ({con.where()})"
    choose_and_start(con, HUMAN_RED, NOVICE, seed=SEED)
    game = Game(START_FEN)
    check_same(con, game, "start")
    human_move(con, game, HUMAN_MOVE)
    frames["human move"] = con.frames
    computer_reply(con, game, NOVICE)
    frames["reply"] = con.frames
    assert con.byte("eng_side") == 0 and con.word("game_ply") == 2, con.where()
    con.move_cursor_to(*CURSOR_AFTER)          # input is taken again: the blink is over
    con.wait_until(lambda c: c.byte("ui_oam_rot") == 0, 80, "ui_oam_rot == 0")   # same sprites drawn
    board = con.screen()
    ram = {name: con.read(name, n) for name, n in COMPARED_RAM}
    return Run(title, board, ram, frames, [move_iccs(m) for m in game.moves])


def save(img: Image.Image, name: str) -> Path:
    """Write a picture to the screenshot folder (temp file + rename)."""
    path = out_dir() / name
    save_png(img, path)
    return path


def compare_pictures(name: str, fceux: Image.Image, cynes: Image.Image) -> str | None:
    """None if the pictures are the same up to the palette, else what differs
    (with the pictures and a mask saved)."""
    diff = palette_mismatch(np.asarray(fceux), np.asarray(cynes))
    if diff.pixels == 0:
        return None
    save(cynes, f"cynes_{name}.png")
    mask = save(Image.fromarray(np.where(diff.mask, 255, 0).astype(np.uint8), "L"), f"fceux_{name}.diff.png")
    return (f"{name}: {diff.pixels} pixels ({diff.fraction:.2%}) differ from cynes beyond the palette "
            f"({diff.where()}); see {out_dir()}/fceux_{name}.png, cynes_{name}.png and {mask.name}")


def test_fceux_plays_like_cynes(rom_path):
    started = time.monotonic()
    cynes = play_opening(Player(rom_path))
    try:
        con = FceuxPlayer(rom_path)
    except ProgramMissing as exc:
        skip_or_fail(exc)
    with con:
        try:
            fceux = play_opening(con)
        except (AssertionError, ProgramFailed) as exc:
            try:
                save(con.screen(), "fceux_failure.png")
            except ProgramFailed:
                pass
            raise AssertionError(f"in FCEUX: {exc}\n  FCEUX's output:\n{log_tail(con.log)}") from None
    save(fceux.title, "fceux_title.png")
    save(fceux.board, "fceux_board.png")
    assert fceux.moves == cynes.moves, f"FCEUX played {fceux.moves}, cynes {cynes.moves}"
    differs = [f"{name}: FCEUX {fceux.ram[name]}, cynes {cynes.ram[name]}"
               for name, _ in COMPARED_RAM if fceux.ram[name] != cynes.ram[name]]
    assert not differs, "RAM after the computer's reply differs:\n  " + "\n  ".join(differs)
    problems = [p for p in (compare_pictures("title", fceux.title, cynes.title),
                            compare_pictures("board", fceux.board, cynes.board)) if p]
    assert not problems, "\n".join(problems)
    print(f"FCEUX: {fceux.moves}, frames {fceux.frames} (cynes {cynes.frames}); "
          f"{time.monotonic() - started:.1f} s with cynes")


def test_nestopia_shows_title_and_board(rom_path):
    """Nestopia's window shows the title, and after Start (Return) the board
    at the start of a game, as cynes draws them (up to the palette)."""
    con = Player(rom_path)
    con.wait_until(lambda c: c.screen_id() == SCREEN_TITLE and c.byte("nmi_count") >= TITLE_NMIS, 600,
                   "the title drawn")
    title = np.asarray(con.screen())
    choose_and_start(con, HUMAN_RED, NOVICE)
    con.wait_frames(30)
    board = np.asarray(con.screen())
    try:
        win = NestopiaWindow(rom_path)
    except ProgramMissing as exc:
        skip_or_fail(exc)
    with win:
        try:
            shot = win.wait_for_frame(title, "the title")
            save(shot.picture, "nestopia_title.png")
            shot = win.hold_until_frame("Return", board, "the board after Start (Return held)")
            save(shot.picture, "nestopia_board.png")
        except ProgramFailed:
            if win.best is not None:
                save(win.best.picture, "nestopia_failure.png")
                save(Image.fromarray(title), "cynes_title.png")
                save(Image.fromarray(board), "cynes_board_start.png")
            raise
