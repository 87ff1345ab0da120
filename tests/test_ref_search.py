"""The reference search: determinism, mates, node caps, CLI, noise.

The determinism checks here compare the engine with itself (the same input
twice, transpositions, fresh tables); they cannot see a wrong result made
consistently.  The independent checks of the results are in
tests/test_search_oracle.py (plain minimax, brute-force mates, perpetual
check) and tests/test_eval_oracle.py."""
from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reference_py.board import move_iccs
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.rules import Game
from reference_py.search import MATE, MATE_BOUND, Searcher, level_by_name, levels, search, search_config

ROOT = Path(__file__).resolve().parent.parent


LEVELS = levels()
# The shipped pruning with every iteration started (next_iteration 0): the
# tests of a node cap that stops an iteration need it to start.
EVERY_ITERATION = dataclasses.replace(search_config().pruning, next_iteration=0)
LEVEL_IDS = [lv.name for lv in LEVELS]


def game(*moves: str, fen: str = START_FEN) -> Game:
    g = Game(fen)
    for m in moves:
        g.play_text(m)
    return g


def run(g_or_pos, level, seed: int = 0) -> dict:
    """Search a copy (the search rebuilds slots and trims history in place),
    without the opening book: these tests are about the search."""
    pos = g_or_pos.pos.copy() if isinstance(g_or_pos, Game) else g_or_pos.copy()
    return search(pos, level, seed=seed, book=None).as_json()


def random_positions(seed: int, count: int, plies: int = 60) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = Game(START_FEN)
        for _ in range(rng.randrange(10, plies)):
            moves = g.pos.legal_moves()
            if not moves:
                break
            caps = [m for m in moves if g.pos.is_capture(m)]
            g.play(rng.choice(caps) if caps and rng.random() < 0.4 else rng.choice(moves))
        if g.pos.legal_moves():
            out.append(g)
    return out


# ---- (a) determinism ---------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_same_search_twice_is_identical(level):
    g = game("h2e2", "h9g7")
    first = json.dumps(run(g, level, seed=5))
    assert json.dumps(run(g, level, seed=5)) == first
    # also searching the game's own position twice (the search edits it in place)
    a = search(g.pos, level, seed=5, book=None).as_json()
    b = search(g.pos, level, seed=5, book=None).as_json()
    assert a == b == json.loads(first)


TRANSPOSITIONS = [
    (["h2e2", "h9g7", "b0c2"], ["b0c2", "h9g7", "h2e2"]),
    (["b0c2", "h9g7", "h2e2", "b9c7", "h0g2"], ["h2e2", "b9c7", "h0g2", "h9g7", "b0c2"]),
    (["c3c4", "c6c5", "g3g4", "g6g5"], ["g3g4", "g6g5", "c3c4", "c6c5"]),
]


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
@pytest.mark.parametrize("orders", TRANSPOSITIONS, ids=["cannon-horse", "five-plies", "pawns"])
def test_transposition_gives_the_same_result(level, orders):
    """The same position reached by two move orders searches identically.

    Only the position itself goes in the repetition history: the two orders
    leave different earlier positions in the game's history, and the search
    may legitimately reach one of them again (a repetition) in one game and
    not in the other (the five-plies pair does at Medium).  The history's
    own effect is tested below."""
    g1, g2 = game(*orders[0]), game(*orders[1])
    assert format_fen(g1.pos) == format_fen(g2.pos)
    p1, p2 = g1.pos.copy(), g2.pos.copy()
    for p in (p1, p2):
        p.keys, p.checks, p.dests = p.keys[-1:], p.checks[-1:], p.dests[-1:]
    assert run(p1, level, seed=3) == run(p2, level, seed=3)


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_history_before_the_last_capture_is_irrelevant(level):
    tail = ["h2h9", "i9h9", "g3g4", "c6c5"]                       # a capture, then quiet moves
    g1 = game(*tail)
    g2 = game("b0c2", "b9c7", "c2b0", "c7b9", *tail)              # a horse shuffle before it
    g3 = game("a0a1", "a9a8", "a1a0", "a8a9", *tail)
    assert format_fen(g1.pos) == format_fen(g2.pos) == format_fen(g3.pos)
    assert run(g1, level) == run(g2, level) == run(g3, level)


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_position_after_a_capture_equals_its_fen(level):
    g = game("h2h9", "i9h9")                                      # last move was a capture: clock 0
    assert g.pos.clock == 0
    assert run(g, level) == run(parse_fen(format_fen(g.pos)), level)


def test_slot_order_does_not_matter(middlegames):
    """Pieces keep their slots as they move, so a game position's piece lists are in
    another order than the same position loaded from its FEN; the search rebuilds them."""
    differing = 0
    for g in middlegames:
        fresh = parse_fen(format_fen(g.pos))
        fresh.keys, fresh.checks, fresh.dests = g.pos.keys[:], g.pos.checks[:], g.pos.dests[:]   # same history
        differing += fresh.piece_sq != g.pos.piece_sq
        for lv in LEVELS:
            assert search(fresh.copy(), lv, seed=2, book=None).as_json() == run(g, lv, seed=2)
    assert differing >= 2


# ---- (b) mates ---------------------------------------------------------------

def mated(pos) -> bool:
    return not pos.legal_moves()


def mates_in_1(pos) -> set[str]:
    out = set()
    for m in pos.legal_moves():
        pos.make(m)
        if mated(pos):
            out.add(move_iccs(m))
        pos.unmake()
    return out


def mates_in_2(pos) -> set[str]:
    out = set()
    for m in pos.legal_moves():
        pos.make(m)
        replies = pos.legal_moves()
        ok = bool(replies)
        for r in replies:
            pos.make(r)
            ok = bool(mates_in_1(pos))
            pos.unmake()
            if not ok:
                break
        pos.unmake()
        if ok:
            out.add(move_iccs(m))
    return out


MATE_IN_1 = [
    "3k5/9/3P5/9/9/9/9/9/3R5/4K4 w - - 0 1",      # pawn d8, guarded by the rook; e9 faces the king
    "3k5/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1",       # two-rook ladder: b0b9
    "1r3k3/9/9/9/9/9/9/9/r8/3K5 b - - 0 1",       # the same for Black: b9b0
    "3aka3/4n4/9/7N1/9/9/9/9/9/3K5 w - - 0 1",    # smothered: h6g8, nothing can block f8
]


@pytest.mark.parametrize("fen", MATE_IN_1)
@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_mate_in_one_found_at_every_level(fen, level):
    pos = parse_fen(fen)
    expected = mates_in_1(pos)
    assert expected, "test position has no mate in 1"
    r = run(pos, level, seed=11)
    assert r["score"] == MATE - 1
    assert r["move"] in expected
    assert r["pv"][0] == r["move"]


MATE_IN_2 = [
    "9/5k3/4ba3/9/9/9/9/9/2R2K3/3R5 w - - 0 1",
    "3a1N3/9/5k3/9/9/9/9/9/R3K4/9 w - - 0 1",
    "9/4a4/1R1ak4/9/2P6/9/9/9/5K3/9 w - - 0 1",
    "9/3ka4/9/9/9/9/9/5K3/9/6RR1 w - - 0 1",
    "1R1a5/9/3a1k3/9/1P7/9/9/9/9/4K4 w - - 0 1",
]
DEEP_LEVELS = [lv for lv in LEVELS if lv.depth >= 4]


def test_there_is_a_level_with_depth_4():
    assert DEEP_LEVELS


@pytest.mark.parametrize("fen", MATE_IN_2)
@pytest.mark.parametrize("level", DEEP_LEVELS, ids=[lv.name for lv in DEEP_LEVELS])
def test_mate_in_two_found_at_depth_4(fen, level):
    pos = parse_fen(fen)
    assert not mates_in_1(pos)
    expected = mates_in_2(pos)
    assert expected
    r = run(pos, level)
    assert r["score"] == MATE - 3
    assert r["move"] in expected


@pytest.mark.parametrize("level", DEEP_LEVELS, ids=[lv.name for lv in DEEP_LEVELS])
def test_shortest_mate_preferred(level):
    fen = "9/4a4/5k3/9/9/9/5N3/2p3R2/4K4/9 w - - 0 1"
    pos = parse_fen(fen)
    assert not mates_in_1(pos) and mates_in_2(pos) == {"g2g8"}
    r = run(pos, level)
    assert (r["move"], r["score"]) == ("g2g8", MATE - 3)


# ---- (c) forced and impossible moves -----------------------------------------

@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_single_legal_move_is_returned(level):
    pos = parse_fen("5k3/9/9/9/9/9/9/9/9/3K1R3 b - - 0 1")       # check from f0: only f9e9
    assert [move_iccs(m) for m in pos.legal_moves()] == ["f9e9"]
    r = run(pos, level)
    assert r["move"] == "f9e9"
    assert r["pv"][0] == "f9e9"


@pytest.mark.parametrize("fen", ["3k5/3P5/9/9/9/9/9/9/3R5/4K4 b - - 0 1",    # checkmated
                                 "3k5/4P4/9/9/9/9/9/9/9/5K3 b - - 0 1"])    # stalemated
@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_no_legal_move(level, fen):
    r = run(parse_fen(fen), level)
    assert r["move"] is None
    assert r["score"] == -MATE
    assert r["pv"] == []


# ---- (d) node caps -----------------------------------------------------------

@pytest.fixture(scope="module")
def middlegames():
    return random_positions(42, 4)


def cap_for(level, pos) -> int:
    """The node cap docs/ENGINE.md gives a search of pos (no bare side):
    the level's, or its sparse block's with at most its pieces on the board."""
    sp = level.sparse
    return sp.nodes if sp is not None and sum(pos.count) <= sp.pieces else level.nodes


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_node_count_within_cap(level, middlegames):
    for g in middlegames + [game("h2e2", "h9g7")]:
        r = run(g, level)
        assert 0 < r["nodes"] <= cap_for(level, g.pos)
        assert r["move"] in {move_iccs(m) for m in g.pos.legal_moves()}


@pytest.mark.parametrize("cap", [1, 2, 50])
@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_tiny_node_cap_still_gives_a_legal_move(level, cap, middlegames):
    small = level.limited(cap)
    for g in middlegames + [Game(START_FEN)]:
        r = run(g, small)
        assert r["nodes"] <= cap
        legal = {move_iccs(m) for m in g.pos.legal_moves()}
        assert r["move"] in legal
        assert r["pv"] and r["pv"][0] == r["move"]


def test_node_cap_cuts_the_depth():
    """Half the nodes of a full search cut its depth: the cap stops the last
    iteration (every iteration started: next_iteration 0), or, with the
    shipped iteration rule, the last iteration is not started at all."""
    master = dataclasses.replace(level_by_name("Master"), nodes=65535, sparse=None)
    full = run(Game(START_FEN), master)
    assert full["depth"] == master.depth
    half = dataclasses.replace(master, nodes=full["nodes"] // 2)
    stopped = search(Game(START_FEN).pos.copy(), half, book=None, pruning=EVERY_ITERATION).as_json()
    assert stopped["depth"] < master.depth and stopped["nodes"] == half.nodes
    skipped = run(Game(START_FEN), half)
    assert search_config().pruning.next_iteration * skipped["nodes"] >= half.nodes
    assert skipped["depth"] == stopped["depth"] and skipped["nodes"] < half.nodes


def test_a_stopped_iteration_answers_with_its_best_root_move_so_far(middlegames):
    """Caps that stop iteration 3 at points across its tree: the answer is the
    previous iteration's until a root move has been searched in full, then the
    best such move with its depth-3 score, which only rises as the cap grows,
    and at the iteration's last node agrees with the completed iteration
    (unless the best move was the last one searched, whose search the cap cut)."""
    hard = dataclasses.replace(level_by_name("Hard"), depth=3, nodes=65535)
    scores_moved = 0
    for g in middlegames:
        its: list = []
        Searcher(g.pos.copy(), hard, book=None, pruning=EVERY_ITERATION, on_iteration=its.append).run()
        assert [r.depth for r in its] == [1, 2, 3]
        prev, full = its[1], its[2]
        step = max(1, (full.nodes - prev.nodes) // 10)
        last = None
        for cap in [*range(prev.nodes + 1, full.nodes, step), full.nodes]:
            s = Searcher(g.pos.copy(), dataclasses.replace(hard, nodes=cap), book=None,
                         pruning=EVERY_ITERATION)         # each cap stops iteration 3
            r = s.run()
            assert r.nodes == cap and r.depth == 2
            assert r.pv and r.pv[0] == r.move
            if not s.root_best:                  # no root move searched in full yet
                assert last is None
                assert (r.move, r.score, r.pv) == (prev.move, prev.score, prev.pv)
                continue
            assert (r.move, r.score) == (s.root_best, s.root_score)
            assert last is None or r.score >= last
            assert r.score <= full.score
            scores_moved += r.score != prev.score
            last = r.score
        assert last is not None
        if r.move == full.move:
            assert (r.score, r.pv) == (full.score, full.pv)
    assert scores_moved                          # the stopped iterations' answers were used


# ---- (e) CLI -----------------------------------------------------------------

def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference_py", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_search_json():
    r = cli("search", START_FEN, "--level", "Medium")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out) == ["move", "score", "nodes", "depth", "pv", "book"]
    assert out == search(Game(START_FEN).pos.copy(), level_by_name("Medium")).as_json()   # the book included


def test_cli_search_moves_and_seed():
    r = cli("search", START_FEN, "--level", "easy", "--moves", "h2e2", "H8+7", "--seed", "9")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out == search(game("h2e2", "h9g7").pos.copy(), level_by_name("Easy"), seed=9).as_json()
    other = [json.loads(cli("search", START_FEN, "--level", "Easy", "--moves", "h2e2", "h9g7",
                            "--seed", str(s)).stdout) for s in (1, 2, 3)]
    assert any(o != out for o in other)          # the seed reaches the search


@pytest.mark.parametrize("args,words", [
    (["--level", "Grandmaster"], ["unknown level 'Grandmaster'", "Novice"]),
    (["--level", "Easy", "--moves", "h2e2", "h2e2"], ["move 2 of --moves", "no piece on h2"]),
    (["--level", "Easy", "--moves", "zz"], ["move 1 of --moves", "'zz' is not a move"]),
    (["--level", "Easy", "--moves", "h2e2", "a0a1"], ["move 2", "Red's", "Black to move"]),
])
def test_cli_search_errors(args, words):
    r = cli("search", START_FEN, *args)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    for w in words:
        assert w in lines[0]


def test_cli_levels():
    r = cli("levels")
    assert r.returncode == 0
    assert r.stdout.split("\n")[:-1] == LEVEL_IDS


# ---- (f) fresh tables per search ---------------------------------------------

@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_tables_start_fresh(level, middlegames):
    a, b = middlegames[0], middlegames[1]
    first = run(a, level, seed=4)
    run(b, level, seed=4)
    assert run(a, level, seed=4) == first
    # The same with one Position object searched over and over.
    pos = a.pos.copy()
    s1 = search(pos, level, seed=4, book=None).as_json()
    search(b.pos.copy(), level, seed=4)
    assert search(pos, level, seed=4, book=None).as_json() == s1 == first


def test_searcher_options_are_per_instance():
    """Switching the heuristics off changes the search (so the options
    reach it) and leaves the next default search as it was."""
    pos = game("h2e2", "h9g7").pos
    lv = level_by_name("Hard")                     # under its node cap here
    base = Searcher(pos.copy(), lv, book=None).run().as_json()
    assert base["nodes"] < lv.nodes
    bare = Searcher(pos.copy(), lv, history=False, killers=False, null=False, lmr=False, book=None).run().as_json()
    assert bare["nodes"] != base["nodes"]
    assert Searcher(pos.copy(), lv, book=None).run().as_json() == base


# ---- (g) score range -----------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_score_range(level, middlegames):
    for g in middlegames + [Game(START_FEN)]:
        r = run(g, level, seed=1)
        assert -32768 <= r["score"] <= 32767
        assert abs(r["score"]) < MATE
        if abs(r["score"]) > MATE_BOUND:
            assert r["move"] is not None


@pytest.mark.parametrize("level", LEVELS, ids=LEVEL_IDS)
def test_pv_is_a_legal_line(level, middlegames):
    for g in middlegames + [game("h2e2", "h9g7")]:
        r = search(g.pos.copy(), level, seed=3)
        assert r.pv and r.pv[0] == r.move
        # a main-search node (the only kind that adds to the PV) sits at a ply below
        # the depth, or below check_ext on a line the check extension deepened
        assert len(r.pv) <= max(r.depth, level.check_ext, 1)
        pos = g.pos.copy()
        for m in r.pv:
            assert m in pos.legal_moves(), [move_iccs(x) for x in r.pv]
            pos.make(m)


# ---- (h) noise -------------------------------------------------------------------

NOISY = [lv for lv in LEVELS if lv.noise]


def test_some_levels_have_noise():
    assert NOISY and any(lv.noise == 0 for lv in LEVELS)


@pytest.mark.parametrize("level", NOISY, ids=[lv.name for lv in NOISY])
def test_noise_depends_on_the_seed_only(level):
    g = game("h2e2", "h9g7")
    results = [json.dumps(run(g, level, seed=s)) for s in range(1, 9)]
    assert len(set(results)) > 1                      # different seeds can differ
    assert [json.dumps(run(g, level, seed=s)) for s in range(1, 9)] == results
    # seeds are 16-bit: seed and seed + 65536 are the same
    assert json.dumps(run(g, level, seed=1 + 65536)) == results[0]


def test_noise_free_levels_ignore_the_seed():
    g = game("h2e2", "h9g7")
    for lv in LEVELS:
        if lv.noise == 0:
            assert run(g, lv, seed=1) == run(g, lv, seed=999)


# ---- a bare side to move: the level's `bare` block ----------------------------

BARE_TO_MOVE = "9/3k5/9/9/6b2/2N6/9/9/4K4/9 b - - 0 1"      # horse vs one elephant, the elephant's side
STRONG_TO_MOVE = "9/3k5/9/9/6b2/2N6/9/9/4K4/9 w - - 0 1"


def test_bare_block_deepens_the_search_of_a_bare_side():
    """Master's bare block (depth 8, qdepth 2) applies when the side to move
    has no rook, horse, cannon or pawn, and only then."""
    from reference_py.search import Searcher
    master = level_by_name("Master")
    assert master.bare is not None and master.bare.depth > master.depth
    s = Searcher(parse_fen(BARE_TO_MOVE), master)
    r = s.run()
    assert (s.level.depth, s.level.qdepth, s.level.nodes) == (master.bare.depth, master.bare.qdepth,
                                                             master.bare.nodes)
    assert r.depth > master.depth
    s = Searcher(parse_fen(STRONG_TO_MOVE), master)
    r = s.run()
    assert (s.level.depth, s.level.qdepth) == (master.depth, master.qdepth) and r.depth <= master.depth
    assert s.level.nodes == master.sparse.nodes      # (a thin board: the sparse block's cap)
    s = Searcher(parse_fen(BARE_TO_MOVE), level_by_name("Hard"))     # no bare block
    assert s.run().depth <= level_by_name("Hard").depth


def test_both_sides_bare_use_the_bare_block():
    from reference_py.search import Searcher
    master = level_by_name("Master")
    s = Searcher(parse_fen("3k5/9/4b4/9/9/9/9/9/4A4/4K4 w - - 0 1"), master)
    s.run()
    assert s.level.depth == master.bare.depth


# ---- a thinner board: the level's `sparse` block ------------------------------

def _with_pieces(n: int) -> str:
    """The start position less its pawns, advisors and elephants from the
    outside in, until n pieces are left (n >= 14: both sides keep king,
    rooks, horses and cannons)."""
    rows = START_FEN.split()[0].split("/")
    grid = [list("".join(c if c.isalpha() else "." * int(c) for c in row)) for row in rows]
    order = ((3, 0), (6, 0), (3, 8), (6, 8), (3, 2), (6, 2), (3, 6), (6, 6), (3, 4), (6, 4),
             (0, 3), (9, 3), (0, 5), (9, 5), (0, 2), (9, 2), (0, 6), (9, 6))
    left = 32
    for r, f in order:
        if left == n:
            break
        grid[r][f] = "."
        left -= 1
    assert left == n

    def row_text(cells: list[str]) -> str:
        return re.sub(r"\.+", lambda m: str(len(m.group())), "".join(cells))
    return "/".join(row_text(row) for row in grid) + " w - - 0 1"


def test_sparse_block_sets_the_cap_on_a_thinner_board():
    """Master's sparse cap applies with at most its `pieces` on the board
    (kings included), and not with one more; a level without the block and
    a bare side's search keep their own caps."""
    from reference_py.search import Searcher
    master = level_by_name("Master")
    sp = master.sparse
    assert sp is not None
    tiny = dataclasses.replace(master, nodes=40, sparse=dataclasses.replace(sp, nodes=30))
    for n, cap in ((sp.pieces, 30), (sp.pieces + 1, 40), (sp.pieces - 6, 30)):
        pos = parse_fen(_with_pieces(n))
        assert sum(pos.count) == n
        s = Searcher(pos, tiny, book=None)
        r = s.run()
        assert (s.level.nodes, r.nodes) == (cap, cap), n
    s = Searcher(parse_fen(_with_pieces(sp.pieces)), level_by_name("Hard"), book=None)
    s.run()
    assert s.level.nodes == level_by_name("Hard").nodes
    s = Searcher(parse_fen(BARE_TO_MOVE), master)
    s.run()
    assert s.level.nodes == master.bare.nodes


def test_pv_and_killers_are_kept_to_four_plies():
    """The PV holds at most PV_PLIES moves however deep the search goes."""
    from reference_py.search import PV_PLIES, Searcher
    s = Searcher(parse_fen(BARE_TO_MOVE), level_by_name("Master"))
    r = s.run()
    assert r.depth > PV_PLIES and 1 <= len(r.pv) <= PV_PLIES
    assert all(not row for row in s.pv[PV_PLIES:])
