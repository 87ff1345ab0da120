"""Quiescence exchange pruning (docs/ENGINE.md, "Quiescence") and the main
search's exchange ordering (a reference-only experiment, off:
bench/results/exchange_ordering.md): the square attack test they rest on,
and what the rules do to a search."""
from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.engine_bench import suite_fens
from reference_py.board import EMPTY, PLAYABLE, SIDE_TAG
from reference_py.config import load_search
from reference_py.fen import parse_fen
from reference_py.notation import parse_iccs
from reference_py.rules import random_walk
from reference_py.search import Searcher, level_by_name


def _targets(pos, by: int) -> set[int]:
    """Squares some pseudo-legal capture of `by` lands on."""
    save = pos.side
    pos.side = by
    try:
        return {m >> 8 for m in pos.generate(captures_only=True)}
    finally:
        pos.side = save


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 39), st.integers(0, 80), st.integers(0, 2**32 - 1))
def test_attacked_equals_pseudo_legal_capture_targets(index, plies, seed):
    """attacked(sq, by) is true exactly when a pseudo-legal move of `by`
    could capture on sq, for every square holding a piece of the other side."""
    pos = random_walk(suite_fens()[index], plies, random.Random(seed))
    for by in (0, 1):
        targets = _targets(pos, by)
        for sq in PLAYABLE:
            c = pos.board[sq]
            if c != EMPTY and c & SIDE_TAG[by ^ 1]:
                assert pos.attacked(sq, by) == (sq in targets), (pos.pieces(), sq, by)


def _searcher(pos, threshold: int, order: int = 0) -> Searcher:
    pruning = dataclasses.replace(load_search().pruning, qs_exchange=threshold, order_exchange=order)
    return Searcher(pos, level_by_name("Master"), pruning=pruning)


def _pick_order(pos, order: int) -> list[str]:
    """The moves of pos in the order a main-search node with no PV move and
    a fresh history would try them (Searcher._pick_lazy, as _alphabeta calls it)."""
    from reference_py.board import move_iccs
    s = _searcher(pos, 0, order)
    moves = pos.generate()
    keys = s._keys(moves, 1, 0, True)
    return [move_iccs(s._pick_lazy(moves, keys, i, 1, True)) for i in range(len(moves))]


def test_losing_exchange_reads_the_board_without_the_capturer():
    """Red's rook e4 takes the black pawn e5, which Black's rook e3 guards
    only through e4 (an x-ray, open once the rook has left): pruned.  Red's
    pawn d5 takes the same pawn: never pruned (not dearer than its victim).
    A rook taking a pawn nobody guards is not pruned either."""
    fen = "4k4/9/9/9/3Pp4/4R4/4r4/9/9/3K5 w - - 0 1"
    pos = parse_fen(fen)
    s = _searcher(pos, 1)
    assert s._losing_exchange(parse_iccs(pos, "e4e5"), 1)
    assert not s._losing_exchange(parse_iccs(pos, "d5e5"), 1)
    assert pos.board == parse_fen(fen).board          # the board is left as it was
    # without the black rook behind, e5 is guarded by nothing
    pos = parse_fen("4k4/9/9/9/3Pp4/4R4/9/9/9/3K5 w - - 0 1")
    assert not _searcher(pos, 1)._losing_exchange(parse_iccs(pos, "e4e5"), 1)


def test_losing_exchange_threshold():
    """qs_exchange is the least material gap that counts: a horse (120)
    taking a guarded pawn (30) is a gap of 90, pruned at 1 and at 90 but not
    at 100; a rook (270) taking the same pawn is pruned at 100."""
    # the black pawn e6 is guarded by the black horse d8
    fen = "3k5/3n5/9/4p4/2N6/4R4/9/9/9/4K4 w - - 0 1"
    pos = parse_fen(fen)
    horse, rook = parse_iccs(pos, "c5e6"), parse_iccs(pos, "e4e6")
    assert _searcher(pos, 1)._losing_exchange(horse, 1)
    assert _searcher(pos, 90)._losing_exchange(horse, 90)
    assert not _searcher(pos, 91)._losing_exchange(horse, 91)
    assert _searcher(pos, 100)._losing_exchange(rook, 100)
    assert not _searcher(pos, 0)._losing_exchange(rook, 0)   # 0: the rule is off


def test_exchange_pruning_cuts_quiescence_nodes():
    """On the middlegame suite's first positions the rule prunes captures and
    the search needs fewer nodes, still returning a legal move."""
    lv = dataclasses.replace(level_by_name("Hard"), nodes=65535)
    on = dataclasses.replace(load_search().pruning, qs_exchange=100)
    off = dataclasses.replace(load_search().pruning, qs_exchange=0)
    total_on = total_off = pruned = 0
    for fen in suite_fens()[:4]:
        a = Searcher(parse_fen(fen), lv, pruning=on)
        ra = a.run()
        rb = Searcher(parse_fen(fen), lv, pruning=off).run()
        assert ra.move in parse_fen(fen).legal_moves()
        total_on += ra.nodes
        total_off += rb.nodes
        pruned += a.pruned
    assert total_on < total_off and pruned > 0


def test_exchange_ordering_tries_a_losing_capture_with_the_quiet_moves():
    """Red's rook e4 can take the pawn e5, which Black's horse d7 guards (a
    losing exchange), or the free pawn a4, as can the rook a3.  With
    order_exchange off the three captures come first; on, the two free ones
    still do, and the losing one is keyed as a quiet move (history 0, like
    every quiet move of a fresh table: it keeps its place among them).
    Every move is still tried once, and the board is left as it was."""
    fen = "4k4/9/3n5/9/4p4/p3R4/R8/9/9/3K5 w - - 0 1"
    pos = parse_fen(fen)
    off, on = _pick_order(pos, 0), _pick_order(pos, 100)
    assert sorted(off) == sorted(on) and len(set(on)) == len(on) == len(pos.generate())
    assert set(off[:3]) == {"e4e5", "a3a4", "e4a4"}
    assert set(on[:2]) == {"a3a4", "e4a4"} and on.index("e4e5") > 2
    assert pos.board == parse_fen(fen).board
