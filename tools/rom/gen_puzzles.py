"""The endgame puzzles: config/puzzles.yaml, checked with Fairy-Stockfish, as ROM data.

    python -m tools.rom.gen_puzzles check [--force]   # Fairy-Stockfish -> config/puzzles.checked.json
    python -m tools.rom.gen_puzzles list              # the puzzles and their checked verdicts
    python -m tools.rom.gen_puzzles [OUT_DIR]         # build/gen/puzzles_*.inc (the build runs this)

config/puzzles.yaml is a list of entries (its header documents the keys):

    - name: Rook v advisor        # English, at most NAME_LEN characters
      zh: 单车胜单士               # optional
      fen: "4k4/4a4/9/..."
      player: red                 # the side the player takes
      goal: win                   # win or draw
      limit: 2                    # optional: the player's moves
      pattern: double_rooks       # optional: a classic mate (tools/rom/mate_patterns.py)

`check` asks Fairy-Stockfish with bench/endgame_suite.py's fs_verdict (the
same variant, depths and self-play referee) and keeps its answers in
config/puzzles.checked.json, so that building the ROM needs no
Fairy-Stockfish.  A puzzle is accepted when:

  * goal win: the search finds a mate for the player, or a score of at least
    DECISIVE_CP for the player at depth >= DECISIVE_DEPTH; with a limit, the
    mate is no longer than the limit;
  * goal draw: the verdict is a draw;
  * with a pattern: the checked file also holds `line`, the moves
    Fairy-Stockfish plays for both sides from the position (LINE_DEPTH,
    LINE_CAP_S a move), which must end in the player's checkmate within the
    limit, and that mate must be the pattern (mate_patterns.matches).

The generated puzzles_data.inc (asm/puzzles/puzzles.s includes it; bank 6)
holds, per puzzle, a record (puz_rec_lo/hi):

    flags   bit 0 Black to move, bit 1 the player is Black, bit 2 goal draw
    limit   the plies played when the player has made `limit` moves (0: none)
    clock   the FEN's halfmove clock (eng_clock)
    n       the number of pieces, then n x (square 0-89 = rank*9+file, side*8+kind)

and its texts: the menu's row (puz_rows: the name in upper case, padded
to NAME_LEN, a space and the goal) and the panel's two rows (puz_panel_text:
"PUZZLE n" and the goal).  puzzles_const.inc has the count and the sizes.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.board import BLACK, RED, move_iccs, sq90  # noqa: E402
from reference_py.config_file import ConfigError, Node, load_yaml, show  # noqa: E402
from reference_py.fen import FenError, parse_fen  # noqa: E402
from reference_py.notation import NotationError  # noqa: E402
from reference_py.rules import Game  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402
from tools.rom.mate_patterns import PATTERNS, matches_line  # noqa: E402

PUZZLES = ROOT / "config" / "puzzles.yaml"
CHECKED = ROOT / "config" / "puzzles.checked.json"
DEFAULT_OUT = ROOT / "build" / "gen"
KEYS = ("name", "zh", "fen", "player", "goal", "limit", "pattern")
REQUIRED = ("name", "fen", "player", "goal")
SIDES = ("red", "black")
GOALS = ("win", "draw")
NAME_LEN = 18            # the menu's name column (ui_puzzle.s)
NAME_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +-'.")
MAX_PUZZLES = 40         # two pages of the menu (PUZ_PAGE_ROWS), 5 bytes of solved marks
MAX_LIMIT = 99
LINE_DEPTH = 20          # a pattern puzzle's line: each move's search
LINE_CAP_S = 5.0
DECISIVE_CP = 1000
DECISIVE_DEPTH = 20
FLAG_BLACK_TO_MOVE = 1
FLAG_PLAYER_BLACK = 2
FLAG_GOAL_DRAW = 4


class PuzzleError(ValueError):
    """A bad puzzle file or checked file: the message names the file and line."""


@dataclass(frozen=True)
class Puzzle:
    """One entry of config/puzzles.yaml."""
    number: int          # 1-based, in file order
    name: str
    zh: str
    fen: str
    player: int          # RED or BLACK
    goal: str            # win or draw
    limit: int | None    # the player's moves
    line: int
    pattern: str = ""    # a mate_patterns.PATTERNS key, or ""

    # bench/endgame_suite.py fs_verdict's view of an entry
    @property
    def id(self) -> str:
        return f"puzzle {self.number}"

    @property
    def strong(self) -> int:
        """The side that presses: the player in a win puzzle, the computer in a draw puzzle."""
        return self.player if self.goal == "win" else self.player ^ 1

    @property
    def side_to_move(self) -> int:
        return BLACK if self.fen.split()[1].lower() == "b" else RED

    def limit_plies(self) -> int:
        """game_ply when the player has made `limit` moves (0: no limit)."""
        if not self.limit:
            return 0
        return 2 * self.limit - (1 if self.side_to_move == self.player else 0)


def _entry(path: Path, node: Node, number: int, seen: dict[str, int]) -> Puzzle:
    def fail(line: int, msg: str) -> PuzzleError:
        return PuzzleError(f"{path}:{line}: {msg}")

    if not isinstance(node.value, dict):
        raise fail(node.line, f"a puzzle must be a mapping with {', '.join(REQUIRED)}, not {show(node.value)}")
    f = node.value
    for key in f:
        if key not in KEYS:
            raise fail(node.key_line(key), f"unknown key '{key}' (a puzzle has {', '.join(KEYS)})")
    for key in REQUIRED:
        if key not in f:
            raise fail(node.line, f"the puzzle has no '{key}'")
    for key in ("name", "zh", "fen", "player", "goal"):
        if key in f and (not isinstance(f[key].value, str) or not f[key].value.strip()):
            raise fail(f[key].line, f"'{key}' must be a non-empty text, not {show(f[key].value)}")
    name = f["name"].value.strip()
    if len(name) > NAME_LEN:
        raise fail(f["name"].line, f"name {show(name)} is {len(name)} characters, at most {NAME_LEN} fit the menu")
    bad = sorted(set(name.upper()) - NAME_CHARS)
    if bad:
        raise fail(f["name"].line, f"name {show(name)} has {show(''.join(bad))}: only letters, digits, "
                   "spaces and + - ' . can be shown")
    fen = f["fen"].value.strip()
    try:
        parse_fen(fen)
    except FenError as exc:
        raise fail(f["fen"].line, f"bad FEN: {exc}") from None
    outcome = Game(fen).outcome()
    if outcome:
        raise fail(f["fen"].line, f"the game is already over: {outcome.describe()}")
    key = " ".join(fen.split()[:2])
    if key in seen:
        raise fail(f["fen"].line, f"the same position as line {seen[key]}")
    seen[key] = f["fen"].line
    player = f["player"].value.strip()
    if player not in SIDES:
        raise fail(f["player"].line, f"player must be red or black, not {show(player)}")
    goal = f["goal"].value.strip()
    if goal not in GOALS:
        raise fail(f["goal"].line, f"goal must be win or draw, not {show(goal)}")
    limit = None
    if "limit" in f:
        limit = f["limit"].value
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise fail(f["limit"].line, f"limit must be a whole number of moves 1-{MAX_LIMIT}, not {show(limit)}")
    zh = f["zh"].value.strip() if "zh" in f else ""
    pattern = ""
    if "pattern" in f:
        pattern = f["pattern"].value
        if pattern not in PATTERNS:
            raise fail(f["pattern"].line, f"pattern must be one of {', '.join(PATTERNS)}, not {show(pattern)}")
        if goal != "win" or not limit:
            raise fail(f["pattern"].line, "a pattern puzzle is a win with a limit")
    return Puzzle(number, name, zh, fen, SIDES.index(player), goal, limit, node.line, pattern)


def load_puzzles(path: Path | str = PUZZLES) -> list[Puzzle]:
    """Every puzzle of the file, checked; PuzzleError names the file and line of a bad one."""
    path = Path(path)
    try:
        root = load_yaml(path)
    except ConfigError as exc:
        raise PuzzleError(str(exc)) from None
    if not isinstance(root.value, list):
        raise PuzzleError(f"{path}:{root.line}: the file must be a list of puzzles, not {show(root.value)}")
    if not root.value:
        raise PuzzleError(f"{path}:{root.line}: no puzzles")
    if len(root.value) > MAX_PUZZLES:
        raise PuzzleError(f"{path}:{root.value[MAX_PUZZLES].line}: puzzle {MAX_PUZZLES + 1}: "
                          f"at most {MAX_PUZZLES} puzzles fit the menu")
    seen: dict[str, int] = {}
    return [_entry(path, node, i, seen) for i, node in enumerate(root.value, 1)]


# ---- Fairy-Stockfish's verdicts

def accepts(p: Puzzle, v: dict) -> str | None:
    """None if the checked answer `v` supports the puzzle, else why not."""
    if p.goal == "draw":
        return None if v["verdict"] == "draw" else f"Fairy-Stockfish says {v['verdict']} ({v['method']}), not a draw"
    s = v["search"]
    stm = p.side_to_move
    if s["mate"] is not None:
        if (s["mate"] > 0) != (stm == p.player):
            return f"Fairy-Stockfish finds a mate against the player ({s['mate']})"
        if p.limit is not None and abs(s["mate"]) > p.limit:
            return f"the mate takes {abs(s['mate'])} moves, more than the limit {p.limit}"
        return pattern_problem(p, v.get("line")) if p.pattern else None
    score = s["score"] if stm == p.player else -s["score"]
    if s["depth"] >= DECISIVE_DEPTH and score >= DECISIVE_CP and p.limit is None:
        return None
    return (f"no forced win: Fairy-Stockfish gives {score:+d} for the player at depth {s['depth']}"
            + (" (a limited win needs a mate)" if p.limit is not None else ""))


def pattern_problem(p: Puzzle, line: list[str] | None) -> str | None:
    """None if `line` (ICCS moves from the puzzle's position) ends in the
    player's checkmate within the limit by the puzzle's pattern, else why not."""
    if not line:
        return "no mate line (python -m tools.rom.gen_puzzles check)"
    game = Game(p.fen)
    for i, text in enumerate(line):
        if game.outcome():
            return f"the line goes on after the game ended (move {i + 1})"
        try:
            game.play_text(text)
        except NotationError as exc:
            return f"move {i + 1} of the line, {text}, is not legal: {exc}"
    out = game.outcome()
    if out is None or out.reason != "checkmate" or out.winner != p.player:
        return "the line does not end in the player's checkmate"
    moves = (len(line) + (1 if p.side_to_move == p.player else 0)) // 2
    if moves > (p.limit or MAX_LIMIT):
        return f"the line's mate takes {moves} moves, more than the limit {p.limit}"
    if not matches_line(p.pattern, p.fen, line):
        return f"the line's mate is not the pattern {p.pattern}"
    return None


def mate_line(engine, p: Puzzle) -> list[str]:
    """The moves Fairy-Stockfish plays for both sides from the puzzle's
    position until the game ends (at most 2 * MAX_LIMIT plies)."""
    engine.new_game()
    game = Game(p.fen)
    moves: list[str] = []
    while not game.outcome() and len(moves) < 2 * MAX_LIMIT:
        a = engine.analyse(moves, LINE_DEPTH, p.fen, LINE_CAP_S)
        if a.move is None:
            raise RuntimeError(f"{p.id}: Fairy-Stockfish gave no move after {' '.join(moves)}")
        moves.append(move_iccs(game.play_text(a.move)))
    return moves


def read_checked(path: Path = CHECKED) -> dict:
    """The checked file's verdicts by FEN ({} if there is none)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return dict(data["verdicts"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PuzzleError(f"{path}: not a checked-verdicts file: {exc}") from None


def problems(puzzles: list[Puzzle], verdicts: dict, where: Path = PUZZLES) -> list[str]:
    """One line per puzzle whose checked answer is missing or does not support it."""
    out = []
    for p in puzzles:
        v = verdicts.get(p.fen)
        if v is None:
            out.append(f"{where}:{p.line}: puzzle {p.number} ({p.name}) is not checked "
                       "(python -m tools.rom.gen_puzzles check)")
            continue
        why = accepts(p, v)
        if why:
            out.append(f"{where}:{p.line}: puzzle {p.number} ({p.name}): {why}")
    return out


def check(puzzles: list[Puzzle], out: Path = CHECKED, force: bool = False) -> list[str]:
    """Fairy-Stockfish's answer for every puzzle (kept ones reused unless `force`)."""
    from bench.endgame_suite import FS_VARIANT, SETTINGS, fs_verdict
    from tools.tune.players import fairy_stockfish
    engine = fairy_stockfish(FS_VARIANT)
    old = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    same = old.get("engine") == engine.name and old.get("settings") == SETTINGS and not force
    verdicts = {fen: v for fen, v in old.get("verdicts", {}).items() if same and fen in {p.fen for p in puzzles}}

    def write() -> None:
        data = {"engine": engine.name, "settings": SETTINGS, "verdicts": dict(sorted(verdicts.items()))}
        write_atomic(out, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))

    for p in puzzles:
        if p.fen not in verdicts:
            verdicts[p.fen] = {"puzzle": p.number, **fs_verdict(engine, p)}
            write()
        verdicts[p.fen]["puzzle"] = p.number
        if p.pattern and "line" not in verdicts[p.fen]:
            verdicts[p.fen]["line"] = mate_line(engine, p)
            write()
            v = verdicts[p.fen]
            print(f"[{p.number}/{len(puzzles)}] {p.name}: {v['verdict']} ({v['method']}"
                  f"{', mate in %d' % v['mate_moves'] if 'mate_moves' in v else ''})", file=sys.stderr, flush=True)
    write()
    return problems(puzzles, verdicts)


# ---- ROM data

def records(puzzles: list[Puzzle]) -> list[bytes]:
    """Each puzzle's record (see the module doc)."""
    out = []
    for p in puzzles:
        pos = parse_fen(p.fen)
        flags = ((FLAG_BLACK_TO_MOVE if pos.side == BLACK else 0) | (FLAG_PLAYER_BLACK if p.player == BLACK else 0)
                 | (FLAG_GOAL_DRAW if p.goal == "draw" else 0))
        pieces = sorted((sq90(sq), side * 8 + kind) for sq, (side, kind) in pos.pieces().items())
        body = bytearray([flags, p.limit_plies(), min(pos.clock, 255), len(pieces)])
        for sq, pk in pieces:
            body += bytes([sq, pk])
        out.append(bytes(body))
    return out


def goal_texts(p: Puzzle) -> tuple[str, str]:
    """The goal as the menu's 6-character column and the panel's 8-character row."""
    n = p.limit
    if p.goal == "win":
        return (f"MATE{n:2}", f"WIN IN{n:2}") if n else ("WIN   ", " TO WIN ")
    return (f"HOLD{n:2}", f"HOLD {n:2} ") if n else ("DRAW  ", "TO DRAW ")


def sources(puzzles: list[Puzzle]) -> tuple[str, str]:
    """puzzles_const.inc (constants, for every file) and puzzles_data.inc (bank 6's table)."""
    head = "; {}: generated by tools/rom/gen_puzzles.py from config/puzzles.yaml and\n; config/puzzles.checked.json.  Do not edit."
    const = [head.format("puzzles_const.inc"),
             f"PUZ_COUNT        = {len(puzzles)}",
             f"PUZ_SOLVED_BYTES = {(len(puzzles) + 7) // 8}  ; the solved marks, 1 bit each",
             f"PUZ_ROW_LEN      = {NAME_LEN + 7}  ; puz_rows: the name, a space, the goal (6)",
             "PUZ_PANEL_LEN    = 16  ; puz_panel_text: two panel rows of 8",
             f"PUZ_FLAG_BLACK_TO_MOVE = {FLAG_BLACK_TO_MOVE}",
             f"PUZ_FLAG_PLAYER_BLACK  = {FLAG_PLAYER_BLACK}",
             f"PUZ_FLAG_GOAL_DRAW     = {FLAG_GOAL_DRAW}"]
    data = [head.format("puzzles_data.inc"),
            "puz_rec_lo:",
            "  .lobytes " + ", ".join(f"puz_rec_{p.number}" for p in puzzles),
            "puz_rec_hi:",
            "  .hibytes " + ", ".join(f"puz_rec_{p.number}" for p in puzzles)]
    for p, rec in zip(puzzles, records(puzzles)):
        data.append(f"puz_rec_{p.number}:  ; {p.fen}")
        data.append("  .byte " + ", ".join(f"${b:02X}" for b in rec))
    data.append("puz_rows:  ; the menu's text of each puzzle")
    for p in puzzles:
        data.append(f'  .byte "{p.name.upper().ljust(NAME_LEN)} {goal_texts(p)[0]}"')
    data.append("puz_panel_text:  ; the panel's rows 14 and 15 during the puzzle")
    for p in puzzles:
        data.append(f'  .byte "PUZZLE{p.number:2}{goal_texts(p)[1]}"')
    return "\n".join(const) + "\n", "\n".join(data) + "\n"


def generate(out_dir: Path = DEFAULT_OUT, path: Path = PUZZLES, checked: Path = CHECKED) -> list[Path]:
    """Write puzzles_const.inc and puzzles_data.inc; PuzzleError (nothing
    written) when a puzzle is bad or not supported by its check."""
    puzzles = load_puzzles(path)
    bad = problems(puzzles, read_checked(checked), path)
    if bad:
        raise PuzzleError(bad[0])
    out = []
    for name, text in zip(("puzzles_const.inc", "puzzles_data.inc"), sources(puzzles)):
        target = Path(out_dir) / name
        if not target.exists() or target.read_text(encoding="ascii") != text:
            write_atomic(target, text.encode("ascii"))
        out.append(target)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.rom.gen_puzzles", description=__doc__.split("\n\n")[0])
    ap.add_argument("cmd", nargs="?", default="gen", help="check, list, or an output folder (default build/gen)")
    ap.add_argument("--force", action="store_true", help="check: search again even where an answer is kept")
    args = ap.parse_args(argv)
    try:
        puzzles = load_puzzles()
        if args.cmd == "check":
            bad = check(puzzles, CHECKED, args.force)
        elif args.cmd == "list":
            verdicts = read_checked()
            for p in puzzles:
                v = verdicts.get(p.fen, {})
                print(f"{p.number:2} {p.name:{NAME_LEN}} {SIDES[p.player]:5} {p.goal:4} "
                      f"limit {p.limit or '-':>2}  {v.get('verdict', '?')} {v.get('method', '')} "
                      f"{v.get('mate_moves', '')}")
            bad = problems(puzzles, verdicts)
        else:
            for out in generate(DEFAULT_OUT if args.cmd == "gen" else Path(args.cmd)):
                print(out)
            bad = []
    except PuzzleError as exc:
        print(f"gen_puzzles.py: error: {exc}", file=sys.stderr)
        return 1
    for line in bad:
        print(f"error: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
