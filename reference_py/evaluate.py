"""The static evaluation, in exact 16-bit integer arithmetic.

Two parts (docs/ENGINE.md, "Evaluation"):
  * material + piece-square values, kept incrementally by make/unmake in
    Position.score (Red minus Black), from value_table();
  * knowledge terms computed at the leaf from piece counts and the piece
    list, each from a small table that the ROM holds in PRG ROM.
The result is from the side to move's point of view; the endgame terms
(endgame.py) then adjust it when a side is bare.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import (
    ADVISOR, BLACK, BOARD_SIZE, CANNON, DIAG, DOWN, ELEPHANT, EMPTY, HALF_FLAG, HORSE, KING,
    OFFBOARD, ORTHO, PAWN, PLAYABLE, RED, ROOK, SQUARE_FLAGS, UP, file_of, sq90,
)
from .config import EvalConfig, WeightSet, load_eval
from .endgame import EndgameTables, adjust
from .position import KIND_RANGES, Position, s16

KIND_RANGES_OF = dict(KIND_RANGES)


def value_table(cfg: EvalConfig, ws: WeightSet) -> list[list[int]]:
    """values[side*8+kind][square]: +value for Red, -value (board turned) for Black."""
    table = [[0] * BOARD_SIZE for _ in range(16)]
    for side in (RED, BLACK):
        sign = 1 if side == RED else -1
        for kind in range(1, 8):
            for sq in PLAYABLE:
                v = cfg.material[kind] + (cfg.pst[kind][sq90(sq, side)] if ws.pst else 0)
                table[side * 8 + kind][sq] = sign * v
    return table


@dataclass(frozen=True)
class EvalTables:
    """Everything the leaf evaluation reads; the ROM has the same tables."""
    values: list[list[int]]
    tempo: int
    dyn_horse: tuple[int, ...]        # [pieces on board 0..32]
    dyn_cannon: tuple[int, ...]       # [pieces on board 0..32]
    pawn_adj: tuple[int, ...]         # [enemy rooks+horses+cannons 0..6], per pawn
    horse_leg: int
    elephant_eye: int
    rook_file: int
    cannon_file: tuple[int, int, int, int]
    miss_elephant: tuple[int, ...]    # [missing*3 + enemy cannons]
    miss_advisor: tuple[int, ...]     # [missing*3 + enemy rooks]
    knowledge: bool                   # any term besides material/PST/tempo?
    endgame: EndgameTables | None = None   # the endgame terms, when the set uses them


def build_tables(cfg: EvalConfig, ws: WeightSet) -> EvalTables:
    dyn_horse = tuple(((32 - n) * ws.horse_per_capture4) >> 2 for n in range(33))
    dyn_cannon = tuple(((32 - n) * ws.cannon_per_capture4) >> 2 for n in range(33))
    pawn_adj = tuple((6 - m) * ws.pawn_per_missing_attacker for m in range(7))
    miss_el = tuple(m * c * ws.missing_elephant_per_cannon for m in range(3) for c in range(3))
    miss_ad = tuple(m * r * ws.missing_advisor_per_rook for m in range(3) for r in range(3))
    knowledge = any((ws.horse_per_capture4, ws.cannon_per_capture4, ws.pawn_per_missing_attacker,
                     ws.horse_leg_blocked, ws.elephant_eye_blocked, ws.rook_on_king_file,
                     any(ws.cannon_on_king_file), ws.missing_elephant_per_cannon,
                     ws.missing_advisor_per_rook))
    return EvalTables(value_table(cfg, ws), ws.tempo, dyn_horse, dyn_cannon, pawn_adj,
                      ws.horse_leg_blocked, ws.elephant_eye_blocked, ws.rook_on_king_file,
                      ws.cannon_on_king_file, miss_el, miss_ad, knowledge,
                      cfg.endgame if ws.endgame else None)


@lru_cache(maxsize=None)
def tables_for(set_name: str) -> EvalTables:
    cfg = load_eval()
    return build_tables(cfg, cfg.sets[set_name])


def count_terms(pos: Position, t: EvalTables) -> int:
    """The knowledge terms that depend only on the piece counts, Red minus
    Black (they change only at captures: the ROM keeps their sum, eng_mterm,
    in make/unmake)."""
    c = pos.count
    n = sum(c)
    s = (c[HORSE] - c[8 + HORSE]) * t.dyn_horse[n]
    s += (c[CANNON] - c[8 + CANNON]) * t.dyn_cannon[n]
    red_att = c[ROOK] + c[HORSE] + c[CANNON]
    black_att = c[8 + ROOK] + c[8 + HORSE] + c[8 + CANNON]
    s += c[PAWN] * t.pawn_adj[black_att] - c[8 + PAWN] * t.pawn_adj[red_att]
    s += t.miss_elephant[(2 - c[ELEPHANT]) * 3 + c[8 + CANNON]]
    s -= t.miss_elephant[(2 - c[8 + ELEPHANT]) * 3 + c[CANNON]]
    s += t.miss_advisor[(2 - c[ADVISOR]) * 3 + c[8 + ROOK]]
    s -= t.miss_advisor[(2 - c[8 + ADVISOR]) * 3 + c[ROOK]]
    return s


# The file of every padded-board square (a lookup instead of a division in the leaf loop).
FILE_OF: tuple[int, ...] = tuple(file_of(sq) for sq in range(BOARD_SIZE))
# Per side: the slots of the kinds the leaf terms read (position.KIND_RANGES: fixed slots per kind).
_ELEPHANTS = tuple(tuple(base + i for i in KIND_RANGES_OF[ELEPHANT]) for base in (0, 16))
_HORSES = tuple(tuple(base + i for i in KIND_RANGES_OF[HORSE]) for base in (0, 16))
_ROOKS = tuple(tuple(base + i for i in KIND_RANGES_OF[ROOK]) for base in (0, 16))
_CANNONS = tuple(tuple(base + i for i in KIND_RANGES_OF[CANNON]) for base in (0, 16))
# The slots within a side (0..15) of the pieces the endgame's drive measures.
_HORSE_SLOTS = tuple(KIND_RANGES_OF[HORSE])
_PAWN_SLOTS = tuple(KIND_RANGES_OF[PAWN])


def knowledge_terms(pos: Position, t: EvalTables) -> int:
    """The leaf-computed terms, Red minus Black.  Each kind's pieces are
    read from its fixed slots; a term whose weight is 0 adds nothing and is
    skipped (the sum is the same)."""
    board = pos.board
    piece_sq = pos.piece_sq
    s = count_terms(pos, t)
    kings = (piece_sq[0], piece_sq[16])
    leg, eye, rook_file, cannon_file = t.horse_leg, t.elephant_eye, t.rook_file, t.cannon_file
    for side in (RED, BLACK):
        v = 0
        if leg:
            for i in _HORSES[side]:
                sq = piece_sq[i]
                if sq:
                    for d in ORTHO:
                        b = board[sq + d]
                        if b != EMPTY and b != OFFBOARD:
                            v += leg
        if eye:
            half = HALF_FLAG[side]
            for i in _ELEPHANTS[side]:
                sq = piece_sq[i]
                if sq:
                    for d in DIAG:
                        b = board[sq + d]
                        if b != EMPTY and b != OFFBOARD and SQUARE_FLAGS[sq + 2 * d] & half:
                            v += eye
        ek = kings[side ^ 1]
        ef = FILE_OF[ek]
        if rook_file:
            for i in _ROOKS[side]:
                sq = piece_sq[i]
                if sq and FILE_OF[sq] == ef:
                    v += rook_file
        for i in _CANNONS[side]:
            sq = piece_sq[i]
            if sq and FILE_OF[sq] == ef:
                step = UP if ek > sq else DOWN
                between = 0
                x = sq + step
                while x != ek:
                    if board[x] != EMPTY:
                        between += 1
                    x += step
                v += cannon_file[min(between, 3)]
        s += v if side == RED else -v
    return s


def evaluate(pos: Position, t: EvalTables) -> int:
    """Static score for the side to move (no noise; the search adds it)."""
    s = pos.score
    if t.knowledge:
        s += knowledge_terms(pos, t)
    s = s16(s)
    if pos.side == BLACK:
        s = -s
    s = s16(s + t.tempo)
    if t.endgame is not None:
        s = adjust(s, pos, t.endgame, _HORSE_SLOTS, _PAWN_SLOTS)
    return s


__all__ = ["EvalTables", "build_tables", "tables_for", "evaluate", "value_table", "knowledge_terms",
           "KING", "PAWN"]
