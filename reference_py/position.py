"""The position: board, piece lists, make/unmake, attack tests.

Everything mirrors the 6502 data structures (docs/ENGINE.md, docs/MEMORY.md):
  board[154]     square contents: 0 empty, 0xFF off-board, tag|slot for a piece
  piece_sq[32]   square of each piece slot (0 = captured); red slots 0-15, black 16-31
  piece_kind[32] kind of each slot
  count[16]      pieces on the board per side*8+kind
  score          Red-minus-Black material + piece-square total (16-bit, incremental)
  key            16-bit Zobrist key (incremental)
  clock          plies since the last capture (the 60-move rule)
Every kind has fixed slots (KIND_SLOTS): king 0, advisors 1-2, elephants
3-4, horses 5-6, rooks 7-8, cannons 9-10, pawns 11-15, i.e. the slots are
sorted by kind; within a kind the pieces take the slots in ascending square
order whenever the lists are rebuilt (load and the start of every search),
so the order in which moves are generated depends only on the position at
the root, never on how it was reached.
"""
from __future__ import annotations

from typing import Sequence

from .board import (
    ADVISOR, BLACK, BLACK_TAG, BOARD_SIZE, CANNON, DIAG, ELEPHANT, EMPTY, HALF_FLAG, HORSE,
    HORSE_CHECKS, HORSE_MOVES, KING, OFFBOARD, ORTHO, PALACE_FLAG, PAWN, PAWN_FORWARD, PLAYABLE,
    RED, ROOK, SIDE_TAG, SQUARE_FLAGS,
)
from .zobrist import ZOBRIST, ZOBRIST_SIDE

MAX_SLOTS = 16
# Slots per kind: the most pieces of a kind a legal position has per side
# (fen.py rejects more).  Each kind owns a fixed range of slots, in kind
# order, so a slot's kind is known without reading piece_kind: the ROM's
# evaluation and generators run per kind over these ranges (docs/ENGINE.md,
# "Board").
KIND_SLOTS: dict[int, int] = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2,
                              PAWN: 5}
# FIRST_SLOT[kind]: the kind's first slot (index 0 unused: kinds start at 1).
FIRST_SLOT: tuple[int, ...] = tuple(
    [0] + [sum(n for k, n in KIND_SLOTS.items() if k < kind) for kind in range(1, 8)])
# The kinds in slot order, each with its slot range (generation order).
KIND_RANGES: tuple[tuple[int, range], ...] = tuple(
    (kind, range(FIRST_SLOT[kind], FIRST_SLOT[kind] + KIND_SLOTS[kind])) for kind in range(1, 8))
assert sum(KIND_SLOTS.values()) == MAX_SLOTS and FIRST_SLOT[KING] == 0


def s16(x: int) -> int:
    """Wrap to a signed 16-bit value, as the 6502's 16-bit adds do."""
    return ((x + 0x8000) & 0xFFFF) - 0x8000


class Position:
    """A mutable position with incremental key and material/PST score.

    `values` is the signed per-square value table (evaluate.value_table):
    values[side*8+kind][sq] is +value for Red and -value for Black, so the
    incremental score is always Red minus Black.
    """

    __slots__ = ("board", "piece_sq", "piece_kind", "count", "side", "score", "key", "clock",
                 "values", "undo", "keys", "checks", "dests")

    def __init__(self, values: Sequence[Sequence[int]] | None = None) -> None:
        self.board = [OFFBOARD] * BOARD_SIZE
        for sq in PLAYABLE:
            self.board[sq] = EMPTY
        self.piece_sq = [0] * 32
        self.piece_kind = [0] * 32
        self.count = [0] * 16
        self.side = RED
        self.score = 0
        self.key = 0
        self.clock = 0
        self.values = values if values is not None else [[0] * BOARD_SIZE for _ in range(16)]
        self.undo: list[tuple[int, int, int, int]] = []
        # Keys and in-check flags of the positions since the last capture,
        # oldest first, the current position last (repetition detection),
        # and the destination square of the move that led to each (0: none
        # recorded), as the ROM's ring keeps them (the chase judgement).
        self.keys: list[int] = []
        self.checks: list[bool] = []
        self.dests: list[int] = []

    # ---- setting up -------------------------------------------------
    def set_pieces(self, pieces: dict[int, tuple[int, int]], side: int, clock: int = 0) -> None:
        """Place pieces {square: (side, kind)} and rebuild every derived field."""
        for sq in PLAYABLE:
            self.board[sq] = EMPTY
        self.side = side
        self.clock = clock
        self.rebuild(pieces)
        self.keys = [self.key]
        self.checks = [self.in_check(side)]
        self.dests = [0]
        self.undo = []

    def rebuild(self, pieces: dict[int, tuple[int, int]] | None = None) -> None:
        """Reassign slots in canonical order and recompute counts, score and key.

        Squares are visited in ascending order; a piece takes slot
        FIRST_SLOT[kind] + (pieces of its side and kind placed so far), which
        is how the ROM's eng_load does it (with count[] as the running
        tally).  The search calls this at its start (docs/ENGINE.md,
        "Determinism").  Raises ValueError when a side has more pieces of a
        kind than the kind has slots (never in a position fen.py accepts).
        """
        if pieces is None:
            pieces = {}
            for sq in PLAYABLE:
                code = self.board[sq]
                if code != EMPTY:
                    slot = (code & 0x0F) | (16 if code & BLACK_TAG else 0)
                    pieces[sq] = (BLACK if code & BLACK_TAG else RED, self.piece_kind[slot])
        self.piece_sq = [0] * 32
        self.piece_kind = [0] * 32
        self.count = [0] * 16
        for sq in PLAYABLE:
            self.board[sq] = EMPTY
        for sq in PLAYABLE:
            if sq not in pieces:
                continue
            side, kind = pieces[sq]
            placed = self.count[side * 8 + kind]
            if placed >= KIND_SLOTS[kind]:
                raise ValueError(f"more than {KIND_SLOTS[kind]} pieces of kind {kind} "
                                 f"for side {side}: the kind has no slot left")
            slot = FIRST_SLOT[kind] + placed
            self.board[sq] = SIDE_TAG[side] | slot
            self.piece_sq[side * 16 + slot] = sq
            self.piece_kind[side * 16 + slot] = kind
            self.count[side * 8 + kind] += 1
        self.score = 0
        key = ZOBRIST_SIDE if self.side == BLACK else 0
        for sq, (side, kind) in pieces.items():
            self.score = s16(self.score + self.values[side * 8 + kind][sq])
            key ^= ZOBRIST[side * 8 + kind][sq]
        self.key = key

    def pieces(self) -> dict[int, tuple[int, int]]:
        """{square: (side, kind)} for every piece on the board."""
        out = {}
        for i in range(32):
            sq = self.piece_sq[i]
            if sq:
                out[sq] = (i >> 4, self.piece_kind[i])
        return out

    def copy(self) -> "Position":
        p = Position(self.values)
        p.board = self.board[:]
        p.piece_sq = self.piece_sq[:]
        p.piece_kind = self.piece_kind[:]
        p.count = self.count[:]
        p.side, p.score, p.key, p.clock = self.side, self.score, self.key, self.clock
        p.undo = self.undo[:]
        p.keys = self.keys[:]
        p.checks = self.checks[:]
        p.dests = self.dests[:]
        return p

    def set_values(self, values: Sequence[Sequence[int]]) -> None:
        """Switch the material/PST table (a level's weight set) and recompute the score."""
        self.values = values
        score = 0
        for i in range(32):
            sq = self.piece_sq[i]
            if sq:
                score = s16(score + values[(i >> 4) * 8 + self.piece_kind[i]][sq])
        self.score = score

    # ---- make / unmake ------------------------------------------------
    def make(self, move: int) -> int:
        """Play a pseudo-legal move; returns the captured code (0 if none)."""
        board = self.board
        frm = move & 0xFF
        to = move >> 8
        code = board[frm]
        cap = board[to]
        side = self.side
        pi = (code & 0x0F) | (side << 4)
        pk = side * 8 + self.piece_kind[pi]
        self.undo.append((move, cap, self.clock, self.score))
        board[to] = code
        board[frm] = EMPTY
        self.piece_sq[pi] = to
        vals = self.values[pk]
        score = self.score + vals[to] - vals[frm]
        zk = ZOBRIST[pk]
        key = self.key ^ zk[frm] ^ zk[to] ^ ZOBRIST_SIDE
        if cap:
            ci = (cap & 0x0F) | ((side ^ 1) << 4)
            ck = (side ^ 1) * 8 + self.piece_kind[ci]
            self.piece_sq[ci] = 0
            self.count[ck] -= 1
            score -= self.values[ck][to]
            key ^= ZOBRIST[ck][to]
            self.clock = 0
        else:
            self.clock += 1
        self.score = s16(score)
        self.key = key
        self.side = side ^ 1
        return cap

    def unmake(self) -> None:
        move, cap, clock, score = self.undo.pop()
        board = self.board
        frm = move & 0xFF
        to = move >> 8
        side = self.side ^ 1
        code = board[to]
        pi = (code & 0x0F) | (side << 4)
        pk = side * 8 + self.piece_kind[pi]
        board[frm] = code
        board[to] = cap
        self.piece_sq[pi] = frm
        zk = ZOBRIST[pk]
        key = self.key ^ zk[frm] ^ zk[to] ^ ZOBRIST_SIDE
        if cap:
            ci = (cap & 0x0F) | (self.side << 4)
            ck = self.side * 8 + self.piece_kind[ci]
            self.piece_sq[ci] = to
            self.count[ck] += 1
            key ^= ZOBRIST[ck][to]
        self.key = key
        self.clock = clock
        self.score = score
        self.side = side

    def make_null(self) -> None:
        """Pass the move (null-move pruning).  The clock is set to 0 so that
        repetition detection never looks across a null move."""
        self.undo.append((0, 0, self.clock, self.score))
        self.key ^= ZOBRIST_SIDE
        self.side ^= 1
        self.clock = 0

    def unmake_null(self) -> None:
        _, _, self.clock, self.score = self.undo.pop()
        self.key ^= ZOBRIST_SIDE
        self.side ^= 1

    def last_move_not_null(self) -> bool:
        return not self.undo or self.undo[-1][0] != 0

    def push_history(self, in_check: bool, dest: int = 0) -> None:
        """Record the current position for repetition detection: its key,
        whether the side to move is in check, and `dest`, the (padded)
        destination square of the move that led to it (0: not recorded; the
        chase judgement then finds no cycle there)."""
        self.keys.append(self.key)
        self.checks.append(in_check)
        self.dests.append(dest)

    def pop_history(self) -> None:
        self.keys.pop()
        self.checks.pop()
        self.dests.pop()

    # ---- attacks ------------------------------------------------------
    def in_check(self, side: int) -> bool:
        """Is `side`'s king attacked (including by the facing enemy king)?"""
        board = self.board
        k = self.piece_sq[side << 4]
        if not k:
            return False
        enemy = SIDE_TAG[side ^ 1]
        ebase = (side ^ 1) << 4
        kinds = self.piece_kind
        # Rooks, the facing king and cannons along the four lines.
        for d in ORTHO:
            sq = k + d
            c = board[sq]
            while c == EMPTY:
                sq += d
                c = board[sq]
            if c == OFFBOARD:
                continue
            if c & enemy:
                kd = kinds[ebase | (c & 0x0F)]
                if kd == ROOK or kd == KING:
                    return True
            sq += d
            c = board[sq]
            while c == EMPTY:
                sq += d
                c = board[sq]
            if c != OFFBOARD and c & enemy and kinds[ebase | (c & 0x0F)] == CANNON:
                return True
        # Horses: the leg of a horse that attacks the king is diagonal to the king.
        for leg, targets in HORSE_CHECKS:
            if board[k + leg] == EMPTY:
                for t in targets:
                    c = board[k + t]
                    if c != OFFBOARD and c & enemy and kinds[ebase | (c & 0x0F)] == HORSE:
                        return True
        # Pawns: in front of the king (from the king's side) or beside it.
        for d in (PAWN_FORWARD[side], -1, 1):
            c = board[k + d]
            if c != OFFBOARD and c & enemy and kinds[ebase | (c & 0x0F)] == PAWN:
                return True
        return False

    def attacked(self, sq: int, by: int) -> bool:
        """Could a piece of side `by` move to `sq` by its movement rule?

        Exactly: some pseudo-legal move of `by` (generate()) ends on `sq`,
        when `sq` holds a piece of the other side.  Used by the quiescence
        exchange test (docs/ENGINE.md, "Quiescence"); like generate(), it
        ignores pins and the facing kings.
        """
        board = self.board
        tag = SIDE_TAG[by]
        base = by << 4
        kinds = self.piece_kind
        flags = SQUARE_FLAGS[sq]
        for d in ORTHO:
            p = sq + d
            c = board[p]
            while c == EMPTY:
                p += d
                c = board[p]
            if c == OFFBOARD:
                continue
            if c & tag:
                kd = kinds[base | (c & 0x0F)]
                if kd == ROOK:
                    return True
                if p == sq + d:
                    if kd == KING and flags & PALACE_FLAG[by]:
                        return True
                    # a pawn steps forward, or sideways once across the river
                    if kd == PAWN and (d == -PAWN_FORWARD[by]
                                       or (d in (-1, 1) and not flags & HALF_FLAG[by])):
                        return True
            p += d
            c = board[p]
            while c == EMPTY:
                p += d
                c = board[p]
            if c != OFFBOARD and c & tag and kinds[base | (c & 0x0F)] == CANNON:
                return True
        for leg, targets in HORSE_CHECKS:
            if board[sq + leg] == EMPTY:
                for t in targets:
                    c = board[sq + t]
                    if c != OFFBOARD and c & tag and kinds[base | (c & 0x0F)] == HORSE:
                        return True
        for d in DIAG:
            c = board[sq + d]
            if c == EMPTY:
                if flags & HALF_FLAG[by]:
                    c = board[sq + d + d]
                    if c != OFFBOARD and c & tag and kinds[base | (c & 0x0F)] == ELEPHANT:
                        return True
            elif c != OFFBOARD and c & tag and flags & PALACE_FLAG[by] \
                    and kinds[base | (c & 0x0F)] == ADVISOR:
                return True
        return False

    # ---- move generation ----------------------------------------------
    def generate(self, captures_only: bool = False) -> list[int]:
        """Pseudo-legal moves in generation order (docs/ENGINE.md, "Move generation").

        Slots in order 0..15 of the side to move, visited kind by kind over
        the fixed slot ranges (KIND_RANGES), so a piece's kind comes from its
        slot, as in the ROM's unrolled generators; per piece, the directions
        in the fixed order of board.py; sliders nearest square first.
        """
        board = self.board
        side = self.side
        own = SIDE_TAG[side]
        moves: list[int] = []
        add = moves.append
        base = side << 4
        flags = SQUARE_FLAGS
        for kind, slots in KIND_RANGES:
            for slot in slots:
                frm = self.piece_sq[base + slot]
                if not frm:
                    continue
                if kind == ROOK:
                    for d in ORTHO:
                        to = frm + d
                        c = board[to]
                        while c == EMPTY:
                            if not captures_only:
                                add(frm | (to << 8))
                            to += d
                            c = board[to]
                        if not c & own:
                            add(frm | (to << 8))
                elif kind == CANNON:
                    for d in ORTHO:
                        to = frm + d
                        c = board[to]
                        while c == EMPTY:
                            if not captures_only:
                                add(frm | (to << 8))
                            to += d
                            c = board[to]
                        if c == OFFBOARD:
                            continue
                        to += d
                        c = board[to]
                        while c == EMPTY:
                            to += d
                            c = board[to]
                        if not c & own:
                            add(frm | (to << 8))
                elif kind == HORSE:
                    for leg, dt in HORSE_MOVES:
                        if board[frm + leg] == EMPTY:
                            to = frm + dt
                            c = board[to]
                            if not c & own and (c or not captures_only):
                                add(frm | (to << 8))
                elif kind == PAWN:
                    fwd = PAWN_FORWARD[side]
                    for d in (fwd, -1, 1):
                        if d != fwd and flags[frm] & HALF_FLAG[side]:
                            break
                        to = frm + d
                        c = board[to]
                        if not c & own and (c or not captures_only):
                            add(frm | (to << 8))
                elif kind == KING or kind == ADVISOR:
                    # one step inside the own palace: orthogonal (king) or diagonal (advisor)
                    pal = PALACE_FLAG[side]
                    for d in (ORTHO if kind == KING else DIAG):
                        to = frm + d
                        c = board[to]
                        if flags[to] & pal and not c & own and (c or not captures_only):
                            add(frm | (to << 8))
                else:  # ELEPHANT
                    half = HALF_FLAG[side]
                    for d in DIAG:
                        if board[frm + d] == EMPTY:
                            to = frm + d + d
                            c = board[to]
                            if flags[to] & half and not c & own and (c or not captures_only):
                                add(frm | (to << 8))
        return moves

    def is_legal_after_make(self) -> bool:
        """After make(): does the side that moved have its king safe?"""
        return not self.in_check(self.side ^ 1)

    def legal_moves(self) -> list[int]:
        out = []
        for m in self.generate():
            self.make(m)
            if not self.in_check(self.side ^ 1):
                out.append(m)
            self.unmake()
        return out

    def is_capture(self, move: int) -> bool:
        return self.board[move >> 8] != EMPTY
