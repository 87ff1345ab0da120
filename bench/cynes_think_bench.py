"""How long the cartridge thinks, in real NES frames, measured in cynes.

    python -m bench.cynes_think_bench [--replies 6] [--levels Novice,Master]

For each level: power on, choose the level on the title menu with the pad,
start a game as Red, and play Red's moves (the reference engine's Novice
choice, so the game is the same for every level up to the computer's
replies).  Each of the computer's replies is timed from the frame ui_busy
is set to the frame it is cleared, with the NMIs running as on hardware.
It also checks that nmi_count advances by exactly one per frame while the
engine thinks (no dropped frames) and that every reply is legal.
NES seconds = frames / 60.0988 (NTSC).  Writes a markdown table to stdout
and, with --out, to a file.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.nes.console import DOWN, RIGHT, START, Console  # noqa: E402
from tools.nes.timing import NTSC_FPS  # noqa: E402
from tools.rom.files import ROM  # noqa: E402
from reference_py.board import move_iccs  # noqa: E402
from reference_py.search import levels, search  # noqa: E402


def start_game(con: Console, level: int) -> None:
    con.wait_screen(con.const("UI_SCREEN_TITLE"), 300)
    con.wait_frames(30)
    con.press(DOWN)                          # the LEVEL item
    for _ in range(level):
        con.press(RIGHT)
    assert con.byte("ui_level") == level, "the level menu did not take"
    con.press(START)
    con.wait_screen(con.const("UI_SCREEN_PLAY"), 300)


def time_replies(level: int, replies: int) -> tuple[list[int], int]:
    """Frames of each of the computer's replies, and the dropped NMIs seen."""
    con = Console(ROM)
    start_game(con, level)
    frames, dropped = [], 0
    novice = levels()[0]
    for _ in range(replies):
        con.wait_human_turn()
        pos = con.position()
        move = search(pos, novice, seed=1).move
        con.play_move(move_iccs(move), wait=True, settle=0)
        con.wait_until(lambda c: c.busy(), 120, "the computer starts thinking")
        n, last = 0, con.byte("nmi_count")
        while con.busy():
            con.step(1)
            now = con.byte("nmi_count")
            dropped += ((now - last) & 0xFF) != 1
            last = now
            n += 1
        frames.append(n)
        con.wait_human_turn(600)             # the reply blinks, then is played
        assert con.position().side == 0, "the computer did not reply"
    return frames, dropped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replies", type=int, default=6)
    ap.add_argument("--levels", default=",".join(l.name for l in levels()))
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    names = [l.name for l in levels()]
    lines = ["| level | replies | median s | max s | dropped frames |", "|---|---:|---:|---:|---:|"]
    for name in args.levels.split(","):
        frames, dropped = time_replies(names.index(name), args.replies)
        secs = [f / NTSC_FPS for f in frames]
        lines.append(f"| {name} | {len(frames)} | {statistics.median(secs):.2f} | {max(secs):.2f} | {dropped} |")
        print(lines[-1], file=sys.stderr)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
