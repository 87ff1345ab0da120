"""The cartridge's bank switching (asm/system/bank.s) on the py65 model of
the UxROM board (tools/nes/mapper.py: bus conflicts fault, the window is
what the bank register selects).

far_call is run as the ROM has it: small probe routines are written into
the cartridge's empty banks (the ROM's own far_call and far_return in the
fixed bank call them), so the test sees the real code pass A, X, Y and the
flags both ways, map the caller's bank back, nest, and cost what bank.s's
header says.  The NMI is run with nothing mapped at $8000-$BFFF: every byte
of the window raises when read, so a test passes only if the NMI keeps to
the fixed bank and RAM (the rule that lets the main loop switch banks
without telling it).
"""
from __future__ import annotations

import re

import pytest
from py65.devices.mpu6502 import MPU

from tools.nes.cartridge import PRG_BANK, Cartridge
from tools.nes.cpu import Cpu, cycle_table
from tools.nes.guards import Unmapped
from tools.nes.linkmap import LinkMap
from tools.rom.files import MAP, ROM, ROOT

BANK_S = ROOT / "asm" / "system" / "bank.s"
WINDOW = 0x8000
OUT = 0x0700                          # the probes' record (engine RAM, free outside a search)
CALLER_BANK, TARGET_BANK, NESTED_BANK = 4, 5, 6


@pytest.fixture(scope="module")
def link(rom_path) -> LinkMap:
    return LinkMap.load(MAP)


def le(v: int) -> list[int]:
    return [v & 0xFF, v >> 8]


def probe(link: LinkMap, out: int, a: int, x: int, y: int, flags_out: str) -> list[int]:
    """Code that records what it was called with (A, X, Y, P, bank_cur, S at
    out..out+5), then returns A, X, Y and flags of its own."""
    code = [0x08,                                   # php
            0x8D, *le(out), 0x8E, *le(out + 1), 0x8C, *le(out + 2),   # sta/stx/sty
            0x68, 0x8D, *le(out + 3),               # pla; sta: P on entry
            0xAD, *le(link.symbols()["bank_cur"]), 0x8D, *le(out + 4),
            0xBA, 0x8E, *le(out + 5),               # tsx; stx: S inside
            0xA9, a, 0xA2, x, 0xA0, y]              # the outputs
    code += [0x38] if "C" in flags_out else [0x18]  # sec / clc
    code += [0xB8]                                  # clv (V out = 0)
    return code + [0x60]                            # rts


def caller(link: LinkMap, target: int, bank: int, out: int) -> list[int]:
    """FAR_CALL target, then record A, X, Y, P, bank_cur at out..out+4."""
    return [0x20, *le(link.symbols()["far_call"]), *le(target), bank,
            0x08, 0x8D, *le(out), 0x8E, *le(out + 1), 0x8C, *le(out + 2),
            0x68, 0x8D, *le(out + 3),
            0xAD, *le(link.symbols()["bank_cur"]), 0x8D, *le(out + 4),
            0x60]


def data_banks(rom: Cartridge, link: LinkMap) -> set[int]:
    """The switchable banks that hold no code these tests run: neither the
    main loop's nor the engine's (the book's data and the free banks)."""
    code = {link.bank_of("main"), link.bank_of("eng_search"), link.bank_of("chr_patterns")}
    return set(range(rom.banks - 1)) - code - {rom.fixed_bank}


def cartridge_with(rom: Cartridge, code: dict[int, list[int]]) -> Cartridge:
    """The ROM with `code` at $8000 of some of its data banks (a copy: the
    probes only run the fixed bank's far call and themselves)."""
    assert set(code) <= data_banks(rom, LinkMap.load(MAP)), "the probes need banks without code"
    prg = bytearray(rom.prg)
    for bank, bytes_ in code.items():
        prg[bank * PRG_BANK:bank * PRG_BANK + len(bytes_)] = bytes_
    h = bytes(open(ROM, "rb").read(16))
    return Cartridge.from_bytes(h + bytes(prg) + rom.chr, "ROM with probes")


def cpu_for(cart: Cartridge, link: LinkMap) -> Cpu:
    cpu = Cpu(cart, [(0, 0x0800)], link.symbols()["eng_host_stop"], stack_floor=link.segment("STACK")[0],
              bank=CALLER_BANK)
    cpu.mem[link.symbols()["bank_cur"]] = CALLER_BANK     # as the main loop keeps it
    return cpu


def header_cycles() -> int:
    m = re.search(r"; Cycles: (\d+) \(on the way in and out together", BANK_S.read_text())
    assert m, "bank.s: far_call's header states its cycles"
    return int(m.group(1))


@pytest.mark.parametrize("carry", [False, True])
@pytest.mark.parametrize("regs", [(0x00, 0x00, 0x00), (0x81, 0x7E, 0xFF), (0x3C, 0xC3, 0x5A)])
def test_far_call_passes_registers_and_maps_back(link, rom_path, regs, carry):
    rom = Cartridge.load(rom_path)
    a, x, y = regs
    cart = cartridge_with(rom, {CALLER_BANK: caller(link, WINDOW, TARGET_BANK, OUT + 8),
                                TARGET_BANK: probe(link, OUT, 0x5A, 0xA5, 0x3C, "C")})
    cpu = cpu_for(cart, link)
    switches = cpu.bank_switches
    cpu.call(WINDOW, a=a, x=x, y=y, carry=carry, bank=CALLER_BANK)
    got_in = cpu.mem[OUT:OUT + 6]
    assert got_in[:3] == [a, x, y], "the target sees the caller's A, X, Y"
    assert got_in[3] & 0x01 == int(carry), "and its carry"
    assert got_in[4] == TARGET_BANK, "bank_cur names the target's bank during the call"
    assert got_in[5] == 0xFD - 2 - 3, "the target runs 3 bytes deeper than after a JSR"
    out = cpu.mem[OUT + 8:OUT + 13]
    assert out[:3] == [0x5A, 0xA5, 0x3C], "the caller sees the target's A, X, Y"
    assert out[3] & 0xC3 == 0x01, "and its flags (C set, V, N, Z clear)"
    assert out[4] == CALLER_BANK and cpu.bank == CALLER_BANK, "the caller's bank is mapped back"
    assert cpu.bank_switches - switches == 2, "one switch in, one out"
    assert cpu.mpu.sp == 0xFF, "the stack is balanced"


def test_far_calls_nest(link, rom_path):
    """bank 4 -> far bank 6 -> far bank 5 and back: each return maps its caller's bank."""
    rom = Cartridge.load(rom_path)
    nested = caller(link, WINDOW, TARGET_BANK, OUT + 16)     # in bank 6: records bank_cur after
    cart = cartridge_with(rom, {CALLER_BANK: caller(link, WINDOW, NESTED_BANK, OUT + 8),
                                NESTED_BANK: nested,
                                TARGET_BANK: probe(link, OUT, 1, 2, 3, "")})
    cpu = cpu_for(cart, link)
    cpu.call(WINDOW, a=9, x=8, y=7, bank=CALLER_BANK)
    assert cpu.mem[OUT:OUT + 3] == [9, 8, 7] and cpu.mem[OUT + 4] == TARGET_BANK
    assert cpu.mem[OUT + 16:OUT + 19] == [1, 2, 3] and cpu.mem[OUT + 20] == NESTED_BANK
    # the middle routine returns with A = bank_cur (its last load), X and Y from the probe
    assert cpu.mem[OUT + 8:OUT + 11] == [NESTED_BANK, 2, 3] and cpu.mem[OUT + 12] == CALLER_BANK
    assert cpu.bank == CALLER_BANK and cpu.mpu.sp == 0xFF


def test_far_call_costs_what_its_header_says(link, rom_path):
    """The cycles far_call and far_return add to a JSR to the same routine."""
    rom = Cartridge.load(rom_path)
    target = probe(link, OUT, 0, 0, 0, "")
    direct = [0x20, *le(WINDOW + 0x100), 0x60]              # jsr target; rts (same bank)
    far = [0x20, *le(link.symbols()["far_call"]), *le(WINDOW), TARGET_BANK, 0x60]
    code = {CALLER_BANK: far, TARGET_BANK: target}
    cart = cartridge_with(rom, code)
    cpu = cpu_for(cart, link)
    far_cycles = cpu.call(WINDOW, bank=CALLER_BANK)
    prg = bytearray(cart.prg)
    base = NESTED_BANK * PRG_BANK
    prg[base:base + len(direct)] = direct
    prg[base + 0x100:base + 0x100 + len(target)] = target
    cpu2 = cpu_for(Cartridge.from_bytes(open(ROM, "rb").read(16) + bytes(prg), "direct"), link)
    direct_cycles = cpu2.call(WINDOW, bank=NESTED_BANK)
    print(f"far_call + far_return: {far_cycles - direct_cycles} cycles")
    assert far_cycles - direct_cycles == header_cycles()


def test_bank_table_holds_its_index_in_the_fixed_bank(link, rom_path):
    """Every switch writes N where ROM holds N, in the bank that is always
    mapped: no bus conflict whatever bank the window shows."""
    cart = Cartridge.load(rom_path)
    at = link.symbols()["bank_table"]
    assert at >= 0xC000 and link.bank_of("bank_table") == cart.fixed_bank
    assert list(cart.read(at, cart.banks)) == list(range(cart.banks))


def test_reset_maps_the_main_loops_bank(link, rom_path):
    """After reset (rendering off, NMI off) the window shows the bank that
    holds main, and bank_cur says so: cynes runs the reset code."""
    from tools.nes.console import Console
    con = Console(rom_path)
    con.wait_frames(10)
    assert con.byte("bank_cur") == link.bank_of("main")


@pytest.mark.parametrize("busy", [0, 1])
@pytest.mark.parametrize("queued", [False, True])
def test_nmi_never_reads_the_switchable_bank(link, rom_path, busy, queued):
    """The NMI (with and without a search running, with and without queued
    VRAM updates) runs with every byte of $8000-$BFFF unreadable."""
    cart = Cartridge.load(rom_path)
    sym = link.symbols()
    mem: list = [0] * 0x10000
    mem[0xC000:0x10000] = list(cart.bank(cart.fixed_bank))
    for a in range(WINDOW, 0xC000):
        mem[a] = Unmapped(a)
    mem[0x2002] = 0x80                     # PPUSTATUS: in vblank
    mem[sym["ui_busy"]] = busy
    if queued:
        q = sym["vram_queue"]
        mem[q:q + 6] = [2, 0x20, 0x40, 0x41, 0x42, 0]
        mem[sym["vram_queue_len"]] = 5
        mem[sym["frame_ready"]] = 1
    mpu = MPU(memory=mem)
    mpu.cycletime = cycle_table()
    ret = 0x07F0
    mem[0x01FD:0x0200] = [0x20, ret & 0xFF, ret >> 8]        # P, PCL, PCH as the interrupt pushes them
    mpu.sp, mpu.pc = 0xFC, sym["nmi_handler"]
    for _ in range(5000):
        if mpu.pc == ret:
            break
        mpu.step()
    else:
        raise AssertionError("nmi_handler did not return")
    assert mpu.sp == 0xFF
    assert mem[sym["nmi_count"]] == 1
