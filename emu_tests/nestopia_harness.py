"""Run the ROM in Nestopia (Debian's nestopia, Nestopia UE) on a headless X screen.

Nestopia has no scripting, so the test only watches its window: the X
screen is grabbed (Pillow's XCB grab) and the NES picture found in it
(frame_compare.locate_frame); keys go to its window through xdotool.

    with NestopiaWindow(rom) as win:          # Xorg and Nestopia start here
        shot = win.wait_for_frame(cynes_title, "the title")
        shot = win.hold_until_frame("Return", cynes_board, "the board")
                                    # Start (Nestopia's keys: Return Start, z A, a B, arrows)

Nestopia runs on an Xorg "dummy" screen, not Xvfb: it paces its frames by
the display's refresh rate, which Xvfb reports as 0 Hz (Nestopia 1.52 dies
of SIGFPE there).  It is started with -w -l 0 -s 1 -n: a window, no filter,
scale 1, no overscan mask, so the picture is the NES's 256x240 pixels.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from emu_tests.frame_compare import VISIBLE_ROWS, PaletteMismatch, locate_frame, palette_mismatch
from emu_tests.headless import (
    ProgramFailed, ProgramMissing, XServer, find_program, log_tail, start_program, stop_process,
)

FRAME_W, FRAME_H = 256, 240
POLL_SECONDS = 0.25
MIN_EDGE_AGREEMENT = 0.9   # locate_frame's score where a frame counts as found


@dataclass
class FrameMatch:
    x: int                     # where the NES picture is on the X screen
    y: int
    agreement: float           # locate_frame's edge agreement
    mismatch: PaletteMismatch  # against the expected frame, lines 8-231
    picture: Image.Image       # the 256x240 picture cut out of the screen


class NestopiaWindow:
    """Nestopia and its X server, started at once, both ended by close() or
    at the end of the `with`."""

    def __init__(self, rom: Path) -> None:
        self.rom = Path(rom)
        self.dir = Path(tempfile.mkdtemp(prefix="xiangqi-nestopia-"))
        self.log = self.dir / "nestopia.log"
        self.x: XServer | None = None
        self.proc: subprocess.Popen | None = None
        self.env: dict[str, str] = {}
        self.best: FrameMatch | None = None   # the closest match of the last wait_for_frame
        self.xdotool = ""
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        exe = find_program("nestopia", "nestopia")
        self.xdotool = find_program("xdotool", "xdotool")
        from PIL import features
        if not features.check("xcb"):
            raise ProgramMissing("this Pillow cannot grab an X screen (built without XCB)")
        self.x = XServer.xorg_dummy().__enter__()
        home = self.dir / "home"
        self.env = self.x.env(home)
        for sub in (".config/nestopia", ".local/share/nestopia"):   # it makes no parents
            (home / sub).mkdir(parents=True, exist_ok=True)
        rom_copy = self.dir / self.rom.name
        shutil.copyfile(self.rom, rom_copy)
        self.proc = start_program([exe, "-w", "-l", "0", "-s", "1", "-n", str(rom_copy)], self.env, self.log)

    def __enter__(self) -> "NestopiaWindow":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """End Nestopia and its X server and remove the work directory."""
        stop_process(self.proc)
        self.proc = None
        if self.x is not None:
            self.x.__exit__(None, None, None)
            self.x = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def failed(self, what: str) -> ProgramFailed:
        return ProgramFailed(f"{what}\n  Nestopia's output:\n{log_tail(self.log)}")

    def check_running(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            raise self.failed(f"Nestopia exited (code {self.proc.returncode if self.proc else None})")

    def grab(self) -> np.ndarray:
        """The whole X screen, HxWx3 RGB."""
        from PIL import ImageGrab
        return np.asarray(ImageGrab.grab(xdisplay=self.x.display).convert("RGB"))

    def key(self, action: str, key: str) -> None:
        """keydown or keyup of an X key (keysym name) on Nestopia's window."""
        self.check_running()
        cmd = [self.xdotool, "search", "--sync", "--onlyvisible", "--class", "nestopia",
               "windowfocus", "--sync", action, key]
        result = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=30)
        if result.returncode:
            raise self.failed(f"xdotool could not {action} {key}: {result.stderr.strip()}")

    def hold_until_frame(self, key: str, expected: np.ndarray, what: str, timeout: float = 30.0) -> "FrameMatch":
        """Hold `key` until `expected` shows (wait_for_frame), then let go: a
        press the ROM cannot miss however slowly Nestopia runs."""
        self.key("keydown", key)
        try:
            return self.wait_for_frame(expected, what, timeout)
        finally:
            if self.proc is not None and self.proc.poll() is None:
                self.key("keyup", key)

    def match(self, screen: np.ndarray, expected: np.ndarray) -> FrameMatch:
        """Where the expected frame is on the screen, and how well it matches
        there (up to the palette, lines 8-231)."""
        x, y, agreement = locate_frame(screen, expected)
        picture = screen[y:y + FRAME_H, x:x + FRAME_W]
        mismatch = palette_mismatch(picture[VISIBLE_ROWS], np.asarray(expected)[VISIBLE_ROWS])
        return FrameMatch(x, y, agreement, mismatch, Image.fromarray(np.ascontiguousarray(picture), "RGB"))

    def wait_for_frame(self, expected: np.ndarray, what: str, timeout: float = 30.0,
                       max_fraction: float = 0.0) -> FrameMatch:
        """Grab the screen every POLL_SECONDS until `expected` (a 256x240 frame
        from cynes) shows in Nestopia's window, up to the palette, with at
        most `max_fraction` of the pixels off; raises ProgramFailed after
        `timeout` seconds, naming the best match seen."""
        deadline = time.monotonic() + timeout
        self.best = None
        while True:
            self.check_running()
            found = self.match(self.grab(), expected)
            if self.best is None or found.mismatch.fraction < self.best.mismatch.fraction:
                self.best = found
            if found.agreement >= MIN_EDGE_AGREEMENT and found.mismatch.fraction <= max_fraction:
                return found
            if time.monotonic() > deadline:
                best = self.best
                raise self.failed(
                    f"{what} did not show in Nestopia within {timeout:.0f} s: best match at "
                    f"({best.x}, {best.y}), edges agree {best.agreement:.1%}, "
                    f"{best.mismatch.fraction:.2%} of the pixels off ({best.mismatch.where()})")
            time.sleep(POLL_SECONDS)
