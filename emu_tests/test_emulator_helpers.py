"""The helpers behind test_other_emulators: picture comparison up to the
palette, finding a frame on a screen, the skip-or-fail policy for missing
emulators, and the FCEUX driver's error and clean-up paths."""
from __future__ import annotations

import os

import numpy as np
import pytest

from emu_tests.frame_compare import locate_frame, palette_mismatch
from emu_tests.headless import (
    REQUIRE_ENV, ProgramFailed, ProgramMissing, emulators_required, find_program, skip_or_fail,
)


def indexed_picture(seed: int = 1) -> np.ndarray:
    """A 240x256 picture of 8x8 tiles in 12 colour indices, with some detail
    inside the tiles (like a NES screen)."""
    rng = np.random.default_rng(seed)
    tiles = rng.integers(0, 12, size=(30, 32))
    pic = np.kron(tiles, np.ones((8, 8), dtype=np.int64))
    pic[rng.random(pic.shape) < 0.05] = 3
    return pic


def palette(seed: int) -> np.ndarray:
    """12 distinct RGB colours."""
    rng = np.random.default_rng(seed)
    while True:
        p = rng.integers(0, 256, size=(12, 3), dtype=np.uint8)
        if len({tuple(c) for c in p}) == 12:
            return p


def test_palette_mismatch_ignores_the_palette_only():
    pic = indexed_picture()
    a, b = palette(1)[pic], palette(2)[pic]
    assert palette_mismatch(a, b).pixels == 0
    assert palette_mismatch(a, pic).pixels == 0          # RGB against indices too
    b[100, 50] = palette(2)[(pic[100, 50] + 1) % 12]      # one pixel another colour
    diff = palette_mismatch(a, b)
    assert diff.pixels == 1 and diff.mask[100, 50] and diff.where() == "x 50-50, y 100-100"
    shifted = palette(2)[np.roll(pic, 8, axis=1)]         # the picture one tile to the right
    assert palette_mismatch(a, shifted).fraction > 0.5
    merged = palette(2)[np.where(pic == 5, 6, pic)]       # two colours drawn alike
    assert palette_mismatch(a, merged).pixels == min((pic == 5).sum(), (pic == 6).sum())
    with pytest.raises(ValueError):
        palette_mismatch(a, b[:200])


def test_locate_frame_finds_the_picture_on_a_screen():
    pic = indexed_picture(2)
    screen = np.full((600, 800, 3), 200, dtype=np.uint8)
    screen[:24, :] = 120                                  # a "menu bar"
    screen[63:63 + 240, 37:37 + 256] = palette(3)[pic]
    x, y, agreement = locate_frame(screen, palette(4)[pic])
    assert (x, y) == (37, 63) and agreement > 0.99
    with pytest.raises(ValueError):
        locate_frame(screen[:100], pic)


def test_missing_program_names_its_package():
    with pytest.raises(ProgramMissing, match="apt-get install no-such-package"):
        find_program("no-such-program-xiangqi", "no-such-package")


@pytest.mark.parametrize("value, required", [("", False), ("0", False), ("1", True)])
def test_missing_emulator_skips_or_fails(monkeypatch, value, required):
    monkeypatch.setenv(REQUIRE_ENV, value)
    assert emulators_required() is required
    with pytest.raises(pytest.fail.Exception if required else pytest.skip.Exception, match="fceux"):
        skip_or_fail(ProgramMissing("'fceux' is not installed"))


def test_fceux_driver_errors_and_clean_up(rom_path):
    """An unknown command is an error naming it; RAM written is read back;
    close() leaves no FCEUX or Xvfb process behind."""
    from emu_tests.fceux_harness import FceuxConsole
    try:
        con = FceuxConsole(rom_path)
    except ProgramMissing as exc:
        skip_or_fail(exc)
    with con:
        with pytest.raises(ProgramFailed, match="unknown command: bogus"):
            con.nes.command("bogus")
        con.step(30)
        con.write(0x0700, [0x12, 0x34])
        assert con.read(0x0700, 2) == [0x12, 0x34] and con.nes[0x0701] == 0x34
        rgb, index = con.nes.screen()
        assert rgb.shape == (240, 256, 3) and index.shape == (240, 256)
        pids = [con.nes.proc.pid, con.nes.x.proc.pid]
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(ProgramFailed, match="not running"):
        con.nes.command("peek 0 1")
