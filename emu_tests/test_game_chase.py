"""The cartridge's perpetual-chase judgement (asm/game/game_chase.s, called
by game_outcome) against reference_py.rules / reference_py.chase, under py65.

Every case of tests/data/chase_suite.yaml, then seeded random shuttles (each
side moving one or two pieces to and fro until a position occurs three
times) from the suite's positions and from games 20-40 random plies into
the opening, and chase_attacks on bench/middlegames.fen: the ROM's outcome
must be the reference's at every ply, and its `python -m tools.romengine
result` JSON the reference's.  The position, the legal-move list and the
ring must be as before the judgement.  The judgement's cycles are measured
(printed with -s) and bounded.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from reference_py.notation import parse_move
from reference_py.chase import chase_attacks
from reference_py.fen import parse_fen
from reference_py.rules import Game
from reference_py.search import search_config
from tests.chase_oracle import load
from tests.chase_shuttles import shuttle_games
from tools.nes.cli import rom_result
from tools.nes.game import RomGame, reference_outcome

ROOT = Path(__file__).resolve().parents[1]
CASES = load()
# A judgement walks at most GAME_WINDOW plies, two chase-attack sets each.
MAX_JUDGEMENT_CYCLES = 3_000_000


@pytest.fixture(scope="module")
def rom(rom_path) -> RomGame:
    return RomGame(rom_path, build=False)


def play(rom: RomGame, game: Game, move: int) -> None:
    rom.legal()
    assert rom.find(move)
    rom.play(move)
    game.play(move)


def judged(rom: RomGame, game: Game) -> tuple[tuple[str | None, int | None], int]:
    """The ROM's outcome (checked against the reference's) and the cycles
    of game_outcome beyond its legal-move generation."""
    before = rom.state()
    ring = rom.ring()
    rom.cycles.pop("game_outcome", None)
    got = rom.outcome()
    cycles = rom.cycles["game_outcome"]
    legal_after = [rom.mem[rom.a_ms_from + i] | (rom.mem[rom.a_ms_to + i] << 8)
                   for i in range(rom.byte("game_nmoves"))]
    assert got == reference_outcome(game.outcome()), game.moves
    assert rom.state() == before                 # the walk back and forth restored it
    assert rom.ring() == ring
    assert sorted(legal_after) == sorted(game.pos.legal_moves())
    rom.cycles.pop("game_gen_legal", None)
    rom.legal()
    return got, cycles - rom.cycles["game_gen_legal"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_suite_case(rom: RomGame, case: dict) -> None:
    game = Game(case["fen"])
    rom.setup(game.pos)
    for text in case["moves"]:
        judged(rom, game)
        play(rom, game, parse_move(game.pos, text))
    got, cycles = judged(rom, game)
    print(f"{case['id']}: {got}, {cycles} cycles")
    assert cycles < MAX_JUDGEMENT_CYCLES


def test_result_command_matches_the_reference_on_the_suite(rom: RomGame) -> None:
    for case in CASES:
        assert rom_result(case["fen"], case["moves"], rom) == case["ours"], case["id"]


@pytest.mark.parametrize("seed", range(4))
def test_random_shuttles(rom: RomGame, seed: int) -> None:
    games = shuttle_games(seed, 8)
    assert len(games) == 8
    worst, verdicts = 0, []
    for fen, moves, over in games:
        game = Game(fen)
        rom.setup(game.pos)
        for m in moves:
            play(rom, game, m)
            result, cycles = judged(rom, game)
            worst = max(worst, cycles)
        assert result == reference_outcome(over)
        verdicts.append(result)
    print(f"seed {seed}: {verdicts}, worst judgement {worst} cycles")
    assert worst < MAX_JUDGEMENT_CYCLES
    assert sum(v[0] == "perpetual chase" for v in verdicts) >= 3


def test_random_shuttles_cover_both_sides() -> None:
    """The shuttles reach both sides' perpetual chase and the draw (else
    they would test little)."""
    seen = {reference_outcome(over) for seed in range(4) for *_, over in shuttle_games(seed, 8)}
    assert {("perpetual chase", 0), ("perpetual chase", 1), ("repetition", None)} <= seen, seen


def test_chase_attacks_on_middlegames(rom: RomGame) -> None:
    """chase_attacks, the judgement's building block, against the
    reference's on bench/middlegames.fen, both sides (whichever is to move);
    its cycles per set are printed (-s)."""
    lines = (ROOT / "bench" / "middlegames.fen").read_text().splitlines()
    fens = [ln.split(";")[0].strip() for ln in lines if ln.strip() and not ln.startswith("#")]
    cycles = []
    for fen in fens:
        pos = parse_fen(fen)
        rom.setup(pos)
        rom.legal()                          # ms_top above the legal moves, as in game_outcome
        for side in (0, 1):
            cycles.append(rom.call("chase_attacks", a=side))
            acc = rom.read("ch_acc_lo", 2)
            assert acc[0] | acc[1] << 8 == chase_attacks(pos, side), (fen, side)
    assert len(cycles) == 80
    print(f"chase_attacks: median {statistics.median(cycles):,.0f}, max {max(cycles):,} cycles")


def test_chase_attacks_pseudo_legal(rom: RomGame) -> None:
    """chase_attacks with bit 7 of A (the "before" set of a mover in
    check) against the reference's pseudo=True: on the middlegames, both
    sides, and on positions where the attacker is in check (the suite's
    king evasion, a capture that answers the check)."""
    lines = (ROOT / "bench" / "middlegames.fen").read_text().splitlines()
    fens = [ln.split(";")[0].strip() for ln in lines if ln.strip() and not ln.startswith("#")][:20]
    fens += ["9/5k3/9/6N2/9/4P4/r2C5/3p5/9/2RRK4 b", "4k4/9/r2N5/9/9/9/3C5/9/9/3K5 b"]
    differ = 0
    for fen in fens:
        pos = parse_fen(fen)
        rom.setup(pos)
        rom.legal()
        for side in (0, 1):
            rom.call("chase_attacks", a=side | 0x80)
            acc = rom.read("ch_acc_lo", 2)
            want = chase_attacks(pos, side, pseudo=True)
            assert acc[0] | acc[1] << 8 == want, (fen, side)
            differ += want != chase_attacks(pos, side)
    assert differ >= 1                  # the king evasion's rook on a3


def test_chase_attacks_with_little_room(rom: RomGame) -> None:
    """Inside a search the capture lists go above the node's ms_top, and a
    list that does not fit is empty: the ROM's chase_attacks with ms_top
    near the end of the move stack equals the reference's with that room
    (chase.chase_attacks' `room`)."""
    fens = [c["fen"] for c in CASES][:6]
    lines = (ROOT / "bench" / "middlegames.fen").read_text().splitlines()
    fens += [ln.split(";")[0].strip() for ln in lines if ln.strip() and not ln.startswith("#")][:6]
    entries = search_config().move_stack_entries
    differ = 0
    for fen in fens:
        pos = parse_fen(fen)
        rom.setup(pos)
        for side in (0, 1):
            full = chase_attacks(pos, side)
            for room in (0, 1, 3, 6, 10, 15, 20, 30):
                rom.write("ms_top", [entries - room])
                rom.call("chase_attacks", a=side)
                acc = rom.read("ch_acc_lo", 2)
                want = chase_attacks(pos, side, room)
                assert acc[0] | acc[1] << 8 == want, (fen, side, room)
                differ += want != full
    assert differ >= 10                 # the room changes the answer in some


def test_result_command_line() -> None:
    fen = "5k3/9/7c1/R8/9/9/9/9/9/3K5 w"
    line = "a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7 a8a7".split()
    run = subprocess.run([sys.executable, "-m", "tools.romengine", "result", fen, "--moves", *line],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"result": "0-1", "reason": "Red chased a piece perpetually"}
    run = subprocess.run([sys.executable, "-m", "tools.romengine", "result", fen, "--moves", *line, "h7h8"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("error: move 10 of --moves ('h7h8'): the game is over after move 9")
