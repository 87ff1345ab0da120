"""Expand the book's lines into positions, folding transpositions and mirrors.

A position is identified by where the pieces stand and who is to move
(never by the moves that led to it), so two lines that reach the same
position by different move orders share one entry: a transposition.

Left-right mirrors are folded: a position and its mirror image (files a-i
reversed) are one entry, stored in its canonical orientation, which is the
one of the two whose FEN is the smaller string (Python's `<`, i.e. ASCII
order; the board field decides, read from rank 9 down).  Book moves are
stored in that orientation.  In a position that is its own mirror (the
start position), a move and its mirror image are one book move, stored as
the one whose resulting position is canonical (h2e2 rather than b2e2).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.notation import NotationError, parse_iccs
from reference_py.position import Position

from .source import Book, Line

FILES = "abcdefghi"


def mirror_board(board: str) -> str:
    """The FEN board field of the left-right mirror image (each rank's row
    read backwards: every run of empty squares is a single digit)."""
    return "/".join(row[::-1] for row in board.split("/"))


def mirror_move(move: str) -> str:
    """An ICCS move mirrored left-right (file a <-> i)."""
    return f"{FILES[8 - FILES.index(move[0])]}{move[1]}{FILES[8 - FILES.index(move[2])]}{move[3]}"


def key_fen(board: str, side: str) -> str:
    """The book's FEN for a board field and side to move: clocks are 0 1,
    since the book ignores the 60-move rule and the move number."""
    return f"{board} {side} - - 0 1"


def position_fen(pos: Position) -> str:
    board, side = format_fen(pos).split()[:2]
    return key_fen(board, side)


def mirror_fen(fen: str) -> str:
    board, side = fen.split()[:2]
    return key_fen(mirror_board(board), side)


def canonical(fen: str) -> tuple[str, bool]:
    """(canonical FEN, whether it is the mirror image of `fen`)."""
    m = mirror_fen(fen)
    return (m, True) if m < fen else (fen, False)


def is_canonical(fen: str) -> bool:
    return fen <= mirror_fen(fen)


def canonical_move(pos: Position, move: str) -> tuple[str, str]:
    """(canonical FEN of `pos`, `move` in that orientation) for a legal move.

    In a symmetric position the move and its mirror are one book move: the
    one kept leads to a canonical position (the smaller move text if both do).
    """
    fen = position_fen(pos)
    cfen, flipped = canonical(fen)
    if flipped:
        return cfen, mirror_move(move)
    if cfen != mirror_fen(cfen):
        return cfen, move
    other = mirror_move(move)
    if other == move:
        return cfen, move
    pos.make(parse_iccs(pos, move))
    child = position_fen(pos)
    pos.unmake()
    if child == mirror_fen(child):
        return cfen, min(move, other)
    return cfen, move if is_canonical(child) else other


@dataclass
class BookMove:
    """A book move in a canonical position, with every line that plays it."""
    move: str
    weight: int = 0                               # the largest weight of those lines
    sources: list[tuple[Line, int]] = field(default_factory=list)   # (line, ply from 1)


@dataclass
class Node:
    """A canonical position that some line reaches."""
    fen: str
    ply: int                                      # fewest plies from the start
    openings: set[int] = field(default_factory=set)
    moves: dict[str, BookMove] = field(default_factory=dict)
    parents: set[tuple[str, str]] = field(default_factory=set)   # (parent FEN, move)


@dataclass
class Tree:
    book: Book
    nodes: dict[str, Node]
    root: str
    unfolded: int               # positions with a book move, mirrors not folded

    def positions_with_moves(self) -> list[Node]:
        return [self.nodes[f] for f in sorted(self.nodes) if self.nodes[f].moves]

    def transpositions(self) -> list[Node]:
        """Positions reached from more than one (position, move): transpositions."""
        return [n for n in self.nodes.values() if len(n.parents) > 1]

    def opening_of(self, node: Node) -> int:
        return self.book.common_opening(node.openings)


class _Expander:
    """Replays lines into the shared node table."""

    def __init__(self, book: Book) -> None:
        self.book = book
        self.nodes: dict[str, Node] = {}
        self.unfolded: set[str] = set()

    def visit(self, pos: Position, ply: int, ln: Line, parent: tuple[str, str] | None) -> Node:
        fen = canonical(position_fen(pos))[0]
        node = self.nodes.get(fen)
        if node is None:
            node = self.nodes[fen] = Node(fen, ply)
        node.ply = min(node.ply, ply)
        node.openings.add(ln.opening)
        if parent is not None:
            node.parents.add(parent)
        return node

    def add_move(self, node: Node, pos: Position, ln: Line, index: int) -> tuple[str, str]:
        """Record move `index` of the line as a book move of `node` (at `pos`)."""
        self.unfolded.add(position_fen(pos))
        cfen, cmove = canonical_move(pos, ln.moves[index])
        bm = node.moves.setdefault(cmove, BookMove(cmove))
        bm.weight = max(bm.weight, ln.weight)
        bm.sources.append((ln, index + 1))
        return cfen, cmove

    def line(self, ln: Line) -> None:
        pos = parse_fen(START_FEN)
        parent: tuple[str, str] | None = None
        i = 0
        while True:
            node = self.visit(pos, i, ln, parent)
            if i == len(ln.moves):
                return
            if ln.orders is not None and i == ln.orders[0] - 1:
                parent = self.window(pos, ln, i, ln.orders[1])
                i = ln.orders[1]
                continue
            parent = self.add_move(node, pos, ln, i)
            pos.make(parse_iccs(pos, ln.moves[i]))
            i += 1

    def window(self, pos: Position, ln: Line, first: int, end: int) -> tuple[str, str]:
        """Plies first..end-1 (from 0) of the line in every order that keeps
        each side's moves on its own plies, moves every piece its original
        move does and captures nothing; only orders that play the whole
        window count.  Leaves `pos` after the window; returns the edge of the
        line's own order into that position."""
        window = range(first, end)
        movers = {}
        probe = pos.copy()
        for j in window:
            move = parse_iccs(probe, ln.moves[j])
            movers[j] = probe.board[move & 0xFF]
            probe.make(move)
        edges: dict[frozenset[int], list[tuple[int, frozenset[int]]]] = {}

        def step(played: frozenset[int], j: int) -> int | None:
            if j in played or j % 2 != (first + len(played)) % 2:
                return None
            try:
                move = parse_iccs(pos, ln.moves[j])
            except NotationError:
                return None
            if pos.board[move & 0xFF] != movers[j] or pos.is_capture(move):
                return None
            return move

        def forward(played: frozenset[int]) -> None:
            edges[played] = []
            for j in window:
                move = step(played, j)
                if move is None:
                    continue
                child = played | {j}
                edges[played].append((j, child))
                if child not in edges:
                    pos.make(move)
                    forward(child)
                    pos.unmake()

        forward(frozenset())
        full = frozenset(window)
        good = {full}
        for played in sorted(edges, key=len, reverse=True):
            if any(child in good for _, child in edges[played]):
                good.add(played)
        seen: set[frozenset[int]] = set()

        def record(played: frozenset[int], parent: tuple[str, str] | None) -> None:
            node = self.visit(pos, first + len(played), ln, parent)
            if played == full or played in seen:
                return
            seen.add(played)
            for j, child in edges[played]:
                if child in good:
                    edge = self.add_move(node, pos, ln, j)
                    pos.make(parse_iccs(pos, ln.moves[j]))
                    record(child, edge)
                    pos.unmake()

        record(frozenset(), None)
        own: tuple[str, str] | None = None
        for j in window:
            own = (canonical(position_fen(pos))[0], canonical_move(pos, ln.moves[j])[1])
            pos.make(parse_iccs(pos, ln.moves[j]))
        assert own is not None
        return own


def expand(book: Book) -> Tree:
    """Replay every line, merging positions by canonical FEN."""
    ex = _Expander(book)
    root = canonical(position_fen(parse_fen(START_FEN)))[0]
    for ln in book.lines:
        ex.line(ln)
    return Tree(book, ex.nodes, root, len(ex.unfolded))
