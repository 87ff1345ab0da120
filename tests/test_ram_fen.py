"""`python -m tools.nes fen RAM.bin`: the FEN of the position in a 2 KiB RAM
image, by the build's symbol addresses (tools/nes/ramfen.py).

The images are made here from reference_py positions (the ROM's board is the
reference's padded mailbox, byte for byte: tools/nes/console.py compares them
the same way), so these run without an emulator; emu_tests/test_setup_editor.py
dumps the real console's RAM.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reference_py.board import BLACK, KING, RED, move_iccs, square
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.position import Position
from reference_py.rules import Game
from tools.nes.linkmap import built
from tools.nes.ramfen import RAM_SIZE
from tools.rom.files import MAP

ROOT = Path(__file__).resolve().parents[1]


def image(pos: Position, plies: int = 0) -> bytes:
    """A RAM image holding `pos` as the ROM keeps it, `plies` into the game."""
    sym = built().symbols()
    ram = bytearray(RAM_SIZE)
    ram[sym["board"]:sym["board"] + len(pos.board)] = bytes(pos.board)
    ram[sym["eng_side"]] = pos.side
    ram[sym["eng_clock"]] = pos.clock
    ram[sym["game_ply"]] = plies & 0xFF
    ram[sym["game_ply"] + 1] = plies >> 8
    return bytes(ram)


def game_image(fen: str, moves: list[str]) -> tuple[bytes, str]:
    """The image of the game from `fen` after `moves`, and its FEN (format_fen's)."""
    game = Game(fen)
    for text in moves:
        game.play(next(m for m in game.pos.legal_moves() if move_iccs(m) == text))
    return image(game.pos, len(moves)), format_fen(game.pos, len(moves) // 2 + 1)


def run_fen(tmp_path: Path, data: bytes) -> subprocess.CompletedProcess:
    path = tmp_path / "ram.bin"
    path.write_bytes(data)
    return subprocess.run([sys.executable, "-m", "tools.nes", "fen", str(path), "--map", str(MAP)],
                          cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("fen, moves", [
    (START_FEN, []),
    (START_FEN, ["h2e2", "h9g7", "h0g2"]),
    ("4k4/9/7n1/9/9/9/2p6/1C7/4A4/R3K4 b - - 0 1", []),
])
def test_fen_of_a_ram_image(tmp_path, fen, moves):
    data, expected = game_image(fen, moves)
    out = run_fen(tmp_path, data)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected
    if not moves:
        assert expected == fen
    parse_fen(out.stdout)                                 # a FEN the reference reads back


def test_an_editor_position_is_printed_as_it_is(tmp_path):
    """The editor may hold a position PLAY would refuse (here: no Red king,
    then the kings facing): the tool prints it as it is."""
    pos = Position()
    pos.set_pieces({square(4, 9): (BLACK, KING)}, RED)
    out = run_fen(tmp_path, image(pos))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1"
    pos.set_pieces({square(4, 9): (BLACK, KING), square(4, 0): (RED, KING)}, BLACK)
    out = run_fen(tmp_path, image(pos))
    assert out.stdout.strip() == "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"


@pytest.mark.parametrize("data, message", [
    (bytes(RAM_SIZE - 1), "2048 bytes"),
    (bytes(RAM_SIZE + 0x2000), "2048 bytes"),
    (bytes(RAM_SIZE), "no position in RAM"),
    (bytes(range(256)) * 8, "off-board byte"),
])
def test_not_a_position_is_one_error_line(tmp_path, data, message):
    out = run_fen(tmp_path, data)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], out.stderr


def test_a_missing_file_and_map(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tools.nes", "fen", str(tmp_path / "none.bin"), "--map", str(MAP)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and "cannot read" in out.stderr
    (tmp_path / "ram.bin").write_bytes(game_image(START_FEN, [])[0])
    out = subprocess.run([sys.executable, "-m", "tools.nes", "fen", str(tmp_path / "ram.bin"),
                          "--map", str(tmp_path / "none.json")], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and "linker map" in out.stderr
