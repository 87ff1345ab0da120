"""bench/version_match.py: the old engine is really loaded from git, beside today's.

Against itself (a copy of today's reference_py/ and config/, renamed as
version_match renames an old revision) both games of an opening pair are
the same game with the colours swapped, so today's engine must score
exactly one half: a wrong colour assignment or a mixed-up package would
show as another score or an error.  The extraction from git is checked on
its own: HEAD's files come out renamed and otherwise byte for byte as git
holds them.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench import version_match

ROOT = Path(__file__).resolve().parents[1]


def test_against_itself_scores_half(tmp_path: Path):
    shutil.copytree(ROOT / "reference_py", tmp_path / "reference_py",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "config", tmp_path / "config")
    version_match.rename_package(tmp_path)
    search_py = (tmp_path / version_match.OLD / "search.py").read_text()
    assert "reference_py." not in search_py and f"from .rules import" in search_py
    scores = [version_match.play_game((str(tmp_path), new_is_red, "Novice", 5, 7))
              for new_is_red in (True, False)]
    assert sum(scores) == 1.0


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a checkout")
def test_extract_gives_the_revisions_files_renamed(tmp_path: Path):
    version_match.extract("HEAD", tmp_path)
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", "HEAD", "reference_py"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert names
    for name in names:
        held = subprocess.run(["git", "-C", str(ROOT), "show", f"HEAD:{name}"], capture_output=True,
                              check=True).stdout.decode()
        got = (tmp_path / version_match.OLD / Path(name).relative_to("reference_py")).read_text()
        want = re.sub(r"\breference_py\b", version_match.OLD, held) if name.endswith(".py") else held
        assert got == want, name
    assert (tmp_path / "config" / "eval.yaml").exists()


def test_bad_level_and_revision_exit_2(capsys):
    assert version_match.main(["HEAD", "Grandmaster", "--games", "2"]) == 2
    assert "unknown level 'Grandmaster'" in capsys.readouterr().err
    if shutil.which("git") and (ROOT / ".git").exists():
        assert version_match.main(["no-such-revision", "Novice", "--games", "2"]) == 2
        assert "git archive no-such-revision" in capsys.readouterr().err
