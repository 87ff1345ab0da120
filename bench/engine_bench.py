"""Reference-engine measurements for docs/ENGINE.md (`make bench`).

  * perft speed of the reference on ../shared/positions/perft.txt;
  * nodes searched per level on bench/middlegames.fen (40 positions);
  * the history heuristic's effect at the strongest level (with / without);
  * the ROM engine's cycle counts, when bench/rom_bench.py exists.
Writes bench/results/engine_bench.md as well as printing it.  Speed numbers
are host seconds and depend on the machine; node counts are exact.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import statistics
import sys
import time
from pathlib import Path

from reference_py.fen import START_FEN, parse_fen
from reference_py.perft import perft
from reference_py.search import Searcher, levels
from tools.rom.files import ROM

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "bench" / "middlegames.fen"
PERFT = ROOT.parent / "shared" / "positions" / "perft.txt"


def suite_fens() -> list[str]:
    return [line.strip() for line in SUITE.read_text().splitlines() if line.strip() and not line.startswith("#")]


def perft_speed() -> list[str]:
    rows = ["| position | depth | leaves | seconds | leaves/s |", "|---|---|---|---|---|"]
    jobs = [(START_FEN, 4)]
    if PERFT.exists():
        for line in PERFT.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                jobs.append((line.split(";")[0].strip(), 3))
    total_n = total_t = 0.0
    for fen, depth in jobs:
        pos = parse_fen(fen)
        t = time.perf_counter()
        n = perft(pos, depth)
        dt = time.perf_counter() - t
        total_n += n
        total_t += dt
        rows.append(f"| `{fen.split()[0][:24]}...` | {depth} | {n} | {dt:.2f} | {n / dt:,.0f} |")
    rows.append(f"| **all** | | {int(total_n)} | {total_t:.2f} | {total_n / total_t:,.0f} |")
    return rows


def run_suite(level, **kw) -> tuple[list[int], list[int], float, int]:
    nodes, depths, overflow = [], [], 0
    t = time.perf_counter()
    for fen in suite_fens():
        s = Searcher(parse_fen(fen), level, **kw)
        r = s.run()
        nodes.append(r.nodes)
        depths.append(r.depth)
        overflow += r.overflows
    return nodes, depths, time.perf_counter() - t, overflow


def level_table() -> list[str]:
    rows = ["| level | depth | qdepth | cap | median nodes | mean | max | depth reached (min/median) | capped | host s |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for lv in levels():
        nodes, depths, dt, _ = run_suite(lv)
        capped = sum(1 for n in nodes if n >= lv.nodes)
        rows.append(f"| {lv.name} | {lv.depth} | {lv.qdepth} | {lv.nodes} | {statistics.median(nodes):.0f} | "
                    f"{statistics.mean(nodes):.0f} | {max(nodes)} | {min(depths)}/{statistics.median(depths):.0f} | "
                    f"{capped}/{len(nodes)} | {dt:.1f} |")
    return rows


def history_table() -> list[str]:
    strongest = levels()[-1]
    uncapped = dataclasses.replace(strongest, nodes=65535, sparse=None)
    rows = ["| configuration (strongest level, no node cap) | median nodes | mean nodes | max | vs. neither |",
            "|---|---|---|---|---|"]
    variants = [("history + killers (as shipped)", {}), ("killers only", {"history": False}),
                ("history only", {"killers": False}), ("neither", {"history": False, "killers": False})]
    results = {name: run_suite(uncapped, **kw)[0] for name, kw in variants}
    base = statistics.mean(results["neither"])
    for name, _ in variants:
        n = results[name]
        rows.append(f"| {name} | {statistics.median(n):.0f} | {statistics.mean(n):.0f} | {max(n)} | "
                    f"{statistics.mean(n) / base - 1:+.1%} |")
    return rows


def main() -> None:
    out = ["# Engine benchmark", "",
           f"Reference engine on {len(suite_fens())} middlegame positions (bench/middlegames.fen); "
           "node counts are exact and reproducible, seconds are host time.", ""]
    out += ["## Perft speed of the reference", ""] + perft_speed() + [""]
    out += ["## Nodes per level", ""] + level_table() + [""]
    out += ["## History heuristic", ""] + history_table() + [""]
    rom_bench = ROOT / "bench" / "rom_bench.py"
    if rom_bench.exists() and ROM.exists():
        spec = importlib.util.spec_from_file_location("rom_bench", rom_bench)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        if hasattr(mod, "report_lines"):
            out += ["## ROM engine (py65 cycle counts)", ""] + mod.report_lines() + [""]
    text = "\n".join(out)
    print(text)
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "engine_bench.md").write_text(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
