"""Tokenizer for the ca65 subset.

Lexing is per line (ca65 is line oriented).  A few ca65 quirks are decided
here, as in ca65's own scanner: ``:+``/``:-`` are anonymous-label references,
``z:``/``a:``/``f:`` are address-size overrides and ``::`` is the scope
separator.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import AsmError, Pos

# Multi-character operators, longest first so that ``<<`` wins over ``<``.
_OPS2 = ("::", "<<", ">>", "<=", ">=", "<>", "&&", "||", ":=")
_OPS1 = "+-*/&|^~<>=!()#,[]{}:"
_IDSTART = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_IDCHARS = _IDSTART + "0123456789"


@dataclass(slots=True)
class Tok:
    """One token.  ``kind`` is one of id, local, dir, num, str, op, anon, ovr, eol."""

    kind: str
    value: object
    pos: Pos

    def is_op(self, text: str) -> bool:
        return self.kind == "op" and self.value == text

    def __repr__(self) -> str:  # compact, for debugging
        return f"{self.kind}:{self.value!r}"


def tokenize(text: str, file: str, line: int) -> list[Tok]:
    """Split one source line into tokens; the list always ends with an eol token."""
    toks: list[Tok] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == ";":
            break
        pos = Pos(file, line, i + 1)
        if c in _IDSTART:
            j = i + 1
            while j < n and text[j] in _IDCHARS:
                j += 1
            word = text[i:j]
            if (j - i == 1 and word in "zZaAfF" and j < n and text[j] == ":"
                    and not text.startswith("::", j)):
                toks.append(Tok("ovr", word.lower(), pos))
                i = j + 1
                continue
            toks.append(Tok("id", word, pos))
            i = j
            continue
        if c == "@" and i + 1 < n and text[i + 1] in _IDSTART:
            j = i + 2
            while j < n and text[j] in _IDCHARS:
                j += 1
            toks.append(Tok("local", text[i:j], pos))
            i = j
            continue
        if c == "." and i + 1 < n and text[i + 1] in _IDSTART:
            j = i + 2
            while j < n and text[j] in _IDCHARS:
                j += 1
            toks.append(Tok("dir", text[i:j].lower(), pos))
            i = j
            continue
        if c == "$":
            j = i + 1
            while j < n and text[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                raise AsmError("hexadecimal digit expected after '$'", pos)
            toks.append(Tok("num", int(text[i + 1:j], 16), pos))
            i = j
            continue
        if c == "%" and i + 1 < n and text[i + 1] in "01":
            j = i + 1
            while j < n and text[j] in "01":
                j += 1
            toks.append(Tok("num", int(text[i + 1:j], 2), pos))
            i = j
            continue
        if c.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j < n and text[j] in _IDSTART:
                raise AsmError(f"invalid number '{text[i:j + 1]}'", pos)
            toks.append(Tok("num", int(text[i:j]), pos))
            i = j
            continue
        if c == '"':
            j = text.find('"', i + 1)
            if j < 0:
                raise AsmError("unterminated string constant", pos)
            toks.append(Tok("str", text[i + 1:j], pos))
            i = j + 1
            continue
        if c == "'":
            if i + 2 < n and text[i + 2] == "'":
                toks.append(Tok("num", ord(text[i + 1]), pos))
                i += 3
                continue
            raise AsmError("invalid character constant", pos)
        if c == ":" and i + 1 < n and text[i + 1] in "+-":
            sign = text[i + 1]
            j = i + 1
            while j < n and text[j] == sign:
                j += 1
            count = j - i - 1
            toks.append(Tok("anon", count if sign == "+" else -count, pos))
            i = j
            continue
        two = text[i:i + 2]
        if two in _OPS2:
            toks.append(Tok("op", two, pos))
            i += 2
            continue
        if c in _OPS1:
            toks.append(Tok("op", c, pos))
            i += 1
            continue
        raise AsmError(f"invalid character '{c}'", pos)
    toks.append(Tok("eol", None, Pos(file, line, len(text.rstrip("\r\n")) + 1)))
    return toks
