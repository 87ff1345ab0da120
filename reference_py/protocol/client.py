"""A small client for an engine that speaks UCI or UCCI on its stdin/stdout:
the protocol tests drive the adapters (and Fairy-Stockfish) with it.

Lines are read by a thread into a queue, so every wait has a timeout and a
silent or dead engine fails a test with the lines it did send, never hangs.
"""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from typing import Callable, Sequence


class EngineTimeout(AssertionError):
    """The engine did not send the line awaited in time (or exited)."""


class EngineClient:
    """One engine process."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None, env: dict | None = None) -> None:
        self.argv = list(argv)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1, cwd=cwd, env=env)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []          # every line received, in order
        self.stderr: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    @staticmethod
    def _pump(stream, q: "queue.Queue[str | None]") -> None:
        for line in stream:
            q.put(line.rstrip("\n"))
        q.put(None)                         # end of output

    def _drain(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float) -> str:
        """The next line, or EngineTimeout."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineTimeout(f"{' '.join(self.argv)}: nothing in {timeout} s; last lines: {self.seen[-5:]}") from None
        if line is None:
            self.lines.put(None)
            raise EngineTimeout(f"{' '.join(self.argv)} closed its output; last lines: {self.seen[-5:]}; "
                                f"stderr: {self.stderr[-5:]}")
        self.seen.append(line)
        return line

    def until(self, match: str | Callable[[str], bool], timeout: float = 30.0) -> list[str]:
        """Lines up to and including the first that starts with `match` (or
        satisfies it), within `timeout` seconds in all."""
        test = match if callable(match) else (lambda s: s == match or s.startswith(match + " "))
        end = time.monotonic() + timeout
        got = []
        while True:
            line = self.read(max(0.0, end - time.monotonic()))
            got.append(line)
            if test(line):
                return got

    def quiet(self, seconds: float) -> list[str]:
        """Whatever arrives within `seconds` (for checks that nothing does)."""
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                got.append(self.read(left))
            except EngineTimeout:
                break
        return got

    def close(self, timeout: float = 10.0) -> int:
        """`quit`, then the exit status (killed if it does not exit in time)."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except (BrokenPipeError, OSError):
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise EngineTimeout(f"{' '.join(self.argv)} did not exit within {timeout} s of quit") from None

    def __enter__(self) -> "EngineClient":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            try:
                self.close()
            except EngineTimeout:
                pass


def bestmove(lines: list[str]) -> str | None:
    """The move of the last `bestmove` line (None for `bestmove (none)` /
    `nobestmove`)."""
    for line in reversed(lines):
        if line == "nobestmove":
            return None
        if line.startswith("bestmove "):
            move = line.split()[1]
            return None if move in ("(none)", "0000") else move
    raise AssertionError(f"no bestmove in {lines}")
