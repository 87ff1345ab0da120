"""The move list in Chinese (asm/ui/panel_zh.s), on the real ROM in cynes.

Two players play a known sequence through the pad, with two cannons of each
side on one file (前炮 for both sides, then, after two take-backs, 后炮);
after each stretch the panel's four move slots show exactly the glyphs of
reference_py.notation.format_zh for the last four plies, each in its
mover's palette.  The glyphs on screen are mapped back to characters
through the build's glyph table: each 16x16 cell's ink is compared with
every glyph of zh_glyph_bits (read from the ROM by its label), whose order
is tools/rom/art.py's ZH_GLYPHS; no tile number or pixel pattern is
written here.  With ICCS chosen on the title the list is the ICCS one, and
the choice survives a soft reset.  Also writes docs/screenshots/chinese_moves.png
(the README's picture) when it changed and UPDATE_SCREENSHOTS is set.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cynes")

from PIL import Image  # noqa: E402

from tools.nes.console import DOWN, RIGHT, UP  # noqa: E402
from tools.rom.art import HISTORY_ROW, PANEL_LEFT_COL, ROOT, ZH_GLYPHS, ZH_MOVES, ZH_ROW  # noqa: E402
from emu_tests.test_game_play import (  # noqa: E402
    _X, ITEM_TAKEBACK, NOVICE, SCREEN_TITLE, TWO_PLAYERS, choose_and_start, pause_choose, power_on,
)
from reference_py.notation import format_zh, parse_iccs  # noqa: E402
from reference_py.board import file_of, move_from, move_to, rank_of  # noqa: E402
from reference_py.fen import START_FEN  # noqa: E402
from reference_py.rules import Game  # noqa: E402

NOTATION_ZH, NOTATION_ICCS, KEEP_ICCS = _X["UI_NOTATION_ZH"], _X["UI_NOTATION_ICCS"], _X["KEEP_ICCS"]
PAL_RED, PAL_BLACK = 1, 2                          # asm/global.inc
DOCS_SHOT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "chinese_moves.png"
ITEM_NOTATION = 2                                  # the title's items: players, level, notation, start
# Two cannons of each side come to file e; then the front ones move (前炮).
FRONT = "h2e2 h7e7 b2b1 b7b8 b1e1 b8e8 e2d2 e7d7".split()
# After taking the last two plies back: the rear ones move (后炮).
REAR = "e1f1 e8f8".split()


def glyph_table(con) -> dict[bytes, str]:
    """{32-byte one-plane pattern: character} from the ROM's zh_glyph_bits."""
    addr = con.link.labels["zh_glyph_bits"]
    bank = con.link.bank_of("zh_glyph_bits")
    data = con.cart.read(addr, 32 * len(ZH_GLYPHS), bank)
    table = {}
    for n, ch in enumerate(ZH_GLYPHS):
        table.setdefault(bytes(data[n * 32:n * 32 + 32]), ch)   # 车马炮 twice: the same art
    return table


def wood(frame: np.ndarray) -> np.ndarray:
    """The panel's paper: the commonest colour of the list's area."""
    area = frame[ZH_ROW * 8:(ZH_ROW + 2 * ZH_MOVES) * 8, PANEL_LEFT_COL * 8:(PANEL_LEFT_COL + 8) * 8]
    colours, counts = np.unique(area.reshape(-1, 3).astype(int), axis=0, return_counts=True)
    return colours[counts.argmax()]


def cell_pattern(frame: np.ndarray, slot: int, g: int) -> bytes:
    """The ink of glyph cell g of move slot `slot` as zh_glyph_bits stores a
    glyph (top-left, top-right, bottom-left, bottom-right tile, 8 rows each)."""
    x0, y0 = (PANEL_LEFT_COL + 2 * g) * 8, (ZH_ROW + 2 * slot) * 8
    cell = frame[y0:y0 + 16, x0:x0 + 16].astype(int)
    ink = (cell != wood(frame)).any(axis=2)
    out = []
    for ty in (0, 8):
        for tx in (0, 8):
            for y in range(8):
                out.append(sum(0x80 >> x for x in range(8) if ink[ty + y, tx + x]))
    return bytes(out)


def shown_moves(con) -> list[str]:
    """The move list as the screen shows it, top slot first ('' for an empty slot)."""
    table = glyph_table(con)
    frame = con.step(1)
    rows = []
    for slot in range(ZH_MOVES):
        pats = [cell_pattern(frame, slot, g) for g in range(4)]
        if not any(any(p) for p in pats):
            rows.append("")
            continue
        chars = []
        for g, p in enumerate(pats):
            assert p in table, f"slot {slot} cell {g}: ink that is no glyph of the table"
            chars.append(table[p])
        rows.append("".join(chars))
    return rows


def slot_palette(con, slot: int) -> int:
    """The palette of the slot's metatile row in the panel (attr_shadow)."""
    mrow, mcol = ZH_ROW // 2 + slot, PANEL_LEFT_COL // 2
    byte = con.byte("attr_shadow", (mrow // 2) * 8 + mcol // 2)
    return byte >> (((mrow & 1) * 2 + (mcol & 1)) * 2) & 3


def expected(texts: list[tuple[str, int]]) -> list[str]:
    last = [t for t, _side in texts[-ZH_MOVES:]]
    return [""] * (ZH_MOVES - len(last)) + last


def play(con, game: Game, texts: list[tuple[str, int]], moves: list[str]) -> None:
    for iccs in moves:
        move = parse_iccs(game.pos, iccs)
        texts.append((format_zh(game.pos, move), game.pos.side))
        con.play_move(iccs)
        game.play(move)


def settle_list(con) -> None:
    """The list is drawn through the VRAM queue, 3 tiles a frame."""
    con.wait_until(lambda c: c.byte("vram_queue_len") == 0 and c.byte("frame_ready") == 1, 120,
                   "the queue emptied")
    con.wait_frames(2)


def check_list(con, texts) -> None:
    settle_list(con)
    assert shown_moves(con) == expected(texts)
    sides = [s for _t, s in texts[-ZH_MOVES:]]
    for slot, side in enumerate(sides, start=ZH_MOVES - len(sides)):
        assert slot_palette(con, slot) == PAL_RED + side


def test_chinese_list_with_front_and_rear_cannons(rom_path):
    con = power_on(rom_path)
    assert con.byte("ui_notation") == NOTATION_ZH            # the default
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game, texts = Game(START_FEN), []
    play(con, game, texts, FRONT[:2])
    check_list(con, texts)                                   # two moves: two empty slots on top
    play(con, game, texts, FRONT[2:])
    assert [t for t, _ in texts[-2:]] == ["前炮平六", "前炮平４"]
    check_list(con, texts)
    for _ in range(2):                                       # two players: one ply each
        pause_choose(con, ITEM_TAKEBACK)
        con.wait_until(lambda c: c.byte("ui_screen") == _X["UI_SCREEN_PLAY"], 120, "back to the board")
        game.undo(1)
        texts.pop()
    check_list(con, texts)                                   # the older plies are read back again
    play(con, game, texts, REAR)
    assert [t for t, _ in texts[-2:]] == ["后炮平四", "后炮平６"]
    check_list(con, texts)
    con.wait_until(lambda c: c.byte("ui_oam_rot") == 0, 80, "ui_oam_rot == 0")
    img = np.asarray(con.screen()).astype(np.uint8)
    if os.environ.get("UPDATE_SCREENSHOTS") and (
            not DOCS_SHOT.exists() or not np.array_equal(np.asarray(Image.open(DOCS_SHOT).convert("RGB")), img)):
        Image.fromarray(img, "RGB").save(DOCS_SHOT, optimize=True)


def font_ink(code: int) -> bytes:
    """The ink of font tile `code` (= its ASCII code) in assets/bg.png, 8 rows."""
    px = Image.open(ROOT / "assets" / "bg.png").load()
    ox, oy = (code % 16) * 8, (code // 16) * 8
    return bytes(sum(0x80 >> x for x in range(8) if px[ox + x, oy + y]) for y in range(8))


def text_ink(frame: np.ndarray, row: int) -> list[bytes]:
    """The ink of the panel's 8 cells on tile row `row`, as font_ink gives it."""
    out = []
    for c in range(8):
        x0, y0 = (PANEL_LEFT_COL + c) * 8, row * 8
        cell = frame[y0:y0 + 8, x0:x0 + 8].astype(int)
        ink = (cell != wood(frame)).any(axis=2)
        out.append(bytes(sum(0x80 >> x for x in range(8) if ink[y, x]) for y in range(8)))
    return out


def iccs_row(ply: int, move: int) -> str:
    """The ICCS list's row of ply `ply` (0 the first): ' 12 H2E2'."""
    frm, to = move_from(move), move_to(move)
    return f"{ply // 2 + 1:3d} " + "".join(f"{'ABCDEFGHI'[file_of(sq)]}{rank_of(sq)}" for sq in (frm, to))


def test_iccs_when_chosen_and_kept_over_reset(rom_path):
    con = power_on(rom_path)
    con.press(DOWN)
    con.press(DOWN)
    assert con.byte("ui_menu") == ITEM_NOTATION
    con.press(RIGHT)
    assert con.byte("ui_notation") == NOTATION_ICCS
    assert con.byte("keep_settings") & KEEP_ICCS
    con.reset()
    con.wait_frames(20)
    assert con.screen_id() == SCREEN_TITLE and con.byte("ui_notation") == NOTATION_ICCS
    con.press(DOWN)
    con.press(DOWN)
    con.press(RIGHT)                                         # ICCS -> ALL CHINESE (test_zh_texts.py)
    assert con.byte("ui_notation") == NOTATION_ZH
    con.press(RIGHT)                                         # -> CHINESE -> ICCS
    assert con.byte("ui_notation") == NOTATION_ZH and con.byte("ui_lang") == 0
    con.press(RIGHT)
    assert con.byte("ui_notation") == NOTATION_ICCS
    con.press(UP)
    con.press(UP)
    assert con.byte("ui_menu") == 0
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game = Game(START_FEN)
    moves = []
    for iccs in FRONT[:3]:
        moves.append(parse_iccs(game.pos, iccs))
        game.play(moves[-1])
        con.play_move(iccs)
    settle_list(con)
    frame = con.step(1)
    for k in range(4):                                       # the ICCS rows, newest at the bottom
        row = HISTORY_ROW + 2 * (3 - k)
        text = iccs_row(len(moves) - 1 - k, moves[-1 - k]) if k < len(moves) else " " * 8
        assert text_ink(frame, row) == [font_ink(ord(ch)) for ch in text], (k, text)
        assert text_ink(frame, row - 1) == [bytes(8)] * 8               # nothing of a glyph above it


def test_nametable_tiles_map_back_to_format_zh(rom_path):
    """The same list as the PPU receives it: the RAM of the cynes game after
    FRONT, in py65 with the UI bank and a model of PPUADDR/PPUDATA;
    panel_moves as after a take-back (every block), then zh_panel_step until
    no cell is pending (the queue copied after each call, NMI off).  The nametable's tile numbers of each
    slot, looked up in the pattern bytes written to those tiles, are the
    glyphs of format_zh."""
    from py65.devices.mpu6502 import MPU
    from py65.memory import ObservableMemory

    con = power_on(rom_path)
    choose_and_start(con, TWO_PLAYERS, NOVICE)
    game, texts = Game(START_FEN), []
    play(con, game, texts, FRONT)
    settle_list(con)
    ram = [con.byte(a) for a in range(0x800)]
    labels = con.link.labels
    image = con.cart.cpu_image(con.link.bank_of("panel_moves"))
    vram, ppu = [0] * 0x4000, {"addr": 0, "latch": 0, "inc": 1}

    def write_ctrl(_addr, value):
        ppu["inc"] = 32 if value & 0x04 else 1

    def write_addr(_addr, value):
        ppu["addr"] = (ppu["addr"] & 0x3F00) | value if ppu["latch"] else (value << 8) & 0x3F00
        ppu["latch"] ^= 1

    def write_data(_addr, value):
        vram[ppu["addr"]] = value
        ppu["addr"] = (ppu["addr"] + ppu["inc"]) & 0x3FFF

    def read_status(_addr):
        ppu["latch"] = 0
        return 0x80

    mem = ObservableMemory(subject=ram + [0] * (0x8000 - 0x800) + list(image))
    mem.subscribe_to_write([0x2000], write_ctrl)
    mem.subscribe_to_write([0x2006], write_addr)
    mem.subscribe_to_write([0x2007], write_data)
    mem.subscribe_to_read([0x2002], read_status)
    mpu = MPU(memory=mem)
    mem[labels["ppu_ctrl_shadow"]] = 0                 # NMI off: the queue is copied at once
    # as after a take-back: every block is written again (this PPU starts empty)
    mem[labels["zh_drawn_ply"]] = (mem[labels["game_ply"]] + 2) & 0xFF
    tramp = 0x6000

    def call(name: str) -> None:
        mem[tramp:tramp + 3] = [0x20, labels[name] & 0xFF, labels[name] >> 8]
        mpu.pc, mpu.sp = tramp, 0xFF
        for _ in range(200000):
            if mpu.pc == tramp + 3:
                return
            mpu.step()
        raise AssertionError(f"{name} did not return")

    call("panel_moves")
    for _ in range(64):
        call("zh_panel_step")
        call("vram_flush")
        if mem[labels["zh_pending"]] == 0:
            break
    assert mem[labels["zh_pending"]] == 0
    table = glyph_table(con)
    shown = []
    for slot in range(ZH_MOVES):
        row = 0x2000 + (ZH_ROW + 2 * slot) * 32 + PANEL_LEFT_COL
        chars = ""
        for g in range(4):
            tiles = [vram[row + 2 * g], vram[row + 2 * g + 1], vram[row + 32 + 2 * g], vram[row + 32 + 2 * g + 1]]
            pattern = b"".join(bytes(vram[t * 16:t * 16 + 8]) for t in tiles)
            assert all(vram[t * 16 + 8:t * 16 + 16] == vram[t * 16:t * 16 + 8] for t in tiles)  # both planes
            chars += table[pattern]
        shown.append(chars)
    assert shown == expected(texts)
