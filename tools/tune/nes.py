"""The cartridge beside the Elo: ROM == reference on a quick sample, and the
NES's thinking time per level from the 6502's cycles.

The ladder's games are played by the reference engine, which is the ROM's
executable specification (same move, score and node count for every
position, level and seed); that is what makes its Elo the cartridge's.
Two checks keep it honest for the configuration being measured:

  * before any game, `differential_sample` runs the ROM's eng_search
    (rebuilt from config/*.yaml when stale) under py65 on a few positions
    of bench/middlegames.fen per level and compares move, score, nodes,
    depth and PV with the reference; any difference stops the ladder;
  * after the games, `think_sample` replays a sample of the positions each
    level actually met in them (with the game's history, for repetitions,
    and the move's seed, for the noisy levels) through the ROM: its move
    must be the move played in the game, and its cycles / 1,789,773 Hz
    are the NES's thinking time for that move.  The median and the maximum
    over the sample are the level's think time in the report.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

from reference_py.cli import game_position
from reference_py.fen import START_FEN
from reference_py.rules import Game

from .games import stable_seed

FIELDS = ("move", "score", "nodes", "depth", "pv")


def _rom():
    from tools.nes.search import RomSearch
    from tools.rom.files import ensure_rom
    ensure_rom()
    return RomSearch()


def differential_sample(levels: list[str], positions: int = 2) -> list[dict]:
    """ROM vs reference on the first `positions` middlegames per level; one
    row per search with the ROM's cycles and whether all fields agree."""
    from bench.engine_bench import suite_fens
    from tools.nes.search import reference_search
    rs = _rom()
    rows = []
    for level in levels:
        for fen in suite_fens()[:positions]:
            rom = rs.search(game_position(fen), level)
            ref = reference_search(game_position(fen), level)
            bad = [k for k in FIELDS if rom[k] != ref[k]]
            rows.append({"level": level, "fen": fen, "cycles": rom["cycles"], "seconds": rom["seconds"],
                         "agree": not bad, "differ": bad, "rom": {k: rom[k] for k in FIELDS},
                         "reference": {k: ref[k] for k in FIELDS}})
    return rows


def candidate_moves(games: list[dict], level: str) -> list[tuple[dict, int]]:
    """(game, ply) for every move `level` chose in these games (not the opening's)."""
    out = []
    for g in games:
        for side, spec in enumerate((g["red"], g["black"])):
            if spec != level:
                continue
            first = len(g["opening"])
            for ply in range(first, g["plies"]):
                if ply % 2 == side:
                    out.append((g, ply))
    return out


def pick(cands: list[tuple[dict, int]], n: int) -> list[tuple[dict, int]]:
    """A fixed sample: the n candidates with the smallest stable hash."""
    return sorted(cands, key=lambda c: stable_seed(c[0]["key"], c[1]))[:n]


def think_sample(games: list[dict], levels: list[str], per_level: int, cache_path: Path | None = None,
                 progress: bool = True) -> dict[str, dict]:
    """NES think time per level from a sample of its moves in `games`:
    {level: {"moves", "median_s", "max_s", "mismatches", "samples": [...]}}.
    Each ROM search is cached in `cache_path` (JSON lines) as it ends."""
    cached: dict[str, dict] = {}
    if cache_path and cache_path.exists():
        for line in cache_path.read_text().splitlines():
            try:
                row = json.loads(line)
                cached[row["id"]] = row
            except (json.JSONDecodeError, KeyError):
                continue
    plan = {lv: pick(candidate_moves(games, lv), per_level) for lv in levels}
    todo = [(lv, g, ply) for lv in levels for g, ply in plan[lv] if f"{g['key']}:{ply}:{lv}" not in cached]
    rs = _rom() if todo else None
    bar = None
    if progress and todo:
        import sys

        from tqdm import tqdm
        bar = tqdm(total=len(todo), desc="NES think time (py65)", unit="move", file=sys.stderr, dynamic_ncols=True)
    for lv, g, ply in todo:
        game = Game(START_FEN)
        for text in g["moves"][:ply]:
            game.play_text(text)
        seed = (g["seed"] * 1000 + ply) & 0xFFFF
        rom = rs.search(game.pos, lv, seed=seed)
        row = {"id": f"{g['key']}:{ply}:{lv}", "level": lv, "game": g["key"], "ply": ply,
               "cycles": rom["cycles"], "seconds": rom["seconds"], "nodes": rom["nodes"],
               "rom_move": rom["move"], "game_move": g["moves"][ply]}
        cached[row["id"]] = row
        if cache_path:
            cache_path.parent.mkdir(parents=True, exist_ok=True)
            with open(cache_path, "a") as f:
                f.write(json.dumps(row) + "\n")
        if bar:
            bar.update(1)
    if bar:
        bar.close()
    out = {}
    for lv in levels:
        rows = [cached[f"{g['key']}:{ply}:{lv}"] for g, ply in plan[lv]]
        secs = [r["seconds"] for r in rows]
        out[lv] = {"moves": len(rows), "median_s": round(statistics.median(secs), 3) if secs else None,
                   "max_s": round(max(secs), 3) if secs else None,
                   "mismatches": sum(r["rom_move"] != r["game_move"] for r in rows), "samples": rows}
    return out
