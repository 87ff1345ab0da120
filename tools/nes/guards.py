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
    with a 16-bit or indirect address check their effective address first
    (on UxROM a store to ROM is the bank register's: tools/nes/mapper.py
    checks it for bus conflicts and the bank's range; a read-modify-write
    there is a fault);
  * a jump or return into RAM;
  * a stack overflow: JSR, PHA and PHP check S against the floor given
    (the build's ENGINE_STACK_FLOOR for the engine, which is entered at
    S = $FF and leaves the stack's last 16 bytes to the UI and the NMI);
  * (in Cpu.call) a runaway routine: a cycle limit per call.

emu_tests/test_romengine_guards.py proves that each one fires.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from tools.asm.opcodes import OPCODES

PRG_START = 0x8000

OFFICIAL = frozenset(op for modes in OPCODES.values() for op in modes.values())   # 151 opcodes
# The stores and read-modify-writes that can reach past the zero page (the
# zero-page modes wrap inside it): their effective address is checked.
WIDE_MODES = ("abs", "absx", "absy", "indx", "indy")
STORES = {OPCODES[m][mode]: mode for m in ("sta", "stx", "sty") for mode in WIDE_MODES if mode in OPCODES[m]}
STORED = {OPCODES[m][mode]: m[2] for m in ("sta", "stx", "sty") for mode in WIDE_MODES if mode in OPCODES[m]}
RMWS = {OPCODES[m][mode]: mode for m in ("asl", "lsr", "rol", "ror", "inc", "dec")
        for mode in WIDE_MODES if mode in OPCODES[m]}


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


class Guarded(Protocol):
    """What the guards need of a CPU (tools/nes/cpu.py's Cpu)."""
    mpu: Any                      # py65's MPU
    mem: list                     # its memory
    writable: bytearray           # 1 for each byte the code may write
    stack_floor: int
    stop: int                     # the host's return address
    base_sp: int                  # S when the called routine returns to the host
    bank_register: Any            # tools/nes/mapper.py's BankRegister, None without one


def guarded_table(cpu: Guarded) -> list[Callable]:
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

    register = cpu.bank_register                  # None: no mapper register (NROM)

    def checked_store(op, mode):
        orig, fn, reg = table[op], addr_of[mode], STORED.get(op)   # reg: the stored register, None for a RMW

        def h(m):
            a = fn(m)
            if not writable[a]:
                if register is None or a < PRG_START:
                    raise Fault("write outside the memory map", f"${a:04X} is not engine RAM", m.pc - 1)
                if reg is None:
                    raise Fault("read-modify-write on ROM", f"${a:04X} is the bank register's ROM", m.pc - 1)
                value = getattr(m, reg)
                register.check(a, value, m.pc - 1)
                orig(m)                           # stores the ROM's own byte: the image is unchanged
                register.switch(value)
                return
            orig(m)
        return h

    for op, mode in {**STORES, **RMWS}.items():
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
