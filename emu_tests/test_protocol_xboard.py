"""The adapters under a real client: XBoard (Debian xboard) on a headless X
server, talking to our engines through uci2wb (Debian uci2wb), plays short
matches against Fairy-Stockfish (Debian fairy-stockfish, through XBoard's
own protocol).  XBoard checks every move it is sent, so a finished game is
a game without an illegal move; uci2wb speaks the UCI "Cyclone" dialect
for xiangqi (a bare `fen ... moves ...`) and UCCI with -x.  And XBoard
loads a PGN this project wrote (reference_py/pgn.py) and sends its moves,
parsed, to an engine.

The README's "Play against the engines in XBoard" section gives these same
command lines, and describes the uci2wb race that the match test detects
(doubled_usermove) and plays again.  Without the programs the tests skip, unless
XIANGQI_REQUIRE_EMULATORS=1 (.ci/run installs them and sets it).
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from emu_tests.headless import (ProgramMissing, XServer, find_program, log_tail, skip_or_fail,
                                start_program, stop_process)
from reference_py.board import move_iccs
from reference_py.fen import START_FEN
from reference_py.pgn import format_game
from reference_py.rules import Game
from reference_py.search import Searcher, levels

ROOT = Path(__file__).resolve().parents[1]
LEVEL = levels()[0].name
MATCH_SECONDS = 240


def programs() -> tuple[str, str, str]:
    try:
        return (find_program("xboard", "xboard"), find_program("uci2wb", "uci2wb"),
                find_program("fairy-stockfish", "fairy-stockfish"))
    except ProgramMissing as exc:
        skip_or_fail(exc)
        raise


def xboard(args: list[str], work: Path, timeout: float = MATCH_SECONDS) -> tuple[str, str]:
    """Run XBoard with `args` until it exits; (its PGN, its debug log)."""
    exe = programs()[0]
    pgn, debug = work / "games.pgn", work / "xboard.debug"
    try:
        server = XServer.xvfb()
    except ProgramMissing as exc:
        skip_or_fail(exc)
        raise
    with server as x:
        proc = start_program([exe, "-variant", "xiangqi", *args, "-sgf", str(pgn), "-debug",
                              "-nameOfDebugFile", str(debug), "-popupExitMessage", "false"],
                             env=x.env(home=work), log=work / "xboard.log")
        try:
            rc = proc.wait(timeout)
        except Exception:
            stop_process(proc)
            pytest.fail(f"XBoard did not finish within {timeout} s:\n{log_tail(debug)}")
    assert rc == 0, f"XBoard exited with {rc}:\n{log_tail(work / 'xboard.log')}"
    return (pgn.read_text() if pgn.exists() else ""), debug.read_text(errors="replace")


def our_engine(module: str, dialect: str) -> str:
    """XBoard's engine command for one of our adapters behind uci2wb (the
    engine line is one argument of uci2wb, which splits it at spaces;
    `debug` makes uci2wb copy both directions into XBoard's debug log)."""
    flag = "-x" if dialect == "ucci" else "-c"
    return f"{programs()[1]} debug {flag} '{sys.executable} -m {module} {dialect}' {ROOT}"


def games_of(pgn: str) -> list[tuple[str, str, int]]:
    """(Result, the final comment, the number of plies) per game of XBoard's PGN."""
    out = []
    for chunk in re.split(r"\n(?=\[Event )", pgn.strip()):
        result = re.search(r'\[Result "([^"]+)"\]', chunk).group(1)
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        comments = re.findall(r"\{([^}]*)\}", body)
        plain = re.sub(r"\{[^}]*\}", " ", body)
        plies = len([t for t in plain.split() if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)])
        out.append((result, comments[-1] if comments else "", plies))
    return out


def engine_trouble(debug: str, last: int = 6) -> str:
    """What a failed match's debug log says about the first engine, for the
    failure message (CI prunes the logs): its error lines, and each
    no-move answer with the position and `go` that asked for it (uci2wb
    turns `bestmove (none)` into a stalemate claim, or a resignation after
    a mate score), and any command of XBoard's that uci2wb read mangled."""
    lines = [l for l in debug.splitlines() if l.split(" ", 1)[-1].startswith("<first : ")]
    said = [l.split("<first : ", 1)[1] for l in lines]
    usual = {"cores", "black", "white", ""}        # XBoard commands uci2wb does not know, every game
    notes = [s for s in said if "info string error" in s
             or (s.startswith("Error (unknown command): ") and s.split(": ", 1)[1].strip() not in usual)]
    for k, s in enumerate(said):
        if s.startswith("# engine said: bestmove (none)") or s.startswith("# engine said: nobestmove"):
            asked = [t for t in said[:k] if t.startswith(("# fen", "# position", "# go"))][-2:]
            notes.append(" / ".join(asked + [s]))
    return "\n".join(notes[-last:]) or "(no engine errors in the debug log)"


def doubled_usermove(debug: str) -> str | None:
    """A move uci2wb executed more often than XBoard sent it (else None).

    uci2wb 4.1 (Debian's) queues XBoard's commands for its engine thread
    without a lock, and queues a `usermove` with no line end, so commands
    run into each other.  When XBoard sends a move together with more
    commands (when our engine plays Black, its first move comes as
    `usermove X`, `black`, `go`; a loaded opening comes as a run of
    usermoves), uci2wb now and then executes a move twice: "# command e"
    once more than XBoard sent `usermove`, or one move in the place of
    several, the same move twice in a row in the list it sends.  It then
    asks our engine to search a position that cannot follow from the game
    (UCI: no legal second X, so `bestmove (none)`, which uci2wb passes on
    as the claim "1/2-1/2 {stalemate}"; UCCI: a corrupted FEN with Red to
    move, so a Red move), and XBoard forfeits our engine for uci2wb's
    fault."""
    sent, last = 0, None
    for line in debug.splitlines():
        m = re.search(r">first : usermove (?:\d+ >first : )?(\S+)", line)
        if m:
            sent, last = sent + 1, m.group(1)
        elif line.endswith("<first : # command e"):
            sent -= 1
            if sent < 0:
                return last or "(no usermove)"
        elif "StartChildProcess" in line:
            sent, last = 0, None
        elif "<first : # " in line and " moves " in line:
            # the same move twice in a row: never legal (the sides alternate)
            moves = line.split(" moves ", 1)[1].split()
            for a, b in zip(moves, moves[1:]):
                if a == b:
                    return a
    return None


@pytest.mark.parametrize("module, dialect", [("reference_py", "uci"), ("tools.romengine", "ucci")])
def test_match_against_fairy_stockfish(tmp_path, module, dialect):
    """Two games, one with each colour, at 10 s a game: both end by the
    rules (mate, stalemate, a draw, a flag) with every move legal.  A match
    in which uci2wb executed one of XBoard's moves twice (doubled_usermove)
    is played again, once."""
    fsf = programs()[2]
    t = time.monotonic()
    for attempt in (1, 2):
        work = tmp_path / f"match{attempt}"
        work.mkdir()
        pgn, debug = xboard(["-fcp", our_engine(module, dialect), "-firstOptions", f"Level={LEVEL}",
                             "-scp", fsf, "-matchGames", "2", "-tc", "0:10", "-inc", "0"], work)
        doubled = doubled_usermove(debug)
        if doubled is None:
            break
        print(f"match {attempt}: uci2wb executed a move twice (XBoard's last: {doubled}); "
              f"{'playing the match again' if attempt == 1 else 'twice in a row'}")
    assert doubled is None, f"uci2wb executed a move twice (XBoard's last: {doubled}), in two matches in a row"
    games = games_of(pgn)
    trouble = engine_trouble(debug)
    assert len(games) == 2, (pgn, trouble)
    for result, how, plies in games:
        assert result in ("1-0", "0-1", "1/2-1/2"), (result, how, trouble)
        assert not re.search(r"illegal|forfeit|died|crash", how, re.I), (how, trouble)
        assert plies >= 6, (result, how, plies, trouble)
    assert "Illegal move" not in debug and "died on me" not in debug
    sent = re.findall(r"<first : # (?:position )?fen .*", debug)
    assert sent, "uci2wb's debug output shows no position sent to our engine"
    assert "info string error" not in debug, re.findall(r"info string error.*", debug)[:3]
    print(f"{module} {dialect} vs Fairy-Stockfish: {[g[:2] for g in games]} in {time.monotonic() - t:.0f} s")


def test_xboard_loads_our_pgn(tmp_path):
    """Our PGN of an engine game as XBoard's opening: XBoard parses every
    move of it into the same move and sends them all to the engine."""
    game = Game(START_FEN)
    for ply in range(24):
        game.play(Searcher(game.pos.copy(), levels()[ply % 2], seed=ply).run().move)
    ours = tmp_path / "ours.pgn"
    ours.write_text(format_game(START_FEN, game.moves, red="reference", black="reference"))
    fsf = programs()[2]
    _, debug = xboard(["-fcp", fsf, "-scp", fsf, "-lgf", str(ours), "-lgi", "1", "-matchGames", "1",
                       "-tc", "0:04", "-inc", "0"], tmp_path)
    parsed = re.findall(r"Parsed (\S+) into (\S+)", debug)
    iccs = [move_iccs(m) for m in game.moves]
    assert [p[0] for p in parsed[:len(iccs)]] == iccs
    assert [p[1] for p in parsed[:len(iccs)]] == iccs
    sent = re.findall(r">first : usermove (?:\d+ >first : )?(\S+)", debug) or \
        re.findall(r">first : (?:usermove )?([a-i]\d[a-i]\d)\b", debug)
    assert sent[:len(iccs)] == iccs, sent[:len(iccs)]
    assert "Illegal move" not in debug
