"""The position on the cartridge as a FEN, from the console's RAM.

The ROM keeps no FEN: its position is the engine's padded board (`board`,
154 bytes, reference_py/board.py's mailbox with piece codes whose slot
gives the kind), `eng_side`, `eng_clock` and the game's `game_ply`.  This
module reads those by name (the build's linker map, tools/nes/linkmap.py)
from anything that speaks tools/nes/memory.py's vocabulary: the running
cynes console (Console.fen uses it) or a 2 KiB RAM image saved by an
emulator (FCEUX's or Mesen's memory export, cynes' RAM), so a position set
up in the cartridge's editor, or any game in progress, can be taken to a
PC engine.  The FEN text itself is reference_py/fen.py's format_fen.

    python -m tools.nes fen ram.bin [--map rom/xiangqi.map.json]

A dump taken while the computer thinks shows whatever move the search is
trying: dump between moves.
"""
from __future__ import annotations

from pathlib import Path

from reference_py.board import (
    BLACK, BLACK_TAG, BOARD_SIZE, EMPTY, OFFBOARD, PLAYABLE, RED, RED_TAG, SLOT_MASK, file_of, rank_of,
)
from reference_py.fen import format_fen
from reference_py.position import KIND_RANGES, Position
from tools.nes.cartridge import Cartridge
from tools.nes.linkmap import LinkMap
from tools.nes.memory import NamedMemory

RAM_SIZE = 0x0800        # the NES's 2 KiB: the cartridge adds none (UxROM without PRG RAM)

# The kind of each slot side*16+slot: every kind has fixed slots (position.py
# KIND_SLOTS), so the ROM keeps no kinds in RAM (its code_kind table in PRG).
SLOT_KIND = [kind for _side in range(2) for kind, slots in KIND_RANGES for _ in slots]


class NotAPosition(ValueError):
    """The RAM does not hold a position the way the ROM keeps one."""


def board_pieces(mem: NamedMemory, where: str = "") -> dict[int, tuple[int, int]]:
    """{padded square: (side, kind)} from `board`, checking the encoding: the
    sentinels off the board, each code a known slot, each slot on one square
    only.  Raises NotAPosition naming what is wrong (`where` says when)."""
    board = mem.read("board", BOARD_SIZE)
    if not any(board):
        raise NotAPosition(f"no position in RAM{where}: the board is all zeros (nothing loaded since power-on)")
    playable = set(PLAYABLE)
    bad = [sq for sq in range(BOARD_SIZE) if sq not in playable and board[sq] != OFFBOARD]
    errors = [f"off-board byte {bad[0]} is ${board[bad[0]]:02X}, expected ${OFFBOARD:02X}"
              + (f" (and {len(bad) - 1} more off-board bytes)" if len(bad) > 1 else "")] if bad else []
    pieces: dict[int, tuple[int, int]] = {}
    seen: dict[int, str] = {}
    for sq in PLAYABLE:
        code = board[sq]
        if code == EMPTY:
            continue
        name = "abcdefghi"[file_of(sq)] + str(rank_of(sq))
        if (code & ~SLOT_MASK) not in (RED_TAG, BLACK_TAG):
            errors.append(f"{name} holds ${code:02X}, not a piece code")
            continue
        side = BLACK if code & BLACK_TAG else RED
        slot = side * 16 + (code & SLOT_MASK)
        if slot in seen:
            errors.append(f"slot {slot} is on two squares ({seen[slot]} and {name})")
        seen[slot] = name
        pieces[sq] = (side, SLOT_KIND[slot])
    if errors:
        raise NotAPosition(f"board in RAM{where}: " + "; ".join(errors[:8]))
    return pieces


def ram_fen(mem: NamedMemory, where: str = "") -> str:
    """The position in RAM as a FEN (format_fen's), not checked for legality:
    the editor's position may lack a king or leave a side in check.  The
    move number is game_ply's (plies played since the game's start)."""
    pieces = board_pieces(mem, where)
    side = mem.byte("eng_side")
    if side not in (RED, BLACK):
        raise NotAPosition(f"eng_side in RAM{where} is {side}, not 0 (Red) or 1 (Black)")
    pos = Position()
    try:
        pos.set_pieces(pieces, side, mem.byte("eng_clock"))
    except ValueError as exc:                  # more pieces of a kind than it has slots
        raise NotAPosition(f"board in RAM{where}: {exc}") from None
    move_no = mem.word("game_ply") // 2 + 1 if mem.has("game_ply") else 1
    return format_fen(pos, move_no)


class RamImage(NamedMemory):
    """A saved 2 KiB RAM image read by the build's names (read only)."""

    def __init__(self, ram: bytes, link: LinkMap, rom: Path | None = None) -> None:
        """`ram`: exactly RAM_SIZE bytes, $0000-$07FF; `link`: the build's map
        (the addresses of `board`, `eng_side` ...); `rom` only for reading ROM
        tables by name."""
        if len(ram) != RAM_SIZE:
            raise NotAPosition(f"a RAM image is {RAM_SIZE} bytes ($0000-$07FF), this one is {len(ram)}")
        self.ram = bytes(ram)
        self.link = link
        self.symbols = link.symbols()
        self._rom = rom

    @property
    def cart(self) -> Cartridge:
        if self._rom is None:
            raise NotAPosition("no ROM given: a RAM image cannot read ROM tables")
        return Cartridge.load(self._rom)

    def _load(self, addr: int, n: int) -> list[int]:
        if addr + n > RAM_SIZE:
            raise NotAPosition(f"${addr:04X}+{n} is outside the 2 KiB RAM image")
        return list(self.ram[addr:addr + n])

    def _store(self, addr: int, values: list[int]) -> None:
        raise NotAPosition("a RAM image is read only")


def fen_of_ram_file(path: Path, map_path: Path) -> str:
    """The FEN of a RAM image file (RamImage, ram_fen)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise NotAPosition(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return ram_fen(RamImage(data, LinkMap.load(Path(map_path))))
    except NotAPosition as exc:
        raise NotAPosition(f"{path}: {exc}") from None
