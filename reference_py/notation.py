"""Move notation: ICCS (h2e2) in and out, WXF (C2=5) out and in, Chinese
(炮二平五) out.

ICCS squares are files a-i and ranks 0-9 from Red's side.  WXF numbers the
files 1-9 from each player's own right; `+` is forward, `-` backward and
`=` sideways (`.` is accepted on input); two like pieces on one file are
told apart by `+` (front) and `-` (rear) in place of the file number.

Chinese (format_zh) is what the cartridge's move list shows, four
characters: piece and file, or 前/中/后 and piece; 进 (forward), 退
(backward) or 平 (sideways); then the destination file (平, and any move of
a horse, advisor or elephant) or the number of ranks moved (进/退 of a
rook, cannon, king or pawn).  Pieces, simplified: Red 帅仕相车马炮兵,
Black 将士象车马炮卒.  Red's files and numbers are the Chinese numerals
一..九 counted from Red's right; Black's are the full-width digits １..９
counted from Black's right (one CJK cell each, as the cartridge draws them).
Like pieces of the mover on one file: two are 前 (the one nearer the
opponent) and 后; of three or more the front one is 前, the rearmost 后 and
every one between 中.  Simplification: the rule for doubled pawns on two
files at once (the file numeral in place of the piece) is not applied, so
such a move reads 前兵 / 后兵 like any other tandem.
"""
from __future__ import annotations

import re

from .board import (
    ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK, file_of, make_move_code,
    move_iccs, rank_of, square,
)
from .position import Position

WXF_LETTER = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", ROOK: "R", CANNON: "C", PAWN: "P"}
CHINESE = {(RED, KING): "帥", (RED, ADVISOR): "仕", (RED, ELEPHANT): "相", (RED, HORSE): "傌",
           (RED, ROOK): "俥", (RED, CANNON): "炮", (RED, PAWN): "兵",
           (BLACK, KING): "將", (BLACK, ADVISOR): "士", (BLACK, ELEPHANT): "象", (BLACK, HORSE): "馬",
           (BLACK, ROOK): "車", (BLACK, CANNON): "砲", (BLACK, PAWN): "卒"}
ICCS_RE = re.compile(r"^\s*([a-iA-I])([0-9])\s*-?\s*([a-iA-I])([0-9])\s*$")
SIDE_NAME = ("Red", "Black")


class NotationError(ValueError):
    """Move text that is malformed or not legal in the position."""


def kind_at(pos: Position, sq: int) -> tuple[int, int] | None:
    code = pos.board[sq]
    if not code or code == 0xFF:
        return None
    side = BLACK if code & 0x20 else RED
    return side, pos.piece_kind[(code & 0x0F) | (side << 4)]


def parse_iccs(pos: Position, text: str) -> int:
    """ICCS text to a legal move of `pos`, or NotationError saying why not."""
    m = ICCS_RE.match(text)
    if not m:
        raise NotationError(f"'{text}' is not a move: expected ICCS like h2e2 (files a-i, ranks 0-9)")
    frm = square("abcdefghi".index(m.group(1).lower()), int(m.group(2)))
    to = square("abcdefghi".index(m.group(3).lower()), int(m.group(4)))
    move = make_move_code(frm, to)
    return _check_legal(pos, move, text.strip())


def _check_legal(pos: Position, move: int, text: str) -> int:
    frm = move & 0xFF
    piece = kind_at(pos, frm)
    name = move_iccs(move)[:2]
    if piece is None:
        raise NotationError(f"{text}: there is no piece on {name}")
    if piece[0] != pos.side:
        raise NotationError(f"{text}: the piece on {name} is {SIDE_NAME[piece[0]]}'s, "
                            f"and it is {SIDE_NAME[pos.side]} to move")
    if move not in pos.generate():
        raise NotationError(f"{text}: a {_kind_name(piece[1])} cannot move from {name} to {move_iccs(move)[2:]}")
    pos.make(move)
    illegal = pos.in_check(pos.side ^ 1)
    pos.unmake()
    if illegal:
        raise NotationError(f"{text}: illegal, it would leave the king in check or facing the other king")
    return move


def _kind_name(kind: int) -> str:
    return {KING: "king", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse", ROOK: "rook",
            CANNON: "cannon", PAWN: "pawn"}[kind]


def iccs_to_uci(iccs: str) -> str:
    """ICCS ranks 0-9 to Fairy-Stockfish's 1-10."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def uci_to_iccs(uci: str) -> str:
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", uci)
    if not m:
        raise NotationError(f"'{uci}' is not a UCI xiangqi move")
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


ZH_PIECE = {(RED, KING): "帅", (RED, ADVISOR): "仕", (RED, ELEPHANT): "相", (RED, HORSE): "马",
            (RED, ROOK): "车", (RED, CANNON): "炮", (RED, PAWN): "兵",
            (BLACK, KING): "将", (BLACK, ADVISOR): "士", (BLACK, ELEPHANT): "象", (BLACK, HORSE): "马",
            (BLACK, ROOK): "车", (BLACK, CANNON): "炮", (BLACK, PAWN): "卒"}
ZH_NUMBER = ("一二三四五六七八九", "１２３４５６７８９")   # Red's, Black's: 1..9
ZH_ACTION = {1: "进", -1: "退", 0: "平"}
ZH_TANDEM = ("前", "中", "后")


def _mover(pos: Position, move: int) -> tuple[int, tuple[int, int], int, int, int, int, int]:
    """What both notations read of a move: its from square, (side, kind),
    the from and to files and ranks, and +1 or -1 for the mover's forward."""
    frm, to = move & 0xFF, move >> 8
    piece = kind_at(pos, frm)
    if piece is None:
        raise NotationError(f"no piece on {move_iccs(move)[:2]}")
    return frm, piece, file_of(frm), rank_of(frm), file_of(to), rank_of(to), 1 if piece[0] == RED else -1


def format_zh(pos: Position, move: int) -> str:
    """Chinese text of a legal move in `pos` (before it is played), e.g. 炮二平五, 马８进７, 前车进二."""
    frm, piece, f0, r0, f1, r1, fwd = _mover(pos, move)
    side, kind = piece
    numerals = ZH_NUMBER[side]
    ahead = behind = 0
    for sq in range(len(pos.board)):
        if sq != frm and kind_at(pos, sq) == piece and file_of(sq) == f0:
            if (rank_of(sq) - r0) * fwd > 0:
                ahead += 1
            else:
                behind += 1
    name = ZH_PIECE[piece]
    if ahead == behind == 0:
        head = name + numerals[_wxf_file(side, f0) - 1]
    else:
        head = ZH_TANDEM[0 if ahead == 0 else 2 if behind == 0 else 1] + name
    step = (r1 - r0) * fwd
    action = ZH_ACTION[(step > 0) - (step < 0)]
    if step == 0 or kind in (ADVISOR, ELEPHANT, HORSE):
        return head + action + numerals[_wxf_file(side, f1) - 1]
    return head + action + numerals[abs(step) - 1]


def _wxf_file(side: int, file: int) -> int:
    return 9 - file if side == RED else file + 1


def format_wxf(pos: Position, move: int) -> str:
    """WXF text of a legal move in `pos` (before it is played)."""
    frm, piece, f0, r0, f1, r1, fwd = _mover(pos, move)
    side, kind = piece
    # Like pieces on the same file, ordered front (most advanced) first.
    same = sorted((sq for sq in range(len(pos.board)) if kind_at(pos, sq) == piece and file_of(sq) == f0),
                  key=lambda sq: -rank_of(sq) * fwd)
    letter = WXF_LETTER[kind]
    if len(same) == 1:
        head = f"{letter}{_wxf_file(side, f0)}"
    else:
        idx = same.index(frm)
        n = len(same)
        if kind == PAWN and sum(1 for f in range(9) if sum(1 for sq in range(len(pos.board))
                                                          if kind_at(pos, sq) == piece and file_of(sq) == f) > 1) > 1:
            mark = "+" if idx == 0 else "-" if idx == n - 1 else str(_wxf_file(side, f0))
            head = f"{_wxf_file(side, f0)}{mark}"
        elif n == 2:
            head = f"{letter}{'+' if idx == 0 else '-'}"
        elif n == 3:
            head = f"{letter}{'+' if idx == 0 else '-' if idx == 2 else _wxf_file(side, f0)}"
        else:
            marks = ["++", "+", str(_wxf_file(side, f0)), "-", "--"] if n == 5 else ["++", "+", "-", "--"]
            m = marks[idx]
            head = m if len(m) == 2 else f"{letter}{m}"
    if r1 == r0:
        return f"{head}={_wxf_file(side, f1)}"
    action = "+" if (r1 - r0) * fwd > 0 else "-"
    if kind in (ADVISOR, ELEPHANT, HORSE):
        return f"{head}{action}{_wxf_file(side, f1)}"
    return f"{head}{action}{abs(r1 - r0)}"


def parse_move(pos: Position, text: str) -> int:
    """ICCS or WXF text to a legal move (the terminal game accepts both)."""
    if ICCS_RE.match(text):
        return parse_iccs(pos, text)
    want = text.strip().upper().replace(".", "=")
    want = want.replace("N", "H").replace("B", "E")
    for m in pos.legal_moves():
        if format_wxf(pos, m).upper() == want:
            return m
    if re.fullmatch(r"[KAEHRCP1-9+\-][1-9+\-][+\-=][1-9]", want):
        raise NotationError(f"{text}: no legal move matches this WXF notation")
    raise NotationError(f"'{text}' is not a move: type ICCS like h2e2 or WXF like C2=5")
