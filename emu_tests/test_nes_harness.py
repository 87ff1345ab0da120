"""The cynes harness itself (tools/nes/console.py): the parts that do not
need the game screens — RAM by label, the board reader, bounded waits, crash
detection, cursor driving and the screenshot comparison."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("cynes")

from tools.nes.console import (  # noqa: E402
    A, START, BoardStateError, Console, EmulatorCrashed, WaitTimeout,
)
from emu_tests.screenshot_diff import compare_screenshot  # noqa: E402
from reference_py.board import BOARD_SIZE, CANNON, RED, square  # noqa: E402
from reference_py.fen import START_FEN, format_fen, parse_fen  # noqa: E402

MIDGAME = "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 3 1"


@pytest.fixture
def con(rom_path) -> Console:
    c = Console(rom_path)
    c.wait_frames(60)
    return c


@pytest.fixture
def on_board(con) -> Console:
    """The console with the board and its cursor on screen (a game started
    from the title screen, once the ROM has one)."""
    if con.has("ui_screen"):
        con.press_until(A, lambda c: c.screen_id() == c.const("UI_SCREEN_PLAY"), 300, "A on the title screen")
        con.wait_human_turn()
    return con


def load_fen(con: Console, fen: str) -> None:
    """Write a reference position into the engine's RAM, as the ROM lays it out
    (canonical slots: a piece's kind is its slot's, SLOT_KIND)."""
    pos = parse_fen(fen)
    con.write("board", pos.board)
    con.write("eng_side", pos.side)
    con.write("eng_clock", pos.clock)


def test_labels_come_from_the_map(con):
    assert con.addr("board") == con.link.labels["board"]
    assert con.addr(0x0200) == 0x0200
    with pytest.raises(KeyError, match="not_a_label"):
        con.byte("not_a_label")


def test_position_round_trips_through_ram(con):
    for fen in (START_FEN, MIDGAME):
        load_fen(con, fen)
        pos = con.position()
        want = parse_fen(fen)
        assert format_fen(pos) == format_fen(want)
        assert pos.board == want.board and pos.side == want.side and pos.clock == want.clock


def test_board_is_the_start_position_once_a_game_begins(on_board):
    """The engine's board after Start on the title screen, read through the
    harness (board_loaded, fen, position), is the opening position."""
    assert on_board.board_loaded()
    assert on_board.fen().split()[:2] == START_FEN.split()[:2]
    assert format_fen(on_board.position()) == format_fen(parse_fen(START_FEN))


@pytest.mark.parametrize("corrupt, message", [
    (lambda b: b.__setitem__(0, 0x00), "off-board byte 0"),
    (lambda b: b.__setitem__(b.index(0x10), 0x00), "has no king"),          # remove Red's king
    (lambda b: b.__setitem__(b.index(0x00, 30), 0x11), "on two squares"),   # a slot twice
    (lambda b: b.__setitem__(b.index(0x00, 30), 0x47), "not a piece code"),
])
def test_position_rejects_a_corrupt_board(con, corrupt, message):
    load_fen(con, START_FEN)
    board = con.read("board", BOARD_SIZE)
    corrupt(board)
    con.write("board", board)
    with pytest.raises(BoardStateError, match=message):
        con.position()


def test_position_rejects_the_side_that_moved_in_check(con):
    load_fen(con, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    board = con.read("board", BOARD_SIZE)               # Black's king d9 -> e9: the kings face
    board[square(4, 9)], board[square(3, 9)] = board[square(3, 9)], 0
    con.write("board", board)
    with pytest.raises(BoardStateError, match="in check"):
        con.position()


def test_wait_until_times_out_with_frame_and_screen(con):
    start = con.frames
    with pytest.raises(WaitTimeout, match=r"never: not reached after 30 frames \(frame \d+, ui_screen"):
        con.wait_until(lambda c: False, 30, "never")
    assert con.frames == start + 30
    assert con.wait_until(lambda c: c.frames >= start + 35, 100) == 5


def test_crash_is_raised(con):
    class Crashed:
        has_crashed = 1
        controller = 0

        def step(self, n):
            return np.zeros((240, 256, 3), np.uint8)

        def __getitem__(self, addr):
            return 0
    con.nes = Crashed()
    with pytest.raises(EmulatorCrashed, match="invalid opcode"):
        con.press(0x80)


def test_move_cursor_to_corners(on_board):
    for f, r in ((0, 0), (8, 9), (4, 5), (2, 4)):
        on_board.move_cursor_to(f, r)
        assert on_board.cursor() == (f, r)


def test_save_and_load_restore_state(on_board):
    con = on_board
    con.move_cursor_to(4, 3)
    snap = con.save()
    con.move_cursor_to(0, 0)
    assert con.cursor() == (0, 0)
    con.load(snap)
    assert con.frames == snap.frames and con.cursor() == (4, 3)
    con.step()
    assert con.cursor() == (4, 3)


def test_screen_is_the_last_frame(con, rom_path):
    """screen() is the frame the emulator drew last: the same pixels as a
    second emulator run for as many frames with the same input, and not
    the frame before it (the title's picture changes after Start)."""
    from cynes import NES
    img = con.screen()
    assert img.size == (256, 240) and img.mode == "RGB"
    twin = NES(str(rom_path))
    frame = twin.step(con.frames)
    assert np.array_equal(np.asarray(img), np.asarray(frame))
    con.hold(START, 3)
    con.wait_frames(40)
    twin.controller = START
    twin.step(3)
    twin.controller = 0
    later = twin.step(40)
    assert np.array_equal(np.asarray(con.screen()), np.asarray(later))
    assert not np.array_equal(np.asarray(con.screen()), np.asarray(img))


def test_compare_screenshot(con, tmp_path, monkeypatch):
    monkeypatch.delenv("UPDATE_SCREENSHOTS", raising=False)
    ref = tmp_path / "ref" / "boot.png"
    img = con.screen()
    with pytest.raises(AssertionError, match="no reference screenshot"):
        compare_screenshot(img, ref, out_dir=tmp_path / "out")
    monkeypatch.setenv("UPDATE_SCREENSHOTS", "1")
    compare_screenshot(img, ref)                       # writes the reference
    monkeypatch.delenv("UPDATE_SCREENSHOTS")
    assert compare_screenshot(img, ref).fraction == 0.0

    small = img.copy()                                 # 4 pixels changed: within tolerance
    for x in range(4):
        small.putpixel((x, 0), (255, 0, 255))
    d = compare_screenshot(small, ref)
    assert 0 < d.fraction <= 0.002 and d.actual is None

    big = img.copy()                                   # a 40x40 block changed: fails, saves
    big.paste((255, 0, 255), (100, 100, 140, 140))
    with pytest.raises(AssertionError, match="actual saved at") as info:
        compare_screenshot(big, ref, out_dir=tmp_path / "out")
    saved = tmp_path / "out" / "boot.actual.png"
    assert str(saved) in str(info.value)
    with Image.open(saved) as got:
        assert np.array_equal(np.asarray(got.convert("RGB")), np.asarray(big))
    assert (tmp_path / "out" / "boot.diff.png").exists()

    with pytest.raises(AssertionError, match="size"):
        compare_screenshot(img.resize((128, 120)), ref, out_dir=tmp_path / "out")


def test_play_move_through_the_pad(on_board):
    con = on_board
    if not con.has("ui_screen"):
        pytest.skip("this ROM has no game screens yet")
    con.play_move("h2e2")
    con.wait_human_turn()
    pieces = con.position().pieces()
    assert pieces.get(square(4, 2)) == (RED, CANNON) and square(7, 2) not in pieces
    assert con.word("game_ply") == 2 and con.byte("eng_side") == RED
