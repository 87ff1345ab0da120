"""Expressions: parsing with ca65's precedence and evaluation.

Values are either plain ``int`` (constants) or ``Rel``: a constant plus a
linear combination of unknown bases (segment starts, imported symbols).
That is how ca65 decides, while assembling, that ``end - start`` inside one
segment is a constant while ``start`` alone is not.  The linker evaluates the
same trees with every base known, so all values become ``int`` there.

AST nodes are small tuples (fast to build and walk):
``("num", v)``, ``("sym", Symbol)``, ``("loc", Section, offset)``, ``("un", op, a)``,
``("bin", op, a, b)``.  ``("un", "bank", a)`` is ``.bank(a)``: the ``bank``
attribute of the memory area that ``a``'s segment runs in, which only the
linker knows (the environment's ``bank`` method gives it).
"""
from __future__ import annotations

from typing import Callable, Protocol

from .errors import AsmError, Pos
from .lexer import Tok


class Unknown(Exception):
    """Raised while evaluating when a value is not (yet) known."""


class Rel:
    """``c + sum(coef * base(key))``: a value relative to unknown bases."""

    __slots__ = ("c", "t")

    def __init__(self, c: int, t: dict):
        self.c = c
        self.t = t

    def __repr__(self) -> str:
        return f"Rel({self.c}, {self.t})"



def _norm(c: int, t: dict):
    t = {k: v for k, v in t.items() if v}
    return Rel(c, t) if t else c


def _add(a, b, sign: int = 1):
    if isinstance(a, int) and isinstance(b, int):
        return a + sign * b
    ac, at = (a, {}) if isinstance(a, int) else (a.c, a.t)
    bc, bt = (b, {}) if isinstance(b, int) else (b.c, b.t)
    t = dict(at)
    for k, v in bt.items():
        t[k] = t.get(k, 0) + sign * v
    return _norm(ac + sign * bc, t)


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncates toward zero), as ca65 does."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _cmod(a: int, b: int) -> int:
    return a - b * _cdiv(a, b)


_LONG_MASK = (1 << 64) - 1


def _s64(x: int) -> int:
    """x as ca65's `long` (64-bit two's complement on a 64-bit host)."""
    x &= _LONG_MASK
    return x - (1 << 64) if x >> 63 else x


def _shl(a: int, b: int) -> int:
    """ca65's shl_l: the count is taken as unsigned (a negative count is
    huge), and a count of 64 or more gives 0."""
    b &= 0xFFFFFFFF
    return _s64(a << b) if b < 64 else 0


def _shr(a: int, b: int) -> int:
    """ca65's shr_l: a *logical* right shift of the 64-bit value, so
    `(0 - 1) >> 1` is $7FFF_FFFF_FFFF_FFFF, not -1; counts as in _shl."""
    b &= 0xFFFFFFFF
    return _s64((a & _LONG_MASK) >> b) if b < 64 else 0


_BIN: dict[str, Callable[[int, int], int]] = {
    "&": lambda a, b: a & b,
    "^": lambda a, b: a ^ b,
    "|": lambda a, b: a | b,
    "<<": lambda a, b: _shl(a, b),
    ">>": lambda a, b: _shr(a, b),
    "=": lambda a, b: int(a == b),
    "<>": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b),
    "&&": lambda a, b: int(bool(a) and bool(b)),
    "||": lambda a, b: int(bool(a) or bool(b)),
    "xor": lambda a, b: int(bool(a) != bool(b)),
}

_UN: dict[str, Callable[[int], int]] = {
    "+": lambda a: a,
    "-": lambda a: -a,
    "~": lambda a: ~a,
    "<": lambda a: a & 0xFF,
    ">": lambda a: (a >> 8) & 0xFF,
    "^": lambda a: (a >> 16) & 0xFF,
    "!": lambda a: int(not a),
}


class NotConst(Exception):
    """An operation on relocatable values that only the linker can do."""


class Env(Protocol):
    """Gives values to the leaves of a tree (assembler: relocatable; linker: final)."""

    def sym(self, s) -> "int | Rel": ...
    def loc(self, section, offset: int) -> "int | Rel": ...
    def bank(self, node: tuple, pos: Pos | None) -> int: ...


def evaluate(node: tuple, symval: Env, pos: Pos | None = None):
    """Evaluate ``node``; ``symval`` values symbols (or raises Unknown)."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "sym":
        return symval.sym(node[1])
    if kind == "loc":
        return symval.loc(node[1], node[2])
    if kind == "un":
        if node[1] == "bank":  # .bank(): only the linker knows it (ca65 never folds it)
            return symval.bank(node[2], pos)
        a = evaluate(node[2], symval, pos)
        if not isinstance(a, int):
            if node[1] == "+":
                return a
            if node[1] == "-":
                return _add(0, a, -1)
            raise NotConst()
        return _UN[node[1]](a)
    op = node[1]
    a = evaluate(node[2], symval, pos)
    if op in ("&&", "||") and isinstance(a, int) and bool(a) == (op == "||"):
        return int(bool(a))  # ca65 and ld65 do not look at the right side then
    b = evaluate(node[3], symval, pos)
    if op == "+":
        return _add(a, b)
    if op == "-":
        return _add(a, b, -1)
    if op == "*":
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if isinstance(a, int) or isinstance(b, int):
            k, r = (a, b) if isinstance(a, int) else (b, a)
            return _norm(r.c * k, {key: v * k for key, v in r.t.items()})
        raise NotConst()
    if not (isinstance(a, int) and isinstance(b, int)):
        raise NotConst()
    if op in ("/", "mod"):
        if b == 0:
            raise AsmError("division by zero", pos)
        return _cdiv(a, b) if op == "/" else _cmod(a, b)
    return _BIN[op](a, b)


class SymbolContext(Protocol):
    """What the parser needs from the assembler to bind names."""

    def ref_symbol(self, parts: list[str], rooted: bool, pos: Pos) -> tuple: ...
    def ref_cheap(self, name: str, pos: Pos) -> tuple: ...
    def ref_anon(self, delta: int, pos: Pos) -> tuple: ...
    def pc_node(self, pos: Pos) -> tuple: ...
    def is_defined(self, parts: list[str], rooted: bool, pos: Pos) -> bool: ...


_MUL = {"*": "*", "/": "/", ".mod": "mod", "&": "&", ".bitand": "&", "^": "^",
        ".bitxor": "^", "<<": "<<", ".shl": "<<", ">>": ">>", ".shr": ">>"}
_ADD = {"+": "+", "-": "-", "|": "|", ".bitor": "|"}
_CMP = {"=": "=", "<>": "<>", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
_AND = {"&&": "&&", ".and": "&&", ".xor": "xor"}
_OR = {"||": "||", ".or": "||"}
_UNARY = {"+": "+", "-": "-", "~": "~", ".bitnot": "~", "<": "<", ">": ">", "^": "^"}
_FUNCS = {".lobyte": "<", ".hibyte": ">", ".bankbyte": "^"}


def _key(t: Tok) -> str | None:
    if t.kind == "op":
        return t.value  # type: ignore[return-value]
    if t.kind == "dir":
        return t.value  # type: ignore[return-value]
    return None


class ExprParser:
    """Recursive-descent parser over a token list (ca65 precedence levels 1..7)."""

    def __init__(self, toks: list[Tok], i: int, ctx: SymbolContext):
        self.toks = toks
        self.i = i
        self.ctx = ctx

    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def next(self) -> Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect_op(self, text: str) -> Tok:
        t = self.tok
        if not t.is_op(text):
            raise AsmError(f"'{text}' expected", t.pos)
        return self.next()

    def parse(self) -> tuple:
        return self._not()

    def _not(self) -> tuple:
        t = self.tok
        if t.is_op("!") or (t.kind == "dir" and t.value == ".not"):
            self.next()
            return ("un", "!", self._not())
        return self._binary(_OR, self._and)

    def _and(self) -> tuple:
        return self._binary(_AND, self._cmp)

    def _cmp(self) -> tuple:
        return self._binary(_CMP, self._add)

    def _add(self) -> tuple:
        return self._binary(_ADD, self._mul)

    def _mul(self) -> tuple:
        return self._binary(_MUL, self._unary)

    def _binary(self, table: dict, sub: Callable[[], tuple]) -> tuple:
        left = sub()
        while True:
            k = _key(self.tok)
            if k is None or k not in table:
                return left
            self.next()
            right = sub()
            left = _fold(("bin", table[k], left, right))

    def _unary(self) -> tuple:
        t = self.tok
        k = _key(t)
        if k in _UNARY:
            self.next()
            return _fold(("un", _UNARY[k], self._unary()))
        return self._primary()

    def _primary(self) -> tuple:
        t = self.next()
        if t.kind == "num":
            return ("num", t.value)
        if t.kind == "str" and len(t.value) == 1:  # type: ignore[arg-type]
            return ("num", ord(t.value))  # type: ignore[arg-type]
        if t.is_op("("):
            e = self.parse()
            self.expect_op(")")
            return e
        if t.is_op("*"):
            return self.ctx.pc_node(t.pos)
        if t.kind == "id" or t.is_op("::"):
            return self.ctx.ref_symbol(*self._name(t), t.pos)
        if t.kind == "local":
            return self.ctx.ref_cheap(t.value, t.pos)  # type: ignore[arg-type]
        if t.kind == "anon":
            return self.ctx.ref_anon(t.value, t.pos)  # type: ignore[arg-type]
        if t.kind == "dir":
            if t.value == ".bank":
                self.expect_op("(")
                e = self.parse()
                self.expect_op(")")
                return ("un", "bank", e)
            if t.value in _FUNCS:
                self.expect_op("(")
                e = self.parse()
                self.expect_op(")")
                return _fold(("un", _FUNCS[t.value], e))  # type: ignore[index]
            if t.value in (".defined", ".def"):
                self.expect_op("(")
                first = self.next()
                if first.kind == "local":
                    ok = self.ctx.is_defined([first.value], False, first.pos)  # type: ignore[list-item]
                elif first.kind == "id" or first.is_op("::"):
                    ok = self.ctx.is_defined(*self._name(first), first.pos)
                else:
                    raise AsmError("identifier expected", first.pos)
                self.expect_op(")")
                return ("num", int(ok))
            raise AsmError(f"unexpected directive '{t.value}' in expression", t.pos)
        if t.kind == "eol":
            raise AsmError("expression expected", t.pos)
        raise AsmError(f"unexpected '{t.value}' in expression", t.pos)

    def _name(self, first: Tok) -> tuple[list[str], bool]:
        """Read ``a::b::c`` or ``::c``; ``first`` is already consumed."""
        rooted = False
        if first.is_op("::"):
            rooted = True
            first = self.next()
            if first.kind != "id":
                raise AsmError("identifier expected", first.pos)
        parts = [first.value]  # type: ignore[list-item]
        while self.tok.is_op("::") and self.toks[self.i + 1].kind == "id":
            self.next()
            parts.append(self.next().value)  # type: ignore[arg-type]
        return parts, rooted


def easy_value(node: tuple) -> int | None:
    """ca65's IsEasyConst: a number, or a constant whose definition is (a chain ending in) one.

    Only such operands are folded while parsing, as ca65 does; what ca65 does
    not fold stays a tree in the object, which matters where ld65 looks at
    the tree's shape (.bank()).
    """
    for _ in range(256):  # a longer chain is circular
        if node[0] == "num":
            return node[1]
        if node[0] != "sym":
            return None
        s = node[1]
        if s.kind != "const" or s.alias is not None or s.expr is None:
            return None
        node = s.expr
    return None


def _fold(node: tuple) -> tuple:
    """Constant-fold a node whose operands are easy constants (see easy_value), as ca65's parser."""
    if node[0] == "un":
        if node[1] == "bank":
            return node
        v = easy_value(node[2])
        if v is not None:
            return ("num", _UN[node[1]](v))
        return node[2] if node[1] == "+" else node  # ca65 makes no node for a unary plus
    a, b = easy_value(node[2]), easy_value(node[3])
    if node[0] == "bin" and a is not None and b is not None:
        op = node[1]
        if op in ("/", "mod") and b == 0:
            return node  # report at evaluation with a position
        if op == "+":
            return ("num", a + b)
        if op == "-":
            return ("num", a - b)
        if op == "*":
            return ("num", a * b)
        if op == "/":
            return ("num", _cdiv(a, b))
        if op == "mod":
            return ("num", _cmod(a, b))
        return ("num", _BIN[op](a, b))
    return node


def walk_symbols(node: tuple):
    """Yield every Symbol referenced by ``node``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n[0] == "sym":
            yield n[1]
        elif n[0] == "un":
            stack.append(n[2])
        elif n[0] == "bin":
            stack.append(n[2])
            stack.append(n[3])
