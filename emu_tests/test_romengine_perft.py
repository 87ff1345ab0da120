"""Perft through the ROM's 6502 engine (py65) equals the published numbers
and the reference's per-move breakdown.

Depths 1-3 on every position of /work/shared/positions/perft.txt (about a
minute of py65); depth 4 runs in `python -m bench.rom_bench --perft-depth 4`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from reference_py.cli import parse_suite
from reference_py.config import load_search
from reference_py.fen import parse_fen
from reference_py.perft import perft_divide
from tools.nes.cli import engine_main as romengine_main
from tools.nes.engine import RomEngine

ENTRIES = load_search().move_stack_entries          # the move stack's size (config/search.yaml)

SUITE = Path("/work/shared/positions/perft.txt")
CASES = parse_suite(SUITE) if SUITE.exists() else []


@pytest.fixture(scope="module")
def eng() -> RomEngine:
    return RomEngine()


@pytest.mark.slow
@pytest.mark.parametrize("no,fen,nums", CASES, ids=[f"line{c[0]}" for c in CASES])
def test_perft_depth_1_to_3(eng, no, fen, nums):
    eng.load(parse_fen(fen))
    got = [eng.perft(d) for d in (1, 2, 3)]
    assert got == nums[:3]
    assert eng.byte("eng_ply") == 0 and eng.byte("ms_top") == 0


@pytest.mark.parametrize("no,fen,nums", CASES, ids=[f"line{c[0]}" for c in CASES])
def test_divide_depth_2_matches_reference(eng, no, fen, nums):
    pos = parse_fen(fen)
    eng.load(pos)
    assert eng.perft_divide(2) == perft_divide(pos, 2)


def test_perft_depth_0_is_one(eng):
    eng.load(parse_fen(CASES[0][1]))
    assert eng.perft(0) == 1


def test_cli_perft_matches_reference_output(capsys):
    fen = CASES[1][1]
    assert romengine_main(["perft", fen, "2"]) == 0
    ours = capsys.readouterr()
    from reference_py.__main__ import main as ref_main
    assert ref_main(["perft", fen, "2"]) == 0
    ref = capsys.readouterr()
    assert ours.out == ref.out
    assert ours.err.startswith("cycles ")


def test_cli_suite_format_and_exit_codes(tmp_path, capsys):
    good = tmp_path / "good.txt"
    good.write_text(f"# comment\n{CASES[2][1]} ; {CASES[2][2][0]} {CASES[2][2][1]}\n")
    assert romengine_main(["perft-suite", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok   line 2: ") and out.rstrip().endswith("1 passed, 0 failed")
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{CASES[2][1]} ; {CASES[2][2][0] + 1}\n")
    assert romengine_main(["perft-suite", str(bad)]) == 1
    assert "FAIL line 1" in capsys.readouterr().out
    broken = tmp_path / "broken.txt"
    broken.write_text("not a fen ; 1\n")
    assert romengine_main(["perft-suite", str(broken)]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_perft_refuses_more_plies_than_the_undo_stack(eng):
    eng.load(parse_fen(CASES[0][1]))
    with pytest.raises(ValueError, match=f"ENG_PLIES = {eng.plies}"):
        eng.perft(eng.plies + 1)
    assert eng.byte("eng_ply") == 0


def test_the_undo_entries_cover_the_levels_and_perft(eng):
    """ENG_PLIES (tools/rom/gen_tables.py ply_sizes): a search makes moves at
    plies below depth + qdepth, perft at plies below its depth (4 at most,
    the suite's deepest), and never more than the reference's MAX_PLY."""
    from reference_py.search import MAX_PLY, levels
    need = max(lv.depth + max(lv.qdepth, 1) for lv in levels())
    assert max(need, 4) <= eng.plies <= MAX_PLY


def test_move_stack_overflow_is_reported(eng):
    """Lists that do not fit the move stack (ENTRIES) make eng_gen fail (carry set,
    ms_top unchanged), as the reference search's capacity check."""
    pos = parse_fen(CASES[5][1])
    n = len(pos.generate())
    eng.load(pos)
    eng.write("ms_top", [ENTRIES - n + 1])          # one entry short: overflow
    assert eng.generate() is None
    assert eng.byte("ms_top") == ENTRIES - n + 1
    eng.write("ms_top", [ENTRIES - n])              # fits exactly
    assert eng.generate() == pos.generate()
    assert eng.byte("ms_top") == ENTRIES
    eng.write("ms_top", [0])


def test_perft_falls_back_to_a_host_root_when_the_stack_is_full(eng):
    """Deep perft of a wide position: when eng_perft's stacked lists do not
    fit the move stack (ENTRIES), RomEngine.perft searches the root in the host and
    the count is still exact (here forced by starting high on the stack)."""
    no, fen, nums = CASES[5]
    pos = parse_fen(fen)
    eng.load(pos)
    eng.write("ms_top", [ENTRIES - 60])         # room for one list only
    assert eng.perft(2) == nums[1]
    assert eng.byte("ms_top") == ENTRIES - 60 and eng.byte("eng_ply") == 0
    eng.write("ms_top", [0])
