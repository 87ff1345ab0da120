"""What the book benchmarks share: the engine configurations they compare,
where their games start, how a match's Elo is shown, and the command line
around them (the run options, the report files, the error policy).

A configuration is `NAME=SPEC`: NAME (letters, digits, `_`, `-`) labels its
rows and is the tree's name in game tasks (`NAME:Master`); SPEC is a
tools/tune tree (a folder of YAML files, a checkout holding config/, or a
git revision: tools/tune/trees.py), optionally prefixed `nobook:`, which
takes that tree and sets the played level's `book` to 0 in its
difficulty.yaml.  So "Master without the book" needs no folder of its own:
`without=nobook:config`.

Openings: `start` plays every game from the start position, where the book
matters most, or a suite file (tools/tune/openings.py) plays pair k from
line k, as the ladder does.  From the start position a game of Master
against a fixed-depth Fairy-Stockfish is decided by the book's seeded
choices alone (after the book, both sides are deterministic), so its games
repeat: the pairs are still independent draws of those choices, and an
interval over them is one over the book's randomness, but few distinct
games describe those games rather than play in general; Master without the
book plays one game per colour.  The reports count the distinct games.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from tools.atomic import check_target, write_atomic
from tools.tune.games import MAX_PLIES
from tools.tune.openings import Opening, Suite, SuiteError, load_suite
from tools.tune.players import PlayerError
from tools.tune.trees import BOOK_FILE, TreeError, collect, load, prepare_files

ROOT = Path(__file__).resolve().parents[1]
NO_BOOK = "nobook:"
START = "start"
START_SUITE = Suite(Path(START), "", (Opening(0, 0, (), "the start position"),))
NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")


class ConfigError(ValueError):
    """A configuration argument that cannot be used (says which and why)."""


@dataclass(frozen=True)
class Config:
    name: str
    spec: str          # as given (for reports)
    ref: dict          # the tree reference game tasks carry

    def player(self, level: str) -> str:
        return f"{self.name}:{level}"


def parse(text: str) -> tuple[str, str]:
    """`NAME=SPEC` -> (NAME, SPEC)."""
    name, sep, spec = text.partition("=")
    if not sep or not spec:
        raise ConfigError(f"configuration '{text}': expected NAME=SPEC (e.g. without=nobook:config)")
    if not NAME_RE.fullmatch(name):
        raise ConfigError(f"configuration '{text}': the name '{name}' must be 1-32 letters, digits, '_' or '-'")
    return name, spec


def _document(difficulty: bytes, where: str) -> dict:
    """difficulty.yaml's document, checked to hold a list of levels."""
    try:
        doc = yaml.safe_load(difficulty)
        if not all(isinstance(lv, dict) for lv in doc["levels"]):
            raise TypeError("a level that is not a mapping")
        return doc
    except (yaml.YAMLError, KeyError, TypeError) as exc:
        raise ConfigError(f"{where}: difficulty.yaml is not a list of levels ({exc})") from None


def _level(doc: dict, level: str, where: str) -> dict:
    entry = next((lv for lv in doc["levels"] if str(lv.get("name", "")).lower() == level.lower()), None)
    if entry is None:
        names = ", ".join(str(lv.get("name")) for lv in doc["levels"])
        raise ConfigError(f"{where}: no level '{level}' in difficulty.yaml (known: {names})")
    return entry


def without_book(difficulty: bytes, level: str, where: str) -> bytes:
    """difficulty.yaml's text with `level`'s book set to 0."""
    doc = _document(difficulty, where)
    _level(doc, level, where)["book"] = 0
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True).encode()


def build(text: str, level: str, ship: bool = False) -> Config:
    """The configuration `NAME=SPEC` names, its tree built and checked to have `level`."""
    name, spec = parse(text)
    nobook = spec.startswith(NO_BOOK)
    base = spec[len(NO_BOOK):] if nobook else spec
    if not base:
        raise ConfigError(f"configuration '{text}': '{NO_BOOK}' needs a tree after it (e.g. {NO_BOOK}config)")
    if not Path(base).exists() and (ROOT / base).is_dir():
        base = str(ROOT / base)               # `config` from any working directory
    files = collect(base)
    _level(_document(files["config/difficulty.yaml"], text), level, text)     # before anything is written
    if nobook:
        files["config/difficulty.yaml"] = without_book(files["config/difficulty.yaml"], level, text)
    ref = prepare_files(files, spec, ship)
    pkg = load(ref)
    try:
        lv = pkg.search.level_by_name(level)
    except KeyError:
        names = ", ".join(x.name for x in pkg.search.levels())
        raise ConfigError(f"configuration '{text}': no level '{level}' (known: {names})") from None
    if nobook and lv.book:
        raise ConfigError(f"configuration '{text}': {level}'s book is still {lv.book} after setting it to 0")
    return Config(name, spec, ref)


def build_all(texts: list[str], level: str, ship: bool = False) -> list[Config]:
    """Every configuration, names unique (checked before any tree is written)."""
    seen: set[str] = set()
    for text in texts:
        name, _ = parse(text)
        if name in seen:
            raise ConfigError(f"configuration '{text}': the name '{name}' is given twice")
        seen.add(name)
    return [build(text, level, ship) for text in texts]


def openings(text: str) -> Suite:
    """`start` (every game from the start position) or a suite file."""
    return START_SUITE if text == START else load_suite(text)


def check_outputs(*paths: Path) -> None:
    """Refuse, before any game, outputs that could not be written."""
    for p in paths:
        try:
            check_target(p)
        except OSError as exc:
            raise ConfigError(f"cannot write {p}: {exc.strerror}") from None


def book_plies(config: Config, level: str) -> int:
    """How many plies of book the configuration's level plays (0: none)."""
    return load(config.ref).search.level_by_name(level).book


def book_sha256(config: Config) -> str | None:
    """The SHA-256 of the book data the configuration's tree carries (None: no book data)."""
    path = Path(config.ref["dir"]) / "config" / BOOK_FILE
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def elo_text(elo: dict | None, score: float) -> tuple[str, str]:
    """(Elo ± half-interval, [low, high]) for a report."""
    if elo is None:
        return "n/a", "-"
    if elo.get("elo") is None:
        return ("+inf" if score >= 1 else "-inf" if score <= 0 else "n/a"), "-"
    value = round(elo["elo"])              # an int: -0.4 shows as +0
    half = f" ± {elo['elo_ci95']:.0f}" if elo.get("elo_ci95") is not None else ""
    ival = (f"[{round(elo['elo_lo']):+d}, {round(elo['elo_hi']):+d}]" if elo.get("elo_lo") is not None
            and elo.get("elo_hi") is not None else "-")
    return f"{value:+d}{half}", ival


def add_run_args(ap: argparse.ArgumentParser, cache: Path, out: Path, openings_help: str = "") -> None:
    """The options every book benchmark has: where games start, how they are
    run and cached, and where the report goes."""
    ap.add_argument("--openings", default=START, help="'start' (default) or a suite file" + openings_help)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=MAX_PLIES)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--cluster", default=None, help="run on a Ray cluster at this address")
    ap.add_argument("--cache", type=Path, default=cache)
    ap.add_argument("--out", type=Path, default=out, help="writes OUT.md and OUT.json")
    ap.add_argument("--quiet", action="store_true")


def check_run_args(a: argparse.Namespace) -> None:
    """Refuse game pairs, workers or game lengths that make no run."""
    if a.pairs < 1:
        raise ValueError(f"--pairs {a.pairs}: at least 1")
    if a.jobs < 0:
        raise ValueError(f"--jobs {a.jobs}: not negative")
    if a.max_plies < 2:
        raise ValueError(f"--max-plies {a.max_plies}: at least 2")


def command_text(module: str, argv: list[str] | None) -> str:
    """The command line that produced a report, as a reader can run it again."""
    shown = sys.argv[1:] if argv is None else argv
    return f"python -m {module} " + " ".join(shlex.quote(x) for x in shown)


def write_report(md: Path, js: Path, data: dict, render: Callable[[dict], str]) -> None:
    """The report's JSON and Markdown (each written whole or not at all); its
    table is printed."""
    write_atomic(js, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
    text = render(data)
    write_atomic(md, text.encode())
    print(text.split("\n\n")[2])
    print(f"wrote {md}, {js}")


def run_cli(main: Callable[[list[str] | None], int], argv: list[str] | None) -> int:
    """main(argv), with bad input as one `error:` line and exit status 2."""
    try:
        return main(argv)
    except (ConfigError, TreeError, PlayerError, SuiteError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc.filename}: {exc.strerror}" if exc.filename else f"error: {exc}", file=sys.stderr)
        return 2
