"""Shared fixtures for the full-ROM tests (cynes)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.rom import build as build_rom  # noqa: E402
from tools.rom.files import ROM, build_lock, is_stale  # noqa: E402


@pytest.fixture(scope="session")
def rom_path() -> Path:
    """rom/xiangqi.nes, (re)built first if missing or older than its sources:
    with our assembler, or with ca65/ld65 if ours fails.  Under build_lock(),
    so that of the test processes of `pytest -n` one builds and the others
    wait for its ROM."""
    if is_stale():
        with build_lock():
            if is_stale():
                try:
                    build_rom.build("ours", ROM)
                except build_rom.BuildError as ours_error:
                    try:
                        build_rom.build("ca65", ROM)
                    except build_rom.BuildError as ca65_error:
                        pytest.fail(f"cannot build the ROM:\nours: {ours_error}\nca65: {ca65_error}")
    return ROM
