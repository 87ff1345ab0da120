"""The reference search against independent oracles (tests/search_oracle.py).

Until these, the search rules (alpha-beta, quiescence, mate scores, the
draw rules) were checked mainly by ROM == reference, which cannot see a
mistake made the same way in both.  Here:
  * with every pruning option off (null move, LMR, delta, futility, reverse
    futility, exchange pruning) and no node cap or noise, the value of the
    last completed iteration must equal plain minimax of the same
    evaluation at that depth: move ordering, PVS windows, killers, history
    and the lazy keys may change the node count, never the value;
  * mates in 1 to 3 found by brute force must be found at every level whose
    horizon holds them, with the exact mate score;
  * perpetual-check scoring on hand-built check cycles.
"""
from __future__ import annotations

import dataclasses
import random
from functools import lru_cache

import pytest

from reference_py.board import move_iccs, move_to
from reference_py.evaluate import tables_for
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.rules import Game, random_walk
from reference_py.search import MATE, MATE_BOUND, Searcher, level_by_name, levels, search, search_config
from tests.search_oracle import Spec, mates_in, minimax

LEVELS = levels()
IDS = [lv.name for lv in LEVELS]

SMALL = [
    "3ak4/9/4b4/9/2p6/9/4P4/9/4A4/3K1R3 w - - 0 1",
    "4k4/4a4/3a5/9/9/6n2/9/2C6/9/4K4 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
    "3k5/4P4/9/9/9/9/9/9/9/5K3 w - - 0 1",
    "4k4/4a4/9/9/9/9/9/9/9/3K1C3 w - - 0 1",
    "3ak4/9/9/9/9/9/9/9/4p4/3K5 b - - 0 1",
    "4k4/9/9/9/4n4/9/9/9/4A4/3K5 b - - 0 1",
    "5k3/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1",
    "3k5/9/9/9/9/4c4/9/9/4A4/5K3 w - - 0 1",
    "4k4/9/9/9/9/9/2P6/9/9/3K5 b - - 0 1",
]


def _plain(level):
    """The level without node cap or noise, and the pruning switches off.
    Its `bare` block is dropped too: it only changes the limits (a deeper
    search with its own node cap), and plain minimax at its depth 8 would
    take hours here."""
    off = dataclasses.replace(search_config().pruning, futility_margin1=0, futility_margin2=0,
                              rfp_depth=0, qs_exchange=0)
    lv = dataclasses.replace(level, nodes=65535, noise=0, bare=None, sparse=None)
    return lv, off


@pytest.mark.parametrize("fen", SMALL)
@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_alpha_beta_value_equals_plain_minimax(level, fen):
    lv, off = _plain(level)
    s = Searcher(parse_fen(fen), lv, null=False, lmr=False, delta=False, pruning=off)
    r = s.run()
    assert r.depth >= 1 and s.overflows == 0 and not s.aborted
    spec = Spec(tables_for(lv.eval), lv.qdepth, search_config().perpetual_check, lv.check_ext, lv.depth + lv.qdepth)
    pos = parse_fen(fen)
    pos.set_values(spec.tables.values)          # the level's weight set, as the search does
    want = minimax(pos, r.depth, spec)
    assert r.score == want, (fen, lv.name, r.depth, r.as_json())


def test_the_switches_really_switch_the_pruning_off():
    """The comparison above means something only if the switches reach the
    search: with them the same level searches more nodes."""
    fen = "2bakab2/9/4c4/p3p3p/2n6/6N2/P3P3P/4C4/4A4/2B1KAB2 w - - 0 1"
    lv = next(lv for lv in LEVELS if lv.name == "Hard")
    plain, off = _plain(lv)
    full = Searcher(parse_fen(fen), plain).run()
    bare = Searcher(parse_fen(fen), plain, null=False, lmr=False, delta=False, pruning=off).run()
    assert full.nodes < bare.nodes


# ---- mates in 1 to 3 ------------------------------------------------------------
#
# (FEN, n, the levels that must find the mate in n with the shipped search,
# and why their horizon holds it).  The brute-force solver checks each
# position: a mate in n and none shorter.
MATES = [
    ("3k5/9/3P5/9/9/9/9/9/3R5/4K4 w - - 0 1", 1, "all", "a mate in one: the root's children"),
    ("1r3k3/9/9/9/9/9/9/9/r8/3K5 b - - 0 1", 1, "all", "a mate in one"),
    ("3aka3/4n4/9/7N1/9/9/9/9/9/3K5 w - - 0 1", 1, "all", "a smothered mate in one"),
    ("1N7/9/3k5/3C5/5c3/9/9/4K4/9/2n5R w - - 0 1", 2, "qdepth>=3",
     "check, evasion, then a capture that mates: quiescence's evasions and captures (qply 0-2)"),
    ("3k5/9/1P7/9/9/9/2n5R/9/1C2K4/5p3 w - - 0 1", 2, "qdepth>=3", "the same pattern"),
    ("9/5k3/4ba3/9/9/9/9/9/2R2K3/3R5 w - - 0 1", 2, "depth>=3", "three plies in the main search"),
    ("4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1", 2, "depth>=3", "three plies in the main search"),
    ("5a3/3k5/9/9/9/4r4/9/3A1K3/9/C1B3B2 b - - 2 1", 3, "depth>=3",
     "three plies, then the evasion and the mating capture in quiescence"),
]
# Mates in two that the shipped pruning hides at depth 3 (the plain search of
# the same level finds them: test_plain_search_finds_every_mate_in_its_main_search).
PRUNED_AT_DEPTH_3 = [
    ("3a1N3/9/5k3/9/9/9/9/9/R3K4/9 w - - 0 1", "Hard: reverse futility at the attacker's ply-2 node"),
]


@lru_cache(maxsize=None)
def _solved(fen: str, n: int) -> frozenset[str]:
    """The mating first moves of a mate in n (and none shorter), by brute force."""
    pos = parse_fen(fen)
    assert n == 1 or not mates_in(pos, n - 1), f"{fen} has a mate shorter than {n}"
    return frozenset(move_iccs(m) for m in mates_in(pos, n))


def _must_find(rule: str, level) -> bool:
    return {"all": True, "qdepth>=3": level.qdepth >= 3, "depth>=3": level.depth >= 3}[rule]


@pytest.mark.parametrize("case", range(len(MATES)), ids=[f"mate{m[1]}-{i}" for i, m in enumerate(MATES)])
@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_mates_in_one_to_three_at_every_level(level, case):
    """Every level finds the mates its horizon holds, with the exact score, and
    never claims a mate shorter than the shortest there is."""
    fen, n, rule, _ = MATES[case]
    mating = _solved(fen, n)
    assert mating, f"{fen} has no mate in {n}"
    r = search(parse_fen(fen), level).as_json()
    assert r["score"] <= MATE - (2 * n - 1), r
    if _must_find(rule, level):
        assert (r["score"], r["move"] in mating) == (MATE - (2 * n - 1), True), r


def test_every_level_must_find_some_mate_and_some_level_each_length():
    for lv in LEVELS:
        assert any(_must_find(rule, lv) for _, _, rule, _ in MATES), lv.name
    for n in (1, 2, 3):
        assert any(m[1] == n and _must_find(m[2], lv) for m in MATES for lv in LEVELS), n


@pytest.mark.parametrize("fen, n", [(m[0], m[1]) for m in MATES if m[2] == "depth>=3"]
                         + [(f, 2) for f, _ in PRUNED_AT_DEPTH_3])
@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv.depth >= 3], ids=[lv.name for lv in LEVELS if lv.depth >= 3])
def test_plain_search_finds_every_mate_in_its_main_search(level, fen, n):
    """Without pruning, every level of depth 3 or more finds these mates
    (three plies in the main search, the mate in three's last two in
    quiescence), the one the shipped pruning hides at Hard included."""
    lv, off = _plain(level)
    mating = _solved(fen, n)
    r = Searcher(parse_fen(fen), lv, null=False, lmr=False, delta=False, pruning=off).run().as_json()
    assert (r["score"], r["move"] in mating) == (MATE - (2 * n - 1), True), r


@pytest.mark.parametrize("fen, why", PRUNED_AT_DEPTH_3)
def test_the_mates_pruning_hides_are_sound_misses(fen, why):
    """Where the shipped pruning hides a mate in two at depth 3 the score is
    still not a mate claim, and the deeper Master finds it."""
    mating = _solved(fen, 2)
    for lv in LEVELS:
        r = search(parse_fen(fen), lv).as_json()
        assert r["score"] <= MATE - 3
        if lv.depth >= 4:
            assert r["score"] == MATE - 3 and r["move"] in mating, (lv.name, r)


# ---- perpetual check on hand-built cycles ---------------------------------------

# Red's rook checks on the e- and f-files in turn, Black's king steps e9-f9-e9.
CYCLE_FEN = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"
CYCLE = ["a1e1", "e9f9", "e1f1", "f9e9", "f1e1"]
# Both sides check in turn: Red's rook and Black's rook.
BOTH_FEN = "4k4/9/9/9/9/9/9/r8/R8/3K5 w - - 0 1"


# The ply of a node whose cycles all lie on the search path (k < ply): one
# earlier occurrence is a repetition there.
PATH = 9


def _node(fen: str, moves: list[str]) -> Searcher:
    g = Game(fen)
    for m in moves:
        g.play_text(m)
    return Searcher(g.pos, next(lv for lv in LEVELS if lv.name == "Master"))


def test_the_checking_side_is_scored_as_losing():
    s = _node(CYCLE_FEN, CYCLE)             # Black to move; Red gave every check of the cycle
    pc = s.cfg.perpetual_check
    assert pc > 0
    assert s._draw_score(PATH) == pc           # good for Black, the side to move
    s = _node(CYCLE_FEN, CYCLE + ["e9f9"])  # Red to move: a repeat too, Red still the checker
    assert s._draw_score(PATH) == -pc          # bad for Red, the side to move
    s = _node(CYCLE_FEN, CYCLE[:3])         # Black to move after a1e1 e9f9 e1f1: no repeat yet
    assert s._draw_score(PATH) is None
    s = _node(CYCLE_FEN, CYCLE + ["e9f9", "e1f1"])   # repeats again, still Red checking
    assert s._draw_score(PATH) == pc


def test_a_cycle_longer_than_the_clock_is_not_a_repetition():
    s = _node(CYCLE_FEN, CYCLE)
    s.pos.clock = 3                          # the repeat is 4 plies back: outside the clock
    assert s._draw_score(PATH) is None
    s.pos.clock = 4
    assert s._draw_score(PATH) == s.cfg.perpetual_check


def test_a_quiet_cycle_is_a_draw():
    s = _node("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", ["a1a2", "e9f9", "a2a1", "f9e9", "a1a2"])
    assert s._draw_score(PATH) == 0


@pytest.mark.parametrize("checks, sign", [
    ([False, False, True, False, True], 1),      # the side that just moved checked throughout
    ([False, True, False, True, False], -1),     # the side to move did
    ([False, True, True, True, True], 0),        # both did: a draw
    ([False, False, False, False, False], 0),    # neither: a draw
    ([False, False, True, True, True], 1),       # one check of the side to move is not all
    ([False, False, False, False, True], 0),     # one check of the mover is not all
])
def test_hand_built_cycles_score_by_who_checked(checks, sign):
    """keys[n - 4] == keys[n]: a 4-ply cycle.  checks[i]: the side to move at
    position i was in check (the move into it gave check)."""
    s = _node(CYCLE_FEN, [])
    s.pos.keys = [0x1111, 0x2222, 0x3333, 0x4444, 0x1111]
    s.pos.checks = list(checks)
    s.pos.clock = 4
    assert s._draw_score(PATH) == sign * s.cfg.perpetual_check


def test_the_first_repeat_found_decides():
    """Two earlier occurrences: the nearer one (k = 4, quiet) decides, not
    the older one (k = 8, where the mover checked throughout)."""
    s = _node(CYCLE_FEN, [])
    s.pos.keys = [7, 1, 2, 3, 7, 5, 6, 9, 7]
    s.pos.checks = [False, False, True, False, True, False, False, False, False]
    s.pos.clock = 8
    assert s._draw_score(PATH) == 0


def test_a_repeat_of_the_games_past_needs_a_second_earlier_occurrence():
    """An earlier occurrence at or before the root (k >= ply) is the game's
    past: one is not a repetition (the game draws at the third occurrence),
    two are; one on the search path (k < ply) is."""
    s = _node(CYCLE_FEN, CYCLE)              # one earlier occurrence, 4 plies back
    for ply in (1, 2, 3, 4):
        assert s._draw_score(ply) is None, ply
    assert s._draw_score(5) == s.cfg.perpetual_check
    s = _node(CYCLE_FEN, CYCLE + ["e9f9", "e1f1", "f9e9", "f1e1"])   # two: 4 and 8 plies back
    for ply in (1, 4, 5, 8, 9):
        assert s._draw_score(ply) == s.cfg.perpetual_check, ply


def test_the_side_ahead_at_the_root_counts_one_occurrence_of_the_past():
    """When the root's static evaluation is above 0 (root_ahead, set by
    run()), one earlier occurrence in the game's past is a repetition: the
    side ahead does not return to the game's positions."""
    s = _node(CYCLE_FEN, CYCLE)
    assert s._draw_score(1) is None
    s.root_ahead = True
    assert s._draw_score(1) == s.cfg.perpetual_check
    for moves, ahead in ((CYCLE[:4], True), (CYCLE, False)):   # Red (a rook up) to move, then Black
        s = _node(CYCLE_FEN, moves)
        s.run()
        assert s.root_ahead is ahead, moves


def test_a_twice_repeated_past_is_judged_by_the_shortest_cycle():
    """Two earlier occurrences at or before the root (k = 4 and 8): the
    4-ply cycle, where the side that just moved checked throughout, is
    judged, not the 8-ply one, where it did not (a quiet cycle, 0)."""
    s = _node(CYCLE_FEN, [])
    s.pos.keys = [7, 1, 2, 3, 7, 5, 6, 9, 7]
    s.pos.checks = [False, False, False, False, False, False, True, False, True]
    s.pos.clock = 8
    assert s._draw_score(1) == s.cfg.perpetual_check
    s.pos.keys = [7, 1, 2, 3, 8, 5, 6, 9, 7]  # only the 8-ply one: not a repetition at ply 1
    assert s._draw_score(1) is None
    assert s._draw_score(PATH) == 0          # on the search path: the quiet 8-ply cycle


@pytest.mark.parametrize("level", LEVELS, ids=IDS)
def test_search_avoids_the_perpetual_when_it_loses(level):
    """Red has checked a1e1 e9f9 e1f1 f9e9; f1e1 repeats the first check (a
    perpetual, -10000 for Red) and Red has plenty of other moves: it must
    not choose a losing perpetual while a plain move is far better."""
    g = Game(CYCLE_FEN)
    for m in CYCLE[:-1]:
        g.play_text(m)
    r = search(g.pos.copy(), level).as_json()
    assert r["move"] != "f1e1" and r["score"] > -MATE_BOUND


def test_alpha_beta_is_fail_hard():
    """docs/ENGINE.md: the search is fail-hard negamax, so a node's value
    never leaves its window [alpha, beta]: a cut-off returns beta, a node
    where no move reaches alpha returns alpha.  (Fail-soft would give the
    same moves and root scores in almost every search, which is why this is
    checked at the node.)  Windows far below, around and far above the
    true value of positions from the random walks, at every level."""
    rng = random.Random(5)
    fens = [START_FEN] + [format_fen(random_walk(START_FEN, rng.randrange(4, 80), rng)) for _ in range(12)]
    # and positions where no move captures, so that the first cut-off at the
    # root is a quiet move's (where the history and killers are rewarded)
    while len(fens) < 25:
        pos = random_walk(START_FEN, rng.randrange(2, 60), rng)
        if pos.legal_moves() and not any(pos.board[move_to(m)] for m in pos.legal_moves()):
            fens.append(format_fen(pos))
    seen = {"low": 0, "high": 0}
    for level in LEVELS:
        for fen in fens:
            pos = parse_fen(fen)
            if not pos.legal_moves():
                continue
            s = Searcher(pos, level)
            s.pos.rebuild()
            s.pos.set_values(s.tables.values)
            in_check = s.pos.in_check(s.pos.side)
            depth = min(2, level.depth)
            true = s._alphabeta(depth, -MATE - 1, MATE + 1, 0, True, in_check)
            for alpha, beta in ((true - 400, true - 300), (true - 1, true + 1), (true + 300, true + 400)):
                v = Searcher(parse_fen(fen), level)
                v.pos.rebuild()
                v.pos.set_values(v.tables.values)
                got = v._alphabeta(depth, alpha, beta, 0, False, in_check)
                assert alpha <= got <= beta, (level.name, fen, alpha, beta, got)
                if got == beta:
                    seen["low"] += 1
                if got == alpha:
                    seen["high"] += 1
    assert seen["low"] and seen["high"], seen


def test_a_cut_off_by_a_draw_returns_beta():
    """Where a child's value comes from outside the window (a repetition
    scored 0), fail-hard still returns beta at the cut-off: Black, a rook
    down, can repeat the position a third time; with the window below 0 and the repeating
    move tried first (the PV move), the root cuts off with exactly beta."""
    from reference_py.cli import game_position
    pos = game_position("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
                        ["a1a2", "e9f9", "a2a1", "f9e9", "a1a2", "e9f9", "a2a1"])   # f9e9: a third occurrence
    repeat = next(m for m in pos.legal_moves() if move_iccs(m) == "f9e9")
    for level in LEVELS:
        s = Searcher(pos.copy(), level)
        s.pos.set_values(s.tables.values)
        s.prev_pv = [repeat]
        got = s._alphabeta(min(2, level.depth), -100, -50, 0, True, False)
        assert got == -50, (level.name, got)


# Rook against advisors and elephants (bench/endgames.yaml R_vs_AAEE.9),
# Red holding: 74 plies of a bench game, Red to move.  e2g0 returns to a
# position of the game's past (its second occurrence, not a draw) and
# leaves the elephant on c4 to the rook.
R_AAEE_FEN = "5k3/9/9/9/1r7/9/9/4B4/9/2BAKA3 w - - 0 1"
R_AAEE_LINE = [
    "d0e1", "f9f8", "e1f2", "b5i5", "e2g0", "f8f7", "f0e1", "i5i0", "c0e2", "f7e7", "e0d0", "i0i3",
    "e1d2", "i3a3", "e2c0", "a3d3", "f2e1", "d3d8", "c0e2", "d8h8", "g0i2", "h8a8", "d0e0", "a8a2",
    "i2g4", "a2a4", "g4i2", "a4i4", "e2g4", "i4i9", "i2g0", "i9f9", "g0e2", "f9f8", "e0d0", "f8i8",
    "d0e0", "i8i4", "e0f0", "i4i0", "f0f1", "e7d7", "e2c4", "i0i4", "c4e2", "d7d8", "f1f0", "i4i0",
    "f0f1", "d8e8", "e2c4", "i0i1", "f1f0", "i1i4", "g4e2", "i4i0", "f0f1", "i0i4", "f1f0", "i4f4",
    "f0e0", "f4h4", "c4a2", "e8f8", "e1f0", "h4f4", "f0e1", "f4h4", "e1f0", "h4f4", "f0e1", "f8e8",
    "a2c4", "e8e9",
]


def test_a_second_occurrence_of_a_past_position_is_no_refuge():
    """After e2g0 the position occurred once before, in the game: at ply 1
    that is not a repetition (Black simply takes the elephant), and the
    search does not play it."""
    from reference_py.cli import game_position
    pos = game_position(R_AAEE_FEN, R_AAEE_LINE)
    e2g0 = next(m for m in pos.legal_moves() if move_iccs(m) == "e2g0")
    child = pos.copy()
    child.make(e2g0)
    child.push_history(child.in_check(child.side), move_to(e2g0))
    assert child.keys[-1] in child.keys[:-1]          # the game's past holds it once
    assert child.keys[:-1].count(child.keys[-1]) == 1
    assert Searcher(child, level_by_name("Master"))._draw_score(1) is None
    r = search(pos.copy(), level_by_name("Master")).as_json()
    assert r["move"] != "e2g0", r
