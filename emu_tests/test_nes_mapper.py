"""The cartridge model of the py65 drivers: the iNES / NES 2.0 header, NROM
and UxROM (mapper 2) mapping, the bank register with its faults, and the
driver's choice of bank for a call.

The UxROM images are built here by hand: four 16 KiB banks, bank 3 fixed at
$C000-$FFFF.  Bank k holds, at $8000, a routine storing the marker $A0 + k
(read from its own $8100) at $10 + k, and at $8010 the table 0 1 2 3; the
fixed bank holds the code that switches banks and, at $C040, the bank
table 0 1 2 3 4 that bus-conflict-free writes use (the value written equals
the ROM byte written to).
"""
from __future__ import annotations

import json

import pytest

from tools.nes.cartridge import Cartridge, CartridgeError, Header
from tools.nes.cpu import Cpu
from tools.nes.engine import RomEngine
from tools.nes.guards import Fault

STOP, FLOOR = 0xC0F0, 0x01D0
RAM = [(0x0000, 0x0200)]
BANKS = 4
TABLE = 0xC040                                    # 0 1 2 3 4: bank numbers in the fixed bank


def asm(*parts) -> bytes:
    return b"".join(bytes(p) for p in parts)


LDA, LDX, STA, STX, JSR, RTS, INC = 0xA9, 0xA2, 0x8D, 0x8E, 0x20, 0x60, 0xEE


def w(addr: int) -> list[int]:
    return [addr & 0xFF, addr >> 8]


FIXED = {
    0xC000: asm([LDA, 1, STA, *w(TABLE + 1)], [JSR, *w(0x8000)],      # bank 1, its routine
                [LDX, 2, STX, *w(TABLE + 2)], [JSR, *w(0x8000)],      # bank 2 (STX), its routine
                [LDA, 3, STA, *w(0x8013)], [RTS]),                    # bank 3 through the window's table
    0xC020: asm([LDA, 1, STA, *w(TABLE + 2), RTS]),                   # 1 where the ROM holds 2
    0xC028: asm([INC, *w(TABLE + 1), RTS]),                           # INC on the bank register
    0xC030: asm([LDA, 4, STA, *w(TABLE + 4), RTS]),                   # bank 4 of 0-3 (no conflict)
    TABLE: bytes([0, 1, 2, 3, 4]),
    STOP: asm([0x4C, *w(STOP)]),
}


def bank_code(k: int) -> dict[int, bytes]:
    return {0x8000: asm([LDX, k, 0xAD, *w(0x8100), 0x95, 0x10, RTS]),   # ldx #k / lda $8100 / sta $10,x
            0x8010: bytes([0, 1, 2, 3]),
            0x8100: bytes([0xA0 + k])}


def ines(prg_banks: int, chr_banks: int, flags6: int, flags7: int, rest: bytes = bytes(8)) -> bytes:
    return b"NES\x1a" + bytes([prg_banks, chr_banks, flags6, flags7]) + rest


def uxrom_file(banks: list[dict[int, bytes]], nes2: bool = False) -> bytes:
    """A mapper 2 file with these banks ({CPU address: bytes}, bank 0-2 at
    $8000, the last at $C000) and 8 KiB of CHR RAM."""
    prg = bytearray()
    for k, parts in enumerate(banks):
        image = bytearray([0xEA] * 0x4000)
        base = 0xC000 if k == len(banks) - 1 else 0x8000
        for addr, data in parts.items():
            image[addr - base:addr - base + len(data)] = data
        prg += image
    if nes2:    # byte 8: submapper 2 (AND bus conflicts); byte 11: 64 << 7 = 8 KiB CHR RAM
        header = ines(len(banks), 0, 0x20, 0x08, bytes([0x20, 0, 0, 0x07, 0, 0, 0, 0]))
    else:
        header = ines(len(banks), 0, 0x20, 0x00)
    return header + bytes(prg)


def cartridge(nes2: bool = False) -> Cartridge:
    return Cartridge.from_bytes(uxrom_file([bank_code(k) for k in range(BANKS - 1)] + [FIXED], nes2), "test")


def cpu(bank: int = 0) -> Cpu:
    return Cpu(cartridge(), RAM, STOP, stack_floor=FLOOR, bank=bank)


# ---------------------------------------------------------------- the header
def test_header_nrom_ines():
    h = Header.parse(ines(2, 1, 0x01, 0x00))
    assert (h.mapper, h.submapper, h.prg_size, h.chr_size, h.chr_ram_size, h.nes2) == (0, 0, 0x8000, 0x2000, 0, False)
    assert h.vertical_mirroring and not h.trainer and h.board == "NROM"


def test_header_uxrom_ines():
    h = Header.parse(ines(8, 0, 0x20, 0x00))
    assert (h.mapper, h.submapper, h.prg_size, h.chr_size, h.chr_ram_size, h.nes2) == (2, 0, 0x20000, 0, 0x2000, False)
    assert h.board == "UxROM"


def test_header_uxrom_nes2():
    h = Header.parse(ines(8, 0, 0x21, 0x08, bytes([0x20, 0, 0, 0x07, 0, 0, 0, 0])))
    assert (h.mapper, h.submapper, h.prg_size, h.chr_size, h.chr_ram_size, h.nes2) == (2, 2, 0x20000, 0, 0x2000, True)
    assert h.vertical_mirroring


def test_header_nes2_sizes_and_mapper_bits():
    # byte 8 low nibble: mapper bits 8-11; byte 9: the size MSBs; $F: exponent-multiplier
    h = Header.parse(ines(0x01, 0x00, 0x20, 0x08, bytes([0x01, 0x01, 0, 0, 0, 0, 0, 0])))
    assert h.mapper == 0x102 and h.prg_size == 0x101 * 0x4000
    h = Header.parse(ines(0b000111_01, 0, 0x00, 0x08, bytes([0, 0x0F, 0, 0, 0, 0, 0, 0])))
    assert h.prg_size == (1 << 7) * 3


def test_the_built_rom_agrees_with_its_map():
    """rom/xiangqi.nes's header and its map agree: banked (label_banks)
    exactly when the board has a bank register."""
    from tools.nes.linkmap import built
    from tools.rom.files import ROM
    link, cart = built(), Cartridge.load(ROM)
    assert cart.header.mapper in (0, 2)
    assert link.banked == cart.switchable
    assert len(cart.prg) == cart.banks * 0x4000 and cart.banks >= 2


@pytest.mark.parametrize("data,message", [
    (b"NEX\x1a" + bytes(12), "not an iNES file"),
    (ines(2, 1, 0x10, 0x00) + bytes(0x8000 + 0x2000), "mapper 1 is not modelled"),
    (ines(2, 1, 0x00, 0x00) + bytes(100), "116 bytes, the header needs 40976"),
    (ines(4, 1, 0x00, 0x00) + bytes(0x12000), "NROM holds 16 or 32 KiB"),
])
def test_header_errors(data, message):
    with pytest.raises(CartridgeError, match=message):
        Cartridge.from_bytes(data, "bad.nes")


# ---------------------------------------------------------------- the mapping
def test_nrom_16k_is_mirrored():
    prg = bytes(range(256)) * 64
    c = Cpu(prg, RAM, 0xFFF0, stack_floor=FLOOR)
    assert c.mem[0x8000:0x8100] == c.mem[0xC000:0xC100] == list(range(256))
    assert c.bank is None and c.bank_switches == 0
    with pytest.raises(ValueError, match="no switchable bank"):
        c.select_bank(1)


def test_uxrom_fixed_and_switchable_windows():
    cart = cartridge()
    assert (cart.banks, cart.fixed_bank, cart.switchable) == (4, 3, True)
    c = cpu(bank=1)
    assert c.mem[0x8100] == 0xA1 and c.mem[TABLE:TABLE + 5] == [0, 1, 2, 3, 4]
    c.select_bank(2)
    assert c.mem[0x8100] == 0xA2 and c.bank == 2 and c.bank_switches == 0     # the host's choice
    # the cartridge model reads by (bank, address), whatever is mapped
    assert [cart.read(0x8100, 1, k)[0] for k in range(3)] == [0xA0, 0xA1, 0xA2]
    assert cart.read(TABLE, 5) == bytes([0, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="say which bank"):
        cart.read(0x8100)


def test_code_switches_banks():
    """Fixed-bank code selects bank 1 (STA), runs its routine, bank 2 (STX),
    runs it, then bank 3 through a table in the switchable window."""
    c = cpu(bank=0)
    c.call(0xC000)
    assert c.mem[0x11:0x13] == [0xA1, 0xA2]      # each routine ran from its own bank
    assert c.bank == 3 and c.bank_switches == 3
    assert c.mem[0x8000:0x8040] == c.mem[0xC000:0xC040]     # the last bank in both windows


def test_a_call_maps_the_bank_given():
    c = cpu(bank=1)
    c.call(0x8000, bank=0)
    assert c.mem[0x10] == 0xA0 and c.bank == 0 and c.bank_switches == 0


@pytest.mark.parametrize("entry,kind", [
    (0xC020, "bus conflict at PC \\$C022: wrote \\$01 to \\$C042, where the ROM holds \\$02"),
    (0xC028, "read-modify-write on ROM at PC \\$C028"),
    (0xC030, "bank out of range at PC \\$C032: bank 4"),
], ids=["bus conflict", "read-modify-write", "bank out of range"])
def test_bank_register_faults(entry, kind):
    c = cpu()
    with pytest.raises(Fault, match=kind):
        c.call(entry)
    assert c.bank == 0 and c.bank_switches == 0   # no switch happened


def test_host_bank_out_of_range():
    with pytest.raises(Fault, match="bank out of range"):
        cpu().select_bank(4)


# ---------------------------------------------------------------- the driver
def test_the_engine_driver_maps_the_routines_bank(tmp_path):
    """RomEngine on a banked cartridge: starts with eng_search's bank,
    maps a routine's own bank for a call, the engine's bank (eng_search's)
    for a routine of the fixed bank, maps a bank given explicitly, and reads
    ROM tables by their label's bank."""
    rom, map_path = tmp_path / "banked.nes", tmp_path / "banked.map.json"
    fixed = dict(FIXED)
    fixed[0xC080] = bytes(range(32))                                   # code_kind
    fixed[0xC0A0] = asm([0xA5, 0x10, 0x85, 0x14, RTS])                 # lda $10 / sta $14
    rom.write_bytes(uxrom_file([bank_code(k) for k in range(BANKS - 1)] + [fixed]))
    seg = lambda start, size: {"start": start, "size": size}           # noqa: E731
    labels = {"eng_search": 0x8000, "other": 0x8000, "marker": 0x8100, "fixed_copy": 0xC0A0,
              "code_kind": 0xC080, "eng_host_stop": STOP, "piece_sq": 0x10, "board": 0x400, "counts": 0x40,
              "ms_from": 0x500, "ms_to": 0x600}
    map_path.write_text(json.dumps({
        "segments": {"ZEROPAGE": seg(0, 0x100), "ENGINE_PLY": seg(0x100, 0x60), "STACK": seg(0x1C0, 0x40),
                     "OAM": seg(0x200, 0x100), "ENGINE_LO": seg(0x300, 0x80), "ENGINE_BSS": seg(0x400, 0x400)},
        "memory": {}, "labels": labels,
        "exports": {"ENG_PLIES": 10, "ENGINE_STACK_FLOOR": FLOOR},
        "label_banks": {"eng_search": 1, "other": 2, "marker": 2, "fixed_copy": 3, "code_kind": 3,
                        "eng_host_stop": 3}}))
    eng = RomEngine(rom, map_path, build=False)
    assert eng.cpu.bank == 1 and eng.code_kind == list(range(32))
    assert eng.read("marker") == [0xA2]                                # bank 2's, with bank 1 mapped
    eng.call("other")
    assert eng.byte(0x12) == 0xA2 and eng.cpu.bank == 2
    eng.call("fixed_copy")                                             # the fixed bank: the engine's bank
    assert eng.cpu.bank == 1 and eng.byte(0x14) == eng.byte(0x10)
    eng.call("eng_search")
    assert eng.byte(0x11) == 0xA1 and eng.cpu.bank == 1
    eng.call("other", bank=0)                                          # an explicit bank wins
    assert eng.byte(0x10) == 0xA0 and eng.cpu.bank == 0
    assert eng.cpu.bank_switches == 0
