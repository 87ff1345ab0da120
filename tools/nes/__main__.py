"""`python -m tools.nes`: host commands on the cartridge's state.

    python -m tools.nes fen RAM.bin [--map rom/xiangqi.map.json]

`fen` prints the FEN (side to move included) of the position on the
cartridge from a 2 KiB RAM image: FCEUX's hex editor (File > Dump to File >
RAM), Mesen's memory tools (export of the CPU's internal RAM) or cynes'
RAM all write $0000-$07FF as 2,048 bytes.  The addresses come from the
build's linker map (tools/nes/ramfen.py), so use the map of the ROM that
made the dump.  Errors (a wrong size, RAM that holds no position, no map):
one `error:` line on stderr and exit status 2, reference_py/cli.py's policy.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference_py.cli import run_cli
from tools.nes.linkmap import LinkMapError
from tools.nes.ramfen import NotAPosition, fen_of_ram_file
from tools.rom.files import MAP


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the command under run_cli's error policy."""
    p = argparse.ArgumentParser(prog="python -m tools.nes", description="Host commands on the cartridge's state")
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fen", help="the FEN of the position in a 2 KiB RAM image")
    f.add_argument("ram", type=Path, help="the RAM image ($0000-$07FF, 2,048 bytes)")
    f.add_argument("--map", type=Path, default=MAP, help=f"the build's linker map (default {MAP.name} of rom/)")
    args = p.parse_args(argv)

    def body() -> int:
        print(fen_of_ram_file(args.ram, args.map))
        return 0

    return run_cli(body, bad_input=(NotAPosition, LinkMapError))


if __name__ == "__main__":
    sys.exit(main())
