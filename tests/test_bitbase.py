"""The KH vs KE bitbase (config/bitbase_h_e.bin, tools/rom/gen_bitbase.py)
against an independent move generator and engine: Fairy-Stockfish's
(pyffish for the rules, the UCI engine for a few searches).

The retrograde analysis has its own move generator; here every sampled
position's value must follow from pyffish's legal moves and the values
of the positions they reach: with the horse side to move it wins iff some
move reaches a position it wins (or leaves the elephant side without a
legal move); with the elephant side to move, that side is lost iff it has
no legal move or every move reaches a position the horse side wins.
"""
from __future__ import annotations

import random
import shutil

import pytest

from reference_py import bitbase as bb
from reference_py.board import BLACK, HORSE, RED, sq90
from reference_py.fen import FenError, parse_fen
from reference_py.notation import parse_iccs
from emu_tests.endgame_positions import LOSING_MOVES
from tools.rom import gen_bitbase as gen

SAMPLE = 300


@pytest.fixture(scope="module")
def analysis():
    return gen.analyse()


def test_the_committed_file_is_the_analysis(analysis):
    wins, _, khke, _ = analysis
    assert bb.load() == gen.table(wins, khke)


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


def random_fen(rng: random.Random, elephant: bool = True) -> str:
    """A legal position of KH vs KE (or KH vs K), either colour the horse's."""
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
        if elephant:
            f, r = rng.choice(((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)))
            sq = (f, r if att == BLACK else 9 - r)
            if sq in pieces:
                continue
            pieces[sq] = dn("b")
        fen = _fen(pieces, rng.choice((RED, BLACK)))
        try:
            parse_fen(fen)
        except FenError:
            continue
        return fen


def value(fen: str, khk_win) -> bool:
    """Does the horse side win (the bitbase; KH vs K from the analysis; no
    horse: no)?"""
    pos = parse_fen(fen)
    att = bb.is_class(pos.count)
    if att is not None:
        return bb.probe(pos, att)
    horse_side = [s for s in (RED, BLACK) if pos.count[s * 8 + HORSE]]
    if not horse_side:
        return False
    att = horse_side[0]
    d = att ^ 1
    ps = pos.piece_sq
    h = next(ps[16 * att + i] for i in range(1, 16) if ps[16 * att + i])
    state = (int(pos.side == d), sq90(ps[16 * att], d), sq90(ps[16 * d], d), sq90(h, d), gen.NONE)
    return state in khk_win


def test_sampled_positions_agree_with_pyffish(analysis):
    sf = pytest.importorskip("pyffish")
    _, khk_win, _, _ = analysis
    rng = random.Random(20261127)
    fens = [random_fen(rng) for _ in range(SAMPLE)] + [random_fen(rng, elephant=False) for _ in range(SAMPLE // 6)]
    wins = 0
    for fen in fens:
        pos = parse_fen(fen)
        horse_side = RED if pos.count[RED * 8 + HORSE] else BLACK
        moves = sf.legal_moves("xiangqi", fen, [])
        after = [value(sf.get_fen("xiangqi", fen, [m]), khk_win) for m in moves]
        if pos.side == horse_side:
            expect = any(after)
        else:
            expect = all(after)                          # also when there is no legal move
        got = value(fen, khk_win)
        assert got == expect, f"{fen}: the table says {got}, its moves say {expect}"
        wins += got
    assert 0 < wins < len(fens), "the sample has wins and non-wins"


def test_the_suite_endings_losing_moves_are_marked():
    """Each position is drawn and the move makes it lost for the elephant side."""
    for fen, move in LOSING_MOVES:
        pos = parse_fen(fen)
        att = bb.is_class(pos.count)
        assert att is not None and pos.side != att
        assert not bb.probe(pos, att), f"{fen}: drawn"
        pos.make(parse_iccs(pos, move))
        assert bb.probe(pos, att), f"{fen}: lost after {move}"


def _fs():
    from tools.book.engine import Engine
    if shutil.which("/usr/games/fairy-stockfish") is None:
        pytest.skip("Fairy-Stockfish is not installed")
    return Engine()


def test_fairy_stockfish_finds_the_mates_and_no_mate_in_draws():
    """A few positions lost for the elephant side to move: Fairy-Stockfish
    finds a mate against it; a few drawn ones: no mate either way."""
    from tools.book.engine import MATE_CP
    rng = random.Random(7)
    lost, drawn = [], []
    while len(lost) < 4 or len(drawn) < 4:
        fen = random_fen(rng)
        pos = parse_fen(fen)
        att = bb.is_class(pos.count)
        if pos.side == att:
            continue
        (lost if bb.probe(pos, att) else drawn).append(fen)
    eng = _fs()
    try:
        for fen in lost[:4]:
            r = eng.search(fen, 24)
            assert r.score <= -(MATE_CP - 200), f"{fen}: lost, Fairy-Stockfish says {r.score}"
        for fen in drawn[:4]:
            r = eng.search(fen, 16)
            assert abs(r.score) < MATE_CP - 200, f"{fen}: drawn, Fairy-Stockfish says {r.score}"
    finally:
        eng.close()
