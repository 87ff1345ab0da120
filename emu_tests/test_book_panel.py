"""The panel names the opening while the computer plays from the book
(asm/ui/ui_panel.s: panel_opening; the names from tools/rom/gen_book.py).

* py65: panel_opening queues exactly the four rows of the opening's name
  (or of the panel's title, from the board's nametable) at the panel's
  tile rows 4-7, and nothing when the panel already shows them.
* cynes: in a game, after the computer's book move the panel holds the
  opening's name (each character cell drawn where the name has a letter,
  paper where it has a space), and a take-back puts the title back, pixel
  for pixel.
"""
from __future__ import annotations

import os

from pathlib import Path

import numpy as np
import pytest
from py65.devices.mpu6502 import MPU

from reference_py.book import default_book
from tools.nes.cartridge import Cartridge
from tools.nes.linkmap import built
from tools.rom.files import ROM
from tools.rom.gen_book import PANEL_NAME_COLS, PANEL_NAME_ROWS, panel_lines

pytest.importorskip("cynes")

from tools.nes.console import A  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    HUMAN_BLACK, ITEM_TAKEBACK, NOVICE, SCREEN_BOARD, choose_and_start, pause_choose, power_on,
)

BOOK = default_book()
NAME_ROW, PANEL_COL = 4, 22            # asm/ui/ui_panel.s OPENING_ROW, tiles.inc PANEL_LEFT_COL


def name_rows(opening: int) -> list[bytes]:
    """The four 8-character rows the panel shows for an opening."""
    return [ln.encode("ascii") for ln in panel_lines(BOOK.name(opening).pinyin)]


def title_rows(mpu: MPU, labels: dict[str, int]) -> list[bytes]:
    """The panel's title rows as the board's nametable holds them."""
    nt = labels["board_nametable"]
    return [bytes(mpu.memory[nt + (NAME_ROW + r) * 32 + PANEL_COL:][:PANEL_NAME_COLS])
            for r in range(PANEL_NAME_ROWS)]


@pytest.fixture(scope="module")
def ui():
    """py65 with the UI's bank at $8000 and the fixed bank at $C000, and the labels."""
    link = built()
    cart = Cartridge.load(ROM)
    mpu = MPU()
    mpu.memory = [0] * 0x8000 + list(cart.cpu_image(link.bank_of("panel_opening")))
    return mpu, link.labels


def call(mpu: MPU, addr: int, a: int) -> None:
    tramp = 0x07F0                       # JSR addr, then stop at tramp + 3
    mpu.memory[tramp:tramp + 3] = [0x20, addr & 0xFF, addr >> 8]
    mpu.pc, mpu.a, mpu.sp = tramp, a, 0xFF
    for _ in range(20000):
        if mpu.pc == tramp + 3:
            return
        mpu.step()
    raise AssertionError("panel_opening did not return")


def queued(mpu: MPU, labels: dict[str, int]) -> list[tuple[int, bytes]]:
    """The VRAM queue's entries: (address, bytes)."""
    q, out, i = labels["vram_queue"], [], 0
    while mpu.memory[q + i]:
        n = mpu.memory[q + i]
        addr = mpu.memory[q + i + 1] << 8 | mpu.memory[q + i + 2]
        out.append((addr, bytes(mpu.memory[q + i + 3:q + i + 3 + n])))
        i += 3 + n
    return out


def rows_at(rows: list[bytes]) -> list[tuple[int, bytes]]:
    return [(0x2000 + (NAME_ROW + r) * 32 + PANEL_COL, row) for r, row in enumerate(rows)]


def test_panel_opening_queues_the_name_rows(ui):
    mpu, labels = ui
    assert BOOK is not None and BOOK.openings
    for o in BOOK.openings:
        for shown, arg, want in ((0, o.id + 1, name_rows(o.id)), (o.id + 1, 0, title_rows(mpu, labels))):
            mpu.memory[labels["ui_opening"]] = shown
            mpu.memory[labels["vram_queue_len"]] = 0
            mpu.memory[labels["vram_queue"]] = 0
            mpu.memory[labels["ppu_ctrl_shadow"]] = 0x80          # NMI on: the queue waits for it
            mpu.memory[labels["attr_shadow"]:labels["attr_shadow"] + 64] = [0] * 64
            call(mpu, labels["panel_opening"], arg)
            got = queued(mpu, labels)
            assert got[:4] == rows_at(want), o.pinyin
            # then the attributes of the red rows' outer metatiles (11 and 14 of
            # metatile row 2): red (palette 1) for a name, the board's (0) for the title
            pal = 1 if arg else 0
            assert [a for a, _ in got[4:]] == [0x23C0 + 8 + 5, 0x23C0 + 8 + 7]
            assert [b[0] for _, b in got[4:]] == [pal << 2, pal << 0]
            assert mpu.memory[labels["ui_opening"]] == arg
            call(mpu, labels["panel_opening"], arg)                # shown already: nothing more
            assert queued(mpu, labels) == got


def title_area(frame: np.ndarray) -> np.ndarray:
    return frame[NAME_ROW * 8:(NAME_ROW + PANEL_NAME_ROWS) * 8, PANEL_COL * 8:(PANEL_COL + PANEL_NAME_COLS) * 8]


def drawn_cells(frame: np.ndarray) -> list[list[bool]]:
    """For the panel's name rows: which 8x8 cells hold more than one colour."""
    out = []
    for r in range(PANEL_NAME_ROWS):
        y = (NAME_ROW + r) * 8
        row = []
        for c in range(PANEL_NAME_COLS):
            x = (PANEL_COL + c) * 8
            cell = frame[y:y + 8, x:x + 8].reshape(-1, frame.shape[-1])
            row.append(len(np.unique(cell, axis=0)) > 1)
        out.append(row)
    return out


def check_the_name(con, frames: int) -> np.ndarray:
    """After the computer's book move: ui_opening is the opening of the
    position the move led to (else of the one it was played in), and, after
    `frames` more frames, the panel's cells are drawn where that name has a
    letter.  Returns the frame."""
    here = BOOK.find(con.position())
    opening = here[0].opening + 1 if here else con.byte("s_res_book")
    assert con.byte("ui_opening") == opening
    frame = con.step(frames)
    want = [[ch != ord(" ") for ch in row] for row in name_rows(opening - 1)]
    assert drawn_cells(frame) == want
    return frame


def test_the_game_shows_the_opening_then_a_takeback_the_title(rom_path):
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_BLACK, NOVICE, button=A)      # the computer (Red) moves first
    title = title_area(con.step(1)).copy()
    con.wait_until(lambda c: c.word("game_ply") == 1, 600, "the computer's first move")
    con.step(2)                                              # (the name is queued with the move)
    assert con.byte("s_res_book"), "the computer's first move came from the book"
    check_the_name(con, frames=2)
    # a move for the human, the computer's reply, then take both back
    con.play_move(con_move(con))
    con.wait_human_turn()
    pause_choose(con, ITEM_TAKEBACK)
    con.wait_until(lambda c: c.screen_id() == SCREEN_BOARD and c.human_to_move() and c.word("game_ply") == 1,
                   600, "the take-back")
    assert con.byte("ui_opening") == 0
    assert np.array_equal(title_area(con.step(2)), title)


def con_move(con) -> str:
    """A legal move for the side to move in the console's position."""
    from reference_py.board import move_iccs
    pos = con.position()
    return move_iccs(sorted(pos.legal_moves())[0])


def test_the_panel_after_the_books_first_move(rom_path):
    """As Red: the start position's heaviest book move, and the computer's
    book reply names the opening of the position it reaches.  The frame is
    the README's picture (docs/screenshots/opening.png, written when it
    changed and UPDATE_SCREENSHOTS is set)."""
    from PIL import Image
    from reference_py.fen import START_FEN, parse_fen
    from reference_py.board import move_iccs
    from emu_tests.test_game_play import HUMAN_RED
    first = max(BOOK.moves(parse_fen(START_FEN))[1], key=lambda mw: mw[1])[0]
    con = power_on(rom_path)
    choose_and_start(con, HUMAN_RED, NOVICE, button=A)
    con.play_move(move_iccs(first))
    con.wait_until(lambda c: c.word("game_ply") == 2 and c.human_to_move(), 600, "the computer's reply")
    con.wait_frames(60)                                      # the blink is over
    assert con.byte("s_res_book"), "the reply came from the book"
    frame = check_the_name(con, frames=1)
    shot = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "opening.png"
    img = frame.astype(np.uint8)
    if os.environ.get("UPDATE_SCREENSHOTS") and (
            not shot.exists() or not np.array_equal(np.asarray(Image.open(shot).convert("RGB")), img)):
        shot.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(img, "RGB").save(shot, optimize=True)
