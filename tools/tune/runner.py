"""Running many games: a local process pool by default, a Ray cluster on request,
every finished game cached on disk so that an interrupted run resumes.

The cache is a JSON-lines file, one finished game a line, appended and
flushed as each game ends; a line cut short by a crash is ignored when
read back (the game is simply played again).  A task whose key (games.task_key)
is in the cache is not played again.

Backends:
  * pool (default): `jobs` worker processes (all cores unless --jobs says
    otherwise); each keeps its own Fairy-Stockfish process between games;
  * Ray (`cluster="ADDRESS"`: `HOST:PORT` of a running cluster's head, or
    `ray://HOST:PORT` for Ray Client): the same task function as a remote
    task of one CPU; the project's code travels as Ray's working_dir, and a
    task that names another engine tree carries that tree's archive.
Games are deterministic functions of their tasks, so both backends give
the same results for the same tasks (tests/test_tune_ray.py checks it).

At most `window` tasks are in flight at once, in task order, so a caller
that stops early (the SPRT) wastes little, and results arrive in about
the order they were asked for.
"""
from __future__ import annotations

import json
import os
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Callable, Iterable

from .games import play_game, task_key

ROOT = Path(__file__).resolve().parents[2]
RAY_EXCLUDES = [".git", ".venv", "build", "site", "games", "web/node_modules", "rom/*.nes", "rom/*.gif",
                "rom/screenshots", "emu_tests/screenshots", "bench/results", "*.egg-info", "__pycache__"]


class GameCache:
    """Finished games on disk, one JSON line each, keyed by task key."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.games: dict[str, dict] = {}
        if path and path.exists():
            for line in path.read_text().splitlines():
                try:
                    g = json.loads(line)
                except json.JSONDecodeError:
                    continue            # the last line of an interrupted run
                if isinstance(g, dict) and "key" in g:
                    self.games[g["key"]] = g

    def add(self, game: dict) -> None:
        self.games[game["key"]] = game
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a") as f:
                f.write(json.dumps(game, separators=(",", ":")) + "\n")
                f.flush()
                os.fsync(f.fileno())


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


class _Pool:
    def __init__(self, jobs: int, fn: Callable[[dict], dict]) -> None:
        self.ex = ProcessPoolExecutor(max_workers=jobs)
        self.fn = fn

    def submit(self, task: dict):
        return self.ex.submit(self.fn, task)

    def wait(self, handles: list) -> list:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        return [h for h in handles if h in done]

    @staticmethod
    def result(handle: Future) -> dict:
        return handle.result()

    def close(self) -> None:
        self.ex.shutdown(wait=True, cancel_futures=True)


class _Ray:
    def __init__(self, address: str, fn: Callable[[dict], dict]) -> None:
        try:
            import ray
        except ImportError:
            raise SystemExit("error: --cluster needs Ray: pip install 'ray>=2.9'") from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False, logging_level="ERROR",
                     runtime_env={"working_dir": str(ROOT), "excludes": RAY_EXCLUDES})
        self.fn = ray.remote(num_cpus=1, max_retries=2)(fn)

    def submit(self, task: dict):
        return self.fn.remote(task)

    def wait(self, handles: list) -> list:
        done, _ = self.ray.wait(handles, num_returns=1)
        return done

    def result(self, handle) -> dict:
        return self.ray.get(handle)

    def close(self) -> None:
        pass


def run_tasks(tasks: Iterable[dict], *, jobs: int = 0, cluster: str | None = None,
              cache: GameCache | None = None, desc: str = "games",
              status: Callable[[dict], str] | None = None,
              stop: Callable[[], bool] | None = None, progress: bool = True,
              window: int = 0, fn: Callable[[dict], dict] = play_game,
              key: Callable[[dict], str] = task_key) -> dict[str, dict]:
    """Play every task not already in `cache`; returns {task key: result} of
    all tasks that finished (cached ones included).  After each result,
    `status(results)` gives the progress bar's running text and `stop()`
    may end the run early (the games in flight are discarded).

    `fn` is the work a task stands for (a game by default; any picklable
    function of one task dict whose result carries the task's `key(task)`
    as "key", e.g. an analysis of a finished game)."""
    tasks = list(tasks)
    cache = cache or GameCache(None)
    results = {key(t): cache.games[key(t)] for t in tasks if key(t) in cache.games}
    todo = [t for t in tasks if key(t) not in results]
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(tasks), initial=len(results), desc=desc, unit="game", file=sys.stderr,
                   dynamic_ncols=True, smoothing=0.05)
        if status and results:
            bar.set_postfix_str(status(results))
    if not todo or (stop and stop()):
        if bar:
            bar.close()
        return results
    jobs = jobs or default_jobs()
    backend = _Ray(cluster, fn) if cluster else _Pool(jobs, fn)
    window = window or 2 * jobs if not cluster else window or 64
    in_flight: list = []
    nxt = 0
    try:
        while nxt < len(todo) or in_flight:
            while nxt < len(todo) and len(in_flight) < window:
                in_flight.append(backend.submit(todo[nxt]))
                nxt += 1
            for h in backend.wait(in_flight):
                in_flight.remove(h)
                game = backend.result(h)
                cache.add(game)
                results[game["key"]] = game
                if bar:
                    bar.update(1)
                    if status:
                        bar.set_postfix_str(status(results))
            if stop and stop():
                break
    finally:
        backend.close()
        if bar:
            bar.close()
    return results
