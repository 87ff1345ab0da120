"""Perpetual chase (長捉): which pieces a move chases, and which pieces a
side chases with every one of its moves in a repetition cycle
(docs/ENGINE.md, "Repetition and chasing").

A side *chase-attacks* an enemy piece P in a position when one of its
advisors, elephants, horses, rooks or cannons A (kings and pawns never
chase) can capture P by a legal move, P is neither the king nor a pawn still
on its own side of the river, and
  * A is a horse or cannon and P a rook, or A is an advisor or elephant and
    P a rook, horse or cannon: a weaker piece attacking a stronger one
    counts even when P is protected; or else
  * P is unprotected: after A takes P, the other side has no legal move
    that takes back on P's square; and the attack is not mutual: P is not
    of A's kind with a legal capture of A itself (rook facing rook, cannon
    facing cannon over one screen, horse against a horse whose leg is free).
A move *chases* P when, after it, the mover chase-attacks P and, before it,
did not; a move that gives check chases nothing.  When the mover is in check
before its move, its "before" set is taken with its captures tested for
pseudo-legality only (`pseudo`: A's capture of P need not leave its king
safe; the protection and mutual tests keep their legality tests): a capture
that does not answer the check is illegal only because of the check, and a
king stepping out of check does not "newly" attack what it attacked all
along.

The pieces are named by their slots (bit `slot` of a 16-bit mask over one
side's 16 slots).  Make and unmake never renumber slots, so the masks of one
line of play can be intersected; a cycle holds no capture, so every piece
of the cycle's first position is still on the board at its end.
"""
from __future__ import annotations

from typing import Sequence

from .board import (
    ADVISOR, CANNON, DIAG, ELEPHANT, EMPTY, HALF_FLAG, HORSE, HORSE_MOVES, KING, OFFBOARD, ORTHO,
    PALACE_FLAG, PAWN, PAWN_FORWARD, ROOK, SLOT_MASK, SQUARE_FLAGS, move_from, move_to,
)
from .position import Position
from .zobrist import ZOBRIST, ZOBRIST_SIDE

# A weaker piece attacking a stronger one chases it even when it is protected.
STRONGER: dict[int, frozenset[int]] = {
    HORSE: frozenset({ROOK}), CANNON: frozenset({ROOK}),
    ADVISOR: frozenset({ROOK, HORSE, CANNON}), ELEPHANT: frozenset({ROOK, HORSE, CANNON}),
}
CHASERS = frozenset({ADVISOR, ELEPHANT, HORSE, ROOK, CANNON})
ALL_SLOTS = 0xFFFF


def _kind_on(pos: Position, sq: int) -> int:
    code = pos.board[sq]
    side = 1 if code & 0x20 else 0
    return pos.piece_kind[(side << 4) | (code & SLOT_MASK)]


def _is_target(pos: Position, sq: int, side: int) -> bool:
    """Can the piece of `side` on `sq` be chased?  Not the king, and not a
    pawn on its own side of the river."""
    kind = _kind_on(pos, sq)
    if kind == KING:
        return False
    return kind != PAWN or not SQUARE_FLAGS[sq] & HALF_FLAG[side]


def _captures(pos: Position, side: int, room: int | None = None) -> list[int]:
    """Pseudo-legal captures of `side` (whoever is to move), generation
    order.  `room`: the move-stack entries free for the list (None: no
    limit); a list that does not fit is empty, as the ROM's generator
    leaves it."""
    saved = pos.side
    pos.side = side
    moves = pos.generate(captures_only=True)
    pos.side = saved
    if room is not None and len(moves) > room:
        return []
    return moves


def _legal(pos: Position, side: int, move: int) -> bool:
    """Is `side`'s pseudo-legal `move` legal (its king safe after it)?"""
    saved = pos.side
    pos.side = side
    pos.make(move)
    ok = not pos.in_check(side)
    pos.unmake()
    pos.side = saved
    return ok


def _can_take_back(pos: Position, side: int, sq: int, room: int | None = None) -> bool:
    """Has `side` a legal capture landing on `sq`?"""
    return any(move_to(m) == sq and _legal(pos, side, m) for m in _captures(pos, side, room))


def chase_attacks(pos: Position, by: int, room: int | None = None, pseudo: bool = False) -> int:
    """The pieces of the other side that side `by` chase-attacks in `pos`
    (whichever side is to move), as a mask over that side's slots.

    `pseudo`: `by`'s captures need only be pseudo-legal (their own
    king-safety test skipped; the take-back and mutual tests keep theirs):
    the "before" set of a mover in check (move_chases, cycle_chases).

    `room` (None: no limit) models the ROM's move stack, as the search
    uses it: the entries free for `by`'s capture list; the other side's
    captures (the take-back and mutual tests) go above that list.  A list
    that does not fit is empty: no capture of `by` (nothing is attacked),
    no take-back (unprotected), no mutual capture."""
    them = by ^ 1
    mask = 0
    caps = _captures(pos, by, room)
    above = None if room is None else room - len(caps)
    for m in caps:
        frm, to = move_from(m), move_to(m)
        attacker, target = _kind_on(pos, frm), _kind_on(pos, to)
        bit = 1 << (pos.board[to] & SLOT_MASK)
        if attacker not in CHASERS or mask & bit or not _is_target(pos, to, them):
            continue
        if not pseudo and not _legal(pos, by, m):
            continue
        if target in STRONGER.get(attacker, ()):
            mask |= bit
            continue
        saved = pos.side
        pos.side = by
        pos.make(m)
        protected = _can_take_back(pos, them, to, above)
        pos.unmake()
        pos.side = saved
        if protected:
            continue
        if target == attacker and (to | (frm << 8)) in _captures(pos, them, above) \
                and _legal(pos, them, to | (frm << 8)):
            continue                       # a mutual attack: an offer to exchange
        mask |= bit
    return mask


def move_chases(pos: Position, move: int) -> int:
    """The pieces the side to move chases with `move` (legal in `pos`), as
    a mask over the other side's slots.  `pos` is left as it was."""
    mover = pos.side
    before = chase_attacks(pos, mover, pseudo=pos.in_check(mover))
    pos.make(move)
    after = 0 if pos.in_check(mover ^ 1) else chase_attacks(pos, mover)
    pos.unmake()
    return after & ~before


def cycle_chases(pos: Position, cycle: Sequence[int], room: int | None = None) -> tuple[int, int]:
    """(Red's, Black's) perpetual chases in a repetition cycle: for each
    side, the pieces of the other side that every one of its moves in
    `cycle` chases, as a mask over the other side's slots (0: none).

    `pos` is the position after the cycle's moves (oldest first), which
    hold no capture; it is walked back one move at a time on a copy, as the
    ROM walks back its own position (no slot renumbering in between).  A
    mover in check in the position walked back to gets its "before" set
    with pseudo=True (the ROM reads that from the ring's check bit).
    `room`: as chase_attacks' (the search's judgement)."""
    walk = pos.copy()
    chased = [ALL_SLOTS, ALL_SLOTS]
    for move in reversed(cycle):
        mover = walk.side ^ 1
        frm, to = move_from(move), move_to(move)
        if walk.board[frm] != EMPTY or walk.board[to] == EMPTY:
            raise ValueError("cycle_chases: the cycle does not end in this position")
        gave_check = walk.in_check(walk.side)
        after = 0 if gave_check else chase_attacks(walk, mover, room)
        _unmove(walk, frm, to)
        before = chase_attacks(walk, mover, room, walk.in_check(mover)) if after else 0
        chased[mover] &= after & ~before
        if not chased[0] and not chased[1]:
            break
    return chased[0], chased[1]


def _unmove(pos: Position, frm: int, to: int) -> None:
    """Take back the quiet move frm -> to (the piece on `to` goes home)."""
    pos.side ^= 1
    code = pos.board[to]
    pos.board[frm], pos.board[to] = code, EMPTY
    pos.piece_sq[(pos.side << 4) | (code & SLOT_MASK)] = frm
    pos.key ^= ZOBRIST_SIDE
    kind = pos.piece_kind[(pos.side << 4) | (code & SLOT_MASK)]
    z = ZOBRIST[pos.side * 8 + kind]
    pos.key ^= z[frm] ^ z[to]
    pos.clock -= 1


# ---- the ROM's record of a ply: its destination only ------------------------
def _flags(sq: int) -> int:
    """SQUARE_FLAGS, 0 outside the padded board."""
    return SQUARE_FLAGS[sq] if 0 <= sq < len(SQUARE_FLAGS) else 0


def origins(kind: int, side: int, to: int) -> list[int]:
    """The squares a piece of `side` and `kind` could have come from to
    reach `to` with a quiet move, on an empty board, in a fixed order: the
    candidates quiet_origin() tries."""
    if kind in (ROOK, CANNON):
        out = []
        for d in ORTHO:
            sq = to - d
            while _flags(sq):
                out.append(sq)
                sq -= d
        return out
    if kind == HORSE:
        return [to - dt for _, dt in HORSE_MOVES if _flags(to - dt)]
    if kind == KING:
        return [to - d for d in ORTHO if _flags(to - d) & PALACE_FLAG[side]]
    if kind == ADVISOR:
        return [to - d for d in DIAG if _flags(to - d) & PALACE_FLAG[side]]
    if kind == ELEPHANT:
        return [to - 2 * d for d in DIAG if _flags(to - 2 * d) & HALF_FLAG[side]]
    return [to - d for d in (PAWN_FORWARD[side], -1, 1) if _flags(to - d)]


def quiet_origin(pos: Position, to: int, key_before: int) -> int:
    """The origin of the quiet move that put the piece on `to` in `pos`,
    from the key of the position before it: the one candidate of origins()
    whose Zobrist number completes the difference of the two keys.  The
    ROM keeps only each ply's destination and its key ring; this is how it
    finds the move again (unique for the Zobrist table: see
    tests/test_ref_chase.py).  Raises ValueError when no candidate fits."""
    code = pos.board[to]
    side = 1 if code & 0x20 else 0
    kind = pos.piece_kind[(side << 4) | (code & SLOT_MASK)]
    z = ZOBRIST[side * 8 + kind]
    want = key_before ^ pos.key ^ ZOBRIST_SIDE ^ z[to]
    for sq in origins(kind, side, to):
        if z[sq] == want:
            return sq
    raise ValueError("quiet_origin: no origin fits the keys")


def ring_cycle(pos: Position, keys: Sequence[int], dests: Sequence[int], k: int) -> list[int]:
    """The last `k` moves that led to `pos` (oldest first), recovered as the
    ROM recovers them from its ring: `keys` are the keys of the positions
    up to `pos` (the current one last), `dests[i]` the padded destination
    of the move that led to position i (0: not recorded); each origin comes
    from quiet_origin(), walking back on a copy.  The k moves hold no
    capture.  Raises ValueError when a move cannot be recovered."""
    walk = pos.copy()
    n = len(keys) - 1
    moves = []
    for j in range(k):
        to = dests[n - j]
        if not to or walk.board[to] in (EMPTY, OFFBOARD):
            raise ValueError("ring_cycle: no move recorded there")
        frm = quiet_origin(walk, to, keys[n - j - 1])
        if walk.board[frm] != EMPTY:
            raise ValueError("ring_cycle: the origin is occupied")
        _unmove(walk, frm, to)
        moves.append(frm | (to << 8))
    moves.reverse()
    return moves


__all__ = ["chase_attacks", "cycle_chases", "move_chases", "origins", "quiet_origin", "ring_cycle"]
