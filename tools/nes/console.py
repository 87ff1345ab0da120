"""Drive the whole ROM in cynes the way a player would, for the game tests.

    from tools.nes.console import Console
    con = Console()                              # rom/xiangqi.nes + rom/xiangqi.map.json
    con.wait_screen(con.const("UI_SCREEN_TITLE"), 120)
    con.press(A)                                 # "A: PLAY" (1P as Red)
    con.wait_screen(con.const("UI_SCREEN_PLAY"), 120)
    con.play_move("h2e2")                        # cursor to h2, A, cursor to e2, A
    con.wait_human_turn()                        # the computer's reply
    pos = con.position()                         # a reference_py Position, validated

RAM is read and written by name (con.byte("ui_screen"), con.read("board",
154), con.write(...): tools/nes/memory.py's vocabulary) through the JSON map
the build writes beside the ROM, so tests never hard-code addresses.  The UI contract the game
tests rely on (names exported by asm/ram.s):

  ui_screen      title, play, pause, over, attract (the build's UI_SCREEN_*)
  ui_busy        nonzero while the computer thinks
  cursor_file    0-8 (a-i), cursor_rank 0-9 (0 = Red's back rank)
  ui_sel, ui_players, ui_level, ui_result, ui_winner
  board          padded 11x14 mailbox (reference_py/board.py; a piece's kind is
                 a constant of its code: fixed slots per kind, SLOT_KIND),
  eng_side, eng_clock, game_ply (2 bytes), game_last_seed (2 bytes),
  game_last_from, game_last_to

Every step checks `has_crashed` and raises `EmulatorCrashed`; every wait is
bounded and raises `WaitTimeout` naming the frame and the screen.

Screenshots of the console (`screen()`) are compared with the checked-in
references by emu_tests/screenshot_diff.py.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image

from cynes import (
    NES, NES_INPUT_A, NES_INPUT_B, NES_INPUT_DOWN, NES_INPUT_LEFT, NES_INPUT_RIGHT, NES_INPUT_SELECT,
    NES_INPUT_START, NES_INPUT_UP,
)

from reference_py.board import BOARD_SIZE, square
from reference_py.fen import FenError, parse_fen
from reference_py.position import Position
from tools.nes import ramfen
from tools.nes.cartridge import Cartridge
from tools.nes.linkmap import LinkMap
from tools.nes.memory import NamedMemory
from tools.rom.files import ROM

SLOT_KIND = ramfen.SLOT_KIND    # the kind of each slot side*16+slot (ramfen.py)

# Controller bits (cynes.NES.controller, pad 1; pad 2 is the high byte).
A, B, SELECT, START = NES_INPUT_A, NES_INPUT_B, NES_INPUT_SELECT, NES_INPUT_START
UP, DOWN, LEFT, RIGHT = NES_INPUT_UP, NES_INPUT_DOWN, NES_INPUT_LEFT, NES_INPUT_RIGHT
BUTTON_NAMES = {A: "A", B: "B", SELECT: "Select", START: "Start",
                UP: "Up", DOWN: "Down", LEFT: "Left", RIGHT: "Right"}


def screen_names(link: LinkMap) -> dict[int, str]:
    """ui_screen's values and their names, from the build's UI_SCREEN_*
    exports (asm/global.inc): {0: "title", 1: "play", ...}."""
    prefix = "UI_SCREEN_"
    return {v: k[len(prefix):].lower() for k, v in link.exports.items() if k.startswith(prefix)}


class EmulatorCrashed(RuntimeError):
    """The emulated CPU hit an invalid opcode (cynes' has_crashed)."""


class WaitTimeout(AssertionError):
    """A wait_until condition did not become true within its frame budget."""


class BoardStateError(AssertionError):
    """The board in RAM is not a legal xiangqi position."""


def buttons_text(buttons: int) -> str:
    return "+".join(name for bit, name in BUTTON_NAMES.items() if buttons & bit) or "none"


@dataclass
class Snapshot:
    """A saved emulator state plus the harness' own bookkeeping."""
    state: np.ndarray
    frames: int
    framebuffer: np.ndarray | None


class Console(NamedMemory):
    """cynes.NES with the ROM's names (tools/nes/memory.py's vocabulary),
    bounded waits and crash checks."""

    def __init__(self, rom: str | Path = ROM, map_path: str | Path | None = None, nes: NES | None = None) -> None:
        """`nes`: an emulator already running this ROM (the player's window)
        to read by name; by default a new headless one."""
        self.bind(rom, map_path)
        self.nes = nes if nes is not None else NES(str(self.rom))

    def bind(self, rom: str | Path, map_path: str | Path | None = None, missing_ok: bool = True) -> None:
        """The console's own state for a ROM and its map, whatever runs it:
        the consoles on other emulators (FCEUX, the web page) call this and
        bring their own emulator."""
        self.rom = Path(rom)
        self.map_path = Path(map_path) if map_path else self.rom.with_suffix(".map.json")
        self.link = LinkMap.load(self.map_path, missing_ok=missing_ok)
        self.symbols = self.link.symbols()
        self.screen_names = screen_names(self.link)
        # called after every frame (step runs frame by frame while there are
        # any): tools/nes/gamelog.py's GameWatcher watches the game this way
        self.on_frame: list[Callable[[], object]] = []
        self.frames = 0                # frames run since power-on (kept across save/load)
        self.framebuffer: np.ndarray | None = None
        self._axis = {UP: 1, RIGHT: 1}  # rank/file change per Up/Right press (learned if flipped)

    # ---- memory (writes are for setting up tests: the ROM does not know) ----
    @functools.cached_property
    def cart(self) -> Cartridge:
        """The cartridge model: ROM read by name is read by (bank, address)."""
        return Cartridge.load(self.rom)

    def _load(self, addr: int, n: int) -> list[int]:
        return [self.nes[addr + i] for i in range(n)]

    def _store(self, addr: int, values: list[int]) -> None:
        for i, v in enumerate(values):
            self.nes[addr + i] = v

    def screen_id(self) -> int | None:
        """ui_screen, or None while the ROM does not export it."""
        return self.byte("ui_screen") if self.has("ui_screen") else None

    def busy(self) -> bool:
        return bool(self.has("ui_busy") and self.byte("ui_busy"))

    def where(self) -> str:
        """A short description of the state, for error messages."""
        s = self.screen_id()
        screen = "ui_screen not exported" if s is None else f"ui_screen={s} ({self.screen_names.get(s, '?')})"
        return f"frame {self.frames}, {screen}" + (", computer thinking" if self.busy() else "")

    # ---- time and input -------------------------------------------------
    def step(self, frames: int = 1) -> np.ndarray:
        """Run `frames` frames (at least one) with the current controller state."""
        frames = max(1, frames)
        for run in ([1] * frames if self.on_frame else [frames]):
            self.framebuffer = self.nes.step(run)
            self.frames += run
            if self.nes.has_crashed:
                raise EmulatorCrashed(f"the CPU crashed (invalid opcode) by {self.where()}")
            for hook in self.on_frame:
                hook()
        return self.framebuffer

    def wait_frames(self, n: int) -> None:
        if n > 0:
            self.step(n)

    def hold(self, buttons: int, frames: int = 2) -> None:
        """Hold `buttons` for `frames` frames, then let go (without running further)."""
        self.nes.controller = buttons
        try:
            self.step(frames)
        finally:
            self.nes.controller = 0

    def press(self, buttons: int, frames: int = 2, release: int = 4) -> None:
        """Press and release: held `frames` frames, then released `release` frames,
        so the ROM sees exactly one new press."""
        self.hold(buttons, frames)
        self.wait_frames(release)

    def hold_until(self, buttons: int, predicate: Callable[["Console"], object], max_frames: int,
                   what: str | None = None) -> int:
        """Hold `buttons` until predicate(self) is true, then let go.  For input
        the ROM only reads between searches (a short press while the computer
        thinks is lost).  Raises WaitTimeout."""
        self.nes.controller = buttons
        try:
            return self.wait_until(predicate, max_frames, what or f"{buttons_text(buttons)} held")
        finally:
            self.nes.controller = 0

    def wait_until(self, predicate: Callable[["Console"], object], max_frames: int,
                   what: str | None = None, every: int = 1) -> int:
        """Step until predicate(self) is true (checked before the first step and
        every `every` frames); returns the frames waited.  Raises WaitTimeout."""
        waited = 0
        while not predicate(self):
            if waited >= max_frames:
                name = what or getattr(predicate, "__name__", "condition")
                raise WaitTimeout(f"{name}: not reached after {max_frames} frames ({self.where()})")
            self.step(every)
            waited += every
        return waited

    def wait_screen(self, screen: int, max_frames: int = 600) -> int:
        return self.wait_until(lambda c: c.screen_id() == screen, max_frames,
                               f"ui_screen == {screen} ({self.screen_names.get(screen, '?')})")

    def wait_idle(self, max_frames: int = 60 * 120) -> int:
        """Wait while the computer thinks (ui_busy nonzero)."""
        return self.wait_until(lambda c: not c.busy(), max_frames, "ui_busy == 0")

    def human_to_move(self) -> bool:
        """Idle and the side to move is a human's (ui_players holds the build's
        UI_HUMAN_RED / UI_HUMAN_BLACK bits); just idle if the ROM does not
        export ui_players."""
        if self.busy():
            return False
        if not self.has("ui_players"):
            return True
        human = self.const("UI_HUMAN_BLACK" if self.byte("eng_side") & 1 else "UI_HUMAN_RED")
        return bool(self.byte("ui_players") & human)

    def wait_human_turn(self, max_frames: int = 60 * 120) -> int:
        """Wait for the computer's reply (if any): until a human is to move."""
        return self.wait_until(Console.human_to_move, max_frames, "a human to move")

    def reset(self) -> None:
        """The console's Reset button (RAM is kept, as on hardware)."""
        self.nes.reset()
        self.step(1)

    def save(self) -> Snapshot:
        return Snapshot(self.nes.save(), self.frames,
                        None if self.framebuffer is None else self.framebuffer.copy())

    def load(self, snap: Snapshot) -> None:
        self.nes.load(snap.state)
        self.frames, self.framebuffer = snap.frames, snap.framebuffer

    def screen(self) -> Image.Image:
        """The last frame as a 256x240 RGB image (runs one frame if none yet)."""
        if self.framebuffer is None:
            self.step(1)
        return Image.fromarray(np.array(self.framebuffer, dtype=np.uint8), "RGB")

    # ---- the board -------------------------------------------------------
    def board_loaded(self) -> bool:
        """False while `board` is still all zeros (nothing loaded since power-on)."""
        return any(self.read("board", BOARD_SIZE))

    def board_pieces(self) -> dict[int, tuple[int, int]]:
        """{padded square: (side, kind)} from `board` (the kind of a code's slot:
        SLOT_KIND), checking the encoding: sentinels off the board, each code a
        known slot, each slot on one square only (tools/nes/ramfen.py, which
        also reads saved RAM images).  Raises BoardStateError."""
        try:
            return ramfen.board_pieces(self, f" at {self.where()}")
        except ramfen.NotAPosition as exc:
            raise BoardStateError(str(exc)) from None

    def fen(self) -> str:
        """The position in RAM as a FEN (not validated: see position()); the
        same text `python -m tools.nes fen` prints from a RAM image."""
        try:
            return ramfen.ram_fen(self, f" at {self.where()}")
        except ramfen.NotAPosition as exc:
            raise BoardStateError(str(exc)) from None

    def position(self) -> Position:
        """The position in RAM as a reference_py Position, validated by the
        reference's own FEN checks (one king a side, each piece on a square its
        kind can reach, piece counts, the side that just moved not in check).
        Raises BoardStateError naming what is wrong."""
        fen = self.fen()
        try:
            return parse_fen(fen)
        except FenError as exc:
            raise BoardStateError(f"board in RAM at {self.where()} is not legal: {exc}\n  {fen}") from None

    # ---- playing ---------------------------------------------------------
    def cursor(self) -> tuple[int, int]:
        return self.byte("cursor_file"), self.byte("cursor_rank")

    def move_cursor_to(self, file: int, rank: int, max_frames: int = 600, max_stall: int = 120) -> None:
        """Press the D-pad until the cursor is on (file, rank).  Presses the
        ROM ignores (input is locked while the computer's move blinks) are
        repeated for up to `max_stall` frames.  Learns each axis' direction
        from the first press that moves it (for a board drawn turned round)."""
        start, stalled = self.frames, 0
        while self.cursor() != (file, rank):
            f, r = self.cursor()
            if self.frames - start > max_frames or stalled > max_stall:
                raise WaitTimeout(f"cursor stuck at {'abcdefghi'[f]}{r} on its way to "
                                  f"{'abcdefghi'[file]}{rank} ({self.where()})")
            if f != file:
                axis, want = RIGHT, 1 if file > f else -1
                button = RIGHT if want == self._axis[RIGHT] else LEFT
            else:
                axis, want = UP, 1 if rank > r else -1
                button = UP if want == self._axis[UP] else DOWN
            before = self.frames
            self.press(button)
            f2, r2 = self.cursor()
            moved = (f2 - f) if axis == RIGHT else (r2 - r)
            if moved == 0:
                stalled += self.frames - before
                continue
            stalled = 0
            if moved == -want:             # this axis runs the other way on screen
                self._axis[axis] = -self._axis[axis]

    def press_until(self, buttons: int, predicate: Callable[["Console"], object], max_frames: int = 120,
                    what: str | None = None) -> None:
        """Press (and release) `buttons` until predicate(self) holds; for
        presses the ROM may ignore for a moment.  Raises WaitTimeout."""
        start = self.frames
        while True:
            self.press(buttons)
            if predicate(self):
                return
            if self.frames - start > max_frames:
                raise WaitTimeout(f"{what or buttons_text(buttons)}: no effect after "
                                  f"{self.frames - start} frames ({self.where()})")

    def play_move(self, iccs: str, wait: bool = True, max_frames: int = 120, settle: int = 10) -> None:
        """Play a move with the pad: cursor to the from-square, A (pick up:
        ui_sel becomes that square), cursor to the to-square, A (move).  With
        `wait`, waits until game_ply (or eng_side) changes, raising WaitTimeout
        if the move was refused, then `settle` frames more.  It first waits
        for a human's turn (wait_human_turn), so moves can follow each other;
        call wait_human_turn() to see the computer's reply."""
        m = re.fullmatch(r"([a-i])([0-9])([a-i])([0-9])", iccs.strip().lower())
        if not m:
            raise ValueError(f"'{iccs}' is not an ICCS move like h2e2")
        ff, fr, tf, tr = "abcdefghi".index(m[1]), int(m[2]), "abcdefghi".index(m[3]), int(m[4])
        self.wait_human_turn()
        before = self.word("game_ply") if self.has("game_ply") else self.byte("eng_side")
        self.move_cursor_to(ff, fr)
        if self.has("ui_sel"):
            self.press_until(A, lambda c: c.byte("ui_sel") == square(ff, fr), 60,
                             f"A on {m[1]}{m[2]} (pick up for {iccs})")
        else:
            self.press(A)
        self.move_cursor_to(tf, tr)
        self.press(A)
        if wait:
            now = (lambda c: c.word("game_ply")) if self.has("game_ply") else (lambda c: c.byte("eng_side"))
            self.wait_until(lambda c: now(c) != before, max_frames, f"move {iccs} accepted")
            self.wait_frames(settle)


__all__ = ["Console", "Snapshot", "EmulatorCrashed", "WaitTimeout", "BoardStateError",
           "buttons_text",
           "A", "B", "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT",
           "screen_names"]
