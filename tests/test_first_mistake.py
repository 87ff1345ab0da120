"""The book benchmarks (bench/first_mistake.py, bench/book_strength.py,
bench/tree_configs.py): the mistake finder on made-up score sequences,
the analysis of a game whose positions are all known (no engine needed),
the book-move detector against the search's own book answers, the
configurations, and the commands' refusal of bad input (nothing written).
One end-to-end run of a pair needs Fairy-Stockfish and skips without it."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench import book_strength, first_mistake, tree_configs
from bench.first_mistake import (Mistake, analyse_game, analysis_key, find_first_mistake, master_indices,
                                 pieces_before, quartiles)
from reference_py.config import CONFIG_DIR
from tools.tune.players import PlayerError, fs_path

ROOT = Path(__file__).resolve().parents[1]


def scorer(scores: list[int], asked: list[int] | None = None):
    """score(i) over a list (side-to-move view), recording what is asked."""
    def score(i: int):
        if asked is not None:
            asked.append(i)
        return scores[i], f"best{i}"
    return score


# ---- the mistake finder

def test_master_indices_follow_its_side_after_the_opening():
    assert list(master_indices(7, 0, 0)) == [0, 2, 4, 6]
    assert list(master_indices(7, 1, 0)) == [1, 3, 5]
    assert list(master_indices(8, 0, 3)) == [4, 6]          # Red after a 3-ply opening
    assert list(master_indices(8, 1, 3)) == [3, 5, 7]
    assert list(master_indices(2, 0, 4)) == []


def test_the_first_drop_of_the_threshold_is_the_mistake_for_red():
    # position i's score is the side to move's: Red at even i, Black at odd i.
    # Red's view before its move at 0: 20, after: -(-10) = 10 (drop 10);
    # at 2: 30 -> -(120) = -120 (drop 150, exactly the threshold).
    moves = [f"m{i}" for i in range(6)]
    scores = [20, -10, 30, 120, -200, 250, 0]
    got = find_first_mistake(moves, 0, 0, 150, scorer(scores))
    assert got == Mistake(index=2, ply=3, move="m2", before=30, after=-120, drop=150, best="best2")
    assert find_first_mistake(moves, 0, 0, 151, scorer(scores)) is None     # the drops are 10, 150, 50


def test_the_mistake_finder_for_black_and_after_an_opening():
    moves = [f"m{i}" for i in range(8)]
    #          0    1    2    3    4     5    6    7    8
    scores = [0, 10, -20, 40, -300, 250, 0, 0, 0]
    # Black moves at 1, 3, 5, 7: drops 10-20 = -10; 40-300 = -260; 250-0 = 250.
    assert find_first_mistake(moves, 1, 0, 150, scorer(scores)).index == 5
    # Red at 0, 2, 4, 6: 0-(-10)... Red's view before 0 is 0, after is -10: drop 10;
    # before 2: -20, after: -40 (drop 20); before 4: -300, after -250 (drop -50); before 6: 0, after 0.
    assert find_first_mistake(moves, 0, 0, 150, scorer(scores)) is None
    # with a 5-ply opening, Black's first own move is 5
    assert find_first_mistake(moves, 1, 5, 150, scorer(scores)).index == 5
    assert find_first_mistake(moves, 1, 6, 150, scorer(scores)) is None


def test_fairy_stockfishs_own_choice_is_never_a_mistake():
    scores = [255, -81, 0, 0, 0]
    moves = ["f2f8", "x", "y", "z"]
    score = scorer(scores)
    assert find_first_mistake(moves, 0, 0, 150, lambda i: (score(i)[0], "f2f8" if i == 0 else None)) is None
    assert find_first_mistake(moves, 0, 0, 150, lambda i: (score(i)[0], "a0a1")).drop == 174


def test_the_finder_reads_no_position_beyond_the_mistake():
    asked: list[int] = []
    scores = [0, 0, 0, 500, 0, 0, 0, 0, 0, 0, 0]
    got = find_first_mistake([f"m{i}" for i in range(10)], 0, 0, 150, scorer(scores, asked))
    assert got.index == 2 and max(asked) == 3


def test_mates_count_as_large_scores():
    # Red mates in 1 (score mate 1 = 29999) but plays a move that leaves +100: a missed mate.
    scores = [29999, -100, 0]
    assert find_first_mistake(["a", "b"], 0, 0, 150, scorer(scores)).drop == 29899
    # Red mates: Black to move is mated (-30000 for Black, +30000 for Red): no drop.
    assert find_first_mistake(["a"], 0, 0, 150, scorer([29999, -30000])) is None


def test_the_finder_refuses_a_bad_side_or_threshold():
    with pytest.raises(ValueError, match="master_side"):
        find_first_mistake(["a"], 2, 0, 150, scorer([0, 0]))
    with pytest.raises(ValueError, match="threshold"):
        find_first_mistake(["a"], 0, 0, 0, scorer([0, 0]))


def test_quartiles():
    assert quartiles([13]) == (13, 13, 13)
    assert quartiles([1, 2, 3, 4, 5]) == (2, 3, 4)
    assert quartiles([10, 20]) == (12.5, 15, 17.5)
    with pytest.raises(ValueError):
        quartiles([])


def test_pieces_before_counts_the_board():
    moves = ["h2e2", "h7e7", "e2e6", "e7e3"]         # cannons take the central soldiers
    assert pieces_before(moves, 0) == 32
    assert pieces_before(moves, 3) == 31
    assert pieces_before(moves, 4) == 30


def test_an_analysis_with_every_position_known_needs_no_engine():
    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    task = {"moves": moves, "master_side": 1, "start": 0, "depth": 12, "threshold": 150, "engine": "test",
            "known": {str(i): [s, None] for i, s in enumerate([10, -20, 40, 300, -400])}}
    got = analyse_game(task)
    # Black at 1: -20 -> -40 (drop 20); at 3: 300 -> 400 (gain).  No mistake.
    assert got["mistake"] is None and got["fresh"] == 0 and got["pieces"] is None
    task["known"]["2"] = [400, "x"]                    # Red's score after Black's move 1: Black -20 -> -400
    got = analyse_game(task)
    assert got["mistake"]["index"] == 1 and got["mistake"]["drop"] == 380 and got["pieces"] == 32
    assert got["key"] == analysis_key(task)
    assert {k: v for k, v in task.items() if k != "known"} == {k: got[k] for k in task if k != "known"}


# ---- book moves and configurations

def test_book_indices_agree_with_the_searchs_book_answers():
    with_book = tree_configs.build("with=config", "Master")
    without = tree_configs.build("without=nobook:config", "Master")
    pkg = tree_configs.load(with_book.ref)
    level = pkg.search.level_by_name("Master")
    game = pkg.rules.Game(pkg.fen.START_FEN)
    moves = []
    book = pkg.book.default_book()
    for i in range(5):                     # both sides from the book for 5 plies
        for seed in range(100, 164):       # a seed whose book move stays in the book
            r = pkg.search.Searcher(game.pos.copy(), level, seed=seed).run()
            assert r.book is not None
            child = game.pos.copy()
            child.make(r.move)
            if book.find(child) is not None:
                break
        moves.append(pkg.board.move_iccs(r.move))
        game.play(r.move)
    entry, book_moves = book.moves(game.pos)
    assert entry.depth == 5
    for m in sorted(game.pos.legal_moves()):       # Black leaves the book at ply 6 (index 5)
        game.play(m)
        if book.find(game.pos) is None and m not in {mv for mv, _ in book_moves}:
            break
        game.undo()
    else:
        pytest.fail("no move leaves the book")
    moves.append(pkg.board.move_iccs(m))
    moves.append(pkg.board.move_iccs(sorted(game.pos.legal_moves())[0]))     # Red's move out of the book
    truth = [0, 2, 4]
    assert first_mistake.book_indices(with_book, "Master", moves, 0, 0) == truth
    assert first_mistake.book_indices(with_book, "Master", moves, 1, 0) == [1, 3]
    assert first_mistake.book_indices(without, "Master", moves, 0, 0) == []
    assert first_mistake.book_indices(with_book, "Master", moves, 0, 2) == [2, 4]


def test_without_book_sets_the_level_only():
    text = (CONFIG_DIR / "difficulty.yaml").read_bytes()
    doc = yaml.safe_load(tree_configs.without_book(text, "master", "x"))
    books = {lv["name"]: lv["book"] for lv in doc["levels"]}
    before = {lv["name"]: lv["book"] for lv in yaml.safe_load(text)["levels"]}
    assert books["Master"] == 0 and before["Master"] > 0
    assert {k: v for k, v in books.items() if k != "Master"} == {k: v for k, v in before.items() if k != "Master"}
    with pytest.raises(tree_configs.ConfigError, match="no level 'Grandmaster'"):
        tree_configs.without_book(text, "Grandmaster", "x")
    with pytest.raises(tree_configs.ConfigError, match="not a list of levels"):
        tree_configs.without_book(b"levels: 3\n", "Master", "x")


def test_configurations_are_checked():
    for bad, message in [("config", "expected NAME=SPEC"), ("a b=config", "must be 1-32 letters"),
                         ("x=nobook:", "needs a tree after it"),
                         ("x=no-such-revision-xyz", "neither a directory nor a git revision")]:
        with pytest.raises(ValueError, match=message):
            tree_configs.build(bad, "Master")
    with pytest.raises(tree_configs.ConfigError, match="no level 'Grandmaster'"):
        tree_configs.build("x=config", "Grandmaster")
    with pytest.raises(tree_configs.ConfigError, match="given twice"):
        tree_configs.build_all(["a=config", "a=nobook:config"], "Master")
    a, b = tree_configs.build_all(["a=config", "b=nobook:config"], "Master")
    assert tree_configs.book_plies(a, "Master") > 0 and tree_configs.book_plies(b, "Master") == 0
    assert a.ref["digest"] != b.ref["digest"] and b.player("Master") == "b:Master"
    shipped = hashlib.sha256((CONFIG_DIR / "book.checked.json").read_bytes()).hexdigest()
    assert tree_configs.book_sha256(a) == tree_configs.book_sha256(b) == shipped


def test_elo_text():
    elo = {"elo": -190.6, "elo_ci95": 40.2, "elo_lo": -231.0, "elo_hi": -150.4}
    assert tree_configs.elo_text(elo, 0.25) == ("-191 ± 40", "[-231, -150]")
    assert tree_configs.elo_text({"elo": None}, 0.0)[0] == "-inf"
    assert tree_configs.elo_text({"elo": None}, 1.0)[0] == "+inf"
    assert tree_configs.elo_text(None, 0.5) == ("n/a", "-")
    assert tree_configs.elo_text({"elo": -0.4, "elo_ci95": 1.0, "elo_lo": -0.9, "elo_hi": 0.1}, 0.5) == \
        ("+0 ± 1", "[-1, +0]")


# ---- the commands' bad input

@pytest.mark.parametrize("args, message", [
    (["--pairs", "0"], "--pairs 0"),
    (["--depth", "0"], "--depth 0"),
    (["--threshold", "0"], "--threshold 0"),
    (["--opponent", "fs:time=5"], "the limit must be one of"),
    (["--config", "nobook"], "expected NAME=SPEC"),
    (["--config", "a=config", "--config", "a=nobook:config"], "given twice"),
    (["--level", "Grandmaster"], "no level 'Grandmaster'"),
    (["--openings", "no/such/file.txt"], "cannot read"),
])
def test_first_mistake_refuses_bad_input(tmp_path, capsys, args, message):
    out = tmp_path / "fm"
    assert first_mistake.run([*args, "--cache", str(tmp_path / "cache"), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert not list(tmp_path.iterdir())                      # nothing written


@pytest.mark.parametrize("args, message", [
    (["--pairs", "-1"], "--pairs -1"),
    (["--anchor", "stockfish"], "expected fs:nodes=N or fs:depth=D"),
    (["--with", "a=config", "--without", "a=nobook:config"], "given twice"),
    (["--without", "b=nobook:no-such-revision-xyz"], "neither a directory nor a git revision"),
])
def test_book_strength_refuses_bad_input(tmp_path, capsys, args, message):
    assert book_strength.run([*args, "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "bs"),
                              "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert not list(tmp_path.iterdir())


def test_the_command_line_entry_point_exits_2_on_bad_input(tmp_path):
    r = subprocess.run([sys.executable, "-m", "bench.first_mistake", "--pairs", "0", "--out", str(tmp_path / "x")],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "error: --pairs 0" in r.stderr and not list(tmp_path.iterdir())


# ---- one pair, end to end (Fairy-Stockfish)

def _have_fs() -> bool:
    try:
        fs_path()
        return True
    except PlayerError:
        return False


@pytest.mark.skipif(not _have_fs(), reason="Fairy-Stockfish is not installed")
def test_one_pair_end_to_end(tmp_path):
    args = ["--config", "nb=nobook:config", "--level", "Novice", "--pairs", "1", "--opponent", "fs:depth=2",
            "--depth", "4", "--max-plies", "60", "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "fm"),
            "--quiet"]
    assert first_mistake.run(args) == 0
    data = json.loads((tmp_path / "fm.json").read_text())
    (row,) = data["configs"]
    assert row["games"] == 2 and row["analysed"] == 2 and row["book_plies"] == 0
    assert row["with_mistake"] + row["without_mistake"] == 2
    for r in row["rows"]:
        if r["mistake"]:
            m = r["mistake"]
            assert m["drop"] == m["before"] - m["after"] >= 150 and m["ply"] == m["index"] + 1
            assert (m["index"] % 2 == 0) == (r["master"] == "red")
    assert "| nb (`nobook:config`) | 0 | 2 (" in (tmp_path / "fm.md").read_text()
    analyses = (tmp_path / "cache" / "analyses.jsonl").read_text().splitlines()
    assert first_mistake.run(args) == 0                      # the second run reads the caches only
    assert (tmp_path / "cache" / "analyses.jsonl").read_text().splitlines() == analyses
    assert json.loads((tmp_path / "fm.json").read_text())["configs"][0]["rows"] == row["rows"]
