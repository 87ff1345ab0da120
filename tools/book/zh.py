"""Traditional Chinese move notation (炮二平五 马8进7) to ICCS (h2e2 h9g7).

Opening theory is printed in this notation, so lines for config/book.yaml
are easiest to enter as the books give them; `python -m tools.book iccs`
turns them into the ICCS sequences the file holds.  A move is four
characters: piece and file (炮二, 马8) or 前/中/后 and piece (前炮), then
进 / 退 / 平 and a number.  Red's files are Chinese numerals counted from
Red's right, Black's are digits counted from Black's right (full-width
digits are accepted).  Matching goes through WXF text
(reference_py.notation.format_wxf), so the result is always a legal move.
"""
from __future__ import annotations

import re

from reference_py.board import move_iccs
from reference_py.fen import START_FEN, parse_fen
from reference_py.notation import NotationError, format_wxf
from reference_py.position import Position

PIECE = {"车": "R", "俥": "R", "車": "R", "马": "H", "傌": "H", "馬": "H", "炮": "C", "砲": "C",
         "包": "C", "相": "E", "象": "E", "仕": "A", "士": "A", "帅": "K", "帥": "K", "将": "K",
         "將": "K", "兵": "P", "卒": "P"}
NUMBER = {c: str(i + 1) for i, c in enumerate("一二三四五六七八九")}
NUMBER.update({c: str(i + 1) for i, c in enumerate("１２３４５６７８９")})
NUMBER.update({str(i): str(i) for i in range(1, 10)})
ACTION = {"进": "+", "進": "+", "退": "-", "平": "="}
TANDEM = {"前": "+", "后": "-", "後": "-"}
# Move numbers and punctuation that printed lines carry between moves.
NOISE = re.compile(r"(\d+\s*[.．、]|[，,。;；…．.]+)")


def to_wxf(text: str) -> str:
    """One Chinese move to WXF text ('炮二平五' -> 'C2=5', '前炮进一' -> 'C++1')."""
    if len(text) != 4:
        raise NotationError(f"'{text}' is not a move: expected four characters like 炮二平五")
    a, b, c, d = text
    if a in TANDEM and b in PIECE:
        head = PIECE[b] + TANDEM[a]
    elif a in PIECE and b in NUMBER:
        head = PIECE[a] + NUMBER[b]
    else:
        raise NotationError(f"'{text}': expected a piece and a file (炮二) or 前/后 and a piece (前炮)")
    if c not in ACTION or d not in NUMBER:
        raise NotationError(f"'{text}': expected 进, 退 or 平 and a number after '{a}{b}'")
    return head + ACTION[c] + NUMBER[d]


def parse_zh(pos: Position, text: str) -> int:
    """The legal move of `pos` that `text` names, or NotationError."""
    want = to_wxf(text)
    found = [m for m in pos.legal_moves() if format_wxf(pos, m).upper() == want]
    if not found:
        raise NotationError(f"'{text}' ({want}) is not a legal move here")
    return found[0]


def zh_line_to_iccs(line: str, fen: str = START_FEN) -> list[str]:
    """A printed line ('1.炮二平五 马8进7 2.马二进三 ...') as ICCS moves."""
    pos = parse_fen(fen)
    out = []
    for ply, token in enumerate(NOISE.sub(" ", line).split(), start=1):
        try:
            move = parse_zh(pos, token)
        except NotationError as exc:
            raise NotationError(f"ply {ply}: {exc}") from None
        out.append(move_iccs(move))
        pos.make(move)
    return out
