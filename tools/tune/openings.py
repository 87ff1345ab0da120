"""The balanced opening suite and the pairing of games on it.

The suite file (bench/openings.txt) holds one opening per line: ICCS moves
from the start position separated by spaces, then optionally `# name`.
Blank lines and lines starting with `#` are skipped.  For example:

    h2e2 h9g7 h0g2 i9h9   # central cannon vs screen horses

The format is deliberately plain, so the suite can be written by any tool
(the opening book's lines, a list of positions from a database) as long as
it keeps the order: a suite's games are comparable across runs only while
its lines stay the same, and the report records the file's SHA-256.

Pairing: game pair k of a match plays opening (offset + k) mod N twice,
first with player A as Red, then with the colours swapped.  A match that
needs more pairs than the suite has openings cycles through it again; two
deterministic players then repeat their games, which the ladder reports.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from reference_py.board import move_iccs
from reference_py.fen import START_FEN
from reference_py.notation import NotationError, parse_iccs
from reference_py.rules import Game

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SUITE = ROOT / "bench" / "openings.txt"


class SuiteError(ValueError):
    """A suite file that cannot be used: file, line and what is wrong."""


@dataclass(frozen=True)
class Opening:
    index: int
    line: int           # line number in the file
    moves: tuple[str, ...]
    name: str

    def game(self) -> Game:
        g = Game(START_FEN)
        for m in self.moves:
            g.play_text(m)
        return g


@dataclass(frozen=True)
class Suite:
    path: Path
    sha256: str
    openings: tuple[Opening, ...]

    def __len__(self) -> int:
        return len(self.openings)

    def for_pair(self, k: int, offset: int = 0) -> Opening:
        return self.openings[(offset + k) % len(self.openings)]


def load_suite(path: Path | str = DEFAULT_SUITE) -> Suite:
    """Read and check a suite: every move legal, the game not over, no line twice."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SuiteError(f"{path}: not UTF-8 text") from None
    openings: list[Opening] = []
    seen: dict[tuple[str, ...], int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        body, _, comment = raw.partition("#")
        words = body.split()
        if not words:
            continue
        g = Game(START_FEN)
        moves = []
        for ply, word in enumerate(words, 1):
            try:
                move = parse_iccs(g.pos, word.lower())
            except NotationError as exc:
                raise SuiteError(f"{path}:{lineno}: ply {ply} '{word}': {exc}") from None
            if move not in g.pos.legal_moves():
                raise SuiteError(f"{path}:{lineno}: ply {ply} '{word}' is not a legal move there")
            g.play(move)
            moves.append(move_iccs(move))
        if g.outcome():
            raise SuiteError(f"{path}:{lineno}: the game is already over after this line ({g.outcome().reason})")
        key = tuple(moves)
        if key in seen:
            raise SuiteError(f"{path}:{lineno}: the same line as line {seen[key]}")
        seen[key] = lineno
        openings.append(Opening(len(openings), lineno, key, comment.strip()))
    if not openings:
        raise SuiteError(f"{path}: no openings")
    return Suite(path, hashlib.sha256(data).hexdigest(), tuple(openings))


def mirror(moves: list[str] | tuple[str, ...]) -> list[str]:
    """The same line reflected left-right (files a<->i)."""
    flip = {c: "abcdefghi"[8 - i] for i, c in enumerate("abcdefghi")}
    return [f"{flip[m[0]]}{m[1]}{flip[m[2]]}{m[3]}" for m in moves]
