"""Per-routine cycle profile of the ROM's search (asm/engine/eng_search*.s) under py65.

    python -m bench.rom_profile [--level Master] [--positions N] [--skip K] [--top T] [--fen FEN] [--files]

Runs eng_search on positions of bench/middlegames.fen (the first N after
skipping K, or one --fen) and attributes every instruction's cycles to a
routine: the nearest top-level label at or below the PC (rom/xiangqi.map.json,
labels without "__"; a local label never starts a routine).

  exclusive  cycles spent with the PC inside the routine;
  inclusive  cycles from a JSR to the routine until its matching RTS
             (callees included; a recursive routine counts its outermost
             activation only, so inclusive <= total);
  calls      JSRs to the routine (a JMP tail call counts for the caller).

Frames are matched by the stack pointer: a JSR pushes (routine, S before the
JSR); after an RTS every frame whose S is <= the new S is closed, so frames
left by an abnormal unwind (TXS) close at the next RTS above them.

--lines ROUTINE adds the routine's costliest instructions (cycles per address,
with the source line from rom/xiangqi.lst, macro expansions included).

--files adds the cycles per node by source file (each instruction's file from
the listing), which is the split by role: the evaluation (eng_eval.s), make
and unmake (eng_make.s), legality and check tests (eng_attack.s), move
generation (eng_movegen.s), ordering (eng_search_order.s), the search's
control (eng_search*.s).

--pages adds the taken branches whose target is on another page (each costs
one more cycle; moving code moves them): the total per routine and the
costliest branches; then the same for the indexed reads (abs,X, abs,Y,
(zp),Y) whose address lies on another page than their base (one more cycle
each; moving a table or a RAM array moves them).  A change that only moves code (a file split, a new
routine before the search) changes the cycle count by exactly the change
of this total.

Also prints nodes, cycles and cycles/node (the same numbers as
bench.rom_search_bench) so an optimisation can be judged on one run.
"""
from __future__ import annotations

import argparse
import bisect
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.engine_bench import suite_fens  # noqa: E402
from reference_py.cli import game_position  # noqa: E402
from tools.nes.cpu import CHUNK  # noqa: E402
from tools.nes.guards import Returned  # noqa: E402
from tools.nes.search import RomSearch  # noqa: E402
from tools.nes.timing import NES_HZ  # noqa: E402


BRANCH_OPS = frozenset((0x10, 0x30, 0x50, 0x70, 0x90, 0xB0, 0xD0, 0xF0))   # BPL .. BEQ


class Profile:
    """Exclusive / inclusive cycles and call counts per routine."""

    def __init__(self, labels: dict[str, int], label_banks: dict[str, int] | None = None,
                 banks: frozenset[int] = frozenset((0, 7))) -> None:
        # A search runs with the engine's bank (0) at $8000 and the fixed bank (7)
        # above it; the book's banks also lie at $8000, so their labels would
        # shadow the engine's: keep only the labels of the banks a search runs.
        label_banks = label_banks or {}
        procs = sorted((v, k) for k, v in labels.items()
                       if v >= 0x8000 and "__" not in k and label_banks.get(k, 0) in banks)
        self.starts = [v for v, _ in procs]
        self.names = [k for _, k in procs]
        self.excl: Counter = Counter()
        self.incl: Counter = Counter()
        self.calls: Counter = Counter()
        self.total = 0
        self.pcs: Counter = Counter()    # cycles per instruction address
        self.page_cross: Counter = Counter()   # taken branches to another page, per branch address
        self.read_cross: Counter = Counter()   # indexed reads across a page, per instruction address

    def name_at(self, pc: int) -> str:
        return self.names[bisect.bisect_right(self.starts, pc) - 1]

    def search(self, rs: RomSearch, fen: str, level: str) -> dict:
        """rs.search with the profile on (a slower copy of Cpu.call's loop)."""
        cpu = rs.cpu
        real_call = cpu.call
        excl, incl, calls, pcs, cross = self.excl, self.incl, self.calls, self.pcs, self.page_cross
        rcross = self.read_cross
        starts, names = self.starts, self.names
        # one name index per PC, cached
        cache: dict[int, str] = {}

        def call(addr, a=0, x=0, y=0, carry=False, limit=0, bank=None, poll=None):
            """Cpu.call's contract (poll(cycles) between chunks of CHUNK
            instructions), one instruction at a time with the profile."""
            cpu.enter(addr, a, x, y, carry, bank)
            steps = 0
            mpu, mem = cpu.mpu, cpu.mem
            ins, cyc, extra = mpu.instruct, mpu.cycletime, mpu.extracycles
            cycles = 0
            frames: list[tuple[str, int, int]] = []   # (routine, S before the JSR, cycles at entry)
            active: Counter = Counter()
            top = names[bisect.bisect_right(starts, addr) - 1]
            calls[top] += 1
            frames.append((top, 0x100, 0))
            active[top] += 1
            try:
                while True:
                    steps += 1
                    if poll is not None and steps % CHUNK == 0:
                        poll(cycles)
                    pc = mpu.pc
                    op = mem[pc]
                    sp = mpu.sp
                    mpu.pc += 1
                    mpu.excycles = 0
                    mpu.addcycles = extra[op]
                    ins[op](mpu)
                    c = cyc[op] + mpu.excycles
                    cycles += c
                    nm = cache.get(pc)
                    if nm is None:
                        nm = cache[pc] = names[bisect.bisect_right(starts, pc) - 1]
                    excl[nm] += c
                    pcs[pc] += c
                    if op in BRANCH_OPS:
                        if (mpu.pc ^ (pc + 2)) & 0xFF00:
                            cross[pc] += 1
                    elif mpu.excycles:               # an indexed read across a page
                        rcross[pc] += mpu.excycles
                    if op == 0x20:                       # JSR: cycles of the JSR go to the callee
                        callee = cache.get(mpu.pc)
                        if callee is None:
                            callee = cache[mpu.pc] = names[bisect.bisect_right(starts, mpu.pc) - 1]
                        calls[callee] += 1
                        frames.append((callee, sp, cycles - c))
                        active[callee] += 1
                    elif op == 0x60:                     # RTS: close the frames it leaves
                        nsp = mpu.sp
                        while frames and frames[-1][1] <= nsp:
                            r, _, t0 = frames.pop()
                            active[r] -= 1
                            if not active[r]:
                                incl[r] += cycles - t0
            except Returned:
                pass
            while frames:
                r, _, t0 = frames.pop()
                active[r] -= 1
                if not active[r]:
                    incl[r] += cycles - t0
            cpu.cycles = cycles
            self.total += cycles
            return cycles

        cpu.call = call
        try:
            return rs.search(game_position(fen), level)
        finally:
            cpu.call = real_call

    def table(self, top: int) -> list[str]:
        total = max(1, self.total)
        out = ["| routine | exclusive | share | inclusive | share | calls | excl/call |",
               "|---|---|---|---|---|---|---|"]
        for name, c in self.excl.most_common(top):
            n = self.calls.get(name, 0)
            inc = self.incl.get(name, 0)
            out.append(f"| `{name}` | {c:,} | {100 * c / total:.1f}% | {inc:,} | {100 * inc / total:.1f}% | "
                       f"{n:,} | {c / n:,.0f} |" if n else
                       f"| `{name}` | {c:,} | {100 * c / total:.1f}% | - | - | 0 | - |")
        return out


SEARCH_BANKS = frozenset((0, 7))   # the engine's bank at $8000 and the fixed bank


def listing_lines(path: Path = ROOT / "rom" / "xiangqi.lst",
                  map_path: Path = ROOT / "rom" / "xiangqi.map.json") -> dict[int, str]:
    """Address -> "file:line  source" of every instruction a search can run: the
    lines of the segments in the engine's bank and the fixed bank (the map says
    which bank a segment is in).  Other banks (the book, the UI, the bitbases,
    the puzzles) use the same $8000-$BFFF addresses and would shadow the
    engine's lines.  A file's lines are in CODE until its first .segment."""
    banks = {name: seg["bank"] for name, seg in json.loads(map_path.read_text())["segments"].items()}
    out: dict[int, str] = {}
    segment = "CODE"
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("; ---- "):
            segment = "CODE"
            continue
        seg = re.match(r'(?:[0-9A-F]{4})?\s+\S+:\d+\s+\.segment\s+"(\w+)"', line)
        if seg:
            segment = seg.group(1)
            continue
        m = re.match(r"([0-9A-F]{4})  ([0-9A-F]{2}(?: [0-9A-F]{2})*)\s+(\S+:\d+)\s+(.*)", line)
        if m and banks.get(segment) in SEARCH_BANKS:
            out.setdefault(int(m.group(1), 16), f"{m.group(3)}  {m.group(4).strip()}")
    return out


def line_table(prof: Profile, routine: str, top: int) -> list[str]:
    """The instructions of `routine` that cost the most (cycles per listing line)."""
    src = listing_lines()
    rows = sorted(((c, pc) for pc, c in prof.pcs.items() if prof.name_at(pc) == routine), reverse=True)
    total = sum(c for c, _ in rows) or 1
    out = [f"| {routine}: address | cycles | share | source |", "|---|---|---|---|"]
    for c, pc in rows[:top]:
        out.append(f"| ${pc:04X} | {c:,} | {100 * c / total:.1f}% | `{src.get(pc, '?')}` |")
    return out


def file_table(prof: Profile, nodes: int) -> list[str]:
    """Cycles per source file (the instruction's file in the listing), per node
    and as a share of the search, costliest first."""
    src = listing_lines()
    per: Counter = Counter()
    for pc, c in prof.pcs.items():
        where = src.get(pc)
        per[where.split(":", 1)[0] if where else "?"] += c
    total = max(1, prof.total)
    out = ["| source file | cycles | share | cycles per node |", "|---|---:|---:|---:|"]
    out += [f"| `{f}` | {c:,} | {100 * c / total:.1f}% | {c / max(1, nodes):,.0f} |" for f, c in per.most_common()]
    out.append(f"| all | {prof.total:,} | 100.0% | {prof.total / max(1, nodes):,.0f} |")
    return out


def page_table(prof: Profile, top: int) -> list[str]:
    """Taken branches to another page, then indexed reads across a page: the total
    per routine, then the costliest instructions."""
    src = listing_lines()
    per: Counter = Counter()
    for pc, n in prof.page_cross.items():
        per[prof.name_at(pc)] += n
    out = [f"Taken branches to another page: {sum(per.values()):,} cycles", "",
           "| routine | cycles |", "|---|---|"]
    out += [f"| `{r}` | {n:,} |" for r, n in per.most_common(top)]
    out += ["", "| branch | cycles | source |", "|---|---|---|"]
    out += [f"| ${pc:04X} | {n:,} | `{src.get(pc, '?')}` |" for pc, n in prof.page_cross.most_common(top)]
    per = Counter()
    for pc, n in prof.read_cross.items():
        per[prof.name_at(pc)] += n
    out += ["", f"Indexed reads across a page: {sum(per.values()):,} cycles", "",
            "| routine | cycles |", "|---|---|"]
    out += [f"| `{r}` | {n:,} |" for r, n in per.most_common(top)]
    out += ["", "| read | cycles | source |", "|---|---|---|"]
    out += [f"| ${pc:04X} | {n:,} | `{src.get(pc, '?')}` |" for pc, n in prof.read_cross.most_common(top)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.rom_profile")
    ap.add_argument("--level", default="Master")
    ap.add_argument("--positions", type=int, default=1)
    ap.add_argument("--skip", type=int, default=0, help="positions of the suite to skip first")
    ap.add_argument("--fen", help="profile this position instead of the suite")
    ap.add_argument("--top", type=int, default=30, help="routines to list")
    ap.add_argument("--lines", action="append", default=[], metavar="ROUTINE",
                    help="also list the costliest instructions of ROUTINE (repeatable)")
    ap.add_argument("--files", action="store_true", help="also list the cycles per node by source file")
    ap.add_argument("--pages", action="store_true", help="also list the taken branches to another page and the indexed reads across one")
    args = ap.parse_args(argv)
    rs = RomSearch()
    fens = [args.fen] if args.fen else suite_fens()[args.skip:args.skip + args.positions]
    prof = Profile(rs.link.labels, rs.link.label_banks)
    nodes = 0
    t0 = time.time()
    for i, fen in enumerate(fens):
        res = prof.search(rs, fen, args.level)
        nodes += res["nodes"]
        print(f"position {args.skip + i}: {res['move']} score {res['score']} nodes {res['nodes']} "
              f"depth {res['depth']} cycles {res['cycles']:,} ({res['seconds']:.2f} s)", flush=True)
    print(f"\n{args.level}, {len(fens)} positions: {nodes:,} nodes, {prof.total:,} cycles "
          f"({prof.total / NES_HZ:.2f} s NES), {prof.total / max(1, nodes):,.0f} cycles/node "
          f"(py65 {time.time() - t0:.0f} s)\n")
    print("\n".join(prof.table(args.top)))
    for routine in args.lines:
        print()
        print("\n".join(line_table(prof, routine, args.top)))
    if args.files:
        print()
        print("\n".join(file_table(prof, nodes)))
    if args.pages:
        print()
        print("\n".join(page_table(prof, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
