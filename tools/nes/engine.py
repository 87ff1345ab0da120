"""The ROM's engine (asm/engine) on a py65 6502: the host's driver.

RomEngine loads rom/xiangqi.nes and its linker map, builds a guarded Cpu
(tools/nes/cpu.py, tools/nes/guards.py) with the engine's RAM only, and
offers the engine's entry points with the reference's data structures:
load a reference Position, generate, make, unmake, perft, read the state
back as the reference's fields.  Addresses come from the linker's JSON map
(rom/xiangqi.map.json), never from a copy.

Beyond the Cpu's guards, RomEngine.make refuses a host-driven make past the
undo entries (eng_ply >= ENG_PLIES, which would overwrite the zero page
after them).  On a UxROM cartridge a call maps the routine's bank at
$8000-$BFFF (RomEngine.call); ROM tables are read by (bank, address)
through the cartridge model (tools/nes/memory.py).  The command line (`python -m tools.romengine`) is
tools/nes/cli.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.board import BOARD_SIZE, PLAYABLE  # noqa: E402
from reference_py.position import Position  # noqa: E402
from tools.nes.cartridge import FIXED_WINDOW, Cartridge, CartridgeError  # noqa: E402
from tools.nes.cpu import Cpu  # noqa: E402
from tools.nes.guards import Fault  # noqa: E402
from tools.nes.linkmap import LinkMap, LinkMapError, MissingName  # noqa: E402
from tools.nes.memory import NamedMemory  # noqa: E402
from tools.rom.files import MAP, ROM, ensure_rom  # noqa: E402

# OAM: the shadow OAM's page holds the engine's move keys (ms_key) during its calls (asm/ram.s)
ENGINE_RAM_SEGMENTS = ("ZEROPAGE", "ENGINE_PLY", "STACK", "OAM", "ENGINE_LO", "ENGINE_BSS")
LOCALS_END = 0x0010               # $00-$0F: LOCAL-16 scratch (asm/global.inc's calling convention)
PERFT_LIMIT = 200_000_000_000     # eng_perft: perft 4 of the suite's biggest takes ~4.5e9


def engine_ram(link: LinkMap) -> list[tuple[int, int]]:
    """The engine's RAM ranges.  In the zero page only the 16 locals and the
    engine's block (from piece_sq on) are the engine's: the UI's variables
    between them are outside its map.  bank_cur too: the opening book's
    probe maps its banks (asm/system/bank.s keeps the mapped bank there)."""
    ranges = []
    for name in ENGINE_RAM_SEGMENTS:
        lo, hi = link.segment(name)
        if name == "ZEROPAGE":
            if "piece_sq" not in link.labels:
                raise MissingName(f"{link.path}: no label piece_sq")
            ranges += [(lo, LOCALS_END), (link.labels["piece_sq"], hi)]
        else:
            ranges.append((lo, hi))
    if "bank_cur" in link.labels:
        ranges.append((link.labels["bank_cur"], link.labels["bank_cur"] + 1))
    return ranges


class RomEngine(NamedMemory):
    """The ROM's engine, with the reference's data structures readable."""

    def __init__(self, rom: Path = ROM, map_path: Path = MAP, seed: int = 1, build: bool = True) -> None:
        if build and rom == ROM:
            ensure_rom()
        self.cart = Cartridge.load(rom)
        self.link = LinkMap.load(map_path)
        self.symbols = self.link.symbols()
        if self.link.banked != self.cart.switchable:
            raise CartridgeError(f"{rom} is {self.cart.header.board} but {map_path} "
                                 f"{'has' if self.link.banked else 'has no'} label banks")
        first = 0                     # UxROM: the engine's bank at $8000-$BFFF to begin with
        if self.link.banked:
            first = self.link.bank_of("eng_search")
            if first is None:
                raise LinkMapError(f"{map_path}: eng_search has no bank")
        self.cpu = Cpu(self.cart, engine_ram(self.link), self.addr("eng_host_stop"), seed,
                       stack_floor=self.const("ENGINE_STACK_FLOOR"), bank=first)
        self.mem = self.cpu.mem
        self.a_board = self.addr("board")
        self.a_piece_sq = self.addr("piece_sq")
        # a piece's kind is a constant of its code (fixed slots): the ROM table
        self.code_kind = self.read("code_kind", 32)
        self.a_counts = self.addr("counts")
        self.a_ms_from, self.a_ms_to = self.addr("ms_from"), self.addr("ms_to")
        # undo entries (asm/ram.s, sized by tools/rom/gen_tables.py ply_sizes):
        # eng_make needs eng_ply < plies, eng_perft eng_ply + depth <= plies
        self.plies = self.const("ENG_PLIES")

    # ---------------------------------------------------------- memory
    def _load(self, addr: int, n: int) -> list:
        return self.mem[addr:addr + n]

    def _store(self, addr: int, values: list[int]) -> None:
        self.mem[addr:addr + len(values)] = values

    def bank_for(self, name: str) -> int | None:
        """The bank a call of `name` maps at $8000-$BFFF: the label's own
        bank when it lives there; the engine's bank (eng_search's) for a
        routine in the fixed bank, which runs with it mapped on the
        cartridge too (the game layer's far call maps it); None on NROM."""
        addr = self.addr(name)
        if not self.cart.switchable:
            return None
        if addr >= FIXED_WINDOW:
            return self.link.bank_of("eng_search")
        bank = self.link.bank_of(name)
        if bank is None:
            raise LinkMapError(f"{self.link.path}: {name} (${addr:04X}) has no bank")
        return bank

    def call(self, name: str, bank: int | None = None, **kw) -> int:
        """JSR to the routine `name` (A, X, Y, carry, limit: Cpu.call), with
        `bank` mapped at $8000-$BFFF, by default the routine's own
        (bank_for); returns the cycles spent.  bank_cur says which bank is
        mapped, as the cartridge's far calls keep it."""
        bank = self.bank_for(name) if bank is None else bank
        if bank is not None and "bank_cur" in self.link.labels:
            self.mem[self.link.labels["bank_cur"]] = bank
        return self.cpu.call(self.addr(name), bank=bank, **kw)

    # ---------------------------------------------------------- engine API
    def load(self, pos: Position, vset: int = 0) -> int:
        """eng_load from a reference position; returns the cycles."""
        buf = []
        for sq in PLAYABLE:
            code = pos.board[sq]
            if code:
                slot = (code & 0x0F) | (16 if code & 0x20 else 0)
                buf.append((8 if code & 0x20 else 0) + pos.piece_kind[slot])
            else:
                buf.append(0)
        self.write("ms_from", buf)
        self.write("eng_side", [pos.side])
        self.write("eng_clock", [pos.clock])
        self.write("eng_vset", [vset])
        return self.call("eng_load")

    def load_fen(self, fen: str, vset: int = 0) -> int:
        from reference_py.fen import parse_fen
        return self.load(parse_fen(fen), vset)

    def generate(self, captures_only: bool = False) -> list[int] | None:
        """eng_gen at the current ms_top; the moves (reference encoding), None on overflow.
        The move stack keeps them (ms_top advances)."""
        first = self.byte("ms_top")
        self.call("eng_gen_captures" if captures_only else "eng_gen")
        if self.cpu.carry:
            return None
        top = self.byte("ms_top")
        return [self.mem[self.a_ms_from + i] | (self.mem[self.a_ms_to + i] << 8) for i in range(first, top)]

    def make(self, index: int) -> int:
        if self.byte("eng_ply") >= self.plies:
            raise Fault("undo stack overflow", f"eng_make at eng_ply {self.byte('eng_ply')}: "
                        f"the ROM has ENG_PLIES = {self.plies} undo entries")
        return self.call("eng_make", x=index)

    def unmake(self) -> int:
        return self.call("eng_unmake")

    def in_check(self, side: int) -> bool:
        self.call("eng_in_check", a=side)
        return self.cpu.carry

    def is_legal(self) -> bool:
        self.call("eng_is_legal")
        return not self.cpu.carry

    def legal_moves(self) -> list[int]:
        """Legal moves in generation order (eng_in_check for the side to move,
        eng_gen, then eng_make / eng_is_legal / eng_unmake per move)."""
        self.in_check(self.byte("eng_side"))
        first = self.byte("ms_top")
        moves = self.generate()
        if moves is None:
            raise Fault("move stack overflow", "the root list does not fit")
        out = []
        for i, m in enumerate(moves):
            self.make(first + i)
            if self.is_legal():
                out.append(m)
            self.unmake()
        self.write("ms_top", [first])
        return out

    def perft(self, depth: int) -> int:
        """eng_perft: the whole recursion on the 6502.  When the stacked
        lists do not fit the move stack (perft 4 of wide middlegames: four
        lists of ~50 moves > 192 entries), the root level is done by the
        host instead, keeping a single root move on the stack."""
        self.call("eng_perft", a=depth, limit=PERFT_LIMIT)
        if not self.cpu.carry:
            return int.from_bytes(bytes(self.read("perft_count", 4)), "little")
        if self.byte("perft_ovf") == 2:
            raise ValueError(f"perft {depth}: deeper than the ROM's {self.plies - self.byte('eng_ply')} "
                             f"plies left (ENG_PLIES = {self.plies})")
        return self._perft_host_root(depth)

    def _perft_host_root(self, depth: int) -> int:
        first = self.byte("ms_top")
        moves = self.generate()
        if moves is None:
            raise Fault("move stack overflow", f"perft {depth}: the root list does not fit "
                        f"the {self.ms_capacity()}-entry move stack")
        self.write("ms_top", [first])
        self.in_check(self.byte("eng_side"))
        total = 0
        for m in moves:
            self.write("ms_from", [m & 0xFF], offset=first)
            self.write("ms_to", [m >> 8], offset=first)
            self.write("ms_top", [first + 1])
            self.make(first)
            if self.is_legal():
                total += 1 if depth == 1 else self.perft(depth - 1)
            self.unmake()
        self.write("ms_top", [first])
        return total

    def perft_divide(self, depth: int) -> list[tuple[int, int]]:
        """(move, count) per legal root move in generation order (reference perft_divide)."""
        self.in_check(self.byte("eng_side"))
        first = self.byte("ms_top")
        moves = self.generate()
        if moves is None:
            raise Fault("move stack overflow", "the root list does not fit")
        out = []
        for i, m in enumerate(moves):
            self.make(first + i)
            if self.is_legal():
                out.append((m, self.perft(depth - 1)))
            self.unmake()
        self.write("ms_top", [first])
        return out

    def ms_capacity(self) -> int:
        from reference_py.config import load_search
        return load_search().move_stack_entries

    # ---------------------------------------------------------- state
    def state(self) -> dict[str, object]:
        """The engine's position state, as the reference's fields.  piece_kind
        is the kind of each slot on the board (0 for a captured or unused
        slot), from the ROM's code_kind table: the ROM keeps no kind in RAM."""
        m = self.mem
        piece_sq = m[self.a_piece_sq:self.a_piece_sq + 32]
        return {
            "board": m[self.a_board:self.a_board + BOARD_SIZE],
            "piece_sq": piece_sq,
            "piece_kind": [k if sq else 0 for k, sq in zip(self.code_kind, piece_sq)],
            "count": m[self.a_counts:self.a_counts + 16],
            "side": self.byte("eng_side"),
            "clock": self.byte("eng_clock"),
            "key": self.word("eng_key"),
            "score": self.word("eng_score"),
        }

    def raw_state(self) -> bytes:
        """Every byte of position state, then eng_mterm, eng_chk, eng_ply, ms_top,
        eng_vbase (make/unmake round trips; ms_top is the second-to-last byte)."""
        s = self.state()
        extra = list(self.read("eng_mterm", 2)) + [self.byte("eng_chk"), self.byte("eng_ply"),
                                                   self.byte("ms_top"), self.byte("eng_vbase")]
        return bytes(s["board"] + s["piece_sq"] + s["count"]
                     + [s["side"], s["clock"], s["key"] & 0xFF, s["key"] >> 8,
                        s["score"] & 0xFF, s["score"] >> 8] + extra)


def reference_state(pos: Position) -> dict[str, object]:
    """The reference's fields as RomEngine.state() gives them (piece_kind of
    the slots on the board only)."""
    kinds = [k if sq else 0 for k, sq in zip(pos.piece_kind, pos.piece_sq)]
    return {"board": list(pos.board), "piece_sq": list(pos.piece_sq), "piece_kind": kinds,
            "count": list(pos.count), "side": pos.side, "clock": pos.clock, "key": pos.key,
            "score": pos.score & 0xFFFF}
