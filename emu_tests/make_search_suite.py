"""Write emu_tests/search_suite.fen: the fixed positions of the ROM-search tests.

    python -m emu_tests.make_search_suite

Each line is `FEN [; moves m1 m2 ...] # category`: the moves are played
from the FEN first (they become the game history the repetition rule sees).
Categories: the 40 middlegames of bench/middlegames.fen; openings (the start
and short seeded random openings); repetition (games whose history repeats);
endgames, mates (the reference finds a mate score at Medium), single (exactly
one legal move) and none (no legal move), from seeded random games
(emu_tests/romengine_positions.py).  Deterministic: the same file every run.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from emu_tests.romengine_positions import EXTRA_FENS, positions  # noqa: E402
from reference_py.board import move_iccs  # noqa: E402
from reference_py.fen import START_FEN, format_fen, parse_fen  # noqa: E402
from reference_py.search import MATE_BOUND, Searcher, level_by_name  # noqa: E402

OUT = Path(__file__).resolve().parent / "search_suite.fen"
MIDDLEGAMES = ROOT / "bench" / "middlegames.fen"


def read_suite(path: Path = OUT) -> list[tuple[str, list[str], str]]:
    """(fen, moves, category) per line."""
    out = []
    for raw in path.read_text().splitlines():
        line, _, cat = raw.partition("#")
        line = line.strip()
        if not line:
            continue
        fen, _, moves = line.partition(";")
        moves = moves.strip()
        if moves.startswith("moves"):
            moves = moves[len("moves"):]
        out.append((fen.strip(), moves.split(), cat.strip()))
    return out


def _pieces(pos) -> int:
    return sum(1 for s in pos.piece_sq if s)


def build() -> list[str]:
    lines = ["# ROM search suite (emu_tests/make_search_suite.py): FEN [; moves ...] # category"]
    for raw in MIDDLEGAMES.read_text().splitlines():
        if raw.strip() and not raw.startswith("#"):
            lines.append(f"{raw.strip()} # middlegame")
    rng = random.Random(55)
    lines.append(f"{START_FEN} # opening")
    for _ in range(14):
        pos = parse_fen(START_FEN)
        moves = []
        for _ply in range(rng.randrange(2, 9)):
            legal = pos.legal_moves()
            m = rng.choice(legal)
            moves.append(move_iccs(m))
            pos.make(m)
        lines.append(f"{START_FEN} ; moves {' '.join(moves)} # opening")
    # repetition: horses out and back (the history holds repeated positions)
    cycle = ["b0c2", "b9c7", "c2b0", "c7b9"]
    lines.append(f"{START_FEN} ; moves {' '.join(cycle)} # repetition")
    lines.append(f"{START_FEN} ; moves {' '.join(cycle * 2)} # repetition")
    lines.append(f"{START_FEN} ; moves {' '.join(cycle * 2 + cycle[:3])} # repetition")
    lines.append("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 10 40 ; moves a1a2 d9d8 a2a1 d8d9 # repetition")
    lines.append("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 115 90 # endgame")
    for fen in EXTRA_FENS:
        pos = parse_fen(fen)
        cat = "none" if not pos.legal_moves() else "endgame"
        lines.append(f"{fen} # {cat}")
    pool = positions(600, seed=77)
    want = {"endgame": 16, "mate": 10, "single": 8, "none": 3}
    got = {k: 0 for k in want}
    medium = level_by_name("Medium")
    for pos in pool:
        if all(got[k] >= want[k] for k in want):
            break
        legal = pos.legal_moves()
        fen = format_fen(pos)
        if not legal:
            cat = "none"
        elif len(legal) == 1:
            cat = "single"
        else:
            cat = None
            if got["mate"] < want["mate"]:
                res = Searcher(parse_fen(fen), medium).run()
                if abs(res.score) > MATE_BOUND:
                    cat = "mate"
            if cat is None and _pieces(pos) <= 12:
                cat = "endgame"
        if cat and got[cat] < want[cat]:
            got[cat] += 1
            lines.append(f"{fen} # {cat}")
    return lines


def main() -> int:
    lines = build()
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{OUT}: {len(lines) - 1} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
