"""Mutation testing as a bench: how many realistic mistakes do the tests catch?

    python -m bench.mutation [--hand] [--mutmut] [--only ID,ID] [--out FILE]

Two parts (both by default):

* --hand: the documented mutations of bench/mutations.yaml (the 6502
  sources, the table generator, the CHR converter, the header, and the
  reference mistakes both engines could share).  The repository's files
  are copied to a temporary directory; for each mutation its text is
  replaced there (it must occur exactly once), its targeted test command
  runs (`python -m pytest -q -x ARGS`, from the copy, which rebuilds its
  own ROM when a source changed), and the text is restored.  A mutation
  is killed when the command fails.  Each command is first run on the
  unmutated copy and must pass, so a kill is the mutation's doing.
* --mutmut: mutmut (PyPI; `[tool.mutmut]` in pyproject.toml) over
  reference_py/ and tools/asm/, with the host tests that cover each
  mutant; its counts and surviving mutants are read from `mutmut results`.

Prints and writes (default build/mutation.md) the kill rate of each part
and the survivors.  A bench, not part of `make test`: the hand-made part
takes tens of minutes on two cores, mutmut hours.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MUTATIONS = ROOT / "bench" / "mutations.yaml"
OUT = ROOT / "build" / "mutation.md"
TEST_TIMEOUT = 1800            # seconds per targeted command


@dataclass
class Mutation:
    id: str
    file: str
    find: str
    replace: str
    why: str
    test: str


@dataclass
class Outcome:
    mutation: Mutation
    killed: bool
    seconds: float
    detail: str


def load_mutations(path: Path = MUTATIONS) -> list[Mutation]:
    """bench/mutations.yaml, checked: every field present, ids unique."""
    data = yaml.safe_load(path.read_text())
    out, seen = [], set()
    for i, raw in enumerate(data.get("mutations") or [], 1):
        missing = [k for k in ("id", "file", "find", "replace", "why", "test") if k not in raw]
        if missing:
            raise SystemExit(f"error: {path}: mutation {i}: missing {', '.join(missing)}")
        if raw["id"] in seen:
            raise SystemExit(f"error: {path}: mutation {i}: duplicate id {raw['id']}")
        seen.add(raw["id"])
        out.append(Mutation(**{k: raw[k] for k in ("id", "file", "find", "replace", "why", "test")}))
    return out


def copy_tree(dest: Path) -> None:
    """The repository's tracked and untracked (not ignored) files into dest."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def run_tests(tree: Path, test: str) -> tuple[bool, str]:
    """The targeted command in `tree`: (passed, the last lines of its output)."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *shlex.split(test)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    try:
        r = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=TEST_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {TEST_TIMEOUT} s"
    tail = [ln for ln in (r.stdout + r.stderr).strip().splitlines() if ln.strip()][-1:]
    return r.returncode == 0, tail[0] if tail else ""


def hand(only: set[str] | None) -> list[Outcome]:
    muts = [m for m in load_mutations() if not only or m.id in only]
    out: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        tree = Path(tmp)
        copy_tree(tree)
        baseline: dict[str, bool] = {}
        for m in muts:
            path = tree / m.file
            text = path.read_text()
            if text.count(m.find) != 1:
                raise SystemExit(f"error: {MUTATIONS}: {m.id}: the text to change occurs "
                                 f"{text.count(m.find)} times in {m.file}, not once")
            if m.test not in baseline:
                ok, tail = run_tests(tree, m.test)
                if not ok:
                    raise SystemExit(f"error: {m.id}: its test fails without the mutation: {m.test}: {tail}")
                baseline[m.test] = ok
            t = time.time()
            path.write_text(text.replace(m.find, m.replace))
            try:
                passed, tail = run_tests(tree, m.test)
            finally:
                path.write_text(text)
                os.utime(path)                   # newer than the mutant's ROM: the next build is fresh
            o = Outcome(m, not passed, time.time() - t, tail)
            print(f"{m.id}: {'killed' if o.killed else 'SURVIVED'} ({o.seconds:.0f} s) {tail}", flush=True)
            out.append(o)
    return out


def hand_report(res: list[Outcome]) -> list[str]:
    killed = sum(o.killed for o in res)
    lines = [f"## Hand-made mutations (bench/mutations.yaml)", "",
             f"Killed {killed} of {len(res)}: {100 * killed / max(1, len(res)):.1f}%.", "",
             "| mutation | file | what it breaks | targeted test | result | s |", "|---|---|---|---|---|---|"]
    for o in res:
        m = o.mutation
        lines.append(f"| {m.id} | {m.file} | {m.why} | `{m.test}` | {'killed' if o.killed else '**survived**'} "
                     f"| {o.seconds:.0f} |")
    survivors = [o.mutation.id for o in res if not o.killed]
    lines += ["", f"Survivors: {', '.join(survivors) if survivors else 'none'}.", ""]
    return lines


def mutmut(max_children: int) -> list[str]:
    """Runs mutmut (niced, in the repository) and summarises `mutmut results`."""
    exe = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if exe is None:
        raise SystemExit("error: mutmut is not installed: pip install -e '.[mutation]'")
    t = time.time()
    subprocess.run(["nice", "-n", "10", exe, "run", "--max-children", str(max_children)], cwd=ROOT)
    res = subprocess.run([exe, "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True)
    counts: dict[str, int] = {}
    survivors = []
    for line in res.stdout.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name:
            continue
        counts[status] = counts.get(status, 0) + 1
        if status == "survived":
            survivors.append(name)
    killed = counts.get("killed", 0)
    judged = killed + counts.get("survived", 0) + counts.get("timeout", 0)
    rate = 100 * (killed + counts.get("timeout", 0)) / max(1, judged)
    lines = ["## mutmut over reference_py/ and tools/asm/", "",
             f"{sum(counts.values())} mutants in {time.time() - t:.0f} s: "
             + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
             + f"; killed (timeouts count as killed) {rate:.1f}% of the {judged} judged.", "",
             "Survivors (`mutmut show NAME` prints the change):", ""]
    lines += [f"- {s}" for s in survivors] + [""]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.mutation", description=__doc__.splitlines()[0])
    ap.add_argument("--hand", action="store_true", help="the hand-made mutations only")
    ap.add_argument("--mutmut", action="store_true", help="mutmut only")
    ap.add_argument("--only", default="", help="comma-separated ids of bench/mutations.yaml")
    ap.add_argument("--max-children", type=int, default=2, help="mutmut's parallel workers")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    both = not (a.hand or a.mutmut)
    lines = ["# Mutation testing (bench/mutation.py)", ""]
    t = time.time()
    if a.hand or both:
        lines += hand_report(hand(set(filter(None, a.only.split(","))) or None))
    if a.mutmut or both:
        lines += mutmut(a.max_children)
    lines.append(f"Wall time {time.time() - t:.0f} s.")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = a.out.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(a.out)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
