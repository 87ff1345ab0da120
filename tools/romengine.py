"""`python -m tools.romengine`: the ROM's engine under py65: perft and perft-suite (tools/nes/engine.py)."""
import sys

from tools.nes.engine import main

if __name__ == "__main__":
    sys.exit(main())
