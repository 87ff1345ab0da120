"""The opening book both engines probe: what is in it, how a position is
found, and how a move is chosen.  docs/ENGINE.md ("Opening book") is the
specification; this module is its executable form, and the ROM's probe
(asm/book/, tables from tools/rom/gen_book.py) must agree with it bit for bit.

The data is config/book.checked.json, written by `python -m tools.book
check` from config/book.yaml (every move checked with Fairy-Stockfish), so
neither engine nor the ROM build ever needs Fairy-Stockfish.  It holds
positions (a FEN in one of its two left-right orientations), each with its
book moves and their weights and the opening it belongs to.

Finding a position: by a 32-bit key of where the pieces stand and who is to
move (a Zobrist key over its own table, BOOK_KEYS), computed for the
position and for its mirror image: a stored position matches either way, and
a match through the mirror mirrors the moves.  Transpositions meet because the
key depends on the position only.

The book's depth of a position is the fewest plies by which book moves
reach it from the start position; a level follows the book only while that
depth is below its `book` setting (config/difficulty.yaml), so a weak level
leaves the book early.

In a position that is its own mirror image (the start), each stored move
also stands for its mirror image, with the same weight.

Choosing: the weights w_1..w_n of the moves (in the data's order, the
mirror images after them) sum to W; BOOK_LFSR_STEPS steps of the search's
16-bit LFSR (search.Searcher.lfsr_next, from the level's seed: enough steps
that a small seed is mixed too) leave its state r, and the move is the first
whose running sum exceeds r * W >> 16.  A book move that is not legal (a 32-bit key that collides) is
no book move: the engine searches instead.
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .board import BLACK, PLAYABLE, file_of, make_move_code, move_from, move_iccs, move_to, rank_of, square
from .fen import FenError, parse_fen
from .notation import NotationError, parse_iccs
from .position import Position
from .zobrist import MASK64, splitmix64

BOOK_PATH: Final = Path(__file__).resolve().parent.parent / "config" / "book.checked.json"
BOOK_SOURCE: Final = BOOK_PATH.with_name("book.yaml")
BOOK_SEED: Final = 0x58_51_42_4F_4F_4B_00_00   # "XQBOOK\0\0"
START_FEN: Final = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
BOOK_LFSR_STEPS: Final = 16


class BookError(Exception):
    """The book data is missing or does not hold together (names the file)."""


def _make_keys() -> tuple[tuple[tuple[int, ...], ...], int]:
    """BOOK_KEYS[side * 8 + kind][square] (32 bits) for the 90 playable
    squares, then the key of Black to move: SplitMix64 from BOOK_SEED, the
    top 32 bits of each output, in the order side, kind 1-7, square
    ascending (as zobrist.py)."""
    state = BOOK_SEED
    table: list[tuple[int, ...]] = []
    for index in range(16):
        row = [0] * (max(PLAYABLE) + 1)
        if index % 8:
            for sq in PLAYABLE:
                state, out = splitmix64(state)
                row[sq] = out >> 32
        table.append(tuple(row))
    state, out = splitmix64(state)
    return tuple(table), (out & MASK64) >> 32


BOOK_KEYS, BOOK_KEY_BLACK = _make_keys()


def mirror_square(sq: int) -> int:
    """The square across the board's middle file (a <-> i)."""
    return square(8 - file_of(sq), rank_of(sq))


def mirror_fen(fen: str) -> str:
    """The FEN of the left-right mirror image (each rank read backwards)."""
    board, *rest = fen.split()
    return " ".join(["/".join(row[::-1] for row in board.split("/")), *rest])


def mirror_move(move: int) -> int:
    return make_move_code(mirror_square(move_from(move)), mirror_square(move_to(move)))


def keys(pos: Position) -> tuple[int, int]:
    """(key of the position, key of its mirror image)."""
    k = m = BOOK_KEY_BLACK if pos.side == BLACK else 0
    for sq, (side, kind) in pos.pieces().items():
        row = BOOK_KEYS[side * 8 + kind]
        k ^= row[sq]
        m ^= row[mirror_square(sq)]
    return k, m


@dataclass(frozen=True)
class Opening:
    id: int
    zh: str
    pinyin: str
    en: str


@dataclass(frozen=True)
class Entry:
    """A book position: its moves (as stored, with weights), its opening and
    its depth in the book (fewest plies from the start)."""
    fen: str
    moves: tuple[tuple[int, int], ...]
    opening: int
    depth: int


@dataclass(frozen=True)
class Book:
    openings: tuple[Opening, ...]
    entries: dict[int, Entry]          # by key (of the stored orientation)
    source_sha256: str

    def find(self, pos: Position) -> tuple[Entry, bool] | None:
        """The entry of pos and whether it was found through the mirror."""
        k, m = keys(pos)
        if k in self.entries:
            return self.entries[k], False
        if m in self.entries:
            return self.entries[m], True
        return None

    def moves(self, pos: Position) -> tuple[Entry, list[tuple[int, int]]] | None:
        """pos's book moves as (move, weight) in pos's orientation, or None.
        In a position that is its own mirror image (the data keeps one of a
        move and its mirror: h2e2, not b2e2) each move also stands for its
        mirror image, with the same weight, after the stored ones."""
        k, m = keys(pos)
        hit = self.find(pos)
        if hit is None:
            return None
        entry, mirrored = hit
        moves = [((mirror_move(mv) if mirrored else mv), w) for mv, w in entry.moves]
        if k == m:
            have = {mv for mv, _ in moves}
            moves += [(mirror_move(mv), w) for mv, w in entry.moves if mirror_move(mv) not in have]
        return entry, moves

    def name(self, opening: int) -> Opening:
        return self.openings[opening]


def choose(moves: list[tuple[int, int]], r: int) -> int:
    """The move that r (16 bits) picks by weight: the first whose running
    sum of weights exceeds r * W >> 16."""
    total = sum(w for _, w in moves)
    target = (r * total) >> 16
    run = 0
    for mv, w in moves:
        run += w
        if run > target:
            return mv
    raise AssertionError("weights must be positive")


def book_move(book: Book, pos: Position, book_plies: int, lfsr_step,
              legal: list[int] | None = None) -> tuple[int, Entry] | None:
    """The level's book move in pos, or None (out of book, beyond the level's
    book depth, or a move that is not legal: `legal`, pos's legal moves if
    known).  `lfsr_step()` steps the search's LFSR and returns its 16-bit
    state; it is stepped (BOOK_LFSR_STEPS times) only when the position is
    in the level's book."""
    found = book.moves(pos)
    if found is None:
        return None
    entry, moves = found
    if entry.depth >= book_plies:
        return None
    for _ in range(BOOK_LFSR_STEPS):
        r = lfsr_step()
    move = choose(moves, r)
    if move not in (pos.legal_moves() if legal is None else legal):
        return None
    return move, entry


def _parse_move(pos: Position, text: str, where: str) -> int:
    try:
        return parse_iccs(pos, text)
    except NotationError as exc:
        raise BookError(f"{where}: {exc}") from None


def _depths(entries: dict[int, Entry], start: Position) -> dict[int, int]:
    """The fewest plies by which book moves lead from the start to each entry."""
    depth: dict[int, int] = {}
    frontier = [start]
    ply = 0
    while frontier:
        nxt = []
        for pos in frontier:
            k, m = keys(pos)
            key = k if k in entries else m if m in entries else None
            if key is None or key in depth:
                continue
            depth[key] = ply
            mirrored = key != k
            for mv, _ in entries[key].moves:
                child = pos.copy()
                child.make(mirror_move(mv) if mirrored else mv)
                nxt.append(child)
        frontier = nxt
        ply += 1
    return depth


def load(path: Path = BOOK_PATH) -> Book:
    """Read and check the book data; raises BookError naming the file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BookError(f"{path}: cannot read: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BookError(f"{path}: not JSON: {exc}") from None
    try:
        openings = tuple(Opening(i, o["zh"], o["pinyin"], o["en"]) for i, o in enumerate(doc["openings"]))
        if any(o["id"] != i for i, o in enumerate(doc["openings"])):
            raise BookError(f"{path}: openings must be listed by id, 0 first")
        raw: dict[int, tuple[str, list[tuple[int, int]], int]] = {}
        for n, p in enumerate(doc["positions"]):
            where = f"{path}: position {n} ({p['fen']})"
            try:
                pos = parse_fen(p["fen"])
            except FenError as exc:
                raise BookError(f"{where}: {exc}") from None
            moves = [(_parse_move(pos, m["move"], where), int(m["weight"])) for m in p["moves"]]
            if not moves or any(not 1 <= w <= 255 for _, w in moves):
                raise BookError(f"{where}: needs moves with weights 1..255")
            if not 0 <= p["opening"] < len(openings):
                raise BookError(f"{where}: no opening {p['opening']}")
            k, m = keys(pos)
            if k in raw or m in raw:
                raise BookError(f"{where}: a second entry for the same position (or its mirror)")
            raw[k] = (p["fen"], moves, p["opening"])
        source = doc["source_sha256"]
    except (KeyError, TypeError, ValueError) as exc:
        raise BookError(f"{path}: not book data ({exc!r})") from None
    shells = {k: Entry(fen, tuple(mv), op, 0) for k, (fen, mv, op) in raw.items()}
    depth = _depths(shells, parse_fen(START_FEN))
    entries = {k: Entry(e.fen, e.moves, e.opening, depth[k]) for k, e in shells.items() if k in depth}
    return Book(openings, entries, source)


@functools.lru_cache(maxsize=4)
def default_book(path: str = str(BOOK_PATH)) -> Book | None:
    """The project's book, or None when there is no book data."""
    return load(Path(path)) if Path(path).exists() else None


def source_sha256(path: Path = BOOK_SOURCE) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def probe_json(book: Book | None, pos: Position) -> dict:
    """What `book` prints: the opening's name and the book moves with their
    weights (an empty list out of book)."""
    found = book.moves(pos) if book else None
    if found is None:
        return {"name": None, "moves": []}
    entry, moves = found
    o = book.name(entry.opening)
    return {"name": o.zh, "pinyin": o.pinyin, "en": o.en, "depth": entry.depth,
            "moves": [{"move": move_iccs(mv), "weight": w} for mv, w in moves]}


__all__ = ["BOOK_KEYS", "BOOK_KEY_BLACK", "BOOK_PATH", "Book", "BookError", "Entry", "Opening",
           "book_move", "choose", "default_book", "keys", "load", "mirror_fen", "mirror_move", "mirror_square",
           "probe_json"]
