"""A short computer-vs-computer game printed to the terminal.

`make play` runs this when there is no terminal to play in (no TTY on
standard input), so the command still shows the game working.
"""
from __future__ import annotations

import sys
from typing import TextIO

from .board import move_iccs
from .fen import START_FEN
from .notation import format_wxf
from .terminal import render
from .rules import Game
from .search import Searcher, levels


def demo(plies: int = 40, out: TextIO = sys.stdout) -> int:
    names = [lv.name for lv in levels()]
    red, black = levels()[min(2, len(levels()) - 1)], levels()[min(1, len(levels()) - 1)]
    print(f"No terminal to play in: here is a demo game, {red.name} (Red) vs {black.name} (Black).", file=out)
    print(f"Levels: {', '.join(names)}.  Play yourself with: .venv/bin/python -m reference_py play", file=out)
    game = Game(START_FEN)
    line: list[str] = []
    for ply in range(plies):
        outcome = game.outcome()
        if outcome:
            print("\n" + render(game, color=False), file=out)
            print(outcome.describe(), file=out)
            return 0
        level = red if ply % 2 == 0 else black
        result = Searcher(game.pos, level, seed=ply + 1).run()
        text = format_wxf(game.pos, result.move)
        line.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
        game.play(result.move)
    print("\n" + render(game, color=False, last=game.moves[-1]), file=out)
    print(" ".join(line), file=out)
    print(f"(stopped after {plies} plies; last move {move_iccs(game.moves[-1])})", file=out)
    return 0
