"""The ladder's parts: the opening suite and its pairing, the joint Elo fit,
the report writer (from made-up results), the game cache, and the whole
command on a tiny match (the reference against Fairy-Stockfish)."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from reference_py.pgn import read_games
from tools.tune import ladder as ladder_mod
from tools.tune.games import play_game, task_key
from tools.tune.match import make_match, tally
from tools.tune.openings import SuiteError, load_suite, mirror
from tools.tune.ratings import MatchPoints, RatingError, fit_ratings
from tools.tune.report import write_report
from tools.tune.runner import GameCache
from tools.tune.sprt import opening_for_pair

ROOT = Path(__file__).resolve().parents[1]


# ---- the suite and the pairing

def test_the_shipped_suite_is_legal_and_distinct():
    s = load_suite()
    assert len(s) >= 50
    assert len({o.moves for o in s.openings}) == len(s)
    for o in s.openings:
        assert not o.game().outcome()


@pytest.mark.parametrize("text, says", [
    ("h2e2 h9g7\nh2e2 x9g7\n", r":2: ply 2 'x9g7'"),
    ("h2e2 h2e3\n", r":1: ply 2 'h2e3'"),
    ("# only a comment\n\n", "no openings"),
    ("h2e2 h9g7 # a\nh2e2 h9g7 # b\n", ":2: the same line as line 1"),
])
def test_a_bad_suite_names_file_line_and_ply(tmp_path, text, says):
    p = tmp_path / "s.txt"
    p.write_text(text)
    with pytest.raises(SuiteError, match=says) as exc:
        load_suite(p)
    assert str(p) in str(exc.value)


def test_pairs_play_one_opening_with_colours_swapped():
    s = load_suite()
    m = make_match("Master", "fs:nodes=2000", 3, s, seed=5)
    assert len(m.tasks) == 6
    for k in range(3):
        t0, t1 = m.pair_tasks(k)
        assert t0["opening"] == t1["opening"] == list(s.openings[k].moves)
        assert (t0["red"], t0["black"]) == ("Master", "fs:nodes=2000") == (t1["black"], t1["red"])
    assert len({t["seed"] for t in m.tasks}) == 6
    assert [t["seed"] for t in make_match("Master", "fs:nodes=2000", 3, s, seed=5).tasks] == [t["seed"] for t in m.tasks]
    assert [t["seed"] for t in make_match("Master", "fs:nodes=2000", 3, s, seed=6).tasks] != [t["seed"] for t in m.tasks]


def _fake(task: dict, result: str) -> dict:
    return {**task, "key": task_key(task), "moves": list(task["opening"]), "result": result, "reason": "test",
            "plies": len(task["opening"]), "wall_s": 1.0}


def test_tally_counts_pairs_from_a_s_side():
    s = load_suite()
    m = make_match("A", "B", 3, s)
    res = {}
    # pair 0: A wins as Red, draws as Black -> 1.5; pair 1: A loses both -> 0; pair 2: one game only (not counted)
    for t, r in zip(m.tasks[:5], ["1-0", "1/2-1/2", "0-1", "1-0", "1-0"]):
        res[task_key(t)] = _fake(t, r)
    t = tally(m, res)
    assert (t.wins, t.draws, t.losses) == (1, 1, 2)
    assert t.penta == (1, 0, 0, 1, 0) and t.pairs == 2 and t.score == pytest.approx(1.5 / 4)


def test_interleaving_spreads_a_partial_run_over_every_match():
    s = load_suite()
    ms = [make_match("A", "B", 2, s), make_match("C", "D", 1, s), make_match("E", "F", 2, s)]
    order = [(t["red"], t["black"]) for t in ladder_mod.interleave(ms)]
    assert order[:6] == [("A", "B"), ("B", "A"), ("C", "D"), ("D", "C"), ("E", "F"), ("F", "E")]
    assert len(order) == 10


def test_a_second_cycle_of_the_suite_gets_two_seeded_plies():
    s = load_suite()
    first = opening_for_pair(s, 0)
    again = opening_for_pair(s, len(s))
    assert first == list(s.openings[0].moves)
    assert again[:-2] == first and len(again) == len(first) + 2
    assert opening_for_pair(s, len(s)) == again
    assert mirror(["h2e2", "b9c7"]) == ["b2e2", "h9g7"]


# ---- the joint Elo fit

def test_ratings_recover_known_differences():
    # A scores 76% against B (about +200) and B 64% against C (about +100): C is near -300 from A.
    ms = [MatchPoints("A", "B", tuple([2.0] * 52 + [1.0] * 48)),     # (104 + 48) / 200 = 76%
          MatchPoints("B", "C", tuple([2.0] * 28 + [1.0] * 72))]     # (56 + 72) / 200 = 64%
    r = fit_ratings(ms, "A", prior_draws=0.0, boot=200)
    assert r["A"]["elo"] == 0 and r["A"]["elo_ci95"] == 0
    assert r["B"]["elo"] == pytest.approx(-400 * math.log10(0.76 / 0.24), abs=0.5)
    assert r["C"]["elo"] - r["B"]["elo"] == pytest.approx(-400 * math.log10(0.64 / 0.36), abs=0.5)
    assert r["C"]["elo_lo"] < r["C"]["elo"] < r["C"]["elo_hi"] and r["C"]["elo_ci95"] > r["B"]["elo_ci95"]


def test_a_perfect_score_stays_finite_and_a_lone_player_is_an_error():
    r = fit_ratings([MatchPoints("A", "B", (2.0,) * 10)], "B")
    assert 400 < r["A"]["elo"] < 2000
    with pytest.raises(RatingError, match="connect C"):
        fit_ratings([MatchPoints("A", "B", (1.0,)), MatchPoints("C", "D", (1.0,))], "A")


# ---- the report writer

def _synthetic_ladder(tmp_path: Path):
    s = load_suite()
    levels, anchors = ["Novice", "Easy"], ["fs:depth=1", "fs:nodes=2000"]
    matches = ladder_mod.plan(levels, anchors, 4, 4, s, 1, 300)
    outcomes = {("Novice", "fs:depth=1"): ["0-1", "1-0", "1/2-1/2", "1/2-1/2"],
                ("Novice", "fs:nodes=2000"): ["0-1", "1-0", "0-1", "1-0"],
                ("Easy", "fs:depth=1"): ["1-0", "0-1", "1-0", "1/2-1/2"],
                ("Easy", "fs:nodes=2000"): ["1/2-1/2", "1-0", "0-1", "1/2-1/2"],
                ("Easy", "Novice"): ["1-0", "1-0", "1-0", "1/2-1/2"]}
    res = {}
    for m in matches:
        for t, r in zip(m.tasks, outcomes[(m.a, m.b)]):
            res[task_key(t)] = _fake(t, r)
    think = {"Novice": {"moves": 3, "median_s": 0.1, "max_s": 0.3, "mismatches": 0},
             "Easy": {"moves": 3, "median_s": 0.7, "max_s": 2.4, "mismatches": 0}}
    data = {"command": "python -m tools.tune ladder (test)", "date": "2026-01-01", "config_sha256": "ab" * 32,
            "openings": {"file": "bench/openings.txt", "count": len(s), "sha256": s.sha256},
            "engine": "Fairy-Stockfish test", "anchors": anchors, "games": len(res), "planned_games": len(res),
            "differential": {"searches": 4, "mismatches": 0}}
    data.update(ladder_mod.summarize(levels, anchors, matches, res, think))
    data["throughput"] = ladder_mod.throughput(matches, res)
    return data, [res[task_key(t)] for m in matches for t in m.tasks]


def test_report_writer_writes_every_file_with_the_issue_fields(tmp_path):
    data, games = _synthetic_ladder(tmp_path)
    write_report(tmp_path, data, games)
    j = json.loads((tmp_path / "ladder.json").read_text())
    for lv in j["levels"]:
        for key in ("level", "games", "score", "elo", "elo_ci95", "los", "think_median_s", "think_max_s"):
            assert key in lv and lv[key] is not None or (key == "los" and lv["level"] == "Novice")
    novice, easy = j["levels"]
    assert novice["games"] == 12 and novice["score"] == pytest.approx(2.5 / 12, abs=1e-4)   # 1 + 0 + 1.5 points
    assert easy["los_vs"] == "Novice" and 0 < easy["los"] < 1
    assert j["ratings"]["fs:depth=1"]["elo"] == 0
    md = (tmp_path / "report.md").read_text()
    assert "| Novice |" in md and "| Easy |" in md and "## Easy" in md and "`fs:nodes=2000`" in md
    assert "ROM == reference before the games: 4 of 4" in md
    for png in ("elo_by_level.png", "think_by_level.png", "elo_vs_think.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pgn = read_games((tmp_path / "games.pgn").read_text())
    assert len(pgn) == len(games) == 20
    assert [g.tags["Result"] for g in pgn] == [g["result"] for g in games]


# ---- games, the cache and the command

def test_a_game_replays_exactly_and_the_cache_skips_it(tmp_path):
    task = {"red": "Novice", "black": "fs:depth=1", "opening": ["h2e2", "h9g7"], "seed": 7, "max_plies": 24}
    a, b = play_game(task), play_game(task)
    assert a["moves"] == b["moves"] and a["result"] == b["result"] and a["key"] == b["key"]
    assert a["plies"] == len(a["moves"]) <= 24
    cache = GameCache(tmp_path / "g.jsonl")
    cache.add(a)
    with open(tmp_path / "g.jsonl", "a") as f:
        f.write('{"key": "cut sh')                     # an interrupted write
    again = GameCache(tmp_path / "g.jsonl")
    assert list(again.games) == [a["key"]]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.tune", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_the_ladder_command_resumes_and_refuses_another_config(tmp_path):
    out = tmp_path / "lad"
    args = ["ladder", "--levels", "Novice", "--anchors", "fs:depth=1", "--games", "2", "--max-plies", "30",
            "--no-rom", "--quiet", "--jobs", "1", "--out", str(out)]
    r = _run(*args)
    assert r.returncode == 0, r.stderr
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 2
    r = _run(*args)                                      # everything cached: nothing played again
    assert r.returncode == 0 and (out / "games.jsonl").read_text().splitlines() == lines
    run = json.loads((out / "run.json").read_text())
    run["config_sha256"] = "0" * 64
    (out / "run.json").write_text(json.dumps(run))
    r = _run(*args)
    assert r.returncode == 2 and "another configuration" in r.stderr


@pytest.mark.parametrize("args, says", [
    (["--anchors", "fs:movetime=10"], "nodes, depth"),
    (["--anchors", "sf:nodes=1"], "expected fs:nodes=N"),
    (["--levels", "Grandmaster"], "unknown level 'Grandmaster'"),
    (["--games", "3"], "even number"),
])
def test_the_ladder_refuses_bad_arguments(tmp_path, args, says):
    r = _run("ladder", "--no-rom", "--quiet", "--out", str(tmp_path / "x"), *args)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr


def test_the_ladder_plays_another_tree_s_levels(tmp_path):
    """--tree: the levels come from the tree's YAML (a level renamed there is
    found, and the current tree's name is not), the players are tree:LEVEL,
    and run.json records the tree's digest."""
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    for name in ("eval.yaml", "search.yaml"):
        (cfg / name).write_bytes((ROOT / "config" / name).read_bytes())
    text = (ROOT / "config" / "difficulty.yaml").read_text()
    assert "- name: Novice\n" in text
    (cfg / "difficulty.yaml").write_text(text.replace("- name: Novice\n", "- name: Beginner\n"))
    out = tmp_path / "lad"
    args = ["ladder", "--tree", str(cfg), "--anchors", "fs:depth=1", "--games", "2", "--max-plies", "20",
            "--quiet", "--jobs", "1", "--out", str(out)]
    r = _run(*args, "--levels", "Novice")
    assert r.returncode == 2 and "unknown level 'Novice'" in r.stderr and "Beginner" in r.stderr
    r = _run(*args, "--levels", "Beginner")
    assert r.returncode == 0, r.stderr
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 2 and {g["red"] for g in games} | {g["black"] for g in games} == {"tree:Beginner", "fs:depth=1"}
    from tools.tune.trees import collect, digest
    assert json.loads((out / "run.json").read_text())["config_sha256"] == digest(collect(str(cfg)))
    data = json.loads((out / "ladder.json").read_text())
    assert data["tree"]["spec"] == str(cfg) and data["differential"] is None
    assert "Engine tree:" in (out / "report.md").read_text()


@pytest.mark.parametrize("command", [["ladder", "--tree", "{tree}"], ["sprt", "{tree}", "config", "--level", "Novice"]])
def test_a_bad_tree_is_named_by_the_user_s_file(tmp_path, command):
    """A tree whose YAML is wrong is refused with the user's path and line,
    not the path of the tree's working copy (the ladder's --tree, an SPRT's
    side)."""
    for name in ("eval.yaml", "search.yaml"):
        (tmp_path / name).write_bytes((ROOT / "config" / name).read_bytes())
    (tmp_path / "difficulty.yaml").write_text("levels:\n  - name: Novice\n    depth: [\n")
    r = _run(*(x.format(tree=tmp_path) for x in command), "--quiet", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{tmp_path}/difficulty.yaml:" in r.stderr and "build/tune/trees" not in r.stderr
