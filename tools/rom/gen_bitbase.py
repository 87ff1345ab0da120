"""Writes the horse bitbases, config/bitbase_h_e.bin (KH vs KE) and
config/bitbase_h_aa.bin (KH vs KAA); reference_py/bitbase.py has their
index, docs/ENGINE.md "Bitbases" the rule that uses them.

A retrograde analysis over every position of king + horse (the attacker A)
against king + the defender's men (D: one elephant, or two advisors), each
side to move, in D's view (D's palace on ranks 0-2).  The rules are
xiangqi's: kings step orthogonally inside their palace, advisors
diagonally inside it, a horse's leg and an elephant's eye block it, an
elephant stays on its own half, kings may not face each other on an open
file, no move may leave the mover's king attacked, and a side with no
legal move (mate or stalemate) loses.  Repetition and the move-count rule
are ignored.  A capture leaves the class for a smaller one, solved first
by the same code: A taking a man reaches KH against the men left (KH vs
KA, KH vs K); D taking the horse reaches a class without it (K vs KE, K vs
KAA, ...), where A can no longer win: nobody can check, and the analysis
checks that every position has a legal move for the side to move, so
neither side ever loses.  The value stored is "A wins" (1) or not (0: a
draw; A never loses: the analysis checks that it always has a legal move).

    python -m tools.rom.gen_bitbase            # write the files
    python -m tools.rom.gen_bitbase --check    # fail when a file differs
    python -m tools.rom.gen_bitbase --stats    # the win fractions
"""
from __future__ import annotations

import argparse
import functools
import heapq
import itertools
import sys
from collections import deque
from collections.abc import Callable, Iterator

from reference_py.bitbase import ADVISOR_SQUARES, BITBASES, ELEPHANT_SQUARES_ALL, Bitbase
from reference_py.board import ADVISOR, ELEPHANT

A_TO_MOVE, D_TO_MOVE = 0, 1
NONE = -1
D_PALACE = tuple(r * 9 + f for r in range(3) for f in range(3, 6))
A_PALACE = tuple(r * 9 + f for r in range(7, 10) for f in range(3, 6))
MAN_SQUARES = {ADVISOR: ADVISOR_SQUARES, ELEPHANT: ELEPHANT_SQUARES_ALL}

Man = tuple[int, int]                                   # (kind, square)
State = tuple[int, int, int, int, tuple[Man, ...]]      # (stm, ak, dk, h, men sorted); h = NONE when taken
Material = tuple[bool, tuple[int, ...]]                 # (A has the horse, D's men's kinds sorted)


def _on(f: int, r: int) -> bool:
    return 0 <= f <= 8 and 0 <= r <= 9


def horse_targets(h: int, occupied: set[int]) -> Iterator[int]:
    """The squares a horse on h reaches (legs free), whatever stands there."""
    r, f = divmod(h, 9)
    for (lf, lr), targets in (((0, 1), ((-1, 2), (1, 2))), ((0, -1), ((-1, -2), (1, -2))),
                              ((-1, 0), ((-2, -1), (-2, 1))), ((1, 0), ((2, -1), (2, 1)))):
        if r * 9 + f + lr * 9 + lf in occupied:
            continue
        for tf, tr in targets:
            if _on(f + tf, r + tr):
                yield (r + tr) * 9 + f + tf


def man_targets(kind: int, s: int, occupied: set[int]) -> Iterator[int]:
    """D's advisor (diagonal steps in its palace) or elephant (two diagonal
    steps on ranks 0-4, eye free), whatever stands on the target."""
    r, f = divmod(s, 9)
    for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        if kind == ADVISOR:
            t = s + dr * 9 + df
            if _on(f + df, r + dr) and t in ADVISOR_SQUARES:
                yield t
        elif _on(f + 2 * df, r + 2 * dr) and r + 2 * dr <= 4 and (r + dr) * 9 + f + df not in occupied:
            yield (r + 2 * dr) * 9 + f + 2 * df


def king_targets(k: int, palace: tuple[int, ...]) -> Iterator[int]:
    for d in (9, -9, 1, -1):
        t = k + d
        if t in palace and (d in (9, -9) or t // 9 == k // 9):
            yield t


def facing(ak: int, dk: int, h: int, men: tuple[Man, ...]) -> bool:
    """The kings on one file with nothing between them."""
    if ak % 9 != dk % 9:
        return False
    between = [h] + [s for _, s in men]
    return not any(p != NONE and p % 9 == ak % 9 and dk < p < ak for p in between)


def d_king_attacked(ak: int, dk: int, h: int, men: tuple[Man, ...]) -> bool:
    """D's king attacked: by the horse, or by A's king across an open file."""
    if facing(ak, dk, h, men):
        return True
    return h != NONE and dk in horse_targets(h, {ak, dk} | {s for _, s in men})


def legal(s: State) -> bool:
    """A position that can stand with `stm` to move: no two pieces on a
    square, the side that just moved not in check (its king not facing the
    other, D's king not attacked by the horse)."""
    stm, ak, dk, h, men = s
    pieces = [p for p in (ak, dk, h) if p != NONE] + [sq for _, sq in men]
    if len(set(pieces)) != len(pieces):
        return False
    if facing(ak, dk, h, men):
        return False
    return not (stm == A_TO_MOVE and d_king_attacked(ak, dk, h, men))


def _without(men: tuple[Man, ...], sq: int) -> tuple[Man, ...]:
    return tuple(m for m in men if m[1] != sq)


def successors(s: State) -> list[State]:
    """The positions after each legal move of the side to move."""
    stm, ak, dk, h, men = s
    men_sq = {sq for _, sq in men}
    occ = {p for p in (ak, dk, h) if p != NONE} | men_sq
    out: list[State] = []
    if stm == A_TO_MOVE:
        for t in king_targets(ak, A_PALACE):
            if t != h:
                out.append((D_TO_MOVE, t, dk, h, _without(men, t)))
        if h != NONE:
            for t in horse_targets(h, occ):
                if t not in (ak, dk):
                    out.append((D_TO_MOVE, ak, dk, t, _without(men, t)))
        # A's king is attacked only across an open file
        return [n for n in out if not facing(n[1], n[2], n[3], n[4])]
    for t in king_targets(dk, D_PALACE):
        if t not in men_sq:
            out.append((A_TO_MOVE, ak, t, NONE if t == h else h, men))
    for i, (kind, sq) in enumerate(men):
        for t in man_targets(kind, sq, occ):
            if t not in (ak, dk) and t not in men_sq:
                moved = tuple(sorted(men[:i] + ((kind, t),) + men[i + 1:]))
                out.append((A_TO_MOVE, ak, dk, NONE if t == h else h, moved))
    return [n for n in out if not d_king_attacked(n[1], n[2], n[3], n[4])]


def material(s: State) -> Material:
    return s[3] != NONE, tuple(sorted(k for k, _ in s[4]))


def solve(states: list[State], outside: Callable[[State], int | None]) -> dict[State, int]:
    """The positions of `states` that A wins, each with its distance: the
    plies to mate with best play (A the fastest, D the slowest).
    `outside(n)` is the distance of a successor that left the class (a
    capture), None when A does not win it.  Positions are settled in the
    order of their distance (a heap), so a D-to-move position's distance is
    1 + its last (farthest) successor's."""
    inside = set(states)
    preds: dict[State, list[State]] = {s: [] for s in states}
    left: dict[State, int] = {}            # D to move: moves not yet known to lose
    far: dict[State, int] = {}             # D to move: its farthest losing capture so far
    win: dict[State, int] = {}
    heap: list[tuple[int, State]] = []
    for s in states:
        succ = successors(s)
        if s[0] == A_TO_MOVE:
            if not succ:
                raise AssertionError(f"the horse side has no legal move in {s}")
            best = None
            for n in succ:
                if n in inside:
                    preds[n].append(s)
                elif (d := outside(n)) is not None and (best is None or d < best):
                    best = d
            if best is not None:
                heapq.heappush(heap, (best + 1, s))
        else:
            escape = False
            count = 0
            farthest = 0
            for n in succ:
                if n in inside:
                    preds[n].append(s)
                    count += 1
                elif (d := outside(n)) is None:
                    escape = True
                else:
                    farthest = max(farthest, d)
            if escape:
                left[s] = -1                # never lost
            else:
                left[s] = count
                far[s] = farthest
                if count == 0:              # mate or stalemate, or every move a losing capture
                    heapq.heappush(heap, (farthest + 1 if succ else 0, s))
    while heap:
        d, n = heapq.heappop(heap)
        if n in win:
            continue
        win[n] = d
        for p in preds[n]:
            if p in win:
                continue
            if p[0] == A_TO_MOVE:
                heapq.heappush(heap, (d + 1, p))
            elif left[p] > 0:
                left[p] -= 1
                if left[p] == 0:
                    heapq.heappush(heap, (max(d, far[p]) + 1, p))
    return win


def all_states(m: Material) -> list[State]:
    """Every legal position of material m, each side to move."""
    with_horse, kinds = m
    hs = range(90) if with_horse else (NONE,)
    men_sets: list[tuple[Man, ...]] = [()]
    for kind in sorted(set(kinds)):
        combos = itertools.combinations(MAN_SQUARES[kind], kinds.count(kind))
        men_sets = [ms + tuple((kind, sq) for sq in c) for ms in men_sets for c in combos]
    men_sets = [tuple(sorted(ms)) for ms in men_sets]
    return [s for stm in (A_TO_MOVE, D_TO_MOVE) for ak in A_PALACE for dk in D_PALACE for h in hs
            for men in men_sets if legal(s := (stm, ak, dk, h, men))]


@functools.lru_cache(maxsize=None)
def analyse(m: Material) -> tuple[dict[State, int], tuple[State, ...]]:
    """(the positions A wins with their distances to mate, every position)
    of material m, after every class a capture reaches.  Without the horse
    nobody wins: the analysis checks that A's king wins nothing there and
    that no position lacks a legal move (neither side can check, so only
    such a side could lose)."""
    states = all_states(m)
    with_horse, kinds = m
    if not with_horse:
        if solve(states, lambda n: None):
            raise AssertionError(f"{m}: the horse side's king wins a position")
        if any(not successors(s) for s in states):
            raise AssertionError(f"{m}: a position without a legal move")
        return {}, tuple(states)
    subs = {material(n) for s in states for n in successors(s)} - {m}
    sub_wins = {sm: analyse(sm)[0] for sm in subs}

    def outside(n: State) -> int | None:
        return sub_wins[material(n)].get(n)
    return solve(states, outside), tuple(states)


def bitbase_material(bb: Bitbase) -> Material:
    return True, tuple(sorted(bb.men))


def table(bb: Bitbase, wins: dict[State, int], states: tuple[State, ...]) -> bytes:
    """The bitbase's bytes; checks that mirror images agree."""
    bits = [-1] * bb.bits
    for s in states:
        stm, ak, dk, h, men = s
        i = bb.index(stm == D_TO_MOVE, ak, dk, h, tuple(sq for _, sq in men))
        v = int(s in wins)
        if bits[i] not in (-1, v):
            raise AssertionError(f"{s} and its mirror image differ")
        bits[i] = v
    out = bytearray(bb.size)
    for i, v in enumerate(bits):
        if v == 1:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def stats() -> str:
    lines = []
    names = {ELEPHANT: "E", ADVISOR: "A"}
    for m in sorted({sm for bb in BITBASES for sm in _with_subclasses(bitbase_material(bb))}):
        if not m[0]:
            continue
        wins, states = analyse(m)
        name = "KH vs K" + "".join(names[k] for k in m[1])
        for stm, who in ((A_TO_MOVE, "horse side to move"), (D_TO_MOVE, "defender to move (lost for it)")):
            n = sum(1 for s in states if s[0] == stm)
            w = sum(1 for s in states if s[0] == stm and s in wins)
            lines.append(f"{name}, {who}: {w:,} of {n:,} ({100 * w / n:.1f}%) won")
        lines.append(f"{name}: the longest win is {max(wins.values())} plies to mate")
    return "\n".join(lines)


def _with_subclasses(m: Material) -> set[Material]:
    out = {m}
    for i in range(len(m[1])):
        out |= _with_subclasses((m[0], m[1][:i] + m[1][i + 1:]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail when a committed file differs")
    ap.add_argument("--stats", action="store_true", help="print the win fractions")
    args = ap.parse_args(argv)
    if args.stats:
        print(stats())
    status = 0
    for bb in BITBASES:
        data = table(bb, *analyse(bitbase_material(bb)))
        if args.check:
            if not bb.path.exists() or bb.path.read_bytes() != data:
                print(f"{bb.path} differs from the analysis: run python -m tools.rom.gen_bitbase", file=sys.stderr)
                status = 1
            else:
                print(f"{bb.path}: up to date")
            continue
        tmp = bb.path.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(bb.path)
        print(f"wrote {bb.path} ({len(data):,} bytes)")
    return status


if __name__ == "__main__":
    sys.exit(main())
