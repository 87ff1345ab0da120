"""The terminal game (reference_py/terminal.py, `python -m reference_py play`) driven through scripted input."""
from __future__ import annotations

import io
import re

import reference_py.terminal as terminal
from reference_py.board import BLACK, RED
from reference_py.fen import START_FEN
from reference_py.rules import Game
from reference_py.search import levels


def session(lines: list[str], side: int = RED, level: str | None = None) -> tuple[int, str]:
    out = io.StringIO()
    rc = terminal.play(level or levels()[0].name, side, io.StringIO("".join(l + "\n" for l in lines)), out)
    return rc, out.getvalue()


def test_human_move_computer_reply_and_errors():
    rc, text = session(["h2e2", "zz", "h2e2", "quit"])
    assert rc == 0
    assert "\033[" not in text                              # no colours when not a terminal
    replies = re.findall(r"Computer plays (\S+) \(([a-i]\d[a-i]\d)\)", text)
    assert len(replies) == 1
    assert "'zz' is not a move" in text
    assert "h2e2: there is no piece on h2" in text           # the cannon has moved


def test_human_plays_black():
    rc, text = session(["quit"], side=BLACK)
    assert rc == 0
    assert text.count("Computer plays") == 1
    assert "Black to move >" in text


def test_undo_hint_new_help_and_eof():
    rc, text = session(["undo", "b0c2", "hint", "undo", "new", "help"])
    assert rc == 0
    assert "Nothing to take back." in text
    assert re.search(r"Hint: \S+ \([a-i]\d[a-i]\d\)", text)
    assert "Commands: undo, hint, new, help, quit" in text
    assert text.rstrip().endswith("Bye.")


def test_hint_with_a_single_level(monkeypatch):
    one = (levels()[0],)
    monkeypatch.setattr(terminal, "levels", lambda: one)
    rc, text = session(["hint", "quit"])
    assert rc == 0
    assert "Hint: " in text


def test_render_marks_last_move():
    g = Game(START_FEN)
    move = g.play_text("h2e2")
    board = terminal.render(g, color=False, last=move)
    lines = board.splitlines()
    assert lines[0].split() == list("abcdefghi")
    rank2 = next(l for l in lines if l.startswith(" 2 "))
    assert "＊" in rank2                                     # h2 is now empty and marked
    assert rank2.split()[1:] == ["．", "炮", "．", "．", "炮", "．", "．", "＊", "．"]


def test_games_are_saved_as_pgn(tmp_path):
    """A game left with `new` and one left with `quit` both reach the PGN
    file, unfinished, with the human and the engine's level."""
    from reference_py.pgn import read_games
    path = tmp_path / "terminal.pgn"
    out = io.StringIO()
    script = "".join(l + "\n" for l in ["h2e2", "new", "b2e2", "h0g2", "quit"])
    assert terminal.play(levels()[0].name, RED, io.StringIO(script), out, pgn=path) == 0
    games = read_games(path.read_text())
    assert [len(g.moves) for g in games] == [2, 4]
    assert all(g.result == "*" and g.tags["Red"] == "Human" for g in games)
    assert games[0].tags["BlackLevel"] == levels()[0].name
    assert [m & 0xFFFF for m in games[1].moves[:1]] == [Game(START_FEN).play_text("b2e2")]
