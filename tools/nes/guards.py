"""The rules the ROM's code must never break under py65, as guards that raise.

py65 runs undocumented opcodes as NOPs, lets code write anywhere and never
notices a stack overflow.  These guards replace entries of the instruction
table of one Cpu (the class table stays intact) so that breaking a rule
raises `Fault` at the instruction that broke it, while the instructions the
engine runs millions of times keep py65's own handlers (no per-read cost):

  * an undocumented opcode or BRK; an RTI (the engine never returns from an
    interrupt);
  * a read outside the map: every address that is neither the engine's RAM
    nor ROM holds an `Unmapped` object whose every use raises;
  * a write outside the engine's RAM: the stores and read-modify-writes
    with a 16-bit or indirect address check their effective address first;
  * a jump or return into RAM;
  * a stack overflow: JSR, PHA and PHP check S against the engine's floor;
  * (in Cpu.call) a runaway routine: a cycle limit per call.

emu_tests/test_romengine_guards.py proves that each one fires.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from tools.nes.cpu import Cpu

PRG_START = 0x8000

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


class Returned(Exception):
    """The called routine's final RTS reached the host's stop address."""


class Unmapped:
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


def guarded_table(cpu: "Cpu") -> list[Callable]:
    """py65's instruction table for `cpu`, with the guards in place."""
    mpu = cpu.mpu
    table = list(type(mpu).instruct)        # per instance: the class table stays intact
    mem, writable = cpu.mem, cpu.writable

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

    floor = cpu.stack_floor
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
    stop = cpu.stop

    def rts(m):
        orig_rts(m)
        if m.pc == stop and m.sp == cpu.base_sp:
            raise Returned
        if m.pc < PRG_START:
            raise Fault("return into RAM", f"RTS to ${m.pc:04X}", m.pc)
    table[0x60] = rts

    def jmpi(m):
        orig_jmpi(m)
        if m.pc < PRG_START:
            raise Fault("jump into RAM", f"JMP (ind) to ${m.pc:04X}", m.pc)
    table[0x6C] = jmpi
    return table
