"""The in-memory object format shared by the assembler and the linker.

ca65 writes ``.o`` files for ld65; here the assembler hands Python objects to
the linker instead: sections with bytes + fixups, symbols bound to scopes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Pos
from .lexer import Tok


class Scope:
    """A ``.proc``/``.scope`` (or the file's global scope): its own symbol table."""

    def __init__(self, name: str, parent: "Scope | None"):
        self.name = name
        self.parent = parent
        self.symbols: dict[str, Symbol] = {}
        self.children: dict[str, Scope] = {}

    def qualified(self, name: str) -> str:
        parts = [name]
        s: Scope | None = self
        while s is not None and s.parent is not None:
            parts.append(s.name)
            s = s.parent
        return "::".join(reversed(parts))


@dataclass(eq=False)
class Symbol:
    """A name.  ``kind``: None (only referenced so far), label, const or import."""

    name: str
    scope: Scope | None
    kind: str | None = None
    section: "Section | None" = None
    offset: int = 0
    expr: tuple | None = None
    addrsize: int | None = None  # declared by .importzp/.exportzp/.globalzp
    exported: bool = False
    export_pos: Pos | None = None
    global_decl: bool = False
    def_pos: Pos | None = None
    ref_pos: Pos | None = None
    alias: "Symbol | None" = None
    busy: bool = False

    def real(self) -> "Symbol":
        s = self
        while s.alias is not None:
            s = s.alias
        return s

    @property
    def qualified(self) -> str:
        return self.scope.qualified(self.name) if self.scope else self.name


@dataclass(eq=False)
class Fixup:
    """Bytes at ``offset`` whose value the linker computes from ``node``."""

    offset: int
    size: int
    node: tuple
    pos: Pos
    what: str  # description used in range errors
    signed: bool = False


@dataclass(eq=False)
class Section:
    """One object's contribution to a segment."""

    name: str
    addrsize: int
    data: bytearray = field(default_factory=bytearray)
    fixups: list[Fixup] = field(default_factory=list)
    fills: list[tuple[int, int]] = field(default_factory=list)  # filled with the memory fillval
    align: int = 1
    pos: Pos | None = None  # where the segment was first selected
    base: int | None = None  # run address, set by the linker
    load_base: int | None = None
    obj: "ObjectFile | None" = None

    def __hash__(self) -> int:
        return id(self)


@dataclass
class ListLine:
    """One source line for the listing file."""

    file: str
    line: int
    text: str
    section: Section | None
    offset: int
    size: int
    depth: int


@dataclass
class Assertion:
    node: tuple
    pos: Pos
    action: str
    message: str


@dataclass
class ObjectFile:
    """What one source assembles to; consumed by the linker."""

    name: str
    sections: dict[str, Section]
    exports: dict[str, Symbol]
    imports: dict[str, Symbol]
    labels: list[Symbol]
    assertions: list[Assertion]
    listing: list[ListLine]
    messages: list[str]


@dataclass
class Macro:
    name: str
    params: list[str]
    body: list[tuple[list[Tok], str]]
    pos: Pos
