"""Build rom/xiangqi.nes from assets/*.png and asm/*.s.

Usage (from anywhere; paths are relative to the repository root):
    python -m tools.build_rom                      # our assembler (tools/asm)
    python -m tools.build_rom --assembler ca65     # cc65's ca65 + ld65
    python -m tools.build_rom --assembler both     # both, and insist they agree

Steps:
  0. tools/rom/gen_tables.py writes the engine's tables and constants from
     reference_py and config/*.yaml into build/gen/*.inc (a YAML error
     stops the build with its file:line message; nothing is written).
  1. assets/bg.png -> build/bg.chr, assets/sprites.png -> build/sprites.chr
     (tools/rom/chr.py; asm/tiles/chr.s .incbins them into the CHR ROM).
  2. Assemble and link asm/**/*.s (sorted by path: the link order) with
     asm/xiangqi.cfg.
       ours: python -m tools.asm asm/**/*.s -I asm -I build/gen -C asm/xiangqi.cfg -o ROM
             plus rom/xiangqi.mlb, rom/xiangqi.map.json (map), rom/xiangqi.lst
             and the FCEUX label files rom/xiangqi.nes.*.nl; prints the memory
             report (RAM by segment, PRG used/free per bank, CHR, header)
       ca65: ca65 -I asm -I build/gen asm/X.s -o build/X.o for each file, then
             ld65 -C asm/xiangqi.cfg -o ROM -m build/xiangqi.map
             -Ln build/xiangqi.labels build/*.o
  3. Check the result is a complete iNES file (16 + 32768 + 8192 bytes, NROM)
     and print its size and SHA-256.

Every output goes to a temporary file first and is renamed into place only
when complete, so a failed build never leaves a partial ROM.  Errors are
printed on stderr and the exit status is 1.  The build is deterministic:
building twice gives the same SHA-256.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # allow `python tools/rom/build.py`
    sys.path.insert(0, str(ROOT))

from tools.rom import chr as chrtool     # noqa: E402
from tools.rom import files              # noqa: E402
from tools.rom import gen_tables         # noqa: E402
from reference_py.config import ConfigError  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402

ASM_DIR = ROOT / "asm"
BUILD_DIR = ROOT / "build"
GEN_DIR = BUILD_DIR / "gen"           # generated includes (tools/rom/gen_tables.py)
INCLUDE_DIRS = ["asm", "build/gen"]   # -I for both assemblers, in this order
CONFIG = ASM_DIR / "xiangqi.cfg"
DEFAULT_ROM = files.ROM
CHR_SOURCES = [("assets/bg.png", "build/bg.chr"),          # pattern table $0000
               ("assets/sprites.png", "build/sprites.chr")]  # pattern table $1000
INES_SIZE = 16 + 2 * 16384 + 8192


class BuildError(Exception):
    pass


def rel(p: Path) -> str:
    try:
        return str(Path(p).resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


def run(cmd: list[str], what: str) -> str:
    """Run a build step from the repository root; returns its stdout."""
    try:
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{what}: '{cmd[0]}' not found (for ca65/ld65: apt-get install cc65)") from None
    if r.returncode != 0:
        msg = (r.stderr.strip() or r.stdout.strip() or f"exit status {r.returncode}")
        raise BuildError(f"{what} failed:\n{msg}")
    return r.stdout


def build_chr() -> None:
    for src, dst in CHR_SOURCES:
        try:
            data = chrtool.convert_file(ROOT / src)
        except chrtool.ChrError as exc:
            raise BuildError(str(exc)) from None
        if len(data) != 4096:
            raise BuildError(f"{src}: gives {len(data)} bytes of CHR, expected 4096 (a 128x128 sheet)")
        write_atomic(ROOT / dst, data)


def build_tables() -> None:
    try:
        gen_tables.generate(GEN_DIR)
    except ConfigError as exc:
        raise BuildError(str(exc)) from None


def include_args() -> list[str]:
    out = []
    for d in INCLUDE_DIRS:
        out += ["-I", d]
    return out


def sources() -> list[Path]:
    """Every asm/**/*.s, sorted by path: the link order."""
    srcs = sorted(ASM_DIR.rglob("*.s"))
    if not srcs:
        raise BuildError(f"no sources in {rel(ASM_DIR)}")
    return srcs


def temp_path(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=final.name + ".", suffix=".tmp", dir=final.parent)
    os.close(fd)
    return Path(tmp)


def link_ours(rom: Path) -> None:
    tmp = temp_path(rom)
    try:
        stem = rom.with_suffix("")
        cmd = [sys.executable, "-m", "tools.asm", *map(rel, sources()), *include_args(),
               "-C", rel(CONFIG), "-o", str(tmp), "--nl",
               "--mlb", str(stem) + ".mlb", "--map", str(stem) + ".map.json",
               "-l", str(stem) + ".lst"]
        report = run(cmd, "python -m tools.asm")
        os.replace(tmp, rom)
        # the .nl label files are named after the output: rename them too
        for nl in rom.parent.glob(tmp.name + ".*.nl"):
            os.replace(nl, rom.parent / (rom.name + nl.name[len(tmp.name):]))
    finally:
        tmp.unlink(missing_ok=True)
    sys.stdout.write(report)  # the memory report: RAM by segment, PRG per bank, CHR, header


def link_ca65(rom: Path) -> None:
    BUILD_DIR.mkdir(exist_ok=True)
    objs = []
    for src in sources():
        obj = BUILD_DIR / (src.stem + ".o")
        run(["ca65", *include_args(), rel(src), "-o", rel(obj)], f"ca65 {rel(src)}")
        objs.append(rel(obj))
    tmp = temp_path(rom)
    try:
        run(["ld65", "-C", rel(CONFIG), "-o", str(tmp), "-m", "build/xiangqi.map",
             "-Ln", "build/xiangqi.labels", *objs], "ld65")
        os.replace(tmp, rom)
    finally:
        tmp.unlink(missing_ok=True)


def check_rom(rom: Path) -> str:
    data = rom.read_bytes()
    if len(data) != INES_SIZE or data[:4] != b"NES\x1a":
        raise BuildError(f"{rel(rom)}: {len(data)} bytes, not a {INES_SIZE}-byte NROM-256 iNES file")
    if data[4] != 2 or data[5] != 1 or (data[6] >> 4) | (data[7] & 0xF0):
        raise BuildError(f"{rel(rom)}: header is not mapper 0, 2x16 KiB PRG, 1x8 KiB CHR")
    return hashlib.sha256(data).hexdigest()


def build(assembler: str = "ours", rom: Path = DEFAULT_ROM) -> str:
    """Build the ROM; returns its SHA-256.  Raises BuildError."""
    rom = Path(rom)
    if not rom.is_absolute():
        rom = ROOT / rom
    build_tables()
    build_chr()
    if assembler == "ours":
        link_ours(rom)
    elif assembler == "ca65":
        link_ca65(rom)
    elif assembler == "both":
        ref = BUILD_DIR / "xiangqi.ca65.nes"
        link_ca65(ref)
        link_ours(rom)
        if ref.read_bytes() != rom.read_bytes():
            a, b = ref.read_bytes(), rom.read_bytes()
            first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            rom.unlink()
            raise BuildError(f"tools.asm and ca65/ld65 differ (first at file offset ${first:04X}); "
                             f"ca65 build kept in {rel(ref)}")
    else:
        raise BuildError(f"unknown assembler {assembler!r}")
    return check_rom(rom)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.build_rom",
                                 description="Build rom/xiangqi.nes from assets/ and asm/.")
    ap.add_argument("--assembler", choices=("ours", "ca65", "both"), default="ours",
                    help="ours = python -m tools.asm (default); ca65 = cc65's ca65+ld65; "
                         "both = build with each and require identical bytes")
    ap.add_argument("-o", "--output", default=str(DEFAULT_ROM), help="ROM path (default rom/xiangqi.nes)")
    args = ap.parse_args(argv)
    try:
        digest = build(args.assembler, Path(args.output))
    except BuildError as exc:
        print(f"build_rom.py: error: {exc}", file=sys.stderr)
        return 1
    print(f"{rel(Path(args.output))}: {INES_SIZE} bytes, sha256 {digest} ({args.assembler})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
