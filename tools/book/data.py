"""config/book.checked.json: the checked book, the data both engines read.

Building the ROM and running the engines never needs Fairy-Stockfish: they
read this file, which `python -m tools.book check` writes (atomically) from
config/book.yaml and the engine's verdicts.

Weights: a move's weight in the file (config/book.yaml) is its line's
weight times its opening's weight; where several lines play the same move
in the same position, the largest counts.  The check multiplies it by the
factor of `check.quality` for the move's loss (a move close to the engine's
best is played more often), clamped to 1..255.  Engine moves
(tools/book/extend.py) weigh `extend.weight` and are marked "engine": true.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.atomic import write_atomic

from .check import Verdict
from .extend import Extension
from .source import MAX_WEIGHT, ROOT, Book
from .tree import Tree

CHECKED_JSON = ROOT / "config" / "book.checked.json"
FORMAT = 1


def move_weight(book_weight: int, factor: int) -> int:
    return max(1, min(MAX_WEIGHT, book_weight * factor))


def build(tree: Tree, verdicts: dict[tuple[str, str], Verdict], engine_id: str,
          unchecked: int, ext: Extension | None = None) -> dict[str, Any]:
    """The checked book as a JSON-ready dict.  `unchecked` positions (no
    engine results yet) make it partial: it says so, and how many."""
    book: Book = tree.book
    rule = book.check
    ext = ext or Extension()
    positions = []
    failed = []
    fens = sorted({n.fen for n in tree.positions_with_moves()} | set(ext.moves))
    for fen in fens:
        engine_moves = ext.moves.get(fen, {})
        node = tree.nodes.get(fen)
        source_moves = node.moves if node is not None else {}
        moves = []
        for m in sorted(set(source_moves) | set(engine_moves)):
            if m in engine_moves:
                e = engine_moves[m]
                moves.append({"move": m, "weight": e.weight, "loss_cp": e.loss_cp, "engine": True})
                continue
            assert node is not None
            v = verdicts.get((node.fen, m))
            if v is None:
                continue
            bm = node.moves[m]
            if v.passed(rule):
                moves.append({"move": m, "weight": move_weight(bm.weight, rule.factor(v.loss_cp)),
                              "loss_cp": v.loss_cp})
            else:
                failed.append({"fen": node.fen, "move": m, "loss_cp": v.loss_cp, "best": v.best,
                               "lines": sorted({ln.where(book.path, ply) for ln, ply in bm.sources})})
        if moves:
            opening = tree.opening_of(node) if node is not None else ext.openings[fen]
            positions.append({"fen": fen, "opening": opening, "moves": moves})
    return {
        "format": FORMAT,
        "source_sha256": book.sha256,
        "checker": {"engine": engine_id, "depth": rule.depth, "max_loss_cp": rule.max_loss_cp,
                    "threads": 1, "hash_mb": 64},
        "extend": (None if book.extend is None else
                   {"plies": book.extend.plies, "positions": book.extend.positions, "multipv": book.extend.multipv,
                    "weight": book.extend.weight}),
        "partial": unchecked > 0,
        "unchecked_positions": unchecked,
        "openings": [{"id": o.id, "zh": o.zh, "pinyin": o.pinyin, "en": o.en, "parent": o.parent}
                     for o in book.openings],
        "positions": positions,
        "failed": failed,
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON with one position (or opening, or failure) a line: diffs stay readable."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    out = ["{"]
    keys = list(data)
    for i, k in enumerate(keys):
        v = data[k]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(v, list) and v:
            out.append(f"  {one(k)}: [")
            out += [f"    {one(x)}{',' if j < len(v) - 1 else ''}" for j, x in enumerate(v)]
            out.append(f"  ]{comma}")
        else:
            out.append(f"  {one(k)}: {one(v)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


def write(data: dict[str, Any], path: Path = CHECKED_JSON) -> None:
    write_atomic(path, dumps(data).encode("utf-8"))


def load(path: Path = CHECKED_JSON) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))
