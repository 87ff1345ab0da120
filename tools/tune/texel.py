"""Texel tuning of config/eval.yaml on Fairy-Stockfish self-play.

    python -m tools.tune texel [--games N] [--engine fs:nodes=2000] [--set full] [--lambda L]
                               [--jobs N] [--cluster ADDRESS] [--out DIR]

1. Data: Fairy-Stockfish plays itself at a fixed limit from the opening
   suite, each game extended by 4 random plies chosen by its seed (the
   engine is deterministic; this makes the games differ).  Games are
   cached in build/tune/texel/selfplay-<limit>.jsonl and resume like the
   ladder's.  Positions: every position from ply 10 on where the side to
   move is not in check and the move played next is not a capture (a
   quiet position, where the static evaluation means what it says),
   labelled with the game's result for Red (1, 1/2, 0).
2. Model: the reference's evaluation (reference_py/evaluate.py) for weight
   set --set, seen from Red, written as offset + x . w, where w holds the
   tuned weights: material (all but the king), the piece-square tables
   with a square and its left-right mirror tied (the tables are
   symmetric), and the set's linear terms (tempo, pawn_per_missing_attacker,
   the blocked legs and eyes, rook and cannon on the king's file, missing
   elephants and advisors).  horse_per_capture4 and cannon_per_capture4
   (rounded quarter-points, not linear) stay fixed, in the offset.  At the
   current weights offset + x . w equals evaluate() exactly (tested).
3. Fit: P(Red wins) = sigmoid(K * eval); K is fitted first with today's
   weights, then the weights minimize the logistic loss plus
   lambda * |w - w_today|^2 (Newton's method); 10% of the games are held
   out, and their loss before and after is reported.  The weights are then
   rounded and clamped to what the ROM holds (config ranges, the signs
   eng_eval needs, its 16-bit bound: tools/rom/gen_tables.py checks the
   result before anything is written; when it refuses, lambda is
   multiplied by 10 and the fit done again, and the report says so).
4. Output: DIR/config/ (eval.yaml with the new numbers in place, comments
   kept, plus today's difficulty.yaml and search.yaml), ready for
   `python -m tools.tune sprt config DIR/config`; DIR/texel.json and
   DIR/texel.md say what changed and the losses.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reference_py.board import (
    ADVISOR, CANNON, DIAG, DOWN, ELEPHANT, EMPTY, HALF_FLAG, HORSE, KING, OFFBOARD, ORTHO, PAWN, RED,
    ROOK, SQUARE_FLAGS, UP, file_of, sq90,
)
from reference_py.config import CONFIG_DIR, KIND_KEYS, ConfigError, EvalConfig, _load, load_eval
from reference_py.evaluate import build_tables, evaluate
from reference_py.fen import START_FEN
from reference_py.position import Position
from reference_py.rules import Game
from tools.atomic import write_atomic

from .games import stable_seed
from .openings import DEFAULT_SUITE, load_suite
from .players import PlayerError, parse_anchor
from .runner import GameCache, run_tasks

ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = ROOT / "build" / "tune" / "texel"
KIND_NAME = {v: k for k, v in KIND_KEYS.items()}
LINEAR_TERMS = ("tempo", "pawn_per_missing_attacker", "horse_leg_blocked", "elephant_eye_blocked",
                "rook_on_king_file", "cannon_on_king_file[0]", "cannon_on_king_file[1]",
                "cannon_on_king_file[2]", "cannon_on_king_file[3]", "missing_elephant_per_cannon",
                "missing_advisor_per_rook")
FIRST_PLY = 10
RANDOM_PLIES = 4
HOLDOUT = 10          # every 10th game is held out


class TexelError(ValueError):
    pass


# ---- the parameters

@dataclass(frozen=True)
class Param:
    name: str          # "material.horse", "pst.horse[r3,f1]" (file 1 stands for files 1 and 7), "sets.full.tempo"
    lo: int
    hi: int


def parameters(set_name: str) -> tuple[list[Param], dict]:
    """The tuned parameters and the lookup tables from (kind, sq90) / term to index."""
    params: list[Param] = []
    index: dict = {}
    for kind in range(1, 8):
        if kind == KING:
            continue
        index[("material", kind)] = len(params)
        params.append(Param(f"material.{KIND_NAME[kind]}", 0, 1000))
    for kind in range(1, 8):
        for r in range(10):
            for f in range(5):
                index[("pst", kind, r, f)] = len(params)
                params.append(Param(f"pst.{KIND_NAME[kind]}[r{r},f{f}]", -128, 127))
    for term in LINEAR_TERMS:
        lo, hi = -100, 100
        if term in ("horse_leg_blocked", "elephant_eye_blocked"):
            hi = 0                         # eng_eval: a blocked leg or eye costs
        if term.startswith("rook_on") or term.startswith("cannon_on"):
            lo = 0                         # eng_eval: a rook or cannon on the king's file gains
        index[("term", term)] = len(params)
        params.append(Param(f"sets.{set_name}.{term}", lo, hi))
    return params, index


def current_weights(cfg: EvalConfig, set_name: str, params: list[Param], index: dict) -> np.ndarray:
    ws = cfg.sets[set_name]
    w = np.zeros(len(params))
    for kind in range(1, 8):
        if kind != KING:
            w[index[("material", kind)]] = cfg.material[kind]
        for r in range(10):
            for f in range(5):
                w[index[("pst", kind, r, f)]] = cfg.pst[kind][r * 9 + f] if ws.pst else 0
    for term in LINEAR_TERMS:
        m = re.fullmatch(r"(\w+)\[(\d)\]", term)
        w[index[("term", term)]] = ws.cannon_on_king_file[int(m.group(2))] if m else getattr(ws, term)
    return w


def features(pos: Position, index: dict, n: int, tables) -> tuple[np.ndarray, float]:
    """(x, offset) with evaluate(pos) from Red's side = offset + x . w."""
    x = np.zeros(n)
    board, c = pos.board, pos.count
    kings = (pos.piece_sq[0], pos.piece_sq[16])
    for i in range(32):
        sq = pos.piece_sq[i]
        if not sq:
            continue
        kind, side = pos.piece_kind[i], i >> 4
        sign = 1 if side == RED else -1
        if kind != KING:
            x[index[("material", kind)]] += sign
        v = sq90(sq, side)
        r, f = divmod(v, 9)
        x[index[("pst", kind, r, min(f, 8 - f))]] += sign
        if kind == HORSE:
            x[index[("term", "horse_leg_blocked")]] += sign * sum(
                1 for d in ORTHO if board[sq + d] not in (EMPTY, OFFBOARD))
        elif kind == ELEPHANT:
            x[index[("term", "elephant_eye_blocked")]] += sign * sum(
                1 for d in DIAG if board[sq + d] not in (EMPTY, OFFBOARD) and SQUARE_FLAGS[sq + 2 * d] & HALF_FLAG[side])
        elif kind in (ROOK, CANNON):
            ek = kings[side ^ 1]
            if file_of(sq) == file_of(ek):
                if kind == ROOK:
                    x[index[("term", "rook_on_king_file")]] += sign
                else:
                    step = UP if ek > sq else DOWN
                    between, y = 0, sq + step
                    while y != ek:
                        between += board[y] != EMPTY
                        y += step
                    x[index[("term", f"cannon_on_king_file[{min(between, 3)}]")]] += sign
    x[index[("term", "tempo")]] += 1 if pos.side == RED else -1
    red_att = c[ROOK] + c[HORSE] + c[CANNON]
    black_att = c[8 + ROOK] + c[8 + HORSE] + c[8 + CANNON]
    x[index[("term", "pawn_per_missing_attacker")]] += c[PAWN] * (6 - black_att) - c[8 + PAWN] * (6 - red_att)
    x[index[("term", "missing_elephant_per_cannon")]] += (2 - c[ELEPHANT]) * c[8 + CANNON] - (2 - c[8 + ELEPHANT]) * c[CANNON]
    x[index[("term", "missing_advisor_per_rook")]] += (2 - c[ADVISOR]) * c[8 + ROOK] - (2 - c[8 + ADVISOR]) * c[ROOK]
    total = sum(c)
    offset = (c[HORSE] - c[8 + HORSE]) * tables.dyn_horse[total] + (c[CANNON] - c[8 + CANNON]) * tables.dyn_cannon[total]
    return x, float(offset)


def red_eval(pos: Position, tables) -> int:
    """evaluate() seen from Red (the reference, for the exactness check)."""
    pos.set_values(tables.values)
    e = evaluate(pos, tables)
    return e if pos.side == RED else -e


# ---- the data

def selfplay_tasks(games: int, engine: str, suite, seed: int) -> list[dict]:
    tasks = []
    for k in range(games):
        opening = list(suite.for_pair(k).moves)
        g = Game(START_FEN)
        for m in opening:
            g.play_text(m)
        rng = random.Random(stable_seed(seed, "texel", k))
        from reference_py.board import move_iccs
        for _ in range(RANDOM_PLIES):
            legal = sorted(g.pos.legal_moves())
            if not legal or g.outcome():
                break
            m = rng.choice(legal)
            g.play(m)
            opening.append(move_iccs(m))
        tasks.append({"red": engine, "black": engine, "opening": opening, "seed": stable_seed(seed, "texel-g", k),
                      "max_plies": 300})
    return tasks


def positions(games: list[dict]) -> list[tuple[Position, float, int]]:
    """(position, Red's result, game number) for the quiet positions of the games."""
    out = []
    for gi, g in enumerate(games):
        y = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
        game = Game(START_FEN)
        for ply, text in enumerate(g["moves"]):
            if ply >= FIRST_PLY:
                pos = game.pos
                to = "abcdefghi".index(text[2]), int(text[3])
                from reference_py.board import square
                if board_empty(pos, square(*to)) and not pos.in_check(pos.side):
                    out.append((pos.copy(), y, gi))
            game.play_text(text)
    return out


def board_empty(pos: Position, sq: int) -> bool:
    return pos.board[sq] == EMPTY


# ---- the fit

def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(z, -40, 40)))


def logloss(e: np.ndarray, y: np.ndarray, k: float) -> float:
    p = np.clip(_sigmoid(k * e), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_k(e: np.ndarray, y: np.ndarray) -> float:
    """The scale K minimizing the loss of today's evaluation (golden section on log K)."""
    lo, hi = math.log(1e-4), math.log(1.0)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if logloss(e, y, math.exp(a)) < logloss(e, y, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def fit_weights(X: np.ndarray, off: np.ndarray, y: np.ndarray, k: float, w0: np.ndarray, lam: float,
                iters: int = 30) -> np.ndarray:
    """Newton's method on mean logistic loss + lam * |w - w0|^2."""
    w = w0.copy()
    n = len(y)
    for _ in range(iters):
        p = _sigmoid(k * (off + X @ w))
        grad = k * X.T @ (p - y) / n + 2 * lam * (w - w0)
        hess = (k * k) * (X.T * (p * (1 - p))) @ X / n + 2 * lam * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-6:
            break
    return w


# ---- writing the YAML

def rounded(w: np.ndarray, params: list[Param]) -> np.ndarray:
    return np.array([min(p.hi, max(p.lo, int(round(v)))) for v, p in zip(w, params)], dtype=float)


def write_eval_yaml(src: Path, dst: Path, set_name: str, w: np.ndarray, index: dict) -> None:
    """src with the tuned numbers put in place (every other line, comments included, kept)."""
    lines = src.read_text().splitlines(keepends=True)
    root = _load(src)

    def put(line: int, pattern: str, repl: str) -> None:
        new = re.sub(pattern, repl, lines[line - 1], count=1)
        if new == lines[line - 1] and not re.search(pattern, lines[line - 1]):
            raise TexelError(f"{src}:{line}: cannot find the value to replace")
        lines[line - 1] = new

    mat = root.value["material"].value
    for kind in range(1, 8):
        if kind != KING:
            node = mat[KIND_NAME[kind]]
            put(node.line, rf"({KIND_NAME[kind]}:\s*)-?\d+", rf"\g<1>{int(w[index[('material', kind)]])}")
    pst = root.value["pst"].value
    for kind in range(1, 8):
        rows = pst[KIND_NAME[kind]].value
        for i, row in enumerate(rows):
            r = 9 - i
            vals = [int(w[index[("pst", kind, r, min(f, 8 - f))]]) for f in range(9)]
            put(row.line, r"\[[^\]]*\]", "[" + ", ".join(f"{v:3d}" for v in vals) + "]")
    ws = root.value["sets"].value[set_name].value
    for term in LINEAR_TERMS:
        if term.startswith("cannon_on_king_file"):
            continue
        put(ws[term].line, rf"({term}:\s*)-?\d+", rf"\g<1>{int(w[index[('term', term)]])}")
    ck = [int(w[index[("term", f"cannon_on_king_file[{i}]")]]) for i in range(4)]
    put(ws["cannon_on_king_file"].line, r"\[[^\]]*\]", "[" + ", ".join(map(str, ck)) + "]")
    write_atomic(dst, "".join(lines).encode())


def check_rom(config_dir: Path) -> None:
    """The ROM's table generator accepts the tree (ranges, signs, 16-bit bound)."""
    from tools.rom.gen_tables import build
    build(config_dir)


# ---- the command

def prepare_data(games: list[dict], set_name: str, cfg: EvalConfig):
    params, index = parameters(set_name)
    tables = build_tables(cfg, cfg.sets[set_name])
    pos_list = positions(games)
    if not pos_list:
        raise TexelError("no quiet positions in the self-play games (more games?)")
    X = np.zeros((len(pos_list), len(params)))
    off = np.zeros(len(pos_list))
    y = np.array([p[1] for p in pos_list])
    gid = np.array([p[2] for p in pos_list])
    for i, (pos, _, _) in enumerate(pos_list):
        X[i], off[i] = features(pos, index, len(params), tables)
    return params, index, X, off, y, gid, pos_list, tables


def _checked_tree(set_name: str, wr: np.ndarray, index: dict) -> dict[str, bytes]:
    """The new config tree's files, after the ROM's table generator accepted them (else ConfigError)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        for name in ("difficulty.yaml", "search.yaml"):
            shutil.copy(CONFIG_DIR / name, tree / name)
        write_eval_yaml(CONFIG_DIR / "eval.yaml", tree / "eval.yaml", set_name, wr, index)
        load_eval(tree / "eval.yaml")
        check_rom(tree)
        return {name: (tree / name).read_bytes() for name in ("eval.yaml", "difficulty.yaml", "search.yaml")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.tune texel", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="self-play games (default 400)")
    ap.add_argument("--engine", default="fs:nodes=2000", help="Fairy-Stockfish limit for the self-play")
    ap.add_argument("--set", dest="set_name", default="full", help="the weight set whose terms are tuned")
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-6,
                    help="pull towards today's weights (per weight, squared points)")
    ap.add_argument("--openings", type=Path, default=DEFAULT_SUITE)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", type=Path, default=None, help="the self-play cache (JSON lines)")
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--cluster", default=None)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--out", type=Path, default=DATA_DIR / "result")
    a = ap.parse_args(argv)
    spec = parse_anchor(a.engine)
    cfg = load_eval()
    if a.set_name not in cfg.sets:
        raise TexelError(f"unknown weight set '{a.set_name}' (known: {', '.join(cfg.sets)})")
    suite = load_suite(a.openings)
    data = a.data or DATA_DIR / f"selfplay-{spec.limit}{spec.value}.jsonl"
    tasks = selfplay_tasks(a.games, spec.text, suite, a.seed)
    results = run_tasks(tasks, jobs=a.jobs, cluster=a.cluster, cache=GameCache(data),
                        desc="self-play", progress=not a.quiet)
    from .games import task_key
    games = [results[task_key(t)] for t in tasks]
    params, index, X, off, y, gid, _, _ = prepare_data(games, a.set_name, cfg)
    w0 = current_weights(cfg, a.set_name, params, index)
    test = gid % HOLDOUT == HOLDOUT - 1
    train = ~test
    e0 = off + X @ w0
    k = fit_k(e0[train], y[train])
    out: Path = a.out
    lam, tries = a.lam, []
    for _ in range(12):
        w = fit_weights(X[train], off[train], y[train], k, w0, lam)
        wr = rounded(w, params)
        try:
            tree_bytes = _checked_tree(a.set_name, wr, index)
            break
        except ConfigError as exc:
            tries.append({"lambda": lam, "refused": str(exc).split(": ", 1)[-1]})
            lam *= 10
    else:
        raise TexelError(f"no weights within the ROM's limits up to lambda {lam / 10:g}: {tries[-1]['refused']}")
    if (out / "config").exists():
        shutil.rmtree(out / "config")
    for name, blob in tree_bytes.items():
        write_atomic(out / "config" / name, blob)
    loss = {name: {"before": round(logloss(off[m] + X[m] @ w0, y[m], k), 5),
                   "after": round(logloss(off[m] + X[m] @ wr, y[m], k), 5)}
            for name, m in (("train", train), ("held_out", test)) if m.any()}
    changes = [{"param": p.name, "before": int(w0[i]), "after": int(wr[i])}
               for i, p in enumerate(params) if int(w0[i]) != int(wr[i])]
    report = {"engine": spec.text, "games": len(games), "positions": int(len(y)),
              "held_out_positions": int(test.sum()), "set": a.set_name, "lambda": lam, "refused": tries, "k": k,
              "loss": loss, "changed": len(changes), "changes": changes, "config": str(out / "config")}
    write_atomic(out / "texel.json", (json.dumps(report, indent=1) + "\n").encode())
    md = ["# Texel tuning", "",
          f"{len(games)} Fairy-Stockfish self-play games at `{spec.text}`, {len(y):,} quiet positions "
          f"({int(test.sum()):,} held out); weight set `{a.set_name}`; K = {k:.5f}; lambda = {lam:g}"
          + (f" (smaller values gave weights the ROM cannot hold: {', '.join(format(t['lambda'], 'g') for t in tries)})"
             if tries else "") + ".", "",
          "| loss | today's weights | tuned |", "|---|---:|---:|",
          f"| training | {loss['train']['before']:.5f} | {loss['train']['after']:.5f} |",
          (f"| held out | {loss['held_out']['before']:.5f} | {loss['held_out']['after']:.5f} |"
           if "held_out" in loss else "| held out | n/a (fewer than 10 games) | |"), "",
          f"{len(changes)} weights changed; the new tree is `{out / 'config'}`: measure it with",
          f"`python -m tools.tune sprt config {out / 'config'}`.", "",
          "| weight | today | tuned |", "|---|---:|---:|"]
    md += [f"| {c['param']} | {c['before']} | {c['after']} |" for c in changes if not c["param"].startswith("pst.")]
    md += ["", f"({sum(c['param'].startswith('pst.') for c in changes)} piece-square entries changed: texel.json.)", ""]
    write_atomic(out / "texel.md", "\n".join(md).encode())
    print("\n".join(md[2:7]))
    print(f"wrote {out / 'config'}, {out / 'texel.json'}, {out / 'texel.md'}")
    return 0


def run(argv: list[str] | None = None) -> int:
    try:
        return main(argv)
    except (TexelError, PlayerError, ConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
