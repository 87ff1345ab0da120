"""NES time of the ROM's search (asm/engine/eng_search*.s) under py65, per level.

    python -m bench.rom_search_bench [--levels A,B] [--positions N] [--profile K] [--check]

For each level, on the middlegame suite (bench/middlegames.fen, 40 positions):
median and max nodes, 6502 cycles and NES seconds per move (cycles /
1,789,773 Hz), and cycles per node (all cycles / all nodes).  --check also
runs the reference and counts mismatches.  --profile K attributes the cycles
of K positions per level to the routine containing the PC (the nearest
top-level label at or below it) and prints the table.  The raw table goes
to build/rom_search_bench.md (or --out) as well as stdout; the curated
bench/results/rom_search_bench.md quotes such runs with their context, so
a benchmark run never overwrites it.

The project's targets for these numbers are bench/summary.py's TARGET_*;
bench/results/SUMMARY.md says whether the quoted run meets them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.search import level_by_name, levels, root_limits  # noqa: E402
from bench.engine_bench import suite_fens  # noqa: E402
from bench.rom_profile import Profile  # noqa: E402
from reference_py.cli import game_position  # noqa: E402
from reference_py.position import Position  # noqa: E402
from tools.nes.guards import Fault  # noqa: E402
from tools.nes.search import RomSearch, reference_search  # noqa: E402
from tools.nes.timing import NES_HZ  # noqa: E402

OUT = ROOT / "build" / "rom_search_bench.md"


def table_header(banked: bool, check: bool, first: tuple[str, ...] = ()) -> list[str]:
    """The header of the per-level table; `first`: extra columns after
    'level' (level_row's `first` fills them)."""
    cols = (["level", *first, "nodes median", "nodes max", "at cap", "depth min/median", "cycles median",
             "cycles max", "s median", "s max", "cycles/node"]
            + (["bank switches median"] if banked else []) + (["mismatches"] if check else []))
    return ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]


def level_row(rs: RomSearch, positions: list[Position], level: str, check: bool, banked: bool,
              first: tuple[str, ...] = (), results: list[dict] | None = None) -> str:
    """Search every position (a copy, with its history) at `level`, seed 0,
    and return the table row (table_header's columns); `check` also runs
    the reference and counts the positions where any field differs.  Each
    search's result is appended to `results` if given."""
    nodes, cycles, depths, switches, bad = [], [], [], [], 0
    lv = level_by_name(level)
    caps = [root_limits(lv, pos)[0].nodes for pos in positions]      # the cap each search has
    for pos in positions:
        res = rs.search(pos.copy(), level)
        nodes.append(res["nodes"])
        cycles.append(res["cycles"])
        depths.append(res["depth"])
        switches.append(res["bank_switches"])
        if results is not None:
            results.append(res)
        if check:
            want = reference_search(pos, level)
            bad += any(want[k] != res[k] for k in want)
    return (f"| {level} | " + "".join(f"{c} | " for c in first)
            + f"{statistics.median(nodes):,.0f} | {max(nodes):,} | "
            f"{sum(n >= cap for n, cap in zip(nodes, caps))}/{len(nodes)} | "
            f"{min(depths)}/{statistics.median(depths):.0f} | "
            f"{statistics.median(cycles):,.0f} | "
            f"{max(cycles):,} | {statistics.median(cycles) / NES_HZ:.2f} | {max(cycles) / NES_HZ:.2f} | "
            f"{sum(cycles) / max(1, sum(nodes)):,.0f} |"
            + (f" {statistics.median(switches):,.0f} |" if banked else "") + (f" {bad} |" if check else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.rom_search_bench")
    ap.add_argument("--levels", default=",".join(lv.name for lv in levels()))
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--profile", type=int, default=0, help="positions per level to profile")
    ap.add_argument("--check", action="store_true", help="compare with the reference")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the report (default {OUT.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    rs = RomSearch()
    banked = rs.cart.switchable                 # UxROM: also the bank register writes per search
    fens = suite_fens()[:args.positions]
    lines = ["# ROM search benchmark (bench/rom_search_bench.py)", "",
             f"{len(fens)} middlegames (bench/middlegames.fen), seed 0, py65, NES CPU at {NES_HZ:,} Hz.", ""]
    lines += table_header(banked, args.check)
    print("\n".join(lines), flush=True)
    profiles = []
    t0 = time.time()
    for level in args.levels.split(","):
        row = level_row(rs, [game_position(fen) for fen in fens], level, args.check, banked)
        lines.append(row)
        print(row, flush=True)
        if args.profile:
            prof = Profile(rs.link.labels, rs.link.label_banks)
            for fen in fens[:args.profile]:
                prof.search(rs, fen, level)
            profiles.append((level, prof))
    for level, prof in profiles:
        table = prof.table(16)
        lines += ["", f"## Cycle profile, {level} ({args.profile} positions, {prof.total:,} cycles)", ""] + table
        print("\n".join(lines[-len(table) - 2:]), flush=True)
    write_report(args.out, lines, t0)
    return 0


def write_report(out: Path, lines: list[str], t0: float) -> None:
    """The report's lines and the run time since t0, to `out`."""
    lines = lines + ["", f"(run time {time.time() - t0:.0f} s)"]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


def run_cli(main_fn: Callable[[], int]) -> None:
    """Exit with main_fn's status; a 6502 fault is one line and status 1."""
    try:
        sys.exit(main_fn())
    except Fault as exc:
        print(f"error: 6502 fault: {exc}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    run_cli(main)
