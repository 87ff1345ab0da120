"""The ld65 part: read the config subset, place segments, resolve, write bytes.

Placement follows ld65: memory areas are processed in MEMORY order, the
segments of each area in SEGMENTS order; within a segment the sections of
the objects are concatenated in command-line order, each one aligned
relative to the segment start (ld65 computes section padding from the
segment offset).  Alignment padding, ``.res`` without a fill value and gaps
between segments are filled with the memory area's ``fillval``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .objects import ObjectFile, Section, Symbol
from .errors import AsmError, Pos
from .expr import NotConst, Unknown, evaluate

# ------------------------------------------------------------------ config


@dataclass
class MemArea:
    name: str
    start: int
    size: int
    type: str = "rw"
    file: str | None = "%O"  # None: not written ("")
    fill: bool = False
    fillval: int = 0
    define: bool = False
    pos: Pos | None = None
    used: int = 0  # bytes from start to the end of the last placed segment
    file_offset: int = 0


@dataclass
class SegDef:
    name: str
    load: str
    run: str
    type: str = "ro"
    align: int = 1
    start: int | None = None
    offset: int | None = None
    optional: bool = False
    define: bool = False
    pos: Pos | None = None
    sections: list[Section] = field(default_factory=list)
    size: int = 0
    load_addr: int = 0
    run_addr: int = 0

    @property
    def written(self) -> bool:
        return self.type not in ("bss", "zp")


@dataclass
class Config:
    memory: list[MemArea]
    segments: list[SegDef]
    symbols: dict[str, int]


_CFG_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+) | (?P<comment>\#[^\n]*) |
    (?P<num>\$[0-9A-Fa-f]+|%[01]+|[0-9]+) |
    (?P<str>"[^"\n]*") | (?P<fmt>%O) |
    (?P<id>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op>[{}:;=,+\-*/()])
""", re.VERBOSE)


def _cfg_tokens(text: str, path: str) -> list[tuple[str, object, Pos]]:
    out: list[tuple[str, object, Pos]] = []
    i, line, linestart = 0, 1, 0
    while i < len(text):
        m = _CFG_TOKEN.match(text, i)
        pos = Pos(path, line, i - linestart + 1)
        if not m:
            raise AsmError(f"invalid character '{text[i]}' in linker config", pos)
        kind = m.lastgroup
        s = m.group()
        if kind == "num":
            v = int(s[1:], 16) if s[0] == "$" else int(s[1:], 2) if s[0] == "%" else int(s)
            out.append(("num", v, pos))
        elif kind == "str":
            out.append(("str", s[1:-1], pos))
        elif kind in ("id", "op", "fmt"):
            out.append((kind, s, pos))
        nl = s.count("\n")
        if nl:
            line += nl
            linestart = i + s.rfind("\n") + 1
        i = m.end()
    out.append(("eof", None, Pos(path, line, i - linestart + 1)))
    return out


class _CfgParser:
    def __init__(self, text: str, path: str, predefined: dict[str, int]):
        self.t = _cfg_tokens(text, path)
        self.i = 0
        self.symbols: dict[str, int] = dict(predefined)

    def peek(self) -> tuple[str, object, Pos]:
        return self.t[self.i]

    def next(self) -> tuple[str, object, Pos]:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        k, v, p = self.next()
        if v != value:
            raise AsmError(f"'{value}' expected in linker config", p)

    def ident(self) -> tuple[str, Pos]:
        k, v, p = self.next()
        if k != "id":
            raise AsmError("identifier expected in linker config", p)
        return v, p  # type: ignore[return-value]

    def expr(self) -> int:
        v = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.next()[1]
            r = self.term()
            v = v + r if op == "+" else v - r
        return v

    def term(self) -> int:
        v = self.factor()
        while self.peek()[1] in ("*", "/"):
            op = self.next()[1]
            r = self.factor()
            v = v * r if op == "*" else v // r
        return v

    def factor(self) -> int:
        k, v, p = self.next()
        if k == "num":
            return v  # type: ignore[return-value]
        if v == "-":
            return -self.factor()
        if v == "(":
            r = self.expr()
            self.expect(")")
            return r
        if k == "id" and v in self.symbols:
            return self.symbols[v]  # type: ignore[index]
        raise AsmError(f"number expected in linker config, got '{v}'", p)

    def attrs(self) -> dict[str, tuple[object, Pos]]:
        """``name = value, name = value ;`` (commas optional, as ld65)."""
        out: dict[str, tuple[object, Pos]] = {}
        while True:
            k, v, p = self.peek()
            if v == ";":
                self.next()
                return out
            name, p = self.ident()
            self.expect("=")
            key = name.lower()
            k2, v2, p2 = self.peek()
            if key in ("start", "size", "fillval", "align", "offset", "value"):
                out[key] = (self.expr(), p2)
            else:
                self.next()
                out[key] = (v2 if k2 != "id" else str(v2).lower() if key != "load" and key != "run"
                            else v2, p2)
            if self.peek()[1] == ",":
                self.next()

    def parse(self) -> Config:
        memory: list[MemArea] = []
        segments: list[SegDef] = []
        while self.peek()[0] != "eof":
            section, p = self.ident()
            self.expect("{")
            sec = section.upper()
            while self.peek()[1] != "}":
                name, npos = self.ident()
                self.expect(":")
                a = self.attrs()
                if sec == "MEMORY":
                    memory.append(self._mem(name, npos, a))
                elif sec == "SEGMENTS":
                    segments.append(self._seg(name, npos, a))
                elif sec == "SYMBOLS":
                    if "value" in a and a.get("type", ("export",))[0] != "import":
                        self.symbols.setdefault(name, a["value"][0])  # type: ignore[arg-type]
                elif sec in ("FEATURES", "FILES", "FORMATS"):
                    pass
                else:
                    raise AsmError(f"unknown linker config section '{section}'", p)
            self.next()
        return Config(memory, segments, self.symbols)

    @staticmethod
    def _yes(v: tuple[object, Pos] | None) -> bool:
        return v is not None and str(v[0]).lower() == "yes"

    def _mem(self, name: str, pos: Pos, a: dict) -> MemArea:
        for req in ("start", "size"):
            if req not in a:
                raise AsmError(f"memory area '{name}' needs '{req}'", pos)
        f = a.get("file", ("%O", pos))[0]
        if f not in ("%O", ""):
            raise AsmError(f"memory area '{name}': only file = %O or \"\" are supported", pos)
        return MemArea(name, a["start"][0], a["size"][0], str(a.get("type", ("rw",))[0]),
                       "%O" if f == "%O" else None, self._yes(a.get("fill")),
                       a.get("fillval", (0,))[0], self._yes(a.get("define")), pos)

    def _seg(self, name: str, pos: Pos, a: dict) -> SegDef:
        if "load" not in a:
            raise AsmError(f"segment '{name}' needs 'load'", pos)
        load = a["load"][0]
        return SegDef(name, load, a.get("run", (load,))[0], str(a.get("type", ("ro",))[0]),
                      a.get("align", (1,))[0], a.get("start", (None,))[0],
                      a.get("offset", (None,))[0], self._yes(a.get("optional")),
                      self._yes(a.get("define")), pos)


def parse_config(path: str, predefined: dict[str, int] | None = None) -> Config:
    """Read an ld65 config file (the subset documented in docs/TOOLCHAIN.md)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise AsmError(f"cannot open linker config '{path}': {e.strerror}") from None
    return _CfgParser(text, path, predefined or {}).parse()


# ------------------------------------------------------------------ linking


@dataclass
class LabelInfo:
    """A label with its final address, for the debugger label files."""

    name: str
    address: int
    segment: str
    memory: str


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
        return next(m for m in self.config.memory if m.name == name)


class _LinkEnv:
    def __init__(self, exports: dict[str, object]):
        self.exports = exports

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
    messages: list[str] = []
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
    # Place segments memory area by memory area.
    for m in config.memory:
        addr = m.start
        for s in config.segments:
            if m.name not in (s.load, s.run):
                continue
            if s.align > 1:
                addr = _align_up(addr, s.align)
            target = s.start if s.start is not None else (
                m.start + s.offset if s.offset is not None else None)
            if target is not None:
                if addr > target:
                    raise AsmError(f"segment '{s.name}' would start at ${target:04X} but memory area "
                                   f"'{m.name}' is already used up to ${addr:04X} (overlap by "
                                   f"{addr - target} bytes)", s.pos)
                addr = target
            if s.run == m.name:
                s.run_addr = addr
            if s.load == m.name:
                s.load_addr = addr
            addr += s.size
            if addr > m.start + m.size:
                raise AsmError(f"memory area '{m.name}' overflows by {_bytes(addr - m.start - m.size)} "
                               f"(segment '{s.name}', size {s.size})", m.pos)
            m.used = addr - m.start
    for s in config.segments:
        for sec in s.sections:
            rel = sec.load_base or 0
            sec.base = s.run_addr + rel
            sec.load_base = s.load_addr + rel
    file_offset = 0  # ld65's __NAME_FILEOFFS__: position of each area in the output file
    for m in config.memory:
        m.file_offset = file_offset
        if m.file is not None:
            file_offset += len(_memory_bytes(m, config))
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
    env = _LinkEnv(exports)
    for obj in objects:
        for name, sym in obj.imports.items():
            if name not in exports:
                raise AsmError(f"unresolved external symbol '{name}'", sym.def_pos)
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
            if _final(a.node, env, a.pos) == 0:
                if a.action == "error":
                    raise AsmError(f".assert failed: {a.message}", a.pos)
                messages.append(f"{a.pos}: warning: {a.message}")
    out = bytearray()
    for m in config.memory:
        if m.file is not None:
            out += _memory_bytes(m, config)
    final_exports = {n: (v if isinstance(v, int) else env.sym(v)) for n, v in exports.items()}
    labels: list[LabelInfo] = []
    seg_of = {id(sec): s for s in config.segments for sec in s.sections}
    for obj in objects:
        for sym in obj.labels:
            if sym.section is None or sym.section.base is None:
                continue
            sd = seg_of.get(id(sym.section))
            labels.append(LabelInfo(sym.qualified, sym.section.base + sym.offset,
                                    sym.section.name, sd.run if sd else ""))
    return LinkResult(bytes(out), config, objects, final_exports, labels, messages)


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
    """What ld65's binary writer emits for one memory area.

    Gaps before a segment are filled only when the segment is written (or the
    area has ``fill = yes``); a BSS segment in a non-filled area takes no file
    space at all, exactly like ld65.
    """
    fillbyte = bytes([m.fillval & 0xFF])
    buf = bytearray()
    addr = m.start
    for s in config.segments:
        if m.name not in (s.load, s.run):
            continue
        write = s.written and s.load == m.name
        new = s.load_addr if s.load == m.name else s.run_addr
        if write or m.fill:
            if new > addr:
                buf += fillbyte * (new - addr)
            addr = new
        if write:
            buf += _segment_bytes(s, fillbyte)
        elif m.fill:
            buf += fillbyte * s.size
        addr += s.size
    if m.fill and len(buf) < m.size:
        buf += fillbyte * (m.size - len(buf))
    return buf


def _final(node: tuple, env: _LinkEnv, pos: Pos) -> int:
    try:
        v = evaluate(node, env, pos)
    except (Unknown, NotConst):  # pragma: no cover - every leaf is known at link time
        raise AsmError("expression cannot be evaluated", pos) from None
    assert isinstance(v, int)
    return v


__all__ = ["Config", "LinkResult", "MemArea", "SegDef", "link", "parse_config"]
