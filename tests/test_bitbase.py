"""The horse bitbases (config/bitbase_h_e.bin, config/bitbase_h_aa.bin;
tools/rom/gen_bitbase.py) against an independent move generator and
engine: Fairy-Stockfish's (pyffish for the rules, the UCI engine for a
few searches).

The retrograde analysis has its own move generator; here every sampled
position's value must follow from pyffish's legal moves and the values
of the positions they reach: with the horse side to move it wins iff some
move reaches a position it wins (or leaves the defender without a legal
move); with the defender to move, that side is lost iff it has no legal
move or every move reaches a position the horse side wins.
"""
from __future__ import annotations

import random
import shutil

import pytest

from reference_py import bitbase as bb
from reference_py.board import ADVISOR, BLACK, ELEPHANT, HORSE, RED, sq90
from reference_py.fen import FenError, parse_fen
from reference_py.notation import parse_iccs
from reference_py.position import KIND_RANGES
from emu_tests.endgame_positions import LOSING_MOVES
from tools.rom import gen_bitbase as gen

SAMPLE = 300
MATE_PLIES = 15         # the lost positions Fairy-Stockfish is asked to mate (at depth 24)
MEN = {"E": ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)),
       "A": ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))}


@pytest.mark.parametrize("table", bb.BITBASES, ids=lambda t: t.name)
def test_the_committed_file_is_the_analysis(table):
    assert table.load() == gen.table(table, *gen.analyse(gen.bitbase_material(table)))


def _fen(pieces: dict[tuple[int, int], str], side: int) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            c = pieces.get((f, rank))
            if c is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + c
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if side == RED else " b") + " - - 0 1"


def random_fen(rng: random.Random, men: str = "E") -> str:
    """A legal position of king + horse against king + `men` (letters of
    MEN, the defender's, in its own half), either colour the horse's."""
    while True:
        att = rng.choice((RED, BLACK))
        up = str.upper if att == RED else str.lower
        dn = str.lower if att == RED else str.upper
        a_ranks = (0, 1, 2) if att == RED else (7, 8, 9)
        d_ranks = (7, 8, 9) if att == RED else (0, 1, 2)
        pieces = {(rng.randint(3, 5), rng.choice(a_ranks)): up("k")}
        sq = (rng.randint(3, 5), rng.choice(d_ranks))
        if sq in pieces:
            continue
        pieces[sq] = dn("k")
        sq = (rng.randint(0, 8), rng.randint(0, 9))
        if sq in pieces:
            continue
        pieces[sq] = up("n")
        ok = True
        for man in men:
            f, r = rng.choice(MEN[man])
            sq = (f, r if att == BLACK else 9 - r)
            if sq in pieces:
                ok = False
                break
            pieces[sq] = dn("b" if man == "E" else "a")
        if not ok:
            continue
        fen = _fen(pieces, rng.choice((RED, BLACK)))
        try:
            parse_fen(fen)
        except FenError:
            continue
        return fen


def state_of(fen: str) -> gen.State | None:
    """The analysis's state of a position with the horse (None without)."""
    pos = parse_fen(fen)
    horse_side = [s for s in (RED, BLACK) if pos.count[s * 8 + HORSE]]
    if not horse_side:
        return None
    att = horse_side[0]
    d = att ^ 1
    ps = pos.piece_sq
    h = next(ps[16 * att + i] for i in range(1, 16) if ps[16 * att + i])
    men = tuple(sorted((kind, sq90(ps[16 * d + i], d)) for kind, slots in KIND_RANGES
                       if kind in (ADVISOR, ELEPHANT) for i in slots if ps[16 * d + i]))
    return int(pos.side == d), sq90(ps[16 * att], d), sq90(ps[16 * d], d), sq90(h, d), men


def value(fen: str) -> bool:
    """Does the horse side win?  The bitbase in its classes, else the
    analysis of the class (KH vs KA, KH vs K; without the horse: no)."""
    pos = parse_fen(fen)
    cls = bb.is_class(pos.count)
    if cls is not None:
        return bb.probe(pos, *cls)
    state = state_of(fen)
    return state is not None and state in gen.analyse(gen.material(state))[0]


@pytest.mark.parametrize("men", ["E", "AA", "A"])
def test_sampled_positions_agree_with_pyffish(men):
    """KH vs KE and KH vs KAA (the bitbases) and KH vs KA (the analysis their
    captures reach), with KH vs K mixed in."""
    sf = pytest.importorskip("pyffish")
    rng = random.Random(20261127)
    fens = [random_fen(rng, men) for _ in range(SAMPLE)] + [random_fen(rng, "") for _ in range(SAMPLE // 6)]
    wins = 0
    for fen in fens:
        pos = parse_fen(fen)
        horse_side = RED if pos.count[RED * 8 + HORSE] else BLACK
        moves = sf.legal_moves("xiangqi", fen, [])
        after = [value(sf.get_fen("xiangqi", fen, [m])) for m in moves]
        if pos.side == horse_side:
            expect = any(after)
        else:
            expect = all(after)                          # also when there is no legal move
        got = value(fen)
        assert got == expect, f"{fen}: the table says {got}, its moves say {expect}"
        wins += got
    assert 0 < wins < len(fens), "the sample has wins and non-wins"


def test_the_suite_endings_losing_moves_are_marked():
    """Each position is drawn and the move makes it lost for the elephant side."""
    for fen, move in LOSING_MOVES:
        pos = parse_fen(fen)
        att, table = bb.is_class(pos.count)
        assert pos.side != att
        assert not bb.probe(pos, att, table), f"{fen}: drawn"
        pos.make(parse_iccs(pos, move))
        assert bb.probe(pos, att, table), f"{fen}: lost after {move}"


def _fs():
    from tools.book.engine import Engine
    if shutil.which("/usr/games/fairy-stockfish") is None:
        pytest.skip("Fairy-Stockfish is not installed")
    return Engine()


@pytest.mark.parametrize("men", ["E", "AA"])
def test_fairy_stockfish_finds_the_mates_and_no_mate_in_draws(men):
    """A few won positions, the mate 3 to MATE_PLIES plies away by the
    analysis, either side to move (in KH vs KAA every position lost for the
    advisors to move is mate or stalemate already or 30 plies or more from
    it, so those have the horse side to move): Fairy-Stockfish finds the
    mate for the horse side; a few drawn ones: no mate either way."""
    from tools.book.engine import MATE_CP
    rng = random.Random(7)
    won, drawn = [], []
    while len(won) < 4 or len(drawn) < 4:
        fen = random_fen(rng, men)
        pos = parse_fen(fen)
        att, table = bb.is_class(pos.count)
        if not bb.probe(pos, att, table):
            if pos.side != att:
                drawn.append(fen)
        elif 3 <= gen.analyse(gen.bitbase_material(table))[0][state_of(fen)] <= MATE_PLIES:
            won.append((fen, 1 if pos.side == att else -1))
    eng = _fs()
    try:
        for fen, sign in won[:4]:
            r = eng.search(fen, 24)
            assert sign * r.score >= MATE_CP - 200, f"{fen}: won for the horse side, Fairy-Stockfish says {r.score}"
        for fen in drawn[:4]:
            r = eng.search(fen, 16)
            assert abs(r.score) < MATE_CP - 200, f"{fen}: drawn, Fairy-Stockfish says {r.score}"
    finally:
        eng.close()
