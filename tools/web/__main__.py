"""`python -m tools.web build | serve`: the site that plays the cartridge in a browser.

    python -m tools.web build [--out site]                  # make web
    python -m tools.web serve [--dir site] [--port 8000]    # make serve

Exit status 0, or 1 with a message naming the file and the problem.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.web.build import SITE, WebBuildError, build, rel
from tools.web.server import SiteServerError, make_server, url_of


def port(text: str) -> int:
    """argparse type: a TCP port, 0..65535 (0: any free one)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{n} is out of range 0..65535")
    return n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.web", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the site (site/ by default)")
    b.add_argument("--out", type=Path, default=SITE, help="the folder to (re)build (default: site)")
    s = sub.add_parser("serve", help="serve the built site until interrupted")
    s.add_argument("--dir", type=Path, default=SITE, help="the folder to serve (default: site)")
    s.add_argument("--port", type=port, default=8000, help="the port (default: 8000; 0: any free one)")
    s.add_argument("--host", default="127.0.0.1",
                   help="the address to answer on (default: 127.0.0.1, this machine only)")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            files = build(args.out)
            size = sum(p.stat().st_size for p in files)
            print(f"{rel(args.out)}/: {', '.join(p.name for p in files)} ({size:,} bytes)")
            print("serve it with `make serve` (a page opened as a file cannot load the ROM)")
            return 0
        server = make_server(args.dir, args.host, args.port)
    except (WebBuildError, SiteServerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"serving {rel(args.dir)}/ at {url_of(server)} (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
