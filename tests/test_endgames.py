"""The endgame suite and its benchmark: the committed suite is legal, each
entry's material is its class's, and Fairy-Stockfish's checked verdicts
(bench/endgames.checked.json) agree with it; a bad suite file is refused
with its file and line; the benchmark plays a tiny suite end to end
(Fairy-Stockfish needed: skipped without it unless XIANGQI_REQUIRE_EMULATORS=1)."""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from bench import endgame_bench
from bench.endgame_suite import (
    CHECKED, SETTINGS, SuiteError, load_suite, material, parse_class, problems, read_checked,
)
from reference_py.board import ADVISOR, CANNON, ELEPHANT, ROOK
from reference_py.fen import parse_fen
from reference_py.rules import Game
from tools.tune import trees
from tools.tune.games import task_key
from tools.tune.players import PlayerError, fs_path

R_VS_K_MATE_IN_1 = "9/3k5/9/9/9/7R1/9/9/9/4K4 w - - 0 1"       # Rh4-d4 mates
C_VS_K = "3k5/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1"


# ---- the committed suite

def test_the_suite_covers_won_and_drawn_classes_with_both_colours():
    suite = load_suite()
    assert len(suite) >= 60
    won = [eg for eg in suite if eg.result != "draw"]
    drawn = [eg for eg in suite if eg.result == "draw"]
    assert len(won) >= 40 and len(drawn) >= 20
    assert {eg.result for eg in won} == {"red", "black"}
    for cls in ("R_vs_AAEE", "R_vs_AA", "CA_vs_K", "H_vs_A", "RC_vs_R", "C_vs_K", "P_vs_K"):
        assert sum(eg.cls == cls for eg in suite) >= 2, cls
    assert len({eg.id for eg in suite}) == len(suite)


def test_every_fen_is_legal_and_has_its_class_s_material():
    for eg in load_suite():
        pos = parse_fen(eg.fen)
        assert pos.legal_moves() and Game(eg.fen).outcome() is None, eg.id
        strong, weak = parse_class(eg.cls)
        red, black = material(eg.fen)
        mine, theirs = (red, black) if eg.strong == 0 else (black, red)
        assert (mine, theirs) == (strong, weak), eg.id
        if eg.result != "draw":
            assert eg.winner == eg.strong, eg.id


def test_fairy_stockfish_s_checked_verdicts_agree_with_every_entry():
    suite = load_suite()
    checked = read_checked(CHECKED)
    assert checked["settings"] == SETTINGS and checked["engine"].startswith("Fairy-Stockfish")
    assert problems(suite, checked["verdicts"]) == []
    for eg in suite:
        v = checked["verdicts"][eg.fen]
        assert v["method"] in ("mate", "self-play"), eg.id
        if v["method"] == "mate":
            assert v["mate_moves"] >= 1 and v["search"]["depth"] <= SETTINGS["mate_depth"]
        else:
            sp = v["selfplay"]
            assert len(sp["moves"]) == sp["plies"]
            g = Game(eg.fen)                     # the recorded self-play replays to its recorded end
            for m in sp["moves"]:
                g.play_text(m)
            if eg.result == "draw":
                assert max(abs(sp["max_cp"]), abs(sp["min_cp"])) <= SETTINGS["small_cp"], eg.id
                assert g.outcome() is None or g.outcome().winner is None, eg.id
            else:
                assert g.outcome() is not None and g.outcome().winner == eg.winner, eg.id


def test_class_names():
    assert parse_class("RC_vs_R") == (Counter({ROOK: 1, CANNON: 1}), Counter({ROOK: 1}))
    assert parse_class("R_vs_AAEE") == (Counter({ROOK: 1}), Counter({ADVISOR: 2, ELEPHANT: 2}))
    assert parse_class("CA_vs_K")[1] == Counter()
    for bad in ("R_vs_", "RvsK", "X_vs_K", "K_vs_R", "R_vs_Kx"):
        with pytest.raises(ValueError, match="not LEFT_vs_RIGHT"):
            parse_class(bad)


# ---- bad suite files

GOOD = f'- class: R_vs_K\n  fen: "{R_VS_K_MATE_IN_1}"\n  result: red\n  why: test\n'


@pytest.mark.parametrize("text, says", [
    (GOOD + "- class: R_vs_K\n  fen: \"x\"\n  result: red\n  why: w\n", r":6: bad FEN: the board has 1 ranks"),
    (GOOD.replace("why: test", "why: test\n  colour: red"), r":5: unknown key 'colour'"),
    (GOOD.replace("  why: test\n", ""), r":1: the entry has no 'why'"),
    (GOOD.replace("R_vs_K", "R_vs_Q"), r":1: class 'R_vs_Q' is not LEFT_vs_RIGHT"),
    (GOOD.replace("R_vs_K", "C_vs_K"), r":2: the material is R_vs_K \(Red vs Black\), not class C_vs_K"),
    (GOOD.replace("result: red", "result: win"), r":3: result must be one of red, black, draw"),
    (GOOD.replace("result: red", "result: black"), r":3: result black: in class R_vs_K the strong side is red"),
    (GOOD + GOOD.replace("0 1", "0 7"), r":6: the same position as line 2"),
    (GOOD.replace("result: red", "result: 3"), r":3: 'result' must be a non-empty text"),
    ("class: R_vs_K\n", r":1: the suite must be a list of entries"),
    ("- just a text\n", r":1: an entry must be a mapping"),
    ("- class: [R\n", r":\d+: not valid YAML"),
    (GOOD.replace(R_VS_K_MATE_IN_1, "3k5/3R5/3K5/9/9/9/9/9/9/9 b - - 0 1"), r"Red .*can never stand"),
    (GOOD.replace(R_VS_K_MATE_IN_1, "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"), r":2: the game is already over"),
])
def test_a_bad_suite_names_file_line_and_problem(tmp_path, text, says):
    p = tmp_path / "eg.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(SuiteError, match=says) as exc:
        load_suite(p)
    assert str(p) in str(exc.value)


def test_a_missing_suite_file_is_an_error(tmp_path):
    with pytest.raises(SuiteError, match="no such file"):
        load_suite(tmp_path / "none.yaml")


def test_the_bench_command_refuses_bad_arguments_without_writing(tmp_path, capsys):
    p = tmp_path / "eg.yaml"
    p.write_text(GOOD, encoding="utf-8")
    common = ["--suite", str(p), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "g.jsonl"), "--quiet"]
    assert endgame_bench.main(["--player", "base:Master", *common]) == 2
    assert "no --tree named 'base'" in capsys.readouterr().err
    assert endgame_bench.main(["--defender", "Master", *common]) == 2
    assert "Fairy-Stockfish anchor" in capsys.readouterr().err
    assert endgame_bench.main(["--only", "H_vs_K", *common]) == 2
    assert "no class H_vs_K" in capsys.readouterr().err
    assert endgame_bench.main(["--tree", "nonsense", *common]) == 2
    assert "expected NAME=SPEC" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and not (tmp_path / "g.jsonl").exists()


# ---- tasks from a FEN

def test_a_task_without_a_fen_keeps_its_old_cache_key():
    task = {"red": "fs:depth=2", "black": "fs:depth=1", "opening": ["h2e2", "h9g7"], "seed": 7, "max_plies": 24}
    assert task_key(task) == "e88358c4994c3bd52ec9cc78"          # the key before tasks had a "fen"
    assert task_key({**task, "fen": C_VS_K}) != task_key(task)
    assert task_key({**task, "fen": None}) == task_key(task)
    assert task_key({**task, "fs_variant": "xiangqi-rules"}) != task_key(task)


def test_a_bare_level_keys_its_games_by_this_checkouts_engine(monkeypatch):
    """A cached game of `Master` is not reused once reference_py or config/ changed."""
    task = {"red": "Master", "black": "fs:depth=1", "opening": [], "seed": 7, "max_plies": 24}
    anchors = {**task, "red": "fs:depth=2"}
    named = {**task, "red": "base:Master", "trees": {"base": {"digest": "d" * 64}}}
    before = [task_key(t) for t in (task, anchors, named)]
    monkeypatch.setattr(trees, "local_digest", lambda: "0" * 64)
    after = [task_key(t) for t in (task, anchors, named)]
    assert after[0] != before[0]
    assert after[1:] == before[1:]          # anchors and named trees do not depend on the checkout


def test_the_plan_plays_won_positions_once_and_drawn_ones_from_both_sides(tmp_path):
    p = tmp_path / "eg.yaml"
    p.write_text(GOOD + f'- class: C_vs_K\n  fen: "{C_VS_K}"\n  result: draw\n  why: w\n', encoding="utf-8")
    tasks = endgame_bench.plan(load_suite(p), "Master", "fs:depth=10", {}, 400)
    assert [(t["role"], t["red"], t["black"], t["player_side"]) for t in tasks] == [
        ("convert", "Master", "fs:depth=10", "red"),
        ("hold", "fs:depth=10", "Master", "black"),
        ("push", "Master", "fs:depth=10", "red")]
    assert all(t["fen"] and t["opening"] == [] and t["fs_variant"] == "xiangqi-rules" for t in tasks)
    assert len({task_key(t) for t in tasks}) == 3


def _need_fairy_stockfish() -> None:
    try:
        fs_path()
    except PlayerError as exc:
        if os.environ.get("XIANGQI_REQUIRE_EMULATORS", "") not in ("", "0"):
            pytest.fail(f"{exc} (XIANGQI_REQUIRE_EMULATORS is set, so this is a failure)", pytrace=False)
        pytest.skip(str(exc))


def test_the_bench_plays_a_tiny_suite_and_resumes_from_its_cache(tmp_path):
    _need_fairy_stockfish()
    p = tmp_path / "eg.yaml"
    p.write_text(GOOD + f'- class: C_vs_K\n  fen: "{C_VS_K}"\n  result: draw\n  why: w\n', encoding="utf-8")
    cache, out = tmp_path / "g.jsonl", tmp_path / "out"
    args = ["--suite", str(p), "--player", "Novice", "--defender", "fs:depth=1", "--max-plies", "12",
            "--cache", str(cache), "--out", str(out), "--checked", str(tmp_path / "none.json"), "--quiet"]
    assert endgame_bench.main(args) == 0
    data = json.loads((out / "endgames.json").read_text())
    first = data["positions"][0]
    assert (first["id"], first["role"], first["outcome"], first["plies"]) == ("R_vs_K.1", "convert", "won", 1)
    assert first["moves"] == ["h4d4"] and first["reason"] == "checkmate"
    t = data["totals"]
    assert (t["won_positions"], t["converted"], t["median_mate_plies"]) == (1, 1, 1)
    assert (t["hold_games"], t["push_games"]) == (1, 1)
    for p_ in data["positions"][1:]:          # a cannon against a bare king: 12 plies end in a draw
        assert p_["outcome"] == "drawn" and p_["plies"] <= 12
    assert "| R_vs_K | win | 1 | 1/1 | 1 |" in (out / "endgames.md").read_text()
    lines = cache.read_text().splitlines()
    assert len(lines) == 3
    assert endgame_bench.main(args) == 0                    # all cached: nothing is played again
    assert cache.read_text().splitlines() == lines


def test_fairy_stockfish_plays_the_game_rules_60_move_draw():
    """After 110 plies without a capture the game goes on (reference_py.rules
    draws at 120): the built-in xiangqi already calls it a draw, xiangqi-rules does not."""
    _need_fairy_stockfish()
    from tools.tune.players import FairyStockfish
    fen = "2bakab2/9/9/4P4/9/9/9/R8/9/3K5 w - - 110 1"
    rules, builtin = FairyStockfish(variant="xiangqi-rules"), FairyStockfish()
    try:
        assert rules.analyse([], 8, fen).score > 100
        assert builtin.analyse([], 8, fen).score == 0
    finally:
        rules.close()
        builtin.close()
    with pytest.raises(PlayerError, match="variant 'chess'"):
        FairyStockfish(variant="chess")
