"""The UCI and UCCI adapters of both engines, driven as a GUI drives them
(reference_py/protocol/client.py over pipes): the handshakes, commands in
any order, `stop`, bad input, `quit`, both rank conventions, and UCCI's
banmoves, clock and probe.  The ROM's answers equal `tools.romengine
search`: emu_tests/test_protocol_rom.py; a real client (XBoard through
uci2wb against Fairy-Stockfish): emu_tests/test_protocol_xboard.py.
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from reference_py.fen import START_FEN
from reference_py.protocol.client import EngineClient, bestmove
from reference_py.rules import Game
from reference_py.search import levels

ROOT = Path(__file__).resolve().parents[1]
ENGINES = {"reference": [sys.executable, "-m", "reference_py"],
           "rom": [sys.executable, "-m", "tools.romengine"]}
LEVELS = [lv.name for lv in levels()]
MATED = "3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1"      # Black is checkmated (two rooks)


def engine(name: str, dialect: str = "uci", book: bool = False) -> EngineClient:
    """The engine's adapter; the opening book off unless `book` (the tests
    of searches start from the opening position, where the book answers)."""
    client = EngineClient(ENGINES[name] + [dialect], cwd=str(ROOT))
    if not book:
        client.send("setoption name Book value false" if dialect == "uci" else "setoption usebook false")
    return client


def legal_after(moves: list[str], fen: str = START_FEN) -> set[str]:
    from reference_py.board import move_iccs
    game = Game(fen)
    for m in moves:
        game.play_text(m)
    return {move_iccs(m) for m in game.pos.legal_moves()}


def go(client: EngineClient, command: str = "go", timeout: float = 60) -> list[str]:
    client.send(command)
    return client.until("bestmove", timeout) if "nobestmove" not in command else []


@pytest.fixture(params=sorted(ENGINES))
def name(request) -> str:
    return request.param


# ---- handshakes ---------------------------------------------------------------
def test_uci_handshake(name):
    with engine(name) as e:
        e.send("uci")
        lines = e.until("uciok", 30)
        assert lines[0].startswith("id name ")
        opts = [l for l in lines if l.startswith("option name ")]
        level = next(l for l in opts if l.startswith("option name Level "))
        assert level.split(" var ")[1:] == LEVELS
        assert any(l.startswith("option name UCI_Variant type combo default xiangqi") for l in opts)
        assert any(l.startswith("option name Seed type spin") for l in opts)
        e.send("isready")
        assert e.until("readyok", 60)[-1] == "readyok"
        assert e.close() == 0


def test_ucci_handshake_and_bye(name):
    with engine(name, "ucci") as e:
        e.send("ucci")
        lines = e.until("ucciok", 30)
        assert any(l.startswith("option usemillisec type check") for l in lines)
        assert any(l.startswith("option level type combo") or l.startswith("option Level type combo")
                   for l in lines)
        e.send("quit")
        assert e.until("bye", 30)[-1] == "bye"
        assert e.proc.wait(10) == 0


def test_handshake_word_picks_the_dialect():
    """`python -m reference_py uci` answers a `ucci` client in UCCI."""
    with engine("reference", "uci") as e:
        e.send("ucci")
        assert e.until("ucciok", 30)[-1] == "ucciok"
        e.send("position fen " + MATED, "go depth 1")
        assert e.until("nobestmove", 30)[-1] == "nobestmove"


# ---- ordering ------------------------------------------------------------------
def test_commands_in_any_order(name):
    """No handshake first, go before position (the start position), isready
    during a search, position and setoption during a search (they apply to
    the next), a go during a search (the first bestmove comes first)."""
    with engine(name) as e:
        e.send("go depth 1")
        first = bestmove(e.until("bestmove", 60))
        assert first in legal_after([])
        e.send("setoption name Level value Master", "position startpos", "go infinite", "isready")
        lines = e.until("readyok", 60)
        assert not any(l.startswith("bestmove") for l in lines)     # infinite: holds its answer
        e.send("position startpos moves h2e2", "setoption name Level value Novice")
        e.send("go")
        lines = e.until("bestmove", 60)                 # the infinite search's answer, for the start
        assert bestmove(lines) in legal_after([])
        lines = e.until("bestmove", 60)                 # then the new search, after h2e2, at Novice
        assert bestmove(lines) in legal_after(["h2e2"])
        e.send("ucinewgame", "isready")
        e.until("readyok", 30)
        assert e.close() == 0


def test_go_depth_and_nodes_shorten_the_level(name):
    with engine(name) as e:
        e.send("setoption name Level value Master", "position startpos")
        lines = go(e, "go depth 1")
        infos = [l for l in lines if l.startswith("info depth")]
        assert infos and all(int(l.split()[2]) <= 1 for l in infos)
        lines = go(e, "go nodes 200")
        final = [l for l in lines if l.startswith("info depth")][-1]
        nodes = int(final.split(" nodes ")[1].split()[0])
        assert 1 <= nodes <= 200 + 8          # the ROM stops within one instruction chunk
        assert e.close() == 0


# ---- stop ---------------------------------------------------------------------
@pytest.mark.parametrize("dialect", ["uci", "ucci"])
def test_stop_answers_at_once(name, dialect):
    """`go infinite` at the strongest level, `stop` after a moment: the
    bestmove comes promptly and is the last reported iteration's.  An
    infinite search never answers by itself, so any answer is the stop's;
    both engines' hosts check for it often (the reference every 64 nodes,
    the ROM's driver between runs of cycles), well under a second apart
    even for the ROM under py65, and the 3-second bound leaves room for a
    loaded machine."""
    with engine(name, dialect) as e:
        e.send(dialect, "isready")
        e.until("readyok", 60)
        opt = "setoption name Level value " if dialect == "uci" else "setoption level "
        e.send(opt + LEVELS[-1], "position startpos moves h2e2 h9g7", "go infinite")
        time.sleep(0.4)
        t = time.monotonic()
        e.send("stop")
        lines = e.until("bestmove", 10)
        latency = time.monotonic() - t
        assert latency < 3.0, f"stop took {latency:.2f} s"
        move = bestmove(lines)
        assert move in legal_after(["h2e2", "h9g7"])
        pvs = [l.split(" pv ")[1].split() for l in e.seen if l.startswith("info depth") and " pv " in l]
        assert pvs and pvs[-1][0] == move
        e.send("stop", "isready")                       # a stop with nothing to stop: no second bestmove
        assert e.until("readyok", 10) == ["readyok"]


def test_quit_during_a_search_exits(name):
    with engine(name) as e:
        e.send("setoption name Level value " + LEVELS[-1], "go infinite")
        time.sleep(0.3)
        e.send("quit")
        assert e.proc.wait(10) == 0


def test_end_of_input_exits(name):
    with engine(name) as e:
        e.send("isready")
        e.until("readyok", 60)
        e.proc.stdin.close()
        assert e.proc.wait(10) == 0


# ---- bad input ------------------------------------------------------------------
BAD = [
    ("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w - - 0 1", "the board has 6 ranks"),
    ("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", "side to move"),
    ("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "kings"),
    ("position startpos moves h2e2 h2e2", "move 2 'h2e2'"),
    ("position startpos moves h2e3", "cannot move from h2 to e3"),
    ("position startpos moves z9z9", "is not a move"),
    ("position sideways", "expected 'startpos' or 'fen"),
]


@pytest.mark.parametrize("command, says", BAD, ids=[b[1] for b in BAD])
def test_bad_position_is_an_info_string(name, command, says):
    """A bad position: one `info string error` naming the problem, a `go`
    answers no move (never one for a position the client did not mean),
    and the next good position plays again."""
    with engine(name) as e:
        e.send(command, "isready")
        lines = e.until("readyok", 60)
        errors = [l for l in lines if l.startswith("info string error: ")]
        assert len(errors) == 1 and says in errors[0], lines
        assert bestmove(go(e, "go depth 1")) is None
        e.send("position startpos moves h2e2")
        assert bestmove(go(e, "go depth 1")) in legal_after(["h2e2"])
        assert e.close() == 0


@pytest.mark.parametrize("command, says", [
    ("setoption name Level value Grandmaster", "is not one of"),
    ("setoption name Seed value -3", "outside 0-65535"),
    ("setoption name Hash value 16", "no option 'Hash'"),
    ("setoption name UCI_Variant value chess", "is not one of"),
    ("setoption Level", "expected 'setoption name"),
    ("go wtime soon", "needs a number"),
    ("go sideways", "unknown word"),
    ("castle kingside", "unknown command"),
])
def test_bad_commands_are_info_strings(name, command, says):
    with engine(name) as e:
        e.send(command, "isready")
        lines = e.until("readyok", 60)
        errors = [l for l in lines if l.startswith("info string error: ")]
        assert len(errors) == 1 and says in errors[0], lines
        assert bestmove(go(e, "go depth 1")) in legal_after([])
        assert e.close() == 0


def test_mated_side_has_no_move(name):
    with engine(name) as e:
        e.send(f"position fen {MATED}")
        lines = go(e)
        assert lines[-1] == "bestmove (none)"
        assert any(" score mate 0" in l for l in lines)


CHASE_FEN = "5k3/9/7c1/R8/9/9/9/9/9/3K5 w - - 0 1"    # tests/data/chase_suite.yaml, issue_example
CHASE_MOVES = "a6a7 h7h8 a7a8 h8h7 a8a7 h7h8 a7a8 h8h7 a8a7"


@pytest.mark.parametrize("dialect", ["uci", "ucci"])
def test_game_over_by_the_rules_is_said(name, dialect):
    """A position the rules have ended (here Red's perpetual chase, 長捉) is
    named in an info string before the answer; the GUI adjudicates."""
    with engine(name, dialect) as e:
        e.send(f"position fen {CHASE_FEN} moves {CHASE_MOVES}")
        lines = go(e, "go depth 1")
        assert "info string game over by the rules: Black wins: Red chased a piece perpetually." in lines
        e.send(f"position fen {CHASE_FEN} moves {CHASE_MOVES.rsplit(' ', 1)[0]}")
        assert not any("game over" in l for l in go(e, "go depth 1"))


# ---- coordinates --------------------------------------------------------------------
def ranks_of(move: str) -> tuple[int, int]:
    m = re.fullmatch(r"[a-i](\d+)[a-i](\d+)", move)
    assert m, move
    return int(m.group(1)), int(m.group(2))


def from_ranks_1_10(move: str) -> str:
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    assert m and all(1 <= int(m.group(g)) <= 10 for g in (2, 4)), move
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def test_fairy_stockfish_ranks_after_uci_variant(name):
    """A client that sets UCI_Variant (Fairy-Stockfish's convention) gets
    and may send ranks 1-10; the move is the same as in ranks 0-9."""
    with engine(name) as e:
        e.send("setoption name Level value Easy", "position startpos moves h2e2")
        pikafish = bestmove(go(e))
        e.send("setoption name UCI_Variant value xiangqi", "position startpos moves h3e3")
        fairy = bestmove(go(e))
        assert from_ranks_1_10(fairy) == pikafish
        e.send("position startpos moves h3e3 " + fairy, "go depth 1")
        assert bestmove(e.until("bestmove", 60)) is not None


def test_ranks_option_and_evidence(name):
    with engine(name) as e:
        e.send("setoption name Ranks value 1-10", "position startpos moves b3e3", "go depth 1")
        reply = bestmove(e.until("bestmove", 60))
        assert from_ranks_1_10(reply) in legal_after(["b2e2"])
        e.send("position startpos moves b1c3", "go depth 1")     # fixed 1-10: b1c3 is the horse's b0c2
        assert from_ranks_1_10(bestmove(e.until("bestmove", 60))) in legal_after(["b0c2"])
        e.send("setoption name Ranks value auto", "position startpos moves b0c2", "go depth 1")
        move = bestmove(e.until("bestmove", 60))        # rank 0 in the input: ranks 0-9
        assert move in legal_after(["b0c2"])
        e.send("position startpos moves h3e3 h10g8", "go depth 1")    # rank 10: ranks 1-10
        move = bestmove(e.until("bestmove", 60))
        assert from_ranks_1_10(move) in legal_after(["h2e2", "h9g7"])


def test_uci2wb_fen_command(name):
    """uci2wb's xiangqi dialect: `fen <FEN> moves ...` without `position`,
    'r' for Red to move, ranks 0-9 even after UCI_Variant."""
    with engine(name) as e:
        e.send("setoption name UCI_Variant value xiangqi",
               "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2", "go depth 1")
        assert bestmove(e.until("bestmove", 60)) in legal_after(["h2e2"])


# ---- UCCI ------------------------------------------------------------------------------
def test_ucci_banmoves(name):
    with engine(name, "ucci") as e:
        e.send("ucci", "setoption level Easy", "position startpos")
        first = bestmove(go(e, "go depth 2"))
        e.send("position startpos", f"banmoves {first}")
        second = bestmove(go(e, "go depth 2"))
        assert second != first and second in legal_after([])
        e.send("position startpos")                    # a new position clears the bans
        assert bestmove(go(e, "go depth 2")) == first
        e.send("banmoves a0a5")
        assert "is not a legal move" in e.until(lambda l: l.startswith("info string error"), 30)[-1]


def test_ucci_clock_in_seconds_and_milliseconds(name):
    """`go time T increment I`: seconds by default, milliseconds after
    `setoption usemillisec true`; a tiny clock stops the strongest level early."""
    with engine(name, "ucci") as e:
        e.send("ucci", f"setoption level {LEVELS[-1]}", "position startpos", "isready")
        e.until("readyok", 60)
        t = time.monotonic()
        assert bestmove(go(e, "go time 600 increment 0")) in legal_after([])   # 600 s: the level decides
        full = time.monotonic() - t
        e.send("setoption usemillisec true", "position startpos moves h2e2")
        t = time.monotonic()
        assert bestmove(go(e, "go time 300 increment 0 opptime 300 oppincrement 0")) in legal_after(["h2e2"])
        assert time.monotonic() - t < 1.5 + 0.1 * full


def test_ucci_probe(name):
    with engine(name, "ucci") as e:
        e.send("ucci", "setoption level Novice", "probe startpos")
        assert e.until("pophash", 30)[-1] == "pophash"          # nothing searched yet
        e.send("position startpos moves h2e2")
        move = bestmove(go(e))
        e.send("probe startpos moves h2e2")
        line = e.until("pophash", 30)[-1]
        assert line.startswith(f"pophash bestmove {move} lowerbound ")


@pytest.mark.parametrize("dialect, option", [("uci", "setoption name Book value false"),
                                             ("ucci", "setoption usebook false")])
def test_book_option(name, dialect, option):
    """From the start position the level plays its book move (the same as
    `search`); with the book off, the search's move."""
    from reference_py.board import move_iccs
    from reference_py.fen import parse_fen
    from reference_py.search import Searcher, level_by_name
    lv = level_by_name("Medium")
    with_book = Searcher(parse_fen(START_FEN), lv, seed=5).run()
    without = Searcher(parse_fen(START_FEN), lv, seed=5, book=None).run()
    assert with_book.book and not without.book
    with engine(name, dialect, book=True) as e:
        e.send(dialect)
        e.until("uciok" if dialect == "uci" else "ucciok", 30)
        level = "setoption name Level value Medium" if dialect == "uci" else "setoption level Medium"
        seed = "setoption name Seed value 5" if dialect == "uci" else "setoption seed 5"
        for line in (level, seed, "position startpos"):
            e.send(line)
        lines = go(e, "go", 300)
        assert bestmove(lines) == move_iccs(with_book.move)
        assert any(l.startswith("info string book move") for l in lines)
        e.send(option)
        assert bestmove(go(e, "go", 300)) == move_iccs(without.move)
