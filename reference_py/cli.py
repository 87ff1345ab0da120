"""What every command line of the project shares: the error policy, the
perft-suite file format and the position a `FEN --moves ...` pair names.

`python -m reference_py` and the ROM's drivers (`python -m tools.romengine`,
`python -m tools.romsearch`) offer the same commands; these helpers live
here, apart from any one command line, so each CLI imports them without
importing another CLI.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

from .config import ConfigError
from .fen import FenError, parse_fen
from .notation import NotationError
from .position import Position
from .rules import Game


class UsageError(Exception):
    """Bad input on the command line or in a file it names."""


BAD_INPUT: tuple[type[BaseException], ...] = (FenError, NotationError, UsageError, ConfigError)


def run_cli(body: Callable[[], int], bad_input: tuple[type[BaseException], ...] = (),
            faults: tuple[type[BaseException], ...] = (), fault_prefix: str = "") -> int:
    """Run a command body with the project's error policy: bad input (a FEN,
    a move, a usage or config error, plus `bad_input`) is one `error:` line
    on stderr and exit status 2; one of `faults` (a failed run of the code
    under test) is one `error: <fault_prefix>...` line and exit status 1;
    never a traceback."""
    try:
        return body()
    except BAD_INPUT + bad_input as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except faults as exc:
        print(f"error: {fault_prefix}{exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


SEED_MAX = 0xFFFF                   # the noise LFSR is 16 bits in both engines


def seed_arg(text: str) -> int:
    """argparse type of --seed: 0..SEED_MAX, refused (not wrapped) outside."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0 <= seed <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"{seed} is out of range 0..{SEED_MAX} (the noise generator has 16 bits)")
    return seed


def read_text(path: Path) -> str:
    """A UTF-8 text file named on the command line.  Raises UsageError
    naming the file (and the line of a byte that is not UTF-8)."""
    try:
        if path.exists() and not path.is_file():
            raise UsageError(f"{path}: cannot read: not a regular file")
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UsageError(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02X})") from None


def parse_suite(path: Path) -> list[tuple[int, str, list[int]]]:
    """Lines `FEN ; n1 n2 ...`, '#' comments; returns (line number, FEN, counts)."""
    text = read_text(path)
    out = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ";" not in line:
            raise UsageError(f"{path}:{no}: expected 'FEN ; n1 n2 ...'")
        fen, counts = line.split(";", 1)
        try:
            nums = [int(x) for x in counts.split()]
        except ValueError:
            raise UsageError(f"{path}:{no}: the counts after ';' must be integers") from None
        if not nums:
            raise UsageError(f"{path}:{no}: no counts after ';'")
        try:
            parse_fen(fen.strip())
        except FenError as exc:
            raise UsageError(f"{path}:{no}: bad FEN: {exc}") from None
        out.append((no, fen.strip(), nums))
    return out


def game_position(fen: str, moves: list[str] | None = None, past_the_end: bool = False) -> Position:
    """The position after `moves` (ICCS or WXF) from `fen`, with its history
    (the keys and check flags the repetition rules need).  A move after the
    game has ended is refused, unless `past_the_end` (the engines' tests
    search such positions: a root that repeats a third time, say)."""
    return game_after(fen, moves, past_the_end).pos


def game_after(fen: str, moves: list[str] | None = None, past_the_end: bool = False) -> Game:
    """The game after `moves` (ICCS or WXF) from `fen`, refereed by
    reference_py.rules; see game_position() for `past_the_end`."""
    game = Game(fen)
    for i, text in enumerate(moves or [], 1):
        over = None if past_the_end else game.outcome()
        if over is not None:
            raise UsageError(f"move {i} of --moves ('{text}'): the game is over "
                             f"{'at the start' if i == 1 else f'after move {i - 1}'}: {over.describe()}")
        try:
            game.play_text(text)
        except NotationError as exc:
            raise UsageError(f"move {i} of --moves: {exc}") from None
    return game
