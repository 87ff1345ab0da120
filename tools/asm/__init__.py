"""A 6502 assembler + linker in Python, byte-identical to ca65 + ld65 on a documented subset.

Library use::

    from tools.asm import assemble_and_link, AsmError
    result = assemble_and_link(["main.s"], "nes.cfg")
    result.image          # the linked bytes (what ld65 -o would write)
    result.exports        # exported symbol -> value
    result.labels         # every label with its final address

See docs/TOOLCHAIN.md for the accepted syntax and the command line.
"""
from __future__ import annotations

from .assembler import assemble_file
from .objects import ObjectFile
from .errors import AreaOverflow, AsmError, Pos
from .linker import LinkResult, link, parse_config


def assemble_and_link(sources: list[str], config: str, include_dirs: list[str] | None = None,
                      defines: dict[str, int] | None = None) -> LinkResult:
    """Assemble every source (as ca65 would, one object each) and link them (as ld65 -C)."""
    cfg = parse_config(config)
    objects = []
    for src in sources:
        try:
            objects.append(assemble_file(src, include_dirs, defines))
        except RecursionError:
            raise AsmError("expression or nesting too deep", Pos(src, 0, 0)) from None
        except OSError as e:
            raise AsmError(f"cannot read '{e.filename}': {e.strerror}") from None
    return link(objects, cfg)


__all__ = ["AreaOverflow", "AsmError", "LinkResult", "ObjectFile", "Pos", "assemble_and_link", "assemble_file",
           "link", "parse_config"]
