"""Random controller input from power-on: the game must never break.

100,000 frames (about 28 minutes of play, ~4 minutes under cynes) of seeded,
deterministic random input, as 4 runs of 25,000 frames, each from power-on
with its own seed (FUZZ_SEED, FUZZ_SEED + 1, ...), one test each so that
`pytest -n` spreads them over its processes; the first run is the first
25,000 frames of FUZZ_SEED's single run.  The random input itself resets the
console about every 2,000 frames (the Reset, attract and SET UP steps: 11 to
14 times in each run of 25,000), so the split cuts no longer stretch of play
than the input already does.  The input goes across every screen: D-pad taps
and holds, A, B, Start, Select, chords of any buttons, idle spells long enough
for the attract mode (after a Reset), the Reset button, menu sequences (Start,
A, A) that lead into a game, a Reset and the title's last item (SET UP: the
position editor, whose random edits and PLAY then follow), and legal moves
played with the cursor so games actually progress.

Checked every CHECK_EVERY frames (and after every step, for crashes):
  * the CPU never crashes (cynes' has_crashed; the harness raises);
  * whenever the engine's board has been loaded and the computer is not
    thinking (the search makes and unmakes moves on it), `board` is a legal
    position: the sentinels intact, each slot on one square, one king a side,
    each piece on a square its kind can stand on, the side that just moved
    not in check (reference_py's own FEN checks, via Console.position()); in the
    position editor, where a king may be missing or a side in check until PLAY
    refuses it, only the board's encoding (Console.board_pieces());
  * ui_screen is a known screen and the cursor is on the board.
At the end of each run the console still answers: Reset, the title screen, Start.

A failure names the run's seed and the frame; FUZZ_SEED=n FUZZ_RUNS=1
FUZZ_FRAMES=n rerun it (FUZZ_FRAMES=1000000 for a long soak, in FUZZ_RUNS runs).
"""
from __future__ import annotations

import os
import random
from collections import Counter, deque

import pytest

pytest.importorskip("cynes")

from tools.nes.console import (  # noqa: E402
    A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, BoardStateError, Console, WaitTimeout, buttons_text,
)
from reference_py.board import move_iccs  # noqa: E402

FRAMES = int(os.environ.get("FUZZ_FRAMES", "100000"))   # in all, over the runs
SEED = int(os.environ.get("FUZZ_SEED", "20240611"))      # the first run's; run i has SEED + i
RUNS = int(os.environ.get("FUZZ_RUNS", "4"))
CHECK_EVERY = 30
DPAD = (UP, DOWN, LEFT, RIGHT)


class Fuzzer:
    def __init__(self, con: Console, seed: int) -> None:
        self.con, self.seed, self.rng = con, seed, random.Random(seed)
        self.stats: Counter[str] = Counter()
        self.screens: Counter[str] = Counter()
        self.history: deque[str] = deque(maxlen=25)
        self.last_check = 0
        self.max_ply = 0
        self.has_ui = con.has("ui_screen")

    # ---- checks ---------------------------------------------------------------
    def check(self) -> None:
        con = self.con
        self.last_check = con.frames
        self.stats["checks"] += 1
        s = con.screen_id()
        if s is not None:
            assert s in con.screen_names, f"ui_screen = {s} at frame {con.frames}"
            self.screens[con.screen_names[s]] += 1
        f, r = con.cursor()
        assert f <= 8 and r <= 9, f"cursor off the board ({f}, {r}) at {con.where()}"
        if con.has("game_ply"):
            self.max_ply = max(self.max_ply, con.word("game_ply"))
        if con.busy() or not con.board_loaded():
            return
        if s is not None and con.screen_names.get(s, "").startswith("setup"):
            con.board_pieces()                 # the editor's position may be illegal: its encoding only
            self.stats["editor positions checked"] += 1
            return
        try:
            con.position()
        except BoardStateError as first:
            con.wait_frames(2)                 # caught mid-update? look again
            if con.busy():
                return
            try:
                con.position()
            except BoardStateError:
                raise AssertionError(f"{first}\nseed {self.seed}; last inputs: {list(self.history)}") from None
        self.stats["positions checked"] += 1

    def run(self, frames: int) -> None:
        """Idle for `frames` frames, checking on the way."""
        while frames > 0:
            n = min(frames, CHECK_EVERY)
            self.con.wait_frames(n)
            frames -= n
            self.check()

    # ---- actions ----------------------------------------------------------------
    def tap(self, buttons: int) -> None:
        self.history.append(f"{self.con.frames}:{buttons_text(buttons)}")
        self.con.press(buttons, frames=self.rng.randint(1, 4), release=self.rng.randint(1, 8))

    def hold(self, buttons: int, frames: int) -> None:
        self.history.append(f"{self.con.frames}:hold {buttons_text(buttons)} {frames}")
        self.con.hold(buttons, frames)

    def play_legal_move(self) -> None:
        con = self.con
        if not self.has_ui or con.screen_id() != con.const("UI_SCREEN_PLAY") or con.busy() or not con.board_loaded():
            return
        try:
            moves = con.position().legal_moves()
        except BoardStateError:
            self.check()                       # retries once, then fails with the history
            return
        if not moves:
            return
        text = move_iccs(self.rng.choice(moves))
        self.history.append(f"{con.frames}:move {text}")
        try:
            con.play_move(text, wait=True, max_frames=90)
            self.stats["moves played"] += 1
        except WaitTimeout:                    # not our turn, a menu open, ...
            self.stats["moves refused"] += 1

    def step(self) -> None:
        rng = self.rng
        kind = rng.choices(
            ["dpad", "dpad-hold", "A", "B", "Start", "Select", "chord", "idle", "attract",
             "reset", "menu", "setup", "move"],
            weights=[35, 4, 18, 6, 5, 3, 6, 8, 0.4, 0.1, 3, 1, 10])[0]
        self.stats[kind] += 1
        if kind == "dpad":
            self.tap(rng.choice(DPAD))
        elif kind == "dpad-hold":
            self.hold(rng.choice(DPAD), rng.randint(10, 60))
        elif kind in ("A", "B", "Start", "Select"):
            self.tap({"A": A, "B": B, "Start": START, "Select": SELECT}[kind])
        elif kind == "chord":
            self.hold(rng.randint(1, 255), rng.randint(1, 8))
        elif kind == "idle":
            self.run(rng.randint(10, 200))
        elif kind == "attract":                # Reset, then idle on the title screen
            self.history.append(f"{self.con.frames}:Reset, idle for the attract mode")
            self.con.reset()
            self.run(rng.randint(1300, 1600))
        elif kind == "reset":
            self.history.append(f"{self.con.frames}:Reset")
            self.con.reset()
        elif kind == "menu":
            for button in (START, A, A):
                self.tap(button)
                self.run(rng.randint(5, 40))
        elif kind == "setup":                  # Reset, then the title's last item: the position editor
            self.history.append(f"{self.con.frames}:Reset, SET UP")
            self.con.reset()
            self.run(30)
            for button in (DOWN,) * 6 + (A,):
                self.tap(button)
            self.run(rng.randint(5, 40))
        else:
            self.play_legal_move()
        if self.con.frames - self.last_check >= CHECK_EVERY:
            self.check()


def run_frames(run: int) -> int:
    """Run `run`'s share of FRAMES (the first runs take the remainder)."""
    return FRAMES // RUNS + (run < FRAMES % RUNS)


@pytest.mark.slow
@pytest.mark.parametrize("run", range(RUNS), ids=[f"seed{SEED + i}" for i in range(RUNS)])
def test_random_input_never_breaks_the_game(rom_path, run):
    con = Console(rom_path)
    fuzz = Fuzzer(con, SEED + run)
    frames = run_frames(run)
    while con.frames < frames:
        fuzz.step()
    print(f"\nfuzz: seed {fuzz.seed}, {con.frames} frames, max ply {fuzz.max_ply}, "
          f"screens (checks) {dict(fuzz.screens)}, {dict(fuzz.stats)}")

    if fuzz.has_ui:
        assert fuzz.screens["play"] > 0, "the random input never reached the board screen"
        if "setup" in con.screen_names.values():
            assert fuzz.screens["setup"] > 0, "the random input never reached the position editor"
        if con.has("game_ply"):
            assert fuzz.stats["moves played"] > 0 or fuzz.max_ply > 0, "no move was ever played"

    # The console still answers: Reset, the title, then Start does something.
    con.reset()
    if fuzz.has_ui:
        con.wait_screen(con.const("UI_SCREEN_TITLE"), 300)
        con.wait_frames(60)
        before = (con.screen_id(), con.byte("ui_menu") if con.has("ui_menu") else None,
                  con.byte("ui_sel") if con.has("ui_sel") else None)
        con.press(START)
        con.wait_until(lambda c: (c.screen_id(), c.byte("ui_menu") if c.has("ui_menu") else None,
                                  c.byte("ui_sel") if c.has("ui_sel") else None) != before,
                       120, "Start answered on the title screen")
    else:
        con.wait_frames(60)
        f, r = con.cursor()
        con.press(RIGHT if f < 8 else LEFT)
        assert con.cursor() != (f, r), "the cursor no longer answers the D-pad after Reset"
