"""The endgame suite: basic endings by material class, each verdict checked with Fairy-Stockfish.

    python -m bench.endgame_suite check [--force] [--suite FILE] [--out FILE]
    python -m bench.endgame_suite list  [--suite FILE] [--checked FILE]

bench/endgames.yaml is a list of entries:

    - class: R_vs_AA          # the strong side's pieces _vs_ the other side's (K: the bare king)
      fen: "3ak4/4a4/..."     # the position, either side to move
      result: red             # who wins with best play: red, black, or draw
      why: 单车胜双士          # the source or the reason

Class letters: R rook, H horse, C cannon, P pawn, A advisor, E elephant;
the kings are implied.  The strong side is the side whose pieces are the
class's left part (with equal material, R_vs_R, the side to move); a won
position must be won by it.

`check` asks Fairy-Stockfish (one thread; UCI_Variant xiangqi-rules,
xiangqi with the game rules' 60-move draw: tools/tune/fairy_variants.ini) about every
position and writes the answers to bench/endgames.checked.json, so the
tests and the benchmark need no Fairy-Stockfish:

  1. `go depth MATE_DEPTH` (stopped after MATE_CAP_S seconds): a mate score
     names the winner ("mate" verdict, with the distance in moves);
  2. otherwise Fairy-Stockfish plays both sides at `go depth PLAY_DEPTH`,
     refereed by reference_py.rules (mate and stalemate lose, the 60-move
     rule and repetition draw), for at most MAX_PLIES plies: a win names the
     winner ("self-play"); a draw is a "draw" verdict when every score it
     gave stayed within SMALL_CP of 0, else "unclear".
A verdict that differs from the entry's `result` is a failure (exit 1).
Answers are kept per FEN and settings, so a rerun checks only new entries.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.board import (  # noqa: E402
    ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK, move_iccs,
)
from reference_py.config_file import ConfigError, Node, load_yaml, show  # noqa: E402
from reference_py.fen import FenError, parse_fen  # noqa: E402
from reference_py.rules import Game  # noqa: E402
from tools.atomic import write_atomic  # noqa: E402

SUITE = ROOT / "bench" / "endgames.yaml"
CHECKED = ROOT / "bench" / "endgames.checked.json"
RESULTS = ("red", "black", "draw")
SIDE_WORD = ("red", "black")
CLASS_LETTERS = {"R": ROOK, "H": HORSE, "C": CANNON, "P": PAWN, "A": ADVISOR, "E": ELEPHANT}
KIND_LETTER = {kind: letter for letter, kind in CLASS_LETTERS.items()}
CLASS_RE = re.compile(r"([RHCPAE]+)_vs_(K|[RHCPAE]+)")
KEYS = ("class", "fen", "result", "why")

# Fairy-Stockfish's check (a change of any makes `check` search again).
MATE_DEPTH = 30
MATE_CAP_S = 20.0
PLAY_DEPTH = 12
MAX_PLIES = 300
SMALL_CP = 300
FS_VARIANT = "xiangqi-rules"     # the game rules' 60-move draw (the built-in xiangqi draws at 50)
SETTINGS = {"variant": FS_VARIANT, "mate_depth": MATE_DEPTH, "mate_cap_s": MATE_CAP_S, "play_depth": PLAY_DEPTH,
            "max_plies": MAX_PLIES, "small_cp": SMALL_CP}


class SuiteError(ValueError):
    """A bad suite file: the message names the file and line."""


@dataclass(frozen=True)
class Endgame:
    """One entry of the suite."""
    id: str             # CLASS.N: the N-th entry of its class in the file
    cls: str
    fen: str
    result: str         # red, black or draw
    why: str
    line: int
    strong: int         # RED or BLACK: the side holding the class's left part

    @property
    def winner(self) -> int | None:
        return None if self.result == "draw" else SIDE_WORD.index(self.result)


def parse_class(name: str) -> tuple[Counter, Counter]:
    """The (strong, weak) material of a class name, as Counters of piece kinds."""
    m = CLASS_RE.fullmatch(name)
    if not m:
        raise ValueError(f"class '{name}' is not LEFT_vs_RIGHT with pieces from {''.join(CLASS_LETTERS)} "
                         "(K on the right for a bare king)")
    left, right = m.group(1), m.group(2)
    return (Counter(CLASS_LETTERS[c] for c in left),
            Counter() if right == "K" else Counter(CLASS_LETTERS[c] for c in right))


def material(fen: str) -> tuple[Counter, Counter]:
    """(Red's, Black's) pieces but the kings, as Counters of kinds."""
    pieces = parse_fen(fen).pieces()
    out = (Counter(), Counter())
    for side, kind in pieces.values():
        if kind != KING:
            out[side][kind] += 1
    return out


def class_of(side_material: Counter) -> str:
    return "".join(KIND_LETTER[k] * side_material[k] for k in (ROOK, HORSE, CANNON, PAWN, ADVISOR, ELEPHANT)) or "K"


def _entry(path: Path, node: Node, seen: dict[str, int], counts: Counter) -> Endgame:
    def fail(line: int, msg: str) -> SuiteError:
        return SuiteError(f"{path}:{line}: {msg}")

    if not isinstance(node.value, dict):
        raise fail(node.line, f"an entry must be a mapping with {', '.join(KEYS)}, not {show(node.value)}")
    fields = node.value
    for key in fields:
        if key not in KEYS:
            raise fail(node.key_line(key), f"unknown key '{key}' (an entry has {', '.join(KEYS)})")
    for key in KEYS:
        if key not in fields:
            raise fail(node.line, f"the entry has no '{key}'")
        if not isinstance(fields[key].value, str) or not fields[key].value.strip():
            raise fail(fields[key].line, f"'{key}' must be a non-empty text, not {show(fields[key].value)}")
    cls, fen, result = fields["class"].value.strip(), fields["fen"].value.strip(), fields["result"].value.strip()
    try:
        strong_mat, weak_mat = parse_class(cls)
    except ValueError as exc:
        raise fail(fields["class"].line, str(exc)) from None
    try:
        pos = parse_fen(fen)
    except FenError as exc:
        raise fail(fields["fen"].line, f"bad FEN: {exc}") from None
    if Game(fen).outcome():
        raise fail(fields["fen"].line, f"the game is already over: {Game(fen).outcome().describe()}")
    red, black = material(fen)
    sides = [s for s, (mine, theirs) in ((RED, (red, black)), (BLACK, (black, red)))
             if mine == strong_mat and theirs == weak_mat]
    if not sides:
        raise fail(fields["fen"].line, f"the material is {class_of(red)}_vs_{class_of(black)} (Red vs Black), "
                   f"not class {cls}")
    if result not in RESULTS:
        raise fail(fields["result"].line, f"result must be one of {', '.join(RESULTS)}, not {show(result)}")
    strong = sides[0] if len(sides) == 1 else pos.side      # equal material: the side to move presses
    if result != "draw" and SIDE_WORD.index(result) != strong:
        raise fail(fields["result"].line, f"result {result}: in class {cls} the strong side is "
                   f"{SIDE_WORD[strong]} here, so only {SIDE_WORD[strong]} or draw")
    key = " ".join(fen.split()[:2])
    if key in seen:
        raise fail(fields["fen"].line, f"the same position as line {seen[key]}")
    seen[key] = fields["fen"].line
    counts[cls] += 1
    return Endgame(f"{cls}.{counts[cls]}", cls, fen, result, fields["why"].value.strip(), node.line, strong)


def load_suite(path: Path | str = SUITE) -> list[Endgame]:
    """Every entry of the suite, checked; SuiteError names the file and line of a bad one."""
    path = Path(path)
    try:
        root = load_yaml(path)
    except ConfigError as exc:
        raise SuiteError(str(exc)) from None
    if not isinstance(root.value, list):
        raise SuiteError(f"{path}:{root.line}: the suite must be a list of entries, not {show(root.value)}")
    seen: dict[str, int] = {}
    counts: Counter = Counter()
    out = [_entry(path, node, seen, counts) for node in root.value]
    if not out:
        raise SuiteError(f"{path}: no entries")
    return out


# ---- Fairy-Stockfish's verdicts

def fs_verdict(engine, eg: Endgame) -> dict:
    """Fairy-Stockfish's answer about one position (see the module doc)."""
    engine.new_game()
    a = engine.analyse([], MATE_DEPTH, eg.fen, MATE_CAP_S)
    stm = RED if eg.fen.split()[1].lower() in ("w", "r") else BLACK
    out: dict = {"search": {"depth": a.depth, "score": a.score, "mate": a.mate, "best": a.move}}
    if a.mate is not None:
        out.update(verdict=SIDE_WORD[stm if a.mate > 0 else stm ^ 1], method="mate", mate_moves=abs(a.mate))
        return out
    engine.new_game()
    game = Game(eg.fen)
    moves: list[str] = []
    scores: list[int] = []                       # from the strong side's view
    outcome = None
    while len(moves) < MAX_PLIES:
        outcome = game.outcome()
        if outcome:
            break
        b = engine.analyse(moves, PLAY_DEPTH, eg.fen)
        if b.move is None:
            raise RuntimeError(f"{eg.id}: Fairy-Stockfish gave no move after {' '.join(moves)}")
        scores.append(b.score if game.pos.side == eg.strong else -b.score)
        moves.append(move_iccs(game.play_text(b.move)))
    if outcome is None:
        reason, winner = f"no result after {MAX_PLIES} plies", None
    else:
        reason, winner = outcome.reason, outcome.winner
    big = max(abs(s) for s in scores)
    verdict = SIDE_WORD[winner] if winner is not None else ("draw" if big <= SMALL_CP else "unclear")
    out.update(verdict=verdict, method="self-play",
               selfplay={"plies": len(moves), "reason": reason, "max_cp": max(scores), "min_cp": min(scores),
                         "moves": moves})
    return out


def read_checked(path: Path = CHECKED) -> dict:
    """The checked file ({} if there is none yet)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SuiteError(f"{path}: not a checked-verdicts file: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("verdicts"), dict):
        raise SuiteError(f"{path}: not a checked-verdicts file (no 'verdicts' mapping)")
    return data


def _write_checked(path: Path, engine_id: str, verdicts: dict) -> None:
    data = {"engine": engine_id, "settings": SETTINGS, "verdicts": dict(sorted(verdicts.items()))}
    write_atomic(path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


def check(suite: list[Endgame], out: Path, force: bool = False, progress: bool = True) -> list[str]:
    """Fairy-Stockfish's verdict for every entry (cached ones kept unless
    `force`); the problems found (verdicts that differ from the entries)."""
    from tools.tune.players import fairy_stockfish
    engine = fairy_stockfish(FS_VARIANT)
    old = read_checked(out)
    same = old.get("engine") == engine.name and old.get("settings") == SETTINGS and not force
    verdicts = {fen: v for fen, v in old.get("verdicts", {}).items() if same}
    wanted = {eg.fen for eg in suite}
    verdicts = {fen: v for fen, v in verdicts.items() if fen in wanted}
    for i, eg in enumerate(suite, 1):
        if eg.fen in verdicts:
            continue
        verdicts[eg.fen] = {"id": eg.id, **fs_verdict(engine, eg)}
        _write_checked(out, engine.name, verdicts)          # after each: an interrupted check resumes
        if progress:
            v = verdicts[eg.fen]
            print(f"[{i}/{len(suite)}] {eg.id}: {v['verdict']} ({v['method']})", file=sys.stderr, flush=True)
    _write_checked(out, engine.name, verdicts)
    return problems(suite, verdicts)


def problems(suite: list[Endgame], verdicts: dict) -> list[str]:
    """Entries whose checked verdict is missing or differs from their result."""
    out = []
    unchecked = [f"{eg.id} (line {eg.line})" for eg in suite if eg.fen not in verdicts]
    if unchecked:
        out.append(f"{len(unchecked)} entries not checked (python -m bench.endgame_suite check): "
                   f"{', '.join(unchecked[:5])}{' ...' if len(unchecked) > 5 else ''}")
    for eg in suite:
        v = verdicts.get(eg.fen)
        if v is not None and v["verdict"] != eg.result:
            out.append(f"{eg.id} (line {eg.line}): the suite says {eg.result}, Fairy-Stockfish {v['verdict']} "
                       f"({v['method']})")
    return out


def class_table(suite: list[Endgame], verdicts: dict) -> str:
    """Per class: positions, the suite's result, and what Fairy-Stockfish found."""
    rows = ["| class | positions | result | Fairy-Stockfish |", "|---|---|---|---|"]
    classes: dict[str, list[Endgame]] = {}
    for eg in suite:
        classes.setdefault(eg.cls, []).append(eg)
    for cls, egs in classes.items():
        results = sorted({"win" if eg.result != "draw" else "draw" for eg in egs})
        found = []
        vs = [verdicts.get(eg.fen) for eg in egs]
        mates = sorted(v["mate_moves"] for v in vs if v and v["method"] == "mate")
        if mates:
            found.append(f"mate found in {len(mates)} (in {mates[0]}-{mates[-1]} moves)")
        sp = [v for v in vs if v and v["method"] == "self-play"]
        if sp:
            tally = Counter(v["verdict"] for v in sp)
            found.append("self-play: " + ", ".join(f"{n} {w}" for w, n in sorted(tally.items())) +
                         f"; scores within {min(v['selfplay']['min_cp'] for v in sp):+d}.."
                         f"{max(v['selfplay']['max_cp'] for v in sp):+d}")
        missing = sum(v is None for v in vs)
        if missing:
            found.append(f"{missing} not checked")
        rows.append(f"| {cls} | {len(egs)} | {'/'.join(results)} | {'; '.join(found)} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.endgame_suite", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="ask Fairy-Stockfish about every entry; write the checked file")
    c.add_argument("--suite", type=Path, default=SUITE)
    c.add_argument("--out", type=Path, default=CHECKED)
    c.add_argument("--force", action="store_true", help="search again even where an answer is kept")
    c.add_argument("--quiet", action="store_true")
    ls = sub.add_parser("list", help="the classes and the checked verdicts (no Fairy-Stockfish)")
    ls.add_argument("--suite", type=Path, default=SUITE)
    ls.add_argument("--checked", type=Path, default=CHECKED)
    args = ap.parse_args(argv)
    try:
        suite = load_suite(args.suite)
        if args.cmd == "list":
            verdicts = read_checked(args.checked).get("verdicts", {})
            print(class_table(suite, verdicts))
            bad = problems(suite, verdicts)
        else:
            bad = check(suite, args.out, args.force, not args.quiet)
            print(class_table(suite, read_checked(args.out)["verdicts"]))
    except SuiteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in bad:
        print(f"mismatch: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
