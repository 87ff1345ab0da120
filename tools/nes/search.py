"""The ROM's 6502 evaluation and search (asm/engine/eng_eval.s,
eng_search.s) on the py65 driver, for differential tests and benchmarks.

RomSearch runs eng_eval, eng_eval_ge, search_eval and eng_search through a
RomEngine (the guarded Cpu: undocumented opcodes, out-of-map reads and
writes, jumps into RAM, the stack floor and a cycle limit per call).  How a
search is started (eng_search's header in asm/engine/eng_search.s is the
contract):

  1. eng_load the position (any slot order: eng_search rebuilds it);
  2. the repetition history: the keys and in-check flags of the game's last
     GAME_WINDOW positions (reference Position.keys / checks / dests, the
     current position last) into rep_key_lo / rep_key_hi / rep_info
     (REP_CHECK, bit 7: in check; bits 0-6 the destination, 0-89, of the
     move that led there), and the index of the current position into
     s_rep_top;
  3. the seed into s_lfsr, then eng_search with A = the level's index.
Results: s_res_from / s_res_to (PV, s_res_pvlen moves; 0 = no legal move),
s_res_score, s_res_depth, s_nodes.  The command line (`python -m
tools.romsearch search / eval`) is tools/nes/cli.py.

A host can watch and stop a running search (the UCI/UCCI adapter,
tools/nes/protocol.py) through search()'s `poll`, called between chunks of
instructions: the result variables hold the last completed iteration
whenever the 6502 is inside a node (`settled()`: only eng_search's own
body writes them; search() clears them before the call, as eng_search's
start does), and `request_stop()` sets s_abort there, which ends the
search exactly as the level's node cap does (eng_search clears s_abort at
its start, so a host that wants it stopped asks at every poll until the
call returns).
"""
from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.board import move_iccs, sq90  # noqa: E402
from reference_py.book import default_book  # noqa: E402
from reference_py.config import DEPTH_MAX, load_eval  # noqa: E402
from reference_py.position import Position  # noqa: E402
from reference_py.rules import GAME_WINDOW  # noqa: E402
from reference_py.search import LFSR_DEFAULT, MATE, level_by_name, levels  # noqa: E402
from tools.nes.engine import RomEngine  # noqa: E402
from tools.nes.timing import NES_HZ  # noqa: E402
from tools.rom.files import MAP, ROM  # noqa: E402

SEARCH_LIMIT = 400_000_000      # cycles per eng_search call (about 220 s of NES time)


def _s16(v: int) -> int:
    return v - 0x10000 if v & 0x8000 else v


class RomSearch(RomEngine):
    """The ROM's eval and search on a py65 6502 (one instance, many searches)."""

    def __init__(self, rom: Path = ROM, map_path: Path = MAP, build: bool = True) -> None:
        super().__init__(rom, map_path, build=build)
        self.sets = list(load_eval().sets)
        # eng_search's own body (its entry to the rts at `done`): the only
        # code that writes s_res_* and clears s_abort (asm/engine/eng_search.s).
        self.body = (self.addr("eng_search"), self.addr("eng_search__done"))
        self.body_bank = self.link.bank_of("eng_search") if self.cart.switchable else None

    # ---------------------------------------------------------- eval
    def eval(self, pos: Position, set_name: str) -> tuple[int, int]:
        """eng_eval of pos with weight set `set_name`: (score, cycles).
        pos is loaded with eng_load (canonical slots)."""
        self.load(pos, self.sets.index(set_name))
        cycles = self.call("eng_eval")
        m = self.cpu.mpu
        return _s16(m.a | (m.x << 8)), cycles

    def eval_ge(self, pos: Position, set_name: str, threshold: int, load: bool = True) -> tuple[bool, int | None, int]:
        """eng_eval_ge of pos with T = threshold: (e >= T, e when below T else
        None, cycles).  Checks that T (eval_t) and rv are kept."""
        if load:
            self.load(pos, self.sets.index(set_name))
        t = threshold & 0xFFFF
        self.write("eval_t", [t & 0xFF, t >> 8])
        self.write("rv", [0x5A, 0xA5])
        cycles = self.call("eng_eval_ge")
        assert (self.word("eval_t"), self.word("rv")) == (t, 0xA55A), "eng_eval_ge changed eval_t or rv"
        m = self.cpu.mpu
        if m.p & 1:
            return False, _s16(m.a | (m.x << 8)), cycles
        return True, None, cycles

    def noisy_evals(self, pos: Position, level_index: int, seed: int, count: int) -> list[int]:
        """`count` calls of search_eval (eval + LFSR noise) in a row."""
        lv = levels()[level_index]
        self.load(pos, self.sets.index(lv.eval))
        self.write("s_level", [level_index])
        seed &= 0xFFFF
        seed = seed or LFSR_DEFAULT
        self.write("s_lfsr", [seed & 0xFF, seed >> 8])
        out = []
        for _ in range(count):
            self.call("search_eval")
            out.append(_s16(self.word("rv")))
        return out

    # ---------------------------------------------------------- search
    def load_history(self, pos: Position) -> None:
        keys = pos.keys[-GAME_WINDOW:] or [pos.key]
        checks = pos.checks[-GAME_WINDOW:] or [pos.in_check(pos.side)]
        dests = ([0] * len(keys) + pos.dests)[-len(keys):]     # 0: not recorded
        self.write("rep_key_lo", [k & 0xFF for k in keys])
        self.write("rep_key_hi", [k >> 8 for k in keys])
        self.write("rep_info", [(0x80 if c else 0) | (sq90(d) if d else 0) for c, d in zip(checks, dests)])
        self.write("s_rep_top", [len(keys) - 1])

    def settled(self) -> bool:
        """True when the 6502 is outside eng_search's own body, so s_res_*
        hold the last completed iteration whole (or the first legal move)
        and s_abort is the nodes' to read: the moments poll() may use them."""
        pc = self.cpu.mpu.pc
        lo, hi = self.body
        return not (lo <= pc <= hi and self.cpu.bank == self.body_bank)

    def request_stop(self) -> bool:
        """From poll(): end the running search as its node cap does (s_abort
        = 1: every node unwinds and eng_search answers as at its cap).  Done
        only when settled(); returns whether it was done.  Ask at every poll
        until the call returns: eng_search's start clears s_abort."""
        if not self.settled():
            return False
        self.write("s_abort", [1])
        return True

    def result(self) -> dict:
        """s_res_*: move, score, depth, PV (ICCS) of the last completed
        iteration; call it when settled() or after the search."""
        n = self.byte("s_res_pvlen")
        pv = [self.byte("s_res_from", i) | (self.byte("s_res_to", i) << 8) for i in range(n)]
        if n:
            score = _s16(self.word("s_res_score"))
            move = move_iccs(pv[0])
        else:
            score, move = -MATE, None
        opening = self.byte("s_res_book") if n else 0      # the book's opening + 1, 0: searched
        book = default_book()
        name = book.name(opening - 1).zh if opening and book else None
        return {"move": move, "score": score, "nodes": self.word("s_nodes"), "depth": self.byte("s_res_depth"),
                "pv": [move_iccs(m) for m in pv], "book": name}

    def book(self, pos: Position) -> dict:
        """The book's record of pos as the ROM finds and reads it (the same
        JSON as reference_py.book.probe_json): book_locate's keys and lookup,
        then `candidate` for each move (the mirror images of a position that
        is its own mirror included), mirrored through the ROM's own table when
        the record is the mirror image's.  The names come from the book data."""
        self.load(pos)
        if "book_locate" not in self.symbols:
            return {"name": None, "moves": []}
        self.call("book_locate")
        if not self.cpu.carry:
            return {"name": None, "moves": []}
        bank = self.cpu.mpu.a
        ptr = self.word("local", 8)
        flags = self.byte("local", 11)
        n, depth, opening = (self.cart.read(ptr + i, 1, bank)[0] for i in (0, 4, 5))
        mirror90 = self.cart.read(self.addr("book_mirror90"), 90)
        moves = []
        for i in range(2 * n):
            self.write("local", [n, i], offset=14)
            self.call("candidate", bank=bank)
            if self.cpu.carry:
                break
            if self.cpu.mpu.p & 0x40:        # V: a mirror image that is stored too
                continue
            frm, to = self.byte("local", 12), self.byte("local", 13)
            if flags & 0x80:
                frm, to = mirror90[frm], mirror90[to]
            moves.append({"move": f"{'abcdefghi'[frm % 9]}{frm // 9}{'abcdefghi'[to % 9]}{to // 9}",
                          "weight": self.cpu.mpu.a})
        o = default_book().name(opening)
        return {"name": o.zh, "pinyin": o.pinyin, "en": o.en, "depth": depth, "moves": moves}

    def search(self, pos: Position, level: str, seed: int = 0, limit: int = SEARCH_LIMIT,
               poll: Callable[[int], None] | None = None, book: bool = True,
               depth: int | None = None, nodes: int | None = None, sparse_nodes: int | None = None) -> dict:
        """eng_search of pos (its keys/checks are the game history).  Returns
        the reference's JSON fields plus cycles, seconds (NES time), wall
        (host time) and bank_switches (the 6502's bank register writes).
        `poll(cycles so far)` runs between instruction chunks (Cpu.call).
        `book` False: the level's entry of the ROM's lvl_book table reads
        as 0 during this search (in py65's copy of the cartridge), so the
        engine searches where it would have played from the book.
        `depth`, `nodes`: the level's depth (1..DEPTH_MAX) and node
        cap (1..65535) read as these during this search, the same way: the
        reference's level with `depth` / `nodes` replaced (a bare side's row
        keeps its own, as in the reference; so does the level's `sparse`
        block, whose cap `sparse_nodes` replaces: lvl_sparse_lo/hi)."""
        lv = level_by_name(level)
        index = [l.name for l in levels()].index(lv.name)
        if depth is not None or nodes is not None or sparse_nodes is not None:
            patch = []
            if depth is not None:
                if not 1 <= depth <= DEPTH_MAX:
                    raise ValueError(f"depth {depth}: not in 1..{DEPTH_MAX}")
                patch.append(("lvl_depth", depth))
            if nodes is not None:
                if not 1 <= nodes <= 0xFFFF:
                    raise ValueError(f"node cap {nodes}: not in 1..65535")
                patch += [("lvl_nodes_lo", nodes & 0xFF), ("lvl_nodes_hi", nodes >> 8)]
            if sparse_nodes is not None:
                if not 1 <= sparse_nodes <= 0xFFFF or lv.sparse is None:
                    raise ValueError(f"sparse node cap {sparse_nodes}: not in 1..65535, "
                                     f"or {lv.name} has no sparse block")
                patch += [("lvl_sparse_lo", sparse_nodes & 0xFF), ("lvl_sparse_hi", sparse_nodes >> 8)]
            with contextlib.ExitStack() as stack:
                for table, value in patch:
                    stack.enter_context(self.cpu.rom_byte_as(self.addr(table) + index,
                                                             self.link.bank_of(table), value))
                return self.search(pos, level, seed, limit, poll, book)
        if not book and lv.book:
            where = self.addr("lvl_book") + index
            with self.cpu.rom_byte_as(where, self.link.bank_of("lvl_book"), 0):
                return self.search(pos, level, seed, limit, poll)
        self.load(pos, self.sets.index(lv.eval))
        self.load_history(pos)
        seed &= 0xFFFF
        self.write("s_lfsr", [seed & 0xFF, seed >> 8])
        for name, size in (("s_res_pvlen", 1), ("s_res_depth", 1), ("s_nodes", 2)):
            self.write(name, [0] * size)    # as eng_search's start does: nothing stale for poll()
        t = time.perf_counter()
        switches = self.cpu.bank_switches
        cycles = self.call("eng_search", a=index, limit=limit, poll=poll)
        wall = time.perf_counter() - t
        return {**self.result(), "cycles": cycles, "seconds": round(cycles / NES_HZ, 3),
                "wall": round(wall, 3), "bank_switches": self.cpu.bank_switches - switches}


def reference_search(pos: Position, level: str, seed: int = 0) -> dict:
    from reference_py.search import Searcher
    return Searcher(pos.copy(), level_by_name(level), seed=seed).run().as_json()
