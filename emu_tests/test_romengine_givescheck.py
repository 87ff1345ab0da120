"""The search's two shortcuts around the full in-check test (asm/engine/eng_attack.s):

* eng_gives_check, after a make: is the side now to move in check?  It
  reads only the squares the move changed (`from`, `to`), which is exact
  when that side was not in check before the move: true at every position
  below a search's root.  It must equal the full test (eng_in_check with
  A = eng_side, and the reference's in_check) after every legal move, and
  leave eng_chk as that test does.  A root move (eng_ply = 1) runs the full
  test, because eng_load accepts a position whose side not to move is in
  check (parse_fen rejects it).
* eng_quiet_safe, before a quiet move is made at a node not in check: C = 0
  exactly when the move is legal, gives no check and is not a king move,
  both for moves that touch neither king (decided from the squares alone)
  and for the others (tested on the board), and it changes nothing.

Positions: the 520 seeded positions of the move generation tests, each
followed for a few random plies in both engines (so every tested move is
made below the root, at eng_ply >= 1, as in a search).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from emu_tests.romengine_positions import positions
from reference_py.board import BLACK, HORSE, KING, PAWN, PLAYABLE, RED, ROOK, WIDTH, file_of, rank_of, square
from reference_py.position import Position
from tools.nes.engine import RomEngine

PLIES = 4                 # positions tested per seeded position (random plies after it)
DIAGONAL = (WIDTH + 1, WIDTH - 1, -WIDTH + 1, -WIDTH - 1)
# square - king square -> the horse's leg (square - king square), for the 8 horse squares
HORSE_LEG = {2 * WIDTH + 1: WIDTH + 1, WIDTH + 2: WIDTH + 1, 2 * WIDTH - 1: WIDTH - 1, WIDTH - 2: WIDTH - 1,
             -2 * WIDTH + 1: -WIDTH + 1, -WIDTH + 2: -WIDTH + 1, -2 * WIDTH - 1: -WIDTH - 1,
             -WIDTH - 2: -WIDTH - 1}


@pytest.fixture(scope="module")
def eng() -> RomEngine:
    return RomEngine()


@pytest.fixture(scope="module")
def cases() -> list[Position]:
    return positions(520, seed=2024)


def kind_at(pos: Position, sq: int) -> int:
    """The kind of the piece on sq (occupied)."""
    code = pos.board[sq]
    return pos.piece_kind[(code & 0x0F) | (16 if code & 0x20 else 0)]


def on_lines(sq: int, king: int) -> bool:
    """Is sq on the king's file or rank (where a ray test reads it)?"""
    return file_of(sq) == file_of(king) or rank_of(sq) == rank_of(king)


def how_it_checks(pos: Position, frm: int, to: int) -> str:
    """After a checking move (made in pos): which part of the fast test sees
    it (for the coverage counts: each part must be exercised)."""
    king = pos.piece_sq[pos.side << 4]
    kind = kind_at(pos, to)
    if kind == HORSE and to - king in HORSE_LEG:
        return "horse lands"
    if kind == PAWN and to - king in (1, -1, WIDTH if pos.side == RED else -WIDTH):
        return "pawn lands"
    if frm - king in DIAGONAL:
        return "horse leg freed"
    if on_lines(frm, king):
        return "line through from"
    if on_lines(to, king):
        return "line through to"
    return "none"


def gives_check(eng: RomEngine) -> tuple[bool, int]:
    """eng_gives_check's C and the eng_chk it leaves."""
    eng.call("eng_gives_check")
    return eng.cpu.carry, eng.byte("eng_chk")


def touches_a_king(pos: Position, frm: int, to: int) -> bool:
    """eng_quiet_safe's first stage (its header): does the move touch a
    king's lines, a diagonal neighbour (`from`), or land a horse on a horse
    square of the enemy king with its leg empty?  Only for the coverage
    counts: both stages must be exercised."""
    own, enemy = pos.piece_sq[pos.side << 4], pos.piece_sq[(pos.side ^ 1) << 4]
    for king in (own, enemy):
        if on_lines(frm, king) or on_lines(to, king) or frm - king in DIAGONAL:
            return True
    leg = HORSE_LEG.get(to - enemy)
    return kind_at(pos, frm) == HORSE and leg is not None and pos.board[enemy + leg] == 0


def walk(eng: RomEngine, start: Position, rng: random.Random) -> Iterator[tuple[Position, int]]:
    """Loads start and plays PLIES random legal moves in both engines (the
    search's way: make, eng_is_legal, eng_gives_check); yields the
    reference position and the move-stack base of its list after each."""
    ref = start.copy()
    ref.rebuild()
    eng.load(ref)
    eng.in_check(ref.side)                        # the root's check state, known (eng_is_legal's fast path)
    for _ in range(PLIES):
        legal = ref.legal_moves()
        if not legal:
            return
        m = rng.choice(legal)
        base = eng.byte("ms_top")
        eng.write("ms_from", [m & 0xFF], offset=base)
        eng.write("ms_to", [m >> 8], offset=base)
        eng.write("ms_top", [base + 1])
        eng.make(base)
        ref.make(m)
        assert eng.is_legal()
        # the played move: the root's (eng_ply = 1: the full test) or below it
        assert gives_check(eng) == (ref.in_check(ref.side), int(ref.in_check(ref.side)))
        yield ref, eng.byte("ms_top")


def compare_moves(eng: RomEngine, ref: Position, base: int, seen: Counter, where: str) -> None:
    """Every legal move of the position at eng_ply >= 1: eng_gives_check
    equals the reference's and the full test's answer, eng_chk included."""
    moves = eng.generate()
    assert moves == ref.generate(), where
    node_chk = eng.byte("eng_chk")
    for i, m in enumerate(moves):
        eng.make(base + i)
        ref.make(m)
        if eng.is_legal():
            want = ref.in_check(ref.side)
            got, chk = gives_check(eng)
            assert (got, chk) == (want, int(want)), f"{where}: move {m:04x}"
            eng.call("eng_in_check", a=ref.side)      # the full test agrees
            assert eng.cpu.carry == want, where
            seen["legal moves"] += 1
            if want:
                seen[how_it_checks(ref, m & 0xFF, m >> 8)] += 1
        ref.unmake()
        eng.unmake()
        assert eng.byte("eng_chk") == node_chk, where
    eng.write("ms_top", [base])


def leg_positions() -> list[Position]:
    """For each king, diagonal and horse square: the king in its palace's
    centre, an enemy horse on that square and an enemy rook on the leg, the
    enemy to move; every rook move off the leg gives check (rare in random
    games, so written out: every case on the board, for both kings)."""
    out = []
    for checked in (RED, BLACK):
        king = square(4, 1 if checked == RED else 8)
        for d in DIAGONAL:
            for h, leg in HORSE_LEG.items():
                if leg != d or king + h not in PLAYABLE:
                    continue
                pos = Position()
                pos.set_pieces({king: (checked, KING), square(3, 9 if checked == RED else 0): (checked ^ 1, KING),
                                king + d: (checked ^ 1, ROOK), king + h: (checked ^ 1, HORSE)}, checked ^ 1)
                assert not pos.in_check(checked) and not pos.in_check(checked ^ 1)
                out.append(pos)
    return out


def test_gives_check_equals_the_full_test(eng, cases):
    rng = random.Random(5)
    seen = Counter()
    for n, start in enumerate(cases):
        for ref, base in walk(eng, start, rng):
            compare_moves(eng, ref, base, seen, f"position {n}, ply {eng.byte('eng_ply')}")
    assert seen["legal moves"] >= 30000, seen   # about 34,000
    for part in ("horse lands", "pawn lands", "horse leg freed", "line through from", "line through to"):
        assert seen[part] >= 10, (part, seen)
    assert seen["none"] == 0, seen


def test_gives_check_when_a_horse_leg_is_freed(eng):
    """The leg positions, searched from eng_ply = 1 as if a move had led
    there (each is legal: neither side in check, so the fast path's
    precondition holds).  12 of the 16 cases per king pair: the two horse
    squares two ranks behind each king are off the board."""
    count = 0
    for n, ref in enumerate(leg_positions()):
        seen = Counter()
        eng.load(ref)
        eng.write("eng_ply", [1])
        eng.in_check(ref.side)
        compare_moves(eng, ref, 0, seen, f"leg position {n}")
        assert seen["horse leg freed"] >= 2, (n, seen)
        count += 1
    assert count == 12


def test_a_root_move_runs_the_full_test(eng):
    """Red to move while Black's king is already attacked (a rook on its
    file): parse_fen refuses this, eng_load does not.  After a root move
    eng_gives_check must still say "in check"; the fast path alone (forced
    here by starting one ply deeper) would not, which is why the root runs
    the full test."""
    pos = Position()
    pos.set_pieces({square(3, 0): (RED, KING), square(4, 1): (RED, ROOK), square(0, 3): (RED, PAWN),
                    square(4, 9): (BLACK, KING)}, RED)
    assert pos.in_check(BLACK)
    fast_wrong = 0
    for ply in (0, 1):
        eng.load(pos)
        eng.write("eng_ply", [ply])
        eng.in_check(RED)
        moves = eng.generate()
        for i, m in enumerate(moves):
            eng.make(i)
            pos.make(m)
            if eng.is_legal():
                got, _ = gives_check(eng)
                if ply == 0:
                    assert got == pos.in_check(BLACK), f"move {m:04x}"
                else:
                    fast_wrong += got != pos.in_check(BLACK)
            pos.unmake()
            eng.unmake()
    assert fast_wrong > 0


def test_quiet_safe_decides_exactly_and_changes_nothing(eng, cases):
    """C = 0 exactly for the quiet moves that are legal, give no check and
    are not king moves, at every node not in check along the walks."""
    rng = random.Random(6)
    seen = Counter()
    for n, start in enumerate(cases):
        for ref, base in walk(eng, start, rng):
            if ref.in_check(ref.side):
                continue                              # futility never applies in check
            where = f"position {n}, ply {eng.byte('eng_ply')}"
            moves = eng.generate()
            for i, m in enumerate(moves):
                frm, to = m & 0xFF, m >> 8
                if ref.board[to]:
                    continue                          # captures are never pruned
                eng.write("eng_chk", [0xFF if i % 2 else 0])   # not in check: known, or not (a null move's child)
                before = eng.raw_state()
                eng.call("eng_quiet_safe", y=base + i)
                safe = not eng.cpu.carry
                assert eng.raw_state() == before, f"{where}: move {m:04x} changed the position"
                king = frm == ref.piece_sq[ref.side << 4]
                touches = touches_a_king(ref, frm, to)
                ref.make(m)
                legal = not ref.in_check(ref.side ^ 1)
                check = legal and ref.in_check(ref.side)
                ref.unmake()
                assert safe == (legal and not check and not king), f"{where}: move {m:04x}"
                seen[("touches" if touches else "clear", "king" if king else "illegal" if not legal
                      else "check" if check else "pruned")] += 1
            eng.write("ms_top", [base])
    assert seen["clear", "pruned"] >= 10000, seen      # about 13,600
    assert not any(seen["clear", what] for what in ("illegal", "check", "king")), seen
    for what in ("pruned", "illegal", "check", "king"):
        assert seen["touches", what] >= 100, (what, seen)
