"""Each guard of tools.romengine fires on a tiny program that breaks its
rule, and the real engine runs clean under all of them."""
from __future__ import annotations

import pytest

from tools.nes.cpu import Cpu, cycle_table
from tools.nes.engine import RomEngine
from tools.nes.guards import Fault, Unmapped

CODE, STOP = 0x8000, 0xFFF0
RAM = [(0x0000, 0x0100), (0x0180, 0x0200), (0x0400, 0x0500)]   # a sparse test map
FLOOR = 0x01D0                                                 # its stack floor


def cpu_with(code: bytes) -> Cpu:
    prg = bytearray([0xEA] * 0x8000)            # NOP everywhere
    prg[0:len(code)] = code
    prg[STOP - 0x8000:STOP - 0x8000 + 3] = bytes([0x4C, STOP & 0xFF, STOP >> 8])
    return Cpu(bytes(prg), RAM, STOP, stack_floor=FLOOR)


def run(code: bytes, limit: int = 100_000) -> Cpu:
    cpu = cpu_with(code)
    cpu.call(CODE, limit=limit)
    return cpu


def test_a_clean_routine_returns():
    cpu = run(bytes([0xA9, 0x42, 0x85, 0x10, 0xE6, 0x10, 0x60]))   # lda #$42 sta $10 inc $10 rts
    assert cpu.mem[0x10] == 0x43
    assert cpu.cycles == 2 + 3 + 5 + 6


@pytest.mark.parametrize("opcode", [0x02, 0x1A, 0xA7, 0xEB, 0xFF])     # JAM, NOP, LAX, SBC, ISC
def test_undocumented_opcode(opcode):
    with pytest.raises(Fault, match="undocumented opcode at PC \\$8002"):
        run(bytes([0xEA, 0xEA, opcode, 0x60]))


def test_brk():
    with pytest.raises(Fault, match="BRK at PC \\$8001"):
        run(bytes([0xEA, 0x00, 0x60]))


@pytest.mark.parametrize("code,addr", [
    (bytes([0x8D, 0x00, 0x20, 0x60]), "$2000"),          # sta PPUCTRL
    (bytes([0x8D, 0x00, 0x03, 0x60]), "$0300"),          # sta into RAM outside the engine's map
    (bytes([0x8D, 0x00, 0x80, 0x60]), "$8000"),          # sta into ROM
    (bytes([0xA2, 0xFF, 0x9D, 0x01, 0x04, 0x60]), "$0500"),  # sta abs,x past the end of an area
    (bytes([0xA9, 0x00, 0x85, 0x20, 0xA9, 0x40, 0x85, 0x21, 0xA0, 0x16,
            0x91, 0x20, 0x60]), "$4016"),                # sta ($20),y onto the controller port
    (bytes([0xEE, 0x00, 0x40, 0x60]), "$4000"),          # inc on an APU register
])
def test_write_outside_the_map(code, addr):
    with pytest.raises(Fault, match=f"write outside the memory map.*\\{addr}"):
        run(code)


@pytest.mark.parametrize("code,addr", [
    (bytes([0xAD, 0x02, 0x20, 0x60]), "$2002"),          # lda PPUSTATUS
    (bytes([0xAD, 0x00, 0x08, 0x60]), "$0800"),          # lda from a RAM mirror
    (bytes([0x2C, 0x00, 0x03, 0x60]), "$0300"),          # bit on the VRAM queue (not the engine's RAM)
    (bytes([0xA2, 0x10, 0xDD, 0xF8, 0x04, 0x60]), "$0508"),  # cmp abs,x
])
def test_read_outside_the_map(code, addr):
    with pytest.raises(Fault, match=f"read outside the memory map.*\\{addr}"):
        run(code)


def test_runaway_loop_hits_the_cycle_limit():
    with pytest.raises(Fault, match="cycle limit"):
        run(bytes([0x4C, 0x00, 0x80]), limit=50_000)         # jmp *


def test_stack_overflow_by_recursion():
    with pytest.raises(Fault, match="stack overflow"):
        run(bytes([0x20, 0x00, 0x80]))                       # jsr * (endless recursion)


def test_stack_overflow_by_pushes():
    with pytest.raises(Fault, match="stack overflow"):
        run(bytes([0x48, 0x4C, 0x00, 0x80]))                 # pha / jmp *


def test_jump_into_ram():
    with pytest.raises(Fault, match="jump into RAM"):
        run(bytes([0xA9, 0x00, 0x85, 0x20, 0x85, 0x21, 0x6C, 0x20, 0x00]))   # jmp ($0020) -> $0000


def test_the_engine_runs_clean_under_every_guard():
    """The real ROM: a perft touches only its own RAM, pushes within the
    stack floor and returns (any fault would raise)."""
    from reference_py.fen import START_FEN, parse_fen
    eng = RomEngine()
    eng.load(parse_fen(START_FEN))
    assert eng.perft(2) == 1920


def test_make_past_the_undo_entries():
    """RomEngine.make refuses a make at eng_ply = ENG_PLIES (the undo arrays
    end there), before the 6502 runs."""
    from reference_py.fen import START_FEN, parse_fen
    eng = RomEngine()
    assert eng.plies == eng.addr("undo_to") - eng.addr("undo_from")
    eng.load(parse_fen(START_FEN))
    eng.generate()
    eng.write("eng_ply", [eng.plies])
    with pytest.raises(Fault, match=f"undo stack overflow.*ENG_PLIES = {eng.plies}"):
        eng.make(0)
    eng.write("eng_ply", [eng.plies - 1])
    eng.make(0)
    assert eng.byte("eng_ply") == eng.plies


def test_the_engine_map_excludes_the_ui_and_the_hardware():
    eng = RomEngine()
    for name in ("cursor_file", "nmi_count", "pad_held", "vram_queue", "attr_shadow"):
        assert isinstance(eng.mem[eng.addr(name)], Unmapped), name
    for addr in (0x2000, 0x2007, 0x4014, 0x4016, 0x0800, 0x6000):
        assert isinstance(eng.mem[addr], Unmapped), hex(addr)
    for name in ("piece_sq", "board", "ms_key", "s_killers", "rep_key_hi", "history"):
        assert not isinstance(eng.mem[eng.addr(name)], Unmapped), name
    assert eng.addr("ms_key") == eng.addr("oam")     # the keys borrow the shadow OAM's page


# The NMOS 6502's base cycles per opcode (documented opcodes only are compared).
NMOS_CYCLES = bytes.fromhex(
    "07060208030305050302020204040606" "02050208040406060204020704040707"
    "06060208030305050402020204040606" "02050208040406060204020704040707"
    "06060208030305050302020203040606" "02050208040406060204020704040707"
    "06060208030305050402020205040606" "02050208040406060204020704040707"
    "02060206030303030202020204040404" "02060206040404040205020505050505"
    "02060206030303030202020204040404" "02050205040404040204020404040404"
    "02060208030305050202020204040606" "02050208040406060204020704040707"
    "02060208030305050202020204040606" "02050208040406060204020704040707")


def test_cycle_table_matches_the_6502() -> None:
    """py65 gets DEC abs wrong (3 cycles instead of 6); the harness's table
    is corrected, and every documented opcode now has the 6502's count."""
    from tools.asm.opcodes import OPCODES
    table = cycle_table()
    documented = {op for modes in OPCODES.values() for op in modes.values()}
    assert len(documented) == 151
    wrong = {hex(op): (table[op], NMOS_CYCLES[op]) for op in documented if table[op] != NMOS_CYCLES[op]}
    assert not wrong
