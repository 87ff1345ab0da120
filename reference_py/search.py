"""Iterative-deepening alpha-beta with quiescence and the history heuristic.

This is the executable specification of the ROM's search (docs/ENGINE.md,
"Search").  It is written the way the 6502 runs it: 8-bit ordering keys,
an 8-bit history table of 3 x 90 entries, two killers per ply, 16-bit
scores, a node counter that stops the search at the level's cap, and a
16-bit Galois LFSR for the weaker levels' noise.  Python integers never
overflow here because every score is bounded well inside 16 bits; the
bounds are listed in docs/ENGINE.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from dataclasses import replace
from typing import Callable, Collection

from .board import CANNON, EMPTY, HORSE, ROOK, move_iccs, sq90
from .chase import cycle_chases, ring_cycle
from .book import Book, book_move, default_book
from .endgame import bare_side
from .config import Level, Pruning, SearchConfig, load_eval, load_levels, load_search
from .evaluate import EvalTables, evaluate, tables_for
from .position import Position
from .rules import DRAW_PLIES, GAME_WINDOW

MATE = 30000
INF = 32000
MATE_BOUND = MATE - 100          # |score| above this is a mate score
MAX_PLY = 16                     # per-ply arrays: depth <= 8 and qdepth <= 8 by config, so no node
                                 # sits deeper than depth + qdepth <= MAX_PLY
KILLER_PLIES = 4                 # killers are kept and used only at plies below this
PV_PLIES = 4                     # the PV is kept to this many moves (rows of plies below it)
HISTORY_CLASSES = 3              # rook, cannon, everything else
HISTORY_SIZE = HISTORY_CLASSES * 90
KEY_PV = 255
KEY_CAPTURE = 128                # + 16 * victim rank - attacker rank (MVV-LVA)
KEY_KILLER1 = 127
KEY_KILLER2 = 126
KEY_QUIET = 0                    # a quiet move's placeholder until the quiet moves are keyed
LFSR_TAPS = 0xB400
LFSR_DEFAULT = 0xACE1
NULL_REDUCTION = 2
LMR_MIN_DEPTH = 3
LMR_MIN_MOVES = 3
STOP_POLL_MASK = 63              # should_stop() is asked every 64 nodes (a host's stop, not the ROM's)


HISTORY_CLASS_OF = tuple({ROOK: 0, CANNON: 1}.get(kind, 2) for kind in range(8))


def history_class(kind: int) -> int:
    return HISTORY_CLASS_OF[kind]


@lru_cache(maxsize=None)
def search_config() -> SearchConfig:
    return load_search()


@lru_cache(maxsize=None)
def material_values() -> list[int]:
    material = load_eval().material
    return [0] + [material[k] for k in range(1, 8)]


@lru_cache(maxsize=None)
def levels() -> tuple[Level, ...]:
    return tuple(load_levels())


def level_by_name(name: str) -> Level:
    for lv in levels():
        if lv.name.lower() == name.lower():
            return lv
    raise KeyError(name)


@dataclass
class SearchResult:
    move: int | None
    score: int
    nodes: int
    depth: int
    pv: list[int] = field(default_factory=list)
    max_stack: int = 0
    overflows: int = 0
    book: str | None = None      # the opening's name when the move came from the book

    def as_json(self) -> dict:
        return {"move": move_iccs(self.move) if self.move else None, "score": self.score,
                "nodes": self.nodes, "depth": self.depth, "pv": [move_iccs(m) for m in self.pv],
                "book": self.book}


class Searcher:
    """One search of one position.  All tables start from a defined state."""

    def __init__(self, pos: Position, level: Level, seed: int = 0,
                 history: bool | None = None, killers: bool | None = None,
                 null: bool = True, delta: bool = True, lmr: bool = True,
                 pruning: Pruning | None = None, lazy: bool = True,
                 should_stop: Callable[[], bool] | None = None,
                 on_iteration: Callable[[SearchResult], None] | None = None,
                 exclude: Collection[int] = (), book: Book | None | bool = True) -> None:
        """The hooks are for hosts that drive the search interactively (the
        UCI/UCCI adapters, reference_py/protocol): `should_stop()` is asked
        every 64 nodes and, when true, ends the search as the node cap does
        (docs/ENGINE.md "Nodes"); `on_iteration(result)` hears
        every completed iteration; `exclude` lists root moves not to play
        (UCCI's banmoves).  Without them the search is the specification.
        `book`: the opening book (True: the project's, config/book.checked.json;
        None or False: none), used while the level's `book` plies allow."""
        self.pos = pos
        self.level = level
        self.tables: EvalTables = tables_for(level.eval)
        self.cfg = search_config()
        self.should_stop = should_stop
        self.on_iteration = on_iteration
        self.exclude = frozenset(exclude)
        self.book: Book | None = default_book() if book is True else (book or None)
        self.use_history = level.history if history is None else history
        self.use_killers = level.killers if killers is None else killers
        self.use_null = null
        self.use_lmr = lmr
        self.use_delta = delta
        # Lazy quiet keys (docs/ENGINE.md "Move ordering keys"); False = the
        # eager rule, every key at generation (for comparisons in bench/).
        self.lazy = lazy
        # Forward pruning (config/search.yaml `pruning:`; the ROM implements futility, RFP
        # and quiescence exchange pruning).
        self.pr: Pruning = self.cfg.pruning if pruning is None else pruning
        self.pruned = 0          # moves skipped by futility, LMP or exchange pruning (no node counted)
        self.qnodes = 0          # nodes counted in quiescence
        self.static_evals = 0    # extra static evals made only for pruning decisions
        self.chase_judged = 0    # repetitions judged by the chase rule (no perpetual-check verdict)
        # The root's static evaluation is above 0 (set by run()): one earlier
        # occurrence in the game's past is then a repetition (_draw_score).
        self.root_ahead = False
        self.material = material_values()
        self.hist = [0] * HISTORY_SIZE
        self.killers = [[0, 0] for _ in range(KILLER_PLIES)]   # plies >= KILLER_PLIES have none
        self.pv: list[list[int]] = [[] for _ in range(MAX_PLY + 1)]
        self.prev_pv: list[int] = []
        self.nodes = 0
        self.aborted = False
        seed &= 0xFFFF
        self.lfsr = seed if seed else LFSR_DEFAULT
        self.root_best = 0
        self.root_score = 0      # root_best's score (the root's alpha)
        self.stack = 0           # move-stack entries in use (the ROM's capacity check)
        self.max_stack = 0
        self.overflows = 0
        self.victim = [0] + [self.cfg.victim_rank[k] for k in range(1, 8)]
        self.attacker = [0] + [self.cfg.attacker_rank[k] for k in range(1, 8)]

    # ---- helpers --------------------------------------------------------
    def lfsr_state(self) -> int:
        """One LFSR step; the whole 16-bit state (the book's draw)."""
        self.lfsr_next()
        return self.lfsr

    def lfsr_next(self) -> int:
        x = self.lfsr
        lsb = x & 1
        x >>= 1
        if lsb:
            x ^= LFSR_TAPS
        self.lfsr = x
        return x & 0xFF

    def eval(self) -> int:
        e = evaluate(self.pos, self.tables)
        mask = self.level.noise
        if mask:
            e += (self.lfsr_next() & mask) - ((mask + 1) >> 1)
        return e

    def _kind_at(self, sq: int) -> int:
        code = self.pos.board[sq]
        return self.pos.piece_kind[(code & 0x0F) | (16 if code & 0x20 else 0)]

    def _hist_index(self, move: int) -> int:
        frm, to = move & 0xFF, move >> 8
        return HISTORY_CLASS_OF[self._kind_at(frm)] * 90 + sq90(to, self.pos.side)

    def _key(self, move: int, ply: int, pv_move: int, quiet_order: bool) -> int:
        """The full ordering key of a move (docs/ENGINE.md "Move ordering keys")."""
        if move == pv_move:
            return KEY_PV
        to = move >> 8
        if self.pos.board[to] != EMPTY:
            return self._capture_key(move)
        return self._quiet_key(move, ply, quiet_order)

    def _capture_key(self, move: int) -> int:
        """MVV-LVA: 128 + 16 * victim rank - attacker rank, 138..207."""
        return KEY_CAPTURE + 16 * self.victim[self._kind_at(move >> 8)] - self.attacker[self._kind_at(move & 0xFF)]

    def _quiet_key(self, move: int, ply: int, quiet_order: bool) -> int:
        """A quiet move's key (killers of this ply, then history), 0..127."""
        if quiet_order and self.use_killers and ply < KILLER_PLIES:
            k = self.killers[ply]
            if move == k[0]:
                return KEY_KILLER1
            if move == k[1]:
                return KEY_KILLER2
        if self.use_history:
            return min(self.hist[self._hist_index(move)] >> 1, KEY_KILLER2 - 1)
        return 0

    def _gen_key(self, move: int, pv_move: int) -> int:
        """The key a move gets at generation: PV and captures for real, quiet moves KEY_QUIET.

        Most lists end (a cutoff) before any quiet move is tried, so the quiet
        moves are keyed only when a pick first needs them (_pick_lazy); with
        lazy=False (the eager rule, for comparisons) every key is final here.
        """
        if move == pv_move:
            return KEY_PV
        if self.pos.board[move >> 8] != EMPTY:
            return self._capture_key(move)
        return KEY_QUIET

    def _keys(self, moves: list[int], ply: int, pv_move: int, quiet_order: bool) -> list[int]:
        """The keys of a freshly generated list (lazy: quiet moves at KEY_QUIET)."""
        if self.lazy:
            return [self._gen_key(m, pv_move) for m in moves]
        return [self._key(m, ply, pv_move, quiet_order) for m in moves]

    def _reward(self, move: int, depth: int, ply: int, killer: bool) -> None:
        """A quiet move that cut off (killer and history) or was best (history)."""
        if killer and self.use_killers and ply < KILLER_PLIES:
            k = self.killers[ply]
            if move != k[0]:
                k[1] = k[0]
                k[0] = move
        if self.use_history:
            idx = self._hist_index(move)
            bonus = self.cfg.history_bonus[min(depth, 8) - 1]
            if self.hist[idx] + bonus > 255:
                self.hist = [h >> 1 for h in self.hist]
            self.hist[idx] += bonus

    @staticmethod
    def _scan(keys: list[int], i: int) -> int:
        """The index of the highest key of keys[i:] (the first one wins ties)."""
        best = i
        bk = keys[i]
        for j in range(i + 1, len(keys)):
            if keys[j] > bk:
                best, bk = j, keys[j]
        return best

    def _pick_lazy(self, moves: list[int], keys: list[int], i: int, ply: int, quiet_order: bool) -> int:
        """Selection step: bring the highest key of moves[i:] to i (first wins ties).

        Lazy quiet keys: when the highest key left is below KEY_CAPTURE (no
        capture and no PV move is left, only quiet moves at KEY_QUIET) and the
        quiet moves have not been keyed yet, key every move left now, with the
        killers and the history table as they are at this moment, and scan again.
        "Not keyed yet" is read off the list as the ROM does: this is the first
        pick (i = 0) or the previous pick was a capture or the PV move (key >=
        KEY_CAPTURE); after the quiet moves are keyed every pick is quiet (< 128).

        Exchange ordering (main search, `order_exchange`): before that, a capture
        the scan finds highest that fails the exchange test (_losing_exchange)
        gets KEY_QUIET and the scan runs again; so the quiet moves' keying keys
        it too, as the quiet move it is treated as (killers, history), and it
        is picked among them.  Each capture is tested at most once, when it is
        first the highest key left.
        """
        best = self._scan(keys, i)
        gap = self.pr.order_exchange
        while (quiet_order and gap and KEY_CAPTURE <= keys[best] < KEY_PV
               and self._losing_exchange(moves[best], gap)):
            # Exchange ordering: a capture that probably loses the capturer is
            # keyed with the quiet moves (KEY_QUIET now, its quiet key below).
            keys[best] = KEY_QUIET
            best = self._scan(keys, i)
        if self.lazy and keys[best] < KEY_CAPTURE and (i == 0 or keys[i - 1] >= KEY_CAPTURE):
            for j in range(i, len(moves)):
                keys[j] = self._quiet_key(moves[j], ply, quiet_order)
            best = self._scan(keys, i)
        if best != i:
            moves[i], moves[best] = moves[best], moves[i]
            keys[i], keys[best] = keys[best], keys[i]
        return moves[i]

    def _losing_exchange(self, move: int, gap: int) -> bool:
        """The exchange test of quiescence's exchange pruning (docs/ENGINE.md,
        "Quiescence"; gap `qs_exchange`) and of the main search's exchange
        ordering (gap `order_exchange`, a reference-only experiment:
        bench/results/exchange_ordering.md).

        True when the capturing piece is worth at least `gap` more
        than its victim (`material` of their kinds) and the opponent could move to
        the target square once the capturer has left its own: the capture
        probably loses material.  Decided
        before make (the board with `from` emptied attacks `to` exactly as
        the board after the move does), so it costs no make/unmake; legality
        is not needed, since outside check quiescence never counts legal
        moves.
        """
        pos = self.pos
        frm, to = move & 0xFF, move >> 8
        if not gap or self.material[self._kind_at(frm)] - self.material[self._kind_at(to)] < gap:
            return False
        code = pos.board[frm]
        pos.board[frm] = EMPTY
        hit = pos.attacked(to, pos.side ^ 1)
        pos.board[frm] = code
        return hit

    def _draw_score(self, ply: int) -> int | None:
        """The game's end rules at a node below the root (ply >= 1), in the
        game's order (docs/ENGINE.md, "Game rules"): a repetition, then the
        60-move rule, which is a draw only when the side to move has a legal
        move: a mate on the 120th ply wins, as in the game.  None when
        neither applies.

        A repetition counts once when the earlier occurrence lies on the
        search path (k < ply: the side that repeated chose to).  An earlier
        occurrence at or before the root is the game's past: there the
        position must have occurred twice before (the game's third
        occurrence; the side to move need not repeat a second one), unless
        the root's side is ahead (root_ahead): then one is enough, so that
        it does not return to positions of the game but makes progress.
        The cycle judged is the shortest, k."""
        pos = self.pos
        clock = pos.clock
        keys, checks = pos.keys, pos.checks
        n = len(keys) - 1
        k = 4
        first = 0                # an earlier occurrence at or before the root
        while k <= clock and k <= n:
            if keys[n - k] == keys[n]:
                if not first and k >= ply and not self.root_ahead:
                    first = k
                    k += 2
                    continue
                k = first or k
                opp_all = all(checks[n - j] for j in range(0, k, 2))
                stm_all = all(checks[n - j] for j in range(1, k, 2))
                if opp_all and not stm_all:
                    return self.cfg.perpetual_check
                if stm_all and not opp_all:
                    return -self.cfg.perpetual_check
                if opp_all and stm_all:
                    return 0
                return self._chase_score(n, k)
            k += 2
        if clock >= DRAW_PLIES:
            return self._move_limit_score(ply)
        return None

    def _chase_score(self, n: int, k: int) -> int:
        """A repetition of the last `k` plies (position n of the history)
        that neither side checked all through, judged like the game's
        perpetual-chase rule (chase.cycle_chases): +perpetual_chase when the
        side that just moved chased perpetually and the side to move did
        not, the converse -perpetual_chase, else 0.  The cycle's moves come
        from the history's keys and destinations as the ROM recovers them
        (chase.ring_cycle; none recovered: 0), and the chase-attack sets'
        capture lists go on the move stack above this node's base (those
        that do not fit are empty, as in the ROM)."""
        pos = self.pos
        self.chase_judged += 1
        keys = pos.keys
        off = len(pos.dests) - len(keys)
        dests = [pos.dests[i + off] if 0 <= i + off < len(pos.dests) else 0 for i in range(n + 1)]
        try:
            cycle = ring_cycle(pos, keys, dests, k)
        except ValueError:
            return 0
        chased = cycle_chases(pos, cycle, self.cfg.move_stack_entries - self.stack)
        mover = pos.side ^ 1
        if chased[mover] and not chased[mover ^ 1]:
            return self.cfg.perpetual_chase
        if chased[mover ^ 1] and not chased[mover]:
            return -self.cfg.perpetual_chase
        return 0

    def _move_limit_score(self, ply: int) -> int:
        """A node at the 60-move limit: 0 (a draw) when the side to move has
        a legal move, else -MATE + ply (mated or stalemated: the side without
        a move loses, the game's first rule).  The moves are listed on the
        move stack like a node's; when they do not fit, the draw stands.  No
        node is counted and no table changes."""
        pos = self.pos
        moves = pos.generate()
        if self.stack + len(moves) > self.cfg.move_stack_entries:
            return 0
        for m in moves:
            pos.make(m)
            legal = not pos.in_check(pos.side ^ 1)
            pos.unmake()
            if legal:
                return 0
        return -MATE + ply

    def _has_major(self, side: int) -> bool:
        c = self.pos.count
        return bool(c[side * 8 + ROOK] or c[side * 8 + HORSE] or c[side * 8 + CANNON])

    def _count_node(self) -> bool:
        """Count a legal move made; True if the node cap stops the search."""
        self.nodes += 1
        if self.nodes >= self.level.nodes:
            self.aborted = True
        elif self.should_stop is not None and not self.nodes & STOP_POLL_MASK and self.should_stop():
            self.aborted = True
        return self.aborted

    # ---- the search -----------------------------------------------------
    def _alphabeta(self, depth: int, alpha: int, beta: int, ply: int, on_pv: bool, in_check: bool) -> int:
        pos = self.pos
        self.pv[ply] = []
        if ply > 0:
            draw = self._draw_score(ply)
            if draw is not None:
                return draw
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, 0, in_check)
        pr = self.pr
        static = None            # the static eval (no noise), computed only for pruning decisions
        if (pr.rfp_depth and depth <= pr.rfp_depth and ply > 0 and not in_check and beta - alpha == 1
                and abs(beta) < MATE_BOUND):
            # Reverse futility (static null move): far above beta at shallow depth.
            static = evaluate(pos, self.tables)
            self.static_evals += 1
            if static - pr.rfp_margin * depth >= beta:
                return beta
        if (self.use_null and ply > 0 and not in_check and depth >= self.cfg.null_move_min_depth
                and beta - alpha == 1 and abs(beta) < MATE_BOUND and pos.last_move_not_null()
                and self._has_major(pos.side)):
            # Null move: if passing still fails high at reduced depth, cut.
            pos.make_null()
            if self._count_node():
                pos.unmake_null()
                return 0
            v = -self._alphabeta(depth - 1 - NULL_REDUCTION, -beta, -beta + 1, ply + 1, False, False)
            pos.unmake_null()
            if self.aborted:
                return 0
            if v >= beta:
                return beta
        pv_move = self.prev_pv[ply] if on_pv and ply < len(self.prev_pv) else 0
        fmargin = lmp = 0
        if ply > 0 and not in_check and depth <= 2:
            fmargin = pr.futility_margin1 if depth == 1 else pr.futility_margin2
            lmp = pr.lmp1 if depth == 1 else pr.lmp2
            if fmargin and static is None:
                static = evaluate(pos, self.tables)
                self.static_evals += 1
        moves = pos.generate()
        if ply == 0 and self.exclude:
            moves = [m for m in moves if m not in self.exclude]
        if self.stack + len(moves) > self.cfg.move_stack_entries:
            self.overflows += 1
            return self.eval()          # no room for this node's moves: it is a leaf
        keys = self._keys(moves, ply, pv_move, True)
        base = self.stack
        self.stack += len(moves)
        self.max_stack = max(self.max_stack, self.stack)
        legal = 0
        best = 0
        try:
            for i in range(len(moves)):
                m = self._pick_lazy(moves, keys, i, ply, True)
                quiet = pos.board[m >> 8] == EMPTY
                if (pr.prune_checks and quiet and (fmargin or lmp) and m != pv_move
                        and ((fmargin and static + fmargin <= alpha and alpha > -MATE_BOUND)
                             or (lmp and legal >= lmp))):
                    # Captures and the PV move sort first, so every later move is quiet
                    # (or a capture exchange ordering keyed as one) and would be pruned
                    # too (alpha only rises): stop here.
                    self.pruned += 1
                    if not legal:
                        legal = 1    # unknown legality: return alpha, not a mate score
                    break
                pos.make(m)
                if pos.in_check(pos.side ^ 1):
                    pos.unmake()
                    continue
                legal += 1
                child_check = pos.in_check(pos.side)
                if (quiet and (fmargin or lmp) and not child_check and m != pv_move
                        and ((fmargin and static + fmargin <= alpha and alpha > -MATE_BOUND)
                             or (lmp and legal > lmp))):
                    # Futility / late-move pruning: a quiet move that gives no check.
                    pos.unmake()
                    self.pruned += 1
                    continue
                if self._count_node():
                    pos.unmake()
                    return 0
                pos.push_history(child_check, m >> 8)
                child_pv = on_pv and m == pv_move
                # The check extension: a checking move one ply deeper, within its reach.
                d1 = depth - 1 + (1 if child_check and ply + depth < self.level.check_ext else 0)
                if legal == 1:
                    v = -self._alphabeta(d1, -beta, -alpha, ply + 1, child_pv, child_check)
                else:
                    # Principal variation search: prove the move is no better
                    # with a null window, search again only if it is.  Late
                    # quiet moves are first tried one ply shallower (LMR).
                    r = 1 if (self.use_lmr and depth >= pr.lmr_min_depth
                              and (legal > pr.lmr_min_moves if ply else pr.lmr_root and legal > pr.lmr_root)
                              and quiet and not in_check and not child_check) else 0
                    if r and pr.lmr2_moves and legal > pr.lmr2_moves and depth >= 3:
                        r = 2
                    v = -self._alphabeta(d1 - r, -alpha - 1, -alpha, ply + 1, child_pv, child_check)
                    if r and v > alpha and not self.aborted:
                        v = -self._alphabeta(d1, -alpha - 1, -alpha, ply + 1, child_pv, child_check)
                    if alpha < v < beta and not self.aborted:
                        v = -self._alphabeta(d1, -beta, -alpha, ply + 1, child_pv, child_check)
                pos.pop_history()
                pos.unmake()
                if self.aborted:
                    return 0
                if v > alpha:
                    if v >= beta:
                        if quiet:
                            self._reward(m, depth, ply, True)
                        return beta
                    alpha = v
                    best = m
                    if ply < PV_PLIES:         # (pv[PV_PLIES] stays []: at most PV_PLIES moves)
                        self.pv[ply] = [m] + self.pv[ply + 1]
                    if ply == 0:
                        self.root_best = m
                        self.root_score = v
            if legal == 0:
                return -MATE + ply
            if best and pos.board[best >> 8] == EMPTY:
                self._reward(best, depth, ply, False)
            return alpha
        finally:
            self.stack = base

    def _quiesce(self, alpha: int, beta: int, ply: int, qply: int, in_check: bool) -> int:
        pos = self.pos
        self.pv[ply] = []
        if qply >= self.level.qdepth or ply >= self.level.depth + self.level.qdepth:
            return self.eval()
        if in_check and self.pr.qs_evasion_qply and qply >= self.pr.qs_evasion_qply:
            return self.eval()
        stand = 0
        if not in_check:
            stand = self.eval()
            if stand >= beta:
                return beta
            if stand > alpha:
                alpha = stand
        moves = pos.generate(captures_only=not in_check)
        if self.stack + len(moves) > self.cfg.move_stack_entries:
            self.overflows += 1
            return alpha if not in_check else self.eval()
        # The same lazy quiet keys (evasion lists only); quiescence never rewards a
        # move, so here they equal the keys at generation: uniform, and cheaper in the ROM.
        keys = self._keys(moves, ply, 0, False)
        base = self.stack
        self.stack += len(moves)
        self.max_stack = max(self.max_stack, self.stack)
        legal = 0
        try:
            for i in range(len(moves)):
                m = self._pick_lazy(moves, keys, i, ply, False)
                if not in_check and self.use_delta and \
                        stand + self.material[self._kind_at(m >> 8)] + self.cfg.delta_margin <= alpha:
                    continue    # delta pruning: even winning the piece cannot reach alpha
                if (not in_check and self.pr.qs_exchange and qply >= self.pr.qs_exchange_qply
                        and self._losing_exchange(m, self.pr.qs_exchange)):
                    self.pruned += 1
                    continue    # exchange pruning: a dearer piece that can be taken back
                pos.make(m)
                if pos.in_check(pos.side ^ 1):
                    pos.unmake()
                    continue
                legal += 1
                if self._count_node():
                    pos.unmake()
                    return 0
                self.qnodes += 1
                v = -self._quiesce(-beta, -alpha, ply + 1, qply + 1, pos.in_check(pos.side))
                pos.unmake()
                if self.aborted:
                    return 0
                if v > alpha:
                    if v >= beta:
                        return beta
                    alpha = v
            if in_check and legal == 0:
                return -MATE + ply
            return alpha
        finally:
            self.stack = base

    def run(self) -> SearchResult:
        pos = self.pos
        pos.rebuild()
        pos.set_values(self.tables.values)
        # The ROM keeps the last GAME_WINDOW positions of the game (a ring).
        del pos.keys[:-GAME_WINDOW]
        del pos.checks[:-GAME_WINDOW]
        del pos.dests[:-GAME_WINDOW]
        all_moves = pos.legal_moves()
        root_moves = [m for m in all_moves if m not in self.exclude]
        if not all_moves:
            return SearchResult(None, -MATE, 0, 0, [])
        if not root_moves:
            return SearchResult(None, 0, 0, 0, [])    # every legal move excluded: nothing to play
        if self.book is not None and self.level.book:
            hit = book_move(self.book, pos, self.level.book, self.lfsr_state, all_moves)
            if hit is not None and hit[0] in root_moves:
                move, entry = hit
                return SearchResult(move, 0, 0, 0, [move], book=self.book.name(entry.opening).zh)
        self.level, bare_row = root_limits(self.level, pos)
        in_check = pos.checks[-1] if pos.checks else pos.in_check(pos.side)
        self.root_ahead = evaluate(pos, self.tables) > 0
        result = SearchResult(root_moves[0], 0, 0, 0, [root_moves[0]])
        for depth in range(1, self.level.depth + 1):
            self.root_best = 0
            w = self.pr.aspiration
            if w and depth >= 2 and result.depth and abs(result.score) < MATE_BOUND:
                # Aspiration window around the previous score; a fail re-searches the full window.
                lo, hi = result.score - w, result.score + w
                v = self._alphabeta(depth, lo, hi, 0, True, in_check)
                if not self.aborted and (v <= lo or v >= hi):
                    self.root_best = 0
                    v = self._alphabeta(depth, -INF, INF, 0, True, in_check)
            else:
                v = self._alphabeta(depth, -INF, INF, 0, True, in_check)
            if self.aborted:
                # A root move searched in full in the stopped iteration: its best so
                # far answers, with its score and line (the first move searched is the
                # last iteration's best, so the answer is at least as well founded);
                # the depth stays the last completed iteration's.
                if self.root_best:
                    result = SearchResult(self.root_best, self.root_score, 0, depth - 1, list(self.pv[0]))
                break
            result = SearchResult(self.root_best, v, 0, depth, list(self.pv[0]))
            self.prev_pv = list(self.pv[0])
            if self.on_iteration is not None:
                self.on_iteration(SearchResult(result.move, v, self.nodes, depth, list(result.pv)))
            if len(root_moves) == 1 or (abs(v) > MATE_BOUND and MATE - abs(v) <= depth):
                break       # (a mate further than the depth, seen through checks or quiescence:
                            # the next iteration may find a shorter one)
            if self.pr.next_iteration and not bare_row and self.nodes * self.pr.next_iteration >= self.level.nodes:
                break       # the next iteration would not finish under the cap
        result.nodes = self.nodes
        result.max_stack = self.max_stack
        result.overflows = self.overflows
        return result


def root_limits(level: Level, pos: Position) -> tuple[Level, bool]:
    """The level with the depth, qdepth and node cap its search of `pos` uses
    (after the book), and whether they are its `bare` block's.  The side to
    move has no rook, horse, cannon or pawn (so also when both sides are
    bare): the `bare` block's three replace the level's own; otherwise, with
    at most the `sparse` block's pieces on the board (kings included), its
    node cap replaces the level's."""
    bare, sparse = level.bare, level.sparse
    if bare is not None and bare_side(pos.count) in (pos.side, 2):
        return replace(level, depth=bare.depth, qdepth=bare.qdepth, nodes=bare.nodes), True
    if sparse is not None and sum(pos.count) <= sparse.pieces:
        return replace(level, nodes=sparse.nodes), False
    return level, False


def search(pos: Position, level: Level, seed: int = 0, **kw: bool) -> SearchResult:
    return Searcher(pos, level, seed, **kw).run()
