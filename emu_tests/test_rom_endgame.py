"""The endgame terms (reference_py/endgame.py; asm/engine/eng_endgame.s) in
the ROM equal the reference's: the class the ROM computes in eng_bare, the
evaluation and the lazy test e >= T on seeded positions with a bare side
(emu_tests/endgame_positions.py), and whole searches at every level from
positions in and next to the endgame class, so that the search crosses
into it and out of it through captures.  The guards of tools/nes are active (stack
floor, undocumented opcodes, out-of-map accesses)."""
from __future__ import annotations

import dataclasses
import statistics

import pytest

from bench.endgame_suite import load_suite
from emu_tests.endgame_positions import LOSING_MOVES, endgame_positions, horse_positions
from reference_py.bitbase import H_AA, is_class, probe
from reference_py.board import HORSE, PAWN
from reference_py.config import load_eval
from reference_py.endgame import adjust, bare_side, defence, strong_class
from reference_py.evaluate import evaluate, tables_for
from reference_py.fen import parse_fen
from reference_py.position import KIND_RANGES
from reference_py.search import levels
from tools.nes.search import RomSearch, reference_search

SETS = list(load_eval().sets)
POSITIONS = endgame_positions(380)
BITBASE_POSITIONS = {men: horse_positions(men, 300) for men in ("E", "AA")}
LEVELS = [lv.name for lv in levels()]
HORSE_SLOTS = tuple(dict(KIND_RANGES)[HORSE])
PAWN_SLOTS = tuple(dict(KIND_RANGES)[PAWN])


@pytest.fixture(scope="module")
def rs() -> RomSearch:
    return RomSearch()


def _loaded(pos, set_name):
    t = tables_for(set_name)
    p = pos.copy()
    p.rebuild()
    p.set_values(t.values)
    return p, t


def _expected_bare(pos, t) -> int:
    """eng_bare as asm/engine/eng_endgame.s documents it, from the reference
    (0: eng_eval_endgame does not run)."""
    if t.endgame is None:
        return 0
    bare = bare_side(pos.count)
    if bare is None:
        return 0
    if bare == 2:
        return 0x80 | 0x20 | t.endgame.both_bare
    strong = bare ^ 1
    shift = t.endgame.scale[strong_class(pos.count, strong)][defence(pos.count, bare)]
    cls = is_class(pos.count)
    bitbase = 0 if cls is None else 0x18 if cls[1] is H_AA else 0x10          # EG_BITBASE, EG_BITBASE_AA
    return 0x80 | (0x40 if strong else 0) | bitbase | shift


def test_the_positions_cover_every_class():
    t = tables_for("full")
    seen = {(bare_side(p.count), strong_class(p.count, bare_side(p.count) ^ 1) if bare_side(p.count) in (0, 1)
             else None) for p in POSITIONS}
    rows = {c for b, c in seen if b in (0, 1)}
    assert rows == set(range(len(t.endgame.scale))), rows
    assert (2, None) in seen and (None, None) in seen


@pytest.mark.parametrize("set_name", SETS)
def test_eval_and_class_equal_reference(rs, set_name):
    cycles, bad = [], []
    for i, pos in enumerate(POSITIONS):
        p, t = _loaded(pos, set_name)
        want = evaluate(p, t)
        rs.write("eng_bare", [0x5A])
        got, c = rs.eval(p, set_name)
        cls = rs.read("eng_bare", 1)[0]
        # eng_eval_endgame writes the class; other evaluations leave it
        want_cls = _expected_bare(p, t) or 0x5A
        if (got, cls) != (want, want_cls):
            bad.append((i, want, got, want_cls, cls))
        cycles.append(c)
    print(f"\neng_eval [{set_name}] with a bare side: cycles min {min(cycles)}, "
          f"median {statistics.median(cycles):.0f}, max {max(cycles)}")
    assert not bad, f"{len(bad)} mismatches (index, reference, rom, class, rom class): {bad[:5]}"


def test_the_terms_change_the_evaluation():
    """The full set's endgame terms are not a no-op on these positions: the
    evaluation without them, adjusted, is the evaluation with them."""
    t = tables_for("full")
    plain_tables = dataclasses.replace(t, endgame=None)
    changed = 0
    for pos in POSITIONS:
        p, _ = _loaded(pos, "full")
        plain = evaluate(p, plain_tables)
        with_terms = evaluate(p, t)
        changed += with_terms != plain
        assert with_terms == adjust(plain, p, t.endgame, HORSE_SLOTS, PAWN_SLOTS)
    assert changed > len(POSITIONS) // 2


@pytest.mark.parametrize("set_name", SETS)
def test_lazy_eval_with_a_bare_side(rs, set_name):
    for i, pos in enumerate(POSITIONS[::3]):
        p, t = _loaded(pos, set_name)
        want = evaluate(p, t)
        rs.load(p, rs.sets.index(set_name))
        for off in (-32000, -50, -1, 0, 1, 50, 32000):
            threshold = off if abs(off) > 1000 else want + off
            ge, got, _ = rs.eval_ge(p, set_name, threshold, load=False)
            assert ge == (want >= threshold), f"position {i}, T = e {off:+}"
            if not ge:
                assert got == want


@pytest.mark.parametrize("level", LEVELS)
def test_searches_equal_reference(rs, level):
    """Move, score, nodes, depth and PV at every level: 12 positions at the
    weaker levels, 6 at the stronger (py65 time)."""
    picks = POSITIONS[:12] if level in LEVELS[:3] else POSITIONS[:30:5]
    for i, pos in enumerate(picks):
        want = reference_search(pos, level)
        got = rs.search(pos, level)
        assert {k: got[k] for k in want} == want, f"position {i} ({level})"


def _bare_to_move_draws() -> list[str]:
    """The drawn endings of bench/endgames.yaml with the bare side to move."""
    out = []
    for eg in load_suite():
        p = parse_fen(eg.fen)
        if eg.result == "draw" and bare_side(p.count) in (p.side, 2):
            out.append(eg.fen)
    return out


def test_bare_side_searches_equal_reference(rs):
    """Master's bare block (depth 8, qdepth 2) in the ROM: its own row of the
    level tables, switched to by eng_search.  Move, score, nodes, depth and
    PV equal the reference's on the suite's drawn endings with the bare side
    to move, each within 30 s of NES time."""
    fens = _bare_to_move_draws()
    assert len(fens) >= 20
    deeper = 0
    for fen in fens:
        want = reference_search(parse_fen(fen), "Master")
        got = rs.search(parse_fen(fen), "Master")
        assert {k: got[k] for k in want} == want, fen
        assert got["seconds"] < 30, fen
        deeper += want["depth"] > levels()[-1].depth
    assert deeper >= len(fens) // 2


@pytest.mark.parametrize("men", ["E", "AA"])
@pytest.mark.parametrize("set_name", SETS)
def test_bitbase_eval_equals_reference(rs, set_name, men):
    """A bitbase's class, KH vs KE or KH vs KAA (eng_bitbase.s: the probe in
    the bitbase's bank): 300 positions, either colour the horse's, either
    side to move; the evaluation, the class byte and the lazy test e >= T;
    the bank mapped after the probe is the engine's."""
    wins = draws = 0
    cycles = []
    for i, pos in enumerate(BITBASE_POSITIONS[men]):
        p, t = _loaded(pos, set_name)
        want = evaluate(p, t)
        got, c = rs.eval(p, set_name)
        cls = rs.read("eng_bare", 1)[0]
        assert (got, cls) == (want, _expected_bare(p, t) or cls), f"position {i}"
        assert rs.cpu.bank == rs.link.bank_of("eng_search"), "the engine's bank is mapped again"
        cycles.append(c)
        if t.endgame is not None:
            wins += want != 0
            draws += want == 0
        if i % 5 == 0:
            for off in (-1, 0, 1):
                ge, got_ge, _ = rs.eval_ge(p, set_name, want + off, load=False)
                assert ge == (want >= want + off), f"position {i}, T = e {off:+}"
    if tables_for(set_name).endgame is not None:
        assert wins >= 5 and draws > 20, (wins, draws)   # KH vs KAA: about 3% of random positions are won
    print(f"\neng_eval [{set_name}] KH vs K{men}: cycles min {min(cycles)}, median {statistics.median(cycles):.0f}, "
          f"max {max(cycles)}")


def _suite_fens(cls: str) -> list[str]:
    return [eg.fen for eg in load_suite() if eg.cls == cls]


@pytest.mark.parametrize("level", ["Hard", "Master"])
def test_bitbase_searches_equal_reference(rs, level):
    """The suite's KH vs KE and KH vs KAA endings, each side to move, and the
    two positions of endgame_positions.LOSING_MOVES where the elephant side
    has a move into a lost position: move, score, nodes, depth and PV equal
    the reference's, and the search does not choose that move."""
    fens = _suite_fens("H_vs_E") + _suite_fens("H_vs_AA")
    assert len(fens) == 8
    for fen, losing in LOSING_MOVES:
        want = reference_search(parse_fen(fen), level)
        got = rs.search(parse_fen(fen), level)
        assert {k: got[k] for k in want} == want, f"{fen} ({level})"
        assert got["move"] != losing, f"{fen} ({level})"
    for fen in fens:
        for side in ("w", "b"):
            f = fen.replace(" w ", f" {side} ").replace(" b ", f" {side} ")
            try:
                pos = parse_fen(f)
            except Exception:
                continue
            want = reference_search(pos, level)
            got = rs.search(pos, level)
            assert {k: got[k] for k in want} == want, f"{f} ({level})"


@pytest.mark.parametrize("men", ["E", "AA"])
def test_bb_probe_maps_the_callers_bank_back(rs, men):
    """bb_probe from a bank other than the engine's (the UI's): the verdict
    equals the reference's bitbase and the caller's bank is mapped again,
    with bank_cur naming it."""
    ui = rs.link.bank_of("main")
    lookup = "bbaa_lookup" if men == "AA" else "bbe_lookup"
    assert ui != rs.link.bank_of(lookup)
    bonus = tables_for("full").endgame.bitbase_win
    cycles = []
    for pos in BITBASE_POSITIONS[men][:40]:
        att, table = is_class(pos.count)
        rs.load(pos, rs.sets.index("full"))
        rs.write("eng_bare", [0x80 | (0x40 if att else 0) | (0x18 if men == "AA" else 0x10)])
        rs.write("local", [0x34, 0x12])
        cycles.append(rs.call("bb_probe", bank=ui))
        want = probe(pos, att, table)
        got = rs.word("local")
        assert got == ((0x1234 + (bonus if pos.side == att else -bonus)) if want else 0)
        assert rs.cpu.bank == ui and rs.read("bank_cur", 1)[0] == ui
    print(f"\nbb_probe KH vs K{men}: cycles min {min(cycles)}, median {statistics.median(cycles):.0f}, max {max(cycles)}")
