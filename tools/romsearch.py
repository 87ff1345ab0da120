"""`python -m tools.romsearch`: the ROM's evaluation and search under py65 (tools/nes/search.py)."""
import sys

from tools.nes.search import main

if __name__ == "__main__":
    sys.exit(main())
