"""Fuzzing the parsers of hand-typed input: FEN, moves, the config YAML.

Whatever the text, each parser either accepts it (and then what it built is
sound) or raises its own error type with a message, never anything else
(tests/test_bad_input.py holds the corpus of known bad inputs; this searches
for unknown ones).
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from reference_py.config import ConfigError, load_eval, load_levels, load_search
from reference_py.config_file import MAX_DEPTH, load_yaml
from reference_py.fen import START_FEN, FenError, format_fen, parse_fen
from reference_py.notation import NotationError, parse_move
from reference_py.position import Position
from reference_py.rules import random_walk
from tools.rom import gen_tables

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "config"
FEN_ALPHABET = "KABNRCPEHkabnrcpeh0123456789/ wbr-"
MOVE_ALPHABET = "abcdefghij0123456789KAEHRCPNBkaehrcpnb+-=.12345 "
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def positions() -> st.SearchStrategy[Position]:
    return st.builds(lambda seed, plies: random_walk(START_FEN, plies, random.Random(seed)),
                     st.integers(0, 2**32 - 1), st.integers(0, 60))


def mutate(text: str, alphabet: str, edits: list[tuple[int, int, int]]) -> str:
    """Apply (kind, position, character) edits: 0 replace, 1 insert, 2 delete."""
    chars = list(text)
    for kind, pos, ch in edits:
        i = pos % (len(chars) + 1)
        c = alphabet[ch % len(alphabet)]
        if kind == 0 and i < len(chars):
            chars[i] = c
        elif kind == 1:
            chars.insert(i, c)
        elif chars and i < len(chars):
            del chars[i]
    return "".join(chars)


EDITS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=6)


def check_fen(text: str) -> None:
    try:
        pos = parse_fen(text)
    except FenError as exc:
        assert str(exc)
        return
    again = parse_fen(format_fen(pos))          # what it accepted round-trips
    assert again.board == pos.board and again.side == pos.side and again.clock == pos.clock


@SETTINGS
@given(st.text(max_size=120))
def test_fen_any_text(text):
    check_fen(text)


@SETTINGS
@given(positions(), EDITS)
def test_fen_mutated(pos, edits):
    check_fen(mutate(format_fen(pos), FEN_ALPHABET, edits))


@SETTINGS
@given(positions(), st.one_of(st.text(max_size=12), st.text(MOVE_ALPHABET, max_size=8)))
def test_move_any_text(pos, text):
    try:
        move = parse_move(pos, text)
    except NotationError as exc:
        assert str(exc)
        return
    assert move in pos.legal_moves()


# ---------------------------------------------------------------- YAML
def yaml_plain(depth: int = 0) -> st.SearchStrategy:
    """Values safe_dump writes and a config file may hold (str keys, no None keys)."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**9, 10**9),
                        st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=10))
    if depth >= 3:
        return scalars
    inner = yaml_plain(depth + 1)
    return st.one_of(scalars, st.lists(inner, max_size=4),
                     st.dictionaries(st.text("abcdefgh_", min_size=1, max_size=6), inner, max_size=4))


def plain(node):
    """A Node tree back to plain Python values."""
    if isinstance(node.value, dict):
        return {k: plain(v) for k, v in node.value.items()}
    if isinstance(node.value, list):
        return [plain(v) for v in node.value]
    return node.value


def load_text(tmp_path: Path, text: str | bytes):
    p = tmp_path / "f.yaml"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    try:
        return load_yaml(p)
    except ConfigError as exc:
        assert str(exc).startswith(str(p))
        return None


@SETTINGS
@given(st.dictionaries(st.text("abcdefgh_", min_size=1, max_size=6), yaml_plain(), min_size=1, max_size=5))
def test_yaml_plain_values_read_back(tmp_path_factory, value):
    node = load_text(tmp_path_factory.mktemp("y"), yaml.safe_dump(value, allow_unicode=True))
    assert node is not None and plain(node) == value


@SETTINGS
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 st.text("[]{}:,-&*!|>'\"#? \n\tab1", max_size=200)))
def test_yaml_any_text(tmp_path_factory, text):
    load_text(tmp_path_factory.mktemp("y"), text)


@settings(max_examples=20, deadline=None)
@given(st.integers(MAX_DEPTH + 1, 5000))
def test_yaml_deep_nesting_refused(tmp_path_factory, depth):
    assert load_text(tmp_path_factory.mktemp("y"), "a: " + "[" * depth + "]" * depth) is None


# ---------------------------------------------------------------- the config files
CONFIG_TOKEN = re.compile(r"(?<=: )[^#\n]+|-?\d+")
REPLACEMENTS = ["", "0", "-1", "999999", "1.5", "true", "null", "[]", "{}", "[1, 2]", "x", "'a b'", "*a", "&a 1",
                "!!str 3", "~", "9" * 30, "Master", "basic", "full"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["eval.yaml", "difficulty.yaml", "search.yaml"]), picks=st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(REPLACEMENTS)), min_size=1, max_size=3))
def test_config_mutated(tmp_path_factory, name, picks):
    """A value of a shipped config file replaced by something else: the
    reference's loaders and the ROM build's checks (gen_tables.load) accept
    it or raise ConfigError naming the file and a line."""
    cfg = tmp_path_factory.mktemp("config")
    for other in ("eval.yaml", "difficulty.yaml", "search.yaml"):
        (cfg / other).write_text((CONFIG / other).read_text())
    text = (CONFIG / name).read_text()
    for where, new in picks:
        spans = [m.span() for m in CONFIG_TOKEN.finditer(text)]
        a, b = spans[where % len(spans)]
        text = text[:a] + new + text[b:]
    (cfg / name).write_text(text)
    for load in (lambda: load_search(cfg / "search.yaml"),
                 lambda: load_levels(cfg / "difficulty.yaml", load_eval(cfg / "eval.yaml")),
                 lambda: gen_tables.load(cfg)):
        try:
            load()
        except ConfigError as exc:
            assert re.match(rf"{re.escape(str(cfg))}/\w+\.yaml(:\d+)?: \S", str(exc)), str(exc)
