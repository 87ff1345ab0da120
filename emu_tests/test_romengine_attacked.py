"""eng_attacked (asm/engine/eng_attack.s), the square attack test of quiescence's
exchange pruning, against the reference's Position.attacked(sq, by):

* every playable square (empty, own or enemy piece: the search asks about a
  square holding a piece of the attacking side itself, its victim), both
  attacking sides, on 400 seeded positions (random games from the opening
  and the perft suite, endgames included: emu_tests/romengine_positions),
  the 40 middlegames walked randomly, and hand positions that put each
  attacker kind on and just past its limits (palace, half, river, blocked
  legs and eyes, cannon screens, pawns behind, beside and in front);
* the search's use: for every capture of the side to move, the board with
  the capturer's `from` emptied (a rook, cannon or the king behind the
  capturer now reaching `to`: an x-ray), the opponent attacking `to`.

On a square holding a piece of the other side, attacked(sq, by) is also
checked to be "some pseudo-legal capture of `by` lands on sq", and the kinds
of those captures are counted: each kind must be seen as the only attacker.
eng_attacked must change nothing but its locals.
"""
from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from bench.engine_bench import suite_fens
from emu_tests.romengine_positions import positions
from reference_py.board import (ADVISOR, BLACK, CANNON, ELEPHANT, EMPTY, HORSE, KING, KIND_NAMES, PAWN,
                                PLAYABLE, RED, ROOK, SIDE_TAG, file_of, rank_of, square)
from reference_py.position import Position
from reference_py.rules import random_walk
from tools.nes.engine import RomEngine


@pytest.fixture(scope="module")
def eng() -> RomEngine:
    return RomEngine()


def kind_at(pos: Position, sq: int) -> int:
    code = pos.board[sq]
    return pos.piece_kind[(code & 0x0F) | (16 if code & 0x20 else 0)]


def capture_kinds(pos: Position, by: int) -> dict[int, set[int]]:
    """to -> kinds of `by`'s pseudo-legal captures landing there."""
    save = pos.side
    pos.side = by
    try:
        out: dict[int, set[int]] = {}
        for m in pos.generate(captures_only=True):
            out.setdefault(m >> 8, set()).add(kind_at(pos, m & 0xFF))
        return out
    finally:
        pos.side = save


def rom_attacked(eng: RomEngine, sq: int, by: int) -> bool:
    eng.call("eng_attacked", a=by, y=sq)
    return eng.cpu.carry


def compare_squares(eng: RomEngine, pos: Position, seen: Counter, where: str) -> None:
    """Every playable square, both attackers; the position is loaded."""
    before = eng.raw_state()
    for by in (RED, BLACK):
        kinds = capture_kinds(pos, by)
        for sq in PLAYABLE:
            want = pos.attacked(sq, by)
            assert rom_attacked(eng, sq, by) == want, f"{where}: square {sq}, by {by}"
            c = pos.board[sq]
            if c != EMPTY and c & SIDE_TAG[by ^ 1]:
                assert want == (sq in kinds), f"{where}: square {sq}, by {by}"
                if want and len(kinds[sq]) == 1:
                    seen[KIND_NAMES[next(iter(kinds[sq]))]] += 1
            seen[("own" if c != EMPTY and c & SIDE_TAG[by] else "enemy" if c != EMPTY else "empty",
                  want)] += 1
    assert eng.raw_state() == before, f"{where}: eng_attacked changed the position"


def compare_exchanges(eng: RomEngine, pos: Position, seen: Counter, where: str,
                      cycles: list[int] | None = None) -> None:
    """q_node's question for every capture: the board without the capturer,
    the opponent attacking `to` (which holds the opponent's own piece)."""
    by = pos.side ^ 1
    board = eng.addr("board")
    for m in pos.generate(captures_only=True):
        frm, to = m & 0xFF, m >> 8
        before = pos.attacked(to, by)
        code = pos.board[frm]
        pos.board[frm] = EMPTY
        eng.mem[board + frm] = EMPTY
        try:
            want = pos.attacked(to, by)
            assert rom_attacked(eng, to, by) == want, f"{where}: capture {m:04x}"
            if cycles is not None:
                cycles.append(eng.cpu.cycles)
        finally:
            pos.board[frm] = code
            eng.mem[board + frm] = code
        seen["exchange", want] += 1
        if want != before:
            seen["x-ray" if want else "screen gone"] += 1


def mirrored(pieces: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """The same position with the colours swapped and the board turned."""
    return {square(8 - file_of(s), 9 - rank_of(s)): (side ^ 1, kind) for s, (side, kind) in pieces.items()}


def at(name: str) -> int:
    """The square of an ICCS name such as "e4"."""
    return square("abcdefghi".index(name[0]), int(name[1]))


def hand_positions() -> list[Position]:
    """Red's pieces at their limits, Red to move (and the same turned, Black
    to move).  Each is scanned on every square, so every square near a piece
    is asked about:
    inside and outside the palace next to the king and the advisors, on both
    sides of the river for the elephants and the pawns, horse legs free and
    blocked, cannons with no, one and two screens, a rook behind a blocker."""
    R, B = RED, BLACK
    sets = [
        # king and advisors at the palace's edges, an elephant on the river bank
        # (the black pieces: d2 and i2 attacked by an advisor and an elephant
        # alone, g3 outside the palace, e6 across the river)
        {at("d0"): (R, KING), at("e1"): (R, ADVISOR), at("f2"): (R, ADVISOR), at("g4"): (R, ELEPHANT),
         at("c2"): (R, ELEPHANT), at("d3"): (B, PAWN), at("d2"): (B, PAWN), at("g3"): (B, HORSE),
         at("i2"): (B, CANNON), at("e6"): (B, ELEPHANT), at("e9"): (B, KING)},
        # the king in the palace's corner, an advisor at its centre, an elephant
        # with its eyes blocked on two sides
        {at("f2"): (R, KING), at("e1"): (R, ADVISOR), at("e2"): (R, ELEPHANT), at("d3"): (B, HORSE),
         at("f1"): (R, PAWN), at("a4"): (R, ELEPHANT), at("b3"): (B, ROOK), at("d9"): (B, KING)},
        # pawns: before the river (forward only), on the bank, across (sideways too),
        # at the last rank; black pieces around them
        {at("e0"): (R, KING), at("a3"): (R, PAWN), at("c4"): (R, PAWN), at("e5"): (R, PAWN),
         at("g8"): (R, PAWN), at("i9"): (R, PAWN), at("d5"): (B, PAWN), at("e6"): (B, ROOK),
         at("c5"): (B, HORSE), at("f9"): (B, KING)},
        # horses: legs free and blocked, at the board's edge
        {at("d0"): (R, KING), at("e4"): (R, HORSE), at("e5"): (B, PAWN), at("d4"): (R, PAWN),
         at("a9"): (R, HORSE), at("b8"): (B, ADVISOR), at("f8"): (B, KING)},
        # cannons and rooks: no screen, one screen, two screens, a blocked rook
        {at("e0"): (R, KING), at("b2"): (R, CANNON), at("b5"): (B, PAWN), at("b7"): (B, HORSE),
         at("h2"): (R, CANNON), at("h4"): (R, ROOK), at("a7"): (R, ROOK), at("c7"): (B, CANNON),
         at("d9"): (B, KING)},
        # the kings on one open file (the facing kings are ignored: no attack
        # along the file), each king next to squares of the other's palace
        {at("e2"): (R, KING), at("e7"): (B, KING), at("d7"): (R, PAWN), at("f2"): (B, PAWN)},
    ]
    # the capturer leaves `from`: a rook behind it (e4xe5, the rook e3),
    # a horse's leg freed (the advisor e1xd2, the horse f1), a cannon's
    # second screen gone (the rook e5xe3, the cannon e9 over e7), the
    # capturer as the only screen (the rook e7xe4: the cannon e9 no longer
    # reaches e4)
    sets += [
        {at("d0"): (R, KING), at("d5"): (R, PAWN), at("e5"): (B, PAWN), at("e4"): (R, ROOK),
         at("e3"): (B, ROOK), at("f9"): (B, KING)},
        {at("d0"): (R, KING), at("e1"): (R, ADVISOR), at("d2"): (B, PAWN), at("f1"): (B, HORSE),
         at("e9"): (B, KING)},
        {at("d0"): (R, KING), at("e9"): (B, CANNON), at("e7"): (B, PAWN), at("e5"): (R, ROOK),
         at("e3"): (B, HORSE), at("f9"): (B, KING)},
        {at("d0"): (R, KING), at("e9"): (B, CANNON), at("e7"): (R, ROOK), at("e4"): (B, HORSE),
         at("f9"): (B, KING)},
    ]
    out = []
    for pieces in sets:
        for p, side in ((pieces, RED), (mirrored(pieces), BLACK)):
            pos = Position()
            pos.set_pieces(p, side)
            out.append(pos)
    return out


def test_attacked_on_seeded_and_hand_positions(eng):
    seen = Counter()
    cases = hand_positions() + positions(400, seed=77)
    for n, pos in enumerate(cases):
        eng.load(pos)
        compare_squares(eng, pos, seen, f"position {n}")
        compare_exchanges(eng, pos, seen, f"position {n}")
    for kind in ("king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"):
        assert seen[kind] >= 2, (kind, seen)
    for what in ("own", "enemy", "empty"):
        assert seen[what, True] >= 100 and seen[what, False] >= 100, (what, seen)
    assert seen["x-ray"] >= 6 and seen["screen gone"] >= 2, seen


def test_attacked_on_walked_middlegames(eng):
    """Also eng_attacked's cost on q_node's questions (pytest -s prints it;
    docs/ROM_ENGINE.md, "The attack test"); the bounds catch a slowdown."""
    rng = random.Random(2026)
    seen = Counter()
    cycles: list[int] = []
    for n, fen in enumerate(suite_fens()):
        for plies in [0] + [rng.randrange(1, 100) for _ in range(5)]:
            pos = random_walk(fen, plies, rng)
            eng.load(pos)
            compare_squares(eng, pos, seen, f"middlegame {n} + {plies}")
            compare_exchanges(eng, pos, seen, f"middlegame {n} + {plies}", cycles)
    assert seen["exchange", True] >= 250 and seen["exchange", False] >= 250, seen   # 334, 378
    assert seen["x-ray"] >= 5 and seen["screen gone"] >= 5, seen                   # 9, 7
    print(f"\neng_attacked on {len(cycles)} captures' targets: cycles min {min(cycles)}, "
          f"median {statistics.median(cycles):.0f}, mean {statistics.mean(cycles):.0f}, max {max(cycles)}")
    assert statistics.median(cycles) <= 350 and max(cycles) <= 800
