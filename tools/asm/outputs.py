"""Side outputs of a link: listing, FCEUX/Mesen label files, JSON map, memory report.

Memory areas are classified for the report and the label files by their
linker config, never by guesswork on symbol names:

* not written to the output (``file = ""``) and starting below $2000 -> RAM;
* written, name contains ``CHR`` -> CHR ROM;
* written, name starts with ``HEADER``/``HDR`` -> iNES header (not counted);
* any other written area -> PRG ROM.
"""
from __future__ import annotations

import json
import os
import re
import tempfile

from .errors import AsmError
from .linker import LinkResult, MemArea

RAM_TOTAL = 2048
PRG_TOTAL = 32768
CHR_TOTAL = 8192


def classify(m: MemArea) -> str:
    """'ram', 'chr', 'header', 'prg' or 'other' (see module docstring)."""
    if m.file is None:
        return "ram" if m.start < 0x2000 else "other"
    up = m.name.upper()
    if "CHR" in up:
        return "chr"
    if up.startswith("HEADER") or up.startswith("HDR"):
        return "header"
    return "prg"


def write_all_atomic(files: list[tuple[str, bytes | str]]) -> None:
    """Write every file to a temp file first, then rename them all into place.

    If any write fails, every temp file is removed and no output is touched,
    so a failed build never leaves a partial or mixed set of outputs.
    """
    umask = os.umask(0)
    os.umask(umask)
    temps: list[tuple[str, str]] = []
    try:
        for path, data in files:
            d = os.path.dirname(os.path.abspath(path))
            try:
                fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
            except OSError as e:
                raise AsmError(f"cannot write '{path}': {e.strerror}") from None
            temps.append((tmp, path))
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
            with os.fdopen(fd, "wb") as f:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
        for tmp, path in temps:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise


def write_atomic(path: str, data: bytes | str) -> None:
    """Write one file via a temp file + os.replace (never a partial file)."""
    write_all_atomic([(path, data)])


def _label_name(qualified: str) -> str:
    """Debugger-friendly name: ``proc::label`` -> ``proc__label`` (Mesen allows [A-Za-z0-9_@])."""
    return re.sub(r"[^A-Za-z0-9_@]", "_", qualified.replace("::", "__"))


def _seg_memory(res: LinkResult) -> dict[str, MemArea]:
    mems = {m.name: m for m in res.config.memory}
    return {s.name: mems[s.run] for s in res.config.segments}


def fceux_labels(res: LinkResult) -> dict[str, str]:
    """FCEUX .nl files: ``{"ram": text, "0": text, "1": text}`` ($ADDR#name#comment lines)."""
    files: dict[str, list[str]] = {"ram": [], "0": [], "1": []}
    segmem = _seg_memory(res)
    for lab in sorted(res.labels, key=lambda l: (l.address, l.name)):
        m = segmem.get(lab.segment)
        kind = classify(m) if m else "other"
        line = f"${lab.address:04X}#{_label_name(lab.name)}#"
        if kind == "ram" and lab.address < 0x800:
            files["ram"].append(line)
        elif kind == "prg" and 0x8000 <= lab.address <= 0xBFFF:
            files["0"].append(line)
        elif kind == "prg" and 0xC000 <= lab.address <= 0xFFFF:
            files["1"].append(line)
    return {k: "".join(x + "\n" for x in v) for k, v in files.items()}


def mesen_labels(res: LinkResult) -> str:
    """Mesen 2 .mlb: ``NesPrgRom:OFFSET:name`` (offset into PRG ROM) / ``NesInternalRam:ADDR:name``."""
    prg_offset: dict[str, int] = {}
    off = 0
    for m in res.config.memory:
        if classify(m) == "prg":
            prg_offset[m.name] = off
            off += m.size
    segmem = _seg_memory(res)
    out = []
    for lab in sorted(res.labels, key=lambda l: (l.address, l.name)):
        m = segmem.get(lab.segment)
        if m is None:
            continue
        kind = classify(m)
        name = _label_name(lab.name)
        if kind == "ram" and lab.address < 0x800:
            out.append(f"NesInternalRam:{lab.address:X}:{name}")
        elif kind == "prg":
            out.append(f"NesPrgRom:{prg_offset[m.name] + lab.address - m.start:X}:{name}")
    return "".join(x + "\n" for x in out)


def map_json(res: LinkResult) -> str:
    """The JSON map: segments, memory areas, exported symbols (stable key order)."""
    segs = {}
    for s in res.config.segments:
        segs[s.name] = {"memory": s.run, "load_memory": s.load, "type": s.type,
                        "start": s.run_addr, "load": s.load_addr, "size": s.size,
                        "used": s.size, "present": bool(s.sections)}
    mems = {}
    for m in res.config.memory:
        mems[m.name] = {"start": m.start, "size": m.size, "used": m.used,
                        "free": m.size - m.used, "kind": classify(m),
                        "in_output": m.file is not None}
    doc = {"segments": segs, "memory": mems,
           "exports": {k: res.exports[k] for k in sorted(res.exports)},
           "labels": {_label_name(l.name): l.address for l in sorted(res.labels, key=lambda l: l.name)}}
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def memory_report(res: LinkResult) -> str:
    """Short human summary: RAM of 2,048 (by segment), PRG of 32,768, CHR of 8,192."""
    mems = {m.name: m for m in res.config.memory}
    used = {"ram": 0, "prg": 0, "chr": 0}
    ram_segs: list[str] = []
    for s in res.config.segments:
        m = mems[s.run]
        kind = classify(m)
        if kind in used:
            used[kind] += s.size
        if kind == "ram" and s.sections:
            ram_segs.append(f"{s.name} {s.size}")
    lines = [
        f"RAM: {used['ram']:>6,} of {RAM_TOTAL:,} bytes" + (f" ({', '.join(ram_segs)})" if ram_segs else ""),
        f"PRG: {used['prg']:>6,} of {PRG_TOTAL:,} bytes",
        f"CHR: {used['chr']:>6,} of {CHR_TOTAL:,} bytes",
    ]
    return "\n".join(lines) + "\n"


def listing(res: LinkResult) -> str:
    """Listing: address, final bytes and source text of every line, per object file."""
    out: list[str] = []
    for obj in res.objects:
        out.append(f"; ---- {obj.name}\n")
        for ll in obj.listing:
            sec = ll.section
            if sec is not None and sec.base is not None:
                addr = f"{sec.base + ll.offset:04X}"
                data = sec.data[ll.offset:ll.offset + ll.size]
            else:
                addr, data = "    ", b""
            hexes = [f"{b:02X}" for b in data[:12]]
            first, rest = hexes[:4], hexes[4:]
            out.append(f"{addr}  {' '.join(first):<11}  {ll.file}:{ll.line:<5} {ll.text}\n")
            a = (sec.base + ll.offset + 4) if sec is not None and sec.base is not None else 0
            while rest:  # at most 12 bytes per source line are shown
                more = " ..." if len(rest) <= 4 and len(data) > 12 else ""
                out.append(f"{a:04X}  {' '.join(rest[:4])}{more}\n")
                rest = rest[4:]
                a += 4
    return "".join(out)
