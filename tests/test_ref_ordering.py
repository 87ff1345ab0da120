"""Move ordering keys and lazy quiet keys (docs/ENGINE.md "Move ordering keys").

The ROM tells captures from quiet moves by bit 7 of the key and keys the quiet
moves only when a pick first finds no capture and no PV move left; these tests
pin the reference's side of that rule.
"""
from __future__ import annotations

import itertools

import pytest

from reference_py.board import EMPTY
from reference_py.fen import parse_fen
from reference_py.search import (
    KEY_CAPTURE, KEY_KILLER1, KEY_KILLER2, KEY_PV, KEY_QUIET, Searcher, level_by_name,
)

# A middlegame of bench/middlegames.fen with captures and quiet moves for Black.
FEN = "r1baka1n1/9/2c1b2c1/p2rp1p1p/9/1CB6/PCP1P1P1P/9/2R6/1N1AKA1NR b - - 0 12"


def searcher(lazy: bool = True) -> Searcher:
    s = Searcher(parse_fen(FEN), level_by_name("Master"), lazy=lazy)
    s.pos.rebuild()
    return s


def is_capture(s: Searcher, m: int) -> bool:
    return s.pos.board[m >> 8] != EMPTY


def test_capture_keys_are_above_every_quiet_key():
    """Every capture key has bit 7 set and exceeds killer 1; the PV key is the highest."""
    s = searcher()
    keys = {KEY_CAPTURE + 16 * s.victim[v] - s.attacker[a] for v, a in itertools.product(range(1, 8), repeat=2)}
    assert min(keys) >= 138 and max(keys) < KEY_PV
    assert all(k & 0x80 for k in keys)
    assert KEY_QUIET == 0 < KEY_KILLER2 < KEY_KILLER1 < 0x80 <= KEY_CAPTURE


def test_generation_keys_only_pv_and_captures():
    s = searcher()
    s.hist = [200] * len(s.hist)          # history would give every quiet move 100
    moves = s.pos.generate()
    quiet = [m for m in moves if not is_capture(s, m)]
    caps = [m for m in moves if is_capture(s, m)]
    assert caps and len(quiet) > 3
    pv = quiet[2]
    s.killers[0] = [quiet[0], quiet[1]]
    keys = s._keys(moves, 0, pv, True)
    for m, k in zip(moves, keys):
        if m == pv:
            assert k == KEY_PV
        elif is_capture(s, m):
            assert k == s._capture_key(m)
        else:
            assert k == KEY_QUIET
    # the eager rule (lazy=False) keys everything at once
    old = searcher(lazy=False)
    old.hist = list(s.hist)
    old.killers[0] = list(s.killers[0])
    okeys = old._keys(moves, 0, pv, True)
    assert okeys[moves.index(quiet[0])] == KEY_KILLER1 and okeys[moves.index(quiet[3])] == 100


def picks(s: Searcher, moves: list[int], keys: list[int], quiet_order: bool, before_quiet=None) -> list[int]:
    """Run the selection sort to the end; call before_quiet(s) just before the first quiet pick."""
    out = []
    for i in range(len(moves)):
        if before_quiet and all(k < KEY_CAPTURE for k in keys[i:]) and (i == 0 or keys[i - 1] >= KEY_CAPTURE):
            before_quiet(s)
            before_quiet = None
        out.append(s._pick_lazy(moves, keys, i, 0, quiet_order))
    return out


@pytest.mark.parametrize("quiet_order", [True, False], ids=["main", "quiescence"])
def test_quiet_keys_use_the_history_at_pick_time(quiet_order):
    """History rewarded while the captures were searched orders the quiet moves."""
    s = searcher()
    moves = s.pos.generate()
    keys = s._keys(moves, 0, 0, quiet_order)
    quiet = [m for m in moves if not is_capture(s, m)]
    late = quiet[-1]                      # generated last: first only if history says so

    def reward(srch: Searcher) -> None:
        srch.hist[srch._hist_index(late)] = 90

    order = picks(s, moves, keys, quiet_order, reward)
    ncap = sum(is_capture(s, m) for m in moves)
    assert all(is_capture(s, m) for m in order[:ncap])
    assert order[ncap] == late
    # keyed once: the quiet keys left are the history >> 1 of that moment
    assert keys[ncap] == 45 and keys[ncap + 1:] == [0] * (len(moves) - ncap - 1)

    # the eager rule keys the quiet moves (all 0) before the reward: list order among them
    old = searcher(lazy=False)
    omoves = old.pos.generate()
    okeys = old._keys(omoves, 0, 0, quiet_order)
    oorder = picks(old, omoves, okeys, quiet_order, reward)
    assert oorder[:ncap] == order[:ncap]  # captures in the same order
    assert oorder[ncap] != late and okeys[ncap:] == [0] * (len(moves) - ncap)


def test_quiet_keys_are_computed_once():
    """A reward after the first quiet pick does not reorder the quiet moves left."""
    s = searcher()
    moves = s.pos.generate()
    keys = s._keys(moves, 0, 0, True)
    ncap = sum(is_capture(s, m) for m in moves)
    for i in range(ncap + 1):
        s._pick_lazy(moves, keys, i, 0, True)
    before = list(keys)
    s.hist = [250] * len(s.hist)
    s._pick_lazy(moves, keys, ncap + 1, 0, True)
    assert sorted(keys) == sorted(before)
    assert keys[ncap + 1] == 0


def test_all_quiet_list_is_keyed_at_the_first_pick():
    """No capture and no PV move at all: the first pick keys the whole list (killers first)."""
    s = searcher()
    moves = [m for m in s.pos.generate() if not is_capture(s, m)]
    keys = s._keys(moves, 0, 0, True)
    assert keys == [0] * len(moves)
    s.killers[0] = [moves[5], moves[7]]
    favoured = s._hist_index(moves[3])
    s.hist[favoured] = 255
    assert s._pick_lazy(moves, keys, 0, 0, True) == s.killers[0][0]
    assert s._pick_lazy(moves, keys, 1, 0, True) == s.killers[0][1]
    assert s._hist_index(s._pick_lazy(moves, keys, 2, 0, True)) == favoured
    assert keys[:3] == [KEY_KILLER1, KEY_KILLER2, 125]
