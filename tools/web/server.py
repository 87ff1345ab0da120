"""`make serve`: serve the built site over HTTP on this machine.

    python -m tools.web serve [--dir site] [--port 8000] [--host 127.0.0.1]

The page must come over HTTP: a page opened as a file cannot fetch the ROM.
The server is Python's own (http.server), answering only on the loopback
address unless --host says otherwise.  The page's files carry ?v=<hash> in
their URLs, so every answer may be revalidated (Cache-Control: no-cache)
without costing a download when nothing changed.

`start_server` runs it in a background thread, for the browser test.
"""
from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files of one folder, with the types the page needs."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".nes": "application/octet-stream",
        ".txt": "text/plain; charset=utf-8",
    }
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class' name)
        if not self.quiet:
            super().log_message(format, *args)


class SiteServerError(Exception):
    """The site is missing or the address cannot be used."""


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 8000,
                quiet: bool = False) -> ThreadingHTTPServer:
    """A server for `directory` bound to host:port (port 0: any free port)."""
    directory = Path(directory)
    if not (directory / "index.html").is_file():
        raise SiteServerError(f"{directory}: no index.html (build the site first: make web)")
    handler = functools.partial(type("Handler", (SiteHandler,), {"quiet": quiet}), directory=str(directory))
    try:
        return ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise SiteServerError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def url_of(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"


class BackgroundServer:
    """make_server in a daemon thread; stopped by close() or at the end of a `with`."""

    def __init__(self, directory: Path, host: str = "127.0.0.1", port: int = 0) -> None:
        self.server = make_server(directory, host, port, quiet=True)
        self.url = url_of(self.server)
        self.thread = threading.Thread(target=self.server.serve_forever, name="site-server", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def __enter__(self) -> "BackgroundServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
