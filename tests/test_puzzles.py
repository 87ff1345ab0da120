"""The endgame puzzles' source: config/puzzles.yaml is legal and agrees with
Fairy-Stockfish's checked verdicts (config/puzzles.checked.json); a bad
puzzle file is refused with its file and line; the ROM data generated from
them round-trips to the puzzles' positions."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.endgame_suite import SETTINGS
from reference_py.board import BLACK, RED
from reference_py.fen import parse_fen
from tools.rom.gen_puzzles import (
    CHECKED, FLAG_BLACK_TO_MOVE, FLAG_GOAL_DRAW, FLAG_PLAYER_BLACK, MAX_PUZZLES, NAME_LEN, PuzzleError,
    accepts, load_puzzles, problems, read_checked, records, sources,
)


def test_the_committed_puzzles_are_checked_by_fairy_stockfish():
    puzzles = load_puzzles()
    assert 34 <= len(puzzles) <= MAX_PUZZLES
    assert {p.goal for p in puzzles} == {"win", "draw"} and {p.player for p in puzzles} == {RED, BLACK}
    data = json.loads(CHECKED.read_text(encoding="utf-8"))
    assert data["engine"].startswith("Fairy-Stockfish") and data["settings"] == SETTINGS
    verdicts = read_checked()
    assert problems(puzzles, verdicts) == []
    assert set(verdicts) == {p.fen for p in puzzles}, "the checked file holds exactly the puzzles"
    for p in puzzles:
        v = verdicts[p.fen]
        if p.goal == "win":
            assert v["method"] == "mate" or v["search"]["depth"] >= 20, p.name
        else:
            assert v["verdict"] == "draw", p.name


def test_a_changed_verdict_is_refused():
    p = next(p for p in load_puzzles() if p.goal == "win" and p.limit)
    v = read_checked()[p.fen]
    assert accepts(p, v) is None
    longer = {**v, "search": {**v["search"], "mate": (p.limit + 1) * (1 if v["search"]["mate"] > 0 else -1)}}
    assert "more than the limit" in accepts(p, longer)
    draw = next(p for p in load_puzzles() if p.goal == "draw")
    assert "not a draw" in accepts(draw, {**v, "verdict": "red"})


def test_records_round_trip_to_the_positions():
    puzzles = load_puzzles()
    for p, rec in zip(puzzles, records(puzzles)):
        pos = parse_fen(p.fen)
        flags, limit, clock, n = rec[:4]
        assert bool(flags & FLAG_BLACK_TO_MOVE) == (pos.side == BLACK)
        assert bool(flags & FLAG_PLAYER_BLACK) == (p.player == BLACK)
        assert bool(flags & FLAG_GOAL_DRAW) == (p.goal == "draw")
        assert clock == pos.clock and n == len(pos.pieces()) and len(rec) == 4 + 2 * n
        board = {rec[4 + 2 * i]: rec[5 + 2 * i] for i in range(n)}
        want = {}
        for sq, (side, kind) in pos.pieces().items():
            from reference_py.board import sq90
            want[sq90(sq)] = side * 8 + kind
        assert board == want, p.name
        if p.limit:      # the plies played when the player has made `limit` moves
            first = 1 if pos.side == p.player else 0
            assert limit == 2 * p.limit - first
    const, data = sources(puzzles)
    assert f"PUZ_COUNT        = {len(puzzles)}" in const
    assert data.count("puz_rec_") >= 3 * len(puzzles)


GOOD = """\
- name: Rook v bare king
  fen: "9/5k3/9/6R2/9/9/9/9/3K5/9 w - - 0 1"
  player: red
  goal: win
  limit: 2
"""


@pytest.mark.parametrize("text, line, words", [
    (GOOD.replace("  goal: win\n", ""), 1, "no 'goal'"),
    (GOOD.replace("player: red", "player: blue"), 3, "player must be red or black"),
    (GOOD.replace("goal: win", "goal: mate"), 4, "goal must be win or draw"),
    (GOOD.replace("limit: 2", "limit: 0"), 5, "limit must be a whole number"),
    (GOOD.replace("limit: 2", "limit: two"), 5, "limit must be a whole number"),
    (GOOD.replace("Rook v bare king", "A" * (NAME_LEN + 1)), 1, f"at most {NAME_LEN}"),
    (GOOD.replace("Rook v bare king", "Rook * king"), 1, "can be shown"),
    (GOOD.replace("6R2", "6R3"), 2, "bad FEN"),
    (GOOD.replace("  limit: 2\n", "  limit: 2\n  level: 3\n"), 6, "unknown key 'level'"),
    (GOOD + GOOD, 7, "the same position as line 2"),
    (GOOD + "  pattern: nope\n", 6, "pattern must be one of"),
    (GOOD.replace("  limit: 2\n", "") + "  pattern: double_rooks\n", 5, "a pattern puzzle is a win with a limit"),
    ("- [1, 2]\n", 1, "must be a mapping"),
    ("name: x\n", 1, "must be a list"),
])
def test_bad_puzzle_files_name_the_file_and_line(tmp_path: Path, text, line, words):
    path = tmp_path / "puzzles.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PuzzleError) as exc:
        load_puzzles(path)
    msg = str(exc.value)
    assert msg.startswith(f"{path}:{line}: ") and words in msg and "\n" not in msg, msg


def test_an_unchecked_puzzle_stops_the_build(tmp_path: Path):
    from tools.rom.gen_puzzles import generate
    path = tmp_path / "puzzles.yaml"
    path.write_text(GOOD.replace("6R2", "7R1"), encoding="utf-8")
    with pytest.raises(PuzzleError, match=r"puzzles.yaml:1: puzzle 1 \(Rook v bare king\) is not checked"):
        generate(tmp_path / "gen", path, CHECKED)
    assert not (tmp_path / "gen").exists()
