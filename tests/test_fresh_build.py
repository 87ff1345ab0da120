"""A fresh clone builds: the repository's tracked files alone (no build/,
no rom/) make the same ROM as this tree, with `python -m tools.build_rom`,
the command `make rom` runs.  (The build makes the tiles, the tables and the
book data itself, in the order its checks need them.)"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tools.rom.files import ROM, ensure_rom

ROOT = Path(__file__).resolve().parents[1]


def test_a_fresh_clone_builds_the_same_rom(tmp_path):
    ensure_rom()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, tmp_path / name)
    assert not (tmp_path / "build").exists() and not (tmp_path / "rom" / "xiangqi.nes").exists()
    r = subprocess.run([sys.executable, "-m", "tools.build_rom"], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=600)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "rom" / "xiangqi.nes").read_bytes() == ROM.read_bytes()
