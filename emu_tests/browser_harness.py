"""Drive the web page (site/, `make web`) in headless Chromium the way
tools/nes/console.py drives cynes.

    with Chromium() as driver:                       # Debian's chromium + chromedriver
        page = PageConsole(driver, url, rom)         # the page loaded, the cartridge running
        page.wait_until(lambda c: c.byte("nmi_count") >= 16, 600, "the title")
        page.press(START)                            # a real key event (Enter)
        page.move_cursor_to(7, 2)                    # every Console method that presses works

The page runs in real time, at the NES's 60 frames a second, except that a
test's step holds it at the frame the step waited for until the next step
(xiangqi.afterFrames(n, true)): however slow the test or the machine, it
sees every frame it asks for.  `PageConsole` is a Console whose memory is the last snapshot the
page gave (window.xiangqi.snapshot(): the frame count and the 2 KiB of RAM,
read between two frames, so every value in it belongs to the same frame),
RAM read by name from the map JSON as everywhere.  A step waits, inside the
page, until that many frames have run and been drawn (xiangqi.afterFrames),
then takes a snapshot: no sleeps.  Buttons are pressed with real keys
through WebDriver (the page's keys: those of `make play`); the page holds
every press at least xiangqi.MIN_PRESS_FRAMES frames, so a key sent down
and up at once is one press.  Waits are bounded in frames of the page and raise WaitTimeout.

Chromium needs its flags for this machine: headless, no sandbox (root), no
GPU, and none of its background connections (the network is closed: they
fail, many at a time), with a fresh profile each run.
"""
from __future__ import annotations

import base64
import io
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from PIL import Image

from emu_tests.headless import ProgramMissing, find_program
from tools.nes.console import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Console, WaitTimeout

RAM_SIZE = 0x800
LOAD_TIMEOUT = 30.0             # seconds: the page, a script, the cartridge starting
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio")

# jsnes' button numbers (jsnes.Controller.BUTTON_*) as cynes' controller bits.
JSNES_BUTTONS = {0: A, 1: B, 2: SELECT, 3: START, 4: UP, 5: DOWN, 6: LEFT, 7: RIGHT}


def key_of(button: int) -> str:
    """The key the test sends for a button: `make play`'s (Enter for Start:
    WebDriver's Enter key is code NumpadEnter, key "Enter")."""
    from selenium.webdriver.common.keys import Keys
    return {A: "x", B: "z", SELECT: "a", START: Keys.ENTER, UP: Keys.ARROW_UP, DOWN: Keys.ARROW_DOWN,
            LEFT: Keys.ARROW_LEFT, RIGHT: Keys.ARROW_RIGHT}[button]


class Chromium:
    """Headless Chromium under chromedriver, for as long as the `with` lasts.
    Raises ProgramMissing without Selenium, chromium or chromedriver."""

    def __init__(self, width: int = 900, height: int = 1000) -> None:
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            raise ProgramMissing("Selenium is not installed (.venv/bin/pip install -e '.[dev]')") from None
        browser = find_program("chromium", "chromium")
        driver = find_program("chromedriver", "chromium-driver")
        self.dir = Path(tempfile.mkdtemp(prefix="xiangqi-chromium-"))
        self.log = self.dir / "chromedriver.log"
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={self.dir / 'profile'}",
                     f"--window-size={width},{height}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            self.driver = webdriver.Chrome(options=options, service=Service(driver, log_output=str(self.log)))
        except BaseException:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise
        self.driver.set_page_load_timeout(LOAD_TIMEOUT)
        self.driver.set_script_timeout(LOAD_TIMEOUT)

    def console_log(self) -> str:
        """The page's console messages so far (for failure messages)."""
        try:
            return "\n".join(f"    {e['level']}: {e['message']}" for e in self.driver.get_log("browser")) or "    (none)"
        except Exception as exc:          # the browser may be gone
            return f"    (unavailable: {exc})"

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def decode_picture(data_url: str) -> Image.Image:
    """A canvas' PNG data URL as an RGB image."""
    head, _, body = data_url.partition(",")
    if not head.startswith("data:image/png;base64"):
        raise ValueError(f"not a PNG data URL: {data_url[:40]!r}")
    with Image.open(io.BytesIO(base64.b64decode(body))) as img:
        return img.convert("RGB")


class PageConsole(Console):
    """The cartridge running in the page, with Console's vocabulary (see the
    module doc).  Writes to RAM are refused: the test only plays."""

    def __init__(self, driver, url: str, rom: Path, map_path: Path | None = None) -> None:
        self.bind(rom, map_path, missing_ok=False)     # Console's state, without a cynes NES
        self.driver = driver
        self.ram = bytes(RAM_SIZE)
        self.running = False
        self.presses = 0
        self.picture: Image.Image | None = None
        driver.get(url)
        self.step(1)
        self.min_press = driver.execute_script("return xiangqi.MIN_PRESS_FRAMES")  # every press lasts this long

    # ---- the page's state -------------------------------------------------
    def _take(self, shot: dict) -> None:
        self.frames, self.running, self.presses = shot["frames"], shot["running"], shot["presses"]
        self.ram = bytes(shot["ram"])
        self.picture = decode_picture(shot["picture"]) if "picture" in shot else None
        if not self.running:
            status = self.driver.execute_script("return document.getElementById('status').textContent")
            raise AssertionError(f"the page's emulator is not running at frame {self.frames}: {status!r}")

    def snapshot(self, picture: bool = False) -> None:
        """Read the page's state now (between two frames)."""
        self._take(self.driver.execute_script("return xiangqi.snapshot(arguments[0])", picture))

    def step(self, frames: int = 1, picture: bool = False) -> int:
        """Wait until `frames` more frames have run and been drawn, then read
        the state.  Returns the page's count of presses when the wait began."""
        shot = self.driver.execute_async_script(
            "const [n, picture, done] = arguments; const before = xiangqi.presses;"
            "xiangqi.afterFrames(n, true).then(() => done({...xiangqi.snapshot(picture), before}));",
            max(1, frames), picture)
        self._take(shot)
        return shot["before"]

    def _load(self, addr: int, n: int) -> list[int]:
        if addr + n > RAM_SIZE:
            raise ValueError(f"${addr:04X}: only RAM ($0000-$07FF) is read from the page")
        return list(self.ram[addr:addr + n])

    def _store(self, addr: int, values: list[int]) -> None:
        raise NotImplementedError("the browser test plays; it does not write the page's RAM")

    def screen(self) -> Image.Image:
        """The canvas at the same frame as the RAM (a fresh snapshot if the
        last one had no picture)."""
        if self.picture is None:
            self.snapshot(picture=True)
        return self.picture

    def where(self) -> str:
        return "in the page, " + super().where()

    # ---- time and input ---------------------------------------------------
    def wait_until(self, predicate: Callable[["Console"], object], max_frames: int,
                   what: str | None = None, every: int = 1) -> int:
        """Step until predicate(self) holds on a snapshot (checked before the
        first step); the budget is in the page's frames.  Raises WaitTimeout."""
        start = self.frames
        while not predicate(self):
            if self.frames - start >= max_frames:
                name = what or getattr(predicate, "__name__", "condition")
                raise WaitTimeout(f"{name}: not reached after {max_frames} frames ({self.where()})")
            self.step(every)
        return self.frames - start

    def hold(self, buttons: int, frames: int = 2) -> None:
        """Keys down for the buttons, `frames` frames (at least the page's
        minimum press), then up."""
        from selenium.webdriver.common.action_chains import ActionChains
        keys = [key_of(bit) for bit in JSNES_BUTTONS.values() if buttons & bit]
        if not keys:
            raise ValueError("no button to hold")
        down = ActionChains(self.driver)
        for key in keys:
            down.key_down(key)
        down.perform()
        if frames > self.min_press:
            self.step(frames)
        up = ActionChains(self.driver)
        for key in keys:
            up.key_up(key)
        up.perform()

    def press(self, buttons: int, frames: int = 3, release: int = 4) -> None:
        """Press and release, then wait until the page has run the press and
        `release` frames without it, so the cartridge saw exactly one press.
        The key events are handled before WebDriver answers, so the wait
        starts after them: the page's count of presses checks it."""
        before = self.presses
        self.hold(buttons, frames)
        latched = self.min_press if frames <= self.min_press else 0     # frames still held after the key-up
        counted = self.step(latched + release) - before
        if counted != bin(buttons).count("1"):
            raise AssertionError(f"the page had counted {counted} presses for {bin(buttons).count('1')} "
                                 f"keys when the wait for their release began ({self.where()})")

    def key(self, key: str, frames: int = 1) -> None:
        """Type a key that is no button (R: Reset), then wait `frames` frames."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(key).perform()
        self.step(frames)

    def hold_until(self, *args, **kwargs):
        raise NotImplementedError("hold_until: not with keys (use press_until)")

    def reset(self) -> None:
        raise NotImplementedError("reset: press R (the page's Reset) instead")

    def save(self):
        raise NotImplementedError("no save states in the page")

    # ---- the page's pad log -------------------------------------------------
    def pad_log(self) -> list[tuple[int, int]]:
        """[(frame, cynes controller bits held from that frame on)] since power-on."""
        log = self.driver.execute_script("return xiangqi.pad.log")
        return [(frame, sum(bit for n, bit in JSNES_BUTTONS.items() if mask >> n & 1)) for frame, mask in log]
