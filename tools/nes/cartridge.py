"""The cartridge as a file describes it: the iNES / NES 2.0 header, the PRG
ROM cut into 16 KiB banks, and which bytes the CPU sees at $8000-$FFFF.

The host's drivers read ROM tables and build the py65 CPU's memory from
this model, never from fixed file offsets, so they follow the ROM from NROM
to a banked board.  Two boards are modelled (NESdev wiki "INES", "NES 2.0",
"NROM", "UxROM"):

  mapper 0 (NROM)   16 KiB PRG mirrored at $8000 and $C000, or 32 KiB;
  mapper 2 (UxROM)  16 KiB banks: $C000-$FFFF the last bank, always;
                    $8000-$BFFF the bank the bank register selects.

Errors (a short file, a bad signature, an unmodelled mapper) raise
CartridgeError naming the file.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HEADER_SIZE = 16
TRAINER_SIZE = 512
PRG_BANK = 0x4000                 # 16 KiB: the PRG unit of the header and of UxROM's banks
CHR_BANK = 0x2000                 # 8 KiB
PRG_WINDOW = 0x8000               # the CPU sees PRG ROM at $8000-$FFFF
FIXED_WINDOW = 0xC000             # UxROM: the last bank, always
MAPPER_NAMES = {0: "NROM", 2: "UxROM"}


class CartridgeError(Exception):
    """The file is not a cartridge this model understands."""


@dataclass(frozen=True)
class Header:
    """The fields of a 16-byte iNES or NES 2.0 header the model uses."""
    mapper: int
    submapper: int                # 0 for iNES 1.0 (no such field)
    prg_size: int                 # bytes of PRG ROM
    chr_size: int                 # bytes of CHR ROM (0: the board has CHR RAM)
    chr_ram_size: int             # bytes of CHR RAM (NES 2.0 byte 11; 8 KiB assumed by iNES 1.0 without CHR ROM)
    nes2: bool
    trainer: bool
    vertical_mirroring: bool
    battery: bool

    @classmethod
    def parse(cls, data: bytes, name: str = "header") -> "Header":
        if len(data) < HEADER_SIZE or data[:4] != b"NES\x1a":
            raise CartridgeError(f"{name}: not an iNES file (no 'NES<EOF>' signature)")
        f6, f7 = data[6], data[7]
        nes2 = (f7 & 0x0C) == 0x08
        mapper = (f6 >> 4) | (f7 & 0xF0)
        submapper = 0
        if nes2:
            mapper |= (data[8] & 0x0F) << 8
            submapper = data[8] >> 4
            prg = _nes2_size(data[4], data[9] & 0x0F, PRG_BANK)
            chr_rom = _nes2_size(data[5], data[9] >> 4, CHR_BANK)
            shift = data[11] & 0x0F
            chr_ram = 64 << shift if shift else 0
        else:
            prg, chr_rom = data[4] * PRG_BANK, data[5] * CHR_BANK
            chr_ram = 0 if chr_rom else CHR_BANK
        return cls(mapper, submapper, prg, chr_rom, chr_ram, nes2, bool(f6 & 0x04), bool(f6 & 0x01),
                   bool(f6 & 0x02))

    @property
    def board(self) -> str:
        return MAPPER_NAMES.get(self.mapper, f"mapper {self.mapper}")


def _nes2_size(lsb: int, msb: int, unit: int) -> int:
    """NES 2.0 ROM size: (msb, lsb) units, or when msb is $F the
    exponent-multiplier form 2^E x (2M + 1) bytes with lsb = EEEEEEMM."""
    if msb == 0x0F:
        return (1 << (lsb >> 2)) * ((lsb & 3) * 2 + 1)
    return ((msb << 8) | lsb) * unit


@dataclass(frozen=True)
class Cartridge:
    header: Header
    prg: bytes
    chr: bytes
    name: str = "cartridge"

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "cartridge") -> "Cartridge":
        h = Header.parse(data, name)
        if h.mapper not in MAPPER_NAMES:
            raise CartridgeError(f"{name}: mapper {h.mapper} is not modelled (only NROM, 0, and UxROM, 2)")
        if h.prg_size == 0 or h.prg_size % PRG_BANK:
            raise CartridgeError(f"{name}: {h.prg_size} bytes of PRG ROM is not a whole number of 16 KiB banks")
        if h.mapper == 0 and h.prg_size > 2 * PRG_BANK:
            raise CartridgeError(f"{name}: NROM holds 16 or 32 KiB of PRG ROM, the header says {h.prg_size}")
        start = HEADER_SIZE + (TRAINER_SIZE if h.trainer else 0)
        end = start + h.prg_size + h.chr_size
        if len(data) < end:
            raise CartridgeError(f"{name}: {len(data)} bytes, the header needs {end} "
                                 f"({h.prg_size} PRG + {h.chr_size} CHR)")
        return cls(h, bytes(data[start:start + h.prg_size]), bytes(data[start + h.prg_size:end]), name)

    @classmethod
    def load(cls, path: str | Path) -> "Cartridge":
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CartridgeError(f"{path}: cannot read: {exc.strerror}") from None
        return cls.from_bytes(data, str(path))

    @classmethod
    def nrom(cls, prg: bytes) -> "Cartridge":
        """A bare NROM cartridge holding `prg` (16 or 32 KiB), for tests."""
        banks = len(prg) // PRG_BANK
        header = bytes([0x4E, 0x45, 0x53, 0x1A, banks, 0]) + bytes(10)
        return cls.from_bytes(header + bytes(prg), "NROM image")

    # ---------------------------------------------------------- banks
    @property
    def banks(self) -> int:
        """16 KiB PRG banks."""
        return self.header.prg_size // PRG_BANK

    @property
    def switchable(self) -> bool:
        """True if $8000-$BFFF is a bank register's choice (UxROM)."""
        return self.header.mapper == 2

    @property
    def fixed_bank(self) -> int:
        """The bank at $C000-$FFFF."""
        return self.banks - 1

    def bank(self, n: int) -> bytes:
        if not 0 <= n < self.banks:
            raise CartridgeError(f"{self.name}: no PRG bank {n} (banks 0-{self.banks - 1})")
        return self.prg[n * PRG_BANK:(n + 1) * PRG_BANK]

    def bank_at(self, addr: int, bank: int | None = None) -> int:
        """The bank whose bytes the CPU sees at addr when `bank` is the one
        selected at $8000-$BFFF (UxROM; NROM ignores it)."""
        if not PRG_WINDOW <= addr <= 0xFFFF:
            raise ValueError(f"${addr:04X} is not PRG ROM ($8000-$FFFF)")
        if not self.switchable:
            return ((addr - PRG_WINDOW) // PRG_BANK) % self.banks
        if addr >= FIXED_WINDOW:
            return self.fixed_bank
        if bank is None:
            raise ValueError(f"{self.name}: ${addr:04X} is in the switchable bank: say which bank")
        self.bank(bank)                                  # range check
        return bank

    def read(self, addr: int, n: int = 1, bank: int | None = None) -> bytes:
        """n bytes at CPU address addr, `bank` being the one at $8000-$BFFF
        (needed there on UxROM only).  A read may not cross from one bank
        into another."""
        b = self.bank_at(addr, bank)
        off = (addr - PRG_WINDOW) % PRG_BANK
        if off + n > PRG_BANK:
            raise ValueError(f"${addr:04X} + {n} crosses the end of bank {b}")
        return self.bank(b)[off:off + n]

    def cpu_image(self, bank: int | None = None) -> bytes:
        """The 32 KiB the CPU sees at $8000-$FFFF with `bank` selected at
        $8000-$BFFF (needed on UxROM only)."""
        return self.bank(self.bank_at(PRG_WINDOW, bank)) + self.bank(self.bank_at(FIXED_WINDOW, bank))
