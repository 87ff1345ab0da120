"""`python -m tools.build_rom`: build the cartridge rom/xiangqi.nes (tools/rom/build.py)."""
import sys

from tools.rom.build import main

if __name__ == "__main__":
    sys.exit(main())
