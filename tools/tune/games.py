"""One game between two players, as a pure function of its task.

A task is a small dict (it crosses process and machine boundaries):

    {"red": SPEC, "black": SPEC, "opening": [ICCS...], "seed": int,
     "max_plies": int, "trees": {name: tree reference}, "fen": FEN}

"fen" is optional: the position the game starts from (the start position
without it), before the opening's moves; "fs_variant" is optional too: the
UCI_Variant a Fairy-Stockfish player uses (players.VARIANTS; xiangqi
without it).  A task without them keeps the key it always had.  A player
named by a bare level (`Master`, no tree) is this checkout's reference
engine, so the key of a task with one also holds the digest of this
checkout's reference_py/ and config/ (trees.local_digest): a cached game is
never reused after the engine or its YAML changed.  The game is refereed by
reference_py.rules (mate and stalemate lose, perpetual check and then
perpetual chase lose, threefold repetition otherwise and 60 moves without a
capture draw); a game still going after `max_plies` plies in all is adjudicated a
draw.  A reference player searches with seed (seed * 1000 + ply) & 0xFFFF
at each move, so the noisy levels vary between games and a task always
replays the same game.  The result carries every move, so the PGN and the
NES think-time sample are made from it later.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import time
from types import ModuleType

import reference_py
from reference_py.board import move_iccs
from reference_py.fen import START_FEN
from reference_py.rules import Game

from . import trees
from .players import PlayerError, fairy_stockfish, is_anchor, parse_anchor, split_level

MAX_PLIES = 300


def stable_seed(*parts: object) -> int:
    """A 31-bit seed from any JSON-able parts, the same on every machine."""
    return int.from_bytes(hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).digest()[:4], "big") >> 1


def task_key(task: dict) -> str:
    """The cache key of a task: what decides the game (not where it runs)."""
    t = {k: task[k] for k in ("red", "black", "opening", "seed", "max_plies")}
    for opt in ("fen", "fs_variant"):
        if task.get(opt) is not None:
            t[opt] = task[opt]
    t["trees"] = {name: ref["digest"] for name, ref in sorted(task.get("trees", {}).items())}
    if any(not is_anchor(task[side]) and split_level(task[side])[0] is None for side in ("red", "black")):
        t["local"] = trees.local_digest()
    return hashlib.sha256(json.dumps(t, sort_keys=True).encode()).hexdigest()[:24]


class _Reference:
    """A level of a reference tree, with its own copy of the game."""

    def __init__(self, pkg: ModuleType, level: str, fen: str) -> None:
        self.search = pkg.search
        self.move_iccs = pkg.board.move_iccs
        try:
            self.level = pkg.search.level_by_name(level)
        except KeyError:
            names = ", ".join(lv.name for lv in pkg.search.levels())
            raise PlayerError(f"unknown level '{level}' (known: {names})") from None
        self.game = pkg.rules.Game(fen)
        self.nodes = 0

    def play(self, text: str) -> None:
        self.game.play_text(text)

    def choose(self, moves: list[str], seed: int) -> str:
        result = self.search.Searcher(self.game.pos, self.level, seed=seed).run()
        self.nodes += result.nodes
        return self.move_iccs(result.move)


class _Anchor:
    def __init__(self, spec: str, fen: str | None, variant: str) -> None:
        self.spec = parse_anchor(spec)
        self.fen = fen
        self.engine = fairy_stockfish(variant)
        self.engine.new_game()
        self.nodes = 0

    def play(self, text: str) -> None:
        pass

    def choose(self, moves: list[str], seed: int) -> str:
        move = self.engine.move(moves, self.spec, self.fen)
        if move is None:
            raise PlayerError(f"{self.spec.text} answered no move after {' '.join(moves)}")
        return move


def make_player(spec: str, task_trees: dict, fen: str | None = None, fs_variant: str = "xiangqi"):
    """The player `spec` names, at the start of a game from `fen` (the start position if None)."""
    if is_anchor(spec):
        return _Anchor(spec, fen, fs_variant)
    tree, level = split_level(spec)
    if tree is None:
        return _Reference(reference_py, level, fen or START_FEN)
    if tree not in task_trees:
        raise PlayerError(f"player '{spec}': no tree named '{tree}' in this task")
    return _Reference(trees.load(task_trees[tree]), level, fen or START_FEN)


def play_game(task: dict) -> dict:
    """Play the task's game; the result dict (the task's fields plus the game)."""
    for sub in ("search", "rules", "fen", "board"):     # the package's submodules as its attributes
        importlib.import_module(f"reference_py.{sub}")
    t0 = time.perf_counter()
    fen = task.get("fen")
    referee = Game(fen or START_FEN)
    players = [make_player(task[side], task.get("trees", {}), fen, task.get("fs_variant") or "xiangqi")
               for side in ("red", "black")]
    if task["red"] == task["black"] and is_anchor(task["red"]):
        players[1] = players[0]               # one engine plays both sides
    moves: list[str] = []
    wall = [0.0, 0.0]
    counted = [0, 0]

    def push(text: str) -> None:
        move = referee.play_text(text)
        text = move_iccs(move)
        moves.append(text)
        for p in {id(p): p for p in players}.values():
            p.play(text)

    for text in task["opening"]:
        push(text)
    outcome = None
    while len(referee.moves) < task["max_plies"]:
        outcome = referee.outcome()
        if outcome:
            break
        side = referee.pos.side
        t = time.perf_counter()
        text = players[side].choose(list(moves), (task["seed"] * 1000 + len(referee.moves)) & 0xFFFF)
        wall[side] += time.perf_counter() - t
        counted[side] += 1
        try:
            push(text)
        except Exception as exc:        # noqa: BLE001 - an engine's illegal move ends the run with context
            raise PlayerError(f"{task['red' if side == 0 else 'black']} played '{text}', which the rules refuse "
                              f"after {' '.join(moves)}: {exc}") from None
    if outcome is None:
        result, reason = "1/2-1/2", f"adjudicated a draw after {task['max_plies']} plies"
    elif outcome.winner is None:
        result, reason = "1/2-1/2", outcome.reason
    else:
        result, reason = ("1-0" if outcome.winner == 0 else "0-1"), outcome.reason
    return {**{k: v for k, v in task.items() if k != "trees"},
            "trees": {name: ref["digest"] for name, ref in task.get("trees", {}).items()},
            "key": task_key(task), "moves": moves, "result": result, "reason": reason,
            "plies": len(moves), "searched": counted, "nodes": [players[0].nodes, players[1].nodes],
            "think_wall_s": [round(w, 3) for w in wall], "wall_s": round(time.perf_counter() - t0, 3)}


def points(result: dict, spec: str) -> float:
    """The points `spec` scored in a finished game (1, 0.5 or 0)."""
    if result["result"] == "1/2-1/2":
        return 0.5
    red_won = result["result"] == "1-0"
    if spec == result["red"]:
        return 1.0 if red_won else 0.0
    if spec == result["black"]:
        return 0.0 if red_won else 1.0
    raise ValueError(f"{spec} did not play this game")
