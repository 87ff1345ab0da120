"""One source file -> one in-memory object (what ca65 does).

The assembler makes a single pass, like ca65: an operand's size is decided
when the instruction is read, from what is known at that point (a forward
reference is absolute).  Values that are not known yet (forward references,
segment-relative labels, imports) become *fixups* that the linker evaluates
once every segment has an address.
"""
from __future__ import annotations

import math
import os
from typing import Iterator

from .config import MAX_OUTPUT_BYTES
from .errors import AsmError, Pos
from .expr import ExprParser, NotConst, Rel, Unknown, evaluate, walk_symbols
from .lexer import Tok, tokenize
from .objects import (Assertion, Fixup, ListLine, Macro, ObjectFile, Scope, Section,  # noqa: F401
                      Symbol)
from .opcodes import MODE_SIZE, OPCODES

ZP, ABS, FAR, LONG = 1, 2, 3, 4
MACRO_DEPTH_LIMIT = 64
_DEFAULT_ZP_SEGMENTS = {"ZEROPAGE", "EXTZP"}
_BOOL_OPS = {"=", "<>", "<", ">", "<=", ">=", "&&", "||", "xor"}
_SEG_SHORTCUTS = {".zeropage": "ZEROPAGE", ".bss": "BSS", ".code": "CODE",
                  ".rodata": "RODATA", ".data": "DATA"}
_ADDRSIZE_NAMES = {"zeropage": ZP, "zp": ZP, "direct": ZP, "absolute": ABS, "abs": ABS, "near": ABS}
_DIR_ALIASES = {".byt": ".byte", ".addr": ".word", ".rep": ".repeat"}
_IF_DIRS = {".if", ".ifdef", ".ifndef", ".ifblank", ".ifnblank", ".elseif", ".else", ".endif"}
# Directives that do not change the bytes for the 6502 (listing/debug-info control).
_IGNORED_DIRS = {".p02", ".debuginfo", ".list", ".listbytes"}


class _Frame:
    """A source of lines: a file, a macro expansion or a .repeat expansion."""

    def __init__(self, kind: str, lines: Iterator[tuple[list[Tok], str, str, int]], path: str = "",
                 macro: bool = False, macro_name: str = "", call_pos: Pos | None = None,
                 cond_depth: int = 0):
        self.kind = kind
        self.lines = lines
        self.path = path
        self.macro = macro
        self.macro_name = macro_name
        self.call_pos = call_pos
        self.cond_depth = cond_depth    # open conditionals when the frame began (.exitmacro)
        self.exited = False             # a macro left by .exitmacro


class _AsmEnv:
    """Evaluation environment while assembling: labels stay relative to their section."""

    def sym(self, s: Symbol):
        s = s.real()
        k = s.kind
        if k == "label":
            return Rel(s.offset, {s.section: 1})
        if k == "const":
            if s.busy:
                raise AsmError(f"circular reference in definition of '{s.name}'", s.def_pos)
            s.busy = True
            try:
                return evaluate(s.expr, self, s.def_pos)  # type: ignore[arg-type]
            finally:
                s.busy = False
        if k == "import":
            return Rel(0, {s: 1})
        raise Unknown(s)

    def loc(self, section: Section, offset: int):
        return Rel(offset, {section: 1})

    def bank(self, node: tuple, pos: Pos | None):
        raise NotConst()  # .bank() is always left to the linker, as in ca65


_ENV = _AsmEnv()


def _try_eval(node: tuple, pos: Pos | None = None):
    """The value if it is known now (int or Rel), else None."""
    try:
        return evaluate(node, _ENV, pos)
    except (Unknown, NotConst):
        return None


def _file_lines(path: str, display: str) -> Iterator[tuple[list[Tok], str, str, int]]:
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    for n, line in enumerate(text.splitlines(), 1):
        yield tokenize(line, display, n), line, display, n


class Assembler:
    """Assembles one source file into an ObjectFile."""

    def __init__(self, path: str, include_dirs: list[str] | None = None,
                 defines: dict[str, int] | None = None):
        self.path = path
        self.include_dirs = list(include_dirs or [])
        self.root = Scope("", None)
        self.scope = self.root
        self.sections: dict[str, Section] = {}
        self.section = self._get_section("CODE", None)
        self.cheap: dict[str, Symbol] = {}
        self.anon: list[Symbol] = []
        self.anon_defined = 0
        self.macros: dict[str, Macro] = {}
        self.frames: list[_Frame] = []
        self.conds: list[list[bool]] = []  # [active, taken, parent_active, seen_else]
        self.cond_pos: list[Pos] = []
        self.scope_stack: list[tuple[Scope, str, Pos]] = []
        self.all_scopes: list[Scope] = []  # every nested scope, in opening order
        self.collect: dict | None = None
        self.assertions: list[Assertion] = []
        self.listing: list[ListLine] = []
        self.messages: list[str] = []
        self.labels: list[Symbol] = []
        self.exports: dict[str, Symbol] = {}
        self.imports: dict[str, Symbol] = {}
        self.local_counter = 0
        self.enum_next: tuple | None = None  # inside .enum: the next member's value (a tree)
        self.macro_depth = 0
        for name, value in (defines or {}).items():
            s = self._new_symbol(self.root, name)
            s.kind, s.expr = "const", ("num", value)

    # ----------------------------------------------------------------- symbols
    def _new_symbol(self, scope: Scope, name: str) -> Symbol:
        s = Symbol(name, scope)
        scope.symbols[name] = s
        return s

    def _find_any(self, name: str) -> Symbol | None:
        sc: Scope | None = self.scope
        while sc is not None:
            s = sc.symbols.get(name)
            if s is not None:
                return s
            sc = sc.parent
        return None

    def _find_scope(self, parts: list[str], rooted: bool, pos: Pos) -> Scope:
        if rooted:
            sc = self.root
        else:
            first = parts[0]
            look: Scope | None = self.scope
            while look is not None and first not in look.children:
                look = look.parent
            if look is None:
                raise AsmError(f"no such scope '{first}'", pos)
            sc = look.children[first]
            parts = parts[1:]
        for p in parts:
            if p not in sc.children:
                raise AsmError(f"no such scope '{p}'", pos)
            sc = sc.children[p]
        return sc

    def ref_symbol(self, parts: list[str], rooted: bool, pos: Pos) -> tuple:
        if len(parts) == 1 and not rooted:
            # ca65 (SymFind with SYM_ALLOC_NEW): a bare name in an expression is a
            # symbol of the *current* scope, created undefined if it is not there yet.
            # Only at the end of the file is an undefined one bound to a defined symbol
            # of that name in an enclosing scope (see _finish).  Until then it has no
            # value, so inside a .proc/.scope a name defined only outside is not a
            # constant (.if, .repeat, .res...) -- write ::NAME -- though it may already
            # decide the addressing mode (_sym_size).
            name = parts[0]
            s = self.scope.symbols.get(name) or self._new_symbol(self.scope, name)
        else:
            sc = self._find_scope(parts[:-1], rooted, pos)
            s = sc.symbols.get(parts[-1]) or self._new_symbol(sc, parts[-1])
        if s.ref_pos is None:
            s.ref_pos = pos
        return ("sym", s)

    def ref_cheap(self, name: str, pos: Pos) -> tuple:
        s = self.cheap.get(name)
        if s is None:
            s = self.cheap[name] = Symbol(name, None)
        if s.ref_pos is None:
            s.ref_pos = pos
        return ("sym", s)

    def _anon_symbol(self, index: int) -> Symbol:
        while len(self.anon) <= index:
            self.anon.append(Symbol(f":{len(self.anon)}", None))
        return self.anon[index]

    def ref_anon(self, delta: int, pos: Pos) -> tuple:
        index = self.anon_defined + delta if delta < 0 else self.anon_defined + delta - 1
        if index < 0:
            raise AsmError("no such anonymous label before this line", pos)
        s = self._anon_symbol(index)
        if s.ref_pos is None:
            s.ref_pos = pos
        return ("sym", s)

    def pc_node(self, pos: Pos) -> tuple:
        return ("loc", self.section, len(self.section.data))

    def is_defined(self, parts: list[str], rooted: bool, pos: Pos) -> bool:
        if len(parts) == 1 and not rooted:
            if parts[0].startswith("@"):
                s = self.cheap.get(parts[0])
            else:
                s = self._find_any(parts[0])
        else:
            try:
                sc = self._find_scope(parts[:-1], rooted, pos)
            except AsmError:
                return False
            s = sc.symbols.get(parts[-1])
        return s is not None and s.real().kind in ("label", "const")

    def _define(self, s: Symbol, kind: str, pos: Pos, expr: tuple | None = None) -> None:
        if s.kind is not None and s.kind != "import":
            where = f" (first defined at {s.def_pos})" if s.def_pos else ""
            raise AsmError(f"duplicate label '{s.name}'{where}", pos)
        if s.kind == "import":
            raise AsmError(f"symbol '{s.name}' is imported and cannot be defined here", pos)
        s.kind = kind
        s.def_pos = pos
        if kind == "label":
            s.section = self.section
            s.offset = len(self.section.data)
        else:
            s.expr = expr

    def _define_label(self, name: str, pos: Pos) -> Symbol:
        self._close_cheap()
        s = self.scope.symbols.get(name) or self._new_symbol(self.scope, name)
        self._define(s, "label", pos)
        self.labels.append(s)
        return s

    def _close_cheap(self) -> None:
        for s in self.cheap.values():
            if s.kind is None:
                raise AsmError(f"undefined symbol '{s.name}'", s.ref_pos)
        self.cheap = {}

    # ----------------------------------------------------------------- output
    def _get_section(self, name: str, addrsize: int | None, pos: Pos | None = None) -> Section:
        sec = self.sections.get(name)
        if sec is None:
            if addrsize is None:
                addrsize = ZP if name in _DEFAULT_ZP_SEGMENTS else ABS
            sec = self.sections[name] = Section(name, addrsize, pos=pos)
        return sec

    def _emit_value(self, node: tuple, size: int, pos: Pos, what: str) -> None:
        v = _try_eval(node, pos)
        data = self.section.data
        if isinstance(v, int):
            limit = (1 << (8 * size)) - 1
            if not 0 <= v <= limit:
                raise AsmError(f"value {v} (${v & 0xFFFFFFFF:X}) out of range for {what} (0..{limit})",
                               pos)
            data += v.to_bytes(size, "little")
        else:
            self.section.fixups.append(Fixup(len(data), size, node, pos, what))
            data += bytes(size)

    def _parse_expr(self, toks: list[Tok], i: int) -> tuple[tuple, int]:
        p = ExprParser(toks, i, self)
        node = p.parse()
        return node, p.i

    def _const(self, toks: list[Tok], i: int, what: str = "constant expression expected"
               ) -> tuple[int, int]:
        pos = toks[i].pos
        start = i
        node, i = self._parse_expr(toks, i)
        v = _try_eval(node, pos)
        if not isinstance(v, int):
            hint = self._outer_name_hint(node)
            if hint is not None:
                used, text = hint
                pos = next((toks[k].pos for k in range(start, i) if toks[k].kind == "id"
                            and toks[k].value == used and not toks[k - 1].is_op("::")), pos)
                raise AsmError(f"{what}: {text}", pos)
            raise AsmError(what, pos)
        return v, i

    def _outer_name_hint(self, node: tuple) -> tuple[str, str] | None:
        """Why ``node`` is not constant if that is ca65's scope rule; (name to point at, text).

        The case: inside a .proc/.scope a bare name that the scope has not defined
        (yet) while an enclosing scope defines it as a constant.  ca65 cannot take
        the outer one before the end of the file (the scope may still define its
        own), so the name is not constant at this point; ``::NAME`` is.
        """
        seen: set[int] = set()

        def culprit(n: tuple) -> tuple[Symbol, Symbol] | None:
            for s in walk_symbols(n):
                if id(s) in seen:
                    continue
                seen.add(id(s))
                r = s.real()
                if r.kind == "const":
                    found = culprit(r.expr)  # type: ignore[arg-type]
                    if found is not None:
                        return found
                    continue
                if r.kind is not None or s.scope is None or s.scope.parent is None:
                    continue
                up = s.scope.parent
                while up is not None:
                    h = up.symbols.get(s.name)
                    if h is not None and h.real().kind is not None:
                        if isinstance(_try_eval(("sym", h)), int):
                            return s, h
                        break
                    up = up.parent
            return None

        for top in walk_symbols(node):
            found = culprit(("sym", top))
            if found is None:
                continue
            s, outer = found
            sc = s.scope
            assert sc is not None and sc.parent is not None
            where = f"scope '{sc.parent.qualified(sc.name)}'" if sc.name else "this anonymous scope"
            used = f" (used by '{top.name}')" if top is not s else ""
            text = (f"'{s.name}'{used} is not defined in {where} (yet), and ca65 binds it to "
                    f"the outer '{outer.qualified}' only at the end of the file")
            parts, o = [outer.name], outer.scope
            while o is not None and o.parent is not None and o.name:
                parts.append(o.name)
                o = o.parent
            if o is not None and o.parent is None:  # no anonymous scope on the way: nameable
                text += f"; write '::{'::'.join(reversed(parts))}'"
            return top.name, text
        return None

    @staticmethod
    def _end(toks: list[Tok], i: int) -> None:
        if toks[i].kind != "eol":
            raise AsmError(f"unexpected '{toks[i].value}' (end of line expected)", toks[i].pos)

    # ----------------------------------------------------------------- driver
    def assemble(self) -> ObjectFile:
        display = self.path
        if not os.path.isfile(self.path):
            raise AsmError(f"cannot open source file '{self.path}'")
        self.frames.append(_Frame("file", _file_lines(self.path, display), self.path))
        self._run()
        return self._finish()

    def _run(self) -> None:
        frames = self.frames
        while frames:
            frame = frames[-1]
            item = None if frame.exited else next(frame.lines, None)
            if item is None:
                frames.pop()
                if frame.macro:
                    self.macro_depth -= 1
                if frame.exited:
                    del self.conds[frame.cond_depth:]
                    del self.cond_pos[frame.cond_depth:]
                continue
            toks, text, file, line = item
            if self.collect is not None:
                self._collect_line(toks, text)
                continue
            first = toks[0]
            if first.kind == "dir" and first.value in _IF_DIRS:
                try:
                    self._conditional(toks)
                except AsmError as e:
                    raise self._with_macro_context(e) from None
                except RecursionError:
                    raise self._with_macro_context(
                        AsmError("expression or nesting too deep", Pos(file, line, 1))) from None
                self.listing.append(ListLine(file, line, text, None, 0, 0, len(frames)))
                continue
            if self.conds and not self.conds[-1][0]:
                continue
            sec = self.section
            start = len(sec.data)
            try:
                self._statement(toks)
            except AsmError as e:
                raise self._with_macro_context(e) from None
            except RecursionError:
                raise self._with_macro_context(
                    AsmError("expression or nesting too deep", Pos(file, line, 1))) from None
            if self.section is sec:
                self.listing.append(ListLine(file, line, text, sec, start, len(sec.data) - start,
                                             len(frames)))
            else:
                self.listing.append(ListLine(file, line, text, None, 0, 0, len(frames)))

    def _with_macro_context(self, e: AsmError) -> AsmError:
        """Say which macro call an error inside a macro body comes from."""
        for f in reversed(self.frames):
            if f.macro and "(in macro" not in e.message:
                return AsmError(f"{e.message} (in macro '{f.macro_name}' called at {f.call_pos})", e.pos)
        return e

    def _collect_line(self, toks: list[Tok], text: str) -> None:
        c = self.collect
        assert c is not None
        first = toks[0]
        if first.kind == "dir":
            if first.value in c["open"]:
                c["depth"] += 1
            elif first.value in c["close"]:
                if c["depth"] == 0:
                    self.collect = None
                    c["done"](c)
                    return
                c["depth"] -= 1
        c["body"].append((toks, text))

    # ----------------------------------------------------------------- conditionals
    def _conditional(self, toks: list[Tok]) -> None:
        d = toks[0].value
        pos = toks[0].pos
        parent_active = not self.conds or self.conds[-1][0]
        if d in (".if", ".ifdef", ".ifndef", ".ifblank", ".ifnblank"):
            cond = False
            if parent_active:
                cond = self._condition(d, toks)
            self.conds.append([parent_active and cond, cond, parent_active, False])
            self.cond_pos.append(pos)
            return
        if not self.conds:
            raise AsmError(f"'{d}' without '.if'", pos)
        top = self.conds[-1]
        if d == ".endif":
            self.conds.pop()
            self.cond_pos.pop()
            return
        if top[3]:
            raise AsmError(f"'{d}' after '.else'", pos)
        if d == ".else":
            top[3] = True
            top[0] = top[2] and not top[1]
            top[1] = True
            self._end(toks, 1)
            return
        # .elseif
        if top[1] or not top[2]:
            top[0] = False
            return
        cond = self._condition(".if", toks)
        top[0] = cond
        top[1] = cond

    def _condition(self, d: str, toks: list[Tok]) -> bool:
        if d in (".ifblank", ".ifnblank"):
            blank = toks[1].kind == "eol"
            return blank if d == ".ifblank" else not blank
        if d in (".ifdef", ".ifndef"):
            t = toks[1]
            p = ExprParser(toks, 2, self)
            if t.kind == "local":
                ok, i = self.is_defined([t.value], False, t.pos), 2  # type: ignore[list-item]
            elif t.kind == "id" or t.is_op("::"):
                parts, rooted = p._name(t)
                ok, i = self.is_defined(parts, rooted, t.pos), p.i
            else:
                raise AsmError("identifier expected", t.pos)
            self._end(toks, i)
            return ok if d == ".ifdef" else not ok
        v, i = self._const(toks, 1)
        self._end(toks, i)
        return v != 0

    # ----------------------------------------------------------------- statements
    def _statement(self, toks: list[Tok]) -> None:
        i = 0
        t = toks[0]
        if t.kind == "eol":
            return
        if self.enum_next is not None:
            self._enum_member(toks)
            return
        nxt = toks[1]
        if t.kind == "id" and nxt.is_op(":"):
            self._define_label(t.value, t.pos)  # type: ignore[arg-type]
            i = 2
        elif t.kind == "local" and nxt.is_op(":"):
            s = self.ref_cheap(t.value, t.pos)[1]  # type: ignore[arg-type]
            self._define(s, "label", t.pos)
            i = 2
        elif t.is_op(":"):
            s = self._anon_symbol(self.anon_defined)
            self._define(s, "label", t.pos)
            self.anon_defined += 1
            i = 1
        elif t.kind == "id" and (nxt.is_op("=") or nxt.is_op(":=")):
            node, j = self._parse_expr(toks, 2)
            self._end(toks, j)
            self._close_cheap()  # ca65: any non-local symbol starts a new cheap-local scope
            s = self.scope.symbols.get(t.value) or self._new_symbol(self.scope, t.value)  # type: ignore[arg-type]
            if nxt.value == ":=":
                v = _try_eval(node, t.pos)
                if isinstance(v, Rel) and len(v.t) == 1:
                    (sec, k), = v.t.items()
                    if isinstance(sec, Section) and k == 1:
                        self._define(s, "label", t.pos)
                        s.section, s.offset = sec, v.c
                        self.labels.append(s)
                        return
            self._define(s, "const", t.pos, node)
            return
        t = toks[i]
        if t.kind == "eol":
            return
        if t.kind == "dir":
            self._directive(t.value, toks, i)  # type: ignore[arg-type]
            return
        if t.kind == "id":
            name = t.value
            m = self.macros.get(name)  # type: ignore[arg-type]
            if m is not None:
                self._expand_macro(m, toks, i + 1, t.pos)
                return
            mnem = name.lower()  # type: ignore[union-attr]
            if mnem in OPCODES:
                self._instruction(mnem, toks, i + 1, t.pos)
                return
            raise AsmError(f"unknown mnemonic '{name}'", t.pos)
        raise AsmError(f"unexpected '{t.value}' at start of statement", t.pos)

    # ----------------------------------------------------------------- instructions
    def _operand_size(self, node: tuple, pos: Pos) -> int:
        """ca65's rule: known constant -> by value; else the symbols' address size."""
        v = _try_eval(node, pos)
        if isinstance(v, int):
            return ZP if 0 <= v <= 0xFF else ABS
        return self._node_size(node)

    def _node_size(self, node: tuple) -> int:
        k = node[0]
        if k == "num":
            return 0
        if k == "loc":
            return node[1].addrsize
        if k == "sym":
            return self._sym_size(node[1])
        if k == "un":
            if node[1] in ("<", ">", "^", "!"):
                return ZP
            if node[1] == "bank":
                return self._bank_arg_size(node[2])
            return self._node_size(node[2])
        if node[1] in _BOOL_OPS:
            return ZP  # ca65: a comparison or boolean operator gives 0 or 1
        return max(self._node_size(node[2]), self._node_size(node[3]))

    def _bank_arg_size(self, node: tuple) -> int:
        """The address size ca65 gives ``.bank(node)``: that of its argument.

        ca65 never evaluates .bank(), so the size is the one merged while
        studying the tree, numbers included: ``.bank(label + -6)`` is a long
        (32-bit) value because -6 is, and does not fit ``.word``.
        """
        k = node[0]
        if k == "num":
            return _const_size(node[1])
        if k == "sym":
            r = node[1].real()
            if r.kind == "const":
                v = _try_eval(r.expr, r.def_pos)  # type: ignore[arg-type]
                if isinstance(v, int):
                    return _const_size(v)
            return self._sym_size(node[1])
        if k == "loc":
            return node[1].addrsize
        if k == "un":
            return ZP if node[1] in ("<", ">", "^", "!") else self._bank_arg_size(node[2])
        if node[1] in _BOOL_OPS:
            return ZP
        return max(self._bank_arg_size(node[2]), self._bank_arg_size(node[3]))

    def _sym_size(self, s: Symbol) -> int:
        r = s.real()
        if r.kind == "label":
            return r.section.addrsize  # type: ignore[union-attr]
        if r.kind == "const":
            v = _try_eval(r.expr, r.def_pos)  # type: ignore[arg-type]
            if isinstance(v, int):
                return ZP if 0 <= v <= 0xFF else ABS
            if r.busy:
                return ABS
            r.busy = True
            try:
                return self._node_size(r.expr) or ABS  # type: ignore[arg-type]
            finally:
                r.busy = False
        if r.addrsize is not None:
            return r.addrsize
        if s.addrsize:
            return s.addrsize
        # Not defined (yet): ca65 (StudySymbol) uses the address size of the nearest
        # symbol of that name in an enclosing scope, as far as it is known now; an
        # undefined one there gives only its declared size (no further search).
        up = s.scope.parent if s.scope is not None else None
        while up is not None:
            h = up.symbols.get(s.name)
            if h is not None:
                return self._sym_size(h) if h.real().kind is not None else (h.addrsize or 0)
            up = up.parent
        return 0  # unknown size

    def _instruction(self, mnem: str, toks: list[Tok], i: int, pos: Pos) -> None:
        modes = OPCODES[mnem]
        t = toks[i]
        data = self.section.data
        if t.kind == "eol" or (t.kind == "id" and t.value in ("a", "A") and toks[i + 1].kind == "eol"
                               and "acc" in modes):
            for m in ("imp", "acc"):
                if m in modes:
                    data.append(modes[m])
                    return
            raise AsmError(f"missing operand for '{mnem}'", t.pos)
        opos = t.pos
        if t.is_op("#"):
            if "imm" not in modes:
                raise AsmError(f"illegal addressing mode (immediate) for '{mnem}'", t.pos)
            node, i = self._parse_expr(toks, i + 1)
            self._end(toks, i)
            data.append(modes["imm"])
            self._emit_value(node, 1, opos, "immediate operand")
            return
        override = None
        if t.kind == "ovr":
            override = t.value
            i += 1
            t = toks[i]
        if t.is_op("("):
            node, i = self._parse_expr(toks, i + 1)
            if toks[i].is_op(","):
                self._expect_reg(toks, i + 1, "x")
                if not toks[i + 2].is_op(")"):
                    raise AsmError("')' expected", toks[i + 2].pos)
                self._end(toks, i + 3)
                mode = "indx"
            elif toks[i].is_op(")"):
                if toks[i + 1].is_op(","):
                    self._expect_reg(toks, i + 2, "y")
                    self._end(toks, i + 3)
                    mode = "indy"
                else:
                    self._end(toks, i + 1)
                    mode = "ind"
            else:
                raise AsmError("')' expected", toks[i].pos)
            if mode not in modes or override is not None and mode != "ind":
                raise AsmError(f"illegal addressing mode for '{mnem}'", opos)
            data.append(modes[mode])
            what = "indirect (zero page) operand" if mode != "ind" else "indirect operand"
            self._emit_value(node, MODE_SIZE[mode], opos, what)
            return
        node, i = self._parse_expr(toks, i)
        index = ""
        if toks[i].is_op(","):
            index = self._expect_reg(toks, i + 1, "xy")
            i += 2
        self._end(toks, i)
        if "rel" in modes:
            if index or override:
                raise AsmError(f"illegal addressing mode for '{mnem}'", opos)
            self._branch(modes["rel"], node, opos)
            return
        zpm, absm = ("zp", "abs") if not index else ("zp" + index, "abs" + index)
        if override == "z":
            mode = zpm
            if not isinstance(_try_eval(node, opos), int) and self._node_size(node) >= ABS:
                raise AsmError(f"illegal addressing mode for '{mnem}' (z: on a 16-bit address)", opos)
        elif override == "a":
            mode = absm
        elif override == "f":
            raise AsmError(f"illegal addressing mode (far) for '{mnem}'", opos)
        else:
            size = self._operand_size(node, opos)
            if size == ZP and zpm in modes:
                mode = zpm
            elif absm in modes:
                mode = absm
            else:
                mode = zpm
                v = _try_eval(node, opos)
                if isinstance(v, int) and not 0 <= v <= 0xFF:
                    raise AsmError(f"illegal addressing mode for '{mnem}' (only the zero page form "
                                   f"exists, operand ${v & 0xFFFFFFFF:X} is not below $100)", opos)
        if mode not in modes:
            raise AsmError(f"illegal addressing mode for '{mnem}'", opos)
        data.append(modes[mode])
        what = "zero page operand" if MODE_SIZE[mode] == 1 else "absolute operand"
        self._emit_value(node, MODE_SIZE[mode], opos, what)

    def _expect_reg(self, toks: list[Tok], i: int, regs: str) -> str:
        t = toks[i]
        if t.kind == "id" and isinstance(t.value, str) and t.value.lower() in regs and len(t.value) == 1:
            return t.value.lower()
        raise AsmError(f"illegal addressing mode (index register {'/'.join(regs.upper())} expected)",
                       t.pos)

    def _branch(self, opcode: int, target: tuple, pos: Pos) -> None:
        sec = self.section
        sec.data.append(opcode)
        node = ("bin", "-", target, ("loc", sec, len(sec.data) + 1))
        v = _try_eval(node, pos)
        if isinstance(v, int):
            if not -128 <= v <= 127:
                raise AsmError(f"branch out of range (distance {v}, must be -128..127)", pos)
            sec.data.append(v & 0xFF)
        else:
            sec.fixups.append(Fixup(len(sec.data), 1, node, pos, "branch", signed=True))
            sec.data.append(0)

    # ----------------------------------------------------------------- directives
    def _directive(self, d: str, toks: list[Tok], i: int) -> None:
        pos = toks[i].pos
        i += 1
        if d in _SEG_SHORTCUTS:
            self._end(toks, i)
            self.section = self._get_section(_SEG_SHORTCUTS[d], None, pos)
            return
        if d in _IGNORED_DIRS:
            return
        d = _DIR_ALIASES.get(d, d)
        if d in (".endmac", ".endmacro"):
            raise AsmError("'.endmacro' without '.macro'", pos)
        if d in (".endrep", ".endrepeat"):
            raise AsmError("'.endrep' without '.repeat'", pos)
        handler = getattr(self, "_d_" + d[1:], None)
        if handler is None:
            raise AsmError(f"unknown directive '{d}'", pos)
        handler(toks, i, pos)

    def _d_segment(self, toks: list[Tok], i: int, pos: Pos) -> None:
        t = toks[i]
        if t.kind != "str":
            raise AsmError("segment name string expected", t.pos)
        addrsize = None
        i += 1
        if toks[i].is_op(":"):
            a = toks[i + 1]
            if a.kind != "id" or a.value.lower() not in _ADDRSIZE_NAMES:  # type: ignore[union-attr]
                raise AsmError("address size (zeropage or absolute) expected", a.pos)
            addrsize = _ADDRSIZE_NAMES[a.value.lower()]  # type: ignore[union-attr]
            i += 2
        self._end(toks, i)
        self.section = self._get_section(t.value, addrsize, t.pos)  # type: ignore[arg-type]

    def _expr_list(self, toks: list[Tok], i: int) -> Iterator[tuple[str, object, Pos]]:
        """Yield ("str", text, pos) or ("expr", node, pos) for a comma-separated list."""
        while True:
            t = toks[i]
            if t.kind == "str" and (toks[i + 1].is_op(",") or toks[i + 1].kind == "eol"):
                yield "str", t.value, t.pos
                i += 1
            else:
                node, i = self._parse_expr(toks, i)
                yield "expr", node, t.pos
            if toks[i].is_op(","):
                i += 1
                continue
            self._end(toks, i)
            return

    def _d_byte(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                self.section.data += v.encode("latin-1")  # type: ignore[union-attr]
            else:
                self._emit_value(v, 1, p, "byte")  # type: ignore[arg-type]

    def _d_word(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                raise AsmError("string not allowed in .word", p)
            self._emit_value(v, 2, p, "word")  # type: ignore[arg-type]

    def _d_dbyt(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                raise AsmError("string not allowed in .dbyt", p)
            self._emit_value(("un", ">", v), 1, p, "byte")  # type: ignore[arg-type]
            self._emit_value(("un", "<", v), 1, p, "byte")  # type: ignore[arg-type]

    def _d_lobytes(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                raise AsmError("string not allowed in .lobytes", p)
            self._emit_value(("un", "<", v), 1, p, "byte")  # type: ignore[arg-type]

    def _d_hibytes(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                raise AsmError("string not allowed in .hibytes", p)
            self._emit_value(("un", ">", v), 1, p, "byte")  # type: ignore[arg-type]

    def _d_bankbytes(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                raise AsmError("string not allowed in .bankbytes", p)
            self._emit_value(("un", "^", v), 1, p, "byte")  # type: ignore[arg-type]

    def _d_res(self, toks: list[Tok], i: int, pos: Pos) -> None:
        n, i = self._const(toks, i)
        if not 0 <= n <= 0xFFFFFF:
            raise AsmError(f"value {n} out of range for .res count", pos)
        if toks[i].is_op(","):
            fill, i = self._const(toks, i + 1)
            if not 0 <= fill <= 0xFF:
                raise AsmError(f"value {fill} out of range for .res fill byte (0..255)", pos)
            self._end(toks, i)
            self.section.data += bytes([fill]) * n
            return
        self._end(toks, i)
        self._fill(n)

    def _fill(self, n: int) -> None:
        if n:
            data = self.section.data
            self.section.fills.append((len(data), n))
            data += bytes(n)

    def _d_align(self, toks: list[Tok], i: int, pos: Pos) -> None:
        n, i = self._const(toks, i)
        if n < 1 or n > 0x10000:
            raise AsmError(f"value {n} out of range for .align (1..65536)", pos)
        fill = None
        if toks[i].is_op(","):
            fill, i = self._const(toks, i + 1)
            if not 0 <= fill <= 0xFF:
                raise AsmError(f"value {fill} out of range for .align fill byte (0..255)", pos)
        self._end(toks, i)
        sec = self.section
        sec.align = sec.align * n // math.gcd(sec.align, n)
        pad = (-len(sec.data)) % n
        if fill is None:
            self._fill(pad)
        else:
            sec.data += bytes([fill]) * pad

    def _find_file(self, name: str, pos: Pos) -> str:
        here = os.path.dirname(self.frames[-1].path) if self.frames else ""
        for d in [d for d in (here,) if d] + [""] + self.include_dirs:
            cand = os.path.join(d, name) if d else name
            if os.path.isfile(cand):
                return cand
            if os.path.exists(cand):
                raise AsmError(f"'{cand}' is not a regular file", pos)
        raise AsmError(f"include file '{name}' not found", pos)

    def _string_arg(self, toks: list[Tok], i: int, what: str) -> str:
        t = toks[i]
        if t.kind != "str":
            raise AsmError(f"{what} string expected", t.pos)
        return t.value  # type: ignore[return-value]

    def _d_include(self, toks: list[Tok], i: int, pos: Pos) -> None:
        name = self._string_arg(toks, i, "file name")
        self._end(toks, i + 1)
        path = self._find_file(name, toks[i].pos)
        if sum(1 for f in self.frames if f.kind == "file") > 32:
            raise AsmError("includes nested too deeply (limit 32)", pos)
        self.frames.append(_Frame("file", _file_lines(path, path), path))

    def _d_incbin(self, toks: list[Tok], i: int, pos: Pos) -> None:
        name = self._string_arg(toks, i, "file name")
        path = self._find_file(name, toks[i].pos)
        i += 1
        if os.path.getsize(path) > MAX_OUTPUT_BYTES:
            raise AsmError(f"'{path}' is larger than the largest output ({MAX_OUTPUT_BYTES:,} bytes)",
                           toks[i - 1].pos)
        try:
            with open(path, "rb") as f:
                blob = f.read()
        except OSError as e:
            raise AsmError(f"cannot read '{path}': {e.strerror}", toks[i - 1].pos) from None
        start, size = 0, None
        if toks[i].is_op(","):
            start, i = self._const(toks, i + 1)
            if toks[i].is_op(","):
                size, i = self._const(toks, i + 1)
        self._end(toks, i)
        if start < 0 or start > len(blob):
            raise AsmError(f".incbin start {start} out of range (file has {len(blob)} bytes)", pos)
        end = len(blob) if size is None else start + size
        if size is not None and (size < 0 or end > len(blob)):
            raise AsmError(f".incbin size {size} out of range (file has {len(blob)} bytes)", pos)
        self.section.data += blob[start:end]

    def _d_assert(self, toks: list[Tok], i: int, pos: Pos) -> None:
        node, i = self._parse_expr(toks, i)
        if not toks[i].is_op(","):
            raise AsmError("',' expected", toks[i].pos)
        a = toks[i + 1]
        if a.kind != "id" or a.value.lower() not in ("error", "warning", "lderror", "ldwarning"):  # type: ignore[union-attr]
            raise AsmError("'error' or 'warning' expected", a.pos)
        action = "warning" if "warning" in a.value.lower() else "error"  # type: ignore[union-attr]
        i += 2
        message = "assertion failed"
        if toks[i].is_op(","):
            message = self._string_arg(toks, i + 1, "message")
            i += 2
        self._end(toks, i)
        v = _try_eval(node, pos)
        if isinstance(v, int):
            self._check_assert(v, action, message, pos)
        else:
            self.assertions.append(Assertion(node, pos, action, message))

    def _check_assert(self, v: int, action: str, message: str, pos: Pos) -> None:
        if v == 0:
            if action == "error":
                raise AsmError(f".assert failed: {message}", pos)
            self.messages.append(f"{pos}: warning: {message}")

    def _message_text(self, toks: list[Tok], i: int) -> str:
        out = []
        while toks[i].kind != "eol":
            t = toks[i]
            if t.kind == "str":
                out.append(t.value)
                i += 1
            else:
                v, i = self._const(toks, i)
                out.append(str(v))
            if toks[i].is_op(","):
                i += 1
        return "".join(out)  # type: ignore[arg-type]

    def _d_error(self, toks: list[Tok], i: int, pos: Pos) -> None:
        raise AsmError(f".error: {self._message_text(toks, i)}", pos)

    _d_fatal = _d_error

    def _d_warning(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self.messages.append(f"{pos}: warning: {self._message_text(toks, i)}")

    def _d_out(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self.messages.append(self._message_text(toks, i))

    def _d_asciiz(self, toks: list[Tok], i: int, pos: Pos) -> None:
        for kind, v, p in self._expr_list(toks, i):
            if kind == "str":
                self.section.data += v.encode("latin-1")  # type: ignore[union-attr]
            else:
                self._emit_value(v, 1, p, "byte")  # type: ignore[arg-type]
        self.section.data.append(0)

    def _d_setcpu(self, toks: list[Tok], i: int, pos: Pos) -> None:
        name = self._string_arg(toks, i, "CPU name")
        if name.lower() != "6502":
            raise AsmError(f"unsupported CPU '{name}' (only 6502)", toks[i].pos)
        self._end(toks, i + 1)

    def _d_enum(self, toks: list[Tok], i: int, pos: Pos) -> None:
        name = ""
        if toks[i].kind == "id":
            name = toks[i].value  # type: ignore[assignment]
            i += 1
        self._end(toks, i)
        if name:
            self._push_scope(name, ".enum", pos)
        else:
            self.scope_stack.append((self.scope, ".enum-anon", pos))
        self.enum_next = ("num", 0)

    def _enum_member(self, toks: list[Tok]) -> None:
        t = toks[0]
        if t.kind == "dir" and t.value == ".endenum":
            self._end(toks, 1)
            self.enum_next = None
            top = self.scope_stack.pop()
            self.scope = top[0]
            return
        if t.kind != "id":
            raise AsmError("enum member name expected", t.pos)
        i = 1
        if toks[1].is_op("="):
            # ca65 takes any expression (evaluated later if need be); the next member is it + 1
            self.enum_next, i = self._parse_expr(toks, 2)
        self._end(toks, i)
        s = self.scope.symbols.get(t.value) or self._new_symbol(self.scope, t.value)  # type: ignore[arg-type]
        node = self.enum_next
        assert node is not None
        self._define(s, "const", t.pos, node)
        self.enum_next = ("num", node[1] + 1) if node[0] == "num" else ("bin", "+", node, ("num", 1))

    def _d_org(self, toks: list[Tok], i: int, pos: Pos) -> None:
        raise AsmError("'.org' is not supported (use segments and the linker config)", pos)

    # exports / imports
    def _name_list(self, toks: list[Tok], i: int) -> Iterator[tuple[str, Pos, tuple | None]]:
        while True:
            t = toks[i]
            if t.kind != "id":
                raise AsmError("identifier expected", t.pos)
            i += 1
            node = None
            if toks[i].is_op("=") or toks[i].is_op(":="):
                node, i = self._parse_expr(toks, i + 1)
            elif toks[i].is_op(":"):  # address size suffix
                a = toks[i + 1]
                if a.kind != "id" or a.value.lower() not in _ADDRSIZE_NAMES:  # type: ignore[union-attr]
                    raise AsmError("address size expected", a.pos)
                i += 2
            yield t.value, t.pos, node  # type: ignore[misc]
            if toks[i].is_op(","):
                i += 1
                continue
            self._end(toks, i)
            return

    def _export(self, toks: list[Tok], i: int, zp: bool) -> None:
        for name, p, node in self._name_list(toks, i):
            s = self.root.symbols.get(name) if self.scope is self.root else self.scope.symbols.get(name)
            if s is None:
                s = self._new_symbol(self.scope, name)
            if node is not None:
                self._define(s, "const", p, node)
            s.exported = True
            s.export_pos = s.export_pos or p
            if zp:
                s.addrsize = ZP
            if name in self.exports and self.exports[name] is not s:
                raise AsmError(f"duplicate export '{name}'", p)
            self.exports[name] = s

    def _d_export(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._export(toks, i, False)

    def _d_exportzp(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._export(toks, i, True)

    def _import(self, toks: list[Tok], i: int, zp: bool) -> None:
        for name, p, node in self._name_list(toks, i):
            s = self.scope.symbols.get(name) or self._new_symbol(self.scope, name)
            if s.kind not in (None, "import"):
                raise AsmError(f"symbol '{name}' is already defined and cannot be imported", p)
            s.kind = "import"
            s.def_pos = s.def_pos or p
            s.addrsize = ZP if zp else ABS
            self.imports[name] = s

    def _d_import(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._import(toks, i, False)

    def _d_importzp(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._import(toks, i, True)

    def _global(self, toks: list[Tok], i: int, zp: bool) -> None:
        for name, p, node in self._name_list(toks, i):
            s = self.scope.symbols.get(name) or self._new_symbol(self.scope, name)
            s.global_decl = True
            s.export_pos = s.export_pos or p
            s.addrsize = ZP if zp else ABS if s.addrsize is None else s.addrsize

    def _d_global(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._global(toks, i, False)

    def _d_globalzp(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._global(toks, i, True)

    # scopes
    def _d_proc(self, toks: list[Tok], i: int, pos: Pos) -> None:
        t = toks[i]
        if t.kind != "id":
            raise AsmError("procedure name expected", t.pos)
        i += 1
        if toks[i].is_op(":"):
            i += 2
        self._end(toks, i)
        self._define_label(t.value, t.pos)  # type: ignore[arg-type]
        self._push_scope(t.value, ".proc", pos)  # type: ignore[arg-type]

    def _push_scope(self, name: str, kind: str, pos: Pos) -> None:
        if name and name in self.scope.children:
            raise AsmError(f"duplicate scope '{name}'", pos)
        sc = Scope(name, self.scope)
        if name:
            self.scope.children[name] = sc
        self.all_scopes.append(sc)  # anonymous ones too (not in any .children)
        self.scope_stack.append((self.scope, kind, pos))
        self.scope = sc

    def _pop_scope(self, kind: str, toks: list[Tok], i: int, pos: Pos) -> None:
        self._end(toks, i)
        if not self.scope_stack or self.scope_stack[-1][1] != kind:
            raise AsmError(f"'{'.endproc' if kind == '.proc' else '.endscope'}' without '{kind}'", pos)
        self._close_cheap()
        self.scope = self.scope_stack.pop()[0]

    def _d_endproc(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._pop_scope(".proc", toks, i, pos)

    def _d_scope(self, toks: list[Tok], i: int, pos: Pos) -> None:
        name = ""
        if toks[i].kind == "id":
            name = toks[i].value  # type: ignore[assignment]
            i += 1
        self._end(toks, i)
        self._push_scope(name, ".scope", pos)

    def _d_endscope(self, toks: list[Tok], i: int, pos: Pos) -> None:
        self._pop_scope(".scope", toks, i, pos)

    # macros and repeats
    def _d_macro(self, toks: list[Tok], i: int, pos: Pos) -> None:
        t = toks[i]
        if t.kind != "id":
            raise AsmError("macro name expected", t.pos)
        if t.value in self.macros:
            raise AsmError(f"duplicate macro '{t.value}'", t.pos)
        params = []
        i += 1
        while toks[i].kind == "id":
            params.append(toks[i].value)
            i += 1
            if toks[i].is_op(","):
                i += 1
        self._end(toks, i)
        m = Macro(t.value, params, [], pos)  # type: ignore[arg-type]

        def done(c: dict) -> None:
            self.macros[m.name] = m

        self.collect = {"open": {".macro"}, "close": {".endmacro", ".endmac"}, "depth": 0,
                        "body": m.body, "done": done, "pos": pos, "what": ".macro"}

    def _expand_macro(self, m: Macro, toks: list[Tok], i: int, pos: Pos) -> None:
        if self.macro_depth >= MACRO_DEPTH_LIMIT:
            raise AsmError(f"macro recursion too deep in '{m.name}' (depth limit {MACRO_DEPTH_LIMIT})",
                           pos)
        args: list[list[Tok]] = []
        if toks[i].kind != "eol":
            cur: list[Tok] = []
            depth = 0
            while toks[i].kind != "eol":
                t = toks[i]
                if t.is_op("{"):
                    depth += 1
                    if depth == 1:
                        i += 1
                        continue
                elif t.is_op("}"):
                    depth -= 1
                    if depth == 0:
                        i += 1
                        continue
                elif t.is_op(",") and depth == 0:
                    args.append(cur)
                    cur = []
                    i += 1
                    continue
                cur.append(t)
                i += 1
            args.append(cur)
        if len(args) > len(m.params):
            raise AsmError(f"too many macro parameters for '{m.name}' ({len(args)} given, "
                           f"{len(m.params)} expected)", pos)
        subst: dict[str, list[Tok]] = {p: [] for p in m.params}
        for p, a in zip(m.params, args):
            subst[p] = a
        paramcount = len(args)
        self.macro_depth += 1
        self.local_counter += 1
        serial = self.local_counter
        self.frames.append(_Frame("macro", self._macro_lines(m, subst, paramcount, serial),
                                  self.frames[-1].path, macro=True, macro_name=m.name, call_pos=pos,
                                  cond_depth=len(self.conds)))

    def _macro_lines(self, m: Macro, subst: dict[str, list[Tok]], paramcount: int, serial: int
                     ) -> Iterator[tuple[list[Tok], str, str, int]]:
        locals_: dict[str, str] = {}
        for toks, text in m.body:
            first = toks[0]
            if first.kind == "dir" and first.value == ".local":
                for t in toks[1:]:
                    if t.kind == "id":
                        locals_[t.value] = f"__LOCAL_{t.value}_{serial}"  # type: ignore[index]
                continue
            out: list[Tok] = []
            for t in toks:
                if t.kind == "id":
                    rep = subst.get(t.value)  # type: ignore[arg-type]
                    if rep is not None:
                        out.extend(rep)
                        continue
                    loc = locals_.get(t.value)  # type: ignore[arg-type]
                    if loc is not None:
                        out.append(Tok("id", loc, t.pos))
                        continue
                elif t.kind == "dir" and t.value == ".paramcount":
                    out.append(Tok("num", paramcount, t.pos))
                    continue
                out.append(t)
            yield out, text, first.pos.file, first.pos.line

    def _d_repeat(self, toks: list[Tok], i: int, pos: Pos) -> None:
        n, i = self._const(toks, i)
        var = None
        if toks[i].is_op(","):
            if toks[i + 1].kind != "id":
                raise AsmError("identifier expected", toks[i + 1].pos)
            var = toks[i + 1].value
            i += 2
        self._end(toks, i)
        body: list[tuple[list[Tok], str]] = []

        def done(c: dict) -> None:
            self.frames.append(_Frame("repeat", self._repeat_lines(body, n, var), self.frames[-1].path))

        self.collect = {"open": {".repeat", ".rep"}, "close": {".endrep", ".endrepeat"}, "depth": 0,
                        "body": body, "done": done, "pos": pos, "what": ".repeat"}

    @staticmethod
    def _repeat_lines(body: list[tuple[list[Tok], str]], n: int, var: object
                      ) -> Iterator[tuple[list[Tok], str, str, int]]:
        for k in range(n):
            for toks, text in body:
                if var is not None:
                    toks = [Tok("num", k, t.pos) if t.kind == "id" and t.value == var else t
                            for t in toks]
                yield toks, text, toks[0].pos.file, toks[0].pos.line

    def _d_local(self, toks: list[Tok], i: int, pos: Pos) -> None:
        raise AsmError("'.local' outside of a macro", pos)

    def _d_exitmacro(self, toks: list[Tok], i: int, pos: Pos) -> None:
        """Leave the innermost macro expansion, as ca65 does: its own lines end
        at once (the conditionals it opened are closed then, in _run), but a
        .repeat of its body that is running still runs to its end first."""
        self._end(toks, i)
        for frame in reversed(self.frames):
            if frame.macro:
                frame.exited = True
                return
        raise AsmError("'.exitmacro' outside of a macro", pos)

    # ----------------------------------------------------------------- finish
    def _finish(self) -> ObjectFile:
        if self.collect is not None:
            raise AsmError(f"'{self.collect['what']}' without end", self.collect["pos"])
        if self.conds:
            raise AsmError("'.if' without '.endif' at end of file", self.cond_pos[-1])
        if self.scope_stack:
            _, kind, pos = self.scope_stack[-1]
            raise AsmError(f"'{kind}' without '{'.endproc' if kind == '.proc' else '.endscope'}'", pos)
        self._close_cheap()
        # .global: export if defined, import otherwise (first: a nested scope's undefined
        # name may resolve to such an import below).
        for s in list(self.root.symbols.values()):
            if s.global_decl:
                if s.kind in ("label", "const"):
                    s.exported = True
                    self.exports[s.name] = s
                elif s.kind is None:
                    s.kind = "import"
                    s.def_pos = s.export_pos
                    self.imports[s.name] = s
        # Symbols referenced in a nested scope but defined in an enclosing one (ca65 SymCheck).
        for sc in self.all_scopes:
            for s in sc.symbols.values():
                if s.kind is None and not s.exported:
                    up = sc.parent
                    while up is not None:
                        cand = up.symbols.get(s.name)
                        if cand is not None and cand.kind is not None:
                            s.alias = cand
                            if cand.ref_pos is None:
                                cand.ref_pos = s.ref_pos
                            break
                        up = up.parent
        # ca65 writes only the imports that are used; unused ones are no link error.
        self.imports = {n: s for n, s in self.imports.items() if s.ref_pos is not None}
        for name, s in self.exports.items():
            if s.real().kind is None:
                raise AsmError(f"exported symbol '{name}' is undefined", s.export_pos)
        for s in self.anon:
            if s.kind is None:
                raise AsmError("undefined anonymous label", s.ref_pos)
        # ca65 (SymCheck): every name used anywhere must be defined by the end, even where
        # its value was not needed (``0 && name``, an unused ``K = name + 1``).
        for sc in (self.root, *self.all_scopes):
            for s in sc.symbols.values():
                if s.ref_pos is not None and s.real().kind is None:
                    raise AsmError(f"undefined symbol '{s.name}'", s.ref_pos)
        for sec in self.sections.values():
            for fx in sec.fixups:
                self._check_defined(fx.node, fx.pos)
                if fx.size == 1 and not fx.signed:
                    self._check_byte(fx)
                elif fx.size == 2 and _has_bank(fx.node) and self._node_size(fx.node) > ABS:
                    raise AsmError(f"value out of range for {fx.what}: the argument of .bank() has an "
                                   f"address size wider than 16 bits (ca65: range error)", fx.pos)
        for a in self.assertions:
            self._check_defined(a.node, a.pos)
        for sec in self.sections.values():
            sec.obj = None
        obj = ObjectFile(self.path, {k: v for k, v in self.sections.items() if v.data or k != "CODE"
                                     or v.align > 1},
                         self.exports, self.imports, self.labels, self.assertions, self.listing,
                         self.messages)
        for sec in obj.sections.values():
            sec.obj = obj
        return obj

    def _check_byte(self, fx: Fixup) -> None:
        """ca65 rejects a 1-byte operand whose expression has a 16-bit address size."""
        v = _try_eval(fx.node, fx.pos)
        if isinstance(v, int):
            if not 0 <= v <= 0xFF:
                raise AsmError(f"value {v} (${v & 0xFFFFFFFF:X}) out of range for {fx.what} (0..255)",
                               fx.pos)
        elif self._node_size(fx.node) > ZP:
            if _has_bank(fx.node):
                raise AsmError(f"value out of range for {fx.what}: .bank() of a 16-bit address has "
                               f"that address size in ca65 (write <.bank(...))", fx.pos)
            raise AsmError(f"value out of range for {fx.what}: the expression is a 16-bit address "
                           f"(use < or >, or .importzp)", fx.pos)

    def _check_defined(self, node: tuple, pos: Pos) -> None:
        for s in walk_symbols(node):
            r = s.real()
            if r.kind is None:
                raise AsmError(f"undefined symbol '{s.name}'", s.ref_pos or pos)
            if r.kind == "const" and not r.busy:
                r.busy = True
                try:
                    self._check_defined(r.expr, r.def_pos or pos)  # type: ignore[arg-type]
                finally:
                    r.busy = False


def _const_size(v: int) -> int:
    """ca65's GetConstAddrSize: the smallest address size that holds ``v`` (unsigned)."""
    v &= 0xFFFFFFFF
    return ZP if v <= 0xFF else ABS if v <= 0xFFFF else FAR if v <= 0xFFFFFF else LONG


def _has_bank(node: tuple) -> bool:
    """True if ``node`` contains a ``.bank()`` outside any ``<``/``>``/``^``."""
    if node[0] == "un":
        return node[1] == "bank" or (node[1] not in ("<", ">", "^") and _has_bank(node[2]))
    if node[0] == "bin":
        return _has_bank(node[2]) or _has_bank(node[3])
    return False


def assemble_file(path: str, include_dirs: list[str] | None = None,
                  defines: dict[str, int] | None = None) -> ObjectFile:
    """Assemble one source file to an in-memory object."""
    return Assembler(path, include_dirs, defines).assemble()
