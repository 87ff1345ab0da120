"""Cycle counts of the ROM's rules core (6502 under py65) and its RAM budget.

    python -m bench.rom_bench [--perft-depth D] [--lines 9,10,13] [--json FILE]

Measures, on bench/middlegames.fen (40 middlegames) and the perft suite
(/work/shared/positions/perft.txt):
  * eng_load: cycles per position;
  * eng_gen: cycles per generated (pseudo-legal) move, and per position;
    eng_gen_captures: cycles per position;
  * the legal list (eng_gen, then eng_make + eng_is_legal + eng_unmake per
    move): cycles per legal move;
  * eng_make / eng_unmake: mean for quiet moves and captures, maximum;
  * eng_in_check: mean and maximum (both sides of every position), and
    eng_is_legal after every make: with the node's check state known (the
    search and perft call eng_in_check first) and not known (full test);
  * the search's shortcuts: eng_gives_check after every legal make below
    the root (eng_ply >= 1 before the make, its fast path), and
    eng_quiet_safe before every quiet move (positions not in check), split
    by whether the move touches a king (then it tests the move on the board);
  * eng_perft: leaf nodes per NES second (1.789773 MHz) per suite position
    at --perft-depth (default 3);
  * the RAM budget as built (from the linker map rom/xiangqi.map.json).
Cycles are py65's count (mpu.processorCycles), page crossings included.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from reference_py.cli import parse_suite
from reference_py.fen import parse_fen
from tools.rom.memory_map import budget_rows
from tools.nes.engine import PERFT_LIMIT, RomEngine
from tools.nes.timing import NES_HZ

ROOT = Path(__file__).resolve().parents[1]
MIDDLEGAMES = ROOT / "bench" / "middlegames.fen"
SUITE = Path("/work/shared/positions/perft.txt")


def middlegame_fens() -> list[str]:
    out = []
    for raw in MIDDLEGAMES.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(line.split(";", 1)[0].strip())
    return out


def measure_moves(eng: RomEngine, fens: list[str]) -> dict:
    gen_cycles = gen_moves = legal_cycles = legal_moves = cap_cycles = cap_moves = 0
    make_q, make_c, unmake_q, unmake_c, check, legal_test, legal_full = [], [], [], [], [], [], []
    loads = []
    for fen in fens:
        pos = parse_fen(fen)
        loads.append(eng.load(pos))
        c0 = eng.cpu.total_cycles
        eng.call("eng_in_check", a=pos.side)      # the node's check state: eng_is_legal's fast path
        check.append(eng.cpu.cycles)
        moves = eng.generate()
        gen_cycles += eng.cpu.cycles
        gen_moves += len(moves)
        n_legal = 0
        for i, m in enumerate(moves):
            capture = eng.mem[eng.a_board + (m >> 8)] != 0
            (make_c if capture else make_q).append(eng.make(i))
            legal_test.append(eng.call("eng_is_legal"))
            n_legal += not eng.cpu.carry
            (unmake_c if capture else unmake_q).append(eng.unmake())
        legal_cycles += eng.cpu.total_cycles - c0
        legal_moves += n_legal
        eng.write("ms_top", [0])
        eng.call("eng_in_check", a=pos.side ^ 1)
        check.append(eng.cpu.cycles)
        eng.write("eng_chk", [0xFF])              # unknown: eng_is_legal must run the full test
        for i, m in enumerate(moves):
            eng.make(i)
            legal_full.append(eng.call("eng_is_legal"))
            eng.unmake()
        eng.write("ms_top", [0])
        caps = eng.generate(captures_only=True)   # the quiescence search's generator
        cap_cycles += eng.cpu.cycles
        cap_moves += len(caps)
        eng.write("ms_top", [0])
    gives, safe_clear, safe_touch = measure_shortcuts(eng, fens)
    mean = lambda xs: round(statistics.mean(xs), 1) if xs else None  # noqa: E731
    return {
        "gives_check_mean": mean(gives), "gives_check_max": max(gives),
        "quiet_safe_clear_mean": mean(safe_clear), "quiet_safe_touch_mean": mean(safe_touch),
        "quiet_safe_max": max(safe_clear + safe_touch),
        "positions": len(fens),
        "load_cycles_mean": mean(loads),
        "gen_captures_cycles_per_position": round(cap_cycles / len(fens)),
        "captures_per_position": round(cap_moves / len(fens), 1),
        "gen_cycles_per_move": round(gen_cycles / gen_moves, 1),
        "gen_cycles_per_position": round(gen_cycles / len(fens)),
        "pseudo_legal_moves_per_position": round(gen_moves / len(fens), 1),
        "legal_list_cycles_per_legal_move": round(legal_cycles / legal_moves, 1),
        "make_quiet_mean": mean(make_q), "make_capture_mean": mean(make_c),
        "make_max": max(make_q + make_c),
        "unmake_quiet_mean": mean(unmake_q), "unmake_capture_mean": mean(unmake_c),
        "unmake_max": max(unmake_q + unmake_c),
        "in_check_mean": mean(check), "in_check_max": max(check),
        "is_legal_after_make_mean": mean(legal_test), "is_legal_after_make_max": max(legal_test),
        "is_legal_unknown_check_mean": mean(legal_full),
    }


def touches_a_king(pos, frm: int, to: int) -> bool:
    """Does a quiet move reach eng_quiet_safe's board test (its header):
    `from` or `to` on a king's file or rank, `from` a king's diagonal
    neighbour, or a horse landing where it may check the enemy king?"""
    width = 11
    own, enemy = pos.piece_sq[pos.side << 4], pos.piece_sq[(pos.side ^ 1) << 4]
    for king in (own, enemy):
        for sq in (frm, to):
            if (sq - king) % width == 0 or (sq - 1) // width == (king - 1) // width:
                return True
        if frm - king in (width + 1, width - 1, -width + 1, -width - 1):
            return True
    code = pos.board[frm]
    horse = pos.piece_kind[(code & 0x0F) | (16 if code & 0x20 else 0)] == 4
    return horse and to - enemy in (23, 13, 21, 9, -21, -9, -23, -13)


def measure_shortcuts(eng: RomEngine, fens: list[str]) -> tuple[list[int], list[int], list[int]]:
    """Cycles of eng_gives_check after every legal make one ply below the
    root (eng_ply poked to 1: the fast path; the positions are legal, so its
    precondition holds), and of eng_quiet_safe before every quiet move of
    the positions not in check (clear of both kings, or touching one)."""
    gives, clear, touch = [], [], []
    for fen in fens:
        pos = parse_fen(fen)
        eng.load(pos)
        eng.write("eng_ply", [1])
        eng.call("eng_in_check", a=pos.side)
        moves = eng.generate()
        for i, m in enumerate(moves):
            eng.make(i)
            if eng.is_legal():
                gives.append(eng.call("eng_gives_check"))
            eng.unmake()
        if not pos.in_check(pos.side):
            for i, m in enumerate(moves):
                if pos.board[m >> 8] == 0:
                    c = eng.call("eng_quiet_safe", y=i)
                    (touch if touches_a_king(pos, m & 0xFF, m >> 8) else clear).append(c)
        eng.write("ms_top", [0])
        eng.write("eng_ply", [0])
    return gives, clear, touch


def measure_perft(eng: RomEngine, depth: int, lines: set[int] | None = None) -> list[dict]:
    rows = []
    for no, fen, nums in parse_suite(SUITE):
        if depth > len(nums) or (lines and no not in lines):
            continue
        eng.load(parse_fen(fen))
        t = time.perf_counter()
        eng.call("eng_perft", a=depth, limit=PERFT_LIMIT)
        host_root = eng.cpu.carry                 # the lists did not fit the move stack
        if host_root:                             # root ply in the host: count those cycles only
            c0 = eng.cpu.total_cycles
            n = eng._perft_host_root(depth)
            cycles = eng.cpu.total_cycles - c0
        else:
            n = int.from_bytes(bytes(eng.read("perft_count", 4)), "little")
            cycles = eng.cpu.cycles
        rows.append({"line": no, "depth": depth, "leaves": n, "expected": nums[depth - 1],
                     "host_root": host_root,
                     "cycles": cycles, "cycles_per_leaf": round(cycles / n, 1),
                     "leaves_per_nes_second": round(n / (cycles / NES_HZ)),
                     "host_seconds": round(time.perf_counter() - t, 2)})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.rom_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--perft-depth", type=int, default=3)
    ap.add_argument("--lines", help="only these suite lines for perft, e.g. 9,10,13")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)
    eng = RomEngine()
    res = {"moves": measure_moves(eng, middlegame_fens()),
           "perft": measure_perft(eng, args.perft_depth,
                                  {int(x) for x in args.lines.split(",")} if args.lines else None),
           "ram": budget_rows()}
    m = res["moves"]
    print(f"middlegames ({m['positions']} positions, {m['pseudo_legal_moves_per_position']} pseudo-legal moves each)")
    print(f"  eng_gen            {m['gen_cycles_per_move']:>8} cycles per generated move "
          f"({m['gen_cycles_per_position']} per position)")
    print(f"  eng_gen_captures   {m['gen_captures_cycles_per_position']:>8} cycles per position "
          f"({m['captures_per_position']} captures)")
    print(f"  eng_load           {m['load_cycles_mean']:>8} cycles per position")
    print(f"  legal list         {m['legal_list_cycles_per_legal_move']:>8} cycles per legal move")
    print(f"  eng_make           {m['make_quiet_mean']:>8} quiet, {m['make_capture_mean']} capture, max {m['make_max']}")
    print(f"  eng_unmake         {m['unmake_quiet_mean']:>8} quiet, {m['unmake_capture_mean']} capture, max {m['unmake_max']}")
    print(f"  eng_in_check       {m['in_check_mean']:>8} mean, max {m['in_check_max']}")
    print(f"  eng_is_legal       {m['is_legal_after_make_mean']:>8} mean after make, max {m['is_legal_after_make_max']}"
          f" ({m['is_legal_unknown_check_mean']} when the check state is not known)")
    print(f"  eng_gives_check    {m['gives_check_mean']:>8} mean after a make below the root, "
          f"max {m['gives_check_max']}")
    print(f"  eng_quiet_safe     {m['quiet_safe_clear_mean']:>8} mean when the move touches neither king, "
          f"{m['quiet_safe_touch_mean']} when it does, max {m['quiet_safe_max']}")
    print(f"perft depth {args.perft_depth} (leaves per NES second at {NES_HZ / 1e6:.6f} MHz)")
    total_n = total_c = 0
    for r in res["perft"]:
        ok = "ok" if r["leaves"] == r["expected"] else "WRONG"
        print(f"  line {r['line']:>2}: {r['leaves']:>9} leaves {r['cycles']:>12} cycles "
              f"{r['cycles_per_leaf']:>7} /leaf {r['leaves_per_nes_second']:>6} leaves/s  {ok}"
              + ("  (root ply in the host: the lists overflow the move stack)" if r["host_root"] else ""))
        total_n += r["leaves"]
        total_c += r["cycles"]
    if total_n:
        print(f"  all     : {total_n:>9} leaves {total_c:>12} cycles {total_c / total_n:>7.1f} /leaf "
              f"{total_n / (total_c / NES_HZ):>6.0f} leaves/s")
    print("RAM as built (rom/xiangqi.map.json)")
    for row in res["ram"]:
        print(f"  {row['area']:<16} {row['range']:<12} used {row['used']:>5} of {row['size']:>5}"
              f"  headroom {row['headroom']:>4}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    return 0 if all(r["leaves"] == r["expected"] for r in res["perft"]) else 1


if __name__ == "__main__":
    sys.exit(main())
