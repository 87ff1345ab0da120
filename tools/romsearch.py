"""`python -m tools.romsearch`: the ROM's evaluation and search under py65 (tools/nes/cli.py)."""
import sys

from tools.nes.cli import search_main as main

if __name__ == "__main__":
    sys.exit(main())
