"""The engines in the xiangqi world: UCI and UCCI adapters.

One implementation of the two protocols, two engine back-ends:

  coords.py     move text in the client's convention (ICCS ranks 0-9 as
                Pikafish, UCCI and XBoard write them, or Fairy-Stockfish's 1-10)
  limits.py     a `go` command's limits and the time it may take
  dialect.py    what differs between UCI and UCCI: handshake, options,
                `setoption` and `go` syntax, info and bestmove lines
  backend.py    what a back-end offers (Backend) and what it reports
  reference.py  the reference engine's back-end (reference_py.search)
  session.py    the command loop: a search in a worker thread, `stop`
                answered at once, bad input answered with `info string`

The ROM's back-end (the cartridge's 6502 engine under py65) is
tools/nes/protocol.py.  Entry points: `python -m reference_py uci|ucci`,
`python -m tools.romengine uci|ucci`.
"""
