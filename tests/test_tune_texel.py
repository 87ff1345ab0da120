"""The Texel tuner (its model equals the reference's evaluation, the fit
lowers the loss, the YAML it writes keeps its comments and passes the ROM's
checks, the command on a tiny self-play set) and the SPRT command on two
engine trees."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reference_py.config import CONFIG_DIR, load_eval
from reference_py.fen import START_FEN
from reference_py.rules import random_walk
from tools.tune import texel
from tools.tune.trees import BOOK_FILE, YAML_FILES, TreeError, collect, load, prepare

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("set_name", ["full", "basic"])
def test_the_linear_model_is_the_reference_evaluation(set_name):
    cfg = load_eval()
    params, index = texel.parameters(set_name)
    tables = texel.build_tables(cfg, cfg.sets[set_name])
    w0 = texel.current_weights(cfg, set_name, params, index)
    rng = random.Random(11)
    for _ in range(200):
        pos = random_walk(START_FEN, rng.randrange(0, 140), rng)
        x, off = texel.features(pos, index, len(params), tables)
        assert off + x @ w0 == texel.red_eval(pos, tables)


def test_the_fit_lowers_the_loss_and_stays_near_today_with_a_strong_pull():
    rng = np.random.default_rng(0)
    n, p = 400, 5
    X = rng.integers(-2, 3, size=(n, p)).astype(float)
    true = np.array([30.0, -20.0, 10.0, 0.0, 5.0])
    y = (rng.random(n) < 1 / (1 + np.exp(-0.02 * (X @ true)))).astype(float)
    w0 = np.zeros(p)
    off = np.zeros(n)
    k = 0.02
    w = texel.fit_weights(X, off, y, k, w0, 1e-6)
    assert texel.logloss(X @ w, y, k) < texel.logloss(X @ w0, y, k)
    assert np.sign(w[:3]).tolist() == [1.0, -1.0, 1.0]
    stiff = texel.fit_weights(X, off, y, k, w0, 1e3)
    assert np.max(np.abs(stiff)) < 0.01


def test_the_written_yaml_keeps_comments_and_the_rom_accepts_it(tmp_path):
    cfg = load_eval()
    params, index = texel.parameters("full")
    w = texel.current_weights(cfg, "full", params, index)
    w[index[("material", 3)]] += 5                       # elephant 60 -> 65
    w[index[("pst", 4, 5, 1)]] = 7                       # horse, rank 5, files b and h
    w[index[("term", "cannon_on_king_file[1]")]] = 9
    tree = tmp_path / "config"
    tree.mkdir()
    for name in ("difficulty.yaml", "search.yaml"):
        shutil.copy(CONFIG_DIR / name, tree / name)
    texel.write_eval_yaml(CONFIG_DIR / "eval.yaml", tree / "eval.yaml", "full", texel.rounded(w, params), index)
    old, new = (CONFIG_DIR / "eval.yaml").read_text().splitlines(), (tree / "eval.yaml").read_text().splitlines()
    assert len(old) == len(new)
    assert [a for a in old if a.lstrip().startswith("#")] == [b for b in new if b.lstrip().startswith("#")]
    got = load_eval(tree / "eval.yaml")
    assert got.material[3] == 65
    assert got.pst[4][5 * 9 + 1] == got.pst[4][5 * 9 + 7] == 7
    assert got.sets["full"].cannon_on_king_file[1] == 9
    assert sum(a != b for a, b in zip(old, new)) == 3
    texel.check_rom(tree)


def _tune(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.tune", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)


def test_the_texel_command_on_a_tiny_self_play_set(tmp_path):
    r = _tune("texel", "--games", "3", "--engine", "fs:nodes=200", "--jobs", "1", "--quiet",
              "--data", str(tmp_path / "sp.jsonl"), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "out" / "texel.json").read_text())
    assert rep["games"] == 3 and rep["positions"] > 50
    assert rep["loss"]["train"]["after"] <= rep["loss"]["train"]["before"]
    assert len((tmp_path / "sp.jsonl").read_text().splitlines()) == 3
    texel.check_rom(tmp_path / "out" / "config")
    load_eval(tmp_path / "out" / "config" / "eval.yaml")


def test_trees_from_a_directory_a_checkout_and_a_revision(tmp_path):
    a = prepare(str(CONFIG_DIR))
    b = prepare(str(ROOT))
    assert a["digest"] == b["digest"]                 # the same files either way
    cfg = tmp_path / "cfg"
    shutil.copytree(CONFIG_DIR, cfg)
    (cfg / "difficulty.yaml").write_text((cfg / "difficulty.yaml").read_text().replace("nodes: 300", "nodes: 200"))
    assert prepare(str(cfg))["digest"] != a["digest"]
    assert prepare("HEAD")["digest"]
    with pytest.raises(TreeError, match="no eval.yaml"):
        prepare(str(tmp_path))
    with pytest.raises(TreeError, match="neither a directory nor a git revision"):
        prepare("no-such-revision-xyz")


def _tree_book_name(ref: dict, level: str = "Master") -> str | None:
    pkg = load(ref)
    searcher = pkg.search.Searcher(pkg.fen.parse_fen(START_FEN), pkg.search.level_by_name(level), seed=5)
    return searcher.run().book


def test_a_tree_carries_the_opening_book(tmp_path):
    """reference_py plays without a book when its data file is missing, so a
    tree must carry config/book.checked.json, or a YAML folder's A/B test
    would silently compare two bookless engines."""
    assert _tree_book_name(prepare(str(CONFIG_DIR))) is not None
    assert _tree_book_name(prepare("HEAD")) is not None
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    for name in YAML_FILES:                         # a YAML folder without book data: today's book
        shutil.copy(CONFIG_DIR / name, cfg / name)
    ref = prepare(str(cfg))
    assert "config/" + BOOK_FILE in collect(str(cfg)) and _tree_book_name(ref) is not None
    (cfg / "difficulty.yaml").write_text((cfg / "difficulty.yaml").read_text().replace("book: 40", "book: 0"))
    assert _tree_book_name(prepare(str(cfg))) is None


def test_the_sprt_command_plays_pairs_and_reports(tmp_path):
    cfg = tmp_path / "cfg"
    shutil.copytree(CONFIG_DIR, cfg)
    (cfg / "difficulty.yaml").write_text((cfg / "difficulty.yaml").read_text().replace("nodes: 300", "nodes: 100"))
    out = tmp_path / "sprt"
    r = _tune("sprt", str(CONFIG_DIR), str(cfg), "--level", "Novice", "--max-pairs", "2", "--max-plies", "40",
              "--jobs", "1", "--quiet", "--out", str(out))
    assert r.returncode in (0, 3), r.stderr
    data = json.loads((out / "sprt.json").read_text())
    s = data["sprt"]
    assert s["pairs"] == 2 and sum(s["pentanomial"]) == 2 and s["model"] == "normalized"
    assert data["test"]["spec"] == str(cfg) and data["base"]["digest"] != data["test"]["digest"]
    assert (r.returncode == 0) == bool(s["state"])
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    r = _tune("sprt", str(CONFIG_DIR), str(cfg), "--elo0", "5", "--elo1", "0", "--out", str(out))
    assert r.returncode == 2 and "elo0 < elo1" in r.stderr
