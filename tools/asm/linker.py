"""The ld65 part: place segments, resolve symbols and ``.bank()``, write bytes.

The config is read by ``config.py``.  Placement follows ld65: memory areas
are processed in MEMORY order, the segments of each area in SEGMENTS order;
within a segment the sections of the objects are concatenated in
command-line order, each one aligned relative to the segment start (ld65
computes section padding from the segment offset).  Gaps between segments
are filled with the memory area's ``fillval``; alignment padding inside a
segment and ``.res`` without a fill value with the segment's fill byte (its
``fillval``, else its load area's).  ``.bank(label)`` is the ``bank``
attribute of the memory area the label's segment runs in.
"""
from __future__ import annotations

from dataclasses import dataclass

from .config import MAX_OUTPUT_BYTES, Config, MemArea, SegDef, eval_cfg, parse_config
from .errors import AreaOverflow, AsmError, Pos
from .expr import NotConst, Unknown, evaluate
from .objects import ObjectFile, Section, Symbol


# ------------------------------------------------------------------ linking


@dataclass
class LabelInfo:
    """A label with its final address, for the debugger label files."""

    name: str
    address: int
    segment: str
    memory: str  # the run memory area
    bank: int | None = None  # that area's ``bank`` attribute


@dataclass
class LinkResult:
    """Everything the outputs need: the image plus where everything went."""

    image: bytes
    config: Config
    objects: list[ObjectFile]
    exports: dict[str, int]
    labels: list[LabelInfo]
    messages: list[str]

    def memory_of(self, name: str) -> MemArea:
        return self.config.area(name)


class BankError(AsmError):
    """``.bank()`` of something ld65 cannot take a bank of.

    A fixup with such a ``.bank()`` is an error; an ``.assert`` is only a
    warning ("cannot evaluate assertion"), as in ld65.
    """


class _LinkEnv:
    """Evaluation environment of the linker: every value is final."""

    def __init__(self, exports: dict[str, object], config: Config):
        self.exports = exports
        self.mems = {m.name: m for m in config.memory}
        self.seg_of = {id(sec): s for s in config.segments for sec in s.sections}
        self.seg_named = {s.name: s for s in config.segments}

    def sym(self, s: Symbol):
        s = s.real()
        if s.kind == "label":
            return s.section.base + s.offset  # type: ignore[union-attr,operator]
        if s.kind == "const":
            if s.busy:
                raise AsmError(f"circular reference in definition of '{s.name}'", s.def_pos)
            s.busy = True
            try:
                return evaluate(s.expr, self, s.def_pos)  # type: ignore[arg-type]
            finally:
                s.busy = False
        if s.kind == "import":
            target = self.exports.get(s.name)
            if target is None:
                raise AsmError(f"unresolved external symbol '{s.name}'", s.def_pos)
            if isinstance(target, int):
                return target
            return self.sym(target)  # type: ignore[arg-type]
        raise AsmError(f"undefined symbol '{s.name}'", s.ref_pos)

    def loc(self, section: Section, offset: int):
        return section.base + offset  # type: ignore[operator]

    # .bank(): ld65 (GetSegExprVal) takes the bank of the one segment the
    # argument refers to.  The argument, as ca65 writes it into the object,
    # may only add and subtract constants to a single label: two labels (even
    # ``a - b + a``), a unary minus, ``<``, ``*`` ... make it "too complex".
    def bank(self, node: tuple, pos: Pos | None) -> int:
        refs: list[Section] = []
        if not self._refs(node, refs) or len(refs) != 1:
            raise BankError(".bank() needs one label (or '*'), plus or minus constants: its argument "
                            "is not segment relative or too complex (ld65 rejects it too)", pos)
        sec = refs[0]
        # (an empty CODE section is not in the object, but ld65 still places CODE)
        seg = self.seg_of.get(id(sec)) or self.seg_named.get(sec.name)
        if seg is None:
            raise BankError(f".bank(): segment '{sec.name}' is not placed in a memory area", pos)
        m = self.mems[seg.run]
        if m.bank_value is None:
            raise BankError(f".bank(): memory area '{m.name}' (of segment '{seg.name}', defined at "
                            f"{m.pos}) has no 'bank' attribute", pos)
        return m.bank_value

    def _refs(self, node: tuple, refs: list[Section]) -> bool:
        k = node[0]
        if k == "num":
            return True
        if k == "loc":
            refs.append(node[1])
            return True
        if k == "sym":
            return self._sym_refs(node[1], refs)
        if k == "bin" and node[1] in ("+", "-"):
            return self._refs(node[2], refs) and self._refs(node[3], refs)
        return False  # any other operator (ca65 has folded what it could)

    def _sym_refs(self, s: Symbol, refs: list[Section]) -> bool:
        r = s.real()
        if r.kind == "label":
            refs.append(r.section)  # type: ignore[arg-type]
            return True
        if r.kind == "const":
            return self._guarded(r, lambda: self._refs(r.expr, refs))  # type: ignore[arg-type]
        target = self.exports.get(r.name) if r.kind == "import" else None
        if isinstance(target, Symbol):
            return self._sym_refs(target, refs)
        return isinstance(target, int)  # a config or linker-made constant: no segment

    @staticmethod
    def _guarded(s: Symbol, fn) -> bool:
        if s.busy:
            raise AsmError(f"circular reference in definition of '{s.name}'", s.def_pos)
        s.busy = True
        try:
            return fn()
        finally:
            s.busy = False


# ca65 puts these (possibly empty) segments in every object, so ld65 never calls them missing.
_CA65_DEFAULT_SEGMENTS = {"CODE", "RODATA", "BSS", "DATA", "ZEROPAGE", "NULL"}


def _bytes(n: int) -> str:
    return f"{n} byte" if n == 1 else f"{n} bytes"


def _align_up(v: int, a: int) -> int:
    return v if a <= 1 else (v + a - 1) // a * a


def link(objects: list[ObjectFile], config: Config) -> LinkResult:
    """Place, resolve and write; raises AsmError on any problem."""
    segs = {s.name: s for s in config.segments}
    mems = {m.name: m for m in config.memory}
    for s in config.segments:
        for area in (s.load, s.run):
            if area not in mems:
                raise AsmError(f"segment '{s.name}' refers to unknown memory area '{area}'", s.pos)
    for obj in objects:
        for name, sec in obj.sections.items():
            if name not in segs:
                if not sec.data:
                    continue  # ld65 ignores empty segments that the config does not list
                raise AsmError(f"segment '{name}' is not defined in the linker config", sec.pos)
            segs[name].sections.append(sec)
    messages: list[str] = list(config.warnings)
    for s in config.segments:  # the warnings ld65 gives
        if not s.sections and not s.optional and s.name not in _CA65_DEFAULT_SEGMENTS:
            messages.append(f"{s.pos}: warning: segment '{s.name}' does not exist")
        if not s.written and any(sum(n for _, n in sec.fills) != len(sec.data) for sec in s.sections):
            messages.append(f"{s.pos}: warning: segment '{s.name}' with type '{s.type}' contains "
                            f"initialized data")
    for s in config.segments:  # section offsets within the segment
        off = 0
        for sec in s.sections:
            off = _align_up(off, sec.align)
            sec.load_base = off  # temporarily: offset in segment
            off += len(sec.data)
        s.size = off
    _place(config)
    for s in config.segments:
        for sec in s.sections:
            rel = sec.load_base or 0
            sec.base = s.run_addr + rel
            sec.load_base = s.load_addr + rel
    _file_positions(config)
    # Exports.
    exports: dict[str, object] = {}
    for m in config.memory:
        if m.define:
            exports[f"__{m.name}_START__"] = m.start
            exports[f"__{m.name}_SIZE__"] = m.size
            exports[f"__{m.name}_LAST__"] = m.start + m.used
            exports[f"__{m.name}_FILEOFFS__"] = m.file_offset
    for s in config.segments:
        if s.define:
            exports[f"__{s.name}_LOAD__"] = s.load_addr
            exports[f"__{s.name}_RUN__"] = s.run_addr
            exports[f"__{s.name}_SIZE__"] = s.size
    exports.update(config.symbols)
    owner: dict[str, str] = {}
    for obj in objects:
        for name, sym in obj.exports.items():
            if name in owner:
                raise AsmError(f"duplicate export '{name}' (in {owner[name]} and {obj.name})",
                               sym.export_pos)
            owner[name] = obj.name
            exports[name] = sym
    env = _LinkEnv(exports, config)
    for obj in objects:
        for name, sym in obj.imports.items():
            if name not in exports:
                raise AsmError(f"unresolved external symbol '{name}'", sym.def_pos)
    _bank_values(config, env)
    # Fixups.
    for obj in objects:
        for sec in obj.sections.values():
            data = sec.data
            for fx in sec.fixups:
                v = _final(fx.node, env, fx.pos)
                if fx.signed:
                    if not -128 <= v <= 127:
                        raise AsmError(f"branch out of range (distance {v}, must be -128..127)", fx.pos)
                    data[fx.offset] = v & 0xFF
                    continue
                limit = (1 << (8 * fx.size)) - 1
                if not 0 <= v <= limit:
                    raise AsmError(f"value {v} (${v & 0xFFFFFFFF:X}) out of range for {fx.what} "
                                   f"(0..{limit})", fx.pos)
                data[fx.offset:fx.offset + fx.size] = v.to_bytes(fx.size, "little")
    for obj in objects:
        messages.extend(obj.messages)
        for a in obj.assertions:
            try:
                ok = _final(a.node, env, a.pos) != 0
            except BankError as e:  # ld65: "Cannot evaluate assertion", a warning
                messages.append(f"{a.pos}: warning: cannot evaluate assertion: {e.message}")
                continue
            if not ok:
                if a.action == "error":
                    raise AsmError(f".assert failed: {a.message}", a.pos)
                messages.append(f"{a.pos}: warning: {a.message}")
    out = bytearray()
    for m in config.memory:
        if m.file is not None:
            out += _memory_bytes(m, config)
    final_exports = {n: (v if isinstance(v, int) else env.sym(v)) for n, v in exports.items()}
    labels: list[LabelInfo] = []
    for obj in objects:
        for sym in obj.labels:
            if sym.section is None or sym.section.base is None:
                continue
            sd = env.seg_of.get(id(sym.section))
            area = mems[sd.run] if sd else None
            labels.append(LabelInfo(sym.qualified, sym.section.base + sym.offset, sym.section.name,
                                    area.name if area else "", area.bank_value if area else None))
    return LinkResult(bytes(out), config, objects, final_exports, labels, messages)


def _place(config: Config) -> None:
    """Give every segment its run and load address, memory area by memory area (ld65's CfgProcess).

    ``align``, ``start`` and ``offset`` apply where the segment runs; in a
    separate load area only ``align_load`` does.
    """
    for m in config.memory:
        addr = m.start
        for s in config.segments:
            if m.name not in (s.load, s.run):
                continue
            if s.run == m.name:
                if s.align > 1:
                    addr = _align_up(addr, s.align)
                target = s.start if s.start is not None else (
                    m.start + s.offset if s.offset is not None else None)
                if target is not None:
                    if addr > target:
                        raise AsmError(f"segment '{s.name}' would start at ${target:04X} but memory "
                                       f"area '{m.name}' is already used up to ${addr:04X} (overlap "
                                       f"by {addr - target} bytes)", s.pos)
                    addr = target
                s.run_addr = addr
            elif s.align_load > 1:  # the load area of a segment that runs elsewhere
                addr = _align_up(addr, s.align_load)
            if s.load == m.name:
                s.load_addr = addr
            addr += s.size
            if addr > m.start + m.size:
                raise AreaOverflow(f"memory area '{m.name}' overflows by {_bytes(addr - m.start - m.size)} "
                                   f"(segment '{s.name}', size {s.size})", m.pos, m.name,
                                   addr - m.start - m.size, s.name)
            m.used = addr - m.start


def _file_positions(config: Config) -> None:
    """Each area's offset and size in its output file (ld65 counts per file: %O and "").

    Fails before anything is built when the output would exceed MAX_OUTPUT_BYTES.
    """
    offsets: dict[str | None, int] = {}
    for m in config.memory:
        m.file_offset = offsets.get(m.file, 0)
        m.file_size = sum(n for _, n, _ in _memory_layout(m, config))
        offsets[m.file] = m.file_offset + m.file_size
        if m.file is not None and offsets[m.file] > MAX_OUTPUT_BYTES:
            raise AsmError(f"memory area '{m.name}' (start ${m.start:X}, size ${m.size:X}"
                           f"{', fill = yes' if m.fill else ''}) would make the output "
                           f"{offsets[m.file]:,} bytes long, over the limit of {MAX_OUTPUT_BYTES:,} "
                           f"bytes (16 MiB)", m.pos)


def _bank_values(config: Config, env: _LinkEnv) -> None:
    """Evaluate every ``bank`` attribute; its names may be config SYMBOLS or object exports."""
    def lookup(name: str, pos: Pos) -> int:
        v = env.exports.get(name)
        if v is None:
            raise AsmError(f"unresolved symbol '{name}' in a 'bank' attribute", pos)
        return v if isinstance(v, int) else env.sym(v)  # type: ignore[arg-type]

    for m in config.memory:
        if m.bank is not None:
            m.bank_value = eval_cfg(m.bank, lookup)


def _seg_fill(s: SegDef, config: Config) -> int:
    """A segment's fill byte: its own ``fillval``, else its load area's (ld65)."""
    return s.fillval if s.fillval is not None else config.area(s.load).fillval


def _memory_layout(m: MemArea, config: Config) -> list[tuple[SegDef | None, int, int]]:
    """What ld65's binary writer emits for one memory area, as (segment, length, fill byte) pieces.

    ``segment`` is None for a gap or the final fill.  A gap before a segment
    is written only when the segment is written (or the area has
    ``fill = yes``); a BSS segment in an area without fill takes no file
    space at all, exactly like ld65.
    """
    pieces: list[tuple[SegDef | None, int, int]] = []
    addr = m.start
    for s in config.segments:
        if m.name not in (s.load, s.run):
            continue
        write = s.written and s.load == m.name
        new = s.load_addr if s.load == m.name else s.run_addr
        if (write or m.fill) and new > addr:
            pieces.append((None, new - addr, m.fillval))
        addr = new
        if write or m.fill:
            pieces.append((s if write else None, s.size, _seg_fill(s, config)))
        addr += s.size
    total = sum(n for _, n, _ in pieces)
    if m.fill and total < m.size:
        pieces.append((None, m.size - total, m.fillval))
    return pieces


def _segment_bytes(s: SegDef, fillbyte: bytes) -> bytearray:
    """A segment's bytes: its sections at their offsets, padding filled with ``fillbyte``."""
    buf = bytearray(fillbyte * s.size)
    for sec in s.sections:
        at = sec.load_base - s.load_addr  # type: ignore[operator]
        buf[at:at + len(sec.data)] = sec.data
        for off, n in sec.fills:
            buf[at + off:at + off + n] = fillbyte * n
    return buf


def _memory_bytes(m: MemArea, config: Config) -> bytearray:
    buf = bytearray()
    for s, n, fill in _memory_layout(m, config):
        buf += _segment_bytes(s, bytes([fill & 0xFF])) if s is not None else bytes([fill & 0xFF]) * n
    return buf


def _final(node: tuple, env: _LinkEnv, pos: Pos) -> int:
    try:
        v = evaluate(node, env, pos)
    except (Unknown, NotConst):  # pragma: no cover - every leaf is known at link time
        raise AsmError("expression cannot be evaluated", pos) from None
    assert isinstance(v, int)
    return v


__all__ = ["BankError", "Config", "LabelInfo", "LinkResult", "MemArea", "SegDef", "link",
           "parse_config"]
