"""`python -m tools.romengine`: the ROM's engine under py65: perft, perft-suite, result, search, eval (tools/nes/cli.py)."""
import sys

from tools.nes.cli import engine_main as main

if __name__ == "__main__":
    sys.exit(main())
