"""The ROM's game layer (asm/game/game_rules.s) on py65, for differential tests.

game_rules.s wraps the engine with what a game needs: the legal moves of the
side to move, playing a move for good with a take-back record, the
repetition ring and the game's outcome (reference_py/rules.py, Game).  This
driver runs those routines under the guards of tools/nes/guards.py; the
game's own variables live in the UI_PAGE1 segment, which is made writable
here in addition to the engine's RAM.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.position import Position  # noqa: E402
from reference_py.rules import PERPETUAL_CHASE, SIDE_NAME, Outcome  # noqa: E402
from tools.nes.engine import RomEngine  # noqa: E402
from tools.rom.files import MAP, ROM  # noqa: E402

# game_outcome's results (A), by the name the build exports them under
OUTCOMES = {"GAME_ONGOING": None, "GAME_CHECKMATE": "checkmate", "GAME_STALEMATE": "stalemate",
            "GAME_PERPETUAL": "perpetual", "GAME_PERPETUAL_CHASE": "perpetual chase",
            "GAME_REPETITION": "repetition", "GAME_DRAW_60": "60 moves"}


def reference_outcome(outcome) -> tuple[str | None, int | None]:
    """A reference Outcome as (OUTCOMES value, winner) for comparison."""
    if outcome is None:
        return None, None
    r = outcome.reason
    for key, name in (("checkmate", "checkmate"), ("stalemate", "stalemate"),
                      (PERPETUAL_CHASE, "perpetual chase"), ("perpetual check", "perpetual"),
                      ("three times", "repetition"), ("60 moves", "60 moves")):
        if key in r:
            return name, outcome.winner
    raise ValueError(f"unknown outcome reason {r!r}")


def outcome_words(name: str | None, winner: int | None) -> Outcome | None:
    """The reference's Outcome for a game_outcome verdict (OUTCOMES value,
    winner): the same reason in the same words, so that the ROM's verdict
    prints as `python -m reference_py result` prints the reference's."""
    if name is None:
        return None
    loser = None if winner is None else winner ^ 1
    reasons = {"checkmate": "checkmate", "stalemate": "stalemate (the side without a move loses)",
               "repetition": "the same position occurred three times",
               "60 moves": "60 moves (120 plies) without a capture"}
    if name == "perpetual":
        return Outcome(winner, f"{SIDE_NAME[loser]} gave perpetual check")
    if name == "perpetual chase":
        return Outcome(winner, f"{SIDE_NAME[loser]} {PERPETUAL_CHASE}")
    return Outcome(winner, reasons[name])


class RomGame(RomEngine):
    """The engine plus game_rules.s, with the game's RAM readable."""

    def __init__(self, rom: Path = ROM, map_path: Path = MAP, seed: int = 1, build: bool = True) -> None:
        super().__init__(rom, map_path, seed, build)
        lo, hi = self.link.segment("UI_PAGE1")
        rng = random.Random(seed)
        for a in range(lo, hi):
            self.cpu.writable[a] = 1
            self.mem[a] = rng.randrange(256)
        self.cycles: dict[str, int] = {}
        self.outcome_names = {self.const(k): name for k, name in OUTCOMES.items()}
        self.no_winner = self.const("GAME_NO_WINNER")

    def _call(self, name: str, **kw) -> int:
        c = self.call(name, **kw)
        self.cycles[name] = max(self.cycles.get(name, 0), c)
        return c

    # ---------------------------------------------------------- game API
    def new(self) -> None:
        self._call("game_new")

    def setup(self, pos: Position) -> None:
        """The state game_new leaves, but from any position (tests only):
        an empty record and a ring holding only this position."""
        self.load(pos)
        self.write("game_rep_top", [0])
        self.write("game_undo_n", [0])
        self.write("game_undo_head", [0])
        self.write("game_ply", [0, 0])
        self.write("rep_key_lo", [pos.key & 0xFF])
        self.write("rep_key_hi", [pos.key >> 8])
        self.write("rep_info", [0x80 if pos.in_check(pos.side) else 0])

    def legal(self) -> list[int]:
        self._call("game_gen_legal")
        n = self.cpu.mpu.a
        assert n == self.byte("game_nmoves")
        return [self.mem[self.a_ms_from + i] | (self.mem[self.a_ms_to + i] << 8) for i in range(n)]

    def find(self, move: int) -> bool:
        self.call("game_find_move", a=move & 0xFF, x=move >> 8)
        return not self.cpu.carry

    def play(self, move: int) -> None:
        self._call("game_play", a=move & 0xFF, x=move >> 8)

    def undo(self) -> bool:
        """True if a ply was taken back."""
        self._call("game_undo")
        return not self.cpu.carry

    def outcome(self) -> tuple[str | None, int | None]:
        self._call("game_outcome")
        a, x = self.cpu.mpu.a, self.cpu.mpu.x
        name = self.outcome_names[a]
        return name, (None if name is None or x == self.no_winner else x)

    def think(self, level: int) -> int:
        self._call("game_think", a=level)
        return self.cpu.mpu.a | (self.cpu.mpu.x << 8)

    def ring(self) -> tuple[list[int], list[bool]]:
        """The repetition ring: keys and check flags, oldest first."""
        n = self.byte("game_rep_top") + 1
        lo, hi = self.read("rep_key_lo", n), self.read("rep_key_hi", n)
        info = self.read("rep_info", n)
        return ([l | (h << 8) for l, h in zip(lo, hi)], [bool(b & 0x80) for b in info])

    def ring_destinations(self) -> list[int]:
        """The destination (0-89, rank * 9 + file) of the ply that led to
        each ring entry, oldest first (entry 0's is meaningless when it is
        the game's first position)."""
        n = self.byte("game_rep_top") + 1
        return [b & 0x7F for b in self.read("rep_info", n)]
