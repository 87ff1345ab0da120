"""The perpetual-chase rule (reference_py/chase.py, rules.py) on the suite
tests/data/chase_suite.yaml, against Fairy-Stockfish, plus what the ROM's
form of the rule relies on (a ply's origin recovered from the key ring)."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from reference_py.board import (
    ADVISOR, DIAG, ELEPHANT, KING, ORTHO, PAWN, PAWN_FORWARD, PLAYABLE, SQUARE_FLAGS, move_from, move_to, square,
)
from reference_py.chase import chase_attacks, move_chases, origins, quiet_origin
from reference_py.fen import START_FEN, parse_fen
from reference_py.notation import parse_move
from reference_py.rules import Game
from reference_py.zobrist import ZOBRIST
from tests.chase_oracle import fairy_stockfish, load, ours

ROOT = Path(__file__).resolve().parent.parent
CASES = load()
ENGINE_MD = (ROOT / "docs" / "ENGINE.md").read_text(encoding="utf-8")


def explained_disagreements() -> set[str]:
    """Case ids of docs/ENGINE.md's list of disagreements (bullets "* `id`: ...")."""
    section = ENGINE_MD.split("### Disagreements with Fairy-Stockfish", 1)
    assert len(section) == 2, "docs/ENGINE.md has no 'Disagreements with Fairy-Stockfish' section"
    body = section[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    return set(re.findall(r"^\* `([a-z0-9_]+)`:", body, re.MULTILINE))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_our_verdict_is_the_stored_one_and_comes_at_the_last_move(case):
    game = Game(case["fen"])
    for text in case["moves"][:-1]:
        game.play_text(text)
        assert game.outcome() is None, (case["id"], text)
    assert ours(case["fen"], case["moves"]) == case["ours"]
    assert case["ours"]["result"] != "*"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_fairy_stockfish_verdict_is_the_stored_one(case):
    pytest.importorskip("pyffish")
    assert fairy_stockfish(case["fen"], case["moves"]) == case["fairy_stockfish"]
    assert fairy_stockfish(case["fen"], case["moves"][:-1]) == "*"


def test_the_verdicts_agree_or_the_disagreement_is_explained():
    differ = {c["id"] for c in CASES if c["ours"]["result"] != c["fairy_stockfish"]}
    explained = explained_disagreements()
    assert differ <= explained, f"unexplained disagreements: {sorted(differ - explained)}"
    assert explained <= {c["id"] for c in CASES}, "docs/ENGINE.md explains a case the suite lacks"
    assert explained <= differ, f"explained but agreeing now: {sorted(explained - differ)}"


def test_the_suite_covers_every_verdict():
    results = {c["ours"]["result"] for c in CASES}
    reasons = " ".join(c["ours"]["reason"] for c in CASES)
    assert {"0-1", "1/2-1/2"} <= results
    assert "chased a piece perpetually" in reasons and "perpetual check" in reasons
    assert "three times" in reasons


def test_the_issue_example():
    game = Game("5k3/9/7c1/R8/9/9/9/9/9/3K5 w")
    for text in "a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7".split():
        game.play_text(text)
        assert game.outcome() is None
    game.play_text("a8a7")
    out = game.outcome()
    assert out.winner == 1 and out.reason == "Red chased a piece perpetually"


def test_a_move_chases_what_it_newly_attacks_unprotected():
    pos = parse_fen("5k3/9/7c1/R8/9/9/9/9/9/3K5 w")
    cannon = pos.board[square(7, 7)]
    assert move_chases(pos, parse_move(pos, "a6a7")) == 1 << (cannon & 0x0F)
    assert move_chases(pos, parse_move(pos, "a6a5")) == 0


def test_a_checking_move_chases_nothing():
    # d2f2 attacks the unprotected cannon on f0; with the black king on the
    # f-file it also gives check, and then it chases nothing
    quiet = parse_fen("4k4/9/9/9/9/9/9/3R5/9/3K1c3 w")
    check = parse_fen("5k3/9/9/9/9/9/9/3R5/9/3K1c3 w")
    cannon = quiet.board[square(5, 0)]
    assert move_chases(quiet, parse_move(quiet, "d2f2")) == 1 << (cannon & 0x0F)
    assert move_chases(check, parse_move(check, "d2f2")) == 0


def test_a_king_step_out_of_check_chases_nothing_attacked_before():
    # the black rook on a3 attacks the red cannon on d3 all along (the pawn
    # on d2 cuts the d0 rook's protection); with Black in check from the
    # horse on g6 that capture is illegal, but it is pseudo-legal, so the
    # king's step out of check does not chase the cannon
    pos = parse_fen("9/5k3/9/9/4N4/4P4/r1C6/2p6/9/2RRK4 w")
    for text in "c3d3 c2d2 e5g6".split():
        pos.make(parse_move(pos, text))
    cannon = 1 << (pos.board[square(3, 3)] & 0x0F)
    assert pos.in_check(pos.side)
    assert chase_attacks(pos, pos.side) == 0
    assert chase_attacks(pos, pos.side, pseudo=True) == cannon
    assert move_chases(pos, parse_move(pos, "f8f7")) == 0
    assert move_chases(pos, parse_move(pos, "f8e8")) == 0
    pos.make(parse_move(pos, "f8f7"))
    assert chase_attacks(pos, pos.side ^ 1) == cannon       # attacked after the step too


def test_an_evasion_still_chases_what_it_newly_attacks():
    # the rook takes the checking horse on d7 and from there attacks the
    # unprotected cannon on d3, which it could not reach before
    pos = parse_fen("4k4/9/r2N5/9/9/9/3C5/9/9/3K5 b")
    cannon = 1 << (pos.board[square(3, 3)] & 0x0F)
    assert pos.in_check(pos.side)
    assert move_chases(pos, parse_move(pos, "a7d7")) == cannon


def test_zobrist_origins_are_unique():
    """The ROM keeps only each ply's destination: the origin must be the one
    candidate of origins() whose Zobrist number fits the keys, for every
    piece and destination."""
    for index in range(16):
        if index % 8 == 0:
            continue
        side, kind = index >> 3, index & 7
        z = ZOBRIST[index]
        for to in PLAYABLE:
            for a, b in combinations(origins(kind, side, to), 2):
                assert z[a] != z[b], (side, kind, to, a, b)


def test_zobrist_origins_are_unique_without_the_filters():
    """The cartridge (asm/game/game_chase.s) tries a step piece's origins
    without the palace and half filters of origins(): a king's, advisor's
    or elephant's steps anywhere on the board, a pawn's sideways steps on
    either half.  The Zobrist numbers must differ among those too."""
    steps = {KING: ORTHO, ADVISOR: DIAG, ELEPHANT: tuple(2 * d for d in DIAG)}
    for index in range(16):
        if index % 8 == 0:
            continue
        side, kind = index >> 3, index & 7
        z = ZOBRIST[index]
        for to in PLAYABLE:
            if kind in steps:
                cands = [to - d for d in steps[kind]]
            elif kind == PAWN:
                cands = [to - d for d in (PAWN_FORWARD[side], -1, 1)]
            else:
                cands = origins(kind, side, to)
            cands = [sq for sq in cands if 0 <= sq < len(SQUARE_FLAGS) and SQUARE_FLAGS[sq]]
            assert set(origins(kind, side, to)) <= set(cands)
            for a, b in combinations(cands, 2):
                assert z[a] != z[b], (side, kind, to, a, b)


def test_quiet_origin_recovers_every_quiet_move():
    rng = random.Random(5)
    for _ in range(20):
        game = Game(START_FEN)
        for _ply in range(60):
            moves = game.pos.legal_moves()
            if not moves or game.outcome() is not None:
                break
            m = rng.choice(moves)
            capture = game.pos.is_capture(m)
            before = game.pos.key
            game.play(m)
            if not capture:
                assert quiet_origin(game.pos, move_to(m), before) == move_from(m)
    for case in CASES:
        game = Game(case["fen"])
        for text in case["moves"]:
            before = game.pos.key
            m = game.play_text(text)
            assert quiet_origin(game.pos, move_to(m), before) == move_from(m)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference_py", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_result_command():
    fen = "5k3/9/7c1/R8/9/9/9/9/9/3K5 w"
    line = "a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7 a8a7".split()
    r = run_cli("result", fen, "--moves", *line)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"result": "0-1", "reason": "Red chased a piece perpetually"}
    r = run_cli("result", fen, "--moves", *line[:3])
    assert json.loads(r.stdout) == {"result": "*", "reason": "the game goes on"}
    r = run_cli("result", START_FEN)
    assert json.loads(r.stdout)["result"] == "*"


@pytest.mark.parametrize("args, words", [
    (["result", "5k3/9/7c1/R8/9/9/9/9/9/3K5 w", "--moves", "a6a7", "h7g8"], "move 2 of --moves"),
    (["result", "5k3/9/7c1/R8/9/9/9/9/9/3K5 w", "--moves",
      *"a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7 a8a7 h7h8".split()], "the game is over after move 9"),
    (["result", "5k3/9/7c1/R8/9/9/9/9/9/3K5 x"], "error:"),
])
def test_result_command_refuses_bad_input(args, words):
    r = run_cli(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error:") and words in r.stderr and "Traceback" not in r.stderr
