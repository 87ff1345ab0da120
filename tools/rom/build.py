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
  3. Check the result is the cartridge's complete NES 2.0 file (UxROM, the
     PRG ROM the header declares, no CHR ROM, 8 KiB CHR-RAM, no battery)
     before anything is put in place, and print its size and SHA-256.

Every output (the ROM, its map, listing and label files) is written to a
temporary folder beside the ROM and moved into place only when complete and
checked, so a failed build never leaves a partial or invalid ROM, nor a map
that does not match the ROM.  Errors are
printed on stderr and the exit status is 1.  The build is deterministic:
building twice gives the same SHA-256.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # allow `python tools/rom/build.py`
    sys.path.insert(0, str(ROOT))

from tools.rom import chr as chrtool     # noqa: E402
from tools.rom import files              # noqa: E402
from tools.rom import gen_book           # noqa: E402
from tools.rom import gen_tables         # noqa: E402
from reference_py.config import ConfigError  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402
from tools.nes.cartridge import CartridgeError, Header  # noqa: E402

ASM_DIR = ROOT / "asm"
BUILD_DIR = ROOT / "build"
GEN_DIR = BUILD_DIR / "gen"           # generated includes (tools/rom/gen_tables.py)
INCLUDE_DIRS = ["asm", "build/gen"]   # -I for both assemblers, in this order
CONFIG = ASM_DIR / "xiangqi.cfg"
DEFAULT_ROM = files.ROM
CHR_SOURCES = [("assets/bg.png", "build/bg.chr"),          # pattern table $0000
               ("assets/sprites.png", "build/sprites.chr")]  # pattern table $1000
BOARD = "UxROM"                       # the cartridge asm/header.s declares
CHR_RAM_SIZE = 8192


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
        gen_book.generate(GEN_DIR)
    except (ConfigError, gen_book.BookError, gen_book.BookTooBig) as exc:
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


def put_in_place(staged: list[Path], folder: Path) -> None:
    """Moves the staged outputs into `folder` (same file system: renames)."""
    folder.mkdir(parents=True, exist_ok=True)
    for p in staged:
        os.replace(p, folder / p.name)


def link_ours(rom: Path) -> str:
    """Link with tools.asm; the ROM and its side files are checked, then
    moved into place.  Returns the ROM's SHA-256."""
    rom.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".build-", dir=rom.parent) as tmp:
        out = Path(tmp) / rom.name
        stem = out.with_suffix("")
        cmd = [sys.executable, "-m", "tools.asm", *map(rel, sources()), *include_args(),
               "-C", rel(CONFIG), "-o", str(out), "--nl",
               "--mlb", str(stem) + ".mlb", "--map", str(stem) + ".map.json",
               "-l", str(stem) + ".lst"]
        report = run(cmd, "python -m tools.asm")
        digest = check_rom(out, rom)
        put_in_place(sorted(Path(tmp).iterdir()), rom.parent)
    sys.stdout.write(report)  # the memory report: RAM by segment, PRG per bank, CHR, header
    return digest


def link_ca65(rom: Path) -> str:
    """Link with ca65 + ld65 (map and labels in build/); returns the SHA-256."""
    BUILD_DIR.mkdir(exist_ok=True)
    objs = []
    for src in sources():
        obj = BUILD_DIR / (src.stem + ".o")
        run(["ca65", *include_args(), rel(src), "-o", rel(obj)], f"ca65 {rel(src)}")
        objs.append(rel(obj))
    rom.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".build-", dir=rom.parent) as tmp:
        out = Path(tmp) / rom.name
        run(["ld65", "-C", rel(CONFIG), "-o", str(out), "-m", "build/xiangqi.map",
             "-Ln", "build/xiangqi.labels", *objs], "ld65")
        digest = check_rom(out, rom)
        put_in_place([out], rom.parent)
    return digest


def check_rom(path: Path, name: Path | None = None) -> str:
    """The file is the cartridge asm/header.s declares, complete: an NES 2.0
    header for UxROM with CHR-RAM and no battery, and exactly the PRG ROM the
    header counts.  Returns its SHA-256; raises BuildError naming `name`."""
    data = path.read_bytes()
    shown = rel(name or path)
    try:
        h = Header.parse(data, shown)
    except CartridgeError as exc:
        raise BuildError(str(exc)) from None
    want = {"an NES 2.0 header": (h.nes2, True), "board": (h.board, BOARD),
            "CHR ROM bytes": (h.chr_size, 0), "CHR-RAM bytes": (h.chr_ram_size, CHR_RAM_SIZE),
            "battery": (h.battery, False), "trainer": (h.trainer, False),
            "file size": (len(data), 16 + h.prg_size)}
    bad = [f"{k} {got} (want {exp})" for k, (got, exp) in want.items() if got != exp]
    if bad:
        raise BuildError(f"{shown}: not the cartridge asm/header.s declares: {'; '.join(bad)}")
    return hashlib.sha256(data).hexdigest()


def build(assembler: str = "ours", rom: Path = DEFAULT_ROM) -> str:
    """Build the ROM; returns its SHA-256.  Raises BuildError."""
    rom = Path(rom)
    if not rom.is_absolute():
        rom = ROOT / rom
    build_tables()
    build_chr()
    if assembler == "ours":
        return link_ours(rom)
    if assembler == "ca65":
        return link_ca65(rom)
    if assembler == "both":
        ref = BUILD_DIR / "xiangqi.ca65.nes"
        want = link_ca65(ref)
        digest = link_ours(rom)
        if digest != want:
            a, b = ref.read_bytes(), rom.read_bytes()
            first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            rom.unlink()
            raise BuildError(f"tools.asm and ca65/ld65 differ (first at file offset ${first:04X}); "
                             f"ca65 build kept in {rel(ref)}")
        return digest
    raise BuildError(f"unknown assembler {assembler!r}")


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
    size = (ROOT / args.output if not Path(args.output).is_absolute() else Path(args.output)).stat().st_size
    print(f"{rel(Path(args.output))}: {size} bytes, sha256 {digest} ({args.assembler})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
