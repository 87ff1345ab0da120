"""The opening book: config/book.checked.json agrees with config/book.yaml.

Fast (no Fairy-Stockfish): the committed data is rebuilt from the YAML and
the committed engine cache and must come out identical; every position and
move is checked against the reference rules; bad YAML stops the tools with
file:line and writes nothing.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reference_py import book as ref_book
from reference_py.config import ConfigError
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.notation import parse_iccs
from tools.book import data
from tools.book.check import Checker, Missing, check_tree
from tools.book.engine import Cache, Result, multipv_key, parse_info
from tools.book.extend import extend
from tools.book.source import BOOK_YAML, MIN_MAIN_PLIES, CheckRule, load_book
from tools.book.tree import (canonical, canonical_move, expand, is_canonical, mirror_board,
                             mirror_fen, mirror_move, position_fen)
from tools.book.zh import zh_line_to_iccs

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "config" / "book.cache.jsonl"
MIN_POSITIONS = 3000            # distinct positions the source's lines reach, mirrors folded
MIN_BOOK_POSITIONS = 3000       # positions with a book move the engines can reach, mirrors folded


@pytest.fixture(scope="module")
def book():
    return load_book()


@pytest.fixture(scope="module")
def tree(book):
    return expand(book)


@pytest.fixture(scope="module")
def checked():
    return data.load()


def test_data_is_built_from_this_yaml(book, checked):
    assert checked["source_sha256"] == hashlib.sha256(BOOK_YAML.read_bytes()).hexdigest()
    assert checked["source_sha256"] == book.sha256
    rule = book.check
    assert checked["checker"]["depth"] == rule.depth >= 16
    assert checked["checker"]["max_loss_cp"] == rule.max_loss_cp == 50
    assert checked["checker"]["engine"].startswith("Fairy-Stockfish")
    assert checked["openings"] == [{"id": o.id, "zh": o.zh, "pinyin": o.pinyin, "en": o.en,
                                    "parent": o.parent} for o in book.openings]


def test_data_equals_a_rebuild_from_the_engine_cache(tree, checked):
    """The committed JSON is exactly what the tool writes from the YAML and
    the committed cache: nothing edited by hand, nothing stale."""
    checker = Checker(Cache(CACHE), checked["checker"]["engine"], None)
    verdicts, progress = check_tree(tree, checker, log=None)
    ext = extend(tree, verdicts, checker)
    assert not ext.missing
    rebuilt = data.build(tree, verdicts, checked["checker"]["engine"], progress.missing, ext)
    assert json.loads(data.dumps(rebuilt)) == checked


def test_every_position_and_move(tree, checked):
    rule = tree.book.check
    fens = [p["fen"] for p in checked["positions"]]
    assert fens == sorted(fens) and len(set(fens)) == len(fens)
    for p in checked["positions"]:
        fen = p["fen"]
        assert fen.endswith(" - - 0 1") and fen.split()[1] in ("w", "b")
        assert is_canonical(fen), f"{fen} is not in its canonical orientation"
        node = tree.nodes.get(fen)
        engine = [m for m in p["moves"] if m.get("engine")]
        if node is None or not node.moves:      # reached past the source lines
            assert engine == p["moves"], f"{fen}: a position past the source has engine moves only"
        else:
            assert p["opening"] == tree.opening_of(node)
            assert len(engine) <= 1, f"{fen}: a source position gets the engine's best move only"
        assert 0 <= p["opening"] < len(tree.book.openings)
        moves = [m["move"] for m in p["moves"]]
        assert moves == sorted(moves) and moves
        for m in p["moves"]:
            parse_iccs(parse_fen(fen), m["move"])          # legal in the position
            assert 0 <= m["loss_cp"] <= rule.max_loss_cp
            assert 1 <= m["weight"] <= 255
            if m.get("engine"):
                assert m["weight"] == tree.book.extend.weight
                assert node is None or m["move"] not in node.moves
                continue
            assert m["move"] in node.moves
            assert m["weight"] == data.move_weight(node.moves[m["move"]].weight,
                                                   rule.factor(m["loss_cp"]))
    for f in checked["failed"]:
        assert f["loss_cp"] > rule.max_loss_cp and f["move"] in tree.nodes[f["fen"]].moves
        assert all(where.startswith("config/book.yaml:") for where in f["lines"])


def test_mirror_images_are_folded(checked):
    fens = {p["fen"] for p in checked["positions"]}
    for fen in fens:
        m = mirror_fen(fen)
        assert m == fen or m not in fens, f"{fen} and its mirror image are both listed"


def test_size_and_depth(book, tree, checked):
    assert all(len(ln.moves) >= MIN_MAIN_PLIES for ln in book.lines if ln.main)
    assert tree.transpositions(), "no line transposes into another: the book is too thin"
    names = {o.zh for o in book.openings}
    for name in ("中炮对屏风马", "中炮对反宫马", "顺炮", "列炮", "中炮对单提马", "中炮对左炮封车",
                 "仙人指路", "仙人指路对卒底炮", "仙人指路对兵局", "飞相局", "起马局", "过宫炮",
                 "士角炮", "左中炮", "五七炮对屏风马", "五八炮对屏风马", "五六炮对屏风马",
                 "中炮过河车对屏风马", "中炮七路马对屏风马"):
        assert name in names
    assert len(tree.nodes) >= MIN_POSITIONS, "the source's lines reach too few positions"
    assert len(ref_book.load(data.CHECKED_JSON).entries) >= MIN_BOOK_POSITIONS, \
        "the engines' book has too few positions"
    if checked["partial"]:
        assert checked["unchecked_positions"] > 0
    else:
        assert checked["unchecked_positions"] == 0


# ---- folding ------------------------------------------------------------

def test_mirror_helpers():
    assert mirror_board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR") == \
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR"
    assert mirror_move("h2e2") == "b2e2" and mirror_move("a0a1") == "i0i1"
    start = position_fen(parse_fen(START_FEN))
    assert canonical(start) == (start, False)


def test_symmetric_position_keeps_the_move_to_the_canonical_child():
    pos = parse_fen(START_FEN)
    assert canonical_move(pos, "b2e2")[1] == canonical_move(pos, "h2e2")[1] == "h2e2"
    pos.make(parse_iccs(pos, "b2e2"))
    left = position_fen(pos)
    pos = parse_fen(START_FEN)
    pos.make(parse_iccs(pos, "h2e2"))
    assert canonical(left)[0] == position_fen(pos)


def test_transpositions_are_found_by_position(tmp_path):
    head = BOOK_YAML.read_text(encoding="utf-8").split("\nopenings:")[0] + "\n"
    path = tmp_path / "book.yaml"
    path.write_text(head + """openings:
  - zh: 根
    pinyin: gen
    en: Root
    main:
      - h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 c9e7 b2a2 a9b9
    side:
      - h2e2 b9c7 h0g2 h9g7 i0h0 i9h9 c3c4 g6g5
      - b2e2 b9c7 b0c2 a9b9 a0b0 h9g7 g3g4 c6c5
""", encoding="utf-8")
    t = expand(load_book(path))
    # the second line reaches the first's position after 6 plies by another
    # move order; the third is the first's mirror image and adds nothing
    assert t.unfolded > len([n for n in t.nodes.values() if n.moves])
    assert any(len(n.parents) > 1 for n in t.nodes.values())
    assert len(t.positions_with_moves()) == 12 + 4


# ---- bad input ----------------------------------------------------------

def bad_book(tmp_path: Path, lines: str) -> Path:
    head = BOOK_YAML.read_text(encoding="utf-8").split("\nopenings:")[0] + "\n"
    path = tmp_path / "book.yaml"
    path.write_text(head + "openings:\n  - zh: 根\n    pinyin: gen\n    en: Root\n" + lines,
                    encoding="utf-8")
    return path


def test_illegal_move_names_line_ply_and_move(tmp_path):
    path = bad_book(tmp_path, "    main:\n      - h2e2 h9g7 h0g2 i9h9\n        i0h0 b9c7 a0a5 g6g5"
                              " h0h6 h7i7 h6g6 i7i8\n")
    n = path.read_text(encoding="utf-8").count("\n")       # the last line holds a0a5
    with pytest.raises(ConfigError) as exc:
        load_book(path)
    msg = str(exc.value)
    print(msg)
    assert msg.startswith(f"{path}:{n}:") and "ply 7" in msg and "a0a5" in msg


@pytest.mark.parametrize("lines, words", [
    ("    main:\n      - h2e2 h9g7 h0g2\n", "at least 12"),
    ("    side:\n      - h2e2 h9g7 h0g2 i9h\n", "not an ICCS move"),
    ("    sides:\n      - h2e2\n", "unknown key 'sides'"),
    ("  - zh: 子\n    pinyin: zi\n    en: Child\n    parent: 无\n", "parent '无'"),
    ("    weight: 0\n", "out of range"),
])
def test_bad_yaml_is_refused_with_its_line(tmp_path, lines, words):
    with pytest.raises(ConfigError) as exc:
        load_book(bad_book(tmp_path, lines))
    assert words in str(exc.value) and str(exc.value).startswith(str(tmp_path))


def test_cli_error_writes_nothing(tmp_path):
    path = bad_book(tmp_path, "    side:\n      - h2e2 h9g7 h2h9\n")
    out = tmp_path / "out.json"
    r = subprocess.run([sys.executable, "-m", "tools.book", "check", "--book", str(path),
                        "--out", str(out), "--cache", str(CACHE), "--cached-only"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "ply 3" in r.stderr and "h2h9" in r.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [path]


# ---- the check's rule ---------------------------------------------------

def test_judge_compares_each_book_move_with_the_best_move(tmp_path):
    """A move's loss is the best move's score minus its own (searchmoves),
    both for the side to move; the best move itself loses nothing."""
    eng, depth = "Fairy-Stockfish test", 16
    start = position_fen(parse_fen(START_FEN))
    cache = Cache(tmp_path / "c.jsonl")
    cache.add(Result(eng, start, depth, "h2e2", 30, 1, 1))              # the best move's search
    for move, score in [("h2e2", 30), ("c3c4", -15), ("g0e2", 10), ("b0c2", -25)]:   # the MultiPV one
        cache.add(Result(eng, start, depth, move, score, 1, 1, move))
    checker = Checker(Cache(tmp_path / "c.jsonl"), eng, None)
    rule = CheckRule(depth, 50, ((10, 4), (25, 3), (40, 2), (50, 1)))
    got = checker.judge(start, ["b0c2", "c3c4", "g0e2", "h2e2"], rule)
    assert {m: v.loss_cp for m, v in got.items()} == {"h2e2": 0, "c3c4": 45, "g0e2": 20, "b0c2": 55}
    assert [m for m, v in got.items() if not v.passed(rule)] == ["b0c2"]
    assert rule.factor(got["c3c4"].loss_cp) == 1 and rule.factor(got["g0e2"].loss_cp) == 3
    with pytest.raises(Missing):                 # nothing cached for this move, no engine
        checker.judge(start, ["b2e2"], rule)


def test_cache_drops_a_torn_last_line_and_rewrites(tmp_path):
    path = tmp_path / "c.jsonl"
    r = Result("e", "f", 16, "h2e2", 1, 2, 3)
    cache = Cache(path)
    cache.add(r)
    with path.open("a", encoding="utf-8") as f:
        f.write('{"best": "h2')
    cache = Cache(path)
    assert list(cache.results.values()) == [r]
    r2 = Result("e", "g", 16, "h2e2", 1, 2, 3)
    cache.add(r2)
    assert len(Cache(path).results) == 2
    cache.rewrite({r2.key})
    assert list(Cache(path).results.values()) == [r2]


def test_uci_info_scores():
    i = parse_info("info depth 16 seldepth 21 multipv 1 score cp -35 upperbound nodes 9 time 7 pv h3e3")
    assert (i["depth"], i["score"], i["bound"], i["nodes"], i["pv"]) == (16, -35, "upperbound", 9, ["h3e3"])
    assert parse_info("info depth 9 score mate 3 nodes 1 time 1 pv a1a2")["score"] == 30000 - 3
    assert parse_info("info depth 9 score mate -2 nodes 1 time 1")["score"] == -(30000 - 2)
    assert parse_info("info depth 15 currmove h3e3 currmovenumber 1") is None


def test_chinese_notation():
    assert zh_line_to_iccs("1.炮二平五 马8进7 2.马二进三 车9平8") == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert zh_line_to_iccs("兵七进一 炮2平3 炮二平五 象3进5") == ["c3c4", "b7c7", "h2e2", "c9e7"]


def test_orders_window_holds_every_move_order(tmp_path):
    """The expansion of an `orders` window equals a brute force over the
    permutations of each side's moves."""
    import itertools
    from reference_py.notation import NotationError
    moves = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 c9e7 b2a2 a9b9".split()
    head = BOOK_YAML.read_text(encoding="utf-8").split("\nopenings:")[0] + "\n"
    path = tmp_path / "book.yaml"
    path.write_text(head + "openings:\n  - zh: 根\n    pinyin: gen\n    en: Root\n    main:\n"
                    f"      - moves: {' '.join(moves)}\n        orders: [3, 8]\n", encoding="utf-8")
    t = expand(load_book(path))
    want: set[str] = set()
    red, black = moves[2:8:2], moves[3:8:2]
    for r in itertools.permutations(red):
        for b in itertools.permutations(black):
            seq = moves[:2] + [m for pair in zip(r, b) for m in pair] + moves[8:]
            pos, fens = parse_fen(START_FEN), []
            try:
                for m in seq:
                    fens.append(canonical(position_fen(pos))[0])
                    pos.make(parse_iccs(pos, m))
            except NotationError:
                continue
            want.update(fens)
    assert {n.fen for n in t.nodes.values() if n.moves} == want
    assert len(want) > len(moves)           # the window adds positions
    pos = parse_fen(START_FEN)
    for m in ("h2e2", "h9g7", "c3c4"):      # an order that starts with the pawn
        pos.make(parse_iccs(pos, m))
    assert canonical(position_fen(pos))[0] in want


def test_orders_window_refuses_a_capture(tmp_path):
    path = bad_book(tmp_path, "    main:\n      - moves: h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 e2e6 d9e8"
                              " b0c2 c9e7 b2a2 a9b9\n        orders: [3, 8]\n")
    with pytest.raises(ConfigError) as exc:
        load_book(path)
    assert "ply 7" in str(exc.value) and "captures" in str(exc.value)


# ---- the engine's extension ---------------------------------------------

def _at(moves: str) -> tuple[str, bool]:
    """(canonical FEN, whether it is mirrored) after `moves` from the start."""
    pos = parse_fen(START_FEN)
    for m in moves.split():
        pos.make(parse_iccs(pos, m))
    return canonical(position_fen(pos))


def _mv(move: str, flipped: bool) -> str:
    return mirror_move(move) if flipped else move


def test_extension_follows_the_engine_past_the_source(tmp_path):
    """Source positions get the engine's best move when no line plays it;
    a line's end and positions reached by engine moves get the MultiPV lines
    within max_loss_cp, nearest first, at most `positions` of them."""
    head = BOOK_YAML.read_text(encoding="utf-8").split("\nextend:")[0] + "\n"
    path = tmp_path / "book.yaml"
    path.write_text(head + """extend:
  plies: 2
  positions: 2
  multipv: 2
  weight: 1
openings:
  - zh: 根
    pinyin: gen
    en: Root
    side:
      - h2e2 h9g7
""", encoding="utf-8")
    t = expand(load_book(path))
    eng, depth = "Fairy-Stockfish test", 16
    cache = Cache(tmp_path / "c.jsonl")
    start, _ = _at("")
    cache.add(Result(eng, start, depth, "h2e2", 30, 1, 1))
    one, f1 = _at("h2e2")                                   # best b9c7, the line plays h9g7
    cache.add(Result(eng, one, depth, _mv("b9c7", f1), -20, 1, 1))
    for move, score in [("b9c7", -20), ("h9g7", -30)]:
        cache.add(Result(eng, one, depth, _mv(move, f1), score, 1, 1, _mv(move, f1)))
    end, f2 = _at("h2e2 h9g7")                              # the line's end
    lines = ((_mv("h0g2", f2), 25), (_mv("b2c2", f2), -40))
    cache.add(Result(eng, end, depth, lines[0][0], 25, 1, 1, None, 2, lines))
    checker = Checker(Cache(tmp_path / "c.jsonl"), eng, None)
    verdicts, _ = check_tree(t, checker, log=None)
    ext = extend(t, verdicts, checker)
    assert ext.moves[one] == {_mv("b9c7", f1): ext.moves[one][_mv("b9c7", f1)]}
    assert [(m.loss_cp, m.weight) for m in ext.moves[end].values()] == [(0, 1)]   # b2c2 loses 65
    after_b9c7, f3 = _at("h2e2 b9c7")
    assert ext.missing == [after_b9c7]      # nearest first: ply 2 before h2e2 h9g7 h0g2 (ply 3)
    lines = ((_mv("h0g2", f3), 10), (_mv("c3c4", f3), 0))
    checker.cache.add(Result(eng, after_b9c7, depth, lines[0][0], 10, 1, 1, None, 2, lines))
    ext = extend(t, verdicts, checker)
    assert not ext.missing and sorted(ext.moves[after_b9c7]) == sorted(m for m, _ in lines)
    assert ext.openings[after_b9c7] == 0
    assert _at("h2e2 h9g7 h0g2")[0] not in ext.moves     # the budget of 2 searches is spent
    assert len(ext.from_source(t)) == 2 and len(ext.from_engine(t)) == 2
    out = data.build(t, verdicts, eng, 0, ext)
    by_fen = {p["fen"]: p["moves"] for p in out["positions"]}
    assert [m["move"] for m in by_fen[one] if m.get("engine")] == [_mv("b9c7", f1)]
    assert all(m["engine"] and m["weight"] == 1 for m in by_fen[after_b9c7])
    # the cache keeps a MultiPV search under its own key, lines and all
    again = Cache(tmp_path / "c.jsonl").get(eng, end, multipv_key(2), depth)
    assert again is not None and again.lines == ((_mv("h0g2", f2), 25), (_mv("b2c2", f2), -40))


@pytest.mark.parametrize("block, words", [
    ("extend:\n  plies: 2\n  multipv: 2\n  weight: 1\n", "missing key 'positions'"),
    ("extend:\n  plies: 0\n  positions: 5\n  multipv: 2\n  weight: 1\n", "extend.plies = 0"),
    ("extend:\n  plies: 2\n  positions: 5\n  multipv: 2\n  weight: 1\n  depth: 3\n",
     "unknown key 'depth'"),
])
def test_bad_extend_block_is_refused(tmp_path, block, words):
    head = BOOK_YAML.read_text(encoding="utf-8").split("\nextend:")[0] + "\n"
    path = tmp_path / "book.yaml"
    path.write_text(head + block + "openings:\n  - zh: 根\n    pinyin: gen\n    en: Root\n"
                    "    side:\n      - h2e2\n", encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_book(path)
    assert words in str(exc.value) and str(exc.value).startswith(str(tmp_path))
