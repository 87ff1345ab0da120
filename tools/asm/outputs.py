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
from .config import MemArea, SegDef
from .linker import LabelInfo, LinkResult

RAM_TOTAL = 2048  # the NES's internal RAM, $0000-$07FF
FCEUX_BANK = 0x4000  # FCEUX names PRG label files by 16 KiB chunk of PRG ROM (getBank)


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


def check_output_paths(outputs: list[tuple[str, str]]) -> None:
    """Refuse, before any work, outputs (path, what it is) that cannot all be
    written: two that are the same file (a listing would overwrite the
    binary), a directory, or a path under something that is not a directory."""
    seen: dict[str, str] = {}
    for path, what in outputs:
        real = os.path.realpath(path)
        if real in seen:
            raise AsmError(f"'{path}' is named for two outputs: {seen[real]} and {what}")
        seen[real] = what
        if os.path.isdir(path):
            raise AsmError(f"cannot write '{path}': it is a directory")
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            why = "no such directory" if not os.path.exists(parent) else "not a directory"
            raise AsmError(f"cannot write '{path}': {parent}: {why}")


def write_all_atomic(files: list[tuple[str, bytes | str]]) -> None:
    """Write every file to a temp file first, then rename them all into place.

    If any write fails, every temp file is removed and no output is touched,
    so a failed build never leaves a partial or mixed set of outputs (the
    targets are checked first, check_output_paths, so no rename fails
    half-way).  Raises AsmError naming the file.
    """
    check_output_paths([(path, f"output {i + 1}") for i, (path, _) in enumerate(files)])
    umask = os.umask(0)
    os.umask(umask)
    temps: list[tuple[str, str]] = []
    try:
        for path, data in files:
            d = os.path.dirname(os.path.abspath(path))
            try:
                fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
                temps.append((tmp, path))
                os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
                with os.fdopen(fd, "wb") as f:
                    f.write(data.encode("utf-8") if isinstance(data, str) else data)
            except OSError as e:
                raise AsmError(f"cannot write '{path}': {e.strerror}") from None
        for tmp, path in temps:
            try:
                os.replace(tmp, path)
            except OSError as e:
                raise AsmError(f"cannot write '{path}': {e.strerror}") from None
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


def prg_offsets(res: LinkResult) -> dict[str, int]:
    """Offset in PRG ROM of every PRG area: the output bytes of the PRG areas before it.

    With one 16 KiB area per bank in bank order (UxROM), bank N starts at N*$4000.
    """
    out: dict[str, int] = {}
    off = 0
    for m in res.config.memory:
        if classify(m) == "prg":
            out[m.name] = off
            off += m.file_size
    return out


def _prg_offset(res: LinkResult, lab: LabelInfo, offsets: dict[str, int]) -> int | None:
    """A label's offset in PRG ROM, or None if it is not in PRG ROM."""
    if lab.memory not in offsets:
        return None
    m = res.memory_of(lab.memory)
    off = lab.address - m.start
    return offsets[m.name] + off if 0 <= off < m.file_size else None


def fceux_labels(res: LinkResult) -> dict[str, str]:
    """FCEUX .nl files: ``{"ram": text, "0": text, "1": text, ...}`` ($ADDR#name# lines).

    FCEUX loads ``ROM.nes.ram.nl`` for addresses below $8000 and, for a CPU
    address in $8000-$FFFF, ``ROM.nes.N.nl`` where N (upper-case hex) is the
    16 KiB chunk of PRG ROM mapped there: (file offset - 16) / $4000.  So the
    key of a PRG label is its PRG ROM offset // $4000, and there is one file
    per 16 KiB of PRG ROM (empty ones too).
    """
    offsets = prg_offsets(res)
    prg_size = sum(res.memory_of(n).file_size for n in offsets)
    files: dict[str, list[str]] = {"ram": []}
    for bank in range((prg_size + FCEUX_BANK - 1) // FCEUX_BANK):
        files[f"{bank:X}"] = []
    for lab in sorted(res.labels, key=lambda l: (l.address, l.name)):
        if lab.memory not in offsets:
            if lab.memory and classify(res.memory_of(lab.memory)) == "ram" and lab.address < 0x800:
                files["ram"].append(f"${lab.address:04X}#{_label_name(lab.name)}#")
            continue
        off = _prg_offset(res, lab, offsets)
        if off is not None and 0x8000 <= lab.address <= 0xFFFF:
            files[f"{off // FCEUX_BANK:X}"].append(f"${lab.address:04X}#{_label_name(lab.name)}#")
    return {k: "".join(x + "\n" for x in v) for k, v in files.items()}


def mesen_labels(res: LinkResult) -> str:
    """Mesen 2 .mlb: ``NesPrgRom:OFFSET:name`` (offset into PRG ROM) / ``NesInternalRam:ADDR:name``."""
    offsets = prg_offsets(res)
    out = []
    for lab in sorted(res.labels, key=lambda l: (l.address, l.name)):
        if not lab.memory:
            continue
        name = _label_name(lab.name)
        if lab.memory in offsets:
            off = _prg_offset(res, lab, offsets)
            if off is not None:
                out.append(f"NesPrgRom:{off:X}:{name}")
        elif classify(res.memory_of(lab.memory)) == "ram" and lab.address < 0x800:
            out.append(f"NesInternalRam:{lab.address:X}:{name}")
    return "".join(x + "\n" for x in out)


def map_json(res: LinkResult) -> str:
    """The JSON map (the contract with the drivers; stable key order).

    segments: run/load area, addresses, size, and the run area's ``bank``;
    memory: start, size, fill level, kind, whether written, ``bank`` (the
    config's ``bank`` attribute or null), ``file_offset`` (offset in the
    output file, null when not written), ``prg_offset`` (offset in PRG ROM,
    null for other kinds) and the segments that run there; exports; labels
    {name: address}; label_banks {name: bank} for labels in banked areas.
    """
    offsets = prg_offsets(res)
    segs = {}
    for s in res.config.segments:
        segs[s.name] = {"memory": s.run, "load_memory": s.load, "type": s.type,
                        "start": s.run_addr, "load": s.load_addr, "size": s.size,
                        "used": s.size, "present": bool(s.sections),
                        "bank": res.memory_of(s.run).bank_value}
    mems = {}
    for m in res.config.memory:
        mems[m.name] = {"start": m.start, "size": m.size, "used": m.used,
                        "free": m.size - m.used, "kind": classify(m),
                        "in_output": m.file is not None, "bank": m.bank_value,
                        "file_offset": m.file_offset if m.file is not None else None,
                        "prg_offset": offsets.get(m.name),
                        "segments": [s.name for s in res.config.segments if s.run == m.name]}
    labels = sorted(res.labels, key=lambda l: l.name)
    doc = {"segments": segs, "memory": mems,
           "exports": {k: res.exports[k] for k in sorted(res.exports)},
           "labels": {_label_name(l.name): l.address for l in labels},
           "label_banks": {_label_name(l.name): l.bank for l in labels if l.bank is not None}}
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def memory_report(res: LinkResult) -> str:
    """Short summary: RAM by segment, PRG per area (bank) with used/free and segments, CHR, header.

    ROM bytes are counted where segments are loaded (a DATA segment loaded
    into PRG and run in RAM counts for both), RAM where they run.
    """
    mems = res.config.memory
    kinds = {m.name: classify(m) for m in mems}

    def segs_in(m: MemArea) -> list[SegDef]:
        rom = kinds[m.name] in ("prg", "chr", "header")
        return [s for s in res.config.segments if (s.load if rom else s.run) == m.name]

    def used(m: MemArea) -> int:
        return sum(s.size for s in segs_in(m))

    def listed(m: MemArea) -> str:
        return ", ".join(f"{s.name} {s.size:,}" for s in segs_in(m) if s.sections)

    ram = [m for m in mems if kinds[m.name] == "ram"]
    prg = [m for m in mems if kinds[m.name] == "prg"]
    chr_ = [m for m in mems if kinds[m.name] == "chr"]
    hdr = [m for m in mems if kinds[m.name] == "header"]
    ram_used = sum(used(m) for m in ram)
    prg_used, prg_size = sum(used(m) for m in prg), sum(m.size for m in prg)
    w = max(len(f"{n:,}") for n in (RAM_TOTAL, prg_size, sum(m.size for m in chr_), 1))
    ram_list = ", ".join(x for x in (listed(m) for m in ram) if x)
    lines = [f"RAM:    {ram_used:>{w},} of {RAM_TOTAL:>{w},} bytes" + (f" ({ram_list})" if ram_list else "")]
    banks = [m for m in prg if m.bank_value is not None]
    lines.append(f"PRG:    {prg_used:>{w},} of {prg_size:>{w},} bytes, {prg_size - prg_used:,} free"
                 + (f", {len(banks)} banks" if banks else ""))
    name_w = max((len(m.name) for m in prg), default=0)
    for m in prg:
        tag = f"bank {m.bank_value:<3}" if m.bank_value is not None else ""
        u = used(m)
        line = (f"  {tag:<{8 if banks else 0}}{m.name:<{name_w}}  {u:>{w},} used {m.size - u:>{w},} free"
                f"  {listed(m)}")
        lines.append(line.rstrip())
    if chr_:
        chr_list = ", ".join(x for x in (listed(m) for m in chr_) if x)
        lines.append(f"CHR:    {sum(used(m) for m in chr_):>{w},} of {sum(m.size for m in chr_):>{w},} "
                     f"bytes" + (f" ({chr_list})" if chr_list else ""))
    else:
        lines.append("CHR:    none (no CHR area in the config: CHR RAM)")
    if hdr:
        lines.append(f"Header: {sum(m.file_size for m in hdr):>{w},} bytes ("
                     + ", ".join(m.name for m in hdr) + ")")
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
