"""`make play`: run the ROM in a window, or record its attract mode headless.

    python -m tools.play [--rom rom/xiangqi.nes] [--headless] [--scale 3]
                         [--gif rom/demo.gif] [--shots rom/screenshots]

With a display (DISPLAY or WAYLAND_DISPLAY set, pysdl2 installed and SDL's
video starting on a real driver) the ROM runs in a cynes window at 60 frames
a second.  Keys (cynes.windowed's defaults, plus a few of ours):

    arrow keys        D-pad
    X                 A   (pick up / put down a piece, confirm)
    Z                 B   (cancel)
    S or Enter        Start
    A or Right Shift  Select
    R                 the console's Reset button
    F12               save a screenshot to rom/screenshots/shot-NNN.png
    Esc               quit (or close the window)

Every game played in the window is added to a PGN file (games/nes.pgn, or
--pgn): a finished game when its game-over screen shows, with the players,
the level, the result and how it ended; a game still going when the window
closes, as unfinished.  The moves are read by watching the cartridge's RAM
(tools/nes/gamelog.py: the cartridge itself keeps only its last 8 plies).

Without a display it says why, runs the ROM headless for a bounded number of
frames and writes, each atomically (temporary file, then rename):
    rom/demo.gif              power-on, a few seconds of the title screen, then
                              the attract mode's computer-vs-computer game
                              (every 4th frame, 15 frames a second)
    rom/screenshots/*.png     one picture per screen seen: title.png,
                              attract.png, board.png, ...
RAM is read by name through rom/xiangqi.map.json; a ROM that does not export
ui_screen yet is simply recorded from power-on.  Exit status 0, or 1 if the
emulated CPU crashed or the ROM is missing.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image

from tools.atomic import check_target, save_png, write_atomic
from reference_py.pgn import PgnError, append_game, check_can_add
from tools.nes.cartridge import Cartridge, CartridgeError
from tools.nes.console import A, SELECT, START, Console, EmulatorCrashed
from tools.nes.gamelog import GameWatcher, RecordError
from tools.nes.timing import NTSC_FPS
from tools.rom.files import ROOT, ROM

GIF = ROOT / "rom" / "demo.gif"
PGN = ROOT / "games" / "nes.pgn"
SHOTS = ROOT / "rom" / "screenshots"


# The screenshot of each screen (the build's UI_SCREEN_* exports): its file name.
SHOT_NAMES = {"UI_SCREEN_TITLE": "title", "UI_SCREEN_PLAY": "board", "UI_SCREEN_PAUSE": "pause",
              "UI_SCREEN_OVER": "gameover", "UI_SCREEN_ATTRACT": "attract", "UI_SCREEN_PUZZLES": "puzzles"}

# The headless recording: frame budgets (all bounded, so `make play` always ends).
GIF_EVERY = 4                 # record every 4th frame: 15 frames a second
GIF_DURATIONS = (70, 70, 60)  # ms, repeating: averages 66.7 ms = 4 NTSC frames
GIF_MAX_BYTES = 3_000_000
TITLE_FRAMES = 240            # title screen shown in the GIF (4 s)
ATTRACT_WAIT_FRAMES = 3000    # the ROM starts its attract mode after ~1200 idle frames
ATTRACT_FRAMES = 22 * 60      # attract game recorded (22 s)
NO_UI_FRAMES = 600            # a ROM without ui_screen: 10 s from power-on
SHOT_AFTER = {"attract": 600}  # frames a screen must have been up before its screenshot (default 60)


class PlayError(Exception):
    pass


def save_frame(frame: np.ndarray, path: Path) -> None:
    save_png(Image.fromarray(np.asarray(frame, dtype=np.uint8), "RGB"), path)


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# ---- display detection and the window ------------------------------------------
def import_sdl2():
    """pysdl2, quietly (it warns which SDL2 binaries it picked)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import sdl2
    return sdl2


def display_problem() -> str | None:
    """None if a window can be opened here, else the reason it cannot."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            return "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    try:
        sdl2 = import_sdl2()
    except ImportError:
        return "pysdl2 is not installed (.venv/bin/pip install -e '.[play]')"
    if sdl2.SDL_Init(sdl2.SDL_INIT_VIDEO) != 0:
        return f"SDL cannot start its video: {sdl2.SDL_GetError().decode(errors='replace')}"
    driver = (sdl2.SDL_GetCurrentVideoDriver() or b"").decode(errors="replace")
    if driver in ("offscreen", "dummy", ""):
        sdl2.SDL_Quit()
        return f"SDL found no display (only its '{driver or 'none'}' video driver)"
    return None


class GameSaver:
    """Adds the games the window plays to a PGN file (tools/nes/gamelog.py)."""

    def __init__(self, nes, rom: Path, path: Path) -> None:
        self.path = path
        con = Console(rom, nes=nes)
        self.watcher = GameWatcher(con) if con.has("game_ply") and con.has("ui_screen") else None

    def frame(self) -> None:
        if self.watcher is None:
            return
        try:
            pgn = self.watcher.update()
        except RecordError as exc:
            print(f"warning: not recording this game: {exc}", file=sys.stderr)
            self.watcher = GameWatcher(self.watcher.mem)
            return
        if pgn:
            self.save(pgn, "the finished game")

    def close(self) -> None:
        """The game still going when the window closes, as unfinished."""
        w = self.watcher
        if w is not None and w.game.moves and not w.written and not w.demo:
            self.save(w.pgn(), "the unfinished game")

    def save(self, pgn: str, what: str) -> None:
        append_game(self.path, pgn)
        print(f"{what} added to {rel(self.path)}")


def run_windowed(rom: Path, scale: int, max_frames: int | None, shots: Path, pgn: Path = PGN) -> int:
    sdl2 = import_sdl2()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from cynes.windowed import WindowedNES
    print(f"Playing {rel(rom)}: arrows = D-pad, X = A, Z = B, S/Enter = Start, "
          f"A/Right Shift = Select, R = Reset, F12 = screenshot, Esc = quit.")
    with WindowedNES(str(rom), scaling_factor=scale) as nes:
        def add(button: int) -> Callable[[], None]:
            return lambda: setattr(nes, "controller", nes.controller | button)
        nes.register_handler(sdl2.SDL_SCANCODE_RETURN, add(START))
        nes.register_handler(sdl2.SDL_SCANCODE_RSHIFT, add(SELECT))
        saver = GameSaver(nes, rom, pgn)
        keys = sdl2.SDL_GetKeyboardState(None)
        held = {sdl2.SDL_SCANCODE_R: False, sdl2.SDL_SCANCODE_F12: False}
        period = 1.0 / NTSC_FPS
        deadline = time.perf_counter()
        frames = 0
        while not nes.should_close and (max_frames is None or frames < max_frames):
            frame = nes.step()
            frames += 1
            saver.frame()
            for code in held:                 # act once per key press, not per frame held
                down = bool(keys[code])
                if down and not held[code]:
                    if code == sdl2.SDL_SCANCODE_R:
                        nes.reset()
                    elif frame is not None:
                        taken = [int(p.stem[5:]) for p in shots.glob("shot-[0-9][0-9][0-9].png")]
                        path = shots / f"shot-{max(taken, default=-1) + 1:03d}.png"
                        save_frame(frame, path)
                        print(f"wrote {rel(path)}")
                held[code] = down
            deadline += period
            delay = deadline - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            elif delay < -0.25:               # fell behind (window dragged, machine busy)
                deadline = time.perf_counter()
        crashed = nes.has_crashed
        saver.close()
    if crashed:
        print(f"error: the emulated CPU crashed (invalid opcode) after {frames} frames", file=sys.stderr)
        return 1
    return 0


# ---- headless: the attract-mode recording ------------------------------------------
class GifFrames:
    """Frames mapped to one shared palette (an NES frame has at most 25 colours,
    a whole run well under 256, so the GIF is exact)."""

    def __init__(self) -> None:
        self.palette: dict[int, int] = {}
        self.frames: list[np.ndarray] = []

    def add(self, frame: np.ndarray) -> None:
        rgb = np.asarray(frame, dtype=np.uint32)
        key = rgb[..., 0] << 16 | rgb[..., 1] << 8 | rgb[..., 2]
        colours, inverse = np.unique(key, return_inverse=True)
        lut = np.array([self.palette.setdefault(int(c), len(self.palette)) for c in colours], np.int32)
        if len(self.palette) > 256:
            raise PlayError("more than 256 colours in the recording")
        self.frames.append(lut[inverse].reshape(key.shape).astype(np.uint8))

    def encode(self, every: int = 1) -> bytes:
        flat = []
        for c in sorted(self.palette, key=self.palette.get):
            flat += [c >> 16, (c >> 8) & 0xFF, c & 0xFF]
        images = []
        for idx in self.frames[::every]:
            img = Image.fromarray(idx, "P")
            img.putpalette(flat)
            images.append(img)
        durations = [GIF_DURATIONS[i % len(GIF_DURATIONS)] * every for i in range(len(images))]
        buf = io.BytesIO()
        images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                       duration=durations, loop=0)
        return buf.getvalue()


class Recorder:
    """Runs the ROM headless on the console harness (tools/nes/console.py),
    keeping every GIF_EVERY-th frame while recording and one screenshot per
    screen (ui_screen) it sees."""

    def __init__(self, rom: Path) -> None:
        self.con = Console(rom)
        exports = self.con.link.exports
        self.shot_names = {exports[k]: name for k, name in SHOT_NAMES.items() if k in exports}
        self.frame: np.ndarray | None = None
        self.gif = GifFrames()
        self.recording = False
        self.shots: dict[str, np.ndarray] = {}
        self._screen: int | None = None
        self._since = 0

    @property
    def frame_no(self) -> int:
        return self.con.frames

    def screen(self) -> int | None:
        return self.con.screen_id()

    def run(self, frames: int, until: Callable[[], bool] | None = None) -> bool:
        """Run up to `frames` frames; stop early (returning True) once `until()` holds."""
        for _ in range(frames):
            if until is not None and until():
                return True
            self.frame = self.con.step(1)
            if self.recording and self.frame_no % GIF_EVERY == 0:
                self.gif.add(self.frame)
            self._note_screen()
        return until is not None and until()

    def _note_screen(self) -> None:
        s = self.screen()
        if s != self._screen:
            self._screen, self._since = s, 0
        self._since += 1
        name = "board" if s is None else self.shot_names.get(s, f"screen{s}")
        if name not in self.shots and self._since >= SHOT_AFTER.get(name, 60):
            self.shots[name] = np.array(self.frame, dtype=np.uint8)


def record(rom: Path, gif_path: Path, shots_dir: Path) -> int:
    rec = Recorder(rom)
    notes = []
    rec.recording = True
    if not rec.con.has("ui_screen"):
        rec.run(NO_UI_FRAMES)
        notes.append(f"this ROM does not export ui_screen yet: recorded its first {NO_UI_FRAMES} frames")
    else:
        title, play, attract = (rec.con.const(f"UI_SCREEN_{n}") for n in ("TITLE", "PLAY", "ATTRACT"))
        rec.run(TITLE_FRAMES)
        rec.recording = False                       # skip the rest of the idle title screen
        if rec.run(ATTRACT_WAIT_FRAMES, lambda: rec.screen() == attract):
            notes.append(f"attract mode started at frame {rec.frame_no}")
            rec.recording = True
            rec.run(ATTRACT_FRAMES)
            rec.recording = False
        else:
            notes.append(f"attract mode did not start within {TITLE_FRAMES + ATTRACT_WAIT_FRAMES} frames: "
                         "the GIF shows the title screen only")
        # Not in the GIF: out of the demo and into a game, for board.png.  The
        # ROM reads the pad only between searches, so Start is held until the
        # screen changes; then A on the title screen (Start as a fallback).
        for i in range(6):
            if rec.screen() == play:
                break
            button = A if rec.screen() == title and i % 2 == 0 else START
            start = rec.screen()
            rec.con.nes.controller = button
            rec.run(600, lambda: rec.screen() != start)
            rec.con.nes.controller = 0
            rec.run(60, lambda: rec.screen() == play)
        rec.run(90)

    data = rec.gif.encode()
    every = 1
    while len(data) > GIF_MAX_BYTES and every < 8:
        every *= 2
        data = rec.gif.encode(every)
    write_atomic(gif_path, data)
    kept = len(rec.gif.frames[::every])
    seconds = sum(GIF_DURATIONS[i % len(GIF_DURATIONS)] * every for i in range(kept)) / 1000
    print(f"wrote {rel(gif_path)}: {kept} frames, {seconds:.1f} s, {len(data) / 1024:.0f} KiB")
    for name, frame in sorted(rec.shots.items()):
        path = shots_dir / f"{name}.png"
        save_frame(frame, path)
        print(f"wrote {rel(path)}")
    for note in notes:
        print(f"({note}; {rec.frame_no} frames run in all)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.play", description=__doc__.split("\n\n")[0])
    p.add_argument("--rom", type=Path, default=ROM)
    p.add_argument("--headless", action="store_true", help="record the attract mode even if there is a display")
    p.add_argument("--scale", type=int, default=3, help="window size: 256x240 times this (default 3)")
    p.add_argument("--frames", type=int, default=None, help="close the window after this many frames")
    p.add_argument("--gif", type=Path, default=GIF, help=f"headless: the GIF to write (default {rel(GIF)})")
    p.add_argument("--shots", type=Path, default=SHOTS,
                   help=f"screenshots directory (default {rel(SHOTS)})")
    p.add_argument("--pgn", type=Path, default=PGN,
                   help=f"window: the PGN file every game is added to (default {rel(PGN)})")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.rom.exists():
        print(f"error: {rel(args.rom)} does not exist (build it with `make rom`)", file=sys.stderr)
        return 1
    try:
        Cartridge.load(args.rom)        # a complete cartridge file, before the emulator sees it
        check_target(args.gif)
        check_target(args.shots, directory=True)
        check_can_add(args.pgn)
    except (CartridgeError, PgnError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        problem = "--headless was given" if args.headless else display_problem()
        if problem is None:
            return run_windowed(args.rom, args.scale, args.frames, args.shots, args.pgn)
        print(f"No window: {problem}.  Running {rel(args.rom)} headless instead: "
              f"recording the title screen and the attract mode.")
        return record(args.rom, args.gif, args.shots)
    except (PlayError, EmulatorCrashed, PgnError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
