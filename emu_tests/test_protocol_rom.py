"""The ROM engine's UCI answers are the moves of `python -m tools.romengine
search` for the same position, history and level (the cartridge's exact
play, through tools/nes/protocol.py), and its UCCI answers the same again.

Positions: every 5th of emu_tests/search_suite.fen (middlegames, openings,
endgames, mates, repetitions with their game history) at the two weakest
levels, 3 at the third; the command line itself is checked on two of them.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from emu_tests.make_search_suite import read_suite
from reference_py.cli import game_position
from reference_py.protocol.client import EngineClient, bestmove
from reference_py.search import levels
from tools.nes.search import RomSearch

ROOT = Path(__file__).resolve().parents[1]
SUITE = read_suite()
LEVELS = [lv.name for lv in levels()]
PICKS = list(range(0, len(SUITE), 5))
CASES = [(lv, i) for lv in LEVELS[:2] for i in PICKS] + [(LEVELS[2], i) for i in PICKS[:3]]


@pytest.fixture(scope="module")
def rom() -> RomSearch:
    return RomSearch()


def position_command(fen: str, moves: list[str]) -> str:
    return f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")


@pytest.mark.parametrize("dialect", ["uci", "ucci"])
def test_protocol_answers_equal_romengine_search(rom, dialect):
    expected = {(lv, i): rom.search(game_position(SUITE[i][0], SUITE[i][1]), lv)["move"] for lv, i in CASES}
    with EngineClient([sys.executable, "-m", "tools.romengine", dialect], cwd=str(ROOT)) as e:
        e.send(dialect)
        e.until(dialect + "ok", 60)
        got = {}
        for lv, i in CASES:
            fen, moves, _ = SUITE[i]
            e.send(f"setoption name Level value {lv}" if dialect == "uci" else f"setoption Level {lv}",
                   position_command(fen, moves), "go")
            got[(lv, i)] = bestmove(e.until(lambda l: l.startswith("bestmove") or l == "nobestmove", 300))
        errors = [l for l in e.seen if "error" in l]
    assert not errors
    assert got == expected


@pytest.mark.parametrize("index", PICKS[:2])
def test_command_line_search_is_the_same_move(index):
    fen, moves, _ = SUITE[index]
    level = LEVELS[1]
    cmd = [sys.executable, "-m", "tools.romengine", "search", fen, "--level", level] + (["--moves", *moves] if moves else [])
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True).stdout
    cli = json.loads(out.strip().splitlines()[-1])["move"]
    with EngineClient([sys.executable, "-m", "tools.romengine", "uci"], cwd=str(ROOT)) as e:
        e.send(f"setoption name Level value {level}", position_command(fen, moves), "go")
        assert bestmove(e.until("bestmove", 300)) == cli


@pytest.mark.parametrize("limit", [{"depth": 2}, {"nodes": 2000}, {"depth": 2, "nodes": 300}])
def test_go_depth_and_nodes_equal_the_reference_adapter(limit):
    """`go depth N` / `go nodes N` lower the level's limits exactly in both
    adapters: the same move, score, depth, node count and PV (a stop at the
    node limit answers as the cap does, docs/ENGINE.md "Nodes"; the limits
    here let the iteration they stop start: iterations 1 and 2 end at 39
    and 394 nodes, and next_iteration is 4)."""
    from reference_py.protocol.backend import Request
    from reference_py.protocol.reference import ReferenceBackend
    from reference_py.search import level_by_name
    from tools.nes.protocol import RomBackend
    from emu_tests.test_romsearch_search import STOPPED_INDEX   # a middlegame: Medium's iteration 3
    fen, moves, _ = SUITE[STOPPED_INDEX]                            # takes 2,471 nodes
    request = Request(game_position(fen, moves), level_by_name("Medium"), 0, **limit)
    never = lambda: False                                        # noqa: E731
    ref = ReferenceBackend().search(request, never, lambda r: None)
    got = RomBackend().search(request, never, lambda r: None)
    assert (got.move, got.score, got.depth, got.nodes, got.pv) == (ref.move, ref.score, ref.depth, ref.nodes, ref.pv)
    if "nodes" in limit:
        assert got.nodes == limit["nodes"]


@pytest.mark.parametrize("nodes", [350, 10_000])
def test_go_nodes_on_a_thin_board_equals_the_reference_adapter(nodes):
    """Master on a board with at most its sparse block's pieces: `go nodes N`
    lowers the cap the search uses there (the block's) in both adapters
    (Level.limited), to N below it and not at all above the level's own."""
    from emu_tests.test_romsearch_search import _with_pieces
    from reference_py.protocol.backend import Request
    from reference_py.protocol.reference import ReferenceBackend
    from reference_py.search import level_by_name
    from tools.nes.protocol import RomBackend
    master = level_by_name("Master")
    fen, moves, _ = _with_pieces(master.sparse.pieces - 4)
    request = Request(game_position(fen, moves), master, 0, nodes=nodes, book=False)
    never = lambda: False                                        # noqa: E731
    ref = ReferenceBackend().search(request, never, lambda r: None)
    got = RomBackend().search(request, never, lambda r: None)
    assert (got.move, got.score, got.depth, got.nodes, got.pv) == (ref.move, ref.score, ref.depth, ref.nodes, ref.pv)
    assert got.nodes <= min(nodes, master.sparse.nodes)
