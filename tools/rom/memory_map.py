"""The memory map as built (PRG banks and RAM), from the linker's JSON map, and docs/MEMORY.md.

    python -m tools.rom.memory_map            # print docs/MEMORY.md to stdout
    python -m tools.rom.memory_map --write    # (re)write docs/MEMORY.md

Addresses and sizes come from rom/xiangqi.map.json (tools.asm --map, written by
tools/rom/build.py); what each PRG bank is for is the bank's line in the
comment of asm/xiangqi.cfg; the purpose of each variable is its comment in
asm/ram.s, the one file that declares all RAM.  A second name for the same
bytes (`alias = variable ; purpose` in ram.s, next to the storage) is listed
under the variable it shares, its size left to its purpose.  tests/test_memory_doc.py
checks that docs/MEMORY.md equals what this module generates, so the
document cannot drift from the build.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from tools.atomic import write_atomic
from tools.nes.linkmap import LinkMapError
from tools.rom.files import MAP

ROOT = Path(__file__).resolve().parents[2]
RAM_S = ROOT / "asm" / "ram.s"
CFG = ROOT / "asm" / "xiangqi.cfg"
DOC = ROOT / "docs" / "MEMORY.md"
RAM_END = 0x0800
UI_ZP = {"nmi_count", "frame_ready", "ppu_ctrl_shadow", "ppu_mask_shadow", "scroll_x", "scroll_y",
         "pad_held", "pad_pressed", "cursor_file", "cursor_rank", "think_frames", "think_secs"}
AREA_NAMES = {"ZEROPAGE": "zero page", "ENGINE_PLY": "engine per ply", "UI_PAGE1": "UI, page 1", "STACK": "hardware stack",
              "OAM": "shadow OAM", "BSS": "UI BSS", "ENGINE_LO": "engine, page 3", "ENGINE_BSS": "engine"}
OWNER = {"ENGINE_PLY": "engine", "UI_PAGE1": "UI", "STACK": "CPU", "OAM": "UI", "BSS": "UI", "ENGINE_LO": "engine",
         "ENGINE_BSS": "engine"}


def load(map_path: Path = MAP) -> dict:
    """The linker's JSON map.  Raises LinkMapError naming the file."""
    try:
        m = json.loads(Path(map_path).read_bytes())
    except FileNotFoundError:
        raise LinkMapError(f"{map_path}: no linker map (build the ROM first: make rom)") from None
    except OSError as exc:
        raise LinkMapError(f"{map_path}: cannot read the linker map: {exc.strerror}") from None
    except (ValueError, RecursionError) as exc:
        raise LinkMapError(f"{map_path}: not a linker map: not JSON ({exc})") from None
    if not isinstance(m, dict):
        raise LinkMapError(f"{map_path}: not a linker map (not a JSON object)")
    return m


def ram_segments(m: dict) -> list[tuple[str, dict]]:
    segs = [(n, s) for n, s in m["segments"].items()
            if s["start"] < RAM_END and not m["memory"][s["memory"]]["in_output"]]
    return sorted(segs, key=lambda x: x[1]["start"])


def budget_rows(map_path: Path = MAP) -> list[dict]:
    """One row per RAM segment: range, used, size (up to the next segment or
    the end of its memory area), headroom."""
    m = load(map_path)
    segs = ram_segments(m)
    rows = []
    for i, (name, s) in enumerate(segs):
        mem = m["memory"][s["memory"]]
        end_area = mem["start"] + mem["size"]
        nxt = [t["start"] for _, t in segs[i + 1:] if t["memory"] == s["memory"]]
        limit = min(nxt) if nxt else end_area
        size = limit - s["start"]
        rows.append({"segment": name, "area": AREA_NAMES.get(name, name),
                     "range": f"${s['start']:04X}-${limit - 1:04X}", "used": s["size"], "size": size,
                     "headroom": size - s["size"]})
    return rows


def ram_comments(ram_s: Path = RAM_S) -> dict[str, str]:
    out = {}
    for line in Path(ram_s).read_text().splitlines():
        mt = re.match(r"^(\w+):\s+\.res\s+[^;]*;?\s*(.*)$", line)
        if mt:
            out[mt.group(1)] = mt.group(2).strip()
    return out


def ram_aliases(ram_s: Path = RAM_S) -> dict[str, list[tuple[str, int, str]]]:
    """{variable: [(alias, offset, purpose), ...]} from ram.s lines
    `alias = variable ; purpose` or `alias = variable + offset ; purpose`
    (a decimal offset: scratch that shares the tail of a bigger array)."""
    out: dict[str, list[tuple[str, int, str]]] = {}
    for line in Path(ram_s).read_text().splitlines():
        mt = re.match(r"^(\w+)\s*=\s*(\w+)(?:\s*\+\s*(\d+))?\s*;?\s*(.*)$", line)
        if mt:
            out.setdefault(mt.group(2), []).append(
                (mt.group(1), int(mt.group(3) or 0), mt.group(4).strip()))
    return out


def variables(map_path: Path = MAP) -> list[dict]:
    """Every RAM label: address, size (to the next label or its segment's end), segment, owner."""
    m = load(map_path)
    comments = ram_comments()
    segs = ram_segments(m)
    labels = sorted((a, n) for n, a in m["labels"].items() if a < RAM_END and "__" not in n)
    out = []
    for name, s in segs:
        lo, hi = s["start"], s["start"] + s["size"]
        inside = [(a, n) for a, n in labels if lo <= a < hi]
        for j, (a, n) in enumerate(inside):
            end = inside[j + 1][0] if j + 1 < len(inside) else hi
            if name == "ZEROPAGE":
                owner = "scratch (LOCAL-16)" if n == "local" else ("UI" if n in UI_ZP else "engine")
            else:
                owner = OWNER.get(name, "?")
            out.append({"name": n, "address": a, "size": end - a, "segment": name, "owner": owner,
                        "purpose": comments.get(n, "")})
    return out


NOTES = """## How the RAM is laid out

* The zero page holds the 16 locals, the UI's per-frame variables and the
  engine's hot state: the position (`piece_sq`, `counts`, side, clock, key,
  score), the undo entries of each ply made (`ENG_PLIES` of each), the
  search's alpha and move index per ply and `ply_first`.
* Page 1 starts with the engine's per-ply data (`s_killers`, `s_flags`, the
  search's scalars, `rep_key_lo`, the PV, the futility lows),
  then the UI's game record, sound and screen variables and `bank_cur`; its
  last 64 bytes are the hardware stack.  The engine, called at the main
  loop's depth, stays above `ENGINE_STACK_FLOOR`; the 16 bytes below it are
  the main loop's far call into the engine's bank and the NMI's.
* Page 2 is the shadow OAM (OAM DMA needs a whole page), and during the
  engine's calls its move keys (`ms_key`): the NMI copies the page only in
  a frame the main loop completed (`frame_ready`), after the sprites are
  built; the board screens draw every sprite again each frame and every
  screen clears the page when it is drawn, so the keys a call leaves are
  never shown (the PPU keeps its OAM meanwhile: rendering refreshes it).
* Page 3 holds the VRAM queue and the attribute shadow, then the engine's
  `rep_key_hi`, `rep_info` (the ring's check bits and each ply's
  destination).
* Pages 4 and 5 hold the move stack's moves (`ms_from`, `ms_to`, each
  starting its page, so `ms_from,x` never crosses one); page 6 the history
  table (its three rows start there, so a row's pointer has one high
  byte); page 7, after the table's last bytes, the search's per-ply bytes,
  node counter and LFSR, the board (so that `board+d,y` never crosses a
  page), the search's result, the evaluation's weights and the futility
  highs.
* The per-ply arrays and the repetition ring are sized from the levels'
  depth + quiescence depth (tools/rom/gen_tables.py `ply_sizes`), so a
  deeper level grows them at the next build; one they no longer fit is
  refused at its line of config/difficulty.yaml (the build links the ROM
  in memory first), and `tools/nes` faults any engine access outside the
  engine's segments.
* A piece's kind is not stored: every kind has fixed slots, so it is the ROM
  table `code_kind` of the piece's code.
"""


def bank_roles(cfg: Path = CFG) -> dict[int, str]:
    """{bank: what it holds} from the comment of the linker config, whose
    lines `#   bank N  NAME  what it holds` (continued on lines indented
    past the name) describe each PRG bank; `bank 3-6` covers a range."""
    roles: dict[int, str] = {}
    current: list[int] = []
    for line in Path(cfg).read_text().splitlines():
        m = re.match(r"^#\s+bank (\d+)(?:-(\d+))?\s+(?:([A-Z]+)\s+)?(.*)$", line)
        if m:
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            current = list(range(first, last + 1))
            for n in current:
                roles[n] = (f"{m.group(3)}: " if m.group(3) else "") + m.group(4).strip()
        elif current and re.match(r"^#\s{10,}\S", line):
            for n in current:
                roles[n] += " " + line.lstrip("#").strip()
        else:
            current = []
    return roles


def bank_rows(map_path: Path = MAP) -> list[dict]:
    """One row per PRG bank (memory areas with a `bank` attribute)."""
    m = load(map_path)
    roles = bank_roles()
    rows = []
    for name, mem in m["memory"].items():
        if mem.get("bank") is None or mem["kind"] != "prg":
            continue
        sizes = {s: m["segments"][s]["size"] for s in mem.get("segments", []) if m["segments"][s]["size"]}
        used = sum(sizes.values())      # bytes that hold something (a segment placed at a fixed
        rows.append({"bank": mem["bank"], "area": name,   # address leaves a gap before it)
                     "range": f"${mem['start']:04X}-${mem['start'] + mem['size'] - 1:04X}",
                     "used": used, "free": mem["size"] - used,
                     "segments": ", ".join(f"`{s}` {n:,}" for s, n in sizes.items()) or "-",
                     "role": roles.get(mem["bank"], "")})
    return sorted(rows, key=lambda r: r["bank"])


def render(map_path: Path = MAP) -> str:
    rows = budget_rows(map_path)
    used = sum(r["used"] for r in rows)
    total = sum(r["size"] for r in rows)
    eng_bytes = sum(v["size"] for v in variables(map_path) if v["owner"] == "engine")
    ui_bytes = sum(v["size"] for v in variables(map_path) if v["owner"] == "UI")
    banks = bank_rows(map_path)
    lines = [
        "# Memory map (as built)",
        "",
        "Generated by `python -m tools.rom.memory_map --write` from the linker map",
        "`rom/xiangqi.map.json`, the comment of `asm/xiangqi.cfg` (what each bank holds) and",
        "the comments of `asm/ram.s` (the one file that declares all RAM);",
        "`tests/test_memory_doc.py` fails when this file and the build differ.",
        "",
        "## PRG ROM: UxROM banks",
        "",
        f"{len(banks)} banks of 16 KiB: banks 0-{len(banks) - 2} are switched into $8000-$BFFF, "
        f"bank {len(banks) - 1} is always at $C000-$FFFF.",
        f"Used {sum(r['used'] for r in banks):,} bytes, free {sum(r['free'] for r in banks):,}.",
        "",
        "| bank | at | what it holds | used | free | segments |",
        "|---:|---|---|---:|---:|---|",
    ]
    for r in banks:
        lines.append(f"| {r['bank']} | {r['range']} | {r['role']} | {r['used']:,} | {r['free']:,} | {r['segments']} |")
    lines += [
        "",
        "Who switches (asm/system/bank.s): only the main loop, through `far_call` (or",
        "`SWITCH_BANK_OF` in fixed-bank code); `bank_cur` names the mapped bank.  The NMI",
        "never switches and never reads $8000-$BFFF (its code and data are in the fixed",
        "bank; emu_tests/test_banks.py runs it with the window unreadable).  A whole",
        "search is one far call into the engine's bank; inside it only two fixed-bank",
        "probes switch, each mapping its data's bank for a few reads and the engine's",
        "bank back: the opening book's at the root and the horse bitbases' in the",
        "evaluation (asm/engine/eng_bitbase.s: KH vs KE in bank 2, KH vs KAA in bank 6).",
        "",
        "## RAM budget",
        "",
        "The NES has 2,048 bytes of RAM and the cartridge adds none.",
        "",
        "| area | range | used | size | headroom |",
        "|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['area']} (`{r['segment']}`) | {r['range']} | {r['used']} | {r['size']} | {r['headroom']} |")
    stack, floor = load(map_path)["segments"]["STACK"], load(map_path)["exports"]["ENGINE_STACK_FLOOR"]
    lines += [f"| **total** | $0000-$07FF | {used} | {total} | {total - used} |", "",
              f"Engine-owned bytes: {eng_bytes}; UI-owned: {ui_bytes}; the stack takes {stack['size']} "
              f"(${stack['start']:04X}-${stack['start'] + stack['size'] - 1:04X}; the engine alone stays above "
              f"${floor:04X}, checked by tools/nes) and the 16 locals are shared scratch.", "",
              "## Variables", "",
              "| address | size | name | owner | purpose |", "|---|---:|---|---|---|"]
    aliases = ram_aliases()
    rows = variables(map_path)
    unknown = sorted(set(aliases) - {v["name"] for v in rows})
    if unknown:
        raise ValueError(f"{RAM_S}: an alias names {', '.join(unknown)}, which is not a RAM label of the build")
    for v in rows:
        lines.append(f"| ${v['address']:04X} | {v['size']} | `{v['name']}` | {v['owner']} | {v['purpose']} |")
        for name, offset, purpose in aliases.get(v["name"], []):
            target = f"`{v['name']}`" + (f" + {offset}" if offset else "")
            lines.append(f"| ${v['address'] + offset:04X} | | `{name}` = {target} | {v['owner']} | {purpose} |")
    return "\n".join(lines) + "\n\n" + NOTES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.rom.memory_map",
                                 description="docs/MEMORY.md from the linker map of the last build")
    ap.add_argument("--write", action="store_true", help="(re)write docs/MEMORY.md instead of printing it")
    args = ap.parse_args(argv)
    try:
        text = render()
    except LinkMapError as exc:
        print(f"memory_map.py: error: {exc}", file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError) as exc:
        print(f"memory_map.py: error: {MAP}: not the map of this build ({type(exc).__name__}: {exc})",
              file=sys.stderr)
        return 1
    if args.write:
        write_atomic(DOC, text.encode("utf-8"))
        print(f"wrote {DOC.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
