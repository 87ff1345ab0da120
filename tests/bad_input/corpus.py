"""The corpus of malformed inputs: every entry point, fed what a hostile user
would feed it.

Each Case runs one command (`python -m <argv>`) in a fresh copy of the
repository (tests/test_bad_input.py), after its edits to that copy, and
expects:
  * exit status `rc`;
  * every one of `words` in standard error (a file:line where the error
    has one), and one line only unless `usage` (argparse prints its usage
    line first);
  * no traceback, no hang;
  * no file of the copy changed, added or removed (no partial output, no
    temporary file left behind).

A bug found by hand becomes a case here.  Expected line numbers are read
from the shipped files (line_of), so the corpus follows their edits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# a rook chasing a cannon to the third occurrence (tests/data/chase_suite.yaml issue_example)
CHASE_FEN = "5k3/9/7c1/R8/9/9/9/9/9/3K5 w"
CHASE_MOVES = tuple("a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7 a8a7".split())
START_NO_CLOCK = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -"
MATED = "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1"       # Black to move, checkmated


def line_of(relpath: str, pattern: str, nth: int = 0) -> int:
    """1-based line of the nth line of a shipped file matching a regex."""
    hits = [i for i, text in enumerate((ROOT / relpath).read_text().splitlines(), 1) if re.search(pattern, text)]
    assert len(hits) > nth, f"{relpath}: no line {nth} matching {pattern!r}"
    return hits[nth]


def level_line(name: str, key: str) -> int:
    """Line of `key:` in the level called `name` of config/difficulty.yaml."""
    start = line_of("config/difficulty.yaml", rf"name: {name}$")
    lines = (ROOT / "config/difficulty.yaml").read_text().splitlines()
    return next(i for i in range(start, len(lines) + 1) if re.match(rf"\s+{key}:", lines[i - 1]))


# ---------------------------------------------------------------- edits
@dataclass(frozen=True)
class Edit:
    path: str

    def apply(self, root: Path) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Write(Edit):
    """Replace a file (or create it) with these bytes or this text."""
    data: bytes | str = b""

    def apply(self, root: Path) -> None:
        p = root / self.path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(self.data.encode() if isinstance(self.data, str) else self.data)


@dataclass(frozen=True)
class Append(Edit):
    data: bytes | str = b""

    def apply(self, root: Path) -> None:
        with (root / self.path).open("ab") as f:
            f.write(self.data.encode() if isinstance(self.data, str) else self.data)


@dataclass(frozen=True)
class Sub(Edit):
    """Replace the first `old` (which must be there) by `new`."""
    old: str = ""
    new: str = ""

    def apply(self, root: Path) -> None:
        p = root / self.path
        text = p.read_text()
        assert self.old in text, f"{self.path}: no {self.old!r}"
        p.write_text(text.replace(self.old, self.new, 1))


@dataclass(frozen=True)
class SubLine(Edit):
    """Replace line `line` (1-based), whose text must contain `old`, by `new`."""
    line: int = 0
    old: str = ""
    new: str = ""

    def apply(self, root: Path) -> None:
        p = root / self.path
        lines = p.read_text().splitlines(keepends=True)
        assert self.old in lines[self.line - 1], f"{self.path}:{self.line}: no {self.old!r}"
        lines[self.line - 1] = lines[self.line - 1].replace(self.old, self.new, 1)
        p.write_text("".join(lines))


@dataclass(frozen=True)
class SubBytes(Edit):
    """Replace the first `old` bytes (which must be there) by `new`."""
    old: bytes = b""
    new: bytes = b""

    def apply(self, root: Path) -> None:
        p = root / self.path
        data = p.read_bytes()
        assert self.old in data, f"{self.path}: no {self.old!r}"
        p.write_bytes(data.replace(self.old, self.new, 1))


@dataclass(frozen=True)
class Copy(Edit):
    """A copy of `src` (its first `size` bytes, if given) at `path`."""
    src: str = ""
    size: int | None = None

    def apply(self, root: Path) -> None:
        data = (root / self.src).read_bytes()
        (root / self.path).write_bytes(data if self.size is None else data[:self.size])


@dataclass(frozen=True)
class Mkdir(Edit):
    def apply(self, root: Path) -> None:
        (root / self.path).mkdir(parents=True, exist_ok=True)


@dataclass(frozen=True)
class Remove(Edit):
    def apply(self, root: Path) -> None:
        (root / self.path).unlink()


@dataclass(frozen=True)
class Truncate(Edit):
    size: int = 0

    def apply(self, root: Path) -> None:
        p = root / self.path
        p.write_bytes(p.read_bytes()[:self.size])


@dataclass(frozen=True)
class Picture(Edit):
    """An image written with Pillow: `fmt` is the real format, whatever the name."""
    fmt: str = "PNG"
    mode: str = "P"
    size: tuple[int, int] = (16, 16)
    colours: int = 4                   # distinct values in the first tile

    def apply(self, root: Path) -> None:
        from PIL import Image
        img = Image.new(self.mode, self.size, 0)
        for x in range(self.colours):
            img.putpixel((x, 0), x if self.mode == "P" else (x * 40, x * 40, x * 40))
        p = root / self.path
        p.parent.mkdir(parents=True, exist_ok=True)
        img.save(p, format=self.fmt)


# ---------------------------------------------------------------- cases
@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]               # after `python -m`
    rc: int
    words: tuple[str, ...]
    edits: tuple[Edit, ...] = ()
    usage: bool = False                 # an argparse error: its usage line comes first
    needs: str = ""                     # a program that must be installed (ca65), or a path (/proc: a
                                        # folder where not even root can create a file)
    cpu_limit: float = field(default=15.0)   # CPU seconds, children included


def C(id: str, argv: str | tuple[str, ...], rc: int, *words: str, edits: tuple[Edit, ...] = (), **kw) -> Case:
    return Case(id, tuple(argv.split()) if isinstance(argv, str) else argv, rc, words, edits, **kw)


LEVELS = "config/difficulty.yaml"
EVAL = "config/eval.yaml"
SEARCH = "config/search.yaml"
CFG = "asm/xiangqi.cfg"
MASTER_QDEPTH = level_line("Master", "qdepth")
MASTER_DEPTH = level_line("Master", "depth")
MASTER_BARE = level_line("Master", "bare")
MASTER_BARE_DEPTH = MASTER_BARE + 1 + [ln.strip().split(":")[0] for ln in (ROOT / LEVELS).read_text().splitlines()[
    MASTER_BARE:MASTER_BARE + 3]].index("depth")
MASTER_BARE_QDEPTH = MASTER_BARE + 1 + [ln.strip().split(":")[0] for ln in (ROOT / LEVELS).read_text().splitlines()[
    MASTER_BARE:MASTER_BARE + 3]].index("qdepth")
ALIAS_BOMB = "\nbomb:\n  a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"  {c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
EXTRA_SET = ("  extra:\n    pst: true\n    tempo: 6\n    horse_per_capture4: 0\n    cannon_per_capture4: 0\n"
             "    pawn_per_missing_attacker: 0\n    horse_leg_blocked: 0\n    elephant_eye_blocked: 0\n"
             "    rook_on_king_file: 0\n    cannon_on_king_file: [0, 0, 0, 0]\n"
             "    missing_elephant_per_cannon: 0\n    missing_advisor_per_rook: 0\n")
HORSE_ROW = line_of(EVAL, r"^    - \[  0,   3,   6,   6,   3")
EVAL_LINES = len((ROOT / EVAL).read_text().splitlines())
BAD_UTF8 = "\n# caf\xe9\n".encode("latin-1")
OK_CFG = ('MEMORY {\n  ROM: start = $8000, size = $100, type = ro, file = %O;\n}\n'
          'SEGMENTS {\n  CODE: load = ROM, type = ro;\n}\n')
OK_S = '.segment "CODE"\n  nop\n'


def _asm(*args: str) -> tuple[str, ...]:
    return ("tools.asm", "t.s", "-C", "t.cfg", *args)


ASM_FILES = (Write("t.s", OK_S), Write("t.cfg", OK_CFG))

CASES: list[Case] = [
    # ---- YAML: the loader (aliases, tags, shapes, bytes) ----------------------------------
    C("yaml-alias-bomb", "reference_py levels", 2, f"{LEVELS}:", "anchors", edits=(Append(LEVELS, ALIAS_BOMB),)),
    C("yaml-alias-bomb-build", "tools.build_rom", 1, f"{LEVELS}:", "anchors",
      edits=(Append(LEVELS, ALIAS_BOMB),)),
    C("yaml-alias-only", "reference_py levels", 2, f"{LEVELS}:", "aliases ('*lv')",
      edits=(Append(LEVELS, "extra: *lv\n"),)),
    C("yaml-python-tag", "reference_py levels", 2, f"{LEVELS}:1:", "tags ('!!python/object/apply:os.system')",
      edits=(Write(LEVELS, 'levels: !!python/object/apply:os.system ["echo hi"]\n'),)),
    C("yaml-int-tag", "reference_py levels", 2, f"{LEVELS}:2:", "tags ('!!int')",
      edits=(Write(LEVELS, 'levels:\n  - name: !!int "abc"\n'),)),
    C("yaml-local-tag", "tools.rom.gen_tables", 1, f"{SEARCH}:1:", "tags ('!x')",
      edits=(Write(SEARCH, "move_stack_entries: !x 255\n"),)),
    C("yaml-huge-int", "tools.rom.gen_tables", 1, f"{SEARCH}:{line_of(SEARCH, '^perpetual_check')}:",
      "5000 characters", edits=(Sub(SEARCH, "perpetual_check: 10000", "perpetual_check: " + "9" * 5000),)),
    C("yaml-top-list", "tools.rom.gen_tables", 1, f"{SEARCH}:1:", "the top level must be a mapping",
      edits=(Write(SEARCH, "- 1\n"),)),
    C("yaml-top-scalar", "reference_py levels", 2, f"{LEVELS}:1:", "the top level must be a mapping",
      edits=(Write(LEVELS, "hello\n"),)),
    C("yaml-levels-of-names", "reference_py levels", 2, f"{LEVELS}:1:", "a level must be a mapping",
      edits=(Write(LEVELS, "levels: [Easy]\n"),)),
    C("yaml-eval-utf8", "reference_py levels", 2, f"{EVAL}:{EVAL_LINES + 2}:", "not UTF-8",
      edits=(Append(EVAL, BAD_UTF8),)),
    C("yaml-levels-utf8", "tools.build_rom", 1, f"{LEVELS}:", "not UTF-8", edits=(Append(LEVELS, BAD_UTF8),)),
    C("yaml-deep", "reference_py levels", 2, f"{LEVELS}:1:", "nested more than",
      edits=(Write(LEVELS, "levels: " + "[" * 20000 + "]" * 20000 + "\n"),)),
    C("yaml-two-documents", "reference_py levels", 2, f"{LEVELS}:", "more than one YAML document",
      edits=(Append(LEVELS, "---\nlevels: []\n"),)),
    C("yaml-empty", "reference_py levels", 2, f"{LEVELS}: file is empty", edits=(Write(LEVELS, "# nothing\n"),)),
    C("yaml-directory", "reference_py levels", 2, f"{LEVELS}: cannot read: not a regular file",
      edits=(Remove(LEVELS), Mkdir(LEVELS))),
    C("yaml-missing", "reference_py levels", 2, f"{LEVELS}: cannot read: no such file", edits=(Remove(LEVELS),)),
    C("yaml-too-big", "reference_py levels", 2, f"{LEVELS}: larger than 1024 KiB",
      edits=(Append(LEVELS, "#" * (1 << 20) + "\n"),)),
    C("yaml-syntax", "reference_py levels", 2, f"{LEVELS}:", "not valid YAML",
      edits=(Append(LEVELS, "bad: [1, 2\n"),)),
    C("yaml-duplicate-key", "reference_py levels", 2, f"{LEVELS}:{level_line('Master', 'nodes') + 1}:",
      "duplicate key 'nodes'", edits=(SubLine(LEVELS, level_line("Master", "nodes"), "nodes: 9000",
                                              "nodes: 9000\n    nodes: 10"),)),
    C("yaml-nul", "reference_py levels", 2, f"{LEVELS}:{line_of(LEVELS, 'name: Hard')}:", "U+0000 is not allowed",
      edits=(Sub(LEVELS, "name: Hard", "name: Ha\x00rd"),)),
    C("yaml-list-key", "reference_py levels", 2, f"{LEVELS}:1:", "a key must be a plain value",
      edits=(Write(LEVELS, "? [a]\n: 1\n"),)),
    # ---- YAML: values the engines cannot take ---------------------------------------------
    C("level-name-too-long", "reference_py levels", 2, f"{LEVELS}:{line_of(LEVELS, 'name: Master')}:",
      "'Grandmaster' has 11 characters", "shows 8", edits=(Sub(LEVELS, "name: Master", "name: Grandmaster"),)),
    C("level-name-symbol", "reference_py levels", 2, f"{LEVELS}:{line_of(LEVELS, 'name: Hard')}:",
      "letters, digits or spaces", edits=(Sub(LEVELS, "name: Hard", "name: Hard-1"),)),
    C("level-name-space", "reference_py levels", 2, f"{LEVELS}:{line_of(LEVELS, 'name: Hard')}:",
      "must not start or end with a space", edits=(Sub(LEVELS, "name: Hard", "name: ' Hard'"),)),
    C("level-name-duplicate", "reference_py levels", 2, f"{LEVELS}:{line_of(LEVELS, 'name: Hard')}:",
      "duplicate level name", edits=(Sub(LEVELS, "name: Hard", "name: EASY"),)),
    C("levels-nine", "reference_py levels", 2, f"{LEVELS}:2:", "at most 8 levels",
      edits=(Write(LEVELS, "levels:\n" + "".join(
          f"  - {{name: L{i}, depth: 1, qdepth: 0, eval: basic, nodes: 10, noise: 0, killers: true, "
          f"history: true}}\n" for i in range(9))),)),
    C("level-eval-list", "reference_py levels", 2, f"{LEVELS}:{level_line('Master', 'eval')}:",
      "eval must name a weight set", edits=(SubLine(LEVELS, level_line("Master", "eval"), "full", "[full]"),)),
    C("level-eval-unknown", "reference_py levels", 2, f"{LEVELS}:{level_line('Master', 'eval')}:",
      "unknown eval set 'fancy'", edits=(SubLine(LEVELS, level_line("Master", "eval"), "full", "fancy"),)),
    C("level-depth-range", "reference_py levels", 2, f"{LEVELS}:{MASTER_DEPTH}:", "depth = 7 is out of range 1..6",
      edits=(SubLine(LEVELS, MASTER_DEPTH, "depth: 4", "depth: 7"),)),
    C("level-bare-depth-range", "reference_py levels", 2, f"{LEVELS}:{MASTER_BARE_DEPTH}:",
      "bare.depth = 9 is out of range 1..8", edits=(SubLine(LEVELS, MASTER_BARE_DEPTH, "depth: 8", "depth: 9"),)),
    C("level-depth-float", "reference_py levels", 2, f"{LEVELS}:{MASTER_DEPTH}:", "depth must be an integer",
      edits=(SubLine(LEVELS, MASTER_DEPTH, "depth: 4", "depth: 2.5"),)),
    C("level-nodes-range", "reference_py levels", 2, f"{LEVELS}:{level_line('Master', 'nodes')}:",
      "out of range 1..65535", edits=(SubLine(LEVELS, level_line("Master", "nodes"), "9000", "70000"),)),
    C("level-noise", "reference_py levels", 2, f"{LEVELS}:{level_line('Novice', 'noise')}:", "2^k-1",
      edits=(SubLine(LEVELS, level_line("Novice", "noise"), "63", "5"),)),
    C("level-killers-int", "reference_py levels", 2, f"{LEVELS}:{level_line('Master', 'killers')}:",
      "killers must be true or false", edits=(SubLine(LEVELS, level_line("Master", "killers"), "true", "1"),)),
    C("search-history-length", "tools.rom.gen_tables", 1, f"{SEARCH}:{line_of(SEARCH, '^history_bonus')}:",
      "list of 8 integers", edits=(Sub(SEARCH, ", 64]", "]"),)),
    C("search-unknown-key", "tools.rom.gen_tables", 1, f"{SEARCH}:", "unknown key 'nodes_per_frame'",
      edits=(Append(SEARCH, "nodes_per_frame: 3\n"),)),
    C("move-stack-256", "tools.rom.gen_tables", 1, f"{SEARCH}:{line_of(SEARCH, '^move_stack_entries')}:",
      "out of range 128..255", edits=(Sub(SEARCH, "move_stack_entries: 255", "move_stack_entries: 256"),)),
    C("eval-pst-row", "reference_py levels", 2, f"{EVAL}:{HORSE_ROW}:",
      "has 8 values, expected 9", edits=(Sub(EVAL, "[  0,   3,   6,   6,   3,   6,   6,   3,   0]",
                                              "[  0,   3,   6,   6,   3,   6,   6,   3]"),)),
    C("eval-set-name", "reference_py levels", 2, f"{EVAL}:{line_of(EVAL, '^  full:')}:", "weight set name 'full-x'",
      edits=(Sub(EVAL, "\n  full:", "\n  full-x:"),)),
    C("eval-set-case", "reference_py levels", 2, f"{EVAL}:{EVAL_LINES + 1}:", "differs from another only in case",
      edits=(Append(EVAL, EXTRA_SET.replace("extra", "FULL")),)),
    # ---- YAML: values the ROM cannot hold (the build's own checks) -----------------------
    C("rom-zero-page", "tools.build_rom", 1, f"{LEVELS}:{MASTER_QDEPTH}:", "level 'Master': depth 4 + qdepth 7",
      "'ZP'", "qdepth <= 6 fits", edits=(SubLine(LEVELS, MASTER_QDEPTH, "qdepth: 6", "qdepth: 7"),)),
    C("rom-depth", "tools.rom.gen_tables", 1, f"{LEVELS}:{MASTER_QDEPTH}:", "level 'Master': depth 6 + qdepth 6",
      "qdepth <= 4 fits at depth 6", edits=(SubLine(LEVELS, MASTER_DEPTH, "depth: 4", "depth: 6"),)),
    C("rom-bare-qdepth", "tools.build_rom", 1, f"{LEVELS}:{MASTER_BARE_QDEPTH}:",
      "level 'Master': bare depth 8 + qdepth 4", "bare qdepth <= 2 fits",
      edits=(SubLine(LEVELS, MASTER_BARE_QDEPTH, "qdepth: 2", "qdepth: 4"),)),
    C("rom-three-sets", "tools.build_rom", 1, f"{EVAL}:{EVAL_LINES + 1}:", "3 weight sets",
      "at most 2 sets fit", edits=(Append(EVAL, EXTRA_SET),)),
    C("rom-seven-sets", "tools.rom.gen_tables", 1, f"{EVAL}:", "7 weight sets", "at most 6 sets fit",
      edits=(Append(EVAL, "".join(EXTRA_SET.replace("extra", f"extra{i}") for i in range(5))),)),
    C("rom-pruning-reference-only", "tools.build_rom", 1, f"{SEARCH}:{line_of(SEARCH, '^  lmp1:')}:",
      "only in reference_py", edits=(Sub(SEARCH, "lmp1: 0", "lmp1: 8"),)),
    C("rom-eval-sign", "tools.build_rom", 1, f"{EVAL}:{line_of(EVAL, 'horse_leg_blocked: -4')}:",
      "sets.full.horse_leg_blocked", edits=(Sub(EVAL, "horse_leg_blocked: -4", "horse_leg_blocked: 4"),)),
    C("rom-rebuild-by-driver", ("tools.romsearch", "search", START, "--level", "Easy"), 2,
      "is older than its inputs and rebuilding it failed", f"{LEVELS}:{MASTER_QDEPTH}:",
      edits=(SubLine(LEVELS, MASTER_QDEPTH, "qdepth: 6", "qdepth: 7"),)),
    # ---- the linker config and the sources -------------------------------------------------
    C("cfg-area-too-big", "tools.build_rom", 1, "rom/xiangqi.nes: not the cartridge", "file size 131344",
      edits=(Sub(CFG, "BANK6:   start = $8000, size = $4000", "BANK6:   start = $8000, size = $4100"),)),
    C("cfg-area-too-big-both", "tools.build_rom --assembler both", 1, "not the cartridge",
      edits=(Sub(CFG, "BANK6:   start = $8000, size = $4000", "BANK6:   start = $8000, size = $4100"),),
      needs="ca65", cpu_limit=40.0),
    C("cfg-area-twice", "tools.build_rom", 1, "asm/xiangqi.cfg:", "'BANK5' is defined twice",
      edits=(Sub(CFG, "    BANK6:", "    BANK5:"),)),
    C("cfg-unknown-type", "tools.build_rom", 1, "asm/xiangqi.cfg:", "must be one of ro, rw",
      edits=(Sub(CFG, "type = ro, file = %O, fill = yes, fillval = $FF, bank = 6",
                 "type = rom, file = %O, fill = yes, fillval = $FF, bank = 6"),)),
    C("cfg-unknown-attribute", "tools.build_rom", 1, "asm/xiangqi.cfg:", "unknown attribute 'colour'",
      edits=(Sub(CFG, "bank = 6;", "bank = 6, colour = 1;"),)),
    C("cfg-huge-fill", _asm("-o", "x.bin"), 1, "t.cfg:", "over the limit",
      edits=(*ASM_FILES, Sub("t.cfg", "size = $100", "size = $100000000, fill = yes"))),
    C("cfg-not-utf8", _asm("-o", "x.bin"), 1, "t.cfg:2:6:", "not UTF-8",
      edits=(*ASM_FILES, SubBytes("t.cfg", b"ROM:", b"ROM\xff:"))),
    C("cfg-device", ("tools.asm", "t.s", "-C", "/dev/zero", "-o", "x.bin"), 1, "/dev/zero", "not a regular file",
      edits=ASM_FILES),
    C("asm-listing-is-output", _asm("-o", "x.bin", "-l", "x.bin"), 1, "'x.bin' is named for two outputs",
      "the listing (-l)", edits=ASM_FILES),
    C("asm-map-is-label-file", _asm("-o", "x.bin", "--nl", "--map", "x.bin.0.nl"), 1,
      "'x.bin.0.nl' is named for two outputs", edits=ASM_FILES),
    C("asm-output-directory", _asm("-o", "outdir"), 1, "cannot write 'outdir': it is a directory",
      edits=(*ASM_FILES, Mkdir("outdir"))),
    C("asm-output-under-file", _asm("-o", "t.s/x.bin"), 1, "cannot write 't.s/x.bin'", "not a directory",
      edits=ASM_FILES),
    C("asm-incbin-device", _asm("-o", "x.bin"), 1, "t.s:3:", "'/dev/zero' is not a regular file",
      edits=(*ASM_FILES, Append("t.s", '.incbin "/dev/zero"\n'))),
    C("asm-deep-expression", _asm("-o", "x.bin"), 1, "t.s:3:1:", "too deep",
      edits=(*ASM_FILES, Append("t.s", ".byte " + "(" * 3000 + "1" + ")" * 3000 + "\n"))),
    C("asm-include-missing", _asm("-o", "x.bin"), 1, "t.s:3:", "'nope.inc' not found",
      edits=(*ASM_FILES, Append("t.s", '.include "nope.inc"\n')),),
    C("asm-syntax-in-tree", "tools.build_rom", 1, "asm/system/nmi.s:", "error",
      edits=(Append("asm/system/nmi.s", "\n  frobnicate #1\n"),)),
    C("asm-zero-page-full", "tools.build_rom", 1, "asm/xiangqi.cfg:", "memory area 'ZP' overflows",
      edits=(Sub("asm/ram.s", "far_ptr:         .res 2", "far_ptr:         .res 30"),)),
    C("asm-zero-page-full-new-config", "tools.build_rom", 1, "asm/xiangqi.cfg:", "memory area 'ZP' overflows",
      edits=(Sub("asm/ram.s", "far_ptr:         .res 2", "far_ptr:         .res 200"),
             SubLine(LEVELS, level_line("Novice", "noise"), "63", "31"))),
    # ---- build outputs ------------------------------------------------------------------------
    C("build-output-directory", "tools.build_rom -o outdir", 1, "outdir: is a directory",
      edits=(Mkdir("outdir"),)),
    C("build-output-under-file", "tools.build_rom -o Makefile/x.nes", 1, "Makefile is not a directory",
      edits=(Write("Makefile", "all:\n"),)),
    C("asm-output-unwritable", _asm("-o", "/proc/x.bin"), 1, "cannot write '/proc/x.bin'", edits=ASM_FILES,
      needs="/proc"),
    C("build-output-unwritable", "tools.build_rom -o /proc/x.nes", 1, "cannot write /proc/x.nes", needs="/proc"),
    C("chr-output-unwritable", "tools.rom.chr t.png -o /proc/x.chr", 1, "cannot write /proc/x.chr",
      edits=(Picture("t.png"),), needs="/proc"),
    C("gen-tables-output-unwritable", "tools.rom.gen_tables /proc/gen", 1, "cannot write /proc/gen", needs="/proc"),
    C("play-gif-unwritable", "tools.play --headless --gif /proc/x.gif", 1, "cannot write /proc/x.gif", needs="/proc"),
    C("match-out-unwritable", "bench.match Easy Novice --out /proc/x.json", 2, "cannot write /proc/x.json",
      needs="/proc"),
    C("build-art-not-png", "tools.build_rom", 1, "assets/bg.png: a GIF image, not a PNG",
      edits=(Picture("assets/bg.png", fmt="GIF", size=(128, 128)),)),
    C("gen-tables-output-file", "tools.rom.gen_tables Makefile", 1, "cannot write", "Not a directory",
      edits=(Write("Makefile", "all:\n"),)),
    # ---- PNG to CHR ---------------------------------------------------------------------------
    C("chr-gif", "tools.rom.chr t.png -o t.chr", 1, "t.png: a GIF image, not a PNG",
      edits=(Picture("t.png", fmt="GIF"),)),
    C("chr-jpeg", "tools.rom.chr t.png -o t.chr", 1, "t.png: a JPEG image, not a PNG",
      edits=(Picture("t.png", fmt="JPEG", mode="RGB"),)),
    C("chr-text", "tools.rom.chr t.png -o t.chr", 1, "t.png: cannot read image", edits=(Write("t.png", "hello"),)),
    C("chr-missing", "tools.rom.chr nope.png -o t.chr", 1, "nope.png: cannot read image"),
    C("chr-five-colours", "tools.rom.chr t.png -o t.chr", 1, "tile (0,0): 5 colours",
      edits=(Picture("t.png", mode="RGB", colours=5),)),
    C("chr-size", "tools.rom.chr t.png -o t.chr", 1, "not a multiple of 8x8",
      edits=(Picture("t.png", size=(12, 8)),)),
    C("chr-palette", "tools.rom.chr t.png -o t.chr --palette 000000,zz", 1, "--palette needs exactly 4 colours",
      edits=(Picture("t.png", mode="RGB"),)),
    C("chr-output-directory", "tools.rom.chr t.png -o outdir", 1, "cannot write outdir: Is a directory",
      edits=(Picture("t.png"), Mkdir("outdir"))),
    C("chr-output-under-file", "tools.rom.chr t.png -o Makefile/t.chr", 1, "cannot write Makefile/t.chr",
      "Not a directory", edits=(Picture("t.png"), Write("Makefile", "all:\n"))),
    # ---- the reference engine's command line --------------------------------------------------
    C("fen-clock-huge", ("reference_py", "search", f"{START_NO_CLOCK} 100000000000000000000 1", "--level", "Easy"),
      2, "field 5", "at most 255"),
    C("fen-letter", ("reference_py", "perft", START.replace("rnbakabnr", "rnbqkabnr"), "1"), 2,
      "unknown piece letter 'q'"),
    C("fen-ranks", ("reference_py", "perft", "9/" + START, "1"), 2, "the board has 11 ranks"),
    C("fen-empty", ("reference_py", "perft", "", "1"), 2, "empty FEN"),
    C("seed-too-big", ("reference_py", "search", START, "--level", "Easy", "--seed", "70000"), 2,
      "--seed: 70000 is out of range 0..65535", usage=True),
    C("seed-negative", ("reference_py", "search", START, "--level", "Easy", "--seed", "-1"), 2,
      "out of range 0..65535", usage=True),
    C("moves-after-mate", ("reference_py", "search", MATED, "--level", "Easy", "--moves", "d9e9"), 2,
      "move 1 of --moves ('d9e9'): the game is over at the start", "checkmate"),
    C("moves-illegal", ("reference_py", "search", START, "--level", "Easy", "--moves", "h2e2", "a0a5"), 2,
      "move 2 of --moves"),
    C("level-unknown", ("reference_py", "search", START, "--level", "Grandmaster"), 2, "unknown level 'Grandmaster'"),
    C("perft-depth-zero", ("reference_py", "perft", START, "0"), 2, "depth must be at least 1"),
    C("suite-not-utf8", "reference_py perft-suite s.txt", 2, "s.txt:2: not UTF-8",
      edits=(Write("s.txt", f"{START} ; 44\n".encode() + b"\xff\n"),)),
    C("suite-max-depth", "reference_py perft-suite s.txt --max-depth -1", 2, "--max-depth must be 0",
      edits=(Write("s.txt", f"{START} ; 44\n"),)),
    C("asm-source-missing", ("tools.asm", "nope.s", "-C", "t.cfg", "-o", "x.bin"), 1, "cannot open source file 'nope.s'",
      edits=ASM_FILES),
    C("build-assembler", "tools.build_rom --assembler gcc", 2, "invalid choice: 'gcc'", usage=True),
    C("suite-missing", "reference_py perft-suite nope.txt", 2, "nope.txt: cannot read"),
    C("suite-directory", "reference_py perft-suite asm", 2, "asm: cannot read: not a regular file"),
    C("suite-bad-line", "reference_py perft-suite s.txt", 2, "s.txt:1: expected 'FEN ; n1 n2 ...'",
      edits=(Write("s.txt", "hello\n"),)),
    # ---- the ROM's drivers ---------------------------------------------------------------------
    C("rom-truncated", ("tools.romengine", "perft", START, "1"), 2, "rom/xiangqi.nes: 1000 bytes, the header needs",
      edits=(Truncate("rom/xiangqi.nes", 1000),)),
    C("rom-empty", ("tools.romengine", "perft", START, "1"), 2, "rom/xiangqi.nes: not an iNES file",
      edits=(Truncate("rom/xiangqi.nes", 0),)),
    C("map-corrupt", ("tools.romsearch", "search", START, "--level", "Easy"), 2,
      "rom/xiangqi.map.json: not a linker map", edits=(Write("rom/xiangqi.map.json", "{bad"),)),
    C("map-wrong-shape", ("tools.romsearch", "search", START, "--level", "Easy"), 2,
      "rom/xiangqi.map.json: not a linker map", edits=(Write("rom/xiangqi.map.json", '{"labels": []}'),)),
    C("rom-seed", ("tools.romsearch", "search", START, "--level", "Easy", "--seed", "65536"), 2,
      "out of range 0..65535", usage=True),
    C("rom-fen-clock", ("tools.romsearch", "search", f"{START_NO_CLOCK} 300 1", "--level", "Easy"), 2,
      "field 5", "at most 255"),
    C("rom-moves-after-mate", ("tools.romsearch", "search", MATED, "--level", "Easy", "--moves", "d9e9"), 2,
      "the game is over at the start"),
    C("rom-suite-not-utf8", "tools.romengine perft-suite s.txt", 2, "s.txt:1: not UTF-8",
      edits=(Write("s.txt", b"\xff\n"),)),
    C("rom-eval-set", ("tools.romsearch", "eval", START, "--set", "fancy"), 2, "unknown weight set 'fancy'"),
    C("rom-result-illegal-move", ("tools.romengine", "result", CHASE_FEN, "--moves", "a6a7", "h7g8"), 2,
      "move 2 of --moves", "h7g8"),
    C("rom-result-after-the-end", ("tools.romengine", "result", CHASE_FEN, "--moves", *CHASE_MOVES, "h7h8"), 2,
      "move 10 of --moves ('h7h8'): the game is over after move 9", "Red chased a piece perpetually"),
    C("rom-result-bad-fen", ("tools.romengine", "result", "5k3/9/7c1/R8/9/9/9/9/9/3K5 x"), 2,
      "side to move must be 'w' or 'b'"),
    # ---- play, the web site, the tuning matches, the memory map -------------------------------
    C("play-rom-truncated", "tools.play --headless --rom t.nes", 1, "t.nes: 1000 bytes, the header needs",
      edits=(Copy("t.nes", src="rom/xiangqi.nes", size=1000),)),
    C("play-rom-missing", "tools.play --headless --rom nope.nes", 1, "nope.nes does not exist"),
    C("play-gif-under-file", "tools.play --headless --gif Makefile/x.gif", 1, "cannot write", "Not a directory",
      edits=(Write("Makefile", "all:\n"),)),
    C("play-pgn-not-utf8", "tools.play --headless --pgn g.pgn", 1, "g.pgn:1: not UTF-8 text",
      edits=(Write("g.pgn", b"\xff\n"),)),
    C("terminal-pgn-not-utf8", "reference_py play --force --pgn g.pgn", 2, "--pgn g.pgn:1: not UTF-8 text",
      edits=(Write("g.pgn", b"\xff\n"),)),
    C("terminal-pgn-under-file", "reference_py play --force --pgn Makefile/g.pgn", 2, "Makefile is not a folder",
      edits=(Write("Makefile", "all:\n"),)),
    C("match-pgn-not-utf8", "bench.match Easy Novice --pgn g.pgn", 2, "--pgn g.pgn:1: not UTF-8 text",
      edits=(Write("g.pgn", b"\xff\n"),)),
    C("web-out-file", "tools.web build --out Makefile", 1, "Makefile: cannot be the site's folder",
      edits=(Write("Makefile", "all:\n"),)),
    C("web-port", "tools.web serve --port 99999", 2, "99999 is out of range 0..65535", usage=True),
    C("match-no-levels", "bench.match", 2, "give two levels (or --adjacent)"),
    C("match-unknown-level", "bench.match Easy Grandmaster", 2, "unknown level 'Grandmaster'"),
    C("match-games-zero", "bench.match Easy Novice --games 0", 2, "--games: 0: must be at least 1", usage=True),
    C("match-out-directory", "bench.match Easy Novice --out outdir", 2, "cannot write outdir: Is a directory",
      edits=(Mkdir("outdir"),)),
    C("match-config", "bench.match Easy Novice", 2, f"{LEVELS}:", "anchors", edits=(Append(LEVELS, ALIAS_BOMB),)),
    C("first-mistake-pairs", "bench.first_mistake --pairs 0", 2, "--pairs 0: at least 1"),
    C("first-mistake-config", "bench.first_mistake --config nobook", 2, "'nobook': expected NAME=SPEC"),
    C("first-mistake-level", "bench.first_mistake --level Grandmaster", 2, "no level 'Grandmaster'"),
    C("first-mistake-opponent", "bench.first_mistake --opponent fs:time=9", 2, "the limit must be one of"),
    C("first-mistake-out-directory", "bench.first_mistake --out outdir", 2, "cannot write outdir.md: Is a directory",
      edits=(Mkdir("outdir.md"),)),
    C("book-strength-names", "bench.book_strength --with a=config --without a=nobook:config", 2,
      "the name 'a' is given twice"),
    C("book-strength-anchor", "bench.book_strength --anchor stockfish", 2, "expected fs:nodes=N or fs:depth=D"),
    C("memory-map-corrupt", "tools.rom.memory_map", 1, "rom/xiangqi.map.json: not a linker map",
      edits=(Write("rom/xiangqi.map.json", "[1"),)),
]
