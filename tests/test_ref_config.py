"""config/*.yaml validation: every defect is reported as file:line and the problem."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference_py.config import (
    CONFIG_DIR, ConfigError, load_eval, load_levels, load_search,
)

EVAL = (CONFIG_DIR / "eval.yaml").read_text(encoding="utf-8")
LEVELS = (CONFIG_DIR / "difficulty.yaml").read_text(encoding="utf-8")
SEARCH = (CONFIG_DIR / "search.yaml").read_text(encoding="utf-8")


def line_of(text: str, pattern: str, nth: int = 0) -> int:
    """1-based number of the nth line matching a regular expression."""
    hits = [i + 1 for i, ln in enumerate(text.splitlines()) if re.search(pattern, ln)]
    assert len(hits) > nth, pattern
    return hits[nth]


def sub_once(text: str, old: str, new: str, nth: int = 0) -> str:
    """Replace the nth occurrence of `old` (which must exist)."""
    idx = -1
    for _ in range(nth + 1):
        idx = text.index(old, idx + 1)
    return text[:idx] + new + text[idx + len(old):]


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def config_error(fn, *args) -> str:
    with pytest.raises(ConfigError) as exc:
        fn(*args)
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_shipped_files_load():
    ev = load_eval()
    assert set(ev.sets) >= {"basic", "full"}
    lv = load_levels()
    assert [l.name for l in lv][:1] == ["Novice"]
    load_search()
    # and the copies used below load cleanly too (so each defect is the only one)
    assert load_eval(CONFIG_DIR / "eval.yaml") == ev


def test_unmodified_copies_load(tmp_path):
    ev = load_eval(write(tmp_path, "eval.yaml", EVAL))
    assert load_levels(write(tmp_path, "difficulty.yaml", LEVELS), ev) == load_levels()
    assert load_search(write(tmp_path, "search.yaml", SEARCH)) == load_search()


# ---- eval.yaml ---------------------------------------------------------------

def test_non_integer_weight(tmp_path):
    text = sub_once(EVAL, "  rook: 270", "  rook: 270.5")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, r'^  rook: 270.5')}:")
    assert "material.rook must be an integer" in msg and "270.5" in msg


def test_non_integer_set_weight(tmp_path):
    text = sub_once(EVAL, "    tempo: 6", "    tempo: six", nth=1)
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, 'tempo: six')}:")
    assert "sets.full.tempo must be an integer" in msg and "'six'" in msg


def test_boolean_is_not_an_integer(tmp_path):
    text = sub_once(EVAL, "  pawn: 30", "  pawn: true")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, '  pawn: true')}:")
    assert "material.pawn must be an integer" in msg


def test_weight_out_of_range(tmp_path):
    text = sub_once(EVAL, "    - [  0,   3,   6,   6,   3,   6,   6,   3,   0]",
                    "    - [  0,   3,   6,   6, 300,   6,   6,   3,   0]")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, '300,')}:")
    assert "pst.horse row 8" in msg and "300" in msg and "-128..127" in msg


def test_pst_row_with_8_values(tmp_path):
    old = "    - [  6,   9,   6,  12,  15,  12,   6,   9,   6]"       # first row of pst.rook
    text = sub_once(EVAL, old, "    - [  6,   9,   6,  12,  15,  12,   6,   9]")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    row = line_of(text, r"^    - \[  6,   9,   6,  12,  15,  12,   6,   9\]$")
    assert msg.startswith(f"{p}:{row}:")
    assert "pst.rook row 1 has 8 values, expected 9" in msg


def test_pst_with_9_rows(tmp_path):
    lines = EVAL.splitlines(keepends=True)
    start = line_of(EVAL, r"^  cannon:$")                  # pst.cannon (material has "cannon: 135")
    del lines[start]                                       # drop its first row
    text = "".join(lines)
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{start + 1}:")            # the list starts on the next line
    assert "pst.cannon must be a list of 10 rows" in msg


def test_unknown_key_in_eval(tmp_path):
    text = sub_once(EVAL, "    tempo: 6\n", "    tempo: 6\n    tempoo: 3\n")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, 'tempoo: 3')}:")
    assert "unknown key 'tempoo' in set 'basic'" in msg


def test_unknown_top_level_key(tmp_path):
    text = EVAL + "\nextra: 1\n"
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, '^extra: 1')}:")
    assert "unknown key 'extra' in the top level" in msg


def test_unknown_piece_in_material(tmp_path):
    text = sub_once(EVAL, "  pawn: 30\n", "  pawn: 30\n  queen: 900\n")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert msg.startswith(f"{p}:{line_of(text, 'queen: 900')}:")
    assert "unknown key 'queen' in material" in msg


def test_missing_key(tmp_path):
    text = sub_once(EVAL, "    horse_leg_blocked: -4\n", "", nth=0)
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert "missing key 'horse_leg_blocked'" in msg
    assert re.match(rf"{re.escape(str(p))}:\d+: ", msg)


def test_invalid_yaml_eval(tmp_path):
    text = sub_once(EVAL, "  king: 0\n", "  king: [0\n")
    p = write(tmp_path, "eval.yaml", text)
    msg = config_error(load_eval, p)
    assert re.match(rf"{re.escape(str(p))}:\d+: not valid YAML", msg)
    assert int(msg[len(str(p)) + 1:].split(":")[0]) >= line_of(text, r"king: \[0")


def test_missing_and_empty_files(tmp_path):
    msg = config_error(load_eval, tmp_path / "nope.yaml")
    assert msg.startswith(f"{tmp_path / 'nope.yaml'}: cannot read")
    msg = config_error(load_eval, write(tmp_path, "empty.yaml", "# nothing\n"))
    assert msg.endswith("file is empty")


# ---- difficulty.yaml -----------------------------------------------------------

@pytest.fixture
def eval_config():
    return load_eval()


def test_unknown_eval_set_in_level(tmp_path, eval_config):
    text = sub_once(LEVELS, "    eval: basic", "    eval: fancy", nth=1)
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'eval: fancy')}:")
    assert "unknown eval set 'fancy'" in msg and "basic" in msg and "full" in msg


@pytest.mark.parametrize("noise", [2, 5, 6, 8, 100, 254])
def test_noise_not_power_of_two_minus_one(tmp_path, eval_config, noise):
    text = sub_once(LEVELS, "    noise: 15", f"    noise: {noise}")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, f'noise: {noise}$')}:")
    assert f"noise = {noise} must be 0 or 2^k-1" in msg


@pytest.mark.parametrize("noise", [0, 1, 3, 7, 31, 127, 255])
def test_noise_powers_of_two_minus_one_accepted(tmp_path, eval_config, noise):
    text = sub_once(LEVELS, "    noise: 15", f"    noise: {noise}")
    levels = load_levels(write(tmp_path, "difficulty.yaml", text), eval_config)
    assert levels[1].noise == noise


def test_noise_out_of_range(tmp_path, eval_config):
    text = sub_once(LEVELS, "    noise: 15", "    noise: 511")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'noise: 511')}:")
    assert "out of range 0..255" in msg


def test_duplicate_level_names(tmp_path, eval_config):
    text = sub_once(LEVELS, "  - name: Hard", "  - name: medium")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'name: medium')}:")
    assert "duplicate level name 'medium'" in msg


def test_unknown_key_in_level(tmp_path, eval_config):
    text = sub_once(LEVELS, "    killers: true\n", "    killers: true\n    speed: 3\n", nth=2)
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'speed: 3')}:")
    assert "unknown key 'speed' in a level" in msg


def test_non_integer_level_field(tmp_path, eval_config):
    text = sub_once(LEVELS, "    depth: 3", "    depth: deep")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'depth: deep')}:")
    assert "depth must be an integer" in msg


def test_bare_block(tmp_path, eval_config):
    """Master's `bare:` block loads; a level without one has None."""
    levels = load_levels()
    assert levels[-1].bare is not None and levels[-1].bare.depth == 8
    assert all(lv.bare is None for lv in levels[:-1])


@pytest.mark.parametrize("old, new, words", [
    ("      depth: 8\n", "      depth: 9\n", "bare.depth = 9 is out of range 1..8"),
    ("      qdepth: 2\n", "      qdepth: -1\n", "bare.qdepth = -1 is out of range 0..8"),
    ("      nodes: 9000\n", "      nodes: 0\n", "bare.nodes = 0 is out of range 1..65535"),
    ("      nodes: 9000\n", "      nodes: 9000\n      speed: 2\n", "unknown key 'speed' in bare"),
    ("      qdepth: 2\n", "", "missing key 'qdepth'"),
])
def test_bad_bare_block(tmp_path, eval_config, old, new, words):
    refused_at_a_key(tmp_path, eval_config, old, new, words, ("depth", "qdepth", "nodes", "speed", "bare"))


def refused_at_a_key(tmp_path: Path, eval_config, old: str, new: str, words: str, keys: tuple[str, ...]) -> None:
    """difficulty.yaml with `old` replaced by `new` is refused with `words`,
    at a line that starts with one of `keys` (the bad key, or its block)."""
    text = sub_once(LEVELS, old, new)
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:") and words in msg, msg
    line = int(msg[len(str(p)) + 1:].split(":")[0])
    assert text.splitlines()[line - 1].strip().startswith(keys), msg


def test_sparse_block():
    """Master's `sparse:` block loads; a level without one has None."""
    levels = load_levels()
    assert levels[-1].sparse is not None and levels[-1].sparse.nodes > levels[-1].nodes
    assert all(lv.sparse is None for lv in levels[:-1])


@pytest.mark.parametrize("old, new, words", [
    ("      pieces: 30\n", "      pieces: 32\n", "sparse.pieces = 32 is out of range 2..31"),
    ("      pieces: 30\n", "      pieces: 1\n", "sparse.pieces = 1 is out of range 2..31"),
    ("      nodes: 12000\n", "      nodes: 70000\n", "sparse.nodes = 70000 is out of range 1..65535"),
    ("      nodes: 12000\n", "      nodes: 12000\n      depth: 5\n", "unknown key 'depth' in sparse"),
    ("      pieces: 30\n", "", "missing key 'pieces'"),
])
def test_bad_sparse_block(tmp_path, eval_config, old, new, words):
    """A bad `sparse:` block is refused at its line (the key, or the block
    for a missing one)."""
    refused_at_a_key(tmp_path, eval_config, old, new, words, ("pieces", "nodes", "depth", "sparse"))


def test_limited_lowers_every_cap_a_search_can_use():
    """Level.limited(n), a client's `go nodes n`: the level's cap and its
    sparse block's at most n; the bare block keeps its own."""
    master = load_levels()[-1]
    low = master.limited(100)
    assert (low.nodes, low.sparse.nodes, low.sparse.pieces) == (100, 100, master.sparse.pieces)
    assert low.bare == master.bare
    mid = master.limited(10_000)
    assert (mid.nodes, mid.sparse.nodes) == (master.nodes, 10_000)
    assert master.limited(65_535) == master
    assert load_levels()[0].limited(10).sparse is None


@pytest.mark.parametrize("old, new, words", [
    ("    check_ext: 6\n", "    check_ext: 9\n", "check_ext = 9 is out of range 0..8"),
    ("    check_ext: 6\n", "    check_ext: 8\n", "check_ext = 8 must be below 7, its bare depth + qdepth"),
    ("    qdepth: 6\n    eval: full\n    # 9,", "    qdepth: 1\n    eval: full\n    # 9,",
     "check_ext = 6 must be below 5, its depth + qdepth"),
])
def test_bad_check_extension(tmp_path, eval_config, old, new, words):
    """A check extension must end an extended line's main search before the
    ply where the level's search ends (depth + qdepth), in each of its rows."""
    text = sub_once(LEVELS, old, new)
    if "must be below 7" in words:       # Master's bare row: depth 5 + qdepth 2
        text = sub_once(text, "      depth: 8\n", "      depth: 5\n")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    value = words.split("check_ext = ")[1].split()[0]        # the line of the refused value
    assert msg.startswith(f"{p}:{line_of(text, f'check_ext: {value}$')}:") and words in msg, msg
    assert load_levels()[-1].check_ext == 6


def test_bare_block_not_a_mapping(tmp_path, eval_config):
    text = sub_once(LEVELS, "    bare:\n      depth: 8\n      qdepth: 2\n      nodes: 9000\n", "    bare: 8\n")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'bare: 8')}:") and "bare must be a mapping" in msg


def test_level_bool_field(tmp_path, eval_config):
    text = sub_once(LEVELS, "    history: true", "    history: 1")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'history: 1')}:")
    assert "history must be true or false" in msg


def test_invalid_yaml_levels(tmp_path, eval_config):
    text = sub_once(LEVELS, "    depth: 2\n", "    depth: 2\n   qdepth 3\n")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert re.match(rf"{re.escape(str(p))}:\d+: not valid YAML", msg)
    got = int(msg[len(str(p)) + 1:].split(":")[0])
    bad = line_of(text, "^   qdepth 3")
    assert bad - 1 <= got <= bad + 1


def test_too_many_levels(tmp_path, eval_config):
    block = LEVELS[LEVELS.index("  - name: Novice"):LEVELS.index("  - name: Easy")]
    extra = "".join(block.replace("Novice", f"Extra{i}") for i in range(4))
    p = write(tmp_path, "difficulty.yaml", LEVELS + extra)
    msg = config_error(load_levels, p, eval_config)
    assert "at most 8 levels" in msg
    assert msg.startswith(f"{p}:{line_of(LEVELS, '^levels:') + 1}:")


def test_bad_level_name(tmp_path, eval_config):
    text = sub_once(LEVELS, "  - name: Master", "  - name: Grand-Master!")
    p = write(tmp_path, "difficulty.yaml", text)
    msg = config_error(load_levels, p, eval_config)
    assert msg.startswith(f"{p}:{line_of(text, 'Grand-Master!')}:")
    assert "level name" in msg


# ---- search.yaml ---------------------------------------------------------------

def test_search_history_bonus_length(tmp_path):
    text = sub_once(SEARCH, "[1, 4, 9, 16, 25, 36, 49, 64]", "[1, 4, 9, 16, 25, 36, 49]")
    p = write(tmp_path, "search.yaml", text)
    msg = config_error(load_search, p)
    assert msg.startswith(f"{p}:{line_of(text, '^history_bonus:')}:")
    assert "history_bonus must be a list of 8 integers" in msg


def test_search_unknown_key_and_bad_value(tmp_path):
    p = write(tmp_path, "search.yaml", SEARCH + "nodes_per_frame: 3\n")
    msg = config_error(load_search, p)
    assert msg.startswith(f"{p}:{line_of(SEARCH + 'nodes_per_frame: 3', '^nodes_per_frame')}:")
    assert "unknown key 'nodes_per_frame'" in msg
    text = sub_once(SEARCH, "move_stack_entries: 255", "move_stack_entries: 100")
    p = write(tmp_path, "search.yaml", text)
    msg = config_error(load_search, p)
    assert msg.startswith(f"{p}:{line_of(text, '^move_stack_entries')}:")
    assert "out of range 128..255" in msg


def test_search_victim_rank_zero_is_refused(tmp_path):
    """A victim rank of 0 would put a capture key below 128, among the quiet keys."""
    text = sub_once(SEARCH, "pawn: 1}", "pawn: 0}")
    p = write(tmp_path, "search.yaml", text)
    msg = config_error(load_search, p)
    assert msg.startswith(f"{p}:{line_of(text, '^victim_rank')}:")
    assert "victim_rank.pawn = 0 is out of range 1..7" in msg
    ok = sub_once(SEARCH, "pawn: 1}", "pawn: 0}", 1)       # attacker ranks may be 0
    assert load_search(write(tmp_path, "search2.yaml", ok)).attacker_rank[7] == 0


def test_cli_reports_config_errors(tmp_path, monkeypatch, capsys):
    """A broken config reaches the user as one 'error:' line, exit status 2."""
    import reference_py.__main__ as cli
    import reference_py.search as search_module

    text = sub_once(LEVELS, "    eval: basic", "    eval: fancy")
    p = write(tmp_path, "difficulty.yaml", text)

    def broken_levels():
        return tuple(load_levels(p))

    monkeypatch.setattr(search_module, "levels", broken_levels)
    monkeypatch.setattr(cli, "levels", broken_levels)
    assert cli.main(["levels"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {p}:{line_of(text, 'eval: fancy')}: unknown eval set")
    assert err.count("\n") == 1


def test_cli_play_default_level_with_few_levels(tmp_path, monkeypatch):
    """`play` without --level picks the third level, or the last if there are fewer."""
    import reference_py.__main__ as cli

    block = LEVELS[LEVELS.index("  - name: Novice"):LEVELS.index("  - name: Easy")]
    p = write(tmp_path, "difficulty.yaml", LEVELS[:LEVELS.index("  - name: Novice")] + block)
    one = tuple(load_levels(p))
    assert [l.name for l in one] == ["Novice"]
    monkeypatch.setattr(cli, "levels", lambda: one)
    assert cli.default_play_level() == "Novice"
    monkeypatch.setattr(cli, "levels", lambda: tuple(load_levels()))
    assert cli.default_play_level() == load_levels()[2].name


@pytest.mark.parametrize("which", ["eval", "levels"])
def test_duplicate_key_is_reported(tmp_path, eval_config, which):
    if which == "eval":
        text = sub_once(EVAL, "  rook: 270\n", "  rook: 270\n  rook: 280\n")
        p = write(tmp_path, "eval.yaml", text)
        with pytest.raises(ConfigError) as exc:
            load_eval(p)
        line = line_of(text, "rook: 280")
    else:
        text = sub_once(LEVELS, "    depth: 3\n", "    depth: 3\n    depth: 5\n")
        p = write(tmp_path, "difficulty.yaml", text)
        with pytest.raises(ConfigError) as exc:
            load_levels(p, eval_config)
        line = line_of(text, "depth: 5")
    assert str(exc.value).startswith(f"{p}:{line}:")
    assert "duplicate" in str(exc.value)
