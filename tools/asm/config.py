"""The ld65 linker config: its scanner, its parser and what it describes.

The grammar and the checks are ld65's (``src/ld65/config.c``, ``scanner.c``
and ``cfgexpr.c`` of cc65): section names, attribute names and keyword values
are case-insensitive, ``=`` after an attribute name and ``,`` between
attributes are optional, ``;`` ends an entry.  Every input ld65 rejects is
rejected here too, with ``file:line:col`` and the reason; a few attributes
ld65 accepts but this linker does not implement are rejected by name rather
than silently ignored (see docs/TOOLCHAIN.md).

Expressions (``start``, ``size``, ``bank``, ...) are ld65's: numbers (``$hex``
or decimal), names, unary ``+``/``-``, ``*``, ``/``, ``+``, ``-`` and
parentheses.  ``fillval``, ``align`` and a segment's ``start``/``offset`` are
evaluated where they stand (ld65's ``CfgCheckedConstExpr``), a memory area's
``start`` and ``size`` once the whole file is read, and its ``bank`` at link
time, when object exports are known too (ld65 resolves ``.bank()`` through it
only when a program uses it).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Callable

from .errors import AsmError, Pos
from .objects import Section

# The largest output this linker writes: far above any NES cartridge, small
# enough that a typo such as ``size = $100000000, fill = yes`` is an error and
# not an attempt to write 4 GiB (ld65 would write it).
MAX_OUTPUT_BYTES = 16 * 1024 * 1024

# A linker config is a page of text; a bigger file is a mistake (a binary, a device).
MAX_CONFIG_BYTES = 1 << 20

# ld65's limits for a segment's start/offset and alignment (CfgCheckedConstExpr).
_MAX_SEG_ADDR = 0x1000000
_MAX_ALIGN = 0x10000
_ULONG = (1 << 64) - 1

CfgExpr = tuple  # ("num", v) | ("sym", name, pos) | ("neg", e) | ("bin", op, a, b, pos)


@dataclass
class MemArea:
    """A MEMORY entry; ``used``, ``file_offset``, ``file_size`` and ``bank_value`` are set by the linker."""

    name: str
    start: int
    size: int
    type: str = "rw"
    file: str | None = "%O"  # None: not written (file = "")
    fill: bool = False
    fillval: int = 0
    define: bool = False
    pos: Pos | None = None
    bank: CfgExpr | None = None  # the ``bank`` attribute as written
    used: int = 0  # bytes from start to the end of the last placed segment
    file_offset: int = 0  # ld65's __NAME_FILEOFFS__: position in its output file
    file_size: int = 0  # bytes this area puts into its output file
    bank_value: int | None = None  # the ``bank`` attribute's value


@dataclass
class SegDef:
    """A SEGMENTS entry; sizes and addresses are set by the linker."""

    name: str
    load: str
    run: str
    type: str = "rw"
    align: int = 1
    start: int | None = None
    offset: int | None = None
    optional: bool = False
    define: bool = False
    pos: Pos | None = None
    fillval: int | None = None  # None: the load area's fillval
    align_load: int = 1  # alignment in a load area that is not the run area
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
    warnings: list[str] = field(default_factory=list)  # ld65's config warnings, "file:line:col: warning: ..."

    def area(self, name: str) -> MemArea:
        return next(m for m in self.memory if m.name == name)


# ------------------------------------------------------------------ scanner

_CFG_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n\f\v]+) | (?P<comment>\#[^\n]*) |
    (?P<num>\$[0-9A-Fa-f]+|[0-9]+) |
    (?P<str>"[^"\n]*") | (?P<fmt>%O) |
    (?P<id>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op>[{}:;=,+\-*/()])
""", re.VERBOSE)

Token = tuple[str, object, Pos]


def _cfg_tokens(text: str, path: str) -> list[Token]:
    out: list[Token] = []
    i, line, linestart = 0, 1, 0
    while i < len(text):
        m = _CFG_TOKEN.match(text, i)
        pos = Pos(path, line, i - linestart + 1)
        if not m:
            c = text[i]
            if c == "%":
                raise AsmError(f"invalid format specification '{text[i:i + 2].strip()}' in linker "
                               f"config (only %O is supported; numbers are $hex or decimal)", pos)
            if c == '"':
                raise AsmError("unterminated string in linker config", pos)
            if c == "$":
                raise AsmError("hex digit expected after '$' in linker config", pos)
            raise AsmError(f"invalid character '{c}' in linker config", pos)
        kind = m.lastgroup
        s = m.group()
        if kind == "num":
            out.append(("num", int(s[1:], 16) if s[0] == "$" else int(s), pos))
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


# ------------------------------------------------------------------ expressions

def _cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def eval_cfg(node: CfgExpr, lookup: Callable[[str, Pos], int]) -> int:
    """Evaluate a config expression; ``lookup`` gives a name's value (or raises AsmError)."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "sym":
        return lookup(node[1], node[2])
    if kind == "neg":
        return -eval_cfg(node[1], lookup)
    op, a, b = node[1], eval_cfg(node[2], lookup), eval_cfg(node[3], lookup)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise AsmError("division by zero in linker config", node[4])
    return _cdiv(a, b)


def cfg_expr_pos(node: CfgExpr) -> Pos | None:
    """The position of the first name in ``node`` (None for pure numbers)."""
    if node[0] == "sym":
        return node[2]
    if node[0] == "neg":
        return cfg_expr_pos(node[1])
    if node[0] == "bin":
        return cfg_expr_pos(node[2]) or cfg_expr_pos(node[3])
    return None


# ------------------------------------------------------------------ parser

_MEM_ATTRS = ("bank", "define", "file", "fill", "fillval", "size", "start", "type")
_SEG_ATTRS = ("align", "align_load", "define", "fillval", "load", "offset", "optional", "run",
              "start", "type")
_SYM_ATTRS = ("addrsize", "type", "value")
_MEM_TYPES = ("ro", "rw")
_SEG_TYPES = ("ro", "rw", "bss", "zp")
_SYM_TYPES = ("export", "import", "weak")
_ADDRSIZES = ("abs", "absolute", "direct", "dword", "far", "long", "near", "zeropage", "zp")
_BOOLEANS = {"yes": True, "true": True, "no": False, "false": False}
_SECTIONS = ("MEMORY", "SEGMENTS", "SYMBOLS", "FEATURES", "FILES", "FORMATS")


class _CfgParser:
    def __init__(self, text: str, path: str, predefined: dict[str, int]):
        self.t = _cfg_tokens(text, path)
        self.i = 0
        self.symbols: dict[str, int] = dict(predefined)
        self.area_exprs: dict[str, tuple[CfgExpr, CfgExpr]] = {}  # memory area: (start, size)
        self.warnings: list[str] = []

    # -- tokens
    def peek(self) -> Token:
        return self.t[self.i]

    def next(self) -> Token:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        k, v, p = self.next()
        if v != value or k not in ("op",):
            raise AsmError(f"'{value}' expected in linker config, got {_show(k, v)}", p)

    def ident(self, what: str = "identifier") -> tuple[str, Pos]:
        k, v, p = self.next()
        if k != "id":
            raise AsmError(f"{what} expected in linker config, got {_show(k, v)}", p)
        return v, p  # type: ignore[return-value]

    # -- expressions (ld65's cfgexpr.c: Factor, Term, SimpleExpr)
    def expr(self) -> CfgExpr:
        node = self.term()
        while self.peek()[0] == "op" and self.peek()[1] in ("+", "-"):
            _, op, p = self.next()
            node = ("bin", op, node, self.term(), p)
        return node

    def term(self) -> CfgExpr:
        node = self.factor()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/"):
            _, op, p = self.next()
            node = ("bin", op, node, self.factor(), p)
        return node

    def factor(self) -> CfgExpr:
        k, v, p = self.next()
        if k == "num":
            return ("num", v)
        if k == "id":
            return ("sym", v, p)
        if k == "op" and v == "+":
            return self.factor()
        if k == "op" and v == "-":
            return ("neg", self.factor())
        if k == "op" and v == "(":
            node = self.expr()
            self.expect(")")
            return node
        raise AsmError(f"expression expected in linker config, got {_show(k, v)}", p)

    def _lookup(self, name: str, pos: Pos) -> int:
        if name in self.symbols:
            return self.symbols[name]
        raise AsmError(f"'{name}' is not a constant defined before this point of the linker config "
                       f"(a SYMBOLS value)", pos)

    def const(self, lo: int, hi: int, what: str) -> int:
        """An expression evaluated now and checked against [lo, hi] (ld65's CfgCheckedConstExpr)."""
        p = self.peek()[2]
        v = eval_cfg(self.expr(), self._lookup)
        if not lo <= v <= hi:
            raise AsmError(f"{what} must be ${lo:X}..${hi:X}, got {_num(v)}", p)
        return v

    def boolean(self, what: str) -> bool:
        k, v, p = self.next()
        if k == "id" and str(v).lower() in _BOOLEANS:
            return _BOOLEANS[str(v).lower()]
        if k == "num":
            return v != 0
        raise AsmError(f"{what} must be yes, no, true, false or a number, got {_show(k, v)}", p)

    def keyword(self, choices: tuple[str, ...], what: str) -> str:
        k, v, p = self.next()
        if k == "id" and str(v).lower() in choices:
            return str(v).lower()
        raise AsmError(f"{what} must be one of {', '.join(choices)}; got {_show(k, v)}", p)

    # -- entries
    def entry(self, table: tuple[str, ...], what: str, name: str, handle: Callable[[str, Pos], None]
              ) -> None:
        """``attr [=] value [,] ... ;`` with unknown and repeated attributes rejected."""
        seen: dict[str, Pos] = {}
        while self.peek()[0] == "id":
            attr_name, p = self.ident()
            attr = attr_name.lower()
            if attr not in table:
                raise AsmError(f"unknown attribute '{attr_name}' for {what} '{name}' (known: "
                               f"{', '.join(table)})", p)
            if attr in seen:
                raise AsmError(f"attribute '{attr}' of {what} '{name}' is given twice (first at "
                               f"{seen[attr]})", p)
            seen[attr] = p
            if self.peek()[0] == "op" and self.peek()[1] == "=":
                self.next()
            handle(attr, p)
            if self.peek()[0] == "op" and self.peek()[1] == ",":
                self.next()
        k, v, p = self.peek()
        if not (k == "op" and v == ";"):
            raise AsmError(f"';' expected after the attributes of {what} '{name}', got {_show(k, v)}", p)
        self.next()

    def memory_entry(self, name: str, pos: Pos) -> MemArea:
        a: dict[str, object] = {}
        exprs: dict[str, CfgExpr] = {}

        def handle(attr: str, p: Pos) -> None:
            where = f"'{attr}' of memory area '{name}'"
            if attr in ("start", "size", "bank"):
                exprs[attr] = self.expr()
            elif attr == "fillval":
                a[attr] = self.const(0, 0xFF, where)
            elif attr in ("fill", "define"):
                a[attr] = self.boolean(where)
            elif attr == "type":
                a[attr] = self.keyword(_MEM_TYPES, where)
            elif attr == "file":
                a[attr] = self.file_value(name)

        self.entry(_MEM_ATTRS, "memory area", name, handle)
        for req in ("start", "size"):
            if req not in exprs:
                raise AsmError(f"memory area '{name}' needs '{req}'", pos)
        m = MemArea(name, 0, 0, str(a.get("type", "rw")), a.get("file", "%O"),  # type: ignore[arg-type]
                    bool(a.get("fill", False)), int(a.get("fillval", 0)),  # type: ignore[arg-type]
                    bool(a.get("define", False)), pos, exprs.get("bank"))
        self.area_exprs[name] = (exprs["start"], exprs["size"])
        return m

    def file_value(self, name: str) -> str | None:
        k, v, p = self.next()
        if k == "fmt" or (k == "str" and v == "%O"):
            return "%O"
        if k == "str" and v == "":
            return None
        if k == "str":
            raise AsmError(f"memory area '{name}': file = \"{v}\" is not supported (tools.asm writes "
                           f"one output file: use file = %O or file = \"\")", p)
        raise AsmError(f"'file' of memory area '{name}' must be a string (%O or \"\"), got "
                       f"{_show(k, v)}", p)

    def segment_entry(self, name: str, pos: Pos, areas: dict[str, MemArea]) -> SegDef:
        a: dict[str, object] = {}

        def handle(attr: str, p: Pos) -> None:
            where = f"'{attr}' of segment '{name}'"
            if attr in ("load", "run"):
                area, ap = self.ident("memory area name")
                if area not in areas:
                    raise AsmError(f"{where}: unknown memory area '{area}'", ap)
                a[attr] = area
            elif attr in ("start", "offset"):
                a[attr] = self.const(0, _MAX_SEG_ADDR, where)
            elif attr in ("align", "align_load"):
                a[attr] = self.const(1, _MAX_ALIGN, where)
            elif attr == "fillval":
                a[attr] = self.const(0, 0xFF, where)
            elif attr in ("define", "optional"):
                a[attr] = self.boolean(where)
            elif attr == "type":
                k, v, tp = self.peek()
                if k == "id" and str(v).lower() == "overwrite":
                    raise AsmError(f"segment '{name}': type = overwrite is not supported by tools.asm",
                                   tp)
                a[attr] = self.keyword(_SEG_TYPES, where)

        self.entry(_SEG_ATTRS, "segment", name, handle)
        if "load" not in a:
            raise AsmError(f"segment '{name}' needs 'load'", pos)
        load = str(a["load"])
        run = str(a.get("run", load))
        kind = str(a.get("type", "rw"))  # ld65's default
        if kind == "rw" and areas[run].type == "ro":
            raise AsmError(f"segment '{name}' is read/write (type = rw{'' if 'type' in a else ', the default'})"
                           f" but runs in the read-only memory area '{run}'", pos)
        placing = [k for k in ("align", "start", "offset") if k in a]
        if len(placing) > 1:
            raise AsmError(f"segment '{name}': only one of align, start and offset may be given "
                           f"(got {' and '.join(placing)})", pos)
        if kind in ("bss", "zp") and run != load:
            self.warnings.append(f"{pos}: warning: segment '{name}' of type {kind} has separate load "
                                 f"and run memory areas")
        if "align_load" in a and run == load:
            self.warnings.append(f"{pos}: warning: segment '{name}': align_load without separate load "
                                 f"and run memory areas is ignored")
            del a["align_load"]
        return SegDef(name, load, run, kind,
                      int(a.get("align", 1)), a.get("start"), a.get("offset"),  # type: ignore[arg-type]
                      bool(a.get("optional", False)), bool(a.get("define", False)), pos,
                      a.get("fillval"), int(a.get("align_load", 1)))  # type: ignore[arg-type]

    def symbol_entry(self, name: str, pos: Pos) -> None:
        a: dict[str, object] = {}

        def handle(attr: str, p: Pos) -> None:
            where = f"'{attr}' of symbol '{name}'"
            if attr == "value":
                a[attr] = eval_cfg(self.expr(), self._lookup)
            elif attr == "type":
                a[attr] = self.keyword(_SYM_TYPES, where)
            else:
                a[attr] = self.keyword(_ADDRSIZES, where)

        self.entry(_SYM_ATTRS, "symbol", name, handle)
        kind = a.get("type")
        if kind is None:
            raise AsmError(f"symbol '{name}' needs 'type' (export, import or weak)", pos)
        if kind == "import":
            if "value" in a:
                raise AsmError(f"symbol '{name}': an import must not have a value", pos)
        elif "value" not in a:
            raise AsmError(f"symbol '{name}' needs 'value'", pos)
        else:
            self.symbols.setdefault(name, a["value"])  # type: ignore[arg-type]

    def skip_entry(self) -> None:
        """FEATURES, FILES, FORMATS: read and ignored (they do not change a binary's bytes here)."""
        while True:
            k, v, p = self.next()
            if k == "op" and v == ";":
                return
            if k == "eof" or (k == "op" and v == "}"):
                raise AsmError("';' expected in linker config", p)

    def parse(self) -> Config:
        memory: list[MemArea] = []
        segments: list[SegDef] = []
        mem_pos: dict[str, Pos] = {}
        seg_pos: dict[str, Pos] = {}
        seen_memory = False
        while self.peek()[0] != "eof":
            section, p = self.ident("section name (MEMORY, SEGMENTS, SYMBOLS, ...)")
            sec = section.upper()
            if sec not in _SECTIONS:
                raise AsmError(f"unknown linker config section '{section}' (known: "
                               f"{', '.join(_SECTIONS)})", p)
            if sec == "SEGMENTS" and not seen_memory:
                raise AsmError("MEMORY must come before SEGMENTS in the linker config", p)
            seen_memory = seen_memory or sec == "MEMORY"
            self.expect("{")
            while self.peek()[0] == "id":
                name, npos = self.ident()
                self.expect(":")
                if sec == "MEMORY":
                    if name in mem_pos:
                        raise AsmError(f"memory area '{name}' is defined twice (first at "
                                       f"{mem_pos[name]})", npos)
                    mem_pos[name] = npos
                    memory.append(self.memory_entry(name, npos))
                elif sec == "SEGMENTS":
                    if name in seg_pos:
                        raise AsmError(f"segment '{name}' is defined twice (first at "
                                       f"{seg_pos[name]})", npos)
                    seg_pos[name] = npos
                    segments.append(self.segment_entry(name, npos, {m.name: m for m in memory}))
                elif sec == "SYMBOLS":
                    self.symbol_entry(name, npos)
                else:
                    self.skip_entry()
            self.expect("}")
        for m in memory:  # ld65 resolves these after reading the whole file
            m.start = self._area_value(m, "start")
            m.size = self._area_value(m, "size")
        return Config(memory, segments, self.symbols, self.warnings)

    def _area_value(self, m: MemArea, attr: str) -> int:
        node = self.area_exprs[m.name][0 if attr == "start" else 1]
        return eval_cfg(node, self._lookup_any) & _ULONG  # ld65 keeps them as unsigned long

    def _lookup_any(self, name: str, pos: Pos) -> int:
        if name in self.symbols:
            return self.symbols[name]
        raise AsmError(f"unknown symbol '{name}' in linker config (a memory area's start and size "
                       f"may use SYMBOLS values)", pos)


def _show(kind: str, value: object) -> str:
    if kind == "eof":
        return "end of file"
    if kind == "str":
        return f'"{value}"'
    return f"'{value}'"


def _num(v: int) -> str:
    return f"{v} (${v:X})" if v >= 0 else str(v)


def parse_config(path: str, predefined: dict[str, int] | None = None) -> Config:
    """Read an ld65 config file (the subset documented in docs/TOOLCHAIN.md)."""
    try:
        if not os.path.isfile(path):
            raise AsmError(f"cannot open linker config '{path}': "
                           f"{'not a regular file' if os.path.exists(path) else 'no such file'}")
        with open(path, "rb") as f:
            data = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise AsmError(f"cannot open linker config '{path}': {e.strerror}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise AsmError(f"linker config '{path}' is larger than {MAX_CONFIG_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise AsmError(f"linker config is not UTF-8 text (byte ${data[e.start]:02X})", Pos(path, line, col)) \
            from None
    return _CfgParser(text, path, predefined or {}).parse()


__all__ = ["Config", "MAX_OUTPUT_BYTES", "MemArea", "SegDef", "eval_cfg", "parse_config"]
