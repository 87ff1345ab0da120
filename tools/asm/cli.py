"""Command line: ``python -m tools.asm SRC.s [...] -C CFG -o OUT [options]``.

Mirrors ``ca65 SRC.s && ld65 -C CFG -o OUT SRC.o``; errors are one line
(``file:line:col: error: ...``), exit status 1, and no output file is left
behind (every file is written to a temp file and renamed).
"""
from __future__ import annotations

import argparse
import sys

from . import assemble_and_link
from .errors import AsmError
from .outputs import (check_output_paths, fceux_labels, listing, map_json, memory_report, mesen_labels,
                      write_all_atomic)


def _define(text: str) -> tuple[str, int]:
    name, _, value = text.partition("=")
    if not name.isidentifier():
        raise argparse.ArgumentTypeError(f"bad -D name '{name}'")
    if not value:
        return name, 0  # ca65: -D NAME without a value defines NAME = 0
    try:
        if value.startswith("$"):
            return name, int(value[1:], 16)
        if value.startswith("%"):
            return name, int(value[1:], 2)
        return name, int(value, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad -D value '{value}'") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.asm",
                                description="6502 assembler + linker (ca65/ld65 compatible subset)")
    p.add_argument("sources", nargs="+", help="assembly sources, linked in this order")
    p.add_argument("-C", dest="config", required=True, help="ld65 linker config")
    p.add_argument("-o", dest="output", required=True, help="output binary")
    p.add_argument("-I", dest="include", action="append", default=[], help="include directory")
    p.add_argument("-D", dest="defines", action="append", default=[], type=_define,
                   help="define NAME[=VALUE] (as ca65 -D)")
    p.add_argument("-l", "--listing", help="write a listing file")
    p.add_argument("--nl", action="store_true",
                   help="write FCEUX label files OUT.ram.nl and OUT.N.nl for each 16 KiB bank N "
                        "of PRG ROM (N in hex, as FCEUX names them)")
    p.add_argument("--mlb", help="write a Mesen 2 label file")
    p.add_argument("--map", help="write a JSON map (segments, memory areas, exports)")
    p.add_argument("-q", "--quiet", action="store_true", help="no memory report")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        named = [(args.output, "the output (-o)"), (args.listing, "the listing (-l)"),
                 (args.mlb, "the Mesen labels (--mlb)"), (args.map, "the map (--map)")]
        check_output_paths([(p, what) for p, what in named if p])
        res = assemble_and_link(args.sources, args.config, args.include, dict(args.defines))
        outputs: list[tuple[str, bytes | str, str]] = [(args.output, res.image, named[0][1])]
        if args.listing:
            outputs.append((args.listing, listing(res), named[1][1]))
        if args.nl:
            for k, text in fceux_labels(res).items():
                outputs.append((f"{args.output}.{k}.nl", text, "an FCEUX label file (--nl)"))
        if args.mlb:
            outputs.append((args.mlb, mesen_labels(res), named[2][1]))
        if args.map:
            outputs.append((args.map, map_json(res), named[3][1]))
        check_output_paths([(p, what) for p, _, what in outputs])
        write_all_atomic([(p, data) for p, data, _ in outputs])
    except AsmError as e:
        print(str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    for m in res.messages:
        print(m, file=sys.stderr)
    if not args.quiet:
        sys.stdout.write(memory_report(res))
    return 0
