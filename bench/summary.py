"""bench/results/SUMMARY.md: every number that changes, in one generated file.

    python -m bench.summary            # (re)write bench/results/SUMMARY.md
    python -m bench.summary --check    # exit 1 if it differs from what would be written

Sizes, timings, cycles per node, node counts and strength scores change with
every build, benchmark run or tuning.  Copied by hand into README.md and
docs/, they drift apart; so the prose there explains what is measured and
how, and links here, and this module writes the numbers from their sources,
each with the command that produces it:

* the build: rom/xiangqi.map.json (PRG used and free per bank, RAM used and
  headroom per area, the file's size) and config/difficulty.yaml (the levels);
* bench/results/rom_search_bench.md: the ROM's search under py65 (NES
  seconds per move, cycles per node);
* bench/results/rom_opening_bench.md: the same search on the opening
  positions a level searches (out of its book);
* bench/results/cynes_think.md: the whole cartridge in cynes (real frames);
* bench/results/engine_bench.md: the reference's node counts per level and
  the history heuristic's effect;
* bench/results/ladder/ladder.json: the ladder (`make ladder`): each level's
  Elo against Fairy-Stockfish anchors on one scale, beside its NES think time,
  and its games against the adjacent levels.

The results files are markdown or JSON: the benchmarks write most of them
whole, and rom_search_bench.md is a curated record that quotes runs with
their context, the newest first.  A table is found by its column names (extra columns
and columns in another order are fine), the first such table in the file
being the current one; a missing table, column or number stops the run with
`file:line: what is wrong` and writes nothing.  No benchmark runs here:
`make bench` and `make rom-bench` run this at their end, and
tests/test_summary.py fails when SUMMARY.md is stale.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.atomic import write_atomic  # noqa: E402
from tools.nes.timing import NES_HZ, NTSC_FPS  # noqa: E402
from tools.rom import memory_map  # noqa: E402
from tools.rom.files import MAP, ROM, ensure_rom  # noqa: E402
from tools.tune.report import elo_cell, pct_cell  # noqa: E402

RESULTS = ROOT / "bench" / "results"
SUMMARY = RESULTS / "SUMMARY.md"
ROM_SEARCH = RESULTS / "rom_search_bench.md"
ROM_OPENING = RESULTS / "rom_opening_bench.md"
THIN_BOARD = RESULTS / "thin_board_bench.md"
CYNES = RESULTS / "cynes_think.md"
ENGINE = RESULTS / "engine_bench.md"
LADDER = RESULTS / "ladder" / "ladder.json"
BOOK = RESULTS / "book.md"
ENDGAMES = RESULTS / "endgames.json"
ENDGAMES_BEFORE = RESULTS / "endgames_before" / "endgames.json"
BOOK_STRENGTH = RESULTS / "book_strength.json"
FIRST_MISTAKE = RESULTS / "first_mistake.json"


class SummaryError(Exception):
    """A source that cannot be read as expected; the message names file and line."""


@dataclass
class Table:
    """A markdown table: its file, the line of its header row, the nearest
    heading above it, the column names and the rows (cells by column name,
    each with its line)."""
    path: Path
    line: int
    heading: str
    columns: list[str]
    rows: list[tuple[int, dict[str, str]]]

    def where(self, line: int | None = None) -> str:
        return f"{_rel(self.path)}:{self.line if line is None else line}"


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(path: Path) -> list[Table]:
    """Every table of a markdown file, in order."""
    if not path.exists():
        raise SummaryError(f"{_rel(path)}: missing (run the benchmark that writes it)")
    lines = path.read_text().splitlines()
    out: list[Table] = []
    heading = ""
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        if text.startswith("#"):
            heading = text.lstrip("#").strip()
        if (text.startswith("|") and i + 1 < len(lines)
                and re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", lines[i + 1].strip())):
            columns = _cells(text)
            table = Table(path, i + 1, heading, columns, [])
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = _cells(lines[i])
                if len(cells) != len(columns):
                    raise SummaryError(f"{_rel(path)}:{i + 1}: {len(cells)} cells in a row of a table "
                                       f"with {len(columns)} columns")
                table.rows.append((i + 1, dict(zip(columns, cells))))
                i += 1
            out.append(table)
            continue
        i += 1
    return out


def find_table(path: Path, columns: list[str], heading: str | None = None) -> Table:
    """The first table of path that has all these columns (and, if given,
    whose heading contains `heading`)."""
    for t in tables(path):
        if all(c in t.columns for c in columns) and (heading is None or heading in t.heading):
            if not t.rows:
                raise SummaryError(f"{t.where()}: the table has no rows")
            return t
    under = f" under a heading containing '{heading}'" if heading else ""
    raise SummaryError(f"{_rel(path)}: no table with the columns {', '.join(columns)}{under}")


def number(table: Table, line: int, text: str) -> float:
    """A cell's number ("3,559", "8.80", "93.8%", "**8.80**"), or an error naming the cell."""
    return _parse(table, line, text)[0]


def _parse(table: Table, line: int, text: str) -> tuple[float, int, str]:
    """(value, decimals, suffix) of a numeric cell."""
    m = re.fullmatch(r"[*_]*([−+-]?)([\d,]*)(?:\.(\d+))?\s*(%?)[*_]*", text.strip())
    if not m or not (m.group(2) or m.group(3)) or not re.fullmatch(r"\d{1,3}(,\d{3})*|\d*", m.group(2)):
        raise SummaryError(f"{table.where(line)}: '{text}' is not a number")
    sign = "-" if m.group(1) in "−-" and m.group(1) else ""
    value = float(f"{sign}{m.group(2).replace(',', '') or '0'}.{m.group(3) or '0'}")
    return value, len(m.group(3) or ""), m.group(4)


def column(table: Table, line: int, row: dict[str, str], name: str, signed: bool = False) -> str:
    """A numeric cell, checked and written the one way this file writes
    numbers: thousands separated by commas, the decimals the source gave."""
    value, decimals, suffix = _parse(table, line, row[name])
    return f"{value:{'+' if signed else ''},.{decimals}f}{suffix}"


def fraction(table: Table, line: int, row: dict[str, str], name: str) -> str:
    """A cell holding "a/b" (depth min/median, positions at the cap / all), each part checked."""
    parts = [p.strip() for p in row[name].split("/")]
    if len(parts) != 2:
        raise SummaryError(f"{table.where(line)}: '{row[name]}' is not 'a/b'")
    for p in parts:
        number(table, line, p)
    return " / ".join(parts)


# ---- the build

def build_section(map_path: Path = MAP) -> list[str]:
    """PRG per bank, RAM per area, the file's size: from the linker's map."""
    m = memory_map.load(map_path)
    out_areas = [a for a in m["memory"].values() if a["in_output"]]
    file_size = sum(a["size"] for a in out_areas)
    header = sum(a["size"] for a in out_areas if a["kind"] == "header")
    banks = memory_map.bank_rows(map_path)
    prg = sum(r["used"] + r["free"] for r in banks)
    chr_areas = [a for a in out_areas if a["kind"] == "chr"]
    chr_text = f"{sum(a['size'] for a in chr_areas):,} bytes of CHR ROM" if chr_areas else "no CHR ROM (CHR-RAM)"
    ram = memory_map.budget_rows(map_path)
    ram_used, ram_size = sum(r["used"] for r in ram), sum(r["size"] for r in ram)
    lines = [
        "## The cartridge (the build)",
        "",
        "Command: `make rom` (`python -m tools.build_rom`); source: `rom/xiangqi.map.json`, the",
        "linker's map.  docs/MEMORY.md has the same budget with every variable.",
        "",
        f"`rom/xiangqi.nes`: {file_size:,} bytes: a {header}-byte header, {prg // 1024} KiB of PRG ROM "
        f"in {len(banks)} banks, {chr_text}.",
        "",
        f"PRG ROM: {sum(r['used'] for r in banks):,} bytes used, {sum(r['free'] for r in banks):,} free.",
        "",
        "| bank | at | used | free |",
        "|---:|---|---:|---:|",
    ]
    for r in banks:
        name = r["role"].split(":")[0] if ":" in r["role"] else "free"
        lines.append(f"| {r['bank']} ({name}) | {r['range']} | {r['used']:,} | {r['free']:,} |")
    lines += [
        "",
        f"RAM: {ram_used:,} of {ram_size:,} bytes used, {ram_size - ram_used} free.",
        "",
        "| area | range | used | size | headroom |",
        "|---|---|---:|---:|---:|",
    ]
    for r in ram:
        lines.append(f"| {r['area']} (`{r['segment']}`) | {r['range']} | {r['used']:,} | {r['size']:,} "
                     f"| {r['headroom']} |")
    return lines


def levels_section() -> list[str]:
    """The levels as configured (config/difficulty.yaml, through the reference)."""
    from reference_py.search import levels
    lines = [
        "## The levels",
        "",
        "Source: `config/difficulty.yaml` (`python -m reference_py levels`); both engines read it.",
        "",
        "| level | depth | quiescence | eval | node cap | thinner board (`sparse`) | noise | check extension (reach) |",
        "|---|---:|---:|---|---:|---|---:|---:|",
    ]
    for lv in levels():
        noise = f"±{(lv.noise + 1) // 2}" if lv.noise else "0"
        ext = str(lv.check_ext) if lv.check_ext else "none"
        sparse = f"{lv.sparse.nodes:,} at ≤ {lv.sparse.pieces} pieces" if lv.sparse else "-"
        lines.append(f"| {lv.name} | {lv.depth} | {lv.qdepth} | {lv.eval} | {lv.nodes:,} | {sparse} | {noise} "
                     f"| {ext} |")
    return lines


# ---- the results files

# The project's targets for the NES's thinking time (seconds per move, NES
# time) and the search's cost, checked against the py65 measurements.
TARGET_STRONGEST_MEDIAN_S = 10.0
TARGET_STRONGEST_MAX_S = 30.0
TARGET_WEAKEST_MAX_S = 1.0
TARGET_CYCLES_PER_NODE = 2200


def _met(ok: bool) -> str:
    return "met" if ok else "not met"


def _search_table(t: Table, first: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """SUMMARY.md's table of a rom_search_bench-style results table: per
    level, NES seconds, cycles per node, nodes, depth (and mismatches if
    checked); `first`: (source column, heading) pairs shown after 'level'."""
    checked = "mismatches" in t.columns
    lines = ["| level |" + "".join(f" {head} |" for _, head in first)
             + " NES s median | NES s max | cycles per node | nodes median | nodes max | at cap "
             "| depth min / median |" + (" mismatches |" if checked else ""),
             "|---|" + "---:|" * len(first) + "---:|---:|---:|---:|---:|---:|---|" + ("---:|" if checked else "")]
    for line, r in t.rows:
        lines.append(f"| {r['level']} | " + "".join(f"{column(t, line, r, name)} | " for name, _ in first)
                     + f"{column(t, line, r, 's median')} | {column(t, line, r, 's max')} | "
                     f"{column(t, line, r, 'cycles/node')} | {column(t, line, r, 'nodes median')} | "
                     f"{column(t, line, r, 'nodes max')} | {fraction(t, line, r, 'at cap')} | "
                     f"{fraction(t, line, r, 'depth min/median')} |"
                     + (f" {column(t, line, r, 'mismatches')} |" if checked else ""))
    return lines


def rom_search_section(path: Path = ROM_SEARCH) -> list[str]:
    t = find_table(path, ["level", "nodes median", "nodes max", "at cap", "depth min/median",
                          "s median", "s max", "cycles/node"])
    lines = [
        "## The ROM's search under py65",
        "",
        "Command: `python -m bench.rom_search_bench --check` (`make rom-bench`): the ROM's",
        "search on the 40 positions of bench/middlegames.fen, seed 0; NES seconds = 6502 cycles",
        f"/ {NES_HZ:,} Hz; cycles per node = all cycles / all nodes; mismatches = positions",
        "where the ROM's move, score, nodes, depth or PV differ from the reference's.  Source:",
        f"the first table of `{_rel(path)}`, which quotes the run with its context.",
        "",
    ] + _search_table(t)
    (l0, weakest), (l1, strongest) = t.rows[0], t.rows[-1]
    per_node = [number(t, line, r["cycles/node"]) for line, r in t.rows]
    lines += [
        "",
        "Targets (set in `bench/summary.py`):",
        "",
        f"* {strongest['level']}'s median move at most {TARGET_STRONGEST_MEDIAN_S:g} s: "
        f"{_met(number(t, l1, strongest['s median']) <= TARGET_STRONGEST_MEDIAN_S)} "
        f"({column(t, l1, strongest, 's median')} s);",
        f"* {strongest['level']}'s longest move at most {TARGET_STRONGEST_MAX_S:g} s: "
        f"{_met(number(t, l1, strongest['s max']) <= TARGET_STRONGEST_MAX_S)} "
        f"({column(t, l1, strongest, 's max')} s);",
        f"* {weakest['level']}'s longest move under {TARGET_WEAKEST_MAX_S:g} s: "
        f"{_met(number(t, l0, weakest['s max']) < TARGET_WEAKEST_MAX_S)} ({column(t, l0, weakest, 's max')} s);",
        f"* at most {TARGET_CYCLES_PER_NODE:,} cycles per node at every level: "
        f"{_met(max(per_node) <= TARGET_CYCLES_PER_NODE)} ({min(per_node):,.0f}-{max(per_node):,.0f}, "
        f"{min(per_node) / TARGET_CYCLES_PER_NODE:.2f}-{max(per_node) / TARGET_CYCLES_PER_NODE:.2f} times the target).",
        "",
        "Where a node's cycles go, by role, and what more nodes in the same NES time would buy",
        "against Fairy-Stockfish: [speed_budget.md](speed_budget.md).",
    ]
    return lines


def _time_targets(t: Table, where: str) -> str:
    """The strongest level's (the table's last row) NES-time targets on `where`."""
    line, row = t.rows[-1]
    return (f"Targets on {where}: {row['level']}'s median move at most "
            f"{TARGET_STRONGEST_MEDIAN_S:g} s: {_met(number(t, line, row['s median']) <= TARGET_STRONGEST_MEDIAN_S)} "
            f"({column(t, line, row, 's median')} s); its longest at most {TARGET_STRONGEST_MAX_S:g} s: "
            f"{_met(number(t, line, row['s max']) <= TARGET_STRONGEST_MAX_S)} ({column(t, line, row, 's max')} s).")


def rom_opening_section(path: Path = ROM_OPENING) -> list[str]:
    t = find_table(path, ["level", "positions", "in book (dropped)", "nodes median", "nodes max", "at cap",
                          "depth min/median", "s median", "s max", "cycles/node"])
    lines = [
        "## The ROM's search on opening positions, under py65",
        "",
        "Command: `python -m bench.rom_opening_bench --check` (`make rom-bench`): the same search",
        "and measure as above on the ends of the lines of bench/openings.txt (the tuning matches'",
        "opening suite, with their game history), keeping those where the level's opening book has",
        f"no move; dropped = answered from the book.  Source: `{_rel(path)}`.",
        "",
    ] + _search_table(t, (("positions", "positions"), ("in book (dropped)", "dropped (in book)")))
    return lines + ["", _time_targets(t, "opening positions")]


def thin_board_section(path: Path = THIN_BOARD) -> list[str]:
    t = find_table(path, ["level", "nodes median", "nodes max", "at cap", "depth min/median",
                          "s median", "s max", "cycles/node"])
    lines = [
        "## The ROM's search where a thinner board raises the cap, under py65",
        "",
        "Command: `python -m bench.thin_board_bench --check` (`make rom-bench`): the same search",
        "and measure on early positions (the first 40 plies of the ladder's games, out of the book)",
        "with the level's `sparse` pieces on the board or one fewer, where its larger node cap",
        f"starts.  Source: `{_rel(path)}`.",
        "",
    ] + _search_table(t)
    return lines + ["", _time_targets(t, "these positions")]


def cynes_section(path: Path = CYNES) -> list[str]:
    t = find_table(path, ["level", "replies", "median s", "max s", "dropped frames"])
    lines = [
        "## The cartridge thinking, in cynes",
        "",
        "Command: `python -m bench.cynes_think_bench --out bench/results/cynes_think.md`",
        "(`make rom-bench`): the whole cartridge with its NMIs running, the computer's first",
        f"replies of a game from the opening, timed in real frames ({NTSC_FPS} a second); dropped",
        f"frames = frames in which `nmi_count` did not advance by one.  Source: `{_rel(path)}`.",
        "",
        "| level | replies | median s | max s | dropped frames |",
        "|---|---:|---:|---:|---:|",
    ]
    for line, r in t.rows:
        lines.append(f"| {r['level']} | {column(t, line, r, 'replies')} | {column(t, line, r, 'median s')} | "
                     f"{column(t, line, r, 'max s')} | {column(t, line, r, 'dropped frames')} |")
    return lines


def book_section(path: Path = BOOK) -> list[str]:
    t = find_table(path, ["positions", "cycles median", "cycles max", "NES s median", "NES s max"])
    line, r = t.rows[0]
    text = path.read_text(encoding="utf-8")
    size = next((ln for ln in text.splitlines() if ln.startswith("Book: ")), None)
    variety = next((ln for ln in text.splitlines() if "distinct 6-ply openings" in ln), None)
    if size is None or variety is None:
        raise SystemExit(f"error: {_rel(path)}: no 'Book:' line or no variety line")
    return [
        "## The opening book",
        "",
        "Command: `python -m bench.book_bench` (`make rom-bench`): the book's size, the NES time",
        "of a book answer at Master (eng_search under py65 in every book position within Master's",
        f"book plies) and the variety of Master's self-play openings.  Source: `{_rel(path)}`.",
        "",
        size,
        "",
        "| book positions timed | NES s median | NES s max |",
        "|---:|---:|---:|",
        f"| {column(t, line, r, 'positions')} | {column(t, line, r, 'NES s median')} | "
        f"{column(t, line, r, 'NES s max')} |",
        "",
        variety,
    ]


def _json(path: Path, keys: tuple[str, ...], remedy: str = "") -> dict:
    """A results JSON file with (at least) these top-level keys."""
    import json
    if not path.exists():
        raise SummaryError(f"{_rel(path)}: missing" + (f" ({remedy})" if remedy else ""))
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise SummaryError(f"{_rel(path)}:{exc.lineno}: not JSON: {exc.msg}") from None
    missing = [k for k in keys if k not in data]
    if missing:
        raise SummaryError(f"{_rel(path)}: no {', '.join(repr(k) for k in missing)}")
    return data


def first_mistake_section(path: Path = FIRST_MISTAKE) -> list[str]:
    """Master's first decisive mistake with and without the book (bench/first_mistake.py)."""
    d = _json(path, ("command", "opponent", "depth", "threshold", "pairs", "configs"))
    lines = [
        "## Master's first decisive mistake",
        "",
        f"Command: `{d['command']}`: Master against `{d['opponent']}`, {d['pairs']} game pairs per",
        "configuration from the start position; a mistake is Master's first move after which",
        f"Fairy-Stockfish's depth-{d['depth']} score, from Master's side, drops by {d['threshold']} centipawns",
        f"or more.  Source: `{_rel(path)}`.",
        "",
        "| configuration | games (distinct) | W-D-L | mistake ply Q1 / median / Q3 | pieces then (median) |",
        "|---|---:|---|---|---:|",
    ]
    for c in d["configs"]:
        ply = c["ply"]
        lines.append(f"| {c['name']} | {c['games']} ({c['distinct_games']}) | {c['wins']}-{c['draws']}-{c['losses']} | "
                     f"{ply['q1']:g} / {ply['median']:g} / {ply['q3']:g} | {c['pieces']['median']:g} |")
    return lines


def endgame_section(path: Path = ENDGAMES, before: Path = ENDGAMES_BEFORE) -> list[str]:
    """Endgame conversion now and before the endgame terms (bench/endgame_bench.py)."""
    rows = []
    for label, p in (("now", path), ("before the endgame terms", before)):
        d = _json(p, ("command", "player", "defender", "totals"))
        t = d["totals"]
        rows.append(f"| {label} | `{d['player']}` | {t['converted']}/{t['won_positions']} "
                    f"({t['converted_pct']:.0f}%) | {t['median_mate_plies']} | {t['hold_not_lost']}/{t['hold_games']} | "
                    f"{t['push_not_lost']}/{t['push_games']} |")
    d = _json(path, ("command", "defender"))
    return [
        "## Endgame conversion",
        "",
        f"Command: `{d['command']}`: Master plays the basic endings of bench/endgames.yaml",
        f"against `{d['defender']}`; a won ending must be won within the 60-move rule, a drawn one",
        f"not lost, holding or pressing.  Sources: `{_rel(path)}`, `{_rel(before)}`.",
        "",
        "| engine | player | won endings converted | median plies to mate | drawn held | drawn pressed |",
        "|---|---|---:|---:|---:|---:|",
        *rows,
    ]


def book_strength_section(path: Path = BOOK_STRENGTH) -> list[str]:
    """Master with and without the opening book (bench/book_strength.py)."""
    d = _json(path, ("command", "matches", "pairs"))
    lines = [
        "## What the opening book is worth",
        "",
        f"Command: `{d['command']}`: {d['pairs']} game pairs per match from the start position,",
        "colours swapped; Elo of the first player ± the 95% interval (pentanomial).  Games against",
        "a fixed-depth engine differ only by the book's seeded choices: the distinct games are",
        f"counted.  Source: `{_rel(path)}`.",
        "",
        "| match | games (distinct) | W-D-L | score | Elo |",
        "|---|---:|---|---:|---:|",
    ]
    for m in d["matches"]:
        e = m["elo"]
        elo = "n/a" if e is None or e.get("elo") is None or e.get("elo_ci95") is None \
            else f"{e['elo']:+.0f} ± {e['elo_ci95']:.0f}"
        lines.append(f"| {m['a']} vs {m['b']} | {m['games']} ({m['distinct_games']}) | "
                     f"{m['wins']}-{m['draws']}-{m['losses']} | {100 * m['score']:.1f}% | {elo} |")
    return lines


def engine_section(path: Path = ENGINE) -> list[str]:
    t = find_table(path, ["level", "median nodes", "mean", "max", "depth reached (min/median)", "capped"])
    lines = [
        "## The reference's nodes per move",
        "",
        "Command: `python -m bench.engine_bench` (`make bench`): the reference engine on the 40",
        "positions of bench/middlegames.fen; node counts are exact, and the ROM's equal them.",
        f"Source: `{_rel(path)}`.",
        "",
        "| level | median | mean | max | at cap | depth min / median |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for line, r in t.rows:
        lines.append(f"| {r['level']} | {column(t, line, r, 'median nodes')} | {column(t, line, r, 'mean')} | "
                     f"{column(t, line, r, 'max')} | {fraction(t, line, r, 'capped')} | "
                     f"{fraction(t, line, r, 'depth reached (min/median)')} |")
    h = find_table(path, ["median nodes", "mean nodes", "max", "vs. neither"])
    lines += [
        "",
        "Move ordering (same source): the strongest level without its node cap, with the",
        "history heuristic and the killers switched on and off; the last column compares the",
        "mean nodes with neither.",
        "",
        "| configuration | median | mean | max | vs. neither |",
        "|---|---:|---:|---:|---:|",
    ]
    for line, r in h.rows:
        lines.append(f"| {r[h.columns[0]]} | {column(h, line, r, 'median nodes')} | "
                     f"{column(h, line, r, 'mean nodes')} | {column(h, line, r, 'max')} | "
                     f"{column(h, line, r, 'vs. neither', signed=True)} |")
    return lines


PAIR_KEYS = ("a", "b", "games", "wins", "draws", "losses", "score", "elo", "elo_ci95", "los")


def adjacent_section(path: Path = LADDER) -> list[str]:
    """Adjacent levels against each other: the ladder's games between
    neighbours (ladder.json), each pair from the stronger level's side."""
    data = _json(path, ("levels", "command"), "run make ladder")
    names = [lv.get("level") for lv in data["levels"]]
    lines = [
        "## Strength: adjacent levels against each other",
        "",
        f"Command: `{data['command']}` (`make ladder`, as below): each level against the next",
        "weaker one, game pairs on bench/openings.txt with the colours swapped; the reference",
        "engine, which plays as the ROM does.  Elo difference for the stronger level with its",
        "95% interval (normal, from the variance of the game pairs' scores: tools/tune/stats.py;",
        "unbounded near a clean sweep) and the likelihood of superiority.  Source:",
        f"`{_rel(path)}`.",
        "",
        "| stronger vs weaker | games | wins | draws | losses | score | Elo diff | LOS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for weaker, level in zip(names, data["levels"][1:]):
        stronger = level.get("level")
        pair = next((o for o in level.get("opponents", []) if o.get("b") == weaker), None)
        if pair is None:
            raise SummaryError(f"{_rel(path)}: no games of {stronger} against {weaker}")
        missing = [k for k in PAIR_KEYS if k not in pair]
        if missing:
            raise SummaryError(f"{_rel(path)}: {stronger} against {weaker} has no {', '.join(missing)}")
        if pair["wins"] + pair["draws"] + pair["losses"] != pair["games"]:
            raise SummaryError(f"{_rel(path)}: {stronger} against {weaker}: wins, draws and losses "
                               "do not add up to the games")
        lines.append(f"| {stronger} vs {weaker} | {pair['games']:,} | {pair['wins']} | {pair['draws']} | "
                     f"{pair['losses']} | {pct_cell(pair['score'])} | {elo_cell(pair)} | {pct_cell(pair['los'])} |")
    return lines


LADDER_LEVEL_KEYS = ("level", "games", "score", "elo", "elo_ci95", "los", "think_median_s", "think_max_s")


def ladder_section(path: Path = LADDER) -> list[str]:
    """The ladder's table, from its ladder.json (tools/tune/report.py writes it)."""
    data = _json(path, ("anchors", "levels", "games", "config_sha256", "command"), "run make ladder")

    def fmt(v, spec: str) -> str:
        return "n/a" if v is None else format(v, spec)

    report = path.with_name("report.md").relative_to(RESULTS)
    lines = [
        "## Strength: the ladder against Fairy-Stockfish",
        "",
        f"Command: `{data['command']}` (`make ladder`): every level against the anchors",
        f"{', '.join(f'`{a}`' for a in data['anchors'])} and its neighbours, game pairs on bench/openings.txt;",
        f"Elo on one scale with `{data['anchors'][0]}` = 0, ± the 95% interval; LOS against the next",
        "weaker level; NES think time from the ROM's cycles on a sample of the level's moves in",
        f"these games.  {data['games']:,} games, config SHA-256 `{data['config_sha256'][:16]}`.  Source:",
        f"`{_rel(path)}`; the report with its plots: [{report}]({report}).",
        "",
    ]
    if data.get("partial"):
        lines += [f"Partial: {data['partial']}.", ""]
    lines += ["| level | Elo | games | score | LOS vs weaker | NES s median | NES s max |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for i, lv in enumerate(data["levels"]):
        missing = [k for k in LADDER_LEVEL_KEYS if k not in lv]
        if missing:
            raise SummaryError(f"{_rel(path)}: level {i + 1} has no {', '.join(missing)}")
        lines.append(f"| {lv['level']} | {elo_cell(lv)} | {lv['games']:,} | {pct_cell(lv['score'])} | "
                     f"{pct_cell(lv['los'])} | "
                     f"{fmt(lv['think_median_s'], '.2f')} | {fmt(lv['think_max_s'], '.2f')} |")
    return lines


def render(map_path: Path = MAP) -> str:
    """The whole of SUMMARY.md."""
    parts = [
        ["# Sizes and measurements",
         "",
         "Generated by `python -m bench.summary` from the build and the results files named in",
         "each section; do not edit it by hand.  `make bench` and `make rom-bench` rewrite it",
         "at their end, and `tests/test_summary.py` fails when it is stale.  What each number",
         "measures and how is explained where it is used: README.md, docs/ROM_ENGINE.md,",
         "docs/ENGINE.md."],
        build_section(map_path),
        levels_section(),
        rom_search_section(ROM_SEARCH),
        rom_opening_section(ROM_OPENING),
        thin_board_section(THIN_BOARD),
        cynes_section(CYNES),
        book_section(BOOK),
        book_strength_section(BOOK_STRENGTH),
        first_mistake_section(FIRST_MISTAKE),
        endgame_section(ENDGAMES, ENDGAMES_BEFORE),
        engine_section(ENGINE),
        adjacent_section(LADDER),
        ladder_section(LADDER),
    ]
    return "\n\n".join("\n".join(p) for p in parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        ensure_rom()
        if not ROM.exists():
            raise SummaryError(f"{_rel(ROM)}: missing after the build")
        text = render()
    except SummaryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if "--check" in argv:
        if SUMMARY.exists() and SUMMARY.read_text() == text:
            return 0
        print(f"{_rel(SUMMARY)} is stale: run python -m bench.summary", file=sys.stderr)
        return 1
    write_atomic(SUMMARY, text.encode())
    print(f"wrote {_rel(SUMMARY)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
