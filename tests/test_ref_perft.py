"""Perft of the reference engine against the published counts, and the perft CLI."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reference_py.fen import START_FEN, parse_fen
from reference_py.perft import perft, perft_divide
from reference_py.board import move_iccs

ROOT = Path(__file__).resolve().parent.parent
SUITE = Path("/work/shared/positions/perft.txt")
SMALL_DEPTH4 = 500_000


def _suite() -> list[tuple[str, list[int]]]:
    out = []
    for raw in SUITE.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fen, counts = line.split(";", 1)
        out.append((fen.strip(), [int(x) for x in counts.split()]))
    return out


SUITE_ENTRIES = _suite()


def test_suite_file_is_what_we_expect():
    # Guards against the file silently shrinking: 7 positions with 4 counts each,
    # the start position first.
    assert len(SUITE_ENTRIES) == 7
    assert all(len(c) == 4 for _, c in SUITE_ENTRIES)
    assert SUITE_ENTRIES[0][0] == START_FEN
    assert SUITE_ENTRIES[0][1] == [44, 1920, 79666, 3290240]


@pytest.mark.parametrize("fen,counts", SUITE_ENTRIES, ids=[f"pos{i}" for i in range(len(SUITE_ENTRIES))])
def test_perft_depth_1_to_3(fen, counts):
    pos = parse_fen(fen)
    assert [perft(pos, d) for d in (1, 2, 3)] == counts[:3]


def _depth4_params():
    params = []
    for i, (fen, counts) in enumerate(SUITE_ENTRIES):
        # The start position always runs (about 10 s); the other big ones are `slow`.
        marks = [] if i == 0 or counts[3] < SMALL_DEPTH4 else [pytest.mark.slow]
        params.append(pytest.param(fen, counts[3], marks=marks, id=f"pos{i}-{counts[3]}"))
    return params


@pytest.mark.parametrize("fen,count", _depth4_params())
def test_perft_depth_4(fen, count):
    assert perft(parse_fen(fen), 4) == count


def test_perft_leaves_position_unchanged():
    pos = parse_fen(SUITE_ENTRIES[5][0])
    before = (pos.board[:], pos.piece_sq[:], pos.key, pos.score, pos.clock, pos.side)
    perft(pos, 3)
    assert (pos.board, pos.piece_sq, pos.key, pos.score, pos.clock, pos.side) == before


def test_divide_sums_to_perft():
    fen = SUITE_ENTRIES[1][0]
    div = perft_divide(parse_fen(fen), 2)
    assert len(div) == 38
    assert sum(n for _, n in div) == 1128
    assert len({m for m, _ in div}) == len(div)


# ---- CLI ------------------------------------------------------------------

def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference_py", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_perft_divide():
    fen = SUITE_ENTRIES[3][0]
    r = run_cli("perft", fen, "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "total 424"
    body = [ln.split() for ln in lines[:-1]]
    assert len(body) == 25                              # one line per legal root move
    assert all(len(parts) == 2 for parts in body)
    moves = [m for m, _ in body]
    assert len(set(moves)) == 25
    assert all(len(m) == 4 and m[0] in "abcdefghi" and m[2] in "abcdefghi"
               and m[1].isdigit() and m[3].isdigit() for m in moves)
    assert sum(int(n) for _, n in body) == 424
    expected = {move_iccs(m): n for m, n in perft_divide(parse_fen(fen), 2)}
    assert {m: int(n) for m, n in body} == expected


def test_cli_perft_start_depth_1():
    r = run_cli("perft", START_FEN, "1")
    assert r.returncode == 0
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "total 44"
    assert len(lines) == 45
    assert "h2e2 1" in lines and "b0c2 1" in lines


def test_cli_perft_bad_fen_and_depth():
    r = run_cli("perft", "rnbakabnr/9/9 w", "2")
    assert r.returncode == 2
    assert r.stderr.startswith("error:") and "Traceback" not in r.stderr
    r = run_cli("perft", START_FEN, "0")
    assert r.returncode == 2
    assert "depth" in r.stderr and "Traceback" not in r.stderr


def test_cli_perft_suite_passes():
    r = run_cli("perft-suite", str(SUITE), "--max-depth", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == f"{len(SUITE_ENTRIES)} passed, 0 failed"
    per_pos = lines[:-1]
    assert len(per_pos) == len(SUITE_ENTRIES)
    for line, (fen, counts) in zip(per_pos, SUITE_ENTRIES):
        assert line.startswith("ok")
        assert fen in line
        assert f"; {counts[0]} {counts[1]}" in line


def test_cli_perft_suite_fails_on_wrong_count(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("# a comment\n"
                 f"{SUITE_ENTRIES[6][0]} ; 13 272\n"
                 f"{SUITE_ENTRIES[3][0]} ; 25 425\n", encoding="utf-8")
    r = run_cli("perft-suite", str(f), "--max-depth", "2")
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert lines[0].startswith("ok")
    assert lines[1].startswith("FAIL") and "line 3" in lines[1] and "425" in lines[1]


def test_cli_perft_suite_bad_file(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text(f"{START_FEN} 44 1920\n", encoding="utf-8")   # no ';'
    r = run_cli("perft-suite", str(f))
    assert r.returncode == 2
    assert r.stderr.startswith("error:") and ":1:" in r.stderr
    r = run_cli("perft-suite", str(tmp_path / "missing.txt"))
    assert r.returncode == 2
    assert "cannot read" in r.stderr


@pytest.mark.parametrize("content,words", [
    (f"{START_FEN} 44 1920\n", [":1:", "expected 'FEN ; n1 n2 ...'"]),
    (f"# header\n{START_FEN} ;\n", [":2:", "no counts"]),
    (f"{START_FEN} ; 44 x\n", [":1:", "must be integers"]),
    ("rnbakabnr/9/9 w ; 1\n", [":1:", "bad FEN", "ranks"]),
])
def test_cli_perft_suite_bad_lines(tmp_path, content, words):
    f = tmp_path / "suite.txt"
    f.write_text(content, encoding="utf-8")
    r = run_cli("perft-suite", str(f))
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.startswith(f"error: {f}")
    assert len(r.stderr.splitlines()) == 1
    for w in words:
        assert w in r.stderr


def test_cli_perft_suite_negative_max_depth():
    r = run_cli("perft-suite", str(SUITE), "--max-depth", "-1")
    assert r.returncode == 2
    assert "--max-depth" in r.stderr and "Traceback" not in r.stderr
