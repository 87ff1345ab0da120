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

`name` may also be an address (an int).  ROM ($8000-$FFFF) cannot be
written.  Each driver supplies the two primitives at the bottom.
"""
from __future__ import annotations

from typing import Iterable

from tools.nes.linkmap import LinkMap

PRG_WINDOW = 0x8000               # the cartridge's PRG ROM: $8000-$FFFF


class NamedMemory:
    """The vocabulary on top of a driver's _load/_store and its link map."""

    link: LinkMap
    symbols: dict[str, int]

    # ---------------------------------------------------------- names
    def has(self, name: str) -> bool:
        return name in self.symbols

    def addr(self, name: str | int) -> int:
        if isinstance(name, int):
            return name
        try:
            return self.symbols[name]
        except KeyError:
            raise KeyError(f"'{name}' is not in {self.link.path} (not exported by the ROM?)") from None

    def const(self, name: str) -> int:
        return self.link.export(name)

    # ---------------------------------------------------------- access
    def read(self, name: str | int, n: int = 1, offset: int = 0) -> list:
        return self._load(self.addr(name) + offset, n)

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
