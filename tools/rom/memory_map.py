"""The RAM map as built, from the linker's JSON map, and docs/MEMORY.md.

    python -m tools.rom.memory_map            # print docs/MEMORY.md to stdout
    python -m tools.rom.memory_map --write    # (re)write docs/MEMORY.md

Addresses and sizes come from rom/xiangqi.map.json (tools.asm --map, written by
tools/rom/build.py); the purpose of each variable is its comment in
asm/ram.s, the one file that declares all RAM.  A second name for the same
bytes (`alias = variable ; purpose` in ram.s, next to the storage) is listed
under the variable it shares, its size left to its purpose.  tests/test_memory_doc.py
checks that docs/MEMORY.md equals what this module generates, so the
document cannot drift from the build.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tools.rom.files import MAP

ROOT = Path(__file__).resolve().parents[2]
RAM_S = ROOT / "asm" / "ram.s"
DOC = ROOT / "docs" / "MEMORY.md"
RAM_END = 0x0800
UI_ZP = {"nmi_count", "frame_ready", "ppu_ctrl_shadow", "ppu_mask_shadow", "scroll_x", "scroll_y",
         "pad_held", "pad_pressed", "cursor_file", "cursor_rank", "think_frames", "think_secs"}
AREA_NAMES = {"ZEROPAGE": "zero page", "ENGINE_PLY": "engine per ply", "UI_PAGE1": "UI, page 1", "STACK": "hardware stack",
              "OAM": "shadow OAM", "BSS": "UI BSS", "ENGINE_LO": "engine, page 3", "ENGINE_BSS": "engine"}
OWNER = {"ENGINE_PLY": "engine", "UI_PAGE1": "UI", "STACK": "CPU", "OAM": "UI", "BSS": "UI", "ENGINE_LO": "engine",
         "ENGINE_BSS": "engine"}


def load(map_path: Path = MAP) -> dict:
    return json.loads(Path(map_path).read_text())


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


def ram_aliases(ram_s: Path = RAM_S) -> dict[str, list[tuple[str, str]]]:
    """{variable: [(alias, purpose), ...]} from ram.s lines `alias = variable ; purpose`."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in Path(ram_s).read_text().splitlines():
        mt = re.match(r"^(\w+)\s*=\s*(\w+)\s*;?\s*(.*)$", line)
        if mt:
            out.setdefault(mt.group(2), []).append((mt.group(1), mt.group(3).strip()))
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


NOTES = """## How the plan was fitted

The plan for issue 4 was: zero page = locals, UI, piece lists and engine
temporaries; page 1 = engine per-ply data ($0100-$017F) and a 128-byte
stack ($0180-$01FF); $0200 OAM; $0300-$037F UI; $0380-$07FF engine (board
154, move stack 3 x 192, undo 16 x 4, repetition ring 80 x 2 + 10 check
bytes, history 3 x 90).  It does not fit as drawn:

* the UI's BSS is 129 bytes (VRAM queue 64 + its length + attribute
  shadow 64), one more than $0300-$037F;
* the engine's share of $0380-$07FF needs 154 + 576 + 64 + 170 + 270 =
  1,234 bytes of the 1,152 there: **82 bytes over** (83 with the UI's byte).

As built (the table above): `counts`, the undo stack (`undo_*`, 11 x
`ENG_PLIES` = 10: the move, the clock, the check flag and the saved
`eng_score`, `eng_key` and `eng_mterm`) and `ply_first` live in the zero
page (the per-ply arrays and the repetition ring are sized from the levels'
depth + qdepth by tools/rom/gen_tables.py `ply_sizes`, not by the reference's
`MAX_PLY` = 16) (a piece's kind is not stored: with fixed slots it is the ROM
table `code_kind` of its code; perft's two scalars take the last bytes of
pages 1 and 3); the repetition ring is two parallel arrays, `rep_key_lo`
in page 1 (with the killers and the check bits) and `rep_key_hi` in the
rest of page 3 (with the PV); the board starts page $04 so `board,x` /
`board,y` never cross a page.  The whole map is linked, so an overflow is
a link error, and `tools/nes` faults any access outside the
engine's segments.

What is left for the search (next issue) is the headroom column: per-ply
search state (alpha, beta, best score, move index: about 7 x 16 bytes)
does not fit in it and has to go on the hardware stack (about 60 of its
128 bytes are free at 16 plies) or take the place of something: the
cheapest candidates are the 42-byte PV (rebuild it from the killers /
first moves), a 2 x 90 history (rook and cannon share a class), or a
160-entry move stack (-96 bytes; the reference's capacity then changes in
config/search.yaml too).
"""


def render(map_path: Path = MAP) -> str:
    rows = budget_rows(map_path)
    used = sum(r["used"] for r in rows)
    total = sum(r["size"] for r in rows)
    zp = [v for v in variables(map_path) if v["segment"] == "ZEROPAGE"]
    eng_bytes = sum(v["size"] for v in variables(map_path) if v["owner"] == "engine")
    ui_bytes = sum(v["size"] for v in variables(map_path) if v["owner"] == "UI")
    lines = [
        "# RAM map (as built)",
        "",
        "Generated by `python -m tools.rom.memory_map --write` from the linker map",
        "`rom/xiangqi.map.json` and the comments of `asm/ram.s` (the one file that declares",
        "all RAM); `tests/test_memory_doc.py` fails when this file and the build differ.",
        "The NES has 2,048 bytes of RAM and the cartridge (NROM) adds none.",
        "",
        "## Budget",
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
        for name, purpose in aliases.get(v["name"], []):
            lines.append(f"| ${v['address']:04X} | | `{name}` = `{v['name']}` | {v['owner']} | {purpose} |")
    del zp
    return "\n".join(lines) + "\n\n" + NOTES


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--write" in argv:
        DOC.write_text(text)
        print(f"wrote {DOC.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
