"""python -m tools.tune ladder|sprt|texel: the tuning tools (tools/tune/)."""
from __future__ import annotations

import sys

USAGE = """usage: python -m tools.tune COMMAND [options]

commands:
  ladder   every level against anchors and its neighbours: Elo, LOS, NES think time, report
  sprt     A/B test of two configurations (YAML trees or git revisions), pentanomial SPRT
  texel    fit config/eval.yaml's weights to Fairy-Stockfish self-play (Texel's method)

`python -m tools.tune COMMAND --help` for a command's options."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "ladder":
        from .ladder import run
    elif cmd == "sprt":
        from .sprt import run
    elif cmd == "texel":
        from .texel import run
    else:
        print(f"error: unknown command '{cmd}'\n{USAGE}", file=sys.stderr)
        return 2
    return run(rest)


if __name__ == "__main__":
    sys.exit(main())
