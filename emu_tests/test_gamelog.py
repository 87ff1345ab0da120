"""The cartridge's game read out of RAM (tools/nes/gamelog.py): GameWatcher
follows every ply in cynes, take-backs included, and writes the finished
game as PGN with the cartridge's result; undo_record reads the last plies
the cartridge itself keeps."""
from __future__ import annotations

import pytest

pytest.importorskip("cynes")

from emu_tests.test_game_play import (  # noqa: E402
    ITEM_RESIGN, ITEM_TAKEBACK, NOVICE, SCREEN_GAME_OVER, choose_and_start, pause_choose, power_on)
from reference_py.fen import format_fen  # noqa: E402
from reference_py.notation import NotationError, parse_iccs  # noqa: E402
from reference_py.pgn import read_games  # noqa: E402
from tools.nes.gamelog import GameWatcher, undo_record  # noqa: E402
from tools.nes.player import GameSaver  # noqa: E402

HUMAN_MOVES = ["h2e2", "h0g2", "i0h0", "b0c2", "a0a1"]


def test_watcher_records_a_game_and_its_pgn(rom_path, tmp_path):
    con = power_on(rom_path)
    watcher = GameWatcher(con)
    con.on_frame.append(watcher.update)
    saver = GameSaver(con.nes, rom_path, tmp_path / "games.pgn")     # what `make play`'s window does
    con.on_frame.append(saver.frame)
    choose_and_start(con, 1, NOVICE)                  # 1P as Red against Novice
    played = 0
    for text in HUMAN_MOVES:
        try:
            parse_iccs(watcher.game.pos, text)        # (the computer's replies may block one)
        except NotationError:
            continue
        con.play_move(text)
        con.wait_human_turn()
        con.wait_frames(3)
        played += 1
    assert played >= 3
    plies = con.word("game_ply")
    assert len(watcher.game.moves) == plies >= 6
    assert format_fen(watcher.game.pos).split()[:2] == con.fen().split()[:2]
    depth = con.addr("game_undo_to") - con.addr("game_undo_from")
    assert undo_record(con) == watcher.game.moves[-min(plies, depth):]
    pause_choose(con, ITEM_TAKEBACK)                  # back to the human's previous turn: two plies
    con.wait_human_turn()
    con.wait_frames(3)
    assert len(watcher.game.moves) == con.word("game_ply") == plies - 2
    pause_choose(con, ITEM_RESIGN)
    con.wait_screen(SCREEN_GAME_OVER, 120)
    con.wait_frames(3)
    assert len(watcher.finished) == 1
    game = read_games(watcher.finished[0])[0]
    assert game.moves == watcher.game.moves
    assert game.result == "0-1" and game.tags["Termination"] == "resignation"
    assert game.tags["Red"] == "Human" and game.tags["BlackLevel"] == "Novice"
    saver.close()                                     # finished: nothing more to add
    assert [g.moves for g in read_games((tmp_path / "games.pgn").read_text())] == [game.moves]
