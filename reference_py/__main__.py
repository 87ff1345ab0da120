"""Command line of the reference engine (the ROM's driver offers the same one).

  python -m reference_py perft "<FEN>" <DEPTH>
  python -m reference_py perft-suite <FILE> [--max-depth D]
  python -m reference_py search "<FEN>" --level NAME [--moves m1 m2 ...] [--seed N]
  python -m reference_py book "<FEN>" [--moves m1 m2 ...]
  python -m reference_py result "<FEN>" [--moves m1 m2 ...]
  python -m reference_py levels
  python -m reference_py play [--level NAME] [--side red|black]
  python -m reference_py uci | ucci      (an engine for xiangqi GUIs: reference_py/protocol)
Errors are one line on stderr and exit status 2 (bad input) or 1 (a failed check).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .board import BLACK, RED, move_iccs
from .book import default_book, probe_json
from .cli import SEED_MAX, UsageError, game_after, game_position, parse_suite, run_cli, seed_arg
from .fen import parse_fen
from .perft import perft, perft_divide
from .pgn import PgnError, check_can_add, result_of
from .search import Searcher, level_by_name, levels


def cmd_perft(args: argparse.Namespace) -> int:
    pos = parse_fen(args.fen)
    if args.depth < 1:
        raise UsageError("depth must be at least 1")
    total = 0
    for move, n in perft_divide(pos, args.depth):
        print(f"{move_iccs(move)} {n}")
        total += n
    print(f"total {total}")
    return 0


def cmd_perft_suite(args: argparse.Namespace) -> int:
    if args.max_depth < 0:
        raise UsageError("--max-depth must be 0 (all counts) or more")
    passed = failed = 0
    for no, fen, nums in parse_suite(Path(args.file)):
        depth = min(len(nums), args.max_depth) if args.max_depth else len(nums)
        pos = parse_fen(fen)
        t = time.perf_counter()
        got = [perft(pos, d) for d in range(1, depth + 1)]
        ok = got == nums[:depth]
        status = "ok  " if ok else "FAIL"
        print(f"{status} line {no}: {fen} ; {' '.join(map(str, got))}"
              + ("" if ok else f" (expected {' '.join(map(str, nums[:depth]))})")
              + f"  [{time.perf_counter() - t:.2f}s]")
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_search(args: argparse.Namespace) -> int:
    try:
        level = level_by_name(args.level)
    except KeyError:
        raise UsageError(f"unknown level '{args.level}' (levels: {', '.join(l.name for l in levels())})") from None
    result = Searcher(game_position(args.fen, args.moves), level, seed=args.seed).run()
    print(json.dumps(result.as_json(), ensure_ascii=False))
    return 0


def cmd_book(args: argparse.Namespace) -> int:
    """The opening book's record of the position: its opening and its moves
    with their weights (an empty list out of book)."""
    print(json.dumps(probe_json(default_book(), game_position(args.fen, args.moves)), ensure_ascii=False))
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    """The game's result after the moves by the rules of reference_py.rules:
    {"result": "1-0" | "0-1" | "1/2-1/2" | "*", "reason": ...}."""
    result, reason = result_of(game_after(args.fen, args.moves).outcome(), unfinished=ONGOING)
    print(json.dumps({"result": result, "reason": reason}, ensure_ascii=False))
    return 0


def cmd_levels(args: argparse.Namespace) -> int:
    for lv in levels():
        print(lv.name)
    return 0


def default_play_level() -> str:
    """The third level (or the strongest, if there are fewer than three)."""
    all_levels = levels()
    return all_levels[min(2, len(all_levels) - 1)].name


def cmd_play(args: argparse.Namespace) -> int:
    from .terminal import play
    if args.level is None:
        # Resolved here, not in build_parser(): a broken config/difficulty.yaml must
        # give the one-line ConfigError of main(), not a traceback from the parser.
        args.level = default_play_level()
    try:
        level_by_name(args.level)
    except KeyError:
        raise UsageError(f"unknown level '{args.level}' (levels: {', '.join(l.name for l in levels())})") from None
    if not sys.stdin.isatty() and not args.force:
        from .demo import demo
        return demo()
    try:
        check_can_add(args.pgn)         # before the game, not after it
    except PgnError as exc:
        raise UsageError(f"--pgn {exc}") from None
    return play(args.level, RED if args.side == "red" else BLACK, pgn=args.pgn)


def cmd_protocol(args: argparse.Namespace) -> int:
    from .protocol.reference import ReferenceBackend
    from .protocol.session import serve
    return serve(ReferenceBackend(), args.cmd)


ONGOING = "the game goes on"       # result's reason while the result is "*"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reference_py", description="Xiangqi reference engine")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("perft", help="count leaf nodes per root move")
    s.add_argument("fen")
    s.add_argument("depth", type=int)
    s.set_defaults(func=cmd_perft)
    s = sub.add_parser("perft-suite", help="check a file of 'FEN ; counts' lines")
    s.add_argument("file")
    s.add_argument("--max-depth", type=int, default=0)
    s.set_defaults(func=cmd_perft_suite)
    s = sub.add_parser("search", help="search a position, print JSON")
    s.add_argument("fen")
    s.add_argument("--level", required=True)
    s.add_argument("--moves", nargs="*", default=[])
    s.add_argument("--seed", type=seed_arg, default=0, help=f"noise seed, 0..{SEED_MAX}")
    s.set_defaults(func=cmd_search)
    s = sub.add_parser("book", help="the opening book's moves in a position, print JSON")
    s.add_argument("fen")
    s.add_argument("--moves", nargs="*", default=[])
    s.set_defaults(func=cmd_book)
    s = sub.add_parser("result", help="the game's result after the moves, print JSON")
    s.add_argument("fen")
    s.add_argument("--moves", nargs="*", default=[])
    s.set_defaults(func=cmd_result)
    s = sub.add_parser("levels", help="list the difficulty levels, weakest first")
    s.set_defaults(func=cmd_levels)
    s = sub.add_parser("play", help="play in the terminal")
    s.add_argument("--level", default=None, help="difficulty level (default: the third one)")
    s.add_argument("--side", choices=("red", "black"), default="red")
    s.add_argument("--force", action="store_true", help="play even when standard input is not a terminal")
    s.add_argument("--pgn", type=Path, default=Path(__file__).resolve().parent.parent / "games" / "terminal.pgn",
                   help="the PGN file every game is added to (default games/terminal.pgn)")
    s.set_defaults(func=cmd_play)
    for name, proto in (("uci", "UCI (as Pikafish and Fairy-Stockfish speak it)"),
                        ("ucci", "UCCI (as ElephantEye speaks it)")):
        s = sub.add_parser(name, help=f"talk {proto} on stdin/stdout, for a GUI")
        s.set_defaults(func=cmd_protocol)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_cli(lambda: args.func(args))


if __name__ == "__main__":
    sys.exit(main())
