"""The cartridge's games as move lists and PGN, read out of its RAM.

How far the cartridge itself can give a game back: it keeps no move list.
Its take-back record (game_undo_from/to, asm/ram.s) holds only the last
GAME_UNDO_PLIES (8) plies, and game_ply counts the plies; so `undo_record`
reads at most the last 8 moves of a game, and a whole game exists only if
someone watched it being played.  GameWatcher is that someone: called once
a frame, it sees every ply the console plays (game_ply rises by one and
game_last_from/to name the move; a take-back lowers game_ply; a new game
starts it again at 0), checks each move against the rules, and when the
game-over screen comes up makes its PGN (reference_py/pgn.py) with the
players, the level, the result and how it ended as the cartridge says
(ui_result, ui_winner).  The player (`make play`, tools/nes/player.py)
writes those games to a PGN file.
"""
from __future__ import annotations

import datetime

from reference_py.fen import START_FEN
from reference_py.board import move_iccs
from reference_py.notation import NotationError, parse_iccs
from reference_py.pgn import format_game
from reference_py.rules import Game
from reference_py.search import levels
from tools.nes.memory import NamedMemory

# The cartridge's game_outcome codes (asm/global.inc GAME_*, UI_RESULT_RESIGN),
# by the name of the build's export, and how each ends a game in words.
ENDINGS = {"GAME_CHECKMATE": "checkmate", "GAME_STALEMATE": "stalemate (the side without a move loses)",
           "GAME_PERPETUAL": "perpetual check", "GAME_PERPETUAL_CHASE": "perpetual chase",
           "GAME_REPETITION": "the same position occurred three times",
           "GAME_DRAW_60": "60 moves (120 plies) without a capture", "UI_RESULT_RESIGN": "resignation"}


class RecordError(AssertionError):
    """What the console played cannot be a game (a move the rules refuse)."""


def undo_record(mem: NamedMemory) -> list[int]:
    """The last plies the cartridge can take back (at most GAME_UNDO_PLIES),
    oldest first, as reference move codes: all of a game the cartridge
    itself remembers."""
    size = mem.addr("game_undo_to") - mem.addr("game_undo_from")     # GAME_UNDO_PLIES entries (asm/ram.s)
    n, head = mem.byte("game_undo_n"), mem.byte("game_undo_head")
    out = []
    for k in range(n, 0, -1):
        i = (head - k) % size
        out.append(mem.byte("game_undo_from", i) | (mem.byte("game_undo_to", i) << 8))
    return out


class GameWatcher:
    """Every ply of the games the console plays, watched frame by frame."""

    def __init__(self, mem: NamedMemory) -> None:
        self.mem = mem
        self.over = mem.const("UI_SCREEN_OVER")
        self.play_screens = {mem.const("UI_SCREEN_PLAY"), mem.const("UI_SCREEN_PAUSE"), self.over}
        self.attract = mem.const("UI_SCREEN_ATTRACT")
        self.game = Game(START_FEN)
        self.ply = mem.word("game_ply")
        self.pending = False            # game_ply moved last frame: read the move now, when it is whole
        self.written = False            # this game's PGN was handed out
        self.demo = False
        self.finished: list[str] = []    # the PGN of every game seen to its end

    def update(self) -> str | None:
        """Call once a frame.  Returns the finished game's PGN the first
        frame the game-over screen shows, else None."""
        mem = self.mem
        screen = mem.byte("ui_screen")
        if screen not in self.play_screens and screen != self.attract:
            return None
        ply = mem.word("game_ply")
        if ply < len(self.game.moves):                     # take-back, or a new game
            if ply == 0:
                self.game, self.written = Game(START_FEN), False
                self.demo = screen == self.attract
            else:
                self.game.undo(len(self.game.moves) - ply)
            self.ply, self.pending = ply, False
        elif ply == len(self.game.moves) + 1:
            if not self.pending:
                self.pending = True                        # read the move next frame
                return None
            move = mem.byte("game_last_from") | (mem.byte("game_last_to") << 8)
            try:
                parse_iccs(self.game.pos, move_iccs(move))
            except NotationError as exc:
                raise RecordError(f"the cartridge's ply {ply} is not a legal move: {exc}") from None
            self.game.play(move)
            self.ply, self.pending = ply, False
        elif ply > len(self.game.moves) + 1:
            raise RecordError(f"game_ply jumped from {len(self.game.moves)} to {ply}: plies were missed")
        if screen == self.over and not self.written and not self.pending:
            self.written = True
            self.finished.append(self.pgn())
            return self.finished[-1]
        return None

    def pgn(self) -> str:
        """The game so far as PGN (finished if the game-over screen is up)."""
        mem = self.mem
        names = [lv.name for lv in levels()]
        level = names[mem.byte("ui_level")] if mem.byte("ui_level") < len(names) else "?"
        humans = 0 if self.demo else mem.byte("ui_players")
        red_h, black_h = humans & mem.const("UI_HUMAN_RED"), humans & mem.const("UI_HUMAN_BLACK")
        computer = f"NES Xiangqi ({'demo, ' if self.demo else ''}level {names[0] if self.demo else level})"
        red, black = ("Human" if red_h else computer), ("Human" if black_h else computer)
        result, how = "*", None
        if mem.byte("ui_screen") == self.over:
            code = mem.byte("ui_result")
            how = next((text for name, text in ENDINGS.items() if mem.has(name) and mem.const(name) == code),
                       f"game_outcome {code}")
            winner = mem.byte("ui_winner")
            result = "1-0" if winner == 0 else "0-1" if winner == 1 else "1/2-1/2"
        return format_game(START_FEN, self.game.moves, red=red, black=black,
                           red_level=None if red_h else (names[0] if self.demo else level),
                           black_level=None if black_h else (names[0] if self.demo else level),
                           result=result, termination=how, event="NES Xiangqi cartridge", site="NES",
                           date=datetime.date.today())
