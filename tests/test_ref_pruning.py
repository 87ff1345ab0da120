"""Forward pruning (config/search.yaml `pruning:`): futility, reverse
futility and quiescence exchange pruning are shipped on (both engines); the
other knobs are reference-only experiments and stay off."""
from __future__ import annotations

import dataclasses

from reference_py.config import CONFIG_DIR, ConfigError, Pruning, load_search
from reference_py.fen import parse_fen
from reference_py.search import Searcher, level_by_name

FEN = "r1baka1n1/9/2c1b2c1/p2rp1p1p/9/1CB6/PCP1P1P1P/9/2R6/1N1AKA1NR b - - 0 12"
ON = Pruning(futility_margin1=60, futility_margin2=150, rfp_depth=2, rfp_margin=50,
             lmr_min_depth=2, lmp1=8, lmp2=12, aspiration=40)
ROM_KNOBS = ("futility_margin1", "futility_margin2", "rfp_depth", "rfp_margin", "qs_exchange", "next_iteration")


def test_shipped_config_uses_only_the_knobs_the_rom_implements():
    shipped = load_search().pruning
    off = Pruning()
    assert not off.any and ON.any and shipped.any
    for f in dataclasses.fields(Pruning):
        if f.name not in ROM_KNOBS:
            assert getattr(shipped, f.name) == getattr(off, f.name), f.name
    assert shipped.qs_exchange == 100
    from tools.rom.gen_tables import ROM_PRUNING
    assert set(ROM_PRUNING) == set(ROM_KNOBS)      # the knobs the ROM build accepts


def test_shipped_pruning_is_the_default_and_prunes():
    """Searcher without a pruning argument uses the shipped knobs, and they
    cut nodes against the same search with every knob off."""
    lv = dataclasses.replace(level_by_name("Master"), nodes=65535, sparse=None)
    shipped = Searcher(parse_fen(FEN), lv).run()
    assert Searcher(parse_fen(FEN), lv, pruning=load_search().pruning).run().as_json() == shipped.as_json()
    plain = Searcher(parse_fen(FEN), lv, pruning=Pruning()).run()
    assert shipped.depth == plain.depth == 4
    assert shipped.nodes < plain.nodes


def test_more_pruning_searches_fewer_nodes_and_returns_a_legal_move():
    lv = dataclasses.replace(level_by_name("Master"), nodes=65535, sparse=None)
    pos = parse_fen(FEN)
    base = Searcher(parse_fen(FEN), lv).run()
    s = Searcher(parse_fen(FEN), lv, pruning=ON)
    r = s.run()
    assert r.depth == 4 and r.nodes < base.nodes and s.pruned > 0
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


def test_lmr_root_reduces_late_quiet_root_moves_only():
    """`lmr_root` = n reduces the root's quiet moves after n legal moves (the
    rule below the root, applied at ply 0): fewer nodes for the same depth,
    a legal move; 0 leaves the search exactly as shipped."""
    lv = dataclasses.replace(level_by_name("Master"), nodes=65535, sparse=None)
    shipped = load_search().pruning
    base = Searcher(parse_fen(FEN), lv).run()
    assert Searcher(parse_fen(FEN), lv, pruning=dataclasses.replace(shipped, lmr_root=0)).run().as_json() \
        == base.as_json()
    nodes = []
    for n in (6, 3):
        r = Searcher(parse_fen(FEN), lv, pruning=dataclasses.replace(shipped, lmr_root=n)).run()
        assert r.depth == base.depth == 4 and r.move in parse_fen(FEN).legal_moves()
        nodes.append(r.nodes)
    assert base.nodes > nodes[0] > nodes[1]           # later reductions save less
    # a level too shallow for LMR (depth < lmr_min_depth) is not touched at the root either
    easy = dataclasses.replace(level_by_name("Easy"), noise=0)
    assert Searcher(parse_fen(FEN), easy, pruning=dataclasses.replace(shipped, lmr_root=3)).run().as_json() \
        == Searcher(parse_fen(FEN), easy).run().as_json()


def test_next_iteration_skips_an_iteration_the_cap_would_stop():
    """`next_iteration` = R: after a completed iteration the next starts only
    while nodes x R is below the cap, so the search answers from the last
    completed depth instead of spending the rest of the cap on an iteration
    it would not finish; a bare side's row (the endgame's deeper limits)
    always goes on; 0 starts every iteration up to the depth."""
    from reference_py.search import search_config
    shipped = search_config().pruning
    master = dataclasses.replace(level_by_name("Master"), book=0)
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    its = []
    every = dataclasses.replace(shipped, next_iteration=0)
    base = Searcher(parse_fen(fen), master, pruning=every, on_iteration=lambda r: its.append(r.nodes)).run()
    assert base.nodes == master.nodes and base.depth == 3      # depth 4 runs into the cap
    r = Searcher(parse_fen(fen), master, pruning=dataclasses.replace(shipped, next_iteration=4)).run()
    assert its[2] * 4 >= master.nodes                           # so R = 4 does not start it
    three = Searcher(parse_fen(fen), dataclasses.replace(master, depth=3), pruning=every).run()
    assert (r.depth, r.nodes, r.move, r.score) == (3, its[2], three.move, three.score)
    # a bare side to move searches its bare depth whatever R says
    bare = "9/3k5/9/9/6b2/2N6/9/9/4K4/9 b - - 0 1"
    deep = Searcher(parse_fen(bare), master).run()
    assert Searcher(parse_fen(bare), master, pruning=dataclasses.replace(shipped, next_iteration=200)).run().as_json() \
        == deep.as_json()
