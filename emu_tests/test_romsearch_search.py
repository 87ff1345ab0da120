"""The ROM's search (asm/engine/eng_search*.s) returns the same move, score, node
count, depth and PV as the reference Searcher, for every level, on the fixed
suite emu_tests/search_suite.fen (101 positions: the 40 bench middlegames,
openings, endgames, mates, repetitions with game history, single-legal-move
and no-legal-move positions; python -m emu_tests.make_search_suite writes it).

Cost under py65 (~1.2 M instructions/s): every position at the two weakest
levels, 8 representative positions at Medium and Hard, 4 at Master (a
Master middlegame takes about a minute), and 24 random games with repeating
histories (draws and perpetual checks) at the two weakest levels.  The full
matrix (the three stronger levels x all positions, well over an hour under
py65) runs with ROMSEARCH_FULL=1:
    ROMSEARCH_FULL=1 .venv/bin/python -m pytest emu_tests/test_romsearch_search.py
The guards of tools/nes are active in every run (a guard fault fails
the test)."""
from __future__ import annotations

import functools
import os

import pytest

from emu_tests.make_search_suite import read_suite
from reference_py.search import levels
from reference_py.cli import game_position
from tools.nes.search import RomSearch, reference_search

SUITE = read_suite()
LEVELS = [lv.name for lv in levels()]
WEAK = LEVELS[:2]
STRONG = LEVELS[2:]
FULL = os.environ.get("ROMSEARCH_FULL") == "1"


def _representative() -> list[int]:
    """8 positions: 3 middlegames, then one of each other category."""
    picks = [i for i, (_, _, c) in enumerate(SUITE) if c == "middlegame"][:3]
    for cat in ("opening", "endgame", "mate", "single", "repetition"):
        picks.append(next(i for i, (_, _, c) in enumerate(SUITE) if c == cat))
    return picks


REPRESENTATIVE = _representative()
# the strongest level costs about a minute of py65 time per middlegame: fewer
STRONGEST_SUBSET = [REPRESENTATIVE[0]] + REPRESENTATIVE[4:7]


@pytest.fixture(scope="module")
def rs() -> RomSearch:
    return RomSearch()


def _check(rs: RomSearch, index: int, level: str) -> None:
    fen, moves, cat = SUITE[index]
    pos = game_position(fen, moves, past_the_end=True)
    want = reference_search(pos, level)
    got = rs.search(pos, level)
    assert {k: got[k] for k in want} == want, f"{cat}: {fen} moves {moves}"


def test_suite_covers_the_categories():
    cats = {c for _, _, c in SUITE}
    assert len(SUITE) >= 100
    assert {"middlegame", "opening", "endgame", "mate", "single", "none", "repetition"} <= cats


@pytest.mark.parametrize("level", WEAK)
@pytest.mark.parametrize("index", range(len(SUITE)))
def test_weak_levels_equal_reference(rs, level, index):
    _check(rs, index, level)


@pytest.mark.parametrize("level", STRONG[:-1])
@pytest.mark.parametrize("index", REPRESENTATIVE)
def test_strong_levels_equal_reference(rs, level, index):
    _check(rs, index, level)


@pytest.mark.parametrize("index", STRONGEST_SUBSET)
def test_strongest_level_equals_reference(rs, index):
    _check(rs, index, STRONG[-1])


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="the full matrix: ROMSEARCH_FULL=1 (over an hour)")
@pytest.mark.parametrize("level", STRONG)
@pytest.mark.parametrize("index", range(len(SUITE)))
def test_full_matrix_equals_reference(rs, level, index):
    _check(rs, index, level)


# A middlegame of the suite where Medium's iteration 3, stopped after 4 tenths
# of its tree or more, has found a better root move than iteration 2's.
STOPPED_INDEX = 5


@functools.lru_cache(maxsize=None)
def _iterations(index: int, level: str) -> tuple:
    """The reference's completed iterations (SearchResult, nodes at its end)."""
    from reference_py.search import Searcher, level_by_name
    fen, moves, _ = SUITE[index]
    its: list = []
    Searcher(game_position(fen, moves, past_the_end=True), level_by_name(level),
             on_iteration=its.append).run()
    return tuple(its)


@pytest.mark.parametrize("part", [1, 4, 7, 10])
def test_stopped_iteration_equals_reference(rs, part):
    """Node caps that stop Medium's iteration 3 across its tree (tenths of the
    nodes between the first cap that lets it start, next_iteration times
    iteration 2's nodes, and its final node): the ROM answers as the
    reference does, with the best root move searched in full so far
    (docs/ENGINE.md "Nodes")."""
    import dataclasses

    from reference_py.board import move_iccs
    from reference_py.search import Searcher, level_by_name, search_config
    its = _iterations(STOPPED_INDEX, "Medium")
    n2, n3 = its[1].nodes, its[2].nodes
    start = max(n2, search_config().pruning.next_iteration * n2) + 1    # the least cap that starts it
    assert start < n3
    cap = start + (n3 - start) * part // 10
    fen, moves, cat = SUITE[STOPPED_INDEX]
    pos = game_position(fen, moves, past_the_end=True)
    level = dataclasses.replace(level_by_name("Medium"), nodes=cap)
    want = Searcher(pos.copy(), level).run().as_json()
    got = rs.search(pos, "Medium", nodes=cap)
    assert {k: got[k] for k in want} == want, f"{cat}: {fen} moves {moves}, cap {cap}"
    assert got["nodes"] == cap and got["depth"] == 2
    if part >= 4:                   # the case this test is for: iteration 3's move answers
        assert got["move"] != move_iccs(its[1].move)


def test_an_iteration_the_cap_would_stop_is_not_started(rs):
    """A cap at most next_iteration times iteration 2's nodes: neither engine
    starts Medium's iteration 3, and both answer with iteration 2's result
    and its nodes (docs/ENGINE.md "Outline")."""
    import dataclasses

    from reference_py.board import move_iccs
    from reference_py.search import Searcher, level_by_name, search_config
    its = _iterations(STOPPED_INDEX, "Medium")
    n2 = its[1].nodes
    cap = search_config().pruning.next_iteration * n2
    assert cap > n2
    fen, moves, cat = SUITE[STOPPED_INDEX]
    pos = game_position(fen, moves, past_the_end=True)
    want = Searcher(pos.copy(), dataclasses.replace(level_by_name("Medium"), nodes=cap)).run().as_json()
    got = rs.search(pos, "Medium", nodes=cap)
    assert {k: got[k] for k in want} == want, f"{cat}: {fen} moves {moves}, cap {cap}"
    assert (got["nodes"], got["depth"], got["move"]) == (n2, 2, move_iccs(its[1].move))


def _with_pieces(n: int) -> tuple[str, list[str], str]:
    """The first position of the suite with exactly n pieces on the board
    and no bare side."""
    from reference_py.endgame import bare_side
    for fen, moves, cat in SUITE:
        pos = game_position(fen, moves, past_the_end=True)
        if sum(pos.count) == n and bare_side(pos.count) is None:
            return fen, moves, cat
    raise AssertionError(f"no position of the suite has {n} pieces")


@pytest.mark.parametrize("extra", [0, 1])
def test_sparse_cap_at_its_piece_limit(rs, extra):
    """Master with exactly its sparse block's pieces on the board searches to
    the block's cap, with one piece more to the level's own (set_node_cap):
    both caps lowered (lvl_nodes, lvl_sparse_lo/hi) so that they decide
    the search, the ROM's move, score, nodes and PV are the reference's."""
    import dataclasses

    from reference_py.search import Searcher, level_by_name
    master = level_by_name("Master")
    sp = master.sparse
    assert sp is not None
    fen, moves, cat = _with_pieces(sp.pieces + extra)
    pos = game_position(fen, moves, past_the_end=True)
    own, sparse = 300, 400
    level = dataclasses.replace(master, nodes=own, sparse=dataclasses.replace(sp, nodes=sparse))
    want = Searcher(pos.copy(), level, book=None).run().as_json()
    got = rs.search(pos, "Master", book=False, nodes=own, sparse_nodes=sparse)
    assert {k: got[k] for k in want} == want, f"{cat}: {fen} moves {moves}"
    assert (got["nodes"] > own) == (extra == 0)      # past the level's own cap: the block's


@pytest.mark.parametrize("seed", [1, 12345])
def test_seeds_change_noise_identically(rs, seed):
    fen, moves, _ = SUITE[0]
    pos = game_position(fen, moves, past_the_end=True)
    for level in LEVELS[:3]:
        want = reference_search(pos, level, seed)
        got = rs.search(pos, level, seed)
        assert {k: got[k] for k in want} == want


@functools.lru_cache(maxsize=None)
def _cycling_games(count: int, seed: int) -> list[tuple[str, list[str]]]:
    """Random games that often undo the move played two plies before (so the
    history repeats) and prefer checks (perpetual-check cycles)."""
    import random

    from emu_tests.romengine_positions import suite_fens
    from reference_py.board import move_iccs
    from reference_py.fen import parse_fen
    rng = random.Random(seed)
    starts = suite_fens()
    out = []
    while len(out) < count:
        fen = rng.choice(starts)
        pos = parse_fen(fen)
        played: list[int] = []
        for _ in range(rng.randrange(6, 40)):
            legal = pos.legal_moves()
            if not legal:
                break
            back = [m for m in legal if len(played) >= 2 and m == ((played[-2] >> 8) | ((played[-2] & 0xFF) << 8))]
            checks = []
            for m in legal:
                pos.make(m)
                if pos.in_check(pos.side):
                    checks.append(m)
                pos.unmake()
            r = rng.random()
            pool = back if back and r < 0.6 else checks if checks and r < 0.8 else legal
            m = rng.choice(pool)
            pos.make(m)
            played.append(m)
        if pos.legal_moves():
            out.append((fen, [move_iccs(m) for m in played]))
    return out


@pytest.mark.parametrize("game", range(24))
def test_repetition_histories_equal_reference(rs, game):
    fen, moves = _cycling_games(24, 9)[game]
    pos = game_position(fen, moves, past_the_end=True)
    for level, seed in ((LEVELS[0], game), (LEVELS[1], 0)):
        want = reference_search(pos, level, seed)
        got = rs.search(pos, level, seed)
        assert {k: got[k] for k in want} == want, f"{fen} moves {moves} {level} seed {seed}"


def test_romengine_cli_offers_search(capsys):
    """`python -m tools.romengine search` answers like the reference, plus cycles."""
    import json
    from tools import romengine
    fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"
    assert romengine.main(["search", fen, "--level", "Easy"]) == 0
    rom = json.loads(capsys.readouterr().out)
    from reference_py.__main__ import main as ref_main
    assert ref_main(["search", fen, "--level", "Easy"]) == 0
    ref = json.loads(capsys.readouterr().out)
    assert rom.pop("cycles") > 0 and rom.pop("seconds") > 0
    assert rom == ref


def test_exchange_pruning_off_builds_a_rom_equal_to_the_reference_off(tmp_path, monkeypatch):
    """pruning.qs_exchange: 0 assembles q_node without the exchange test
    (QS_EXCHANGE = 0, tools/rom/gen_tables.py): that ROM equals the reference
    searching with the knob off, on middlegames where the knob changes the
    result (so the shipped ROM, which equals the reference with it on, is
    not just equal to both)."""
    import dataclasses
    import shutil
    from pathlib import Path

    from reference_py.config import load_search
    from reference_py.search import Searcher, level_by_name
    from tools.rom import build as build_rom, gen_tables
    root = Path(__file__).resolve().parents[1]
    cfg = tmp_path / "config"
    shutil.copytree(root / "config", cfg)
    text = (cfg / "search.yaml").read_text()
    assert "  qs_exchange: 100 " in text
    (cfg / "search.yaml").write_text(text.replace("  qs_exchange: 100 ", "  qs_exchange: 0 "))
    monkeypatch.setattr(gen_tables, "CONFIG_DIR", cfg)
    monkeypatch.setattr(build_rom, "GEN_DIR", tmp_path / "gen")
    monkeypatch.setattr(build_rom, "INCLUDE_DIRS", ["asm", str(tmp_path / "gen")])
    build_rom.build("ours", tmp_path / "off.nes")
    assert "QS_EXCHANGE      = 0" in (tmp_path / "gen" / "eng_const.inc").read_text()
    rom_off = RomSearch(tmp_path / "off.nes", tmp_path / "off.map.json", build=False)
    off = dataclasses.replace(load_search().pruning, qs_exchange=0)
    level = LEVELS[1]
    changed = 0
    for index in [i for i, (_, _, c) in enumerate(SUITE) if c == "middlegame"][:4]:
        fen, moves, _ = SUITE[index]
        pos = game_position(fen, moves, past_the_end=True)
        want = Searcher(pos.copy(), level_by_name(level), pruning=off).run().as_json()
        got = rom_off.search(pos, level)
        assert {k: got[k] for k in want} == want, f"{fen} moves {moves}"
        changed += want != reference_search(pos, level)
    assert changed >= 3
