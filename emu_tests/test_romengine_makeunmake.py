"""make/unmake of the ROM's engine: after every make the state equals the
reference's after the same make, and every unmake restores every byte of
engine state (board, piece lists, counts, side, clock, key, score, eng_mterm,
ply, move-stack top), over whole random games (hypothesis chooses the games).
eng_mterm (the evaluation's count-based terms, recomputed by a capture's
make only) equals a from-scratch computation after random makes and unmakes,
and eng_eval equals reference evaluate() there.

A game is played ENG_PLIES plies at a time (the ROM's undo entries, 10 with
the shipped levels; RomEngine.plies), up to 48 plies in all:
at each node every pseudo-legal move is made and unmade (byte-identical
round trip), then a random legal move is played in both engines (the move
stack keeps one entry per ply); at the end of each block all the plies are
unmade back to its first position, byte for byte.
"""
from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from emu_tests.romengine_positions import suite_fens
from reference_py.config import load_eval
from reference_py import evaluate as reference_eval
from reference_py.evaluate import evaluate, tables_for
from reference_py.fen import parse_fen
from tools.nes.engine import RomEngine, reference_state

SETS = list(load_eval().sets)
FENS = suite_fens()
STATS = {"plies": 0, "moves": 0}
MTERM = {"captures": 0, "unmade": 0, "cycles": []}


@pytest.fixture(scope="module")
def eng() -> RomEngine:
    return RomEngine()


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, len(FENS) - 1), vset=st.integers(0, len(SETS) - 1))
def _walk_games(eng, seed, start, vset):
    """One random game (hypothesis's seed, start position and weight set),
    checked make by make and unmake by unmake; counts into STATS."""
    rng = random.Random(seed)
    ref = parse_fen(FENS[start], tables_for(SETS[vset]).values)
    for _block in range(-(-48 // eng.plies)):    # up to about 48 plies per game
        ref.rebuild()
        eng.load(ref, vset)
        root = eng.raw_state()
        played = []
        for ply in range(eng.plies):
            if ply % 2:                          # check state known (eng_is_legal's fast path) or not
                assert eng.in_check(ref.side) == ref.in_check(ref.side)
            here = eng.raw_state()
            moves = eng.generate()
            assert moves == ref.generate()
            base = here[-2]                      # ms_top before generate
            legal = []
            for i, m in enumerate(moves):
                eng.make(base + i)
                ref.make(m)
                assert eng.state() == reference_state(ref), f"after make {m:04x}"
                assert eng.byte("eng_ply") == ply + 1
                ok = not ref.in_check(ref.side ^ 1)
                assert eng.is_legal() == ok
                if ok:
                    legal.append(base + i)
                ref.unmake()
                eng.unmake()
                after = eng.raw_state()
                assert after[:-2] == here[:-2], f"unmake {m:04x} did not restore the state"
            eng.write("ms_top", [base])
            assert eng.raw_state() == here
            if not legal:
                break
            m = moves[rng.choice(legal) - base]
            eng.write("ms_from", [m & 0xFF], offset=base)   # keep one entry per ply:
            eng.write("ms_to", [m >> 8], offset=base)       # the played move
            eng.write("ms_top", [base + 1])
            eng.make(base)
            ref.make(m)
            played.append(m)
            STATS["plies"] += 1
            STATS["moves"] += len(moves)
            assert eng.state() == reference_state(ref)
        # unmake the whole block: back to its first position, byte for byte
        for m in reversed(played):
            eng.unmake()
            ref.unmake()
        eng.write("ms_top", [0])
        assert eng.raw_state() == root
        if not legal:
            return
        for m in played:                         # replay in the reference, go on from there
            ref.make(m)


def test_make_unmake_round_trips_over_random_games(eng):
    """The games of _walk_games, and they really were games: at least 100
    plies played and 3,000 moves made and unmade in all (one test, so that
    the count and its check run in the same test process)."""
    STATS.update(plies=0, moves=0)
    _walk_games(eng)
    assert STATS["plies"] >= 100, STATS
    assert STATS["moves"] >= 3000, STATS


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, len(FENS) - 1), vset=st.integers(0, len(SETS) - 1))
def test_rebuild_after_moves_equals_reference(eng, seed, start, vset):
    """eng_rebuild after a few moves (captures leave holes in the slot
    lists) gives the reference's canonical Position.rebuild()."""
    rng = random.Random(seed)
    ref = parse_fen(FENS[start], tables_for(SETS[vset]).values)
    eng.load(ref, vset)
    for _ in range(rng.randrange(1, eng.plies)):
        legal = ref.legal_moves()
        if not legal:
            break
        caps = [m for m in legal if ref.board[m >> 8]]
        m = rng.choice(caps or legal)
        eng.write("ms_from", [m & 0xFF])
        eng.write("ms_to", [m >> 8])
        eng.make(0)
        ref.make(m)
    assert eng.state() == reference_state(ref)
    eng.call("eng_rebuild")
    ref.rebuild()
    assert eng.state() == reference_state(ref)
    assert eng.byte("eng_ply") == 0 and eng.byte("ms_top") == 0
    assert eng.generate() == ref.generate()


def count_terms(pos, t) -> int:
    """What eng_mterm holds: the reference's count-based knowledge terms
    (evaluate.count_terms) mod 2^16; 0 for a set without knowledge terms."""
    return reference_eval.count_terms(pos, t) & 0xFFFF if t.knowledge else 0


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, len(FENS) - 1), vset=st.integers(0, len(SETS) - 1))
def _walk_captures(eng, seed, start, vset):
    """A random walk of makes (mostly captures) and unmakes: after every step
    eng_mterm equals the count-based terms of the reference's position and
    what eng_mterm_calc (eng_load's computation) gives from scratch, and
    eng_eval equals reference evaluate(); counts into MTERM."""
    rng = random.Random(seed)
    t = tables_for(SETS[vset])
    ref = parse_fen(FENS[start], t.values)
    ref.rebuild()
    eng.load(ref, vset)

    def check(where):
        mterm = eng.word("eng_mterm")
        assert mterm == count_terms(ref, t), where
        before = eng.raw_state()
        cycles = eng.call("eng_mterm_calc")
        if t.knowledge:
            MTERM["cycles"].append(cycles)
        assert eng.word("eng_mterm") == mterm, f"{where}: eng_mterm_calc from scratch"
        assert eng.raw_state() == before
        eng.call("eng_eval")
        m = eng.cpu.mpu
        got = m.a | (m.x << 8)
        assert got == evaluate(ref, t) & 0xFFFF, f"{where}: eng_eval"

    check("after eng_load")
    ply = 0
    for step in range(60):
        legal = ref.legal_moves() if ply < eng.plies else []
        if legal and (ply == 0 or rng.random() < 0.6):
            caps = [m for m in legal if ref.board[m >> 8]]
            m = rng.choice(caps if caps and rng.random() < 0.8 else legal)
            eng.write("ms_from", [m & 0xFF])
            eng.write("ms_to", [m >> 8])
            eng.make(0)
            ref.make(m)
            ply += 1
            MTERM["captures"] += m in caps
            check(f"step {step}: make {m:04x}")
        elif ply:
            eng.unmake()
            ref.unmake()
            ply -= 1
            MTERM["unmade"] += 1
            check(f"step {step}: unmake")
        else:
            break
    assert eng.byte("eng_ply") == ply


def test_mterm_follows_makes_and_unmakes(eng):
    """The walks of _walk_captures, which made and unmade at least 100
    captures and 100 moves (one test, as above)."""
    MTERM.update(captures=0, unmade=0, cycles=[])
    _walk_captures(eng)
    assert MTERM["captures"] >= 100 and MTERM["unmade"] >= 100, MTERM
    c = MTERM["cycles"] or [0]
    print(f"\neng_mterm_calc cycles (sets with knowledge terms) over {len(c)} calls: min {min(c)}, "
          f"median {statistics.median(c):.0f}, max {max(c)} (call to final RTS)")
