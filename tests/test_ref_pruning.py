"""Experimental pruning options (config/search.yaml `pruning:`): off by default."""
from __future__ import annotations

import dataclasses

from reference_py.config import CONFIG_DIR, ConfigError, Pruning, load_search
from reference_py.fen import parse_fen
from reference_py.search import Searcher, level_by_name

FEN = "r1baka1n1/9/2c1b2c1/p2rp1p1p/9/1CB6/PCP1P1P1P/9/2R6/1N1AKA1NR b - - 0 12"
ON = Pruning(futility_margin1=60, futility_margin2=150, rfp_depth=2, rfp_margin=50,
             lmr_min_depth=2, lmp1=8, lmp2=12, aspiration=40)


def test_shipped_config_switches_pruning_off():
    assert load_search().pruning == Pruning()
    assert not Pruning().any and ON.any


def test_defaults_are_bit_identical():
    lv = level_by_name("Hard")
    base = Searcher(parse_fen(FEN), lv).run().as_json()
    assert Searcher(parse_fen(FEN), lv, pruning=Pruning()).run().as_json() == base


def test_pruning_searches_fewer_nodes_and_returns_a_legal_move():
    lv = dataclasses.replace(level_by_name("Master"), nodes=65535)
    pos = parse_fen(FEN)
    base = Searcher(parse_fen(FEN), lv).run()
    r = Searcher(parse_fen(FEN), lv, pruning=ON).run()
    assert r.depth == 4 and r.nodes < base.nodes
    assert r.move in pos.legal_moves()


def test_unknown_pruning_key(tmp_path):
    text = (CONFIG_DIR / "search.yaml").read_text(encoding="utf-8").replace("  lmp1: 0", "  lmp3: 0")
    p = tmp_path / "search.yaml"
    p.write_text(text, encoding="utf-8")
    try:
        load_search(p)
    except ConfigError as exc:
        assert "unknown key 'lmp3' in pruning" in str(exc)
    else:
        raise AssertionError("no error")
