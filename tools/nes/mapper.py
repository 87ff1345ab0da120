"""UxROM's bank register on the py65 CPU: what a write to $8000-$FFFF does.

The board (NESdev wiki "UxROM") latches the byte written anywhere in
$8000-$FFFF and maps that 16 KiB bank at $8000-$BFFF.  The model is strict,
so code that passes it runs on every board of the family:

  * bus conflicts (UNROM): the ROM drives the data bus during the write, so
    the value written must equal the ROM byte at that address, as mapped
    now; anything else is Fault("bus conflict");
  * a bank number past the end of the ROM is Fault("bank out of range")
    (the latch would ignore high bits: the code must not rely on it);
  * a read-modify-write instruction on ROM is Fault("read-modify-write on
    ROM") (the 6502 writes twice: two switches, two conflicts).

A switch replaces the slice $8000-$BFFF of py65's memory list with the
bank's bytes: reads stay plain list indexing, with no cost per access.
"""
from __future__ import annotations

from tools.nes.cartridge import FIXED_WINDOW, PRG_BANK, PRG_WINDOW, Cartridge
from tools.nes.guards import Fault


class BankRegister:
    """The switchable window of a UxROM cartridge in a py65 memory list."""

    def __init__(self, cart: Cartridge, mem: list, bank: int) -> None:
        self.cart = cart
        self.mem = mem
        self.images = [list(cart.bank(n)) for n in range(cart.banks)]
        self.bank = -1
        self.switches = 0             # bank register writes by the 6502 code
        mem[FIXED_WINDOW:FIXED_WINDOW + PRG_BANK] = self.images[cart.fixed_bank]
        self.select(bank)

    def select(self, bank: int) -> None:
        """Map `bank` at $8000-$BFFF (the host's choice: not counted)."""
        if not 0 <= bank < len(self.images):
            raise Fault("bank out of range", f"bank {bank}: the ROM has banks 0-{len(self.images) - 1}")
        if bank != self.bank:
            self.mem[PRG_WINDOW:PRG_WINDOW + PRG_BANK] = self.images[bank]
            self.bank = bank

    def check(self, addr: int, value: int, pc: int) -> None:
        """The 6502 is about to store `value` at addr ($8000-$FFFF): fault on
        a bus conflict or a bank the ROM does not have."""
        rom = self.mem[addr]
        if value != rom:
            raise Fault("bus conflict", f"wrote ${value:02X} to ${addr:04X}, where the ROM holds ${rom:02X} "
                        f"(bank {self.bank if addr < FIXED_WINDOW else self.cart.fixed_bank})", pc)
        if value >= len(self.images):
            raise Fault("bank out of range", f"bank {value} written to ${addr:04X}: the ROM has banks "
                        f"0-{len(self.images) - 1}", pc)

    def switch(self, value: int) -> None:
        """The store happened (checked first): the latch takes the value."""
        self.switches += 1
        self.select(value)
