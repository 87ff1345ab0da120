"""Writes config/bitbase_h_e.bin: the KH vs KE bitbase (reference_py/bitbase.py
has its index; docs/ENGINE.md "Bitbase" the rule that uses it).

A retrograde analysis over every position of king + horse (the attacker A)
against king + one elephant (the defender D), each side to move, in D's
view (D's palace on ranks 0-2).  The rules are xiangqi's: kings step
orthogonally inside their palace, a horse's leg and an elephant's eye block
it, an elephant stays on its own half, kings may not face each other on an
open file, no move may leave the mover's king attacked, and a side with no
legal move (mate or stalemate) loses.  Repetition and the move-count rule
are ignored.  Captures leave the class: A taking the elephant reaches KH vs
K, solved by the same code first; D taking the horse reaches K vs KE, where
A can no longer win (solved too: nobody can check and every position has a
legal move for the side to move, so neither side ever loses).  The value stored is "A wins" (1) or not (0: a draw; A never loses,
the analysis checks that it always has a legal move).

    python -m tools.rom.gen_bitbase            # write the file
    python -m tools.rom.gen_bitbase --check    # fail when the file differs
    python -m tools.rom.gen_bitbase --stats    # the win fractions
"""
from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Callable, Iterator

from reference_py.bitbase import BITBASE_PATH, BITS, ELEPHANT_CLASS, SIZE, index

A_TO_MOVE, D_TO_MOVE = 0, 1
NONE = -1
D_PALACE = tuple(r * 9 + f for r in range(3) for f in range(3, 6))
A_PALACE = tuple(r * 9 + f for r in range(7, 10) for f in range(3, 6))
ELEPHANT_SQUARES_ALL = tuple(sorted(r * 9 + f for r, f in
                                    ((0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6))))

State = tuple[int, int, int, int, int]      # (stm, ak, dk, h, e); h, e = NONE when captured


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


def elephant_targets(e: int, occupied: set[int]) -> Iterator[int]:
    """D's elephant (ranks 0-4 in D's view; eyes free)."""
    r, f = divmod(e, 9)
    for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        if _on(f + 2 * df, r + 2 * dr) and r + 2 * dr <= 4 and (r + dr) * 9 + f + df not in occupied:
            yield (r + 2 * dr) * 9 + f + 2 * df


def king_targets(k: int, palace: tuple[int, ...]) -> Iterator[int]:
    for d in (9, -9, 1, -1):
        t = k + d
        if t in palace and (d in (9, -9) or t // 9 == k // 9):
            yield t


def facing(ak: int, dk: int, h: int, e: int) -> bool:
    """The kings on one file with nothing between them."""
    if ak % 9 != dk % 9:
        return False
    return not any(p != NONE and p % 9 == ak % 9 and dk < p < ak for p in (h, e))


def d_king_attacked(ak: int, dk: int, h: int, e: int) -> bool:
    """D's king attacked: by the horse, or by A's king across an open file."""
    if facing(ak, dk, h, e):
        return True
    return h != NONE and dk in horse_targets(h, {ak, dk, e} - {NONE})


def legal(s: State) -> bool:
    """A position that can stand with `stm` to move: no two pieces on a
    square, the side that just moved not in check (its king not facing the
    other, D's king not attacked by the horse)."""
    stm, ak, dk, h, e = s
    pieces = [p for p in (ak, dk, h, e) if p != NONE]
    if len(set(pieces)) != len(pieces):
        return False
    if facing(ak, dk, h, e):
        return False
    return not (stm == A_TO_MOVE and d_king_attacked(ak, dk, h, e))


def successors(s: State) -> list[State]:
    """The positions after each legal move of the side to move."""
    stm, ak, dk, h, e = s
    occ = {p for p in (ak, dk, h, e) if p != NONE}
    out: list[State] = []
    if stm == A_TO_MOVE:
        for t in king_targets(ak, A_PALACE):
            if t != h:
                out.append((D_TO_MOVE, t, dk, h, NONE if t == e else e))
        if h != NONE:
            for t in horse_targets(h, occ):
                if t not in (ak, dk):
                    out.append((D_TO_MOVE, ak, dk, t, NONE if t == e else e))
        # A's king is attacked only across an open file
        return [n for n in out if not facing(n[1], n[2], n[3], n[4])]
    for t in king_targets(dk, D_PALACE):
        if t != e:
            out.append((A_TO_MOVE, ak, t, NONE if t == h else h, e))
    if e != NONE:
        for t in elephant_targets(e, occ):
            if t not in (ak, dk):
                out.append((A_TO_MOVE, ak, dk, NONE if t == h else h, t))
    return [n for n in out if not d_king_attacked(n[1], n[2], n[3], n[4])]


def solve(states: list[State], outside: Callable[[State], bool]) -> set[State]:
    """The positions of `states` that A wins.  `outside(s)` is the value
    (A wins) of a successor that left the class (a capture)."""
    inside = set(states)
    preds: dict[State, list[State]] = {s: [] for s in states}
    left: dict[State, int] = {}            # D to move: moves not yet known to lose
    win: set[State] = set()
    queue: deque[State] = deque()
    for s in states:
        succ = successors(s)
        if s[0] == A_TO_MOVE:
            if not succ:
                raise AssertionError(f"the horse side has no legal move in {s}")
            for n in succ:
                if n in inside:
                    preds[n].append(s)
            if s not in win and any(n not in inside and outside(n) for n in succ):
                win.add(s)
                queue.append(s)
        else:
            escape = False
            count = 0
            for n in succ:
                if n in inside:
                    preds[n].append(s)
                    count += 1
                elif not outside(n):
                    escape = True
            if escape:
                left[s] = -1                # never lost
            else:
                left[s] = count
                if count == 0:              # mate or stalemate, or every move a losing capture
                    win.add(s)
                    queue.append(s)
    while queue:
        n = queue.popleft()
        for p in preds[n]:
            if p in win:
                continue
            if p[0] == A_TO_MOVE:
                win.add(p)
                queue.append(p)
            elif left[p] > 0:
                left[p] -= 1
                if left[p] == 0:
                    win.add(p)
                    queue.append(p)
    return win


def all_states(with_horse: bool, with_elephant: bool) -> list[State]:
    hs = range(90) if with_horse else (NONE,)
    es = ELEPHANT_SQUARES_ALL if with_elephant else (NONE,)
    return [s for stm in (A_TO_MOVE, D_TO_MOVE) for ak in A_PALACE for dk in D_PALACE for h in hs for e in es
            if legal(s := (stm, ak, dk, h, e))]


def analyse() -> tuple[set[State], set[State], list[State], list[State]]:
    """(wins of KH vs KE, wins of KH vs K, the states of each).  K vs KE
    and K vs K are solved first by the same code: no position of either is
    won for the side without the horse's (neither side can check, so only
    a side without a legal move could lose, and none is ever without one)."""
    for no_horse in (all_states(False, True), all_states(False, False)):
        if solve(no_horse, lambda n: False):
            raise AssertionError("K vs KE or K vs K has a position the horse side's king wins")
        if any(not successors(s) for s in no_horse):
            raise AssertionError("K vs KE or K vs K has a position without a legal move")
    khk = all_states(True, False)
    khk_win = solve(khk, lambda n: False)          # the horse taken: K vs K
    khke = all_states(True, True)

    def outside(n: State) -> bool:
        if n[3] == NONE:
            return False                            # the horse taken: K vs KE
        return n in khk_win                         # the elephant taken: KH vs K
    return solve(khke, outside), khk_win, khke, khk


def table(wins: set[State], states: list[State]) -> bytes:
    """The bitbase's bytes; checks that mirror images agree."""
    bits = [-1] * BITS
    for s in states:
        stm, ak, dk, h, e = s
        i = index(stm == D_TO_MOVE, ak, dk, h, e)
        v = int(s in wins)
        if bits[i] not in (-1, v):
            raise AssertionError(f"{s} and its mirror image differ")
        bits[i] = v
    out = bytearray(SIZE)
    for i, v in enumerate(bits):
        if v == 1:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def stats(wins: set[State], khk_win: set[State], khke: list[State], khk: list[State]) -> str:
    def frac(ws: set[State], ss: list[State], stm: int) -> str:
        n = sum(1 for s in ss if s[0] == stm)
        w = sum(1 for s in ss if s[0] == stm and s in ws)
        return f"{w:,} of {n:,} ({100 * w / n:.1f}%)"
    return "\n".join([
        f"KH vs KE, horse side to move: {frac(wins, khke, A_TO_MOVE)} won",
        f"KH vs KE, elephant side to move: {frac(wins, khke, D_TO_MOVE)} won (lost for it)",
        f"KH vs K, horse side to move: {frac(khk_win, khk, A_TO_MOVE)} won",
        f"KH vs K, bare king to move: {frac(khk_win, khk, D_TO_MOVE)} won"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail when the committed file differs")
    ap.add_argument("--stats", action="store_true", help="print the win fractions")
    args = ap.parse_args(argv)
    wins, khk_win, khke, khk = analyse()
    data = table(wins, khke)
    assert set(ELEPHANT_CLASS) <= set(ELEPHANT_SQUARES_ALL)
    if args.stats:
        print(stats(wins, khk_win, khke, khk))
    if args.check:
        if not BITBASE_PATH.exists() or BITBASE_PATH.read_bytes() != data:
            print(f"{BITBASE_PATH} differs from the analysis: run python -m tools.rom.gen_bitbase", file=sys.stderr)
            return 1
        print(f"{BITBASE_PATH}: up to date")
        return 0
    BITBASE_PATH.write_bytes(data)
    print(f"wrote {BITBASE_PATH} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
