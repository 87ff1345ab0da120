"""The command loop of an engine adapter: one client, one back-end.

The main thread reads commands; a `go` runs the back-end's search in a
worker thread, so `stop`, `isready` and `quit` are answered while it
thinks: `stop` makes the search end as its node cap does (docs/ENGINE.md
"Nodes") and waits for that `bestmove`, which comes within the back-end's stop latency
(64 nodes of the reference, one py65 chunk of the ROM).  Commands come in
any order: a `go` during a search first ends the old one (its `bestmove`
first), `position` and `setoption` during a search apply to the next.  Every
`go` gets exactly one `bestmove`, in order: a search's answer is written
before the session reads past the command that ended it (`stop`,
`ucinewgame`, the next `go`, `quit`), so no answer can arrive after a later
`go`.  Bad input (an unknown command, a malformed FEN, an illegal
move, a bad option or `go` argument) is answered with `info string error:
...` and leaves the session running; a `go` with a bad argument is still
searched with what it says (a malformed or negative clock is a clock that
has run out), and a `go` after a bad `position` answers no move rather
than guess one.
Everything the session does not write itself goes to stderr, so stray
output can never corrupt the protocol.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from ..board import RED, move_iccs
from ..fen import START_FEN, FenError, format_fen
from ..notation import NotationError, parse_iccs
from ..rules import Game
from ..search import MATE, levels
from .backend import Answer, Backend, Report, Request
from .coords import Coordinates
from .dialect import DIALECTS, Dialect, Option, ProtocolError, Ucci, Uci
from .limits import Limits

VERBS = ("uci", "ucci", "isready", "ucinewgame", "setoption", "position", "fen", "startpos", "banmoves",
         "go", "stop", "ponderhit", "probe", "quit", "debug", "register")


def default_level() -> str:
    """The third level (or the strongest, if there are fewer): the one `make
    play-terminal` starts with."""
    names = [lv.name for lv in levels()]
    return names[min(2, len(names) - 1)]


class Job:
    """One running search: its stop flag, its deadline and its `bestmove` hold
    (an infinite or ponder search keeps its answer until `stop` or `ponderhit`)."""

    def __init__(self, limits: Limits, budget: float | None) -> None:
        self.stop = threading.Event()
        self.release = threading.Event()
        self.started = time.monotonic()
        self.budget = budget
        self.deadline = None if budget is None or limits.ponder else self.started + budget
        if not (limits.infinite or limits.ponder):
            self.release.set()
        self.thread: threading.Thread | None = None

    def should_stop(self) -> bool:
        return self.stop.is_set() or (self.deadline is not None and time.monotonic() >= self.deadline)

    def ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)

    def ponderhit(self) -> None:
        if self.budget is not None:
            self.deadline = time.monotonic() + self.budget
        self.release.set()


class Session:
    """The protocol state of one client: position, options, the running search."""

    def __init__(self, backend: Backend, dialect: Dialect, out: TextIO) -> None:
        self.backend = backend
        self.dialect = dialect
        self.out = out
        self.lock = threading.Lock()
        self.coords = Coordinates()
        names = [lv.name for lv in levels()]
        self.options = {o.name.lower(): o for o in (
            Option("Level", "combo", default_level(), names),
            Option("Seed", "spin", "0", lo=0, hi=0xFFFF),
            Option("Book", "check", "true"),          # UCI's name
            Option("usebook", "check", "true"),       # UCCI's (ElephantEye's) name
            Option("Ranks", "combo", "auto", ["auto", "0-9", "1-10"]),
            Option("UCI_Variant", "combo", "xiangqi", ["xiangqi"]),
            Option("usemillisec", "check", "false"),
            Option("newgame", "button"),
        )}
        self.values = {k: o.default for k, o in self.options.items()}
        self.game: Game | None = Game(START_FEN)
        self.bad_position = ""
        self.banned: set[str] = set()
        self.hash: dict[str, Answer] = {}      # probe: the answers of this session's searches
        self.job: Job | None = None

    # ---- output ---------------------------------------------------------
    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def say(self, text: str) -> None:
        self.send(f"info string {text}")

    def error(self, text: str) -> None:
        self.say(f"error: {text}")

    # ---- the loop ---------------------------------------------------------
    def run(self, stream: TextIO) -> int:
        try:
            while True:
                line = stream.readline()
                if not line:
                    break                   # end of input: as `quit`
                if not self.handle(line):
                    return 0
        except BrokenPipeError:
            pass
        finally:
            self.end_search()
        return 0

    def handle(self, line: str) -> bool:
        """One command; False after `quit`."""
        tokens = line.split()
        skipped = []
        while tokens and tokens[0].lower() not in VERBS:
            skipped.append(tokens.pop(0))    # UCI: skip unknown words, read the rest
        if not tokens:
            if skipped:
                self.error(f"unknown command '{' '.join(skipped)}'")
            return True
        verb = tokens[0].lower()
        try:
            return self.dispatch(verb, tokens)
        except ProtocolError as exc:
            self.error(str(exc))
        return True

    def dispatch(self, verb: str, tokens: list[str]) -> bool:
        if verb in ("uci", "ucci"):
            self.dialect = DIALECTS[verb]()
            for line in self.dialect.handshake(self.backend.name, self.declared()):
                self.send(line)
        elif verb == "isready":
            self.prepare()
            self.send("readyok")
        elif verb == "ucinewgame":
            self.new_game()
        elif verb == "setoption":
            self.set_option(*self.dialect.parse_setoption(tokens))
        elif verb in ("position", "fen", "startpos"):
            if verb != "position":
                self.coords.prefer(0)      # uci2wb's xiangqi dialect: XBoard's ranks 0-9
            self.set_position(tokens[1:] if verb == "position" else tokens)
        elif verb == "banmoves":
            self.ban(tokens[1:])
        elif verb == "go":
            self.go(tokens)
        elif verb == "stop":
            self.end_search()
        elif verb == "ponderhit":
            if self.job is not None:
                self.job.ponderhit()
        elif verb == "probe":
            self.probe(tokens[1:])
        elif verb == "quit":
            self.end_search()
            if self.dialect.quit_reply:
                self.send(self.dialect.quit_reply)
            return False
        # debug, register: accepted, nothing to do
        return True

    # ---- options and positions ----------------------------------------------
    def declared(self) -> list[Option]:
        """The options this dialect's clients see."""
        if isinstance(self.dialect, Ucci):
            keep = ("level", "seed", "usebook", "usemillisec", "newgame")
        else:
            keep = ("level", "seed", "book", "ranks", "uci_variant")
        return [self.options[k] for k in keep]

    def set_option(self, name: str, value: str) -> None:
        key = name.lower()
        opt = self.options.get(key)
        if opt is None or opt not in self.declared():
            raise ProtocolError(f"no option '{name}' (options: {', '.join(o.name for o in self.declared())})")
        if opt.kind == "button":
            self.new_game()
            return
        self.values[key] = opt.check(value)
        if key == "ranks":
            self.coords.set(self.values[key])
        elif key == "uci_variant":
            self.coords.prefer(1)          # Fairy-Stockfish's clients number the ranks 1-10

    def new_game(self) -> None:
        self.end_search()
        self.game, self.bad_position = Game(START_FEN), ""
        self.banned.clear()
        self.hash.clear()

    def parse_position(self, args: list[str], verb: str = "position") -> Game:
        """`startpos|fen <FEN> [moves m1 m2 ...]` to a game with its history."""
        if not args or args[0].lower() not in ("startpos", "fen"):
            raise ProtocolError(f"{verb}: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
        low = [a.lower() for a in args]
        k = low.index("moves") if "moves" in low else len(args)
        head, moves = args[:k], args[k + 1:]
        if low[0] == "startpos":
            if len(head) > 1:
                raise ProtocolError(f"{verb}: unexpected '{head[1]}' after startpos")
            fen = START_FEN
        else:
            fen = " ".join(head[1:])
            if not fen:
                raise ProtocolError(f"{verb}: 'fen' needs a FEN")
        try:
            game = Game(fen)
        except FenError as exc:
            raise ProtocolError(f"{verb}: bad FEN '{fen}': {exc}") from None
        for text in moves:
            self.coords.observe(text)
        for i, text in enumerate(moves, 1):
            try:
                game.play(parse_iccs(game.pos, self.coords.to_iccs(text)))
            except NotationError as exc:
                raise ProtocolError(f"{verb}: move {i} '{text}' (ranks {self.coords.name}): {exc}") from None
        return game

    def set_position(self, args: list[str]) -> None:
        self.banned.clear()
        try:
            self.game, self.bad_position = self.parse_position(args), ""
        except ProtocolError as exc:
            self.game, self.bad_position = None, str(exc)
            raise

    def legal_texts(self, game: Game) -> dict[str, int]:
        return {move_iccs(m): m for m in game.pos.legal_moves()}

    def ban(self, texts: list[str]) -> None:
        if self.game is None:
            raise ProtocolError(f"banmoves: no valid position ({self.bad_position})")
        legal = self.legal_texts(self.game)
        banned, bad = set(), []
        for text in texts:
            self.coords.observe(text)
        for text in texts:
            try:
                iccs = self.coords.to_iccs(text)
            except NotationError as exc:
                bad.append(str(exc))
                continue
            if iccs in legal:
                banned.add(iccs)
            else:
                bad.append(f"'{text}' is not a legal move here")
        self.banned = banned
        if bad:
            raise ProtocolError("banmoves: " + "; ".join(bad))

    def probe(self, args: list[str]) -> None:
        """UCCI `probe`: what this session's searches know of a position (the
        engines keep no hash table: the answer of a search of that position,
        exact, so both bounds; else an empty `pophash`)."""
        game = self.parse_position(args, "probe") if args else self.game
        answer = self.hash.get(format_fen(game.pos)) if game is not None else None
        if answer is None or answer.move is None:
            self.send("pophash")
            return
        s = self.dialect.score(answer.score)
        self.send(f"pophash bestmove {self.coords.to_client(answer.move)} "
                  f"lowerbound {s} depth {answer.depth} upperbound {s} depth {answer.depth}")

    # ---- searching ---------------------------------------------------------
    def prepare(self) -> bool:
        try:
            self.backend.prepare()
            return True
        except Exception as exc:          # a missing ROM, a broken config: say it, stay up
            self.error(f"the engine could not start: {exc}")
            return False

    def go(self, tokens: list[str]) -> None:
        self.end_search()
        game = self.game
        red = game is None or game.pos.side == RED
        limits, problems = self.dialect.parse_go(tokens, red, self.values["usemillisec"] == "true")
        for problem in problems:          # said, and the go still answered: a bestmove for every go
            self.error(problem)
        if game is None:
            self.error(f"go: no valid position ({self.bad_position})")
            self.send(self.dialect.bestmove(None))
            return
        over = game.outcome()
        if over is not None:          # the GUI adjudicates; the engine says what the rules say
            self.say(f"game over by the rules: {over.describe()}")
        legal = self.legal_texts(game)
        exclude = set(self.banned)
        if limits.searchmoves:
            wanted = set()
            for text in limits.searchmoves:
                try:
                    wanted.add(self.coords.to_iccs(text))
                except NotationError as exc:
                    self.error(f"go searchmoves: {exc}")
            exclude |= set(legal) - wanted
        level = next(lv for lv in levels() if lv.name == self.values["level"])
        if limits.depth is not None and limits.depth > level.depth:
            self.say(f"depth {limits.depth} is deeper than level {level.name}'s {level.depth}: "
                     f"searching {level.depth}")
        request = Request(game.pos.copy(), level, int(self.values["seed"]), limits.depth, limits.nodes,
                          frozenset(exclude), book=self.values["usebook" if isinstance(self.dialect, Ucci) else "book"] == "true")
        job = Job(limits, limits.budget())
        key = format_fen(game.pos)

        def report(r: Report) -> None:
            self.send(self.dialect.info(r.depth, r.score, r.nodes, job.ms(),
                                        [self.coords.to_client(m) for m in r.pv]))
            if r.nes_cycles is not None and r.nes_seconds is not None:
                self.say(nes_time(r.nes_cycles, r.nes_seconds))

        def work() -> None:
            answer: Answer | None = None
            try:
                if self.prepare():
                    if not legal or not set(legal) - exclude:
                        answer = Answer(None, -MATE if not legal else 0, 0, 0)
                        if legal:
                            answer.notes.append("every legal move is excluded (banmoves/searchmoves)")
                    else:
                        answer = self.backend.search(request, job.should_stop, report)
            except Exception as exc:      # a fault of the engine: report it, answer no move
                self.error(f"the search failed: {type(exc).__name__}: {exc}")
            job.release.wait()
            self.answer(job, answer, key)

        job.thread = threading.Thread(target=work, name="search", daemon=True)
        self.job = job
        job.thread.start()

    def answer(self, job: Job, answer: Answer | None, key: str) -> None:
        if answer is not None:
            pv = [self.coords.to_client(m) for m in answer.pv]
            self.send(self.dialect.info(answer.depth, answer.score, answer.nodes, job.ms(), pv))
            if answer.nes_cycles is not None and answer.nes_seconds is not None:
                self.say(nes_time(answer.nes_cycles, answer.nes_seconds))
            for note in answer.notes:
                self.say(note)
            if answer.move is not None:
                self.hash[key] = answer
        move = answer.move if answer is not None else None
        self.send(self.dialect.bestmove(self.coords.to_client(move) if move else None))

    def end_search(self) -> None:
        """Stop the running search, if any, and wait for its `bestmove`."""
        job, self.job = self.job, None
        if job is None:
            return
        job.stop.set()
        job.release.set()
        if job.thread is not None:
            job.thread.join()


def nes_time(cycles: int, seconds: float) -> str:
    """The ROM's thinking time on a real NES, as an `info string`."""
    return f"NES time {seconds:.3f} s ({cycles} cycles of the 6502)"


def serve(backend: Backend, dialect: str, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a session on stdin/stdout.  While it runs, sys.stdout is stderr:
    a print anywhere else (a ROM build's report, say) cannot reach the client."""
    out = stdout if stdout is not None else sys.stdout
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        return Session(backend, DIALECTS[dialect](), out).run(stdin if stdin is not None else sys.stdin)
    except KeyboardInterrupt:
        return 130
    finally:
        sys.stdout = saved


__all__ = ["Session", "serve", "default_level", "Uci", "Ucci"]
