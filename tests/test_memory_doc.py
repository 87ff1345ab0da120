"""docs/MEMORY.md is the RAM map of the current build (tools/rom/memory_map.py),
and the budget fits the NES's 2,048 bytes."""
from __future__ import annotations

from pathlib import Path

from tools.rom import memory_map
from tools.rom.files import ensure_rom

ROOT = Path(__file__).resolve().parents[1]


def test_memory_doc_matches_the_build():
    ensure_rom()
    assert (ROOT / "docs" / "MEMORY.md").read_text() == memory_map.render(), \
        "docs/MEMORY.md is stale: run python -m tools.rom.memory_map --write"


def test_budget_fits_and_stack_is_64_bytes():
    ensure_rom()
    rows = {r["segment"]: r for r in memory_map.budget_rows()}
    assert sum(r["size"] for r in rows.values()) == 2048
    assert all(r["headroom"] >= 0 for r in rows.values())
    assert rows["STACK"]["range"] == "$01C0-$01FF" and rows["STACK"]["used"] == 64
    assert rows["ENGINE_BSS"]["range"].startswith("$0400")


def test_ram_aliases_name_their_variables_bytes():
    """A second name declared in ram.s (`alias = variable ; purpose`, or
    `alias = variable + offset ; purpose`) is exported at its variable's
    address (plus the offset) and says what it holds."""
    ensure_rom()
    m = memory_map.load()
    aliases = memory_map.ram_aliases()
    assert aliases
    for variable, names in aliases.items():
        for name, offset, purpose in names:
            assert m["exports"][name] == m["labels"][variable] + offset, (name, variable)
            assert purpose, name
