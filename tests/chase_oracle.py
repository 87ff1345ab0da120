"""The perpetual-chase suite (tests/data/chase_suite.yaml): positions and
move sequences that exercise each branch of the chase rule, with the
project's verdict (reference_py.rules.Game) and Fairy-Stockfish's (pyffish,
variant xiangqi: `is_optional_game_end` / `game_result` after the moves)
stored side by side.

    python -m tests.chase_oracle          # recompute both verdicts, rewrite the file

The file's cases are written by hand (id, what, fen, moves); this fills in
`ours` and `fairy_stockfish`.  tests/test_ref_chase.py checks the stored
verdicts against both engines and that they agree or that the case is one
of the disagreements docs/ENGINE.md explains.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference_py.notation import iccs_to_uci  # noqa: E402
from reference_py.pgn import result_of  # noqa: E402
from reference_py.rules import Game  # noqa: E402

SUITE = ROOT / "tests" / "data" / "chase_suite.yaml"
VARIANT = "xiangqi"
ONGOING = "*"


def load(path: Path = SUITE) -> list[dict]:
    """The suite's cases, each checked for its fields."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list):
        raise ValueError(f"{path}: expected a mapping with a list 'cases'")
    ids = set()
    for i, case in enumerate(cases):
        for key in ("id", "what", "fen", "moves"):
            if key not in case:
                raise ValueError(f"{path}: case {i + 1} has no '{key}'")
        if case["id"] in ids:
            raise ValueError(f"{path}: case id '{case['id']}' is used twice")
        ids.add(case["id"])
    return cases


def ours(fen: str, moves: list[str]) -> dict[str, str]:
    """{"result", "reason"} by reference_py.rules after the moves (the
    `python -m reference_py result` JSON)."""
    game = Game(fen)
    for text in moves:
        game.play_text(text)
    result, reason = result_of(game.outcome(), unfinished="the game goes on")
    return {"result": result, "reason": reason}


def fairy_stockfish(fen: str, moves: list[str]) -> str:
    """Fairy-Stockfish's result after the moves: "1-0", "0-1", "1/2-1/2" or "*"."""
    import pyffish as sf
    uci = [iccs_to_uci(m) for m in moves]
    if sf.legal_moves(VARIANT, fen, uci):
        end, value = sf.is_optional_game_end(VARIANT, fen, uci)
        if not end:
            return ONGOING
    else:
        value = sf.game_result(VARIANT, fen, uci)
    if value == 0:
        return "1/2-1/2"
    red_to_move = (fen.split()[1] in ("w", "r")) == (len(uci) % 2 == 0)
    return "1-0" if (value > 0) == red_to_move else "0-1"


def main() -> int:
    cases = load()
    for case in cases:
        case["ours"] = ours(case["fen"], case["moves"])
        case["fairy_stockfish"] = fairy_stockfish(case["fen"], case["moves"])
    header = "".join(line for line in SUITE.read_text(encoding="utf-8").splitlines(keepends=True)
                     if line.startswith("#"))
    text = header + yaml.safe_dump({"cases": cases}, sort_keys=False, allow_unicode=True, width=100)
    fd, tmp = tempfile.mkstemp(dir=SUITE.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, SUITE)
    agree = sum(c["ours"]["result"] == c["fairy_stockfish"] for c in cases)
    print(f"{len(cases)} cases, {agree} agree with Fairy-Stockfish")
    return 0


if __name__ == "__main__":
    sys.exit(main())
