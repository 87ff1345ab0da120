"""16-bit Zobrist keys for repetition detection.

The ROM stores these numbers as a table in PRG ROM (generated from this
module at build time), so the generator only has to be reproducible, not
cheap: SplitMix64 from a fixed seed, top 16 bits of each output.
"""
from __future__ import annotations

from typing import Final

from .board import BOARD_SIZE, PLAYABLE

ZOBRIST_SEED: Final = 0x58_49_41_4E_47_51_49_00  # "XIANGQI\0"
MASK64: Final = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def _make_keys() -> tuple[tuple[tuple[int, ...], ...], int]:
    """keys[side * 8 + kind][square] for the 90 playable squares (0 elsewhere).

    Generation order: side (red, black), kind 1-7, squares in ascending
    padded-board order; then the side-to-move key.
    """
    state = ZOBRIST_SEED
    table: list[tuple[int, ...]] = []
    for index in range(16):
        row = [0] * BOARD_SIZE
        if index % 8 != 0:
            for sq in PLAYABLE:
                state, out = splitmix64(state)
                row[sq] = out >> 48
        table.append(tuple(row))
    state, out = splitmix64(state)
    return tuple(table), out >> 48


ZOBRIST, ZOBRIST_SIDE = _make_keys()
