"""Game-level rules: the one policy that the terminal game and the ROM share.

In order, after every move (docs/ENGINE.md, "Game rules" and "Repetition
and chasing"):
  1. the side to move has no legal move: it loses (checkmate or stalemate);
  2. the position has occurred three times (same side to move) since the last
     capture, within the last 48 positions of the game; the cycle is the
     plies since the first of those occurrences:
     a. if one side gave check with every one of its moves in the cycle and
        the other did not, the checking side loses (perpetual check);
        both: drawn;
     b. else if one side chased one and the same enemy piece with every one
        of its moves in the cycle (reference_py/chase.py) and the other did
        not, the chasing side loses (perpetual chase, 長捉);
     c. otherwise the game is drawn;
  3. 120 plies without a capture: drawn (the 60-move rule).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .board import BLACK, RED
from .chase import cycle_chases
from .fen import parse_fen
from .notation import parse_move
from .position import Position

SIDE_NAME = ("Red", "Black")
DRAW_PLIES = 120
GAME_WINDOW = 48            # positions remembered for repetition (the ROM's ring)
PERPETUAL_CHASE = "chased a piece perpetually"   # an Outcome reason's words after the side


def random_walk(fen: str, plies: int, rng: random.Random) -> Position:
    """The position after up to `plies` random legal moves from `fen` (fewer
    when the side to move has none): the tests' source of varied positions."""
    pos = parse_fen(fen)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.make(rng.choice(moves))
    return pos


@dataclass(frozen=True)
class Outcome:
    winner: int | None      # RED, BLACK or None for a draw
    reason: str

    def describe(self) -> str:
        if self.winner is None:
            return f"Draw: {self.reason}."
        return f"{SIDE_NAME[self.winner]} wins: {self.reason}."


class Game:
    """A game from a FEN: the moves played, with take-back by replay."""

    def __init__(self, fen: str) -> None:
        self.start_fen = fen
        self.pos: Position = parse_fen(fen)
        self.moves: list[int] = []

    def play(self, move: int) -> None:
        """Play a move already known to be legal."""
        self.pos.make(move)
        self.pos.push_history(self.pos.in_check(self.pos.side), move >> 8)
        self.moves.append(move)

    def play_text(self, text: str) -> int:
        move = parse_move(self.pos, text)
        self.play(move)
        return move

    def undo(self, plies: int = 1) -> None:
        """Take back plies by replaying the game from its start."""
        keep = self.moves[:max(0, len(self.moves) - plies)]
        self.pos = parse_fen(self.start_fen)
        self.moves = []
        for m in keep:
            self.play(m)

    def outcome(self) -> Outcome | None:
        pos = self.pos
        if not pos.legal_moves():
            checked = pos.in_check(pos.side)
            return Outcome(pos.side ^ 1, "checkmate" if checked else "stalemate (the side without a move loses)")
        keys, checks = pos.keys[-GAME_WINDOW:], pos.checks[-GAME_WINDOW:]
        n = len(keys) - 1
        seen = [n - k for k in range(4, min(pos.clock, n) + 1, 2) if keys[n - k] == keys[n]]
        if len(seen) >= 2:
            first = seen[1]                  # the earliest of the three occurrences
            k = n - first
            mover_all = all(checks[n - j] for j in range(0, k, 2))     # side that just moved
            other_all = all(checks[n - j] for j in range(1, k, 2))
            mover = pos.side ^ 1
            if mover_all and not other_all:
                return Outcome(mover ^ 1, f"{SIDE_NAME[mover]} gave perpetual check")
            if other_all and not mover_all:
                return Outcome(mover, f"{SIDE_NAME[mover ^ 1]} gave perpetual check")
            if not (mover_all and other_all):
                chased = cycle_chases(pos, self.moves[len(self.moves) - k:])
                if chased[mover] and not chased[mover ^ 1]:
                    return Outcome(mover ^ 1, f"{SIDE_NAME[mover]} {PERPETUAL_CHASE}")
                if chased[mover ^ 1] and not chased[mover]:
                    return Outcome(mover, f"{SIDE_NAME[mover ^ 1]} {PERPETUAL_CHASE}")
            return Outcome(None, "the same position occurred three times")
        if pos.clock >= DRAW_PLIES:
            return Outcome(None, "60 moves (120 plies) without a capture")
        return None


__all__ = ["Game", "Outcome", "RED", "BLACK"]
