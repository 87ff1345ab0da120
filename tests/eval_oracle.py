"""A second, independent implementation of the static evaluation.

It reads config/eval.yaml with PyYAML itself and a position from its FEN
text, and follows docs/ENGINE.md "Evaluation" line by line: no code, table
or square numbering of reference_py is used, so a mistake in the shared path
(reference_py/config.py's loader, evaluate.value_table / build_tables, the
generated ROM tables that come from them) shows as a disagreement.

Coordinates here are (file 0-8 = a-i, rank 0-9 from Red's side).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

EVAL_YAML = Path(__file__).resolve().parents[1] / "config" / "eval.yaml"
KINDS = {"k": "king", "a": "advisor", "b": "elephant", "e": "elephant", "n": "horse", "h": "horse",
         "r": "rook", "c": "cannon", "p": "pawn"}


@lru_cache(maxsize=4)
def load(path: Path = EVAL_YAML) -> dict:
    """The YAML's data (cached: callers that change it work on a deep copy)."""
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def parse(fen: str) -> tuple[dict[tuple[int, int], tuple[str, str]], str]:
    """{(file, rank): ('red'|'black', kind name)} and the side to move ('red'|'black')."""
    board_text, side = fen.split()[:2]
    pieces = {}
    for row, text in enumerate(board_text.split("/")):
        rank, file = 9 - row, 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
                continue
            pieces[(file, rank)] = ("red" if ch.isupper() else "black", KINDS[ch.lower()])
            file += 1
    return pieces, "black" if side == "b" else "red"


def _own_half(colour: str, rank: int) -> bool:
    return rank <= 4 if colour == "red" else rank >= 5


def evaluate(fen: str, set_name: str, cfg: dict | None = None) -> int:
    """The static evaluation for the side to move (no noise)."""
    cfg = cfg or load()
    ws = cfg["sets"][set_name]
    pieces, to_move = parse(fen)

    def piece_value(colour: str, kind: str, f: int, r: int) -> int:
        v = cfg["material"][kind]
        if ws["pst"]:
            # the tables are written from Red's side, rank 9 first; Black's
            # view is the board turned 180 degrees
            table = cfg["pst"][kind]
            v += table[9 - r][f] if colour == "red" else table[r][8 - f]
        return v

    def count(colour: str, kind: str) -> int:
        return sum(1 for c, k in pieces.values() if (c, k) == (colour, kind))

    total = 0
    for (f, r), (colour, kind) in pieces.items():
        total += piece_value(colour, kind, f, r) * (1 if colour == "red" else -1)

    n = len(pieces)
    for colour, sign in (("red", 1), ("black", -1)):
        enemy = "black" if colour == "red" else "red"
        t = 0
        t += count(colour, "horse") * (((32 - n) * ws["horse_per_capture4"]) >> 2)
        t += count(colour, "cannon") * (((32 - n) * ws["cannon_per_capture4"]) >> 2)
        attackers = count(enemy, "rook") + count(enemy, "horse") + count(enemy, "cannon")
        t += count(colour, "pawn") * (6 - attackers) * ws["pawn_per_missing_attacker"]
        t += (2 - count(colour, "elephant")) * count(enemy, "cannon") * ws["missing_elephant_per_cannon"]
        t += (2 - count(colour, "advisor")) * count(enemy, "rook") * ws["missing_advisor_per_rook"]
        enemy_king = next(((f, r) for (f, r), p in pieces.items() if p == (enemy, "king")), None)
        for (f, r), (c, kind) in pieces.items():
            if c != colour:
                continue
            if kind == "horse":
                legs = [(f, r + 1), (f, r - 1), (f - 1, r), (f + 1, r)]
                t += sum(1 for sq in legs if sq in pieces) * ws["horse_leg_blocked"]
            elif kind == "elephant":
                for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                    tf, tr = f + 2 * df, r + 2 * dr
                    if (f + df, r + dr) in pieces and 0 <= tf <= 8 and 0 <= tr <= 9 and _own_half(colour, tr):
                        t += ws["elephant_eye_blocked"]
            elif kind in ("rook", "cannon") and enemy_king and enemy_king[0] == f:
                if kind == "rook":
                    t += ws["rook_on_king_file"]
                else:
                    lo, hi = sorted((r, enemy_king[1]))
                    between = sum(1 for rr in range(lo + 1, hi) if (f, rr) in pieces)
                    t += ws["cannon_on_king_file"][min(between, 3)]
        total += sign * t
    e = total if to_move == "red" else -total
    e += ws["tempo"]
    if ws.get("endgame"):
        e = _endgame(cfg["endgame"], pieces, to_move, e)
    return e


def _endgame(eg: dict, pieces: dict, to_move: str, e: int) -> int:
    """docs/ENGINE.md "Endgames", read from the YAML's `endgame:` tables."""
    def has(colour: str, kind: str) -> int:
        return sum(1 for c, k in pieces.values() if (c, k) == (colour, kind))

    def bare(colour: str) -> bool:
        return not any(has(colour, k) for k in ("rook", "horse", "cannon", "pawn"))

    if bare("red") and bare("black"):
        return e // 2 ** eg["both_bare"]
    if not bare("red") and not bare("black"):
        return e
    weak = "red" if bare("red") else "black"
    strong = "black" if weak == "red" else "red"
    (wf, wr), = [sq for sq, p in pieces.items() if p == (weak, "king")]
    (sf, _), = [sq for sq, p in pieces.items() if p == (strong, "king")]
    # the bare king's free squares: orthogonal neighbours in its palace
    # with none of its pieces that no strong piece could move to
    free = sum(1 for sq in ((wf, wr + 1), (wf, wr - 1), (wf - 1, wr), (wf + 1, wr))
               if _in_palace(weak, *sq) and pieces.get(sq, ("", ""))[0] != weak
               and not _attacked(pieces, sq, strong))
    d = eg["king_mobility"][free]
    if sf == 4:
        d += eg["king_centre"]
    for (f, r), (c, kind) in pieces.items():
        if c == strong and kind in ("horse", "pawn"):
            d += eg["near"][abs(f - wf) + abs(r - wr)]
    e += d if to_move == strong else -d
    men = {k: has(strong, k) for k in ("rook", "horse", "cannon", "pawn")}
    alone = [k for k, n in men.items() if n]
    if sum(men.values()) == 1:
        row = {"rook": "R", "horse": "H", "pawn": "P"}.get(alone[0])
        if row is None:
            row = "CA" if has(strong, "advisor") else "C"
    elif alone == ["pawn"] and men["pawn"] == 2:
        row = "PP"
    else:
        row = "other"
    column = has(weak, "advisor") + 3 * has(weak, "elephant")
    e = e // 2 ** eg["scale"][row][column]
    horse_vs = sorted([(strong, "king"), (strong, "horse"), (weak, "king")])
    if sorted(pieces.values()) in (sorted(horse_vs + [(weak, "elephant")]),
                                   sorted(horse_vs + [(weak, "advisor"), (weak, "advisor")])):
        if not _bitbase_win(pieces, strong, weak, to_move):
            return 0
        e += eg["bitbase_win"] if to_move == strong else -eg["bitbase_win"]
    return e


# docs/ENGINE.md "Bitbases": the classes of the defender's men (its own view,
# (file, rank)), in index order; a set that is the mirror image of a class's
# belongs to it with the position mirrored.
BITBASE_CLASSES = {
    "elephant": ("bitbase_h_e.bin", [{(0, 2)}, {(2, 0)}, {(2, 4)}, {(4, 2)}]),
    "advisor": ("bitbase_h_aa.bin", [{(3, 0), (5, 0)}, {(3, 0), (4, 1)}, {(3, 0), (3, 2)}, {(3, 0), (5, 2)},
                                     {(4, 1), (3, 2)}, {(3, 2), (5, 2)}]),
}


def _bitbase_win(pieces: dict, strong: str, weak: str, to_move: str) -> bool:
    """docs/ENGINE.md "Bitbases": the bit of a KH vs KE or KH vs KAA
    position in its file, read by the documented index."""
    def own(f: int, r: int) -> tuple[int, int]:          # the defender's view: its back rank is 0
        return (f, r) if weak == "red" else (8 - f, 9 - r)
    men_kind = "advisor" if any(k == "advisor" for _, k in pieces.values()) else "elephant"
    file, classes = BITBASE_CLASSES[men_kind]
    sq = {}
    men = set()
    for fr, (c, kind) in pieces.items():
        if kind == men_kind:
            men.add(own(*fr))
        else:
            sq[kind if c == weak else "a" + kind] = own(*fr)
    if men in classes:
        cls = classes.index(men)
    else:
        cls = classes.index({(8 - f, r) for f, r in men})
        sq = {k: (8 - f, r) for k, (f, r) in sq.items()}
    dk = sq["king"][1] * 3 + sq["king"][0] - 3
    ak = (sq["aking"][1] - 7) * 3 + sq["aking"][0] - 3
    h = sq["ahorse"][1] * 9 + sq["ahorse"][0]
    bit = (((to_move == weak) * len(classes) + cls) * 9 + dk) * 810 + ak * 90 + h
    data = (EVAL_YAML.parent / file).read_bytes()
    return bool(data[bit >> 3] >> (bit & 7) & 1)


def _in_palace(colour: str, f: int, r: int) -> bool:
    return 3 <= f <= 5 and (0 <= r <= 2 if colour == "red" else 7 <= r <= 9)


def _attacked(pieces: dict, target: tuple[int, int], by: str) -> bool:
    """Could a piece of `by` move to `target` by its movement rule (pins and
    the facing kings ignored; what the target holds is not looked at)?"""
    tf, tr = target

    def at(f: int, r: int):
        return pieces.get((f, r))

    for (f, r), (c, kind) in pieces.items():
        if c != by or (f, r) == target:
            continue
        df, dr = tf - f, tr - r
        if kind in ("rook", "cannon") and (df == 0) != (dr == 0):
            step = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
            between = 0
            x, y = f + step[0], r + step[1]
            while (x, y) != target:
                between += at(x, y) is not None
                x, y = x + step[0], y + step[1]
            if between == (0 if kind == "rook" else 1):
                return True
        elif kind == "horse" and sorted((abs(df), abs(dr))) == [1, 2]:
            leg = (f + (df // 2 if abs(df) == 2 else 0), r + (dr // 2 if abs(dr) == 2 else 0))
            if at(*leg) is None:
                return True
        elif kind == "king" and abs(df) + abs(dr) == 1 and _in_palace(by, tf, tr):
            return True
        elif kind == "advisor" and abs(df) == abs(dr) == 1 and _in_palace(by, tf, tr):
            return True
        elif kind == "elephant" and abs(df) == abs(dr) == 2 and _own_half(by, tr) \
                and at(f + df // 2, r + dr // 2) is None:
            return True
        elif kind == "pawn":
            forward = 1 if by == "red" else -1
            crossed = not _own_half(by, r)
            if (df == 0 and dr == forward) or (crossed and dr == 0 and abs(df) == 1):
                return True
    return False
