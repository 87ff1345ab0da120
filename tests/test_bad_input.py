"""Every entry point against the corpus of malformed inputs (tests/bad_input/corpus.py).

Each case runs `python -m ...` in its own copy of the repository (the
sources, config/, assets/, the built rom/ and build/), after the case's
edits to that copy, and must:
  * exit with the case's status, its message on standard error holding the
    case's words (file:line where there is one), on one line unless it is
    argparse's usage error;
  * print no traceback, on either stream;
  * end within TIMEOUT seconds of wall time and within the case's CPU limit
    (children included: a hang or a runaway expansion fails here);
  * leave every file of the copy as it was: none changed, added or removed
    (no partial output, no temporary file).

The cases run two at a time in a session fixture (subprocesses, so the
threads only wait); each case is then one test, reported by its name.
Under `pytest -n` each case runs when its test asks for it, in the test
process the test was sent to (the processes run side by side).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from bad_input.corpus import CASES, ROOT, Case
from tools.rom.files import ensure_rom

TIMEOUT = 90.0            # wall seconds: far above any case, even on a loaded machine
WORKERS = 2
COPIED = ("asm", "assets", "bench", "config", "reference_py", "tools", "web", "rom", "build", "Makefile")
SKIPPED = {"results", "node_modules", "screenshots", "xiangqi.lst", "demo.gif", "__pycache__"}
# Files and folders that exist only while another process (a ROM build, a
# test beside this one) writes: tools/rom/build.py's staging folders,
# tools/atomic.py's and tools/asm's temporary files, tools/tune/trees.py's
# half-written trees.  They are not part of the tree and vanish mid-copy.
IN_PROGRESS = (".build-*", ".*.tmp", ".tmp-*", ".????????????????.*")


@dataclass
class Run:
    rc: int | None
    stdout: str
    stderr: str
    wall: float
    cpu: float
    changed: list[str]


def snapshot(root: Path) -> dict[str, str]:
    """relative path -> SHA-256 of every file (and '<dir>' for every folder), __pycache__ aside."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for d in dirnames:
            out[os.path.relpath(os.path.join(dirpath, d), root)] = "<dir>"
        for f in filenames:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def make_copy(dst: Path) -> None:
    """The repository as the entry points need it, modification times kept
    (so the copied ROM is as fresh as the original)."""
    ignore = shutil.ignore_patterns(*SKIPPED, *IN_PROGRESS)
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=ignore, copy_function=shutil.copy2)
        elif src.exists():
            shutil.copy2(src, dst / name)


def run_case(case: Case) -> Run:
    with tempfile.TemporaryDirectory(prefix="bad-input-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        make_copy(root)
        for edit in case.edits:
            edit.apply(root)
        before = snapshot(root)
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.monotonic()
            p = subprocess.Popen([sys.executable, "-m", *case.argv], cwd=root, stdin=subprocess.DEVNULL,
                                 stdout=out, stderr=err, env=env, start_new_session=True)
            rc = None
            while True:
                pid, status, usage = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    rc = os.waitstatus_to_exitcode(status)
                    break
                if time.monotonic() - start > TIMEOUT:
                    os.killpg(p.pid, signal.SIGKILL)
                    _, _, usage = os.wait4(p.pid, 0)
                    break
                time.sleep(0.02)
            p.returncode = rc if rc is not None else -9  # (reaped here, not by Popen)
            wall = time.monotonic() - start
            out.seek(0)
            err.seek(0)
            stdout = out.read().decode("utf-8", "replace")
            stderr = err.read().decode("utf-8", "replace")
        after = snapshot(root)
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        return Run(rc, stdout, stderr, wall, usage.ru_utime + usage.ru_stime, changed)


def available(case: Case) -> bool:
    if case.needs.startswith("/"):
        return Path(case.needs).is_dir()
    return not case.needs or shutil.which(case.needs) is not None


class RunOnFirstUse(dict):
    """Case id -> Run, each case run when first asked for."""

    def __missing__(self, case_id: str) -> Run:
        run = self[case_id] = run_case(next(c for c in CASES if c.id == case_id))
        return run


@pytest.fixture(scope="session")
def runs(request: pytest.FixtureRequest) -> dict[str, Run]:
    """Every selected case, run two at a time.  In a test process of
    `pytest -n` (PYTEST_XDIST_WORKER set), which runs only the tests sent
    to it, unknown in advance, each case runs when its test asks."""
    ensure_rom()                      # the copies start from a fresh ROM
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return RunOnFirstUse()
    selected = {item.callspec.params["case"].id for item in request.session.items
                if hasattr(item, "callspec") and isinstance(item.callspec.params.get("case"), Case)}
    todo = [c for c in CASES if available(c) and c.id in selected]
    with ThreadPoolExecutor(WORKERS) as pool:
        return dict(zip((c.id for c in todo), pool.map(run_case, todo)))


def test_corpus_is_big_and_named_uniquely():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) >= 60


def test_outputs_get_the_usual_mode(tmp_path: Path) -> None:
    """What the tools write gets 0666 less the umask (not mkstemp's 0600),
    folders they create 0777 less the umask."""
    root = tmp_path / "repo"
    root.mkdir()
    make_copy(root)
    out = tmp_path / "out"
    for argv in (("tools.build_rom", "-o", str(out / "new" / "x.nes")),
                 ("tools.rom.chr", "assets/bg.png", "-o", str(out / "bg.chr")),
                 ("tools.rom.gen_tables", str(out / "gen"))):
        r = subprocess.run([sys.executable, "-m", *argv], cwd=root, capture_output=True, text=True, umask=0o022)
        assert r.returncode == 0, r.stderr
    made = sorted(out.rglob("*"))
    assert len(made) >= 15          # the ROM and its 13 side files, the CHR, two includes, folders
    for p in made:
        assert (p.stat().st_mode & 0o777) == (0o755 if p.is_dir() else 0o644), p


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case, runs: dict[str, Run]) -> None:
    if not available(case):
        pytest.skip(f"{case.needs} is not installed")
    r = runs[case.id]
    shown = f"exit {r.rc}, {r.wall:.1f} s, {r.cpu:.1f} s CPU\nstdout: {r.stdout[-2000:]}\nstderr: {r.stderr[-2000:]}"
    assert r.rc is not None, f"no answer within {TIMEOUT} s\n{shown}"
    assert "Traceback" not in r.stdout + r.stderr, shown
    assert r.rc == case.rc, shown
    for word in case.words:
        assert word in r.stderr, f"{word!r} not in the message\n{shown}"
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    if case.usage:
        assert lines and lines[0].startswith("usage:"), shown
    else:
        assert len(lines) == 1, f"not one line\n{shown}"
    assert r.cpu < case.cpu_limit, f"{r.cpu:.1f} s of CPU\n{shown}"
    assert not r.changed, f"files changed: {r.changed[:10]}\n{shown}"
