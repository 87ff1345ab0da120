"""Boot the ROM in cynes: the title screen, then a game's first screen
(board, 32 pieces, cursor, panel) and the cursor's key repeat.

Also saves docs/screenshots/boot.png (the title) and docs/screenshots/game.png
(the board after Start), rewritten only when the picture changes.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

cynes = pytest.importorskip("cynes")
from cynes import (  # noqa: E402
    NES, NES_INPUT_DOWN, NES_INPUT_LEFT, NES_INPUT_RIGHT, NES_INPUT_START, NES_INPUT_UP,
)

from tools.nes.cartridge import Cartridge  # noqa: E402
from tools.nes.linkmap import LinkMap, built  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOT = ROOT / "docs" / "screenshots" / "boot.png"
GAME_SCREENSHOT = ROOT / "docs" / "screenshots" / "game.png"

# Layout (asm/tiles.inc): file f, rank r -> 16x16 cell at metatile
# (1 + f, 2 + (9 - r) + (1 if r <= 4 else 0)).
BOARD_MCOL, BOARD_MROW = 1, 2
OAM = 0x0200
SPR_TILE_CURSOR = 0x01

START = {  # rank -> 9 files, upper case = red, lower case = black, . = empty
    9: "rheakaehr", 8: ".........", 7: ".c.....c.", 6: "p.p.p.p.p", 5: ".........",
    4: ".........", 3: "P.P.P.P.P", 2: ".C.....C.", 1: ".........", 0: "RHEAKAEHR",
}


def labels(rom_path) -> dict[str, int]:
    """The build's labels and exported constants (its JSON map)."""
    return LinkMap.load(rom_path.with_suffix(".map.json")).symbols()


def cell_origin(f: int, r: int) -> tuple[int, int]:
    mrow = BOARD_MROW + (9 - r) + (1 if r <= 4 else 0)
    return (BOARD_MCOL + f) * 16, mrow * 16


def masks(rgb: np.ndarray):
    r, g, b = (rgb[..., i].astype(int) for i in range(3))
    red = (r > 120) & (g < 80) & (b < 80)         # red ink
    black = (r + g + b) < 60                       # black ink
    face = (r > 200) & (g > 200) & (b > 200)       # white piece face
    blue = (b > 150) & (r < 120)                   # cursor fill
    return red, black, face, blue


def classify(frame: np.ndarray, f: int, r: int) -> str:
    """'R' red piece, 'B' black piece, '.' empty intersection."""
    x, y = cell_origin(f, r)
    red, black, face, _ = masks(frame[y:y + 16, x:x + 16])
    if face.sum() < 40:
        assert red.sum() == 0, f"red pixels on empty square {f},{r}"
        return "."
    if red.sum() >= 20:
        return "R"
    if black.sum() >= 20:
        return "B"
    return "?"


def press(nes, button: int, frames: int = 6) -> None:
    nes.controller = button
    nes.step(frames)
    nes.controller = 0
    nes.step(4)


def cursor_sprites(nes) -> list[tuple[int, int]]:
    """(x, y) of the cursor's corner sprites (tile $01, sprite palette 0):
    the board's sprites change OAM slots every frame (flicker rotation)."""
    out = []
    for i in range(64):
        y, tile, attr, x = (nes[OAM + 4 * i + k] for k in range(4))
        if tile == SPR_TILE_CURSOR and attr & 3 == 0 and y < 0xEF:
            out.append((x, y))
    return out


@pytest.fixture(scope="module")
def title(rom_path):
    nes = NES(str(rom_path))
    frame = nes.step(60)
    return nes, np.array(frame)


@pytest.fixture(scope="module")
def booted(rom_path):
    """Boot, press Start on the title (1 player as Red, level 0): the board."""
    nes = NES(str(rom_path))
    nes.step(60)
    press(nes, NES_INPUT_START, frames=3)
    frame = nes.step(60)
    return nes, np.array(frame)


def test_does_not_crash(title, booted):
    assert not title[0].has_crashed
    assert not booted[0].has_crashed


def test_boot_shows_the_title(title, rom_path):
    nes, frame = title
    lab = labels(rom_path)
    assert nes[lab["ui_screen"]] == lab["UI_SCREEN_TITLE"]
    red, black, *_ = masks(frame[24:80, 64:192])           # 象棋 in red
    assert red.sum() > 400
    _, black, *_ = masks(frame[88:104, 64:192])            # XIANGQI in black
    assert black.sum() > 200
    assert not any(nes[OAM + 4 * i] < 0xEF for i in range(64)), "no sprites on the title"


def test_start_begins_a_game(booted, rom_path):
    nes, _ = booted
    lab = labels(rom_path)
    assert nes[lab["ui_screen"]] == lab["UI_SCREEN_PLAY"]
    assert nes[lab["ui_players"]] == lab["UI_HUMAN_RED"] and nes[lab["ui_level"]] == 0
    assert nes[lab["eng_side"]] == 0 and nes[lab["ui_busy"]] == 0


def test_starting_position_is_drawn(booted):
    _, frame = booted
    counts = {"R": 0, "B": 0}
    for r, row in START.items():
        for f, ch in enumerate(row):
            want = "." if ch == "." else ("R" if ch.isupper() else "B")
            got = classify(frame, f, r)
            assert got == want, f"square {'abcdefghi'[f]}{r}: expected {want}, saw {got}"
            if got in counts:
                counts[got] += 1
    assert counts == {"R": 16, "B": 16}


def test_cursor_sprite_visible_around_e3(booted):
    nes, frame = booted
    *_, blue = masks(frame)
    ys, xs = np.nonzero(blue)
    assert len(xs) >= 40, "cursor (blue bracket fill) not on screen"
    x, y = cell_origin(4, 3)
    assert xs.min() >= x - 3 and xs.max() <= x + 18
    assert ys.min() >= y - 3 and ys.max() <= y + 18
    assert len(cursor_sprites(nes)) == 4                   # all four corners in OAM


def test_status_panel_says_red_to_move(booted):
    _, frame = booted
    red, *_ = masks(frame[80:96, 176:240])
    assert red.sum() > 50


def test_cursor_moves_one_square_per_press_and_repeats(rom_path):
    lab = labels(rom_path)
    nes = NES(str(rom_path))
    nes.step(60)
    press(nes, NES_INPUT_START, frames=3)
    nes.step(60)
    f0, r0 = nes[lab["cursor_file"]], nes[lab["cursor_rank"]]
    (x0, y0) = min(cursor_sprites(nes))
    press(nes, NES_INPUT_RIGHT, frames=10)       # held 10 frames: one square
    assert (nes[lab["cursor_file"]], nes[lab["cursor_rank"]]) == (f0 + 1, r0)
    assert min(cursor_sprites(nes)) == (x0 + 16, y0)
    press(nes, NES_INPUT_UP)                     # rank 3 -> 4 (same side of the river)
    assert nes[lab["cursor_rank"]] == r0 + 1
    assert min(cursor_sprites(nes)) == (x0 + 16, y0 - 16)
    # held: again after 16 frames, then every 4 (frames 16, 20, 24 after the press)
    nes.controller = NES_INPUT_UP
    nes.step(25)
    nes.controller = 0
    nes.step(4)
    assert nes[lab["cursor_rank"]] == r0 + 1 + 4
    for _ in range(12):                          # clamps at the top edge (rank 9)
        press(nes, NES_INPUT_UP)
    assert nes[lab["cursor_rank"]] == 9
    x_top, y_top = cell_origin(5, 9)
    assert min(cursor_sprites(nes)) == (x_top - 3, y_top - 3 - 1)
    assert not nes.has_crashed


def _save(path: Path, frame: np.ndarray) -> None:
    img = Image.fromarray(frame.astype(np.uint8), "RGB")
    if path.exists():
        with Image.open(path) as old:
            if np.array_equal(np.array(old.convert("RGB")), frame):
                return
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, optimize=True)


def test_screenshots_saved(title, booted):
    """docs/screenshots/boot.png and game.png are exactly the frames checked
    above (written only when the picture changed): read back pixel for pixel."""
    for path, frame in ((SCREENSHOT, title[1]), (GAME_SCREENSHOT, booted[1])):
        _save(path, frame)
        with Image.open(path) as img:
            assert np.array_equal(np.asarray(img.convert("RGB")), frame), f"{path} is not the frame"


@pytest.mark.parametrize("button, axis, edge", [
    (NES_INPUT_LEFT, "cursor_file", 0), (NES_INPUT_RIGHT, "cursor_file", 8),
    (NES_INPUT_DOWN, "cursor_rank", 0), (NES_INPUT_UP, "cursor_rank", 9),
], ids=["left", "right", "bottom", "top"])
def test_cursor_stops_at_each_edge(rom_path, button, axis, edge):
    """Pressed towards an edge more often than the board is wide, the cursor
    stops on the edge's line and its corner sprites frame that square."""
    lab = labels(rom_path)
    nes = NES(str(rom_path))
    nes.step(60)
    press(nes, NES_INPUT_START, frames=3)
    nes.step(60)
    other = "cursor_rank" if axis == "cursor_file" else "cursor_file"
    kept = nes[lab[other]]
    for _ in range(12):
        press(nes, button)
    assert nes[lab[axis]] == edge and nes[lab[other]] == kept
    f, r = nes[lab["cursor_file"]], nes[lab["cursor_rank"]]
    x, y = cell_origin(f, r)
    assert min(cursor_sprites(nes)) == (x - 3, y - 3 - 1)
    press(nes, button)                               # once more: nothing moves
    assert (nes[lab["cursor_file"]], nes[lab["cursor_rank"]]) == (f, r)
    assert len(cursor_sprites(nes)) == 4 and not nes.has_crashed


def test_build_is_reproducible(tmp_path):
    """Same sources, same bytes: twice with each available assembler, and
    the two assemblers agree with each other."""
    from tools.rom import build as build_rom
    digests = {}
    for asm in ("ours", "ca65"):
        if asm == "ca65" and shutil.which("ca65") is None:
            continue                        # (our own assembler must always build)
        a = build_rom.build(asm, tmp_path / f"{asm}1.nes", build_dir=tmp_path / f"{asm}1")
        b = build_rom.build(asm, tmp_path / f"{asm}2.nes", build_dir=tmp_path / f"{asm}2")
        assert a == b, f"{asm}: two builds differ"
        assert hashlib.sha256((tmp_path / f"{asm}1.nes").read_bytes()).hexdigest() == a
        digests[asm] = a
    assert len(set(digests.values())) == 1, f"assemblers disagree: {digests}"


# ---------------------------------------------------------------------------
# draw_square in isolation (py65): the exact queue entries it produces.

def _symbols_and_prg(tmp_path):
    """Build a private copy of the ROM and read its symbol table: from the
    ld65 label file (ca65 build), else from the Mesen label file of ours;
    returns the symbols, the 32 KiB at $8000-$FFFF and the board's
    nametable."""
    from tools.rom import build as build_rom
    rom = tmp_path / "sym.nes"
    syms = {}
    try:
        build_rom.build("ca65", rom, build_dir=tmp_path / "build")
        for line in (tmp_path / "build" / "xiangqi.labels").read_text().splitlines():
            _, addr, name = line.split()
            syms[name.lstrip(".")] = int(addr, 16)
    except build_rom.BuildError:
        try:
            build_rom.build("ours", rom)
        except build_rom.BuildError as exc:
            pytest.skip(f"no assembler could build the ROM: {exc}")
        for line in rom.with_suffix(".mlb").read_text().splitlines():
            kind, addr, name = line.split(":")[:3]
            syms[name] = int(addr, 16) + (0x8000 if kind == "NesPrgRom" else 0)
    # the CPU's view with draw_square's bank mapped, and the nametable by its
    # bank (the current build's map: the same sources, the same banks)
    cart, link = Cartridge.load(rom), built()
    image = cart.cpu_image(link.bank_of("draw_square"))
    return syms, image, cart.read(syms["board_nametable"], 1024, link.bank_of("board_nametable"))


def _call(mpu, addr, a=0, x=0, y=0, limit=20000):
    tramp = 0x07F0                       # JSR addr, then stop at tramp + 3
    mpu.memory[tramp:tramp + 3] = [0x20, addr & 0xFF, addr >> 8]
    mpu.pc, mpu.a, mpu.x, mpu.y, mpu.sp = tramp, a, x, y, 0xFF
    start = mpu.processorCycles
    for _ in range(limit):
        if mpu.pc == tramp + 3:
            return mpu.processorCycles - start
        mpu.step()
    raise AssertionError(f"routine at ${addr:04X} did not return")


def test_draw_square_queues_tiles_and_attribute(tmp_path):
    from py65.devices.mpu6502 import MPU
    syms, prg, nt = _symbols_and_prg(tmp_path)
    mpu = MPU()
    mpu.memory = [0] * 0x8000 + list(prg)
    q, attr = syms["vram_queue"], syms["attr_shadow"]
    worst = 0
    for square in range(90):
        f, r = square % 9, square // 9
        for piece in (0, 5, 5 + 8):      # empty, red rook, black rook
            mpu.memory[attr:attr + 64] = list(nt[960:1024])
            mpu.memory[syms["vram_queue_len"]] = 0
            mpu.memory[q] = 0
            worst = max(worst, _call(mpu, syms["draw_square"], a=piece, x=square))
            x, y = cell_origin(f, r)
            off = (y // 8) * 32 + x // 8
            if piece == 0:
                tiles = [nt[off], nt[off + 1], nt[off + 32], nt[off + 33]]
                pal = 0
            else:
                base = 0x60 + 4 * (5 - 1) + (28 if piece & 8 else 0)
                tiles = [base, base + 1, base + 2, base + 3]
                pal = 2 if piece & 8 else 1
            ai = (y // 32) * 8 + x // 32
            shift = 2 * (((y // 16) & 1) * 2 + ((x // 16) & 1))
            want_attr = (nt[960 + ai] & ~(3 << shift) | (pal << shift)) & 0xFF
            addr = 0x2000 + off
            want = [2, addr >> 8, addr & 0xFF, tiles[0], tiles[1],
                    2, (addr + 32) >> 8, (addr + 32) & 0xFF, tiles[2], tiles[3],
                    1, 0x23, 0xC0 + ai, want_attr, 0]
            got = mpu.memory[q:q + len(want)]
            assert got == want, f"square {square} piece {piece}"
            assert mpu.memory[syms["vram_queue_len"]] == 14
            assert mpu.memory[attr + ai] == want_attr
    assert worst <= 800, f"draw_square took {worst} cycles (header says at most 800)"


def test_nmi_fits_in_vblank_with_a_full_queue(tmp_path):
    """Worst case NMI: a queue filled with one-byte entries (the most
    per-entry overhead).  py65 does not model the OAM DMA stall, so add 514;
    the total must fit the 2,273-cycle NTSC vblank."""
    from py65.devices.mpu6502 import MPU
    syms, prg, _ = _symbols_and_prg(tmp_path)
    mpu = MPU()
    mpu.memory = [0] * 0x8000 + list(prg)
    q = syms["vram_queue"]
    worst = 0
    for count in (1, 2, 59):             # many tiny entries ... one long entry
        entries, pos = [], 0
        while pos + count + 4 < 64:      # the room rule of vram_queue_reserve
            entries += [count, 0x20, 0x00] + [0x41] * count
            pos += 3 + count
        mpu.memory[q:q + len(entries) + 1] = entries + [0]
        mpu.memory[syms["vram_queue_len"]] = pos
        mpu.memory[syms["frame_ready"]] = 1
        ret = 0x07F0
        mpu.memory[0x01FD:0x0200] = [0x20, ret & 0xFF, ret >> 8]   # P, PCL, PCH
        mpu.sp, mpu.pc = 0xFC, syms["nmi_handler"]
        start = mpu.processorCycles
        for _ in range(5000):
            if mpu.pc == ret:
                break
            mpu.step()
        else:
            raise AssertionError("nmi_handler did not return")
        assert mpu.memory[syms["frame_ready"]] == 0
        assert mpu.memory[syms["vram_queue_len"]] == 0 and mpu.memory[q] == 0
        worst = max(worst, 7 + mpu.processorCycles - start + 514)
    print(f"NMI worst case: {worst} cycles")
    assert worst < 2273 - 100, f"NMI worst case {worst} cycles"


def test_draw_side_to_move_queues_text_and_palette(tmp_path):
    from py65.devices.mpu6502 import MPU
    syms, prg, nt = _symbols_and_prg(tmp_path)
    mpu = MPU()
    mpu.memory = [0] * 0x8000 + list(prg)
    q, attr = syms["vram_queue"], syms["attr_shadow"]
    status_row = 5                       # STATUS_MROW: tile rows 10-11
    for side, text, pal in ((8, b" BLACK  ", 2), (0, b" RED    ", 1)):
        mpu.memory[attr:attr + 64] = list(nt[960:1024])
        mpu.memory[syms["vram_queue_len"]] = 0
        mpu.memory[q] = 0
        _call(mpu, syms["draw_side_to_move"], a=side)
        addr = 0x2000 + status_row * 2 * 32 + 22
        assert mpu.memory[q:q + 11] == [8, addr >> 8, addr & 0xFF, *text]
        i = q + 11
        for _ in range(4):               # one attribute entry per metatile
            assert mpu.memory[i:i + 2] == [1, 0x23]
            i += 4
        assert mpu.memory[i] == 0
        shadow = mpu.memory[attr:attr + 64]
        for mcol in range(16):
            idx = (status_row // 2) * 8 + mcol // 2
            shift = 2 * ((status_row & 1) * 2 + (mcol & 1))
            want = pal if 11 <= mcol <= 14 else (nt[960 + idx] >> shift) & 3
            assert (shadow[idx] >> shift) & 3 == want, f"metatile column {mcol}"
