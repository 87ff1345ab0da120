"""The ladder's Ray path: a local Ray cluster on 127.0.0.1 plays a seeded
match and gets the same games as the local process pool."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int, proc: subprocess.Popen, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"ray start exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"no Ray head on 127.0.0.1:{port} after {seconds} s")


@pytest.fixture(scope="module")
def cluster():
    """A one-node Ray cluster on 127.0.0.1, started (blocking, as this test's child) and ended by its pid."""
    assert RAY.exists(), f"{RAY} missing: pip install -e '.[dev]' installs Ray"
    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="rt", dir="/tmp")      # short: Ray's socket paths must fit 107 bytes
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.Popen([str(RAY), "start", "--head", "--block", f"--port={port}", "--node-ip-address=127.0.0.1",
                             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
                             f"--temp-dir={tmp}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    try:
        _wait_for(port, proc, 120)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def _ladder(out: Path, *extra: str) -> dict:
    cmd = [sys.executable, "-m", "tools.tune", "ladder", "--levels", "Novice,Easy", "--anchors", "fs:depth=1",
           "--games", "2", "--neighbour-games", "2", "--max-plies", "40", "--no-rom", "--quiet",
           "--out", str(out), *extra]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
    assert r.returncode == 0, r.stderr[-3000:]
    games = {}
    for line in (out / "games.jsonl").read_text().splitlines():
        g = json.loads(line)
        games[g["key"]] = (g["moves"], g["result"], g["reason"])
    return games


def test_a_seeded_match_on_ray_equals_the_process_pool(cluster, tmp_path):
    pool = _ladder(tmp_path / "pool", "--jobs", "2")
    ray = _ladder(tmp_path / "ray", "--cluster", cluster)
    assert len(pool) == 6
    assert ray == pool
    report = json.loads((tmp_path / "ray" / "ladder.json").read_text())
    assert report["games"] == 6 and [lv["level"] for lv in report["levels"]] == ["Novice", "Easy"]
