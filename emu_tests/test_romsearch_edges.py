"""The ROM's search equals the reference on the search's rare paths, at every level.

emu_tests/edge_suite.fen (written by `python -m emu_tests.edge_paths`) holds,
for each level, positions whose search reaches one of the paths that the
main suite seldom or never reaches: the 60-move limit (a draw, a mate or
stalemate on the last ply, a list that does not fit the move stack; clocks
110 to 120), repetitions at the clock bound, just past it and at the oldest
position of the game window, a position of the game's past met once (no
repetition unless the root's side is ahead) and twice (a repetition),
perpetual-check scores, the history table's aging, the deepest ply, a
main-search node without a legal move, a depth-0 node in check, a single
legal move.  Each line is checked twice: the reference still takes the path (emu_tests/
edge_paths.PathProbe; otherwise the line tests nothing and must be
regenerated) and the ROM returns the same move, score, node count, depth
and PV.  Paths no position can reach at a level are listed in UNREACHABLE
with the reason, which is itself tested; NOT_FOUND lists those none of the
generator's candidates reached, with what was seen.

The hand-made move-limit positions of tests/test_ref_move_limit.py are
diffed here too, at every level.
"""
from __future__ import annotations

import pytest

from emu_tests.edge_paths import PATHS, probe, read_suite
from reference_py.cli import game_position
from reference_py.search import levels
from tests import test_ref_move_limit as limit
from tests.fen_transforms import colour_flip, with_clock
from tools.nes.search import RomSearch

SUITE = read_suite()
LEVELS = [lv.name for lv in levels()]

# (path, level) pairs no position can reach, and why (the reason is tested below).
UNREACHABLE = {
    ("aging", "Novice"): "depth 1: only the root rewards a move, once per search",
    ("aging", "Easy"): "depth 2: the root rewards 1 + 4 and each ply-1 node at most 1: no entry passes 255",
    ("mated-in-search", "Novice"): "depth 1: every node below the root is at depth 0 (quiescence)",
}
# The check extension's paths at the levels that have none.
UNREACHABLE.update({(p, lv.name): "the level has no check extension (check_ext)"
                    for lv in levels() if not lv.check_ext for p in ("check-extended", "ply-cut")})
# (path, level) pairs none of edge_paths' candidates reaches, though no proof
# says they cannot: what was seen instead.
NOT_FOUND = {
    ("limit-overflow", "Novice"): "needs the root's list and a ply-1 list above 255 entries together",
    ("limit-overflow", "Easy"): "needs three lists above 255 entries together (middlegame lists hold about 45)",
    ("rep-past-clock", "Novice"): "a key repeats past the clock bound only across a null move (depth >= 4) "
                                  "or by a 16-bit key collision",
    ("rep-past-clock", "Easy"): "as at Novice",
    ("aging", "Medium"): "the fullest history entry of the candidates reached 244 of 255",
}
# The most pseudo-legal moves a side can have: rooks and cannons 17 each,
# horses 8, king, advisors and elephants 4, pawns 3 (16 pieces).
MOST_MOVES = 2 * 17 + 2 * 17 + 2 * 8 + 4 + 2 * 4 + 2 * 4 + 5 * 3


@pytest.fixture(scope="module")
def rs() -> RomSearch:
    return RomSearch()


def test_every_path_is_covered_at_every_level():
    have = {(p, lv) for _, _, p, lv in SUITE}
    missing = [(p, lv) for lv in LEVELS for p in PATHS
               if (p, lv) not in have and (p, lv) not in UNREACHABLE and (p, lv) not in NOT_FOUND]
    assert not missing, f"no position in edge_suite.fen reaches {missing}: python -m emu_tests.edge_paths"


@pytest.mark.parametrize("line", range(len(SUITE)),
                         ids=[f"{p}-{lv}-{i}" for i, (_, _, p, lv) in enumerate(SUITE)])
def test_rom_equals_reference_on_the_path(rs, line):
    fen, moves, path, level = SUITE[line]
    want, hits = probe(fen, moves, level)
    assert hits[path], f"the reference no longer reaches {path} at {level}: python -m emu_tests.edge_paths"
    got = rs.search(game_position(fen, moves, past_the_end=True), level)
    assert {k: got[k] for k in want} == want, f"{path} {level}: {fen} moves {moves}"


LIMIT_FENS = [limit.MATE_AT_LIMIT, limit.CAPTURE_WINS, limit.CAPTURE_LOSES,
              with_clock(limit.MATE_IN_TWO, 117), with_clock(limit.MATE_IN_TWO, 118)]
LIMIT_FENS += [colour_flip(f) for f in LIMIT_FENS]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("fen", LIMIT_FENS)
def test_rom_equals_reference_on_the_hand_made_limit_positions(rs, fen, level):
    want, _ = probe(fen, [], level)
    got = rs.search(game_position(fen), level)
    assert {k: got[k] for k in want} == want


def test_unreachable_pairs_are_unreachable():
    """The history ages only when one entry would pass 255 in a search.  At
    depth 1 the root rewards one move per search (bonus[0]); at depth 2 the
    root rewards one move per iteration (bonus[0], then bonus[1]) and each
    ply-1 node of iteration 2 (depth 1) at most one (bonus[0]), one node per
    legal root move; depth-0 nodes (quiescence) never reward.  A main-search
    node below the root needs depth >= 2."""
    from reference_py.search import search_config
    bonus = search_config().history_bonus
    for (path, name), _ in UNREACHABLE.items():
        lv = next(lv for lv in levels() if lv.name == name)
        if path == "aging":
            assert lv.depth <= 2 and lv.history
            most = sum(bonus[:lv.depth]) + (MOST_MOVES * bonus[0] if lv.depth == 2 else 0)
            assert most <= 255, name
        elif path in ("check-extended", "ply-cut"):
            # without the extension a node's ply + depth never passes the root's
            # depth, and quiescence reaches ply depth + qdepth only at its qdepth
            assert lv.check_ext == 0, (path, name)
        else:
            assert path == "mated-in-search" and lv.depth == 1, (path, name)


def test_unreachable_and_not_found_pairs_are_not_in_the_suite():
    have = {(p, lv) for _, _, p, lv in SUITE}
    assert not have & (set(UNREACHABLE) | set(NOT_FOUND)), "a pair was found: drop it from NOT_FOUND"
