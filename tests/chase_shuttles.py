"""Random repetition cycles for the chase tests: shuttles (one or two pieces
a side to and fro) from tests/data/chase_suite.yaml's positions and from
random middlegames, ending in a threefold repetition judged by
reference_py.rules (emu_tests/test_game_chase.py, tests/test_ref_search_chase.py,
emu_tests/test_romsearch_chase.py)."""
from __future__ import annotations

import random

from reference_py.board import PAWN, move_from, move_to
from reference_py.chase import move_chases
from reference_py.fen import START_FEN
from reference_py.rules import PERPETUAL_CHASE, Game
from tests.chase_oracle import load

CASES = load()


def build_round(game: Game, rng: random.Random, pieces: int, chaser: int | None) -> list[int] | None:
    """One round of a shuttle from `game`'s position: each side (alternating,
    side to move first) moves `pieces` of its non-pawn pieces out one by
    one, then back in the same order, so the round ends where it began.
    The `chaser` side picks, when it can, moves that chase something
    (reference move_chases), and its ways back must chase too.  None when a
    side has no quiet move to make, a way back is not a legal quiet move or
    the chaser's does not chase."""
    pos = game.pos.copy()
    me = pos.side
    outs: dict[int, list[int]] = {0: [], 1: []}
    line: list[int] = []
    seq = [(s, i) for i in range(pieces) for s in (me, me ^ 1)]
    for s, _i in seq:
        used = {sq for m in outs[s] for sq in (move_from(m), move_to(m))}
        quiet = [m for m in pos.legal_moves() if not pos.is_capture(m)
                 and move_from(m) not in used and move_to(m) not in used
                 and pos.piece_kind[(s << 4) | (pos.board[move_from(m)] & 0x0F)] != PAWN]
        if s == chaser:
            quiet = [m for m in quiet if move_chases(pos, m)] or quiet
        if not quiet:
            return None
        m = rng.choice(quiet)
        outs[s].append(m)
        line.append(m)
        pos.make(m)
    for s, i in seq:
        m = outs[s][i]
        back = move_to(m) | (move_from(m) << 8)
        if back not in pos.legal_moves() or pos.is_capture(back):
            return None
        if s == chaser and not move_chases(pos, back):
            return None
        line.append(back)
        pos.make(back)
    return line


def shuttle_games(seed: int, count: int) -> list[tuple[str, list[int], object]]:
    """`count` games (FEN, moves, the reference's final outcome) that end in
    a threefold repetition reached by shuttling: a few random plies from a
    suite position or from the start (a middlegame), then rounds of one or
    two pieces a side to and fro.  About half of them are picked among the
    reference's perpetual chases, the rest as they come."""
    rng = random.Random(seed)
    out: list[tuple[str, list[int], object]] = []
    chases = 0
    for _try in range(200 * count):
        if len(out) >= count:
            break
        fen = rng.choice([c["fen"] for c in CASES] + [START_FEN] * 3)
        game = Game(fen)
        for _ in range(20 + rng.randrange(20) if fen == START_FEN else rng.randrange(4)):
            moves = game.pos.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.play(rng.choice(moves))
        if game.outcome() is not None:
            continue
        line = build_round(game, rng, 1 + (rng.random() < 0.3), rng.choice((0, 1, None)))
        if not line:
            continue
        for m in line * 3:
            game.play(m)
            if game.outcome() is not None:
                break
        over = game.outcome()
        if over is None or "three times" not in over.reason and PERPETUAL_CHASE not in over.reason:
            continue
        is_chase = PERPETUAL_CHASE in over.reason
        if not is_chase and chases < (len(out) + 1) // 2:
            continue                                    # keep the chases about half
        chases += is_chase
        out.append((fen, game.moves, over))
    return out
