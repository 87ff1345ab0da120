"""Drive the ROM in FCEUX (Debian's fceux, Qt build) the way tools/nes/console.py drives cynes.

    with FceuxConsole(rom) as con:            # Xvfb + FCEUX, both ended on exit
        con.wait_until(lambda c: c.byte("nmi_count") >= 16, 600, "the title")
        con.press(A)
        con.play_move("h2e2")                  # every Console method works

FCEUX runs emu_tests/fceux_server.lua (--loadlua), which answers one command
per line over two FIFOs: run N frames with the pads held, read or write
bytes on the CPU bus, dump the screen, reset.  `FceuxNES` wraps that
protocol in the small part of cynes.NES that `tools.nes.console.Console` uses
(nes[addr], step, controller, has_crashed, reset), so `FceuxConsole` is a
Console: the same bounded waits, cursor moves and board checks, RAM read by
name from the map JSON.  FCEUX runs as fast as it can (emu.speedmode
"maximum"), under its own Xvfb, with a fresh HOME and no sound.

Every reply is awaited with a timeout; a timeout, an error reply or FCEUX
exiting raises `ProgramFailed` with FCEUX's log.
"""
from __future__ import annotations

import errno
import os
import select
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from emu_tests.headless import ProgramFailed, XServer, find_program, log_tail, start_program, stop_process
from tools.nes.console import Console
from tools.rom.files import ROM

LUA_SERVER = Path(__file__).resolve().parent / "fceux_server.lua"
SCREEN_W, SCREEN_H = 256, 240
START_TIMEOUT = 60.0        # FCEUX up and the Lua script connected (0.1-0.3 s here)
REPLY_TIMEOUT = 20.0        # one command, plus FRAME_TIMEOUT per frame it runs
FRAME_TIMEOUT = 0.02        # FCEUX runs about 700 frames a second here
# FCEUX's messages when it cannot load a ROM (fceu.cpp, ines.cpp, unif.cpp):
# it then keeps running without the Lua script, so they end the wait at once.
LOAD_ERRORS = ("Error opening", "An error occurred while loading", "Unknown ROM file format",
               "is not supported at all", "Unable to allocate", "Error reading UNIF")


class FceuxNES:
    """The part of cynes.NES that Console uses, backed by FCEUX.

    nes[addr] reads a byte on the CPU bus, nes[addr] = v writes one,
    step(n) runs n frames with `controller` held (cynes' bit layout: pad 1 in
    bits 0-7, A = $80 .. Right = $01; pad 2 in bits 8-15) and returns None
    (the picture is fetched on demand: `screen()`).  FCEUX tells a Lua script
    nothing about a jammed CPU, so has_crashed stays False and a crash shows
    as a wait that times out."""

    has_crashed = False

    def __init__(self, rom: Path) -> None:
        self.controller = 0
        self.dir = Path(tempfile.mkdtemp(prefix="xiangqi-fceux-"))
        self.log = self.dir / "fceux.log"
        self.proc = None
        self.x: XServer | None = None
        self._cmd_fd = self._reply_fd = -1
        self._buf = b""
        try:
            self._start(rom)
        except BaseException:
            self.close()
            raise

    def _start(self, rom: Path) -> None:
        exe = find_program("fceux", "fceux")
        # A copy of the ROM alone in the work directory: FCEUX loads debug
        # symbols (*.nl) and writes saves beside the ROM it opens.
        rom_copy = self.dir / rom.name
        shutil.copyfile(rom, rom_copy)
        cmd_path, reply_path = self.dir / "to_fceux", self.dir / "from_fceux"
        os.mkfifo(cmd_path)
        os.mkfifo(reply_path)
        # Opened before FCEUX starts, non-blocking: no writer yet is not an error.
        self._reply_fd = os.open(reply_path, os.O_RDONLY | os.O_NONBLOCK)
        self.x = XServer.xvfb().__enter__()
        env = self.x.env(self.dir / "home")
        env.update(XIANGQI_FCEUX_IN=str(cmd_path), XIANGQI_FCEUX_OUT=str(reply_path))
        argv = [exe, "--no-config", "1", "--sound", "0", "--loadlua", str(LUA_SERVER), str(rom_copy)]
        stdbuf = shutil.which("stdbuf")     # line-buffered output: the log is readable while it runs
        self.proc = start_program([stdbuf, "-oL", "-eL", *argv] if stdbuf else argv, env, self.log)
        self._cmd_fd = self._open_writer(cmd_path)
        hello = self._reply(START_TIMEOUT, "start-up")
        if not hello.startswith("ready"):
            raise self._failed(f"FCEUX's Lua script said {hello!r} instead of 'ready'")

    def _open_writer(self, path: Path) -> int:
        """Open the command FIFO once the Lua script has opened its end."""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                os.set_blocking(fd, True)
                return fd
            except OSError as exc:
                if exc.errno != errno.ENXIO:     # ENXIO: no reader yet
                    raise
            if self.proc.poll() is not None:
                raise self._failed(f"FCEUX exited with code {self.proc.returncode} before its Lua "
                                   f"script connected")
            log = self.log.read_text(errors="replace")
            if any(error in log for error in LOAD_ERRORS):
                raise self._failed("FCEUX could not load the ROM")
            if time.monotonic() > deadline:
                raise self._failed(f"FCEUX's Lua script did not connect within {START_TIMEOUT:.0f} s")
            time.sleep(0.02)

    def _failed(self, what: str) -> ProgramFailed:
        return ProgramFailed(f"{what}\n  FCEUX's output:\n{log_tail(self.log)}")

    def _reply(self, timeout: float, what: str) -> str:
        """The next reply line; raises ProgramFailed after `timeout` seconds
        or if FCEUX closes the FIFO."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failed(f"FCEUX did not answer '{what}' within {timeout:.0f} s")
            ready, _, _ = select.select([self._reply_fd], [], [], min(left, 0.5))
            if not ready:
                if self.proc.poll() is not None:
                    raise self._failed(f"FCEUX exited with code {self.proc.returncode} during '{what}'")
                continue
            chunk = os.read(self._reply_fd, 1 << 16)
            if not chunk:                        # (select reports no end of file before a writer came)
                code = self.proc.poll()
                raise self._failed(f"FCEUX closed the connection during '{what}'"
                                   + (f" (exit code {code})" if code is not None else ""))
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode(errors="replace")

    def command(self, text: str, timeout: float = REPLY_TIMEOUT) -> str:
        """Send one command; returns what follows "ok" in the reply."""
        if self.proc is None or self._cmd_fd < 0:
            raise ProgramFailed("FCEUX is not running")
        try:
            os.write(self._cmd_fd, text.encode() + b"\n")
        except BrokenPipeError:
            raise self._failed(f"FCEUX closed the connection before '{text}'") from None
        answer = self._reply(timeout, text)
        if answer == "ok" or answer.startswith("ok "):
            return answer[3:]
        raise self._failed(f"FCEUX's Lua script answered '{text}' with: {answer}")

    # ---- the cynes.NES interface -------------------------------------------
    def step(self, frames: int) -> None:
        self.command(f"frame {frames} {self.controller & 0xFFFF}", REPLY_TIMEOUT + frames * FRAME_TIMEOUT)

    def peek(self, addr: int, n: int) -> bytes:
        return bytes.fromhex(self.command(f"peek {addr} {n}"))

    def __getitem__(self, addr: int) -> int:
        return self.peek(addr, 1)[0]

    def __setitem__(self, addr: int, value: int) -> None:
        self.command(f"poke {addr} {value & 0xFF:02x}")

    def reset(self) -> None:
        self.command("reset")

    def screen(self) -> tuple[np.ndarray, np.ndarray]:
        """The last frame: (240x256x3 RGB, 240x256 FCEUX palette indices)."""
        path = self.dir / "screen.bin"
        self.command(f"screen {path}")
        raw = np.frombuffer(path.read_bytes(), dtype=np.uint8)
        if raw.size != SCREEN_W * SCREEN_H * 4:
            raise self._failed(f"screen dump has {raw.size} bytes, expected {SCREEN_W * SCREEN_H * 4}")
        pixels = raw.reshape(SCREEN_H, SCREEN_W, 4)
        return pixels[:, :, :3].copy(), pixels[:, :, 3].copy()

    def close(self) -> None:
        """Ask FCEUX to quit, then end it, its X server and the work directory
        whatever state they are in."""
        if self.proc is not None and self.proc.poll() is None and self._cmd_fd >= 0:
            try:
                self.command("quit", 5.0)
                self.proc.wait(timeout=5.0)
            except Exception:            # ended below in any case
                pass
        for fd in (self._cmd_fd, self._reply_fd):
            if fd >= 0:
                os.close(fd)
        self._cmd_fd = self._reply_fd = -1
        stop_process(self.proc)
        self.proc = None
        if self.x is not None:
            self.x.__exit__(None, None, None)
            self.x = None
        shutil.rmtree(self.dir, ignore_errors=True)


class FceuxConsole(Console):
    """tools.nes.console.Console on FCEUX instead of cynes (see the module doc).
    A context manager: FCEUX and its Xvfb end when the `with` does."""

    def __init__(self, rom: str | Path = ROM, map_path: str | Path | None = None) -> None:
        self.bind(rom, map_path)
        self.nes = FceuxNES(self.rom)

    def __enter__(self) -> "FceuxConsole":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.nes.close()

    @property
    def log(self) -> Path:
        return self.nes.log

    def _load(self, addr: int, n: int) -> list[int]:
        """As Console's, in one round trip."""
        return list(self.nes.peek(addr, n))

    def screen(self) -> Image.Image:
        """The last frame FCEUX drew, 256x240 RGB (no overscan cropped)."""
        rgb, _ = self.nes.screen()
        self.framebuffer = rgb
        return Image.fromarray(rgb, "RGB")

    def screen_indexed(self) -> tuple[Image.Image, np.ndarray]:
        """The last frame and FCEUX's palette index of every pixel."""
        rgb, index = self.nes.screen()
        self.framebuffer = rgb
        return Image.fromarray(rgb, "RGB"), index
