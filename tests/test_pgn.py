"""PGN (reference_py/pgn.py): the project reads back what it writes, in
ICCS and WXF, from the start or from a FEN; Fairy-Stockfish (pyffish)
accepts every move of it; bad input names the line and the move.  XBoard
loading our PGN: emu_tests/test_protocol_xboard.py."""
from __future__ import annotations

import random

import pyffish
import pytest

from reference_py.board import move_iccs
from reference_py.fen import START_FEN, format_fen
from reference_py.notation import iccs_to_uci
from reference_py.pgn import PgnError, append_game, format_game, read_games, result_of
from reference_py.rules import Game
from reference_py.search import Searcher, levels

MIDGAME = "r1baka1n1/9/2c1b2c1/p2rp1p1p/9/1CB6/PCP1P1P1P/9/2R6/1N1AKA1NR b - - 0 12"


def engine_game(fen: str, plies: int, seed: int) -> Game:
    """A game the project plays: the two weakest levels against each other."""
    game = Game(fen)
    lv = levels()
    for ply in range(plies):
        if game.outcome():
            break
        res = Searcher(game.pos.copy(), lv[ply % 2], seed=seed + ply).run()
        game.play(res.move)
    return game


def random_game(fen: str, plies: int, rng: random.Random) -> Game:
    game = Game(fen)
    for _ in range(plies):
        moves = game.pos.legal_moves()
        if not moves or game.outcome():
            break
        game.play(rng.choice(moves))
    return game


def ffish_fen(fen: str) -> str:
    f = fen.split()
    return " ".join([f[0], "w" if f[1] in ("w", "r") else "b", "-", "-", f[4] if len(f) > 4 else "0",
                     f[5] if len(f) > 5 else "1"])


@pytest.mark.parametrize("fmt", ["ICCS", "WXF"])
@pytest.mark.parametrize("fen", [START_FEN, MIDGAME], ids=["start", "fen-black-to-move"])
def test_round_trip(fmt, fen):
    games = [engine_game(fen, 40, 3)] + [random_game(fen, 60, random.Random(s)) for s in range(4)]
    text = ""
    for i, g in enumerate(games):
        result, how = result_of(g.outcome())
        text += format_game(fen, g.moves, red="Red player", black='Black "B"', red_level="Novice",
                            black_level="Easy", result=result, termination=how, round_=str(i + 1), fmt=fmt)
    back = read_games(text)
    assert len(back) == len(games)
    for g, b in zip(games, back):
        assert b.moves == g.moves
        assert b.start_fen == fen
        assert b.tags["Black"] == 'Black "B"' and b.tags["RedLevel"] == "Novice"
        assert b.tags["Game"] == "Chinese Chess" and b.tags["Variant"] == "xiangqi" and b.tags["Format"] == fmt
        assert ("FEN" in b.tags) == (fen != START_FEN)
        assert b.result == result_of(g.outcome())[0]
        assert format_fen(b.replay().pos) == format_fen(g.pos)


def test_every_move_is_legal_for_fairy_stockfish():
    """pyffish, an implementation of the rules this project did not write,
    accepts every move of our PGN games, in order."""
    checked = 0
    for fen in (START_FEN, MIDGAME):
        text = "".join(format_game(fen, random_game(fen, 80, random.Random(s)).moves) for s in range(6))
        for game in read_games(text):
            start = ffish_fen(game.start_fen)
            played: list[str] = []
            for m in game.moves:
                uci = iccs_to_uci(move_iccs(m))
                assert uci in pyffish.legal_moves("xiangqi", start, played), (start, played, uci)
                played.append(uci)
                checked += 1
    assert checked > 500


def test_the_end_of_a_game_is_in_its_tags():
    game = Game(START_FEN)
    for t in ["h2e2", "b9c7", "e2e6"]:
        game.play_text(t)
    text = format_game(START_FEN, game.moves, result="1-0", termination="resignation")
    back = read_games(text)[0]
    assert back.tags["Termination"] == "resignation" and back.result == "1-0"
    assert text.rstrip().endswith("{resignation} 1-0")


def test_reads_other_tools_forms():
    text = """[Event "x"]
[Result "*"]
[Format "ICCS"]

1. H2-E2 H9-G7 {a comment} 2. h0-g2 (2. b0c2 b9c7) i9h9 $1 ; to the end of the line
3.i0h0 *
"""
    game = read_games(text)[0]
    assert [move_iccs(m) for m in game.moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]


@pytest.mark.parametrize("text, says", [
    ('[Event "x"]\n\n1. h2e2 h2e2 *\n', "<pgn>:3: ply 2 'h2e2'"),
    ('[Event "x"]\n\n1. h2e3 *\n', "cannot move"),
    ('[Event "x"]\n[FEN "9/9 w"]\n\n1. h2e2 *\n', "bad FEN tag"),
    ('[Event "x\n\n1. h2e2 *\n', "<pgn>:1: not a tag pair"),
    ('[Event "x"]\n\n1. h2e2 {open *\n', "not closed"),
    ('[Result "1-0"]\n\n1. h2e2 0-1\n', "Result tag says 1-0"),
])
def test_bad_pgn_names_line_and_move(text, says):
    with pytest.raises(PgnError) as err:
        read_games(text)
    assert says in str(err.value)


def test_append_game(tmp_path):
    path = tmp_path / "games" / "all.pgn"
    g1, g2 = engine_game(START_FEN, 6, 1), engine_game(START_FEN, 8, 2)
    append_game(path, format_game(START_FEN, g1.moves))
    append_game(path, format_game(START_FEN, g2.moves))
    assert [g.moves for g in read_games(path.read_text())] == [g1.moves, g2.moves]
    assert [p.name for p in path.parent.iterdir()] == ["all.pgn"]       # no temporary file left


def test_match_writes_every_game(tmp_path):
    """bench.match adds each game it plays to the PGN file, with its result."""
    from bench.match import match
    path = tmp_path / "match.pgn"
    m = match(levels()[1].name, levels()[0].name, 2, 1, 1, pgn=str(path))
    games = read_games(path.read_text())
    assert len(games) == 2
    for g, r in zip(games, m["results"]):
        assert len(g.moves) == r["plies"]
        assert g.result == {"red": "1-0", "black": "0-1", None: "1/2-1/2"}[r["winner"]]
        assert g.tags["Termination"] == r["reason"] and g.tags["RedLevel"] == r["red"]
