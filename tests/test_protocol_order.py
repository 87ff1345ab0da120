"""Every `go` gets exactly one `bestmove`, and in order: the session driven
in-process, command by command, as a GUI (or uci2wb) drives it at a game's
end and the next game's start.  A stale or missing answer is what a client
takes for the answer to its next `go`; uci2wb turns a `bestmove (none)` into
a stalemate claim (or a resignation), so one answer out of place loses a game.

The back-end here holds every search until it is told to stop (or its
`go depth`/`nodes` allows an answer at once), so the order of the lines does
not depend on how fast the machine is.
"""
from __future__ import annotations

import io
import threading
from typing import Callable

import pytest

from reference_py.board import move_iccs
from reference_py.fen import START_FEN
from reference_py.protocol.backend import Answer, Report, Request
from reference_py.protocol.dialect import Ucci, Uci
from reference_py.protocol.session import Session
from reference_py.rules import Game

MATED = "3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1"      # Black is checkmated (two rooks)


class HoldingBackend:
    """Answers a position's first legal move (ICCS order), but only once the
    search may end: at once for `go depth`/`go nodes`, else when stopped."""

    name = "holding"

    def __init__(self) -> None:
        self.started = threading.Event()

    def prepare(self) -> None:
        pass

    def search(self, request: Request, should_stop: Callable[[], bool],
               report: Callable[[Report], None]) -> Answer:
        self.started.set()
        if request.depth is None and request.nodes is None:
            while not should_stop():
                threading.Event().wait(0.001)
        move = sorted(move_iccs(m) for m in request.pos.legal_moves())[0]
        return Answer(move, 0, 1, 1, [move])


def first_legal(fen: str = START_FEN, moves: tuple[str, ...] = ()) -> str:
    game = Game(fen)
    for m in moves:
        game.play_text(m)
    return sorted(move_iccs(m) for m in game.pos.legal_moves())[0]


def drive(commands: list[str], dialect: str = "uci") -> tuple[list[str], list[int]]:
    """Run `commands`; (every line written, and how many lines had been
    written when each command was read)."""
    out = io.StringIO()
    session = Session(HoldingBackend(), Uci() if dialect == "uci" else Ucci(), out)
    marks = []
    for command in commands:
        marks.append(len(out.getvalue().splitlines()))
        if not session.handle(command):
            break
    session.end_search()                       # as the end of input does
    return out.getvalue().splitlines(), marks


def check_answers(commands: list[str], lines: list[str], marks: list[int], expected: list[str | None]) -> None:
    """One answer per `go`, the k-th answer being the k-th go's, and none
    written before its `go` was read."""
    answers = [(n, l) for n, l in enumerate(lines) if l.startswith(("bestmove", "nobestmove"))]
    gos = [k for k, c in enumerate(commands) if c.split()[0] == "go"]
    assert len(answers) == len(gos) == len(expected), (lines, commands)
    for (n, line), k, want in zip(answers, gos, expected):
        assert n >= marks[k], f"{line!r} was written before {commands[k]!r} was read"
        got = line.split()[1] if line.startswith("bestmove") else None
        assert (None if got == "(none)" else got) == want, (commands[k], line, lines)


# A game ends mated (the GUI's last go asks the mated side, as uci2wb does),
# the GUI stops it, starts the next game and asks for a move at once.
SEQUENCES = {
    "go on a mated position, stop, new game, go": (
        [f"position fen {MATED}", "go infinite", "stop", "ucinewgame", "position startpos moves h2e2", "go"],
        [None, first_legal(START_FEN, ("h2e2",))]),
    "new game while a mated search is held": (
        [f"position fen {MATED}", "go ponder", "ucinewgame", "position startpos", "go depth 3"],
        [None, first_legal()]),
    "new position and go while searching": (
        ["position startpos", "go infinite", "position startpos moves h2e2 h9g7", "go depth 2"],
        [first_legal(), first_legal(START_FEN, ("h2e2", "h9g7"))]),
    "stop twice, then isready and go": (
        ["position startpos", "go infinite", "stop", "stop", "isready", "position startpos moves b0c2", "go nodes 5"],
        [first_legal(), first_legal(START_FEN, ("b0c2",))]),
    "quit during a search": (
        ["position startpos", "go infinite", "quit"],
        [first_legal()]),
    "uci2wb's fen command between games": (
        [f"fen {MATED}", "go wtime 100 btime 100", "stop", "ucinewgame", "isready",
         "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2", "go btime 10000 wtime 9370"],
        [None, first_legal(START_FEN, ("h2e2",))]),
}


@pytest.mark.parametrize("key", sorted(SEQUENCES))
def test_every_go_is_answered_once_in_order(key):
    commands, expected = SEQUENCES[key]
    lines, marks = drive(commands)
    check_answers(commands, lines, marks, expected)


def test_ucci_nobestmove_is_not_late():
    commands = [f"position fen {MATED}", "go ponder", "stop", "setoption newgame",
                "position startpos", "go depth 1"]
    lines, marks = drive(["ucci"] + commands, "ucci")
    check_answers(["ucci"] + commands, lines, marks, [None, first_legal()])


# A `go` whose words cannot all be read is still a `go`: the client waits
# for its answer.  A negative clock is how GUIs report an overrun one.
BAD_GO = [
    ("uci", "go wtime -40 btime 5000", None),
    ("uci", "go wtime soon btime 5000", "needs a number, got 'soon'"),
    ("uci", "go depth 2 sideways", "unknown word 'sideways'"),
    ("uci", "go depth -1", "must not be negative"),
    ("uci", "go wtime", "needs a number"),
    ("ucci", "go time -3 increment 0", None),
    ("ucci", "go depth 2 opptime x", "needs a number, got 'x'"),
]


@pytest.mark.parametrize("dialect, command, says", BAD_GO, ids=[b[1] for b in BAD_GO])
def test_a_go_with_bad_words_is_still_answered(dialect, command, says):
    commands = [dialect, "position startpos moves h2e2", command, "stop", "position startpos", "go depth 1"]
    lines, marks = drive(commands, dialect)
    check_answers(commands, lines, marks, [first_legal(START_FEN, ("h2e2",)), first_legal()])
    errors = [l for l in lines if l.startswith("info string error: ")]
    if says is None:
        assert errors == [], errors
    else:
        assert len(errors) == 1 and says in errors[0], errors


def test_an_overrun_clock_answers_at_once():
    """`go wtime -40` (Red to move, its clock overrun): the session's budget
    is the smallest there is, so a search that runs to its deadline answers
    without a `stop`."""
    out = io.StringIO()
    session = Session(HoldingBackend(), Uci(), out)
    session.handle("position startpos")
    session.handle("go wtime -40 btime 5000")
    job = session.job
    assert job is not None and job.deadline is not None and job.deadline - job.started <= 0.011
    job.thread.join(5)
    assert not job.thread.is_alive(), "the search did not end at its deadline"
    assert out.getvalue().splitlines()[-1] == f"bestmove {first_legal()}"
