"""`python -m tools.play`: play the cartridge in a cynes window, or record it headless (tools/nes/player.py)."""
import sys

from tools.nes.player import main

if __name__ == "__main__":
    sys.exit(main())
