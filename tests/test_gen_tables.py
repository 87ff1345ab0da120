"""tools/rom/gen_tables.py: the engine's tables come from the reference, a YAML
error stops the build with its file:line and writes nothing."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from reference_py import board as B
from reference_py.config import ConfigError, load_eval, load_levels, load_search
from reference_py.zobrist import ZOBRIST_SIDE
from tests import eval_oracle
from tools.rom import build as build_rom, gen_tables

ROOT = Path(__file__).resolve().parents[1]


def parse_tables(text: str) -> dict[str, list[int]]:
    """label -> bytes, for the generated .byte tables."""
    out: dict[str, list[int]] = {}
    cur = None
    for line in text.splitlines():
        m = re.match(r"^(\w+):", line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        m = re.match(r"^\s+\.byte (.*?)(;.*)?$", line)
        if m and cur:
            body = m.group(1).strip()
            if body.startswith('"'):
                out[cur] += list(body.strip('"').encode("ascii"))
            else:
                out[cur] += [int(v.strip().lstrip("$"), 16) for v in body.split(",")]
    return out


@pytest.fixture(scope="module")
def generated():
    const, data = gen_tables.build()
    return const, parse_tables(data)


def test_square_tables_come_from_board_py(generated):
    _, t = generated
    assert t["sq_flags"] == list(B.SQUARE_FLAGS)
    assert t["sq_of90"] == list(B.PLAYABLE)
    for s in B.PLAYABLE:
        assert t["sq90_red"][s] == B.sq90(s, B.RED)
        assert t["sq90_black"][s] == B.sq90(s, B.BLACK)
        assert (t["sq_file"][s], t["sq_rank"][s]) == (B.file_of(s), B.rank_of(s))


def _splitmix64_outputs(seed: int):
    """SplitMix64 (Steele, Lea and Flood 2014), written here again: the
    reference's generator is what is under test."""
    mask = (1 << 64) - 1
    x = seed
    while True:
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        yield z ^ (z >> 31)


def _square(file: int, rank: int) -> int:
    return (rank + 2) * 11 + file + 1            # docs/ENGINE.md "Board"


def test_splitmix64_published_vector():
    assert next(_splitmix64_outputs(0)) == 0xE220A8397B1DCDAF


def test_zobrist_rows_follow_the_specification(generated):
    """docs/ENGINE.md: the top 16 bits of SplitMix64 outputs from seed
    "XIANGQI" and a zero byte, in the order side, kind 1-7, squares ascending, then the
    side key; checked against the generated ROM tables, not against the
    reference's own function."""
    const, t = generated
    out = _splitmix64_outputs(0x5849414E47514900)
    for side in (0, 1):
        for kind in range(1, 8):
            pk = side * 8 + kind
            for rank in range(10):
                for file in range(9):
                    i = _square(file, rank) - gen_tables.FIRST_SQ
                    want = next(out) >> 48
                    assert t[f"zob_lo_{pk}"][i] | (t[f"zob_hi_{pk}"][i] << 8) == want, (pk, file, rank)
    side_key = next(out) >> 48
    assert f"ZOBRIST_SIDE_LO  = ${side_key & 0xFF:02X}" in const
    assert ZOBRIST_SIDE == side_key


def test_value_rows_follow_the_yaml(generated):
    """value[side*8+kind][sq] = +-(material + the PST entry if the set has
    PSTs), read from config/eval.yaml here (its first row is rank 9, Black
    uses the table turned 180 degrees), not through evaluate.value_table."""
    _, t = generated
    raw = eval_oracle.load()
    names = {1: "king", 2: "advisor", 3: "elephant", 4: "horse", 5: "rook", 6: "cannon", 7: "pawn"}
    for si, set_name in enumerate(raw["sets"]):
        pst_on = raw["sets"][set_name]["pst"]
        for side, sign in ((0, 1), (1, -1)):
            for kind, name in names.items():
                pk = side * 8 + kind
                table = raw["pst"][name]
                for rank in range(10):
                    for file in range(9):
                        pst = table[9 - rank][file] if side == 0 else table[rank][8 - file]
                        want = sign * (raw["material"][name] + (pst if pst_on else 0))
                        i = _square(file, rank) - gen_tables.FIRST_SQ
                        got = t[f"val_lo_{si}_{pk}"][i] | (t[f"val_hi_{si}_{pk}"][i] << 8)
                        assert got == want & 0xFFFF, (set_name, pk, file, rank)


def test_levels_and_names(generated):
    _, t = generated
    levels = load_levels()
    rows = gen_tables.search_rows(levels)
    assert t["lvl_depth"] == [lv.depth for lv in rows]
    assert t["lvl_qdepth"] == [lv.qdepth for lv in rows]
    assert [lo | hi << 8 for lo, hi in zip(t["lvl_nodes_lo"], t["lvl_nodes_hi"])] == [lv.nodes for lv in rows]
    names = bytes(t["lvl_name_text"]).decode()
    assert len(names) == 8 * len(levels)
    for i, lv in enumerate(levels):
        assert names[8 * i:8 * i + 8].strip() == lv.name.upper()[:8].strip()


def test_bare_rows(generated):
    """A level with a `bare` block gets a row of its own after the levels
    (lvl_bare[level] = its index, $FF without one): the block's depth, qdepth
    and nodes, the level's eval, noise, flags and book."""
    _, t = generated
    levels = load_levels()
    assert len(t["lvl_bare"]) == len(levels)
    assert any(lv.bare for lv in levels)
    for i, lv in enumerate(levels):
        row = t["lvl_bare"][i]
        if lv.bare is None:
            assert row == 0xFF
            continue
        assert row >= len(levels)
        assert (t["lvl_depth"][row], t["lvl_qdepth"][row]) == (lv.bare.depth, lv.bare.qdepth)
        assert t["lvl_nodes_lo"][row] | t["lvl_nodes_hi"][row] << 8 == lv.bare.nodes
        for name in ("lvl_eval", "lvl_noise", "lvl_flags", "lvl_book"):
            assert t[name][row] == t[name][i], name


def test_sparse_tables(generated):
    """lvl_sparse[level] = its sparse block's pieces + 1 (0: none) and
    lvl_sparse_lo/hi its cap, one entry per level (set_node_cap reads them
    for a level's own row only)."""
    _, t = generated
    levels = load_levels()
    assert any(lv.sparse for lv in levels)
    assert len(t["lvl_sparse"]) == len(t["lvl_sparse_lo"]) == len(t["lvl_sparse_hi"]) == len(levels)
    for i, lv in enumerate(levels):
        cap = t["lvl_sparse_lo"][i] | t["lvl_sparse_hi"][i] << 8
        if lv.sparse is None:
            assert (t["lvl_sparse"][i], cap) == (0, 0)
        else:
            assert (t["lvl_sparse"][i], cap) == (lv.sparse.pieces + 1, lv.sparse.nodes)


def test_mvv_lva(generated):
    from reference_py.config import load_search
    _, t = generated
    sc = load_search()
    assert t["mvv_lva"][8 * B.ROOK + B.PAWN] == 128 + 16 * sc.victim_rank[B.ROOK] - sc.attacker_rank[B.PAWN]


def broken_config(tmp_path: Path) -> Path:
    cfg = tmp_path / "config"
    shutil.copytree(ROOT / "config", cfg)
    text = (cfg / "difficulty.yaml").read_text().splitlines()
    line = next(i for i, s in enumerate(text) if "depth:" in s)
    text[line] = text[line].replace("depth:", "depth: [")
    (cfg / "difficulty.yaml").write_text("\n".join(text) + "\n")
    return cfg


def test_yaml_error_names_file_and_line_and_writes_nothing(tmp_path):
    cfg = broken_config(tmp_path)
    out = tmp_path / "gen"
    with pytest.raises(ConfigError, match=r"difficulty\.yaml:\d+: "):
        gen_tables.generate(out, config_dir=cfg)
    assert not out.exists() or not any(out.iterdir())


def test_cli_reports_yaml_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(gen_tables, "CONFIG_DIR", broken_config(tmp_path))
    assert gen_tables.main([str(tmp_path / "gen")]) == 1
    err = capsys.readouterr().err
    assert re.match(r"gen_tables\.py: error: .*difficulty\.yaml:\d+: ", err)
    assert not (tmp_path / "gen").exists()


def test_build_stops_on_yaml_error_without_touching_outputs(tmp_path, monkeypatch):
    monkeypatch.setattr(gen_tables, "CONFIG_DIR", broken_config(tmp_path))
    monkeypatch.setattr(build_rom, "GEN_DIR", tmp_path / "gen")
    rom = tmp_path / "x.nes"
    with pytest.raises(build_rom.BuildError, match=r"difficulty\.yaml:\d+: "):
        build_rom.build("ours", rom)
    assert not rom.exists()
    assert not (tmp_path / "gen").exists()


def _pruning_config(tmp_path, key: str, value: str):
    """A copy of config/ with one pruning knob of search.yaml changed; returns
    (config dir, 1-based line of the knob)."""
    cfg = tmp_path / "config"
    shutil.copytree(ROOT / "config", cfg)
    text = (cfg / "search.yaml").read_text().splitlines()
    line = next(i for i, s in enumerate(text) if s.strip().startswith(f"{key}:"))
    text[line] = f"  {key}: {value}"
    (cfg / "search.yaml").write_text("\n".join(text) + "\n")
    return cfg, line + 1


@pytest.mark.parametrize("key, value, why", [
    ("lmp1", "8", r"pruning\.lmp1 = 8: .*only in reference_py"),
    ("aspiration", "40", r"pruning\.aspiration = 40: .*only in reference_py"),
    ("rfp_depth", "3", r"pruning\.rfp_depth = 3: the ROM supports reverse futility up to depth 2"),
    ("futility_margin1", "-5", r"pruning\.futility_margin1 = -5 is out of range 0\.\.1000"),
    ("qs_exchange_qply", "1", r"pruning\.qs_exchange_qply = 1: .*only in reference_py"),
    ("lmr_root", "3", r"pruning\.lmr_root = 3: .*only in reference_py"),
    ("next_iteration", "256", r"pruning\.next_iteration = 256: the ROM's factor is one byte"),
])
def test_rom_build_refuses_pruning_it_does_not_implement(tmp_path, key, value, why):
    """A pruning knob only reference_py implements, or a value the ROM cannot
    hold, must stop the ROM's table generation (with the file and line), or the
    ROM would silently stop matching the reference."""
    cfg, line = _pruning_config(tmp_path, key, value)
    out = tmp_path / "gen"
    with pytest.raises(ConfigError, match=rf"search\.yaml:{line}: {why}"):
        gen_tables.generate(out, config_dir=cfg)
    assert not out.exists() or not any(out.iterdir())


def test_pruning_margins_reach_the_rom_constants(tmp_path):
    """The futility knobs feed both engines from one place: the generated
    constants follow config/search.yaml."""
    const, _ = gen_tables.build()
    assert "FUT_MARGIN1      = 60 " in const and "RFP_DEPTH        = 2" in const
    cfg, _ = _pruning_config(tmp_path, "futility_margin2", "0")
    const, _ = gen_tables.build(cfg)
    assert "FUT_MARGIN2      = 0" in const and "FUT_MARGIN1      = 60 " in const


def test_next_iteration_reaches_the_rom(tmp_path):
    """The iteration rule's factor is one constant of both engines: the ROM
    assembles next_fits only when it is above 0."""
    want = f"NEXT_ITERATION   = {load_search().pruning.next_iteration} "
    const, _ = gen_tables.build()
    assert want in const
    cfg, _ = _pruning_config(tmp_path, "next_iteration", "5")
    const, _ = gen_tables.build(cfg)
    assert "NEXT_ITERATION   = 5 " in const


def test_exchange_pruning_reaches_the_rom(tmp_path):
    """qs_exchange (config/search.yaml) becomes QS_EXCHANGE, which assembles
    q_node's exchange test in or out, and the exchange_prune table."""
    const, _ = gen_tables.build()
    assert "QS_EXCHANGE      = 1 " in const
    cfg, _ = _pruning_config(tmp_path, "qs_exchange", "0")
    const, _ = gen_tables.build(cfg)
    assert "QS_EXCHANGE      = 0 " in const


def test_exchange_prune_follows_the_gap(generated):
    """exchange_prune[a * 8 + v] is 1 exactly when material[a] - material[v]
    >= qs_exchange (reference Searcher._losing_exchange), for the shipped
    config and other gaps; 0 switches every pair off."""
    _, t = generated
    material = load_eval().material
    gap = load_search().pruning.qs_exchange
    assert t["exchange_prune"] == gen_tables.exchange_prune(material, gap)
    for g in (gap, 1, 60, 61, 240, 1000):
        table = gen_tables.exchange_prune(material, g)
        for a in range(1, 8):
            for v in range(1, 8):
                assert table[a * 8 + v] == int(material[a] - material[v] >= g), (g, a, v)
    assert not any(gen_tables.exchange_prune(material, 0))
    # the shipped gap, 100: a rook or cannon taking a pawn, never a horse taking one
    HORSE, ROOK, CANNON, PAWN = 4, 5, 6, 7
    if gap == 100:
        assert t["exchange_prune"][ROOK * 8 + PAWN] and t["exchange_prune"][CANNON * 8 + PAWN]
        assert not t["exchange_prune"][HORSE * 8 + PAWN]


def test_step_rel_says_which_piece_steps_to_a_square(generated):
    """step_rel[piece - square + 24]: the king's and advisor's one steps,
    the elephant's two diagonal steps, the horse's eight squares (with the
    leg, the square's diagonal neighbour towards the horse), nothing else."""
    _, t = generated
    rel = t["step_rel"]
    assert rel == gen_tables.step_rel() and len(rel) == 49
    want = {}
    for d in (B.UP, B.DOWN, B.LEFT, B.RIGHT):
        want[d] = gen_tables.STEP_KING
    for d in (B.UP + B.RIGHT, B.UP + B.LEFT, B.DOWN + B.RIGHT, B.DOWN + B.LEFT):
        want[d] = gen_tables.STEP_ADVISOR
        want[2 * d] = gen_tables.STEP_ELEPHANT
    for dr, df in ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)):
        leg = (1 if dr > 0 else -1) * B.UP + (1 if df > 0 else -1) * B.RIGHT
        want[dr * B.UP + df * B.RIGHT] = leg & 0xFF
    assert {d - 24: v for d, v in enumerate(rel) if v} == want
    # eng_attacked tells a horse square from a step by entry >= STEP_HORSE_MIN
    assert gen_tables.STEP_ELEPHANT < gen_tables.STEP_HORSE_MIN <= min(v for v in want.values() if v > 3)


def _const(text: str, name: str) -> int:
    return int(re.search(rf"^{name}\s*=\s*(\d+)", text, re.M).group(1))


def test_ply_sizes_follow_the_levels(tmp_path):
    """The ROM's per-ply arrays are sized from config/difficulty.yaml, not by
    the reference's MAX_PLY: undo entries for the deepest depth + qdepth (at
    least perft's 4), a repetition ring of GAME_WINDOW + the deepest depth,
    the levels' `bare` blocks included; a deeper level grows them."""
    from reference_py.rules import GAME_WINDOW
    from reference_py.search import MAX_PLY
    levels = gen_tables.search_rows(load_levels())      # the bare blocks count as levels
    const, _ = gen_tables.build()
    reach = max(lv.depth + lv.qdepth for lv in levels)
    assert _const(const, "SEARCH_REACH") == reach <= MAX_PLY      # no node deeper than the reference's arrays
    assert _const(const, "ENG_PLIES") == max(4, max(lv.depth + max(lv.qdepth, 1) for lv in levels))
    assert _const(const, "REP_RING_ENTRIES") == GAME_WINDOW + max(lv.depth for lv in levels)
    cfg = tmp_path / "config"
    shutil.copytree(ROOT / "config", cfg)
    text = (cfg / "difficulty.yaml").read_text()
    (cfg / "difficulty.yaml").write_text(text.replace("    depth: 4\n    qdepth: 6\n",
                                                      "    depth: 6\n    qdepth: 8\n"))
    const, _ = gen_tables.build(cfg)
    assert (_const(const, "ENG_PLIES"), _const(const, "SEARCH_REACH"), _const(const, "SEARCH_PLIES"),
            _const(const, "REP_RING_ENTRIES")) == (14, 14, 14, GAME_WINDOW + max(6, *(lv.depth for lv in levels)))


def test_weakness_tables_reach_the_rom(generated):
    """eng_eval's per-piece weights (asm/engine/eng_eval.s weak_red / weak_black),
    per set: the weights with the sign of the side they count against, the
    cannon's [3 - min(pieces between, 3)], the tempo as 16-bit."""
    from reference_py.evaluate import build_tables
    const, t = generated
    cfg = load_eval()
    tabs = [build_tables(cfg, cfg.sets[n]) for n in cfg.sets]
    assert t["ev_wk_leg"] == [-tb.horse_leg for tb in tabs]
    assert t["ev_wk_eye"] == [-tb.elephant_eye for tb in tabs]
    assert t["ev_wk_rook"] == [tb.rook_file for tb in tabs]
    assert t["ev_wk_cannon"] == [tb.cannon_file[3 - k] for tb in tabs for k in range(4)]
    assert t["evk_base_4"] == [4 * i for i in range(len(tabs))]
    assert [lo | hi << 8 for lo, hi in zip(t["ev_tempo_lo"], t["ev_tempo_hi"])] == \
        [tb.tempo & 0xFFFF for tb in tabs]
    assert f"WEAKNESS_MAX     = {gen_tables.WEAKNESS_MAX}" in const
    assert gen_tables.weakness_max(tabs[list(cfg.sets).index("full")]) == 2 * 4 * 4 + 2 * 4 * 3 + 2 * 10 + 2 * 24


def _weakness(pos, tb, side: int) -> int:
    """The model of weak_red / weak_black: the per-piece terms that count
    against `side` as a weakness >= 0 (its horses' occupied legs, its
    elephants' occupied eyes with the target on its half, the enemy's rooks
    and cannons on its king's file)."""
    leg, eye, rook, cannon = gen_tables.weakness_weights(tb)
    board, w = pos.board, 0
    king = pos.piece_sq[16 * side]
    for i in range(16 * side, 16 * side + 16):
        sq, kind = pos.piece_sq[i], pos.piece_kind[i]
        if sq and kind == B.HORSE:
            w += leg * sum(board[sq + d] not in (B.EMPTY, B.OFFBOARD) for d in B.ORTHO)
        elif sq and kind == B.ELEPHANT:
            w += eye * sum(board[sq + d] not in (B.EMPTY, B.OFFBOARD)
                           and bool(B.SQUARE_FLAGS[sq + 2 * d] & B.HALF_FLAG[side]) for d in B.DIAG)
    for i in range(16 * (side ^ 1), 16 * (side ^ 1) + 16):
        sq, kind = pos.piece_sq[i], pos.piece_kind[i]
        if sq and king and kind in (B.ROOK, B.CANNON) and B.file_of(sq) == B.file_of(king):
            if kind == B.ROOK:
                w += rook
            else:
                step = B.UP if king > sq else B.DOWN
                between = sum(board[x] != B.EMPTY for x in range(sq + step, king, step))
                w += cannon[min(between, 3)]
    return w


def test_lazy_eval_bound_holds_on_many_positions():
    """The bound eng_eval_ge relies on, against reference evaluate() on
    random-game positions and the middlegame suite, for every weight set:
    the per-piece terms are W(Black) - W(Red) with 0 <= W <= weakness_max,
    so for the side to move e >= base - W(own), base = +-(score + count
    terms) + tempo, and e = base - W(own) + W(enemy) exactly."""
    import random
    from reference_py.evaluate import build_tables, count_terms, evaluate, knowledge_terms
    from reference_py.fen import START_FEN
    from reference_py.rules import random_walk
    cfg = load_eval()
    rng = random.Random(2026)
    suite = [s.strip() for s in (ROOT / "bench" / "middlegames.fen").read_text().splitlines()
             if s.strip() and not s.startswith("#")]
    starts = [START_FEN] * 8 + suite
    positions = [random_walk(fen, rng.randrange(0, 120), rng) for fen in starts for _ in range(6)]
    worst = 0
    for name in cfg.sets:
        tb = build_tables(cfg, cfg.sets[name])
        top = gen_tables.weakness_max(tb)
        for pos in positions:
            pos.set_values(tb.values)
            w_red, w_black = _weakness(pos, tb, B.RED), _weakness(pos, tb, B.BLACK)
            assert 0 <= w_red <= top and 0 <= w_black <= top
            worst = max(worst, w_red, w_black)
            if tb.knowledge:
                assert knowledge_terms(pos, tb) - count_terms(pos, tb) == w_black - w_red
            sign = 1 if pos.side == B.RED else -1
            base = sign * (pos.score + (count_terms(pos, tb) if tb.knowledge else 0)) + tb.tempo
            own, enemy = (w_red, w_black) if pos.side == B.RED else (w_black, w_red)
            e = evaluate(pos, tb)
            assert e == base - own + enemy and e >= base - own
            assert abs(e) <= gen_tables.eval_abs_bound(cfg, tb) <= gen_tables.EVAL_ABS_MAX
    assert len(positions) >= 250 and worst > 20


@pytest.mark.parametrize("key, value, why", [
    ("horse_leg_blocked", "2", r"sets\.full\.horse_leg_blocked: 2 > 0"),
    ("elephant_eye_blocked", "1", r"sets\.full\.elephant_eye_blocked: 1 > 0"),
    ("rook_on_king_file", "-1", r"sets\.full\.rook_on_king_file: .*to gain"),
    ("cannon_on_king_file", "[24, 6, -12, 4]", r"sets\.full\.cannon_on_king_file: .*to gain"),
    ("horse_leg_blocked", "-30", r"sets\.full\.horse_leg_blocked: the per-piece terms against one side reach 332 "),
])
def test_rom_build_refuses_weights_the_lazy_eval_cannot_hold(tmp_path, key, value, why):
    """eng_eval sums each side's per-piece terms as a weakness in one byte
    with no carry: a weight of the other sign, or a sum above 255, must stop
    the table generation (with eval.yaml's file and line)."""
    cfg = tmp_path / "config"
    shutil.copytree(ROOT / "config", cfg)
    text = (cfg / "eval.yaml").read_text().splitlines()
    start = next(i for i, s in enumerate(text) if s.strip() == "full:")
    line = next(i for i, s in enumerate(text) if i > start and s.strip().startswith(f"{key}:"))
    text[line] = f"    {key}: {value}"
    (cfg / "eval.yaml").write_text("\n".join(text) + "\n")
    out = tmp_path / "gen"
    with pytest.raises(ConfigError, match=rf"eval\.yaml:{line + 1}: {why}"):
        gen_tables.generate(out, config_dir=cfg)
    assert not out.exists() or not any(out.iterdir())
