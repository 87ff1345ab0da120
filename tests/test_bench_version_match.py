"""bench/version_match.py: the old engine is really loaded from git, beside today's.

Against itself (REV = HEAD, with reference_py/ and config/ unmodified) both
games of an opening pair are the same game with the colours swapped, so
today's engine must score exactly one half: a wrong colour assignment, a
broken extraction or a mixed-up package would show as another score or an
error.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench import version_match

ROOT = Path(__file__).resolve().parents[1]


def _clean_checkout() -> bool:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return False
    st = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "reference_py", "config"],
                        capture_output=True, text=True)
    return st.returncode == 0 and st.stdout.strip() == ""


@pytest.mark.skipif(not _clean_checkout(), reason="needs a git checkout with reference_py/ and config/ as committed")
def test_head_against_itself_scores_half(tmp_path: Path):
    version_match.extract("HEAD", tmp_path)
    assert (tmp_path / version_match.OLD / "search.py").exists()
    assert "reference_py." not in (tmp_path / version_match.OLD / "search.py").read_text()
    scores = [version_match.play_game((str(tmp_path), new_is_red, "Novice", 5, 7))
              for new_is_red in (True, False)]
    assert sum(scores) == 1.0


def test_bad_level_and_revision_exit_2(capsys):
    assert version_match.main(["HEAD", "Grandmaster", "--games", "2"]) == 2
    assert "unknown level 'Grandmaster'" in capsys.readouterr().err
    if shutil.which("git") and (ROOT / ".git").exists():
        assert version_match.main(["no-such-revision", "Novice", "--games", "2"]) == 2
        assert "git archive no-such-revision" in capsys.readouterr().err
