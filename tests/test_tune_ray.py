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


def _wait_for(port: int, proc: subprocess.Popen, seconds: float) -> str:
    """'' once a Ray head answers on the port, else why not (with ray start's stderr)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            return f"ray start exited with {proc.returncode}: {err[-2000:]}"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return ""
        time.sleep(0.5)
    return f"no Ray head on 127.0.0.1:{port} after {seconds} s"


def _stop(proc: subprocess.Popen, tmp: str) -> None:
    """End ray start's process group (it may have exited already) and remove its files."""
    for sig, wait in ((15, 60), (9, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster():
    """A one-node Ray cluster on 127.0.0.1, started (blocking, as this test's child) and ended by its pid.

    Ray binds several ports besides the head's, picked when it starts; under a
    parallel test run another process can take one first and `ray start` then
    exits.  Such a start is tried again on a fresh port, up to three times,
    and a cluster that never comes up fails with each attempt's reason."""
    assert RAY.exists(), f"{RAY} missing: pip install -e '.[dev]' installs Ray"
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    reasons = []
    for _ in range(3):
        port = _free_port()
        tmp = tempfile.mkdtemp(prefix="rt", dir="/tmp")      # short: Ray's socket paths must fit 107 bytes
        proc = subprocess.Popen([str(RAY), "start", "--head", "--block", f"--port={port}", "--node-ip-address=127.0.0.1",
                                 "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
                                 f"--temp-dir={tmp}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                                start_new_session=True)
        why = _wait_for(port, proc, 120)
        if not why:
            break
        reasons.append(why)
        _stop(proc, tmp)
    else:
        raise AssertionError("no Ray cluster: " + " | ".join(reasons))
    try:
        yield f"127.0.0.1:{port}"
    finally:
        _stop(proc, tmp)


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
