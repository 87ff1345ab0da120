"""A bare 6502 (py65) holding the cartridge's PRG and the engine's RAM only.

The engine needs no PPU or APU, so the drivers run its routines on py65
with nothing but RAM and ROM mapped, under the guards of tools/nes/guards.py.
`call(addr)` pushes the address of the host's stop label - 1 as a return
address, jumps to the routine and runs until its final RTS lands there.

The ROM is mapped as its board does (tools/nes/cartridge.py): NROM's PRG at
$8000-$FFFF; UxROM's last bank at $C000-$FFFF and, at $8000-$BFFF, the bank
the host selects for a call or the 6502 code selects with its bank register
(tools/nes/mapper.py).
"""
from __future__ import annotations

import contextlib
import random
from typing import Callable, Iterable, Iterator

from py65.devices.mpu6502 import MPU

from tools.nes.cartridge import FIXED_WINDOW, PRG_WINDOW, Cartridge
from tools.nes.guards import Fault, Returned, Unmapped, guarded_table
from tools.nes.mapper import BankRegister

DEFAULT_LIMIT = 2_000_000_000     # cycles per call
CHUNK = 2048                      # instructions between two cycle-limit checks


def cycle_table() -> list[int]:
    """py65's base cycles per opcode, corrected: py65 counts DEC abs ($CE)
    as 3 cycles where the 6502 takes 6.  Every other documented opcode's
    base count and page-cross rule agrees with the NMOS 6502 table
    (checked by emu_tests/test_romengine_guards.py)."""
    table = list(MPU.cycletime)
    table[0xCE] = 6
    return table


class Cpu:
    """A bare 6502 with the guards, running one cartridge."""

    def __init__(self, cart: Cartridge | bytes, ram_ranges: Iterable[tuple[int, int]], stop: int,
                 seed: int = 1, *, stack_floor: int, bank: int = 0) -> None:
        """cart: the cartridge (bytes: a bare NROM PRG of 16 or 32 KiB);
        ram_ranges: [start, end) of the RAM the code may use (random at
        first, as on the NES); stop: where the host's calls return to;
        stack_floor: the lowest stack byte a push may write (the build's
        ENGINE_STACK_FLOOR for the engine); bank: UxROM's bank at
        $8000-$BFFF to begin with."""
        self.cart = cart if isinstance(cart, Cartridge) else Cartridge.nrom(cart)
        self.stop = stop
        self.stack_floor = stack_floor
        self.writable = bytearray(0x10000)
        rng = random.Random(seed)
        mem: list = [None] * 0x10000
        for a in range(0x10000):
            mem[a] = Unmapped(a)
        for lo, hi in ram_ranges:
            for a in range(lo, hi):
                mem[a] = rng.randrange(256)        # RAM starts as garbage, as on the NES
                self.writable[a] = 1
        self.mem = mem
        if self.cart.switchable:
            self.bank_register: BankRegister | None = BankRegister(self.cart, mem, bank)
        else:
            self.bank_register = None
            mem[PRG_WINDOW:] = list(self.cart.cpu_image())
        self.mpu = MPU(memory=mem, pc=stop)
        self.mpu.cycletime = cycle_table()
        self.base_sp = 0xFF
        self.cycles = 0              # cycles of the last call
        self.total_cycles = 0
        self.mpu.instruct = guarded_table(self)

    # ---------------------------------------------------------- banks
    @property
    def bank(self) -> int | None:
        """UxROM's bank at $8000-$BFFF now (None on NROM)."""
        return None if self.bank_register is None else self.bank_register.bank

    @property
    def bank_switches(self) -> int:
        """Bank register writes by the 6502 code so far (0 on NROM)."""
        return 0 if self.bank_register is None else self.bank_register.switches

    def select_bank(self, bank: int) -> None:
        """The host maps `bank` at $8000-$BFFF (UxROM only)."""
        if self.bank_register is None:
            raise ValueError(f"{self.cart.name} is {self.cart.header.board}: it has no switchable bank")
        self.bank_register.select(bank)

    @contextlib.contextmanager
    def rom_byte_as(self, addr: int, bank: int | None, value: int) -> Iterator[None]:
        """For the duration of a `with`: the ROM byte at addr (in `bank` when
        addr is in $8000-$BFFF of a UxROM) reads as `value`, in this py65
        copy of the cartridge only.  The host's way to run the cartridge's
        code with one table entry changed (the engine without its book)."""
        if addr >= FIXED_WINDOW or self.bank_register is None:
            image, offset = self.mem, addr
        else:
            assert bank is not None, f"${addr:04X}: which bank?"
            image, offset = self.bank_register.images[bank], addr - PRG_WINDOW
        old = image[offset]
        image[offset] = value
        mapped = self.bank_register is not None and addr < FIXED_WINDOW and self.bank_register.bank == bank
        if mapped:
            self.mem[addr] = value
        try:
            yield
        finally:
            image[offset] = old
            if self.bank_register is not None and addr < FIXED_WINDOW and self.bank_register.bank == bank:
                self.mem[addr] = old

    # ---------------------------------------------------------- running
    def enter(self, addr: int, a: int = 0, x: int = 0, y: int = 0, carry: bool = False,
              bank: int | None = None) -> None:
        """Set up a JSR to addr from the host: `bank` mapped at $8000-$BFFF
        if given (else the current one stays), the return address on the
        stack (S = $FD after it), the registers, PC."""
        if bank is not None:
            self.select_bank(bank)
        mpu, mem = self.mpu, self.mem
        ret = self.stop - 1
        mem[0x01FF] = ret >> 8
        mem[0x01FE] = ret & 0xFF
        mpu.sp = 0xFD
        self.base_sp = 0xFF
        mpu.a, mpu.x, mpu.y = a & 0xFF, x & 0xFF, y & 0xFF
        mpu.p = (mpu.p & ~1) | (1 if carry else 0)
        mpu.pc = addr

    def call(self, addr: int, a: int = 0, x: int = 0, y: int = 0, carry: bool = False,
             limit: int = DEFAULT_LIMIT, bank: int | None = None,
             poll: Callable[[int], None] | None = None) -> int:
        """JSR addr with the registers given (and `bank` at $8000-$BFFF if
        given); returns the cycles spent.  `poll(cycles so far)`, if given,
        runs between two chunks of CHUNK instructions: the host's window on
        a long call (progress, or a RAM write that asks the 6502 code to
        stop, as the UCI adapter's `stop` does)."""
        self.enter(addr, a, x, y, carry, bank)
        mpu, mem = self.mpu, self.mem
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
                if poll is not None:
                    poll(cycles)
        except Returned:
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
