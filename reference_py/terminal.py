"""A terminal game against the reference engine (ANSI colours, Chinese pieces).

Every game is added to a PGN file (reference_py/pgn.py; games/terminal.pgn
by default): when it ends, or unfinished when the player starts a new one
or quits.
"""
from __future__ import annotations

import sys

from .board import BLACK, RED, move_iccs, square
from .fen import START_FEN
from .notation import CHINESE, NotationError, format_wxf, kind_at
from .pgn import PgnError, append_game, format_game, result_of
from .rules import Game
from .search import Searcher, level_by_name, levels

RED_FG = "\033[1;31m"
BLACK_FG = "\033[1;34m"
DIM = "\033[2m"
RESET = "\033[0m"
HELP = """Moves: ICCS (h2e2) or WXF (C2=5).  Commands: undo, hint, new, help, quit."""


def render(game: Game, color: bool = True, last: int | None = None) -> str:
    pos = game.pos
    lines = ["    a  b  c  d  e  f  g  h  i"]
    for rank in range(9, -1, -1):
        cells = []
        for file in range(9):
            sq = square(file, rank)
            piece = kind_at(pos, sq)
            mark = last is not None and sq in (last & 0xFF, last >> 8)
            if piece is None:
                text = "．" if not mark else "＊"
                cells.append(f"{DIM}{text}{RESET}" if color else text)
            else:
                glyph = CHINESE[piece]
                fg = RED_FG if piece[0] == RED else BLACK_FG
                cells.append(f"{fg}{glyph}{RESET}" if color else glyph)
        lines.append(f" {rank}  " + " ".join(cells))
        if rank == 5:
            lines.append("    ～～～ 楚 河      漢 界 ～～～")
    return "\n".join(lines)


def save_game(path, game: Game, level: str, human_side: int, out) -> None:
    """Add the game to the PGN file (finished or not)."""
    if path is None or not game.moves:
        return
    result, how = result_of(game.outcome())
    engine = f"reference engine ({level})"
    red, black = ("Human", engine) if human_side == RED else (engine, "Human")
    try:
        append_game(path, format_game(START_FEN, game.moves, red=red, black=black,
                                      red_level=None if human_side == RED else level,
                                      black_level=level if human_side == RED else None,
                                      result=result, termination=how, event="NES Xiangqi terminal game",
                                      site="terminal"))
    except (PgnError, OSError) as exc:
        print(f"(the game could not be saved: {exc})", file=out)
        return
    print(f"(the game is in {path})", file=out)


def play(level_name: str, human_side: int, stream_in=sys.stdin, out=sys.stdout, pgn=None) -> int:
    level = level_by_name(level_name)
    game = Game(START_FEN)
    saved = False
    color = out.isatty()
    last: int | None = None
    print(f"Xiangqi against the reference engine, level {level.name}. You play "
          f"{'Red' if human_side == RED else 'Black'}.  {HELP}", file=out)
    while True:
        print("\n" + render(game, color, last), file=out)
        outcome = game.outcome()
        if outcome:
            print(f"\nGame over. {outcome.describe()}", file=out)
            if not saved:
                save_game(pgn, game, level.name, human_side, out)
                saved = True
            print("Type 'new' for another game or 'quit'.", file=out)
        elif game.pos.side != human_side:
            result = Searcher(game.pos, level, seed=len(game.moves)).run()
            assert result.move is not None
            text = format_wxf(game.pos, result.move)
            game.play(result.move)
            last = result.move
            print(f"\nComputer plays {text} ({move_iccs(result.move)}), score {result.score}, "
                  f"{result.nodes} nodes", file=out)
            continue
        side = "Red" if game.pos.side == RED else "Black"
        print(f"{side} to move > ", end="", file=out, flush=True)
        line = stream_in.readline()
        if not line:
            if not saved:
                save_game(pgn, game, level.name, human_side, out)
            print("\nBye.", file=out)
            return 0
        cmd = line.strip()
        if not cmd:
            continue
        if cmd in ("quit", "exit", "q"):
            if not saved:
                save_game(pgn, game, level.name, human_side, out)
            return 0
        if cmd == "help":
            print(HELP, file=out)
        elif cmd == "new":
            if not saved:
                save_game(pgn, game, level.name, human_side, out)
            game = Game(START_FEN)
            last = None
            saved = False
        elif cmd == "undo":
            if len(game.moves) >= 2:
                game.undo(2)
                last = None
                saved = False
            else:
                print("Nothing to take back.", file=out)
        elif cmd == "hint":
            if outcome:
                print("The game is over.", file=out)
            else:
                all_levels = levels()
                hint = Searcher(game.pos.copy(), all_levels[min(1, len(all_levels) - 1)], seed=1).run()
                print(f"Hint: {format_wxf(game.pos, hint.move)} ({move_iccs(hint.move)})", file=out)
        elif outcome:
            print("The game is over: type 'new', 'undo' or 'quit'.", file=out)
        else:
            try:
                mv = game.play_text(cmd)
                last = mv
            except NotationError as exc:
                print(f"  {exc}", file=out)
    return 0


__all__ = ["play", "render", "BLACK", "RED"]
