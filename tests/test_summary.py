"""bench/results/SUMMARY.md is what bench/summary.py makes of the current
build and results files, and a results file it cannot read stops it with
the file and line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import summary
from bench.summary import SummaryError, find_table
from tools.rom import memory_map
from tools.rom.files import MAP, ROM, ensure_rom


def _sections(text: str) -> dict[str, str]:
    out, name = {}, "(title)"
    for line in text.splitlines():
        if line.startswith("## "):
            name = line[3:]
        out[name] = out.get(name, "") + line + "\n"
    return out


def test_summary_matches_the_build_and_the_results():
    ensure_rom()
    want = summary.render()
    have = summary.SUMMARY.read_text()
    stale = [name for name, text in _sections(want).items() if _sections(have).get(name) != text]
    assert not stale, (f"bench/results/SUMMARY.md is stale in: {', '.join(stale)}; "
                       "run python -m bench.summary")


def test_build_section_states_the_rom_and_the_map():
    """The sizes it states are the file's and the linker's, not copies."""
    ensure_rom()
    text = "\n".join(summary.build_section())
    assert f"`rom/xiangqi.nes`: {ROM.stat().st_size:,} bytes" in text
    banks = memory_map.bank_rows(MAP)
    assert f"PRG ROM: {sum(r['used'] for r in banks):,} bytes used" in text
    for r in banks:
        assert f"| {r['range']} | {r['used']:,} | {r['free']:,} |" in text
    ram = memory_map.budget_rows(MAP)
    assert f"RAM: {sum(r['used'] for r in ram):,} of 2,048 bytes used" in text


def _write(tmp_path: Path, text: str, name: str = "x.md") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_a_table_is_found_by_its_columns_in_any_order(tmp_path):
    p = _write(tmp_path, "# t\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## current config\n\n"
                         "| extra | level | s max | s median |\n|---|---|---:|---:|\n| x | Novice | 0.30 | 1,000.5 |\n")
    t = find_table(p, ["level", "s median", "s max"])
    assert t.heading == "current config" and t.line == 9
    (line, row), = t.rows
    assert line == 11 and summary.column(t, line, row, "s median") == "1,000.5"
    assert find_table(p, ["a"], heading="t").rows[0][1]["b"] == "2"


@pytest.mark.parametrize("text, where, what", [
    ("| level | s |\n|---|---|\n| Novice | 1 |\n", "x.md", "no table with the columns level, s median"),
    ("| level | s median |\n|---|---|\n| Novice |\n", "x.md:3", "1 cells in a row of a table with 2 columns"),
    ("| level | s median |\n|---|---|\n", "x.md:1", "no rows"),
])
def test_an_unreadable_table_names_file_and_line(tmp_path, text, where, what):
    p = _write(tmp_path, text)
    with pytest.raises(SummaryError) as e:
        find_table(p, ["level", "s median"])
    assert where in str(e.value) and what in str(e.value)


def test_a_cell_that_is_not_a_number_names_its_line(tmp_path):
    p = _write(tmp_path, "| level | replies | median s | max s | dropped frames |\n|---|---|---|---|---|\n"
                         "| Novice | 6 | 0.10 | 0.28 | 0 |\n| Easy | 6 | fast | 1.13 | 0 |\n")
    with pytest.raises(SummaryError, match=r"x\.md:4: 'fast' is not a number"):
        summary.cynes_section(p)


def _ladder(tmp_path, pair: dict) -> Path:
    """A ladder.json with two levels, Hard's games against Medium being `pair`."""
    p = tmp_path / "ladder.json"
    p.write_text(json.dumps({"command": "ladder", "levels": [
        {"level": "Medium", "opponents": []},
        {"level": "Hard", "opponents": [{"a": "Hard", "b": "Medium", **pair}]}]}))
    return p


PAIR = {"games": 100, "wins": 40, "draws": 20, "losses": 40, "score": 0.5, "elo": 0.0, "elo_ci95": 60.0, "los": 0.5}


def test_adjacent_levels_come_from_the_ladder(tmp_path):
    lines = summary.adjacent_section(_ladder(tmp_path, PAIR))
    assert "| Hard vs Medium | 100 | 40 | 20 | 40 | 50.0% | +0 ± 60 | 50.0% |" in lines
    unbounded = summary.adjacent_section(_ladder(tmp_path, {**PAIR, "elo": 800.0, "elo_ci95": None}))
    assert any("+800 (interval unbounded)" in line for line in unbounded)


@pytest.mark.parametrize("pair, what", [
    ({**PAIR, "wins": 41}, "do not add up to the games"),
    ({k: v for k, v in PAIR.items() if k != "los"}, "has no los"),
])
def test_a_ladder_pair_that_does_not_add_up_is_refused(tmp_path, pair, what):
    with pytest.raises(SummaryError, match=what):
        summary.adjacent_section(_ladder(tmp_path, pair))


def test_a_ladder_without_the_pair_is_refused(tmp_path):
    p = _ladder(tmp_path, PAIR)
    p.write_text(p.read_text().replace('"b": "Medium"', '"b": "Easy"'))
    with pytest.raises(SummaryError, match="no games of Hard against Medium"):
        summary.adjacent_section(p)


def test_a_bad_source_writes_nothing(tmp_path, monkeypatch, capsys):
    ensure_rom()
    out = tmp_path / "SUMMARY.md"
    out.write_text("before\n")
    monkeypatch.setattr(summary, "SUMMARY", out)
    monkeypatch.setattr(summary, "CYNES", tmp_path / "missing.md")
    assert summary.main([]) == 2
    assert out.read_text() == "before\n"
    assert "missing.md: missing" in capsys.readouterr().err
