"""Run the ROM's 6502 engine under py65: the host driver and its guards.

    python -m tools.romengine perft "<FEN>" <DEPTH>
    python -m tools.romengine perft-suite <FILE> [--max-depth D]

Same output and exit codes as `python -m reference_py perft / perft-suite`,
plus the 6502 cycles spent (on stderr for `perft`, at the end of each
suite line).  Errors: one line on stderr, exit status 2 (bad input) or 1
(a failed check or a fault of the 6502 code).

How it works: the PRG of rom/xiangqi.nes is mapped at $8000-$FFFF of a bare
py65 6502 (no PPU, no APU: the engine needs none) and the addresses come
from the linker's JSON map (rom/xiangqi.map.json).  `call(name)` pushes the
address of `eng_host_stop` - 1 as a return address, jumps to the routine
and runs until its final RTS lands on eng_host_stop.

Guards (each raises `Fault`; emu_tests/test_romengine_guards.py proves
they fire):
  * an undocumented opcode or BRK: their entries in py65's instruction
    table are replaced by functions that raise (py65 would run them as NOPs);
  * a read outside the map: every address that is neither engine RAM (the
    locals and the engine's zero-page block, ENGINE_PLY, the stack,
    ENGINE_LO, ENGINE_BSS) nor PRG ROM
    holds a sentinel object whose every use raises (so valid reads cost
    nothing extra); hardware registers ($2000-$401F) are outside the map;
  * a write outside engine RAM: the store and read-modify-write opcodes
    with a 16-bit or indirect address check their effective address first;
  * a jump or return into RAM, an RTI;
  * a stack overflow: JSR, PHA and PHP check S against the engine's floor,
    ENGINE_STACK_RESERVE bytes above the declared stack segment ($01D0 for a
    stack at $01C0, i.e. S must stay >= $CF): the engine, entered at S = $FF,
    may use 48 bytes and the last 16 are the UI's (its calls into the
    engine and the NMI);
  * a runaway routine: a cycle limit per call;
  * a host-driven make past the undo entries (RomEngine.make at eng_ply >=
    ENG_PLIES, which would overwrite the zero page after them).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from py65.devices.mpu6502 import MPU  # noqa: E402

from reference_py.board import PLAYABLE, move_iccs  # noqa: E402
from reference_py.position import Position  # noqa: E402

ROM = ROOT / "rom" / "xiangqi.nes"
MAP = ROOT / "rom" / "xiangqi.map.json"
PRG_START, PRG_SIZE = 0x8000, 0x8000
ENGINE_RAM_SEGMENTS = ("ZEROPAGE", "ENGINE_PLY", "STACK", "ENGINE_LO", "ENGINE_BSS")
STACK_FLOOR = 0x01D0              # ENGINE_STACK_FLOOR in asm/global.inc
ENGINE_STACK_RESERVE = 16         # bytes of the stack segment kept for the UI and the NMI
LOCALS_END = 0x0010               # $00-$0F: LOCAL-16 scratch
DEFAULT_LIMIT = 2_000_000_000     # cycles per call
PERFT_LIMIT = 200_000_000_000     # eng_perft: perft 4 of the suite's biggest takes ~4.5e9
CHUNK = 2048                      # instructions between two cycle-limit checks
ROM_INPUTS = ["asm/**/*.s", "asm/**/*.inc", "asm/*.cfg", "assets/*.png", "config/*.yaml", "reference_py/*.py",
              "tools/rom/gen_tables.py", "tools/asm/*.py", "tools/rom/build.py"]

# The 151 official opcodes (the same set as tools/asm/opcodes.py).
OFFICIAL = frozenset(
    [0x69, 0x65, 0x75, 0x6D, 0x7D, 0x79, 0x61, 0x71, 0x29, 0x25, 0x35, 0x2D, 0x3D, 0x39, 0x21, 0x31,
     0x0A, 0x06, 0x16, 0x0E, 0x1E, 0x90, 0xB0, 0xF0, 0x24, 0x2C, 0x30, 0xD0, 0x10, 0x00, 0x50, 0x70,
     0x18, 0xD8, 0x58, 0xB8, 0xC9, 0xC5, 0xD5, 0xCD, 0xDD, 0xD9, 0xC1, 0xD1, 0xE0, 0xE4, 0xEC, 0xC0,
     0xC4, 0xCC, 0xC6, 0xD6, 0xCE, 0xDE, 0xCA, 0x88, 0x49, 0x45, 0x55, 0x4D, 0x5D, 0x59, 0x41, 0x51,
     0xE6, 0xF6, 0xEE, 0xFE, 0xE8, 0xC8, 0x4C, 0x6C, 0x20, 0xA9, 0xA5, 0xB5, 0xAD, 0xBD, 0xB9, 0xA1,
     0xB1, 0xA2, 0xA6, 0xB6, 0xAE, 0xBE, 0xA0, 0xA4, 0xB4, 0xAC, 0xBC, 0x4A, 0x46, 0x56, 0x4E, 0x5E,
     0xEA, 0x09, 0x05, 0x15, 0x0D, 0x1D, 0x19, 0x01, 0x11, 0x48, 0x08, 0x68, 0x28, 0x2A, 0x26, 0x36,
     0x2E, 0x3E, 0x6A, 0x66, 0x76, 0x6E, 0x7E, 0x40, 0x60, 0xE9, 0xE5, 0xF5, 0xED, 0xFD, 0xF9, 0xE1,
     0xF1, 0x38, 0xF8, 0x78, 0x85, 0x95, 0x8D, 0x9D, 0x99, 0x81, 0x91, 0x86, 0x96, 0x8E, 0x84, 0x94,
     0x8C, 0xAA, 0xA8, 0xBA, 0x8A, 0x9A, 0x98])
assert len(OFFICIAL) == 151


class Fault(Exception):
    """The 6502 code did something the engine must never do."""

    def __init__(self, kind: str, message: str, pc: int | None = None) -> None:
        self.kind = kind
        self.pc = pc
        where = f" at PC ${pc:04X}" if pc is not None else ""
        super().__init__(f"{kind}{where}: {message}")


class _Stop(Exception):
    pass


class _Unmapped:
    """What an address outside the memory map holds: any use of it raises."""

    __slots__ = ("addr",)

    def __init__(self, addr: int) -> None:
        self.addr = addr

    def _fail(self, *_args):
        raise Fault("read outside the memory map", f"${self.addr:04X} is not RAM or ROM of the engine")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __and__ = __rand__ = _fail
    __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = __rlshift__ = _fail
    __bool__ = __index__ = __int__ = _fail
    __hash__ = object.__hash__


def rom_is_stale(rom: Path = ROM, map_path: Path = MAP) -> bool:
    if not rom.exists() or not map_path.exists():
        return True
    built = min(rom.stat().st_mtime, map_path.stat().st_mtime)
    return any(p.stat().st_mtime > built for pat in ROM_INPUTS for p in ROOT.glob(pat))


def ensure_rom() -> None:
    """Build rom/xiangqi.nes (and its map) with our assembler if stale."""
    if rom_is_stale():
        from tools.rom import build as build_rom
        build_rom.build("ours", ROM)


def cycle_table() -> list[int]:
    """py65's base cycles per opcode, corrected: py65 counts DEC abs ($CE)
    as 3 cycles where the 6502 takes 6.  Every other documented opcode's
    base count and page-cross rule agrees with the NMOS 6502 table
    (checked by emu_tests/test_romengine_guards.py)."""
    table = list(MPU.cycletime)
    table[0xCE] = 6
    return table


class Cpu:
    """A bare 6502 with the guards, running one PRG image."""

    def __init__(self, prg: bytes, ram_ranges: Iterable[tuple[int, int]], labels: dict[str, int],
                 stop: int, seed: int = 1, stack_floor: int = STACK_FLOOR) -> None:
        self.labels = labels
        self.stop = stop
        self.stack_floor = stack_floor
        self.writable = bytearray(0x10000)
        rng = random.Random(seed)
        mem: list = [None] * 0x10000
        for a in range(0x10000):
            mem[a] = _Unmapped(a)
        for lo, hi in ram_ranges:
            for a in range(lo, hi):
                mem[a] = rng.randrange(256)        # RAM starts as garbage, as on the NES
                self.writable[a] = 1
        mem[PRG_START:PRG_START + PRG_SIZE] = list(prg)
        self.mem = mem
        self.mpu = MPU(memory=mem, pc=stop)
        self.mpu.cycletime = cycle_table()
        self.base_sp = 0xFF
        self.cycles = 0              # cycles of the last call
        self.total_cycles = 0
        self._install_guards()

    # ---------------------------------------------------------- guards
    def _install_guards(self) -> None:
        mpu = self.mpu
        table = list(type(mpu).instruct)        # per instance: the class table stays intact
        mem, writable = self.mem, self.writable

        def bad_opcode(op):
            def h(m):
                raise Fault("undocumented opcode", f"${op:02X} executed", m.pc - 1)
            return h

        for op in range(256):
            if op not in OFFICIAL:
                table[op] = bad_opcode(op)

        def brk(m):
            raise Fault("BRK", "a BRK was executed", m.pc - 1)
        table[0x00] = brk

        def rti(m):
            raise Fault("RTI", "the engine never returns from an interrupt", m.pc - 1)
        table[0x40] = rti

        # stores and read-modify-writes through 16-bit / indirect addresses
        def w(m):
            return mem[m.pc] | (mem[m.pc + 1] << 8)

        addr_of = {
            "abs": w,
            "absx": lambda m: (w(m) + m.x) & 0xFFFF,
            "absy": lambda m: (w(m) + m.y) & 0xFFFF,
            "indy": lambda m: ((mem[mem[m.pc]] | (mem[(mem[m.pc] + 1) & 0xFF] << 8)) + m.y) & 0xFFFF,
            "indx": lambda m: mem[(mem[m.pc] + m.x) & 0xFF] | (mem[(mem[m.pc] + m.x + 1) & 0xFF] << 8),
        }
        stores = {0x8D: "abs", 0x9D: "absx", 0x99: "absy", 0x91: "indy", 0x81: "indx", 0x8E: "abs",
                  0x8C: "abs", 0xEE: "abs", 0xFE: "absx", 0xCE: "abs", 0xDE: "absx", 0x0E: "abs",
                  0x1E: "absx", 0x4E: "abs", 0x5E: "absx", 0x2E: "abs", 0x3E: "absx", 0x6E: "abs",
                  0x7E: "absx"}

        def checked_store(op, mode):
            orig, fn = table[op], addr_of[mode]

            def h(m):
                a = fn(m)
                if not writable[a]:
                    raise Fault("write outside the memory map", f"${a:04X} is not engine RAM", m.pc - 1)
                orig(m)
            return h

        for op, mode in stores.items():
            table[op] = checked_store(op, mode)

        floor = self.stack_floor
        floor_sp = (floor - 0x101) & 0xFF             # lowest S after a push: $CF for $01D0

        def pushing(op):
            orig = table[op]

            def h(m):
                orig(m)
                if m.sp < floor_sp:
                    raise Fault("stack overflow", f"S = ${m.sp:02X}: a push went below ${floor:04X}",
                                m.pc)
            return h

        for op in (0x20, 0x48, 0x08):
            table[op] = pushing(op)
        jsr = table[0x20]

        def jsr_checked(m):
            jsr(m)
            if m.pc < PRG_START:
                raise Fault("jump into RAM", f"JSR to ${m.pc:04X}", m.pc)
        table[0x20] = jsr_checked

        orig_rts, orig_jmpi = table[0x60], table[0x6C]
        stop = self.stop

        def rts(m):
            orig_rts(m)
            if m.pc == stop and m.sp == self.base_sp:
                raise _Stop
            if m.pc < PRG_START:
                raise Fault("return into RAM", f"RTS to ${m.pc:04X}", m.pc)
        table[0x60] = rts

        def jmpi(m):
            orig_jmpi(m)
            if m.pc < PRG_START:
                raise Fault("jump into RAM", f"JMP (ind) to ${m.pc:04X}", m.pc)
        table[0x6C] = jmpi
        mpu.instruct = table

    # ---------------------------------------------------------- running
    def call(self, addr: int, a: int = 0, x: int = 0, y: int = 0, carry: bool = False,
             limit: int = DEFAULT_LIMIT) -> int:
        """JSR addr with the registers given; returns the cycles spent."""
        mpu, mem = self.mpu, self.mem
        mpu.sp = 0xFF
        ret = self.stop - 1
        mem[0x01FF] = ret >> 8
        mem[0x01FE] = ret & 0xFF
        mpu.sp = 0xFD
        self.base_sp = 0xFF
        mpu.a, mpu.x, mpu.y = a & 0xFF, x & 0xFF, y & 0xFF
        mpu.p = (mpu.p & ~1) | (1 if carry else 0)
        mpu.pc = addr
        ins, cyc, extra = mpu.instruct, mpu.cycletime, mpu.extracycles
        cycles = 0
        try:
            while True:
                for _ in range(CHUNK):
                    op = mem[mpu.pc]
                    mpu.pc += 1
                    mpu.excycles = 0
                    mpu.addcycles = extra[op]
                    cycles += cyc[op]
                    ins[op](mpu)
                    cycles += mpu.excycles
                if cycles > limit:
                    raise Fault("cycle limit", f"no return after {cycles:,} cycles", mpu.pc)
        except _Stop:
            pass
        except Fault:
            self.cycles = cycles
            raise
        except TypeError as exc:     # an opcode fetched from an unmapped address
            raise Fault("execution outside ROM", str(exc), mpu.pc) from None
        self.cycles = cycles
        self.total_cycles += cycles
        mpu.processorCycles += cycles
        return cycles

    @property
    def carry(self) -> bool:
        return bool(self.mpu.p & 1)


def load_map(map_path: Path = MAP) -> tuple[dict[str, int], list[tuple[int, int]], dict]:
    """Labels, the engine's RAM ranges and the whole map.  In the zero page
    only the 16 locals and the engine's block (from piece_sq on) are the
    engine's: the UI's variables between them are outside its map."""
    m = json.loads(map_path.read_text())
    ranges = []
    for name in ENGINE_RAM_SEGMENTS:
        seg = m["segments"][name]
        lo, hi = seg["start"], seg["start"] + seg["size"]
        if name == "ZEROPAGE":
            ranges += [(lo, LOCALS_END), (m["labels"]["piece_sq"], hi)]
        else:
            ranges.append((lo, hi))
    return m["labels"], ranges, m


class RomEngine:
    """The ROM's engine, with the reference's data structures readable."""

    def __init__(self, rom: Path = ROM, map_path: Path = MAP, seed: int = 1, build: bool = True) -> None:
        if build and rom == ROM:
            ensure_rom()
        data = Path(rom).read_bytes()
        prg = data[16:16 + PRG_SIZE]
        labels, ranges, self.map = load_map(map_path)
        self.labels = labels
        floor = self.map["segments"]["STACK"]["start"] + ENGINE_STACK_RESERVE   # the engine's floor
        self.cpu = Cpu(prg, ranges, labels, labels["eng_host_stop"], seed, stack_floor=floor)
        self.mem = self.cpu.mem
        s = labels
        self.a_board = s["board"]
        self.a_piece_sq = s["piece_sq"]
        # a piece's kind is a constant of its code (fixed slots): the ROM table
        self.code_kind = self.mem[s["code_kind"]:s["code_kind"] + 32]
        self.a_counts = s["counts"]
        self.a_ms_from, self.a_ms_to = s["ms_from"], s["ms_to"]
        # undo entries (asm/ram.s, sized by tools/rom/gen_tables.py ply_sizes):
        # eng_make needs eng_ply < plies, eng_perft eng_ply + depth <= plies
        self.plies = self.map["exports"]["ENG_PLIES"]

    # ---------------------------------------------------------- memory
    def sym(self, name: str) -> int:
        return self.labels[name]

    def peek(self, name: str, n: int = 1, offset: int = 0) -> list[int]:
        a = self.labels[name] + offset
        return self.mem[a:a + n]

    def poke(self, name: str, values: Iterable[int], offset: int = 0) -> None:
        a = self.labels[name] + offset
        vals = list(values)
        self.mem[a:a + len(vals)] = vals

    def byte(self, name: str) -> int:
        return self.mem[self.labels[name]]

    def word(self, name: str) -> int:
        a = self.labels[name]
        return self.mem[a] | (self.mem[a + 1] << 8)

    def call(self, name: str, **kw) -> int:
        return self.cpu.call(self.labels[name], **kw)

    # ---------------------------------------------------------- engine API
    def load(self, pos: Position, vset: int = 0) -> int:
        """eng_load from a reference position; returns the cycles."""
        buf = []
        for sq in PLAYABLE:
            code = pos.board[sq]
            if code:
                slot = (code & 0x0F) | (16 if code & 0x20 else 0)
                buf.append((8 if code & 0x20 else 0) + pos.piece_kind[slot])
            else:
                buf.append(0)
        self.poke("ms_from", buf)
        self.poke("eng_side", [pos.side])
        self.poke("eng_clock", [pos.clock])
        self.poke("eng_vset", [vset])
        return self.call("eng_load")

    def load_fen(self, fen: str, vset: int = 0) -> int:
        from reference_py.fen import parse_fen
        return self.load(parse_fen(fen), vset)

    def generate(self, captures_only: bool = False) -> list[int] | None:
        """eng_gen at the current ms_top; the moves (reference encoding), None on overflow.
        The move stack keeps them (ms_top advances)."""
        first = self.byte("ms_top")
        self.call("eng_gen_captures" if captures_only else "eng_gen")
        if self.cpu.carry:
            return None
        top = self.byte("ms_top")
        return [self.mem[self.a_ms_from + i] | (self.mem[self.a_ms_to + i] << 8) for i in range(first, top)]

    def make(self, index: int) -> int:
        if self.byte("eng_ply") >= self.plies:
            raise Fault("undo stack overflow", f"eng_make at eng_ply {self.byte('eng_ply')}: "
                        f"the ROM has ENG_PLIES = {self.plies} undo entries")
        return self.call("eng_make", x=index)

    def unmake(self) -> int:
        return self.call("eng_unmake")

    def in_check(self, side: int) -> bool:
        self.call("eng_in_check", a=side)
        return self.cpu.carry

    def is_legal(self) -> bool:
        self.call("eng_is_legal")
        return not self.cpu.carry

    def legal_moves(self) -> list[int]:
        """Legal moves in generation order (eng_in_check for the side to move,
        eng_gen, then eng_make / eng_is_legal / eng_unmake per move)."""
        self.in_check(self.byte("eng_side"))
        first = self.byte("ms_top")
        moves = self.generate()
        if moves is None:
            raise Fault("move stack overflow", "the root list does not fit")
        out = []
        for i, m in enumerate(moves):
            self.make(first + i)
            if self.is_legal():
                out.append(m)
            self.unmake()
        self.poke("ms_top", [first])
        return out

    def perft(self, depth: int) -> int:
        """eng_perft: the whole recursion on the 6502.  When the stacked
        lists do not fit the move stack (perft 4 of wide middlegames: four
        lists of ~50 moves > 192 entries), the root level is done by the
        host instead, keeping a single root move on the stack."""
        self.call("eng_perft", a=depth, limit=PERFT_LIMIT)
        if not self.cpu.carry:
            return int.from_bytes(bytes(self.peek("perft_count", 4)), "little")
        if self.byte("perft_ovf") == 2:
            raise ValueError(f"perft {depth}: deeper than the ROM's {self.plies - self.byte('eng_ply')} "
                             f"plies left (ENG_PLIES = {self.plies})")
        return self._perft_host_root(depth)

    def _perft_host_root(self, depth: int) -> int:
        first = self.byte("ms_top")
        moves = self.generate()
        if moves is None:
            raise Fault("move stack overflow", f"perft {depth}: the root list does not fit "
                        f"the {self.ms_capacity()}-entry move stack")
        self.poke("ms_top", [first])
        self.in_check(self.byte("eng_side"))
        total = 0
        for m in moves:
            self.poke("ms_from", [m & 0xFF], offset=first)
            self.poke("ms_to", [m >> 8], offset=first)
            self.poke("ms_top", [first + 1])
            self.make(first)
            if self.is_legal():
                total += 1 if depth == 1 else self.perft(depth - 1)
            self.unmake()
        self.poke("ms_top", [first])
        return total

    def perft_divide(self, depth: int) -> list[tuple[int, int]]:
        """(move, count) per legal root move in generation order (reference perft_divide)."""
        self.in_check(self.byte("eng_side"))
        first = self.byte("ms_top")
        moves = self.generate()
        if moves is None:
            raise Fault("move stack overflow", "the root list does not fit")
        out = []
        for i, m in enumerate(moves):
            self.make(first + i)
            if self.is_legal():
                out.append((m, self.perft(depth - 1)))
            self.unmake()
        self.poke("ms_top", [first])
        return out

    def ms_capacity(self) -> int:
        from reference_py.config import load_search
        return load_search().move_stack_entries

    # ---------------------------------------------------------- state
    def state(self) -> dict[str, object]:
        """The engine's position state, as the reference's fields.  piece_kind
        is the kind of each slot on the board (0 for a captured or unused
        slot), from the ROM's code_kind table: the ROM keeps no kind in RAM."""
        m = self.mem
        piece_sq = m[self.a_piece_sq:self.a_piece_sq + 32]
        return {
            "board": m[self.a_board:self.a_board + 154],
            "piece_sq": piece_sq,
            "piece_kind": [k if sq else 0 for k, sq in zip(self.code_kind, piece_sq)],
            "count": m[self.a_counts:self.a_counts + 16],
            "side": self.byte("eng_side"),
            "clock": self.byte("eng_clock"),
            "key": self.word("eng_key"),
            "score": self.word("eng_score"),
        }

    def raw_state(self) -> bytes:
        """Every byte of position state, then eng_mterm, eng_chk, eng_ply, ms_top,
        eng_vbase (make/unmake round trips; ms_top is the second-to-last byte)."""
        s = self.state()
        extra = list(self.peek("eng_mterm", 2)) + [self.byte("eng_chk"), self.byte("eng_ply"),
                                                   self.byte("ms_top"), self.byte("eng_vbase")]
        return bytes(s["board"] + s["piece_sq"] + s["count"]
                     + [s["side"], s["clock"], s["key"] & 0xFF, s["key"] >> 8,
                        s["score"] & 0xFF, s["score"] >> 8] + extra)


def reference_state(pos: Position) -> dict[str, object]:
    """The reference's fields as RomEngine.state() gives them (piece_kind of
    the slots on the board only)."""
    kinds = [k if sq else 0 for k, sq in zip(pos.piece_kind, pos.piece_sq)]
    return {"board": list(pos.board), "piece_sq": list(pos.piece_sq), "piece_kind": kinds,
            "count": list(pos.count), "side": pos.side, "clock": pos.clock, "key": pos.key,
            "score": pos.score & 0xFFFF}


# -------------------------------------------------------------- command line
def cmd_perft(args, eng: RomEngine) -> int:
    from reference_py.fen import parse_fen
    pos = parse_fen(args.fen)
    if args.depth < 1:
        raise ValueError("depth must be at least 1")
    eng.load(pos)
    before = eng.cpu.total_cycles
    total = 0
    for move, n in eng.perft_divide(args.depth):
        print(f"{move_iccs(move)} {n}")
        total += n
    print(f"total {total}")
    print(f"cycles {eng.cpu.total_cycles - before}", file=sys.stderr)
    return 0


def cmd_perft_suite(args, eng: RomEngine) -> int:
    from reference_py.__main__ import parse_suite
    from reference_py.fen import parse_fen
    passed = failed = 0
    for no, fen, nums in parse_suite(Path(args.file)):
        depth = min(len(nums), args.max_depth) if args.max_depth else len(nums)
        pos = parse_fen(fen)
        t = time.perf_counter()
        eng.load(pos)
        got, cycles = [], 0
        for d in range(1, depth + 1):
            got.append(eng.perft(d))
            cycles += eng.cpu.cycles
        ok = got == nums[:depth]
        status = "ok  " if ok else "FAIL"
        print(f"{status} line {no}: {fen} ; {' '.join(map(str, got))}"
              + ("" if ok else f" (expected {' '.join(map(str, nums[:depth]))})")
              + f"  [{time.perf_counter() - t:.2f}s, {cycles} cycles]", flush=True)
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in and args_in[0] in ("search", "eval"):
        # The search and evaluation commands live in tools.romsearch; offer
        # them here too, so the ROM's driver has the reference's full CLI.
        from tools.nes.search import main as romsearch_main
        return romsearch_main(args_in)
    p = argparse.ArgumentParser(prog="python -m tools.romengine",
                                description="The ROM's 6502 engine under py65 (same commands as reference_py)")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("perft", help="count leaf nodes per root move")
    s.add_argument("fen")
    s.add_argument("depth", type=int)
    s.set_defaults(func=cmd_perft)
    s = sub.add_parser("perft-suite", help="check a file of 'FEN ; counts' lines")
    s.add_argument("file")
    s.add_argument("--max-depth", type=int, default=0)
    s.set_defaults(func=cmd_perft_suite)
    sub.add_parser("search", help="search a position (see python -m tools.romsearch search -h)")
    sub.add_parser("eval", help="static evaluation (see python -m tools.romsearch eval -h)")
    args = p.parse_args(argv)
    return run_cli(lambda: args.func(args, RomEngine()))


def run_cli(body) -> int:
    """Run a command body with the drivers' error policy: bad input is one
    `error:` line and exit 2, a 6502 fault exit 1, never a traceback."""
    from reference_py.__main__ import UsageError
    from reference_py.config import ConfigError
    from reference_py.fen import FenError
    try:
        return body()
    except (FenError, UsageError, ConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Fault as exc:
        print(f"error: 6502 fault: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
