"""Where the cartridge's inputs and outputs live, and whether it is stale.

    python -m tools.rom.files        # the ROM's inputs, one line, for the Makefile

The one list of the files rom/xiangqi.nes is built from: the Makefile's
ROM_DEP asks for it, and RomEngine and the emulator tests rebuild the ROM
when one of them is newer than the ROM or its map.  Standard library only:
the Makefile runs it before the virtual environment exists.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
ROM = ROOT / "rom" / "xiangqi.nes"
MAP = ROOT / "rom" / "xiangqi.map.json"

# Glob patterns relative to ROOT: the sources, the art, the tuners' YAML, the
# reference the tables come from, and the builder's own code.
ROM_INPUTS = (
    "asm/**/*.s", "asm/**/*.inc", "asm/*.cfg",
    "assets/*.png",
    "config/*.yaml", "config/book.checked.json", "config/bitbase_*.bin",
    "reference_py/*.py",
    "tools/asm/*.py",
    "tools/build_rom.py", "tools/atomic.py",
    "tools/rom/build.py", "tools/rom/chr.py", "tools/rom/gen_tables.py", "tools/rom/gen_book.py",
    "tools/rom/files.py",
)


ASM_DIR = ROOT / "asm"
LINK_CONFIG = ASM_DIR / "xiangqi.cfg"   # the ld65 linker config: memory areas and segments


class BuildError(Exception):
    """The ROM could not be built; the message says where and why."""


def asm_sources() -> list[Path]:
    """Every asm/**/*.s, sorted by path: the link order."""
    return sorted(ASM_DIR.rglob("*.s"))


def input_files() -> list[Path]:
    """Every file the ROM is built from, sorted."""
    return sorted({p for pat in ROM_INPUTS for p in ROOT.glob(pat) if p.is_file()})


def is_stale(rom: Path = ROM, map_path: Path = MAP) -> bool:
    """True if the ROM or its map is missing or older than one of its inputs."""
    if not rom.exists() or not map_path.exists():
        return True
    built = min(rom.stat().st_mtime, map_path.stat().st_mtime)
    return any(p.stat().st_mtime > built for p in input_files())


@contextlib.contextmanager
def build_lock() -> Iterator[None]:
    """Held while a process rebuilds a stale ROM: an exclusive flock on the
    repository's folder (its own descriptor: taking the lock writes no file,
    so a failed build still leaves the tree as it was).  Test processes side
    by side (`pytest -n`) that find the ROM stale at once build it one after
    the other: the first builds, the rest find it fresh once they hold it."""
    fd = os.open(ROOT, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)                        # (closing releases the lock)


def ensure_rom() -> None:
    """Build rom/xiangqi.nes (and its map) with our assembler if stale,
    quietly (a driver's output stays its own), under build_lock().  Raises
    build.BuildError saying that the rebuild failed, and why."""
    if not is_stale():
        return
    with build_lock():
        if not is_stale():                  # another process built it while this one waited
            return
        import io
        from tools.rom import build
        try:
            build.build("ours", ROM, report=io.StringIO())
        except build.BuildError as exc:
            raise build.BuildError(f"{ROM.relative_to(ROOT)} is older than its inputs and rebuilding it "
                                   f"failed: {exc}") from None


def main() -> int:
    print(" ".join(str(p.relative_to(ROOT)) for p in input_files()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
