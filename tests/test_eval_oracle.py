"""The reference evaluation against an independent oracle and its own properties.

Until these, eval values were only ever compared ROM against reference, and
both read the same generated tables: a mistake in the shared path (a sign,
a turned table, a term's weight) was invisible.  Here:
  * tests/eval_oracle.py, written from docs/ENGINE.md and the YAML alone,
    must agree with reference_py.evaluate on hand-made and random positions
    (the ROM equals the reference: emu_tests/test_romsearch_eval.py);
  * a few values are worked out by hand below, to keep the oracle honest;
  * properties: the colour flip keeps the side to move's eval, the mirror
    keeps it (the tables are symmetric), the incremental score equals a
    fresh one, and one YAML weight changed by one moves the eval by exactly
    that weight's share.
"""
from __future__ import annotations

import copy
import random

import pytest
import yaml

from emu_tests.endgame_positions import endgame_positions, horse_positions
from reference_py.config import load_eval
from reference_py.evaluate import build_tables, evaluate, tables_for
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.rules import random_walk
from tests import eval_oracle
from tests.fen_transforms import colour_flip, mirror

SETS = list(load_eval().sets)

HAND = [
    START_FEN,
    "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1",
    "4k4/9/9/9/4c4/9/4R4/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4C4/4K1c2 b - - 0 1",
    "4k4/9/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/c2AK4 w - - 0 1",
    "3aka3/4n4/9/7N1/9/9/9/9/9/3K5 w - - 0 1",
    "9/5k3/4ba3/9/9/9/9/9/2R2K3/3R5 w - - 0 1",
    "1R1a5/9/3a1k3/9/1P7/9/9/9/9/4K4 w - - 0 1",
    "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 3 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1",
    "2bakab2/9/4c4/p3p3p/2n6/6N2/P3P3P/4C4/4A4/2B1KAB2 w - - 0 1",
    "4kab2/4a4/4b4/9/2p1R4/9/9/4B4/9/3AKA3 b - - 0 1",
    "3k5/4P4/9/9/9/9/9/9/9/5K3 b - - 0 1",
    "4k4/4a4/9/9/9/9/9/9/3R1R3/4K4 b - - 0 1",
    "5k3/9/9/6N2/4R4/9/9/9/9/3K5 b - - 0 1",
    "3akab2/9/9/9/9/9/9/p8/9/R2K5 w - - 119 1",
    "2ba1k3/4a4/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1",
    "3k5/9/3P5/9/9/9/9/9/3R5/4K4 w - - 0 1",
    "C3k4/9/4b4/9/9/9/9/9/9/4K4 w - - 0 1",
    "4k4/9/9/9/9/2n1n4/9/9/9/3K5 b - - 0 1",
]


def _ref(fen: str, set_name: str) -> int:
    pos = parse_fen(fen)
    t = tables_for(set_name)
    pos.set_values(t.values)
    return evaluate(pos, t)


def _random_fens(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [format_fen(random_walk(START_FEN, rng.randrange(0, 160), rng)) for _ in range(count)]


@pytest.mark.parametrize("set_name", SETS)
@pytest.mark.parametrize("fen", HAND)
def test_reference_equals_the_oracle_on_hand_made_positions(fen, set_name):
    assert _ref(fen, set_name) == eval_oracle.evaluate(fen, set_name)


@pytest.mark.parametrize("set_name", SETS)
def test_reference_equals_the_oracle_on_random_positions(set_name):
    for fen in _random_fens(2024, 100):
        assert _ref(fen, set_name) == eval_oracle.evaluate(fen, set_name), fen


def test_hand_computed_values():
    """Worked out by hand from config/eval.yaml (material, the PST rows, tempo 6)."""
    cfg = eval_oracle.load()
    assert cfg["material"]["rook"] == 270 and cfg["sets"]["basic"]["tempo"] == 6
    # Red: king e0 (pst rank 0 e: 6), rook a1 (rook row for rank 1, file a: 3).
    # Black: king d9, seen turned: rank 0 file f from Black's side (3).
    # basic: 270 + 3 + 6 - 3 = 276, Red to move: + tempo 6 = 282.
    assert _ref("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "basic") == 282
    # The same with Black to move: -276 + 6 = -270.
    assert _ref("3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1", "basic") == -270
    # full adds the knowledge terms: n = 3 pieces; Black has 2 missing
    # advisors x 1 enemy rook x -10 = -20 (Black's term, so +20 for Red);
    # Black also misses 2 elephants but Red has no cannon; Red misses both
    # advisors and elephants but Black has no rook or cannon; no rook on
    # d (the black king's file): 276 + 20 = 296 for Red.  Black is bare
    # (no rook, horse, cannon or pawn), so the endgame terms follow: Red's
    # drive is king_mobility for Black's king's 2 free squares (d8 and e9:
    # in its palace, empty, attacked by no red piece; the facing kings are
    # not considered) = 40, + king_centre (Red's king is on e) 12 = 52; a
    # lone rook against a bare king shifts by 0.  Red to move: 296 + 6 + 52
    # = 354; Black to move: -296 + 6 - 52 = -342.
    assert _ref("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "full") == 354
    assert _ref("3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1", "full") == -342
    # A lone cannon with no advisor of its own cannot mate: shift 3.
    # basic terms: cannon 135 + pst (c1: row rank 1, file c: 3) + king e0 6,
    # Black's king d9 3: 135 + 3 + 6 - 3 = 141; full adds Black's missing
    # elephants x Red's cannon x -8 = -16 for Black (+16), Red's cannon
    # dynamic (32 - 3) * -6 >> 2 = -44, giving 141 + 16 - 44 = 113; + tempo
    # 6 + drive 52 = 171, >> 3 = 21.
    assert _ref("3k5/9/9/9/9/9/9/9/2C6/4K4 w - - 0 1", "full") == 21
    # The start position is symmetric: only the tempo is left.
    assert _ref(START_FEN, "basic") == 6 and _ref(START_FEN, "full") == 6


@pytest.mark.parametrize("set_name", SETS)
def test_reference_equals_the_oracle_with_a_bare_side(set_name):
    """The endgame terms (a bare side: every row of the scale table, both
    sides bare, a side one capture from bare) against the oracle's own
    reading of docs/ENGINE.md "Endgames", with its own attack test."""
    for pos in endgame_positions(240, seed=7):
        fen = format_fen(pos)
        assert _ref(fen, set_name) == eval_oracle.evaluate(fen, set_name), fen


@pytest.mark.parametrize("men", ["E", "AA"])
def test_reference_equals_the_oracle_in_the_bitbases(men):
    """The bitbases' classes (king + horse against king + one elephant or
    two advisors): the oracle reads config/bitbase_h_e.bin and
    config/bitbase_h_aa.bin by the index docs/ENGINE.md gives; the sample
    holds both wins and draws."""
    wins = 0
    for pos in horse_positions(men, 300, seed=11):
        fen = format_fen(pos)
        e = _ref(fen, "full")
        assert e == eval_oracle.evaluate(fen, "full"), fen
        wins += e != 0
    assert 5 <= wins < 290, wins          # KH vs KAA: about 3% of random positions are won


def test_reference_equals_the_oracle_with_lopsided_tables(tmp_path):
    """The shipped tables are symmetric left to right, which would hide a
    table that is flipped for Black where it must be turned: with every PST
    entry moved by its file, the reference must still equal the oracle."""
    raw = copy.deepcopy(eval_oracle.load())
    for rows in raw["pst"].values():
        for row in rows:
            row[:] = [v + f for f, v in enumerate(row)]
    path = tmp_path / "eval.yaml"
    path.write_text(yaml.safe_dump(raw))
    cfg = load_eval(path)
    for s in SETS:
        t = build_tables(cfg, cfg.sets[s])
        for fen in HAND + _random_fens(31, 40):
            pos = parse_fen(fen)
            pos.set_values(t.values)
            assert evaluate(pos, t) == eval_oracle.evaluate(fen, s, raw), (s, fen)


@pytest.mark.parametrize("set_name", SETS)
def test_colour_flip_keeps_the_side_to_moves_eval(set_name):
    for fen in HAND + _random_fens(7, 60):
        assert _ref(colour_flip(fen), set_name) == _ref(fen, set_name), fen


def test_tables_are_symmetric_left_to_right():
    """The premise of the mirror property below."""
    for kind, rows in eval_oracle.load()["pst"].items():
        for row in rows:
            assert row == row[::-1], kind


@pytest.mark.parametrize("set_name", SETS)
def test_mirror_keeps_the_eval(set_name):
    for fen in HAND + _random_fens(8, 60):
        assert _ref(mirror(fen), set_name) == _ref(fen, set_name), fen


@pytest.mark.parametrize("set_name", SETS)
def test_incremental_score_equals_a_fresh_one(set_name):
    t = tables_for(set_name)
    rng = random.Random(11)
    for _ in range(6):
        pos = parse_fen(START_FEN)
        pos.set_values(t.values)
        for _ply in range(rng.randrange(40, 100)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.make(rng.choice(moves))
            fresh = parse_fen(format_fen(pos))
            fresh.set_values(t.values)
            assert pos.score == fresh.score
            assert evaluate(pos, t) == evaluate(fresh, t) == eval_oracle.evaluate(format_fen(pos), set_name)
        while pos.undo:                                  # and back: unmake restores every score
            pos.unmake()
        start = parse_fen(START_FEN)
        start.set_values(t.values)
        assert pos.score == start.score


def _with(raw: dict, path: tuple, delta: int) -> dict:
    """A copy of the YAML's data with the number at `path` moved by `delta`."""
    cfg = copy.deepcopy(raw)
    node = cfg
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] += delta
    return cfg


def _eval_under(cfg_raw: dict, set_name: str, fen: str, tmp_path) -> int:
    path = tmp_path / "eval.yaml"
    path.write_text(yaml.safe_dump(cfg_raw))
    cfg = load_eval(path)
    t = build_tables(cfg, cfg.sets[set_name])
    pos = parse_fen(fen)
    pos.set_values(t.values)
    return evaluate(pos, t)


SHARE_FENS = HAND[10:14] + _random_fens(99, 6)


@pytest.mark.parametrize("fen", SHARE_FENS)
def test_one_weight_moves_the_eval_by_exactly_its_share(fen, tmp_path):
    raw = eval_oracle.load()
    pieces, to_move = eval_oracle.parse(fen)
    stm = 1 if to_move == "red" else -1

    def n(colour, kind):
        return sum(1 for p in pieces.values() if p == (colour, kind))

    base = {s: _eval_under(raw, s, fen, tmp_path) for s in SETS}
    for kind in ("advisor", "elephant", "horse", "rook", "cannon", "pawn"):
        share = stm * (n("red", kind) - n("black", kind))
        for s in SETS:
            assert _eval_under(_with(raw, ("material", kind), 1), s, fen, tmp_path) - base[s] == share, kind
    # one PST entry: +1 on the square of some red piece (as Red sees it) and
    # on the turned square for Black: each piece of that kind there counts
    def pst_share(kind, row, col):
        return stm * sum((1 if c == "red" else -1) for (pf, pr), (c, k) in pieces.items() if k == kind and (
            (c == "red" and (9 - pr, pf) == (row, col)) or (c == "black" and (pr, 8 - pf) == (row, col))))
    # the first piece (in square order) whose table entry does not cancel out
    kind, row, col, share = next((k, 9 - r, f, pst_share(k, 9 - r, f))
                                 for (f, r), (c, k) in sorted(pieces.items()) if pst_share(k, 9 - r, f))
    assert share != 0
    for s in SETS:
        pst_on = raw["sets"][s]["pst"]
        got = _eval_under(_with(raw, ("pst", kind, row, col), 1), s, fen, tmp_path) - base[s]
        assert got == (share if pst_on else 0), (kind, row, col)
    # tempo: exactly +1 for the side to move's eval
    for s in SETS:
        assert _eval_under(_with(raw, ("sets", s, "tempo"), 1), s, fen, tmp_path) - base[s] == 1
    # rook on the king's file: +1 per rook on the enemy king's file
    kings = {c: sq for sq, (c, k) in pieces.items() if k == "king"}
    on_file = sum((1 if c == "red" else -1) for (pf, pr), (c, k) in pieces.items()
                  if k == "rook" and (other := kings.get("black" if c == "red" else "red")) and other[0] == pf)
    assert _eval_under(_with(raw, ("sets", "full", "rook_on_king_file"), 1), "full", fen, tmp_path) \
        - base["full"] == stm * on_file
