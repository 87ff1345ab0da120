"""Build rom/xiangqi.nes from assets/*.png and asm/*.s.

Usage (from anywhere; paths are relative to the repository root):
    python -m tools.build_rom                      # our assembler (tools/asm)
    python -m tools.build_rom --assembler ca65     # cc65's ca65 + ld65
    python -m tools.build_rom --assembler both     # both, and insist they agree

Steps:
  0. tools/rom/gen_tables.py writes the engine's tables and constants from
     reference_py and config/*.yaml into build/gen/*.inc.  A YAML error, or
     a value the cartridge cannot hold (its RAM, its banks: gen_tables links
     the ROM in memory to know), stops the build with its file:line message;
     nothing is written.
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

Every output (the ROM, its map, listing and label files; ld65's map and
labels in build/) is written to a temporary folder beside its place and
moved into place only when the whole build is complete and checked (with
--assembler both: only when the two ROMs agree), so a failed build never
leaves a partial or invalid ROM, nor a map that does not match the ROM.
An output path that is a directory, or lies under a file, is refused before
any work.  Errors are one line on stderr (a file:line for a YAML or source
error) and the exit status is 1.  The build is deterministic: building twice
gives the same SHA-256.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:        # allow `python tools/rom/build.py`
    sys.path.insert(0, str(ROOT))

from tools.rom import chr as chrtool     # noqa: E402
from tools.rom import files              # noqa: E402
from tools.rom import gen_book           # noqa: E402
from tools.rom import gen_puzzles        # noqa: E402
from tools.rom.files import BuildError   # noqa: E402
from tools.rom import gen_tables         # noqa: E402
from reference_py.config import ConfigError  # noqa: E402
from tools.asm import AsmError  # noqa: E402
from tools.atomic import check_target, write_atomic  # noqa: E402
from tools.nes.cartridge import CartridgeError, Header  # noqa: E402

ASM_DIR = files.ASM_DIR
BUILD_DIR = ROOT / "build"
GEN_DIR = BUILD_DIR / "gen"           # generated includes (tools/rom/gen_tables.py)
INCLUDE_DIRS = ["asm", "build/gen"]   # -I for both assemblers, in this order
CONFIG = files.LINK_CONFIG
DEFAULT_ROM = files.ROM
CHR_SOURCES = [("assets/bg.png", "build/bg.chr"),          # pattern table $0000
               ("assets/sprites.png", "build/sprites.chr")]  # pattern table $1000
BOARD = "UxROM"                       # the cartridge asm/header.s declares
CHR_RAM_SIZE = 8192


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
        lines = [ln.strip() for ln in (r.stderr.strip() or r.stdout.strip()).splitlines() if ln.strip()]
        raise BuildError(f"{what}: {'; '.join(lines) or f'failed (exit status {r.returncode})'}")
    return r.stdout


def build_chr() -> None:
    for src, dst in CHR_SOURCES:
        try:
            data = chrtool.convert_file(ROOT / src)
        except chrtool.ChrError as exc:
            raise BuildError(str(exc)) from None
        if len(data) != 4096:
            raise BuildError(f"{src}: gives {len(data)} bytes of CHR, expected 4096 (a 128x128 sheet)")
        target = ROOT / dst
        if not target.is_file() or target.read_bytes() != data:   # (unchanged files keep their mtimes)
            write_atomic(target, data)


def build_tables() -> None:
    try:
        gen_tables.generate(GEN_DIR)
        gen_book.generate(GEN_DIR)
        gen_puzzles.generate(GEN_DIR)
    except (ConfigError, AsmError, gen_book.BookError, gen_book.BookTooBig, gen_puzzles.PuzzleError) as exc:
        raise BuildError(str(exc)) from None


def include_args() -> list[str]:
    out = []
    for d in INCLUDE_DIRS:
        out += ["-I", d]
    return out


def sources() -> list[Path]:
    """Every asm/**/*.s, sorted by path: the link order."""
    srcs = files.asm_sources()
    if not srcs:
        raise BuildError(f"no sources in {rel(ASM_DIR)}")
    return srcs


def check_output(rom: Path) -> None:
    """Refuse, before any work, a ROM path the outputs cannot be put at: a
    directory, a path under something that is not a directory, a folder
    where no file can be created."""
    if rom.is_dir():
        raise BuildError(f"{rel(rom)}: is a directory (give the ROM's file name)")
    for parent in rom.parents:
        if parent.exists():
            if not parent.is_dir():
                raise BuildError(f"{rel(rom)}: {rel(parent)} is not a directory")
            break
    try:
        check_target(rom)
    except OSError as exc:
        raise BuildError(f"cannot write {rel(rom)}: {exc.strerror}") from None


class Staged:
    """Outputs written to a temporary folder beside their final place, put in
    place together only when everything is built and checked; a folder the
    stage had to create is removed again if nothing was put in it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.created = [p for p in (folder, *folder.parents) if not p.exists()]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._tmp = tempfile.TemporaryDirectory(prefix=".build-", dir=folder)
        except OSError as exc:
            raise BuildError(f"cannot write in {rel(folder)}: {exc.strerror}") from None
        self.dir = Path(self._tmp.name)
        self.committed = False

    def commit(self) -> None:
        """Move every staged file into the folder (renames on one file
        system), each target checked first so that none fails half-way."""
        staged = sorted(self.dir.iterdir())
        for p in staged:
            if (self.folder / p.name).is_dir():
                raise BuildError(f"{rel(self.folder / p.name)}: is a directory")
        for p in staged:
            os.replace(p, self.folder / p.name)
        self.committed = True

    def close(self) -> None:
        self._tmp.cleanup()
        if not self.committed:
            for p in self.created:          # deepest first
                try:
                    p.rmdir()
                except OSError:
                    break


def link_ours(rom: Path, stage: Staged) -> tuple[str, str]:
    """Link with tools.asm into `stage`: the ROM, its map, listing and label
    files, the ROM checked.  Returns its SHA-256 and the memory report."""
    out = stage.dir / rom.name
    stem = out.with_suffix("")
    cmd = [sys.executable, "-m", "tools.asm", *map(rel, sources()), *include_args(),
           "-C", rel(CONFIG), "-o", str(out), "--nl",
           "--mlb", str(stem) + ".mlb", "--map", str(stem) + ".map.json",
           "-l", str(stem) + ".lst"]
    report = run(cmd, "python -m tools.asm")
    return check_rom(out, rom), report


def link_ca65(out: Path, shown: Path, build_stage: Staged) -> str:
    """Assemble with ca65 and link with ld65 into `out` (named `shown` in
    messages; the objects, map and labels into `build_stage`, for build/).
    Returns the ROM's SHA-256."""
    objs = []
    for src in sources():
        obj = build_stage.dir / (src.stem + ".o")
        run(["ca65", *include_args(), rel(src), "-o", str(obj)], f"ca65 {rel(src)}")
        objs.append(str(obj))
    run(["ld65", "-C", rel(CONFIG), "-o", str(out), "-m", str(build_stage.dir / "xiangqi.map"),
         "-Ln", str(build_stage.dir / "xiangqi.labels"), *objs], "ld65")
    return check_rom(out, shown)


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


def build(assembler: str = "ours", rom: Path = DEFAULT_ROM, report: TextIO | None = None,
          build_dir: Path = BUILD_DIR) -> str:
    """Build the ROM; returns its SHA-256.  Raises BuildError: nothing is
    put in place unless the whole build passed.  Our linker's memory report
    goes to `report` (default: standard output).  ca65/ld65's objects, map
    and labels go to `build_dir` (default build/; a test building a private
    ROM gives its own folder, so builds side by side share no outputs)."""
    rom = Path(rom)
    if not rom.is_absolute():
        rom = ROOT / rom
    if assembler not in ("ours", "ca65", "both"):
        raise BuildError(f"unknown assembler {assembler!r}")
    check_output(rom)
    try:
        build_chr()             # first: the tables' fit check links the ROM, tiles included
        build_tables()
        return _link(assembler, rom, report or sys.stdout, Path(build_dir))
    except OSError as exc:
        name = rel(Path(exc.filename)) if exc.filename else rel(rom)
        raise BuildError(f"cannot write {name}: {exc.strerror}") from None


def _link(assembler: str, rom: Path, out: TextIO, build_dir: Path) -> str:
    stages: list[Staged] = []
    try:
        stage = Staged(rom.parent)
        stages.append(stage)
        report = ""
        if assembler == "ours":
            digest, report = link_ours(rom, stage)
        else:
            build_stage = Staged(build_dir)
            stages.append(build_stage)
            if assembler == "ca65":
                digest = link_ca65(stage.dir / rom.name, rom, build_stage)
            else:
                ref = build_dir / "xiangqi.ca65.nes"
                want = link_ca65(build_stage.dir / ref.name, ref, build_stage)
                digest, report = link_ours(rom, stage)
                if digest != want:
                    a, b = (build_stage.dir / ref.name).read_bytes(), (stage.dir / rom.name).read_bytes()
                    first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
                    build_stage.commit()
                    raise BuildError(f"tools.asm and ca65/ld65 differ (first at file offset ${first:04X}); "
                                     f"{rel(rom)} is left as it was, the ca65 build is in {rel(ref)}")
            build_stage.commit()
        stage.commit()
        out.write(report)  # ours: RAM by segment, PRG used/free per bank, CHR, header
        return digest
    finally:
        for st in reversed(stages):
            st.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.build_rom",
                                 description="Build rom/xiangqi.nes from assets/ and asm/.")
    ap.add_argument("--assembler", choices=("ours", "ca65", "both"), default="ours",
                    help="ours = python -m tools.asm (default); ca65 = cc65's ca65+ld65; "
                         "both = build with each and require identical bytes")
    ap.add_argument("-o", "--output", default=str(DEFAULT_ROM), help="ROM path (default rom/xiangqi.nes)")
    args = ap.parse_args(argv)
    rom = Path(args.output) if Path(args.output).is_absolute() else ROOT / args.output
    try:
        digest = build(args.assembler, rom)
    except BuildError as exc:
        print(f"build_rom.py: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(f"{rel(rom)}: {rom.stat().st_size} bytes, sha256 {digest} ({args.assembler})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
