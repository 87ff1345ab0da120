"""One vocabulary for the ROM's memory, by name, in every driver.

The py65 drivers (RomEngine, RomSearch, RomGame) and the cynes console
(Console) all read and write the ROM's variables by the names the linker
map gives them:

    addr(name)                    the address of a label or exported symbol
    has(name)                     whether the map knows it
    byte(name, offset=0)          one byte
    word(name, offset=0)          a little-endian 16-bit value
    read(name, n=1, offset=0)     n bytes, as a list
    write(name, values, offset=0) one byte (an int) or a sequence of bytes
    const(name)                   an exported constant of the build

`name` may also be an address (an int).  A read of ROM ($8000-$FFFF) goes
to the cartridge model (tools/nes/cartridge.py) by (bank, address), the
bank being the label's (the linker map's "label_banks"), not to whatever
the running code happens to map; ROM cannot be written.  Each driver
supplies `cart` and the two primitives at the bottom.
"""
from __future__ import annotations

from typing import Iterable

from tools.nes.cartridge import PRG_WINDOW, Cartridge
from tools.nes.linkmap import LinkMap, MissingName


class NamedMemory:
    """The vocabulary on top of a driver's _load/_store and its link map."""

    link: LinkMap
    symbols: dict[str, int]
    cart: Cartridge

    # ---------------------------------------------------------- names
    def has(self, name: str) -> bool:
        return name in self.symbols

    def addr(self, name: str | int) -> int:
        if isinstance(name, int):
            return name
        try:
            return self.symbols[name]
        except KeyError:
            raise MissingName(f"'{name}' is not in {self.link.path} (not exported by the ROM?)") from None

    def const(self, name: str) -> int:
        return self.link.export(name)

    # ---------------------------------------------------------- access
    def read(self, name: str | int, n: int = 1, offset: int = 0) -> list:
        a = self.addr(name) + offset
        if a >= PRG_WINDOW:
            bank = self.link.bank_of(name) if isinstance(name, str) else None
            return list(self.cart.read(a, n, bank))
        return self._load(a, n)

    def byte(self, name: str | int, offset: int = 0) -> int:
        return self.read(name, 1, offset)[0]

    def word(self, name: str | int, offset: int = 0) -> int:
        lo, hi = self.read(name, 2, offset)
        return lo | (hi << 8)

    def write(self, name: str | int, values: int | Iterable[int], offset: int = 0) -> None:
        a = self.addr(name) + offset
        vals = [values] if isinstance(values, int) else list(values)
        if a + len(vals) > PRG_WINDOW:
            raise ValueError(f"{name}: ${a:04X} is ROM, it cannot be written")
        self._store(a, vals)

    # ---------------------------------------------------------- the driver's part
    def _load(self, addr: int, n: int) -> list:
        raise NotImplementedError

    def _store(self, addr: int, values: list[int]) -> None:
        raise NotImplementedError
