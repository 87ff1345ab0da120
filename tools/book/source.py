"""config/book.yaml: load and validate the opening book's source.

The file is the tuners' source of truth (its format is documented at its
top).  Every problem stops the tools with `file:line: what is wrong`; an
illegal move names the line, the ply and the move.  Loading replays every
line with the reference rules (reference_py), so a Book that loads is a set
of legal move sequences from the start position.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from reference_py.config_file import ConfigError, Node, load_yaml
from reference_py.fen import START_FEN, parse_fen
from reference_py.notation import NotationError, parse_iccs

ROOT = Path(__file__).resolve().parents[2]
BOOK_YAML = ROOT / "config" / "book.yaml"
MIN_MAIN_PLIES = 12
MAX_WEIGHT = 255
OPENING_KEYS = ("zh", "pinyin", "en", "parent", "weight", "main", "side")
LINE_KEYS = ("moves", "weight", "name", "orders")
MAX_ORDERS_PLIES = 12
CHECK_KEYS = ("depth", "max_loss_cp", "quality")
EXTEND_KEYS = ("plies", "positions", "multipv", "weight")
ICCS_TOKEN = re.compile(r"[a-i][0-9][a-i][0-9]")


@dataclass(frozen=True)
class Opening:
    id: int
    zh: str
    pinyin: str
    en: str
    parent: int | None          # None only for the root (id 0)
    line: int                   # where it starts in the file


@dataclass(frozen=True)
class Line:
    opening: int
    main: bool
    moves: tuple[str, ...]      # ICCS, ranks 0-9 from Red's side
    weight: int                 # opening weight x line weight, 1..255
    name: str
    orders: tuple[int, int] | None   # plies (from 1, inclusive) that may come in any order
    line: int                   # file line of the sequence's first move
    move_lines: tuple[int, ...]  # file line of every move (for messages)

    def where(self, path: Path | str, ply: int | None = None) -> str:
        """`file:line` of the line, or of one of its moves (ply from 1)."""
        at = self.line if ply is None else self.move_lines[ply - 1]
        return f"{_rel(path)}:{at}"


@dataclass(frozen=True)
class CheckRule:
    depth: int                  # Fairy-Stockfish depth of every search
    max_loss_cp: int            # most a book move may lose against the best move
    quality: tuple[tuple[int, int], ...]   # (loss at most, weight factor), ascending

    def factor(self, loss_cp: int) -> int:
        """The weight factor of a move that loses `loss_cp` (0 = fails)."""
        for most, factor in self.quality:
            if loss_cp <= most:
                return factor
        return 0


@dataclass(frozen=True)
class ExtendRule:
    plies: int                  # engine moves followed beyond the source lines
    positions: int              # most positions past the source searched
    multipv: int                # lines of each search for moves past the source
    weight: int                 # the weight of an engine move


@dataclass(frozen=True)
class Book:
    path: Path
    sha256: str
    check: CheckRule
    openings: tuple[Opening, ...]
    lines: tuple[Line, ...]
    extend: ExtendRule | None = None    # None: no engine moves

    def ancestors(self, opening: int) -> list[int]:
        """The opening and its parents up to the root, most specific first."""
        out = [opening]
        while self.openings[out[-1]].parent is not None:
            out.append(self.openings[out[-1]].parent)
        return out

    def common_opening(self, ids: set[int]) -> int:
        """The most specific opening that contains every opening in `ids`
        (their deepest common ancestor in the parent tree)."""
        chains = [self.ancestors(i) for i in sorted(ids)]
        common = set(chains[0]).intersection(*chains[1:])
        return next(i for i in chains[0] if i in common)


def _rel(path: Path | str) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _err(path: Path, line: int | None, message: str) -> ConfigError:
    return ConfigError(_rel(path), line, message)


def _str(path: Path, node: Node, what: str) -> str:
    if not isinstance(node.value, str) or not node.value.strip():
        raise _err(path, node.line, f"{what} must be a non-empty string, got {node.value!r}")
    return node.value.strip()


def _int(path: Path, node: Node, what: str, lo: int, hi: int) -> int:
    v = node.value
    if isinstance(v, bool) or not isinstance(v, int):
        raise _err(path, node.line, f"{what} must be an integer, got {v!r}")
    if not lo <= v <= hi:
        raise _err(path, node.line, f"{what} = {v} is out of range {lo}..{hi}")
    return v


def _mapping(path: Path, node: Node, what: str, keys: tuple[str, ...]) -> dict[str, Node]:
    if not isinstance(node.value, dict):
        raise _err(path, node.line, f"{what} must be a mapping")
    for k, v in node.value.items():
        if k not in keys:
            raise _err(path, v.line, f"unknown key '{k}' in {what} (expected one of {', '.join(keys)})")
    return node.value


def _move_tokens(text: str, yaml_node: yaml.Node) -> list[tuple[str, int]]:
    """The whitespace-separated tokens of a move sequence with the file line
    of each (a plain YAML scalar may run over several lines)."""
    start, end = yaml_node.start_mark, yaml_node.end_mark
    raw = start.buffer[start.pointer:end.pointer] if start.buffer is not None else ""
    out, cursor = [], 0
    for tok in text.split():
        at = raw.find(tok, cursor)
        if at < 0:
            out.append((tok, start.line + 1))
            continue
        out.append((tok, start.line + 1 + raw.count("\n", 0, at)))
        cursor = at + len(tok)
    return out


def _check_rule(path: Path, node: Node) -> CheckRule:
    m = _mapping(path, node, "check", CHECK_KEYS)
    for key in CHECK_KEYS:
        if key not in m:
            raise _err(path, node.line, f"missing key '{key}' in check")
    depth = _int(path, m["depth"], "check.depth", 16, 40)
    max_loss = _int(path, m["max_loss_cp"], "check.max_loss_cp", 0, 1000)
    q = m["quality"]
    if not isinstance(q.value, list) or not q.value:
        raise _err(path, q.line, "check.quality must be a list of [loss at most, factor] pairs")
    quality = []
    for item in q.value:
        if not isinstance(item.value, list) or len(item.value) != 2:
            raise _err(path, item.line, "each check.quality entry is [loss at most, factor]")
        most = _int(path, item.value[0], "check.quality loss", 0, max_loss)
        factor = _int(path, item.value[1], "check.quality factor", 1, MAX_WEIGHT)
        if quality and most <= quality[-1][0]:
            raise _err(path, item.line, "check.quality losses must ascend")
        quality.append((most, factor))
    if quality[-1][0] != max_loss:
        raise _err(path, q.line, f"the last check.quality entry must cover max_loss_cp ({max_loss})")
    return CheckRule(depth, max_loss, tuple(quality))


def _extend_rule(path: Path, node: Node) -> ExtendRule:
    m = _mapping(path, node, "extend", EXTEND_KEYS)
    for key in EXTEND_KEYS:
        if key not in m:
            raise _err(path, node.line, f"missing key '{key}' in extend")
    return ExtendRule(_int(path, m["plies"], "extend.plies", 1, 20),
                      _int(path, m["positions"], "extend.positions", 0, 100000),
                      _int(path, m["multipv"], "extend.multipv", 1, 20),
                      _int(path, m["weight"], "extend.weight", 1, MAX_WEIGHT))


def load_book(path: Path | str = BOOK_YAML) -> Book:
    """Load config/book.yaml, validating everything and replaying every line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _err(path, None, f"cannot read: {exc.strerror}") from None
    # Line numbers of the raw YAML nodes (for per-move lines), alongside the
    # validated tree that reference_py.config builds.
    root = load_yaml(path)
    raw_root = yaml.compose(data.decode("utf-8"), Loader=yaml.SafeLoader)
    top = _mapping(path, root, "the file", ("check", "extend", "openings"))
    for key in ("check", "openings"):
        if key not in top:
            raise _err(path, root.line, f"missing top-level key '{key}'")
    check = _check_rule(path, top["check"])
    extend = _extend_rule(path, top["extend"]) if "extend" in top else None
    raw_openings = next(v for k, v in raw_root.value if k.value == "openings")
    ops_node = top["openings"]
    if not isinstance(ops_node.value, list) or not ops_node.value:
        raise _err(path, ops_node.line, "openings must be a non-empty list")
    openings: list[Opening] = []
    lines: list[Line] = []
    by_zh: dict[str, int] = {}
    for oid, (node, raw) in enumerate(zip(ops_node.value, raw_openings.value)):
        m = _mapping(path, node, f"opening {oid}", OPENING_KEYS)
        for key in ("zh", "pinyin", "en"):
            if key not in m:
                raise _err(path, node.line, f"opening {oid} has no '{key}'")
        zh = _str(path, m["zh"], "zh")
        if zh in by_zh:
            raise _err(path, m["zh"].line, f"opening '{zh}' is listed twice")
        parent = None
        if "parent" in m:
            pname = _str(path, m["parent"], "parent")
            if pname not in by_zh:
                raise _err(path, m["parent"].line,
                           f"parent '{pname}' is not an opening listed above '{zh}'")
            parent = by_zh[pname]
        elif oid != 0:
            raise _err(path, node.line, f"opening '{zh}' has no parent (only the first opening, "
                                        "the root, has none)")
        by_zh[zh] = oid
        openings.append(Opening(oid, zh, _str(path, m["pinyin"], "pinyin"), _str(path, m["en"], "en"),
                                parent, node.line))
        weight = _int(path, m["weight"], "weight", 1, MAX_WEIGHT) if "weight" in m else 1
        raw_map = {k.value: v for k, v in raw.value}
        for kind in ("main", "side"):
            if kind not in m:
                continue
            seq = m[kind]
            if not isinstance(seq.value, list):
                raise _err(path, seq.line, f"'{kind}' of '{zh}' must be a list of lines")
            for item, raw_item in zip(seq.value, raw_map[kind].value):
                lines.append(_line(path, oid, zh, kind == "main", weight, item, raw_item))
    book = Book(path, hashlib.sha256(data).hexdigest(), check, tuple(openings), tuple(lines), extend)
    for ln in book.lines:
        _replay(path, book, ln)
    return book


def _line(path: Path, oid: int, zh: str, main: bool, weight: int, node: Node,
          raw: yaml.Node) -> Line:
    name = ""
    line_weight = 1
    orders = None
    if isinstance(node.value, dict):
        m = _mapping(path, node, f"a line of '{zh}'", LINE_KEYS)
        if "moves" not in m:
            raise _err(path, node.line, f"a line of '{zh}' has no 'moves'")
        if "weight" in m:
            line_weight = _int(path, m["weight"], "line weight", 1, MAX_WEIGHT)
        if "name" in m:
            name = _str(path, m["name"], "name")
        if "orders" in m:
            orders = _orders(path, m["orders"])
        text_node = m["moves"]
        raw = next(v for k, v in raw.value if k.value == "moves")
    else:
        text_node = node
    if not isinstance(text_node.value, str):
        raise _err(path, text_node.line, "a line is a string of ICCS moves like 'h2e2 h9g7 h0g2'")
    tokens = _move_tokens(text_node.value, raw)
    for ply, (tok, at) in enumerate(tokens, start=1):
        if not ICCS_TOKEN.fullmatch(tok):
            raise _err(path, at, f"ply {ply}: '{tok}' is not an ICCS move like h2e2 "
                                 "(files a-i, ranks 0-9 from Red's side)")
    if not tokens:
        raise _err(path, text_node.line, "empty line")
    if main and len(tokens) < MIN_MAIN_PLIES:
        raise _err(path, text_node.line, f"a main line of '{zh}' has {len(tokens)} plies, "
                                         f"main lines need at least {MIN_MAIN_PLIES}")
    if orders is not None and orders[1] > len(tokens):
        raise _err(path, m["orders"].line, f"orders: the line has only {len(tokens)} plies")
    total = weight * line_weight
    if total > MAX_WEIGHT:
        raise _err(path, text_node.line, f"opening weight x line weight = {total} is over {MAX_WEIGHT}")
    return Line(oid, main, tuple(t for t, _ in tokens), total, name, orders, tokens[0][1],
                tuple(at for _, at in tokens))


def _orders(path: Path, node: Node) -> tuple[int, int]:
    """`orders: [first, last]`: the line's plies first..last (from 1) may be
    played in any order that keeps each side's moves on its own plies."""
    v = node.value
    if not isinstance(v, list) or len(v) != 2:
        raise _err(path, node.line, "orders must be [first ply, last ply]")
    first = _int(path, v[0], "orders: first ply", 1, 10000)
    last = _int(path, v[1], "orders: last ply", first + 1, first + MAX_ORDERS_PLIES - 1)
    return first, last


def _replay(path: Path, book: Book, ln: Line) -> None:
    """Every move of the line must be legal in turn from the start position,
    and the plies of an `orders` window must capture nothing."""
    pos = parse_fen(START_FEN)
    zh = book.openings[ln.opening].zh
    for ply, text in enumerate(ln.moves, start=1):
        try:
            move = parse_iccs(pos, text)
        except NotationError as exc:
            raise _err(path, ln.move_lines[ply - 1],
                       f"line '{ln.name or ' '.join(ln.moves[:4])}' of '{zh}', ply {ply}, "
                       f"move {text}: {exc}") from None
        if ln.orders and ln.orders[0] <= ply <= ln.orders[1] and pos.is_capture(move):
            raise _err(path, ln.move_lines[ply - 1],
                       f"line '{ln.name or ' '.join(ln.moves[:4])}' of '{zh}', ply {ply}, "
                       f"move {text} captures: an orders window holds quiet moves only")
        pos.make(move)
