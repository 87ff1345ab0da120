"""reference_py/book.py: the opening book's rules (docs/ENGINE.md "Opening
book"), on small hand-made books whose answers are worked out here."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from reference_py import book as B
from reference_py.board import move_iccs
from reference_py.config import Level
from reference_py.fen import format_fen, parse_fen
from reference_py.notation import parse_iccs
from reference_py.search import LFSR_DEFAULT, Searcher, levels

ROOT = Path(__file__).resolve().parents[1]
START = B.START_FEN


def after(*moves: str, fen: str = START):
    pos = parse_fen(fen)
    for m in moves:
        pos.make(parse_iccs(pos, m))
    return parse_fen(format_fen(pos))


def write_book(tmp_path: Path, positions: list[dict], openings: int = 2) -> Path:
    doc = {"source_sha256": "0" * 64,
           "openings": [{"id": i, "zh": f"开局{i}", "pinyin": f"kai ju {i}", "en": f"Opening {i}"}
                        for i in range(openings)],
           "positions": positions}
    path = tmp_path / "book.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def entry(pos, moves: dict[str, int], opening: int = 0) -> dict:
    return {"fen": format_fen(pos), "opening": opening,
            "moves": [{"move": m, "weight": w} for m, w in moves.items()]}


@pytest.fixture
def small(tmp_path) -> B.Book:
    """start: h2e2 (3), c3c4 (1); after h2e2, Black: h9g7 (2), b9c7 (1),
    stored as the mirror image (b2e2 ... h9g7 mirrored); after h2e2 h9g7:
    h0g2 (1), opening 1; a position no book line reaches."""
    mirror_of_h2e2 = parse_fen(B.mirror_fen(format_fen(after("h2e2"))))
    return B.load(write_book(tmp_path, [
        entry(parse_fen(START), {"h2e2": 3, "c3c4": 1}),
        entry(mirror_of_h2e2, {"b9c7": 2, "h9g7": 1}),          # = h9g7 (2), b9c7 (1) after h2e2
        entry(after("h2e2", "h9g7"), {"h0g2": 1}, opening=1),
        entry(after("c3c4", "c6c5", "b0c2", "b9c7"), {"h0g2": 5}),  # not reached by book moves
    ]))


def test_keys_of_a_position_and_its_mirror():
    pos = after("h2e2", "h9g7")
    k, m = B.keys(pos)
    km, mm = B.keys(parse_fen(B.mirror_fen(format_fen(pos))))
    assert (k, m) == (mm, km) and k != m
    s, sm = B.keys(parse_fen(START))
    assert s == sm                                            # the start is its own mirror
    black = parse_fen(START.replace(" w ", " b "))
    assert B.keys(black)[0] == s ^ B.BOOK_KEY_BLACK
    assert all(0 <= v < 1 << 32 for row in B.BOOK_KEYS for v in row)


def test_depth_is_the_fewest_book_plies_and_unreached_positions_drop(small):
    depths = sorted(e.depth for e in small.entries.values())
    assert depths == [0, 1, 2]                                # the unreached one is gone
    assert small.find(after("c3c4", "c6c5", "b0c2", "b9c7")) is None


def test_a_position_found_through_its_mirror_gets_mirrored_moves(small):
    entry_, moves = small.moves(after("h2e2"))                # stored as after b2e2
    assert entry_.depth == 1
    assert [(move_iccs(m), w) for m, w in moves] == [("h9g7", 2), ("b9c7", 1)]
    _, moves = small.moves(after("b2e2"))                     # found as stored
    assert [(move_iccs(m), w) for m, w in moves] == [("b9c7", 2), ("h9g7", 1)]


def test_a_position_that_is_its_own_mirror_adds_the_mirror_moves(small):
    _, moves = small.moves(parse_fen(START))
    assert [(move_iccs(m), w) for m, w in moves] == [("h2e2", 3), ("c3c4", 1), ("b2e2", 3), ("g3g4", 1)]


def test_choose_by_weight_over_every_r():
    moves = [(1, 3), (2, 1), (3, 4)]                          # W = 8
    picks = Counter(B.choose(moves, r) for r in range(1 << 16))
    assert picks == {1: 3 << 13, 2: 1 << 13, 3: 4 << 13}       # exactly in proportion
    assert B.choose(moves, 0) == 1 and B.choose(moves, 0xFFFF) == 3


def lfsr_from(seed: int):
    state = [seed or LFSR_DEFAULT]

    def step() -> int:
        x = state[0]
        state[0] = (x >> 1) ^ (0xB400 if x & 1 else 0)
        return state[0]
    return step, state


def test_book_move_gating_and_lfsr(small):
    pos = after("h2e2")                                       # depth 1
    step, state = lfsr_from(77)
    assert B.book_move(small, pos, 1, step) is None and state[0] == 77     # 1 ply of book: no
    hit = B.book_move(small, pos, 2, step)
    assert hit is not None and move_iccs(hit[0]) in ("h9g7", "b9c7")
    ref, ref_state = lfsr_from(77)
    for _ in range(B.BOOK_LFSR_STEPS):
        r = ref()
    assert state[0] == ref_state[0] == r
    assert B.book_move(small, after("h2e2", "h9g7", "h0g2"), 60, step) is None   # out of book


def test_search_plays_from_the_book_and_without_it_searches(small):
    lv = Level("T", 2, 2, levels()[0].eval, 500, 0, True, True, book=10)
    pos = after("h2e2", "h9g7")
    r = Searcher(pos.copy(), lv, seed=5, book=small).run()
    assert (move_iccs(r.move), r.nodes, r.depth, r.score, r.book) == ("h0g2", 0, 0, 0, "开局1")
    r = Searcher(pos.copy(), lv, seed=5, book=None).run()
    assert r.nodes > 0 and r.book is None
    r = Searcher(pos.copy(), Level("T", 2, 2, lv.eval, 500, 0, True, True, book=2), seed=5, book=small).run()
    assert r.nodes > 0 and r.book is None                     # depth 2: beyond 2 plies of book


def test_seeds_vary_the_book_moves(small):
    lv = Level("T", 1, 1, levels()[0].eval, 50, 0, True, True, book=10)
    firsts = {move_iccs(Searcher(parse_fen(START), lv, seed=s, book=small).run().move) for s in range(1, 60)}
    assert firsts == {"h2e2", "c3c4", "b2e2", "g3g4"}


@pytest.mark.parametrize("change,words", [
    (lambda d: d["positions"][0]["moves"].append({"move": "e0e2", "weight": 1}), ["position 0", "e0e2"]),
    (lambda d: d["positions"][0]["moves"].__setitem__(0, {"move": "h2e2", "weight": 0}), ["weights 1..255"]),
    (lambda d: d["positions"].append(dict(d["positions"][0])), ["a second entry"]),
    (lambda d: d["positions"][0].__setitem__("opening", 9), ["no opening 9"]),
    (lambda d: d.pop("openings"), ["not book data"]),
    (lambda d: d["positions"][0].__setitem__("fen", "9/9 w"), ["position 0"]),
])
def test_bad_book_data_names_the_file(tmp_path, change, words):
    doc = {"source_sha256": "", "openings": [{"id": 0, "zh": "a", "pinyin": "a", "en": "a"}],
           "positions": [entry(parse_fen(START), {"h2e2": 1})]}
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(B.BookError) as exc:
        B.load(path)
    assert str(path) in str(exc.value) and all(w in str(exc.value) for w in words), exc.value
    path.write_bytes(b"\xff\xfe not json")
    with pytest.raises(B.BookError, match="not JSON"):
        B.load(path)


def test_cli_book_prints_the_record():
    r = subprocess.run([sys.executable, "-m", "reference_py", "book", START], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    want = B.probe_json(B.default_book(), parse_fen(START))
    assert out == want
    if B.default_book() is not None and B.default_book().entries:
        assert out["moves"] and out["depth"] == 0
