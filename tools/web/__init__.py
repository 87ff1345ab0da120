"""The cartridge in a web browser: the static site (build.py, `make web`)
and a local server for it (server.py, `make serve`).  The page itself lives
in web/."""
