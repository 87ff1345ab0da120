"""Make the middlegame benchmark suite (bench/middlegames.fen) once.

Games start from the opening position with a few random moves, then
Fairy-Stockfish plays both sides quickly; one position between plies 20 and
40 of each game is kept.  The output is committed: the suite must not change
between benchmark runs.  Needs the Debian package `fairy-stockfish`.
"""
from __future__ import annotations

import random
import shutil
import subprocess
import sys

from reference_py.board import move_iccs
from reference_py.fen import START_FEN, format_fen, parse_fen
from reference_py.notation import iccs_to_uci, parse_iccs, uci_to_iccs


def main(count: int = 40, seed: int = 2026) -> None:
    rng = random.Random(seed)
    eng = subprocess.Popen([shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(cmd: str) -> None:
        eng.stdin.write(cmd + "\n")
        eng.stdin.flush()

    def wait(prefix: str) -> str:
        while True:
            line = eng.stdout.readline()
            if line.startswith(prefix):
                return line

    send("uci"); wait("uciok")
    send("setoption name UCI_Variant value xiangqi"); send("isready"); wait("readyok")
    out = []
    while len(out) < count:
        pos = parse_fen(START_FEN)
        moves: list[str] = []
        keep = rng.randrange(20, 41)
        ok = True
        for ply in range(keep):
            legal = pos.legal_moves()
            if not legal:
                ok = False
                break
            if ply < 4:
                mv = move_iccs(rng.choice(legal))
            else:
                send(f"position fen {START_FEN} moves {' '.join(iccs_to_uci(m) for m in moves)}")
                send("go movetime 30")
                best = wait("bestmove").split()[1]
                if best == "(none)":
                    ok = False
                    break
                mv = uci_to_iccs(best)
            moves.append(mv)
            pos.make(parse_iccs(pos, mv))
        if ok and pos.legal_moves():
            out.append(format_fen(pos, keep // 2 + 1))
    send("quit")
    with open("bench/middlegames.fen", "w") as f:
        f.write("# Middlegame benchmark suite: Fairy-Stockfish self-play from randomised openings,\n")
        f.write("# one position per game between plies 20 and 40 (bench/make_suite.py, seed 2026).\n")
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
