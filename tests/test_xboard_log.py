"""emu_tests/test_protocol_xboard.py's reading of XBoard's debug log: the
uci2wb race it plays a match again for, and the failure message's notes.
The lines are in XBoard's debug format, taken from real matches."""
from __future__ import annotations

from emu_tests.test_protocol_xboard import doubled_usermove, engine_trouble

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r"

CLEAN = f"""19679 >first : computer
20304 >first : time 1000
20304 >first : usermove 20304 >first : g3g4
20304 >first : black
20304 >first : go
20407 <first : # queue 'black', searching=0
20407 <first : # queue 'go', searching=0
20407 <first : # command e
20407 <first : # command go
20407 <first : # fen {START} moves g3g4
20407 <first : # engine said: bestmove b7f7
21509 >first : usermove 21509 >first : c0e2
21605 <first : # command e
21605 <first : # fen {START} moves g3g4 b7f7 c0e2
"""

# the ROM engine over UCCI: uci2wb executed g3g4 twice, and sent a FEN without the pawn
DOUBLED = """19036 >first : usermove 19036 >first : g3g4
19036 >first : black
19036 >first : go
19112 <first : # queue 'black', searching=0
19112 <first : # command e
19112 <first : # queue 'go', searching=0
19112 <first : # command e
19112 <first : # command go
19112 <first : # position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P3P/1C5C1/9/RNBAKABNR w - - 0 1 moves
"""

# a loaded opening: eight usermoves, and uci2wb's list holds the first one eight times
REPEATED = f"""473 >first : usermove 473 >first : h2e2
473 >first : usermove 473 >first : h9g7
743 <first : # command e
743 <first : # command e
1149 <first : # fen {START} moves h2e2 h2e2
1150 <first : # engine said: info string error: position: move 2 'h2e2' (ranks 0-9): h2e2: there is no piece on h2
1150 <first : # engine said: bestmove (none)
1150 <first : 1/2-1/2 {{stalemate}}
"""


def test_a_clean_match_has_no_doubled_move():
    assert doubled_usermove(CLEAN) is None
    assert engine_trouble(CLEAN) == "(no engine errors in the debug log)"


def test_a_move_executed_twice_is_found():
    assert doubled_usermove(DOUBLED) == "g3g4"


def test_a_move_repeated_in_the_list_is_found():
    assert doubled_usermove(REPEATED) == "h2e2"


def test_the_failure_message_names_the_position_of_a_no_move_answer():
    notes = engine_trouble(REPEATED).splitlines()
    assert notes[0].startswith("# engine said: info string error: position: move 2 'h2e2'")
    assert notes[1] == f"# fen {START} moves h2e2 h2e2 / # engine said: bestmove (none)"


def test_a_new_engine_process_starts_the_count_again():
    """A game ends with a move XBoard sent and uci2wb never executed (XBoard
    quits the engine): the next process's count starts from zero, so its
    doubled move is still found."""
    ended = CLEAN + "40000 >first : usermove 40000 >first : d8d9\n40001 >first : quit\n"
    restart = "StartChildProcess (dir=\".\") uci2wb debug -c 'python -m reference_py uci' .\n"
    assert doubled_usermove(ended + restart + DOUBLED) == "g3g4"
    assert doubled_usermove(ended + restart + CLEAN) is None
