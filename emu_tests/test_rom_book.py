"""The ROM's opening book (asm/book/book_probe.s, data by tools/rom/gen_book.py)
against reference_py/book.py, which specifies it: the same record for every
book position (in both orientations), nothing for positions out of the book,
the same seeded choice and LFSR state, the level's book depth, and the
search's answer with its "book" field.

The reference's book is itself checked against config/book.yaml and
Fairy-Stockfish by tools/book (tests/test_book_data.py); here the question
is only whether the cartridge finds and picks what the reference does.
"""
from __future__ import annotations

import random

import pytest

from reference_py import book as B
from reference_py.board import square
from reference_py.fen import format_fen, parse_fen
from reference_py.position import Position
from reference_py.search import LFSR_DEFAULT
from tools.nes.search import RomSearch, reference_search

BOOK = B.default_book()
pytestmark = pytest.mark.skipif(BOOK is None or not BOOK.entries, reason="no book data (config/book.checked.json)")
ENTRIES = sorted(BOOK.entries.values(), key=lambda e: e.fen) if BOOK else []


@pytest.fixture(scope="module")
def rs(rom_path) -> RomSearch:
    return RomSearch(rom_path, rom_path.with_suffix(".map.json"), build=False)


def mirrored(pos: Position) -> Position:
    return parse_fen(B.mirror_fen(format_fen(pos)))


def test_every_book_position_in_both_orientations(rs):
    """book_locate + candidate (the ROM's data and code) list what
    reference book.probe_json lists, for every position and its mirror."""
    bad = []
    for e in ENTRIES:
        for pos in (parse_fen(e.fen), mirrored(parse_fen(e.fen))):
            got, want = rs.book(pos), B.probe_json(BOOK, pos)
            if got != want:
                bad.append(f"{format_fen(pos)}: ROM {got} != reference {want}")
    assert not bad, f"{len(bad)} of {2 * len(ENTRIES)}:\n" + "\n".join(bad[:10])


def out_of_book(n: int, seed: int = 7) -> list[Position]:
    """Positions one move off the book (a legal move that is no book move),
    and a few random walks from them: the probe must find nothing."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        e = rng.choice(ENTRIES)
        pos = parse_fen(e.fen)
        for _ in range(1 + rng.randrange(3)):
            legal = pos.legal_moves()
            if not legal:
                break
            pos.make(rng.choice(legal))
        if BOOK.find(pos) is None:
            out.append(parse_fen(format_fen(pos)))
    return out


def test_positions_out_of_the_book(rs):
    bad = [format_fen(p) for p in out_of_book(500) if rs.book(p) != {"name": None, "moves": []}]
    assert not bad, f"{len(bad)} found in the ROM's book: {bad[:5]}"


def probe(rs: RomSearch, pos: Position, plies: int, seed: int) -> tuple:
    """book_probe on pos: (from, to, opening + 1, LFSR state) or (None, LFSR state)."""
    rs.load(pos)
    rs.write("s_lfsr", [seed & 0xFF, seed >> 8])
    rs.write("s_res_book", [0])
    rs.call("book_probe", a=plies)
    lfsr = rs.word("s_lfsr")
    if not rs.cpu.carry:
        return None, lfsr
    return (rs.cpu.mpu.a | rs.cpu.mpu.x << 8, rs.byte("s_res_book")), lfsr


def reference_probe(pos: Position, plies: int, seed: int) -> tuple:
    state = [seed or LFSR_DEFAULT]

    def step() -> int:
        x = state[0]
        x = (x >> 1) ^ (0xB400 if x & 1 else 0)
        state[0] = x
        return x

    found = BOOK.moves(pos)
    if found is None or found[0].depth >= plies:
        return None, state[0]
    for _ in range(B.BOOK_LFSR_STEPS):
        r = step()
    return (B.choose(found[1], r), found[0].opening + 1), state[0]


def test_seeded_choice_and_lfsr(rs):
    """The pick by weight and the LFSR state after it, every book position
    (either orientation, a seed of its own)."""
    rng = random.Random(11)
    bad = []
    for e in ENTRIES:
        pos = parse_fen(e.fen)
        if rng.random() < 0.5:
            pos = mirrored(pos)
        seed = rng.randrange(1, 1 << 16)
        got, want = probe(rs, pos, 255, seed), reference_probe(pos, 255, seed)
        if got != want:
            bad.append(f"{format_fen(pos)} seed {seed}: ROM {got} != reference {want}")
    assert not bad, f"{len(bad)}:\n" + "\n".join(bad[:10])


def test_the_levels_book_depth(rs):
    """A position at book depth d is played from the book by a level with
    more than d plies of book, searched by one with d or fewer (the LFSR
    untouched then)."""
    rng = random.Random(5)
    for e in rng.sample(ENTRIES, 150):
        pos = parse_fen(e.fen)
        for plies in (e.depth, e.depth + 1):
            got, want = probe(rs, pos, plies, 0x1234), reference_probe(pos, plies, 0x1234)
            assert got == want, (e.fen, plies, got, want)
            assert (got[0] is None) == (plies <= e.depth)


@pytest.mark.parametrize("level", ["Novice", "Medium", "Master"])
def test_search_answers_from_the_book(rs, level):
    """eng_search's answer equals the reference search's, "book" included,
    in book positions of every depth (a level with fewer book plies searches
    the deeper ones) and from the start with several seeds."""
    rng = random.Random(level)
    cases = [(B.START_FEN, s) for s in (1, 2, 3, 99, 0xBEEF)]
    cases += [(e.fen, rng.randrange(1 << 16)) for e in rng.sample([e for e in ENTRIES if e.depth < 6], 6)]
    for fen, seed in cases:
        pos = parse_fen(fen)
        got = rs.search(pos.copy(), level, seed)
        want = reference_search(pos, level, seed)
        assert {k: got[k] for k in want} == want, (fen, seed)


def test_a_book_move_that_is_not_legal_is_searched(rs):
    """root_legal accepts a legal root move and refuses an illegal one (a
    key that collided: the search runs)."""
    pos = parse_fen(B.START_FEN)
    rs.load(pos)
    rs.call("eng_gen")
    legal = pos.legal_moves()[0]
    rs.call("root_legal", a=legal & 0xFF, x=legal >> 8)
    assert rs.cpu.carry and rs.byte("s_res_pvlen") == 1
    rs.load(pos)
    rs.call("eng_gen")
    rs.call("root_legal", a=square(4, 0), x=square(4, 2))        # the king two squares up
    assert not rs.cpu.carry
