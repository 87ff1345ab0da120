"""The ROM's move keys and picks equal the reference's lazy quiet keys
(Searcher._gen_key, _quiet_key, _scan; docs/ENGINE.md "Move ordering keys")
routine by routine, on lists placed anywhere in the move stack: the keys
eng_gen writes as it pushes (asm/engine/eng_movegen.s) with score_moves' first pick
and PV move, then score_quiets and pick (asm/engine/eng_search_order.s).  A list that ends
at the last entry (MOVE_STACK_ENTRIES) is the case the searches rarely
reach: score_quiets' and pick's sentinels then borrow the byte after their
array, which must come back unchanged (the canaries).
"""
from __future__ import annotations

import random

import pytest

from bench.engine_bench import suite_fens
from reference_py.board import EMPTY
from reference_py.config import load_search
from reference_py.fen import parse_fen
from reference_py.search import KEY_CAPTURE, Searcher, level_by_name, levels
from tools.nes.search import RomSearch

ENTRIES = load_search().move_stack_entries   # the move stack's size (config/search.yaml)
PLY = 2                            # a main-search ply with killers
FENS = suite_fens()[:8]
CANARY = {"ms_to": 0x3C, "ms_key": 0x5A, "history": 0xA5}   # the byte at offset 0 of each


@pytest.fixture(scope="module")
def rs() -> RomSearch:
    return RomSearch()


def setup_list(rs: RomSearch, fen: str, at_end: bool) -> tuple[Searcher, list[int], int]:
    """Load the position, generate its list at PLY (ending at the last
    entry, MOVE_STACK_ENTRIES, or starting at entry 20), and return a
    Master searcher on the same position, the ROM's moves and the list's
    first entry."""
    eng = rs
    pos = parse_fen(fen)
    eng.load(pos)
    n = len(pos.generate())
    first = ENTRIES - n if at_end else 20
    eng.write("ms_top", [first])
    moves = eng.generate()
    assert moves is not None and len(moves) == n
    eng.write("eng_ply", [PLY])
    eng.write("ply_first", [first, first + n], offset=PLY)
    for name, v in CANARY.items():
        eng.write(name, [v])
    master = levels().index(level_by_name("Master"))
    rs.write("s_level", [master])
    s = Searcher(pos, level_by_name("Master"))
    return s, moves, first


def canaries_kept(rs: RomSearch) -> bool:
    return all(rs.read(name)[0] == v for name, v in CANARY.items())


def put_list(rs: RomSearch, first: int, moves: list[int], keys: list[int]) -> None:
    rs.write("ms_from", [m & 0xFF for m in moves], offset=first)
    rs.write("ms_to", [m >> 8 for m in moves], offset=first)
    rs.write("ms_key", keys, offset=first)


@pytest.mark.parametrize("at_end", [False, True], ids=["inside", "at_end"])
@pytest.mark.parametrize("fen", FENS)
def test_keys_and_picks_equal_reference(rs, fen, at_end):
    rng = random.Random(fen)
    eng = rs
    s, moves, first = setup_list(rs, fen, at_end)
    n = len(moves)
    quiet = [m for m in moves if s.pos.board[m >> 8] == EMPTY]
    pv = rng.choice(moves + [0])

    # generation: the PV move and the captures only
    rs.write("pv_move_from", [pv & 0xFF])
    rs.write("pv_move_to", [pv >> 8])
    eng.call("score_moves", x=PLY)
    keys = [s._gen_key(m, pv) for m in moves]
    assert eng.read("ms_key", n, first) == keys
    assert rs.byte("pick_best") == first + s._scan(keys, 0)
    assert canaries_kept(rs)

    # the picks of the PV move and the captures (the reference's swaps)
    moves, keys = list(moves), list(keys)
    i = 0
    while i < n and max(keys[i:]) >= KEY_CAPTURE:
        s._pick_lazy(moves, keys, i, PLY, True)
        i += 1
    assert n - i == len(quiet) - (pv in quiet)

    # history and killers as the subtrees left them; then the quiet moves' keys
    s.hist = [rng.randrange(256) for _ in range(len(s.hist))]
    rest = moves[i:]
    s.killers[PLY] = [rng.choice(rest + [0x2D2D]), rng.choice(rest + [0x2D2D])] if rest else [0, 0]
    for quiet_order, mode in ((True, 0xC0), (False, 0x40)):
        if i == n:
            break
        put_list(rs, first, moves, keys)
        eng.write("history", s.hist)
        k1, k2 = s.killers[PLY]
        rs.write("s_killers", [k1 & 0xFF, k1 >> 8, k2 & 0xFF, k2 >> 8], 4 * PLY)
        eng.call("score_quiets", a=mode, y=first + i)
        want = keys[:i] + [s._quiet_key(m, PLY, quiet_order) for m in moves[i:]]
        assert eng.read("ms_key", n, first) == want
        best = s._scan(want, i)
        assert rs.byte("pick_best") == first + best
        assert (eng.cpu.mpu.a, eng.cpu.mpu.y) == (want[best], first + i)
        assert eng.read("history")[0] == s.hist[0]        # its first entry, not a canary here
        eng.write("history", [CANARY["history"]])
        assert canaries_kept(rs)

    # a later pick's scan (the quiet keys of the main search in place)
    if n - i >= 2:
        want = keys[:i] + [s._quiet_key(m, PLY, True) for m in moves[i:]]
        s._pick_lazy(moves, want, i, PLY, True)         # keyed: a plain selection step
        put_list(rs, first, moves, want)
        eng.call("pick", x=PLY, y=first + i + 1)
        best = s._scan(want, i + 1)
        assert rs.byte("pick_best") == first + best
        assert (eng.cpu.mpu.a, eng.cpu.mpu.y) == (want[best], first + i + 1)
        assert canaries_kept(rs)
