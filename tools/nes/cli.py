"""The ROM driver's command line: the reference's commands, run by the ROM.

    python -m tools.romengine perft "<FEN>" <DEPTH>
    python -m tools.romengine perft-suite <FILE> [--max-depth D]
    python -m tools.romengine search ... / eval ...    (the same as tools.romsearch)
    python -m tools.romsearch search "<FEN>" --level NAME [--moves m1 ...] [--seed N]
    python -m tools.romsearch eval "<FEN>" [--set NAME] [--moves m1 ...]
    python -m tools.romengine result "<FEN>" [--moves m1 ...]   (the cartridge's game_outcome)
    python -m tools.romengine uci | ucci    (an engine for xiangqi GUIs: tools/nes/protocol.py)

Same output and exit codes as `python -m reference_py perft / perft-suite /
search / result`, plus the 6502 cycles spent (on stderr for `perft`, at the end of
each suite line, `cycles` and `seconds` (NES time) in the search's JSON).
Errors: one line on stderr starting `error:`, exit status 2 (bad input) or
1 (a failed check or a fault of the 6502 code): reference_py/cli.py's
policy.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from reference_py.__main__ import ONGOING
from reference_py.board import move_iccs
from reference_py.cli import SEED_MAX, UsageError, game_position, parse_suite, run_cli, seed_arg
from reference_py.fen import parse_fen
from reference_py.notation import NotationError, parse_move
from reference_py.pgn import result_of
from reference_py.rules import Game
from reference_py.search import level_by_name, levels
from tools.nes.cartridge import CartridgeError
from tools.nes.engine import RomEngine
from tools.nes.game import RomGame, outcome_words
from tools.nes.guards import Fault
from tools.nes.linkmap import LinkMapError
from tools.nes.search import RomSearch
from tools.rom.files import BuildError


def run(body) -> int:
    """reference_py.cli.run_cli with the drivers' additions: a ValueError, a
    ROM file or map that is not what the drivers need, or a failed automatic
    rebuild of the ROM is bad input; a 6502 fault a failed run."""
    return run_cli(body, bad_input=(ValueError, CartridgeError, LinkMapError, BuildError),
                   faults=(Fault,), fault_prefix="6502 fault: ")


# ---------------------------------------------------------------- perft
def cmd_perft(args: argparse.Namespace, eng: RomEngine) -> int:
    pos = parse_fen(args.fen)
    if args.depth < 1:
        raise ValueError("depth must be at least 1")
    eng.load(pos)
    before = eng.cpu.total_cycles
    total = 0
    for move, n in eng.perft_divide(args.depth):
        print(f"{move_iccs(move)} {n}")
        total += n
    print(f"total {total}")
    print(f"cycles {eng.cpu.total_cycles - before}", file=sys.stderr)
    return 0


def cmd_perft_suite(args: argparse.Namespace, eng: RomEngine) -> int:
    passed = failed = 0
    for no, fen, nums in parse_suite(Path(args.file)):
        depth = min(len(nums), args.max_depth) if args.max_depth else len(nums)
        pos = parse_fen(fen)
        t = time.perf_counter()
        eng.load(pos)
        got, cycles = [], 0
        for d in range(1, depth + 1):
            got.append(eng.perft(d))
            cycles += eng.cpu.cycles
        ok = got == nums[:depth]
        status = "ok  " if ok else "FAIL"
        print(f"{status} line {no}: {fen} ; {' '.join(map(str, got))}"
              + ("" if ok else f" (expected {' '.join(map(str, nums[:depth]))})")
              + f"  [{time.perf_counter() - t:.2f}s, {cycles} cycles]", flush=True)
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------- result
def rom_result(fen: str, moves: list[str] | None, rom: RomGame | None = None) -> dict[str, str]:
    """The cartridge's verdict after `moves` from `fen`: game_play plays
    each move and game_outcome judges (checkmate, perpetual check and
    chase, repetition, the 60-move rule), as `python -m reference_py
    result` does with reference_py.rules.  The reference parses the moves
    (ICCS or WXF) and names a bad one; a move after the end of the game, as
    the cartridge judges it, is refused with the reference's words."""
    game = Game(fen)
    rom = rom or RomGame()
    rom.setup(game.pos)
    for i, text in enumerate(moves or [], 1):
        over = outcome_words(*rom.outcome())
        if over is not None:
            raise UsageError(f"move {i} of --moves ('{text}'): the game is over "
                             f"{'at the start' if i == 1 else f'after move {i - 1}'}: {over.describe()}")
        try:
            move = parse_move(game.pos, text)
        except NotationError as exc:
            raise UsageError(f"move {i} of --moves: {exc}") from None
        if not rom.find(move):
            raise UsageError(f"move {i} of --moves ('{text}'): not among the cartridge's legal moves")
        rom.play(move)
        game.play(move)
    result, reason = result_of(outcome_words(*rom.outcome()), unfinished=ONGOING)
    return {"result": result, "reason": reason}


def cmd_result(args: argparse.Namespace) -> int:
    print(json.dumps(rom_result(args.fen, args.moves), ensure_ascii=False))
    return 0


# ---------------------------------------------------------------- search / eval
def add_search_commands(sub) -> None:
    s = sub.add_parser("search", help="search a position (same JSON as reference_py search + cycles)")
    s.add_argument("fen")
    s.add_argument("--level", required=True)
    s.add_argument("--moves", nargs="*")
    s.add_argument("--seed", type=seed_arg, default=0, help=f"noise seed, 0..{SEED_MAX}")
    s.set_defaults(func=cmd_search)
    b = sub.add_parser("book", help="the opening book's moves in a position, as the ROM finds them (JSON)")
    b.add_argument("fen")
    b.add_argument("--moves", nargs="*")
    b.set_defaults(func=cmd_book)
    e = sub.add_parser("eval", help="static evaluation of a position")
    e.add_argument("fen")
    e.add_argument("--set", default=None, help="weight set (default: the first)")
    e.add_argument("--moves", nargs="*")
    e.set_defaults(func=cmd_eval)


def cmd_search(args: argparse.Namespace) -> int:
    pos = game_position(args.fen, args.moves)
    try:
        level_by_name(args.level)
    except KeyError:
        raise UsageError(f"unknown level '{args.level}' (levels: "
                         f"{', '.join(l.name for l in levels())})") from None
    res = RomSearch().search(pos, args.level, args.seed)
    res.pop("wall")
    res.pop("bank_switches")
    print(json.dumps(res, ensure_ascii=False))
    return 0


def cmd_book(args: argparse.Namespace) -> int:
    print(json.dumps(RomSearch().book(game_position(args.fen, args.moves)), ensure_ascii=False))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    pos = game_position(args.fen, args.moves)
    rs = RomSearch()
    name = args.set or rs.sets[0]
    if name not in rs.sets:
        raise UsageError(f"unknown weight set '{name}' (sets: {', '.join(rs.sets)})")
    score, cycles = rs.eval(pos, name)
    print(json.dumps({"eval": score, "cycles": cycles}))
    return 0


# ---------------------------------------------------------------- entry points
def engine_main(argv: list[str] | None = None) -> int:
    """`python -m tools.romengine`: perft, perft-suite, result, and search /
    eval (so the ROM's driver has the reference's full command line)."""
    p = argparse.ArgumentParser(prog="python -m tools.romengine",
                                description="The ROM's 6502 engine under py65 (same commands as reference_py)")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("perft", help="count leaf nodes per root move")
    s.add_argument("fen")
    s.add_argument("depth", type=int)
    s.set_defaults(func=lambda a: cmd_perft(a, RomEngine()))
    s = sub.add_parser("perft-suite", help="check a file of 'FEN ; counts' lines")
    s.add_argument("file")
    s.add_argument("--max-depth", type=int, default=0)
    s.set_defaults(func=lambda a: cmd_perft_suite(a, RomEngine()))
    add_search_commands(sub)
    s = sub.add_parser("result", help="the game's result after the moves, by the cartridge's rules (JSON)")
    s.add_argument("fen")
    s.add_argument("--moves", nargs="*", default=[])
    s.set_defaults(func=cmd_result)
    for name, proto in (("uci", "UCI (as Pikafish and Fairy-Stockfish speak it)"),
                        ("ucci", "UCCI (as ElephantEye speaks it)")):
        s = sub.add_parser(name, help=f"the cartridge's engine talking {proto} on stdin/stdout, for a GUI")
        s.set_defaults(func=cmd_protocol)
    args = p.parse_args(argv)
    return run(lambda: args.func(args))


def cmd_protocol(args: argparse.Namespace) -> int:
    from reference_py.protocol.session import serve
    from tools.nes.protocol import RomBackend
    return serve(RomBackend(), args.cmd)


def search_main(argv: list[str] | None = None) -> int:
    """`python -m tools.romsearch`: search and eval."""
    p = argparse.ArgumentParser(prog="python -m tools.romsearch",
                                description="The ROM's 6502 evaluation and search under py65")
    sub = p.add_subparsers(dest="cmd", required=True)
    add_search_commands(sub)
    args = p.parse_args(argv)
    return run(lambda: args.func(args))
