"""The cartridge's 16-byte NES 2.0 header, byte for byte (NESdev wiki "NES 2.0").

Written out by hand here, not derived from asm/header.s or from the header
parser of tools/nes/cartridge.py, so that a flipped bit in either is caught:
a mirroring or battery bit, a mapper nibble, the CHR-RAM size.
"""
from __future__ import annotations

from tools.nes.cartridge import Header
from tools.rom.files import ROM, ensure_rom

EXPECTED = bytes([
    0x4E, 0x45, 0x53, 0x1A,   # "NES" EOF
    0x08,                     # 4: PRG ROM 8 x 16 KiB (LSB)
    0x00,                     # 5: no CHR ROM
    0x21,                     # 6: mapper 2 (low nibble), no battery, no trainer, vertical mirroring
    0x08,                     # 7: mapper high nibble 0, NES 2.0 identifier %10 in bits 2-3
    0x20,                     # 8: submapper 2 (UxROM with AND-type bus conflicts), mapper D8-D11 0
    0x00,                     # 9: ROM size MSBs
    0x00,                     # 10: no PRG RAM / NVRAM
    0x07,                     # 11: CHR-RAM 64 << 7 = 8,192 bytes, no CHR NVRAM
    0x00,                     # 12: NTSC
    0x00,                     # 13: not Vs. / extended
    0x00,                     # 14: no misc ROMs
    0x01,                     # 15: standard controllers
])


def test_header_bytes():
    ensure_rom()
    data = ROM.read_bytes()
    assert data[:16] == EXPECTED, f"header {data[:16].hex(' ')} != {EXPECTED.hex(' ')}"
    assert len(data) == 16 + 8 * 16384


def test_ines1_reader_sees_uxrom_with_chr_ram():
    """What an iNES 1.0 reader takes from the same bytes: mapper 2 (byte 6
    high nibble, byte 7 high nibble), 8 PRG banks, CHR count 0 = CHR RAM."""
    h = EXPECTED
    assert (h[6] >> 4) | (h[7] & 0xF0) == 2 and h[4] == 8 and h[5] == 0
    parsed = Header.parse(EXPECTED + bytes(8 * 16384))
    assert (parsed.mapper, parsed.submapper, parsed.nes2) == (2, 2, True)
    assert (parsed.prg_size, parsed.chr_size, parsed.chr_ram_size) == (131072, 0, 8192)
    assert parsed.vertical_mirroring and not parsed.battery and not parsed.trainer
