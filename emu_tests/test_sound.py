"""The sound effects (asm/system/sound.s): each effect under py65, with every APU
write recorded, against the table and the cycle bounds in sound.s's header;
priorities; an NMI between any two instructions of sfx_play; and the whole
ROM under cynes.

The py65 harness maps the PRG at $8000 and RAM below it in a py65
ObservableMemory that logs every write and every access to the locals
$00-$0F.  Routines are called with a return address pushed by hand (not
logged) and run until they return to a stop address.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from py65.devices.mpu6502 import MPU
from py65.memory import ObservableMemory

from tools.nes.cartridge import Cartridge
from tools.nes.cpu import cycle_table
from tools.nes.linkmap import LinkMap

ROOT = Path(__file__).resolve().parents[1]
SOUND_S = ROOT / "asm" / "system" / "sound.s"
GLOBAL_INC = ROOT / "asm" / "global.inc"

STOP = 0xFFF0                       # return address + 1 of every call (never run)
APU_WRITES = {0x4000, 0x4002, 0x4003, 0x400C, 0x400E}   # what sound_update may write
SILENT_MASK, SILENT = 0x3F, 0x30    # register 0: halt + constant volume, volume 0
PULSE_REGS, NOISE_REGS = range(0x4000, 0x4004), range(0x400C, 0x4010)
SFX_NONE, SFX_REG3 = 0xFF, 0x80
CHANNELS = ("pulse", "noise")


# ----------------------------------------------------------------- sources

def sfx_ids() -> dict[str, int]:
    text = GLOBAL_INC.read_text()
    ids = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(SFX_\w+)\s*=\s*(\d+)", text, re.M)}
    assert ids.pop("SFX_COUNT") == len(ids)
    return ids


def header_table() -> dict[str, dict]:
    """The effects table of sound.s's header: channels, frames, priority."""
    rows = {}
    for m in re.finditer(r"^;\s+(SFX_\w+)\s+(pulse \+ noise|pulse|noise)\s+(\d+)\s+(\d+)\s",
                         SOUND_S.read_text(), re.M):
        chans = {"pulse + noise": {"pulse", "noise"}}.get(m.group(2), {m.group(2)})
        rows[m.group(1)] = {"channels": chans, "frames": int(m.group(3)), "prio": int(m.group(4))}
    return rows


def header_cycles(proc: str) -> int:
    """N of 'Cycles: at most N' in the comment block right above .proc."""
    lines = SOUND_S.read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if line.strip() == f".proc {proc}")
    block = []
    while i > 0 and lines[i - 1].startswith(";"):
        i -= 1
        block.insert(0, lines[i])
    m = re.search(r"Cycles: at most ([\d,]+)", " ".join(block))
    assert m, f"no cycle bound in the header of {proc}"
    return int(m.group(1).replace(",", ""))


# ----------------------------------------------------------------- harness

class Sound:
    """sound.s's routines on a py65 6502 with the writes recorded."""

    def __init__(self, rom: Path) -> None:
        link = LinkMap.load(rom.with_suffix(".map.json"))
        self.labels = link.symbols()
        prg = Cartridge.load(rom).cpu_image(link.bank_of("sound_update"))   # sound_update's bank at $8000
        self.prg = prg
        rng = random.Random(1)           # RAM starts as garbage, as on the NES
        ram = [rng.randrange(256) for _ in range(0x0800)]
        self.mem = ObservableMemory(subject=ram + [0] * 0x7800 + list(prg))
        self.mpu = MPU(memory=self.mem)
        self.mpu.cycletime = cycle_table()   # py65's table with DEC abs fixed
        self.log: list[tuple[int, int]] = []     # (address, value) of every write
        self.locals_touched: list[int] = []
        self.recording = False
        self.mem.subscribe_to_write(range(0x10000), self._on_write)
        self.mem.subscribe_to_read(range(0x10), self._on_local)
        self.mem.subscribe_to_write(range(0x10), lambda a, v: self._on_local(a))
        self.mpu.sp = 0xFF
        self.ram = {n: self.labels[n] for n in ("sfx_pos", "sfx_timer", "sfx_prio")}
        self.own = {self.ram[n] + i for n in self.ram for i in (0, 1)}

    def _on_write(self, addr, value):
        if self.recording:
            self.log.append((addr, value))

    def _on_local(self, addr):
        if self.recording:
            self.locals_touched.append(addr)

    def addr(self, name: str) -> int:
        return self.labels[name]

    def rom_byte(self, addr: int) -> int:
        return self.prg[addr - 0x8000]

    def call(self, name: str, a: int = 0, x: int = 0, y: int = 0, limit: int = 10_000,
             nmi_after: int | None = None) -> int:
        """JSR name; returns the cycles including the JSR and the RTS.
        nmi_after=k: after k instructions, run sound_update as the NMI would
        (registers saved, stack below the current one)."""
        mpu = self.mpu
        self._push_return()
        mpu.a, mpu.x, mpu.y, mpu.pc = a, x, y, self.addr(name)
        start = mpu.processorCycles
        for k in range(limit):
            if mpu.pc == STOP:
                return mpu.processorCycles - start + 6
            if k == nmi_after:
                self.nmi()
            mpu.step()
        raise AssertionError(f"{name} did not return")

    def _push_return(self) -> None:
        mpu, rec = self.mpu, self.recording
        self.recording = False
        ret = STOP - 1
        self.mem[0x0100 + mpu.sp] = ret >> 8
        self.mem[0x0100 + ((mpu.sp - 1) & 0xFF)] = ret & 0xFF
        mpu.sp = (mpu.sp - 2) & 0xFF
        self.recording = rec

    def nmi(self) -> int:
        mpu = self.mpu
        saved = (mpu.pc, mpu.a, mpu.x, mpu.y, mpu.p, mpu.sp)
        mpu.sp = (mpu.sp - 6) & 0xFF            # the NMI's P, PC and A, X, Y
        cycles = self.call("sound_update")
        mpu.pc, mpu.a, mpu.x, mpu.y, mpu.p, mpu.sp = saved
        return cycles

    def update(self) -> tuple[int, list[tuple[int, int]]]:
        """One sound_update: its cycles and its writes."""
        n = len(self.log)
        self.recording = True
        cycles = self.call("sound_update")
        self.recording = False
        return cycles, self.log[n:]

    def play(self, sfx: int) -> int:
        self.recording = True
        cycles = self.call("sfx_play", a=sfx)
        self.recording = False
        return cycles

    def state(self) -> tuple[list[int], list[int], list[int]]:
        return tuple([self.mem[self.ram[n] + ch] for ch in (0, 1)]
                     for n in ("sfx_pos", "sfx_timer", "sfx_prio"))

    # --------------------------------------------------- the data in ROM
    def start(self, sfx: int, ch: int) -> int:
        return self.rom_byte(self.addr("sfx_start") + ch * len(sfx_ids()) + sfx)

    def prio(self, sfx: int, ch: int) -> int:
        return self.rom_byte(self.addr("sfx_start_prio") + ch * len(sfx_ids()) + sfx)

    def script(self, offset: int) -> list[int]:
        """The offsets a channel's sfx_pos takes while it plays the script
        at offset: each step and the end byte."""
        data = self.addr("sfx_data")
        out = []
        while True:
            out.append(offset)
            b = self.rom_byte(data + offset)
            if b == 0:
                return out
            offset += 4 if b & SFX_REG3 else 3

    def script_frames(self, offset: int) -> int:
        data = self.addr("sfx_data")
        return sum(self.rom_byte(data + o) & 0x7F for o in self.script(offset))


@pytest.fixture()
def snd(rom_path) -> Sound:
    s = Sound(rom_path)
    s.recording = True
    s.call("sound_init")
    s.recording = False
    return s


IDS = sfx_ids()
TABLE = header_table()


def chan_writes(writes, ch):
    regs = PULSE_REGS if ch == 0 else NOISE_REGS
    return [(a, v) for a, v in writes if a in regs]


# ----------------------------------------------------------------- tests

def test_header_documents_every_effect():
    assert set(TABLE) == set(IDS), "sound.s's header table must list every SFX_* id"


def test_prg_size_matches_the_header(snd):
    m = re.search(r"PRG: (\d+) bytes of code and (\d+) of data", SOUND_S.read_text())
    code = snd.addr("sfx_play__out") + 1 - snd.addr("sound_init")
    data = snd.addr("sfx_data_end") - snd.addr("sfx_start")
    assert (code, data) == (int(m.group(1)), int(m.group(2)))


def test_sound_init(snd):
    log = snd.log
    writes = dict(log)
    assert writes[0x4015] & 0x09 == 0x09, "pulse 1 and noise enabled"
    assert writes[0x4017] == 0x40, "frame counter: 4-step, no IRQ"
    assert writes[0x4000] & SILENT_MASK == SILENT and writes[0x400C] & SILENT_MASK == SILENT
    assert writes[0x4001] == 0x08, "pulse 1 sweep off (negate: low notes not muted)"
    order = [a for a, _ in log]
    assert order.index(0x400F) > order.index(0x4015), "noise length loaded after the enable"
    assert order.index(0x4000) < order.index(0x4015) and order.index(0x400C) < order.index(0x4015)
    assert snd.state()[1] == [0, 0], "both channels idle"
    assert not snd.locals_touched


def test_data_matches_the_header(snd):
    for name, sfx in IDS.items():
        row = TABLE[name]
        used = {CHANNELS[ch] for ch in (0, 1) if snd.start(sfx, ch) != SFX_NONE}
        assert used == row["channels"], name
        for ch in (0, 1):
            assert snd.prio(sfx, ch) == row["prio"], name
            if snd.start(sfx, ch) != SFX_NONE:
                assert snd.script_frames(snd.start(sfx, ch)) <= row["frames"], name
        assert max(snd.script_frames(snd.start(sfx, ch)) for ch in (0, 1)
                   if snd.start(sfx, ch) != SFX_NONE) == row["frames"], name


@pytest.mark.parametrize("name", sorted(IDS, key=IDS.get))
def test_effect_plays_and_ends(snd, name):
    sfx, row = IDS[name], TABLE[name]
    bound = header_cycles("sound_update")
    snd.play(sfx)
    assert snd.state()[1] == [1 if CHANNELS[ch] in row["channels"] else 0 for ch in (0, 1)]
    frames = []
    worst = 0
    for _ in range(row["frames"] + 1 + 60):
        cycles, writes = snd.update()
        worst = max(worst, cycles)
        frames.append(writes)
    log = [w for f in frames for w in f]
    # (d) only its own bytes and the APU's sound registers; no locals
    assert {a for a, _ in log} <= snd.own | APU_WRITES, \
        f"writes outside: {sorted({hex(a) for a, _ in log} - {hex(a) for a in snd.own | APU_WRITES})}"
    assert not snd.locals_touched
    for ch, chan in enumerate(CHANNELS):
        w = chan_writes(log, ch)
        if chan not in row["channels"]:
            assert w == [], f"{name} must not touch the {chan} channel"
            continue
        # (a) the first update starts it: volume > 0 (and a pulse note sets its period high)
        first = dict(chan_writes(frames[0], ch))
        reg0 = 0x4000 if ch == 0 else 0x400C
        assert first[reg0] & 0x30 == 0x30 and first[reg0] & 0x0F > 0
        assert (reg0 + 2) in first
        if ch == 0:
            assert 0x4003 in first, "a pulse script starts with a note"
        # (b) the last write silences it, within the documented length
        last = max(i for i, f in enumerate(frames) if chan_writes(f, ch))
        assert last + 1 <= row["frames"] + 1, f"{name}: {chan} still busy at update {last + 1}"
        a, v = chan_writes(frames[last], ch)[-1]
        assert a == reg0 and v & SILENT_MASK == SILENT, f"{name}: {chan} not silenced at its end"
        # the volume is up all the way before that
        for f in frames[:last]:
            for a, v in chan_writes(f, ch):
                if a == reg0:
                    assert v & 0x0F > 0
    assert snd.state()[1] == [0, 0], "idle at the end"
    for ch in (0, 1):
        if CHANNELS[ch] in row["channels"]:
            assert snd.state()[2][ch] == 0, "an ended effect leaves priority 0"
    # (e) the header's bound
    assert worst <= bound, f"sound_update took {worst} cycles, header says at most {bound}"


def test_idle_update_writes_nothing(snd):
    lo, hi = map(int, re.search(r"; (\d+)-(\d+) when both channels are idle",
                                SOUND_S.read_text()).groups())
    for _ in range(3):
        cycles, writes = snd.update()
        assert writes == []
        assert lo <= cycles <= hi


def test_worst_case_cycles(snd):
    """Both channels starting a note in the same update: every pair of
    steps, with the noise script at each of its steps."""
    bound = header_cycles("sound_update")
    worst = 0
    p_offsets = [o for sfx in IDS.values() if snd.start(sfx, 0) != SFX_NONE
                 for o in snd.script(snd.start(sfx, 0))]
    n_offsets = [o for sfx in IDS.values() if snd.start(sfx, 1) != SFX_NONE
                 for o in snd.script(snd.start(sfx, 1))]
    for po in p_offsets:
        for no in n_offsets:
            for ch, off in ((0, po), (1, no)):
                snd.mem[snd.ram["sfx_pos"] + ch] = off
                snd.mem[snd.ram["sfx_timer"] + ch] = 1
            cycles, _ = snd.update()
            worst = max(worst, cycles)
    print(f"sound_update worst case: {worst} cycles")
    assert worst <= bound
    scripts = int(re.search(r"with the current scripts at most (\d+)", SOUND_S.read_text()).group(1))
    assert worst <= scripts, f"the header's bound for the current scripts ({scripts}) is out of date"


def _pulse_log(snd, frames):
    out = []
    for _ in range(frames):
        out.append(chan_writes(snd.update()[1], 0))
    return out


@pytest.mark.parametrize("intruder", [n for n in IDS if n != "SFX_GAME_OVER"])
def test_game_over_is_not_cut(rom_path, intruder):
    """(c) A lower-priority effect in the middle of SFX_GAME_OVER leaves its
    pulse part intact; its noise part (if any) still plays."""
    def run(interrupt: bool):
        s = Sound(rom_path)
        s.call("sound_init")
        s.play(IDS["SFX_GAME_OVER"])
        head = _pulse_log(s, 10)
        if interrupt:
            s.play(IDS[intruder])
        tail = []
        noise = []
        for _ in range(TABLE["SFX_GAME_OVER"]["frames"]):
            w = s.update()[1]
            tail.append(chan_writes(w, 0))
            noise += chan_writes(w, 1)
        return head + tail, noise

    clean, _ = run(False)
    cut, noise = run(True)
    assert cut == clean, f"{intruder} changed SFX_GAME_OVER"
    assert bool(noise) == ("noise" in TABLE[intruder]["channels"])


def test_priority_rules(snd):
    s = snd
    # equal or higher priority replaces
    s.play(IDS["SFX_CURSOR"])
    s.play(IDS["SFX_SELECT"])
    assert s.state()[2][0] == TABLE["SFX_SELECT"]["prio"]
    s.play(IDS["SFX_CURSOR"])
    assert s.state()[2][0] == TABLE["SFX_SELECT"]["prio"], "a cursor tick does not cut a select blip"
    s.play(IDS["SFX_MOVE"])
    s.update()
    s.play(IDS["SFX_CHECK"])            # a move that gives check: the alert takes pulse 1
    assert s.state()[2] == [TABLE["SFX_CHECK"]["prio"], TABLE["SFX_MOVE"]["prio"]]
    assert s.state()[0][0] == s.start(IDS["SFX_CHECK"], 0)
    # once a channel is idle any effect may start
    for _ in range(TABLE["SFX_CHECK"]["frames"] + 1):
        s.update()
    assert s.state()[1] == [0, 0]
    s.play(IDS["SFX_CURSOR"])
    assert s.state()[1][0] == 1
    # ids out of range are ignored
    before = s.state()
    for bad in (len(IDS), 0x80, 0xFF):
        s.play(bad)
        assert s.state() == before


def test_sfx_play_registers_and_cycles(snd):
    bound = header_cycles("sfx_play")
    worst = 0
    for first in list(IDS.values()) + [None]:
        for second in IDS.values():
            s = snd
            s.call("sound_init")
            if first is not None:
                s.play(first)
                s.update()
            n = len(s.log)
            s.recording = True
            cycles = s.call("sfx_play", a=second, x=0x5A, y=0xA5)
            s.recording = False
            worst = max(worst, cycles)
            assert (s.mpu.a, s.mpu.x, s.mpu.y) == (second, 0x5A, 0xA5), "sfx_play preserves A, X, Y"
            stack = set(range(0x0100 + s.mpu.sp - 4, 0x0100 + s.mpu.sp + 1))
            assert {a for a, _ in s.log[n:]} <= snd.own | stack
    assert not snd.locals_touched
    print(f"sfx_play worst case: {worst} cycles")
    assert worst <= bound


def _valid_states(snd):
    """(pos, prio) pairs a busy channel may hold: a step of some script with
    that script's priority."""
    ok = [set(), set()]
    for sfx in IDS.values():
        for ch in (0, 1):
            if snd.start(sfx, ch) != SFX_NONE:
                ok[ch] |= {(o, snd.prio(sfx, ch)) for o in snd.script(snd.start(sfx, ch))}
    return ok


@pytest.mark.parametrize("old,new", [("SFX_MOVE", "SFX_CAPTURE"), ("SFX_CURSOR", "SFX_GAME_OVER"),
                                     ("SFX_CAPTURE", "SFX_MOVE"), ("SFX_GAME_OVER", "SFX_MOVE"),
                                     (None, "SFX_CAPTURE"), ("SFX_CHECK", "SFX_ERROR")])
def test_nmi_inside_sfx_play(rom_path, old, new):
    """An NMI between any two instructions of sfx_play sees each channel
    either idle or on a whole step of one effect, and the new effect then
    plays to its end."""
    probe = Sound(rom_path)
    valid = _valid_states(probe)
    # how many instructions sfx_play runs here
    probe.call("sound_init")
    if old:
        probe.play(IDS[old])
        probe.update()
    steps = 0
    probe.mpu.sp = 0xFF
    probe._push_return()
    probe.mpu.a, probe.mpu.pc = IDS[new], probe.addr("sfx_play")
    while probe.mpu.pc != STOP:
        probe.mpu.step()
        steps += 1
    _, want_timer, want_prio = probe.state()
    for k in range(steps):
        s = Sound(rom_path)
        s.call("sound_init")
        if old:
            s.play(IDS[old])
            s.update()
        seen = []

        def check():
            pos, timer, prio = s.state()
            for ch in (0, 1):
                if timer[ch]:
                    assert (pos[ch], prio[ch]) in valid[ch], \
                        f"NMI after {k} instructions: channel {ch} half-started ({pos[ch]}, {prio[ch]})"
            seen.append(s.state())

        orig_nmi = s.nmi

        def nmi():
            check()
            return orig_nmi()
        s.nmi = nmi
        s.recording = True
        s.call("sfx_play", a=IDS[new], nmi_after=k)
        s.recording = False
        assert seen, "the NMI ran"
        check()
        # the same channels as without the NMI took the new effect ...
        assert s.state()[2] == want_prio
        assert [t > 0 for t in s.state()[1]] == [t > 0 for t in want_timer]
        # ... and it (or the old one where that has priority) plays out
        for _ in range(70):
            s.update()
        assert s.state()[1] == [0, 0]
        assert not s.locals_touched


def test_runs_for_a_minute(snd):
    """A minute-long search is nothing special: 3,600 updates, effects
    started now and then, all end silent."""
    order = list(IDS.values())
    for frame in range(3600):
        if frame % 97 == 0:
            snd.play(order[(frame // 97) % len(order)])
        snd.update()
    for _ in range(70):
        snd.update()
    assert snd.state()[1] == [0, 0]
    regs = {}
    for a, v in snd.log:
        regs[a] = v
    assert regs[0x4000] & SILENT_MASK == SILENT and regs[0x400C] & SILENT_MASK == SILENT


# ----------------------------------------------------------------- whole ROM

def test_rom_runs_300_frames_with_sound(rom_path):
    cynes = pytest.importorskip("cynes")
    nes = cynes.NES(str(rom_path))
    m = json.loads(rom_path.with_suffix(".map.json").read_text())["labels"]
    nes.step(300)
    assert not nes.has_crashed
    assert nes[0x4015] & 0x08, "sound_init ran: noise enabled, its length counter loaded"
    data_len = m["sfx_data_end"] - m["sfx_data"]
    for ch in (0, 1):
        assert nes[m["sfx_timer"] + ch] <= 127
        assert nes[m["sfx_pos"] + ch] < data_len
