"""The web page (`make web`, web/) in a real browser: headless Chromium.

One run, from power-on (emu_tests/browser_harness.py drives the page):

  * the site is built into a temporary folder and served on 127.0.0.1
    (tools/web), the page loads and the cartridge runs;
  * the title, at the frame the page shows it, is the frame cynes draws at
    the same frame from power-on: the same pixels up to the palette, the
    whole 256x240 (jsnes' 8-pixel border is off), and the same RAM but for
    the stack page (jsnes powers on with RAM $FF, cynes with 0: the
    cartridge clears RAM at reset, so nothing else may differ); the
    canvas as the browser shows it is that picture scaled by a whole
    number, every NES pixel a sharp square;
  * a 1-player game at Novice started with the keys of `make play`
    (arrows, Enter sent as WebDriver's NumpadEnter), which also starts the
    sound; h2e2 played with the arrows and X; the computer's answer is the
    reference search's move for the seed the cartridge drew, and the
    position is the reference's (test_game_play's checks);
  * the page's pad log replayed in cynes frame by frame gives the same game:
    the same RAM (but the stack page) and the same picture after the answer;
  * the page is saved as $SCREENSHOT_OUT/web.png (default
    <tmp>/xiangqi-screenshots), and as docs/screenshots/web.png for the
    README when that is missing or UPDATE_SCREENSHOTS=1;
  * at a desk the on-screen pad is hidden; on a touch screen (Chromium's
    touch emulation) it shows, the screen still crisp beside it;
  * R (Reset) brings the title back, the frames counting on; Power cycle
    brings it back from frame 0; the on-screen Right
    button, touched (real touch events), changes the players;
  * the page opened as a file says it must be served over HTTP.

Needs Selenium (the [dev] extra), Debian's chromium and chromium-driver,
and npm for jsnes (.ci/run installs them).  Without them the test skips,
unless XIANGQI_REQUIRE_EMULATORS=1 (.ci/run sets it): then it fails.
"""
from __future__ import annotations

import io
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from emu_tests.browser_harness import Chromium, PageConsole
from emu_tests.frame_compare import palette_mismatch
from emu_tests.headless import ProgramMissing, skip_or_fail
from emu_tests.test_game_play import (
    HUMAN_RED, NOVICE, SCREEN_BOARD, SCREEN_TITLE, Player, check_same, choose_and_start, computer_reply,
    last_move, settled,
)
from tools.atomic import save_png
from tools.nes.console import A
from tools.web.build import WebBuildError, build
from tools.web.server import BackgroundServer
from reference_py.board import file_of, move_from, move_iccs, move_to, rank_of, square
from reference_py.fen import START_FEN
from reference_py.rules import Game

ROOT = Path(__file__).resolve().parents[1]
README_SHOT = ROOT / "docs" / "screenshots" / "web.png"
TITLE_NMIS = 16                  # the title drawn, NMIs running (as in test_other_emulators)
HUMAN_MOVE = square(7, 2) | square(4, 2) << 8     # h2e2
CURSOR_AFTER = (4, 5)            # a quiet square for the picture after the answer
STACK_PAGE = slice(0x100, 0x200)  # below the stack pointer: what interrupts left, emulator timing
RAM_SIZE = 0x800


def ram_differences(page: bytes, cynes: list[int]) -> list[str]:
    """RAM bytes that differ, but for the stack page."""
    keep = np.ones(RAM_SIZE, bool)
    keep[STACK_PAGE] = False
    a, b = np.frombuffer(page, np.uint8), np.array(cynes, np.uint8)
    return [f"${i:04X}: page ${a[i]:02X}, cynes ${b[i]:02X}" for i in np.nonzero((a != b) & keep)[0]]


def same_picture(what: str, page: Image.Image, cynes: Image.Image) -> None:
    diff = palette_mismatch(np.asarray(page), np.asarray(cynes))
    assert diff.pixels == 0, f"{what}: {diff.pixels} pixels differ from cynes beyond the palette ({diff.where()})"


def shown_canvas(driver) -> tuple[Image.Image, int]:
    """The canvas as the browser paints it: cut out of a screenshot of the
    window, with its scale (device pixels per NES pixel)."""
    rect = driver.execute_script(
        "const r = document.getElementById('nes').getBoundingClientRect(); const d = devicePixelRatio;"
        "return [r.left * d, r.top * d, r.width * d, r.height * d];")
    x, y, w, h = (round(v) for v in rect)
    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    return shot.crop((x, y, x + w, y + h)), w // 256


def pad_display(driver) -> str:
    return driver.execute_script("return getComputedStyle(document.getElementById('touch')).display")


def human_move_with_keys(page: PageConsole, game: Game, move: int) -> None:
    """The cursor to the piece with the arrows, X, the cursor to the target,
    X; waits until the move is in (the computer then thinks)."""
    frm, to = move_from(move), move_to(move)
    plies = len(game.moves)
    page.wait_until(lambda c: c.human_to_move(), 600, "the human's turn")
    page.move_cursor_to(file_of(frm), rank_of(frm))
    page.press_until(A, lambda c: c.byte("ui_sel") == frm, 60, f"X on {move_iccs(move)[:2]}")
    page.move_cursor_to(file_of(to), rank_of(to))
    page.press(A)
    page.wait_until(lambda c: c.word("game_ply") > plies, 60, f"X on {move_iccs(move)[2:]}")
    game.play(move)


def replay_in_cynes(con: Player, log: list[tuple[int, int]], start: int, end: int) -> Player:
    """Run cynes, standing at the moment of the page's frame `start`, on to
    the page's frame `end` with the page's pad, frame by frame.  (The frame
    counts since power-on may differ by one between the emulators: cynes'
    first console of a process is a frame behind the later ones; the
    moment is the cartridge's own count of NMIs.)"""
    assert all(frame >= start for frame, _ in log), f"pad changes before frame {start}: {log[:4]}"
    changes = dict(log)
    held = 0
    for frame in range(start, end):
        held = changes.get(frame, held)
        con.nes.controller = held
        con.step(1)
    con.nes.controller = 0
    return con


def save_page_shot(img: Image.Image) -> Path:
    """The page after the answer: always to the screenshot folder; to the
    README's docs/screenshots/web.png when that is missing or with
    UPDATE_SCREENSHOTS=1 (the answer, so the picture, depends on the frame
    the game started at: each run differs)."""
    out = Path(os.environ.get("SCREENSHOT_OUT") or Path(tempfile.gettempdir()) / "xiangqi-screenshots")
    save_png(img, out / "web.png")
    if os.environ.get("UPDATE_SCREENSHOTS") == "1" or not README_SHOT.exists():
        save_png(img, README_SHOT)
    return out / "web.png"


@pytest.fixture(scope="module")
def site(rom_path, tmp_path_factory) -> Path:
    try:
        out = tmp_path_factory.mktemp("web") / "site"
        build(out, rom_path)
        return out
    except WebBuildError as exc:
        if "npm is not installed" in str(exc):
            skip_or_fail(ProgramMissing(str(exc)))
        raise


def test_page_plays_like_cynes(rom_path, site):
    started = time.monotonic()
    try:
        browser = Chromium()
    except ProgramMissing as exc:
        skip_or_fail(exc)
    with BackgroundServer(site) as server, browser:
        driver = browser.driver
        try:
            page = PageConsole(driver, server.url, rom_path)
            assert driver.title == "Xiangqi for the NES"
            keys = driver.execute_script(
                "return [...document.querySelectorAll('#keys tbody tr')].map(r => r.cells[0].textContent)")
            assert keys == ["Arrow keys", "X", "Z", "S or Enter", "A or Right Shift", "R"], keys

            # -- the title, against cynes at the same frame from power-on
            page.wait_until(lambda c: c.screen_id() == SCREEN_TITLE and c.byte("nmi_count") >= TITLE_NMIS,
                            600, "the title drawn")
            page.snapshot(picture=True)
            title_frame, title_ram, title = page.frames, page.ram, page.screen()
            nmis = page.byte("nmi_count")
            cynes = Player(rom_path)
            cynes.wait_until(lambda c: c.screen_id() == SCREEN_TITLE and c.byte("nmi_count") == nmis, 600,
                             f"the title at nmi_count {nmis} in cynes")
            cynes_title_frame = cynes.frames
            differs = ram_differences(title_ram, cynes.read(0, RAM_SIZE))
            assert not differs, f"RAM at the title (frame {title_frame}):\n  " + "\n  ".join(differs[:20])
            same_picture("the title", title, cynes.screen())
            shown, scale = shown_canvas(driver)
            assert scale >= 1 and shown.size == (256 * scale, 240 * scale), f"canvas shown at {shown.size}"
            same_picture(f"the title as shown ({scale}x)", shown, title.resize(shown.size, Image.NEAREST))

            # -- a game with the keys; the first key starts the sound
            assert driver.execute_script("return xiangqi.sound.state") == "not started"
            choose_and_start(page, HUMAN_RED, NOVICE)
            sound = driver.execute_script("return xiangqi.sound")
            assert sound["state"] == "running" and sound["ready"] and sound["samples"] > 0, sound
            game = Game(START_FEN)
            check_same(page, game, "start")
            human_move_with_keys(page, game, HUMAN_MOVE)
            reply = computer_reply(page, game, NOVICE)
            assert last_move(page) == reply and page.screen_id() == SCREEN_BOARD
            assert driver.execute_script("return xiangqi.sound.loud") > 0, "no sound made by the game"
            page.move_cursor_to(*CURSOR_AFTER)
            # ui_oam_rot comes back to 0 every 64 passes of the main loop (OAM_TURN = 20)
            page.wait_until(lambda c: settled(c) and c.byte("ui_oam_rot") == 0, 3 * 64, "the sprites in place")
            page.snapshot(picture=True)
            end_frame, end_ram, board = page.frames, page.ram, page.screen()
            log = page.pad_log()

            # -- the same pad in cynes, from the title on: the same game
            replay = replay_in_cynes(cynes, log, title_frame, end_frame)
            differs = ram_differences(end_ram, replay.read(0, RAM_SIZE))
            assert not differs, (f"RAM after the answer (frame {end_frame}), pad replayed in cynes:\n  "
                                 + "\n  ".join(differs[:20]))
            same_picture("the board after the answer", board, replay.screen())

            # -- a touch screen: the on-screen pad appears (hidden at a desk)
            assert pad_display(driver) == "none"
            driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
            page.step(2)
            assert pad_display(driver) != "none", "no on-screen pad on a touch screen"
            shown, scale = shown_canvas(driver)
            same_picture(f"the board as shown beside the pad ({scale}x)", shown, board.resize(shown.size, Image.NEAREST))
            with Image.open(io.BytesIO(driver.find_element("id", "play").screenshot_as_png)) as img:
                shot_path = save_page_shot(img.convert("RGB"))

            # -- R: the console's Reset (RAM cleared by the cartridge, the frames go on)
            page.key("r")
            page.wait_until(lambda c: c.screen_id() == SCREEN_TITLE and c.word("game_ply") == 0
                            and c.byte("nmi_count") >= TITLE_NMIS, 120, "the title after Reset (R)")
            assert page.frames > end_frame

            # -- Power cycle, then the on-screen buttons by touch
            driver.find_element("id", "power").click()
            page.step(1)
            assert page.frames < 30, f"frame {page.frames} after Power cycle"
            page.wait_until(lambda c: c.screen_id() == SCREEN_TITLE and c.byte("nmi_count") >= TITLE_NMIS,
                            600, "the title after Power cycle")
            assert page.word("game_ply") == 0 and page.byte("ui_players") == HUMAN_RED
            touch(driver, "#touch [data-button='right']")
            page.wait_until(lambda c: c.byte("ui_players") != HUMAN_RED, 30, "the players changed by touch")
            assert page.presses and driver.execute_script("return xiangqi.pad.log.length") > 0

            # -- opened as a file, the page says why it cannot start
            driver.get((site / "index.html").as_uri())
            status = driver.execute_script("return document.getElementById('status').textContent")
            assert "serve it over HTTP" in status, status
        except BaseException:
            print(f"the page's console:\n{browser.console_log()}")
            raise
    print(f"web page: title at frame {title_frame} (cynes {cynes_title_frame}), answer {move_iccs(reply)} by frame {end_frame}, "
          f"{len(log)} pad changes; {time.monotonic() - started:.1f} s; the page: {shot_path}")


def touch(driver, selector: str) -> None:
    """A finger on the element's centre and off again (Chrome's touch events)."""
    x, y = driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];", selector)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
