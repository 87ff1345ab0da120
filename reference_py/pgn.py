"""Games as PGN, with the tags xiangqi tools read.

Written: `[Game "Chinese Chess"]` (XQWizard and the Chinese PGN tools),
`[Variant "xiangqi"]` (XBoard, Fairy-Stockfish's tools), the seven-tag
roster with White = Red (what XBoard reads) plus `[Red]` (what xiangqi
tools read), `[RedLevel]`/`[BlackLevel]` for the engines' difficulty
levels, `[SetUp "1"]` and `[FEN]` when the game does not start from the
start position, `[Format "ICCS"]` (moves `h2e2`, the form XBoard and the
UCI engines read) or `[Format "WXF"]` (moves `C2.5`), `[Result]`, `[Termination]` (how it ended: checkmate,
perpetual check, ...), and the ending again as the final comment.

Read: any number of games; moves in ICCS (`h2e2`, `h2-e2`, `H2-E2`) or WXF,
whatever the Format tag says; move numbers, comments, NAGs and variations
are skipped.  Every move is checked against the rules, and a bad one is a
PgnError naming the file, the line and the move.  `append_game` adds a
game to a file through a temporary file and a rename (reference_py stands
alone, as tools/asm does, so this is its own copy of tools/atomic.py's rule).
"""
from __future__ import annotations

import datetime
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .board import BLACK, RED, move_iccs
from .fen import START_FEN, FenError
from .notation import NotationError, format_wxf, parse_iccs, parse_move
from .rules import Game, Outcome

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
FORMATS = ("ICCS", "WXF")
TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
ICCS_PGN_RE = re.compile(r"^([a-iA-I])([0-9])-?([a-iA-I])([0-9])$")


class PgnError(ValueError):
    """A PGN that cannot be read: where, and what is wrong."""


@dataclass
class PgnGame:
    """One game: its tags, start position, moves (reference move codes) and result."""
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)

    @property
    def start_fen(self) -> str:
        return self.tags.get("FEN", START_FEN)

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    def replay(self) -> Game:
        """The game replayed through the rules (moves already checked)."""
        game = Game(self.start_fen)
        for m in self.moves:
            game.play(m)
        return game


def result_of(outcome: Outcome | None, unfinished: str = "unterminated") -> tuple[str, str]:
    """(Result tag, Termination) of a game's outcome (None: not over)."""
    if outcome is None:
        return "*", unfinished
    if outcome.winner is None:
        return "1/2-1/2", outcome.reason
    return ("1-0" if outcome.winner == RED else "0-1"), outcome.reason


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_game(start_fen: str, moves: list[int], *, red: str = "?", black: str = "?",
                red_level: str | None = None, black_level: str | None = None,
                result: str = "*", termination: str | None = None, event: str = "NES Xiangqi",
                site: str = "?", date: datetime.date | None = None, round_: str = "-",
                fmt: str = "ICCS", extra: dict[str, str] | None = None) -> str:
    """One game as PGN text (ending with a blank line)."""
    if fmt not in FORMATS:
        raise ValueError(f"PGN move format must be one of {', '.join(FORMATS)}, not '{fmt}'")
    if result not in RESULTS:
        raise ValueError(f"PGN result must be one of {', '.join(RESULTS)}, not '{result}'")
    day = date or datetime.date.today()
    tags: dict[str, str] = {
        "Game": "Chinese Chess", "Event": event, "Site": site, "Date": day.strftime("%Y.%m.%d"),
        "Round": round_, "White": red, "Black": black, "Result": result, "Variant": "xiangqi",
        "Red": red,
    }
    if red_level:
        tags["RedLevel"] = red_level
    if black_level:
        tags["BlackLevel"] = black_level
    if start_fen.split() != START_FEN.split():
        tags["SetUp"] = "1"
        tags["FEN"] = start_fen
    tags["Format"] = fmt
    if termination:
        tags["Termination"] = termination
    tags.update(extra or {})
    lines = [f'[{k} "{_quote(v)}"]' for k, v in tags.items()]
    game = Game(start_fen)
    fields = start_fen.split()
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() and int(fields[5]) > 0 else 1
    words: list[str] = []
    for i, m in enumerate(moves):
        side = game.pos.side
        text = format_wxf(game.pos, m).replace("=", ".") if fmt == "WXF" else move_iccs(m)
        if side == RED:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(text)
        game.play(m)
        if side == BLACK:
            number += 1
    if termination:
        words.append("{" + termination.replace("}", ")") + "}")
    words.append(result)
    body, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n\n"


def read_games(text: str, source: str = "<pgn>") -> list[PgnGame]:
    """Every game in `text`, checked move by move."""
    games: list[PgnGame] = []
    tags: dict[str, str] = {}
    tokens: list[tuple[int, str]] = []
    in_moves = False

    def finish() -> None:
        nonlocal tags, tokens, in_moves
        if tags or tokens:
            games.append(_build(tags, tokens, source))
        tags, tokens, in_moves = {}, [], False

    depth = 0          # inside { } comments or ( ) variations
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if depth == 0 and line.startswith("%"):
            continue
        if depth == 0 and line.startswith("["):
            if in_moves:
                finish()
            m = TAG_RE.fullmatch(line)
            if not m:
                raise PgnError(f"{source}:{no}: not a tag pair: {line}")
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            continue
        i = 0
        while i < len(line):
            ch = line[i]
            if depth:
                if ch in "})":
                    depth -= 1
                elif ch in "({":
                    depth += 1
                i += 1
                continue
            if ch in "{(":
                depth += 1
                i += 1
                continue
            if ch == ";":
                break
            if ch.isspace():
                i += 1
                continue
            j = i
            while j < len(line) and not line[j].isspace() and line[j] not in "{(;":
                j += 1
            tokens.append((no, line[i:j]))
            in_moves = True
            i = j
    if depth:
        raise PgnError(f"{source}: a comment or variation is not closed at the end")
    finish()
    return games


def _build(tags: dict[str, str], tokens: list[tuple[int, str]], source: str) -> PgnGame:
    fen = tags.get("FEN", START_FEN)
    try:
        game = Game(fen)
    except FenError as exc:
        raise PgnError(f"{source}: bad FEN tag '{fen}': {exc}") from None
    out = PgnGame(dict(tags))
    result_seen = None
    for no, tok in tokens:
        if tok in RESULTS:
            result_seen = tok
            continue
        if tok.startswith("$"):
            continue
        word = re.sub(r"^\d+\.+", "", tok)          # "12." or "12..." glued to a move
        if not word:
            continue
        word = word.rstrip("!?+#")
        if not word:
            continue
        ply = len(out.moves) + 1
        try:
            m = ICCS_PGN_RE.match(word)
            move = parse_iccs(game.pos, f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}".lower()) if m \
                else parse_move(game.pos, word)
        except NotationError as exc:
            raise PgnError(f"{source}:{no}: ply {ply} '{tok}': {exc}") from None
        game.play(move)
        out.moves.append(move)
    if result_seen and tags.get("Result", result_seen) != result_seen:
        raise PgnError(f"{source}: the Result tag says {tags['Result']} but the moves end with {result_seen}")
    out.tags.setdefault("Result", result_seen or "*")
    return out


def _old_text(path: Path) -> str:
    """What the PGN file holds now ('' if it does not exist yet)."""
    if not path.exists():
        return ""
    if not path.is_file():
        raise PgnError(f"{path}: not a regular file")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PgnError(f"{path}:{line}: not UTF-8 text: not a PGN file to add games to") from None


def check_can_add(path: str | Path) -> None:
    """Raise PgnError (naming the file) unless games can be added to `path`:
    a UTF-8 text file or none yet, in a folder (made if missing) where a
    file can be created.  A game is saved at its end; this is asked first."""
    path = Path(path)
    _old_text(path)
    folder = next((p for p in path.parents if p.exists()), Path("."))
    if not folder.is_dir():
        raise PgnError(f"{path}: {folder} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise PgnError(f"{path}: cannot write in {folder}: {exc.strerror}") from None


def append_game(path: str | Path, text: str) -> None:
    """Add one game's PGN to the file (created if missing), whole or not at
    all.  Raises PgnError (the file is not a PGN to add to) or OSError."""
    path = Path(path)
    old = _old_text(path)
    if old and not old.endswith("\n\n"):
        old = old.rstrip("\n") + "\n\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(old + text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["PgnError", "PgnGame", "append_game", "check_can_add", "format_game", "read_games", "result_of"]
