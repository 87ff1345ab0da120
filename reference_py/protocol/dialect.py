"""What differs between UCI and UCCI, and nothing else.

UCI as Pikafish and Fairy-Stockfish speak it: `uci`/`uciok`, `setoption
name N value V`, `go wtime/btime/winc/binc/movestogo/movetime` in
milliseconds, `score cp`/`score mate`, `bestmove (none)` with nothing to
play.  UCCI as ElephantEye speaks it: `ucci`/`ucciok`, `setoption N V`,
`go time/increment/movestogo` for the side to move (seconds, or
milliseconds once the client sets `usemillisec`), a bare `score`,
`nobestmove`, `bye` after `quit`, and `banmoves` and `probe`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..search import MATE, MATE_BOUND
from .limits import Limits

AUTHOR = "the NES Xiangqi project"


class ProtocolError(ValueError):
    """A command the session cannot act on; said back as `info string error: ...`."""


@dataclass
class Option:
    """An engine option: `kind` is combo, spin, check or button."""
    name: str
    kind: str
    default: str = ""
    choices: list[str] = field(default_factory=list)
    lo: int = 0
    hi: int = 0

    def check(self, value: str) -> str:
        """The value as the session stores it, or ProtocolError."""
        if self.kind == "combo":
            for c in self.choices:
                if c.lower() == value.lower():
                    return c
            raise ProtocolError(f"option {self.name}: '{value}' is not one of {', '.join(self.choices)}")
        if self.kind == "spin":
            try:
                n = int(value)
            except ValueError:
                raise ProtocolError(f"option {self.name}: '{value}' is not a number") from None
            if not self.lo <= n <= self.hi:
                raise ProtocolError(f"option {self.name}: {n} is outside {self.lo}-{self.hi}")
            return str(n)
        if self.kind == "check":
            if value.lower() not in ("true", "false"):
                raise ProtocolError(f"option {self.name}: '{value}' is not true or false")
            return value.lower()
        return value


GO_WORDS = frozenset(("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate",
                      "infinite", "ponder", "searchmoves", "draw", "time", "increment", "opptime",
                      "oppincrement", "oppmovestogo"))
CLOCKS = ("wtime", "btime", "winc", "binc", "movetime", "time", "increment",
          "opptime", "oppincrement")


def _number(tokens: list[str], i: int, problems: list[str]) -> tuple[int | None, int]:
    """The number after the word tokens[i], and the index after both.

    A `go` is always answered, so a bad number is a problem to report, not a
    reason to drop the command: a missing or malformed number is None (the
    word is skipped alone when the next token is another word of `go`),
    and a malformed or negative clock (a GUI reports an overrun clock so) is a
    clock that has run out, 0.  Other negative numbers are None."""
    word = tokens[i]
    if i + 1 >= len(tokens):
        problems.append(f"go: '{word}' needs a number")
        return (0 if word.lower() in CLOCKS else None), i + 1
    try:
        n = int(tokens[i + 1])
    except ValueError:
        problems.append(f"go: '{word}' needs a number, got '{tokens[i + 1]}'")
        known = tokens[i + 1].lower() in GO_WORDS
        return (0 if word.lower() in CLOCKS else None), (i + 1 if known else i + 2)
    if n < 0:
        if word.lower() in CLOCKS:
            return 0, i + 2
        problems.append(f"go: '{word}' must not be negative, got {n}")
        return None, i + 2
    return n, i + 2


class Dialect:
    """The shared shape; subclasses fill in the words."""

    name = ""
    ok = ""
    quit_reply: str | None = None

    def option_line(self, opt: Option) -> str:
        raise NotImplementedError

    def handshake(self, engine: str, options: list[Option]) -> list[str]:
        return ([f"id name {engine}", f"id author {AUTHOR}"]
                + [self.option_line(o) for o in options] + [self.ok])

    def parse_setoption(self, tokens: list[str]) -> tuple[str, str]:
        raise NotImplementedError

    def parse_go(self, tokens: list[str], red_to_move: bool, millis: bool) -> tuple[Limits, list[str]]:
        """The limits of a `go`, and the problems found in it (said as errors;
        the `go` is still searched with the limits that could be read)."""
        raise NotImplementedError

    def score(self, score: int) -> str:
        raise NotImplementedError

    def bestmove(self, move: str | None) -> str:
        raise NotImplementedError

    def info(self, depth: int, score: int, nodes: int, ms: int, pv: list[str]) -> str:
        nps = nodes * 1000 // ms if ms > 0 else 0
        line = f"info depth {depth} score {self.score(score)} nodes {nodes} time {ms} nps {nps}"
        return line + (f" pv {' '.join(pv)}" if pv else "")


def _option_tail(opt: Option) -> str:
    if opt.kind == "combo":
        return f"type combo default {opt.default}" + "".join(f" var {c}" for c in opt.choices)
    if opt.kind == "spin":
        return f"type spin default {opt.default} min {opt.lo} max {opt.hi}"
    if opt.kind == "check":
        return f"type check default {opt.default}"
    return "type button"


class Uci(Dialect):
    name = "uci"
    ok = "uciok"

    def option_line(self, opt: Option) -> str:
        return f"option name {opt.name} {_option_tail(opt)}"

    def parse_setoption(self, tokens: list[str]) -> tuple[str, str]:
        # setoption name <words> [value <words>]
        if len(tokens) < 3 or tokens[1].lower() != "name":
            raise ProtocolError("setoption: expected 'setoption name <name> [value <value>]'")
        rest = tokens[2:]
        low = [t.lower() for t in rest]
        if "value" in low:
            k = low.index("value")
            return " ".join(rest[:k]), " ".join(rest[k + 1:])
        return " ".join(rest), ""

    def parse_go(self, tokens: list[str], red_to_move: bool, millis: bool = True) -> tuple[Limits, list[str]]:
        lim = Limits()
        problems: list[str] = []
        clock: dict[str, int] = {}
        i = 1
        while i < len(tokens):
            t = tokens[i].lower()
            if t in ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate"):
                n, i = _number(tokens, i, problems)
                if n is not None:
                    clock[t] = n
            elif t == "infinite":
                lim.infinite = True
                i += 1
            elif t == "ponder":
                lim.ponder = True
                i += 1
            elif t == "searchmoves":
                i += 1
                while i < len(tokens) and tokens[i][0].isalpha() and tokens[i][1:2].isdigit():
                    lim.searchmoves.append(tokens[i])
                    i += 1
            else:
                problems.append(f"go: unknown word '{tokens[i]}'")
                i += 1
        lim.depth = clock.get("depth")
        lim.nodes = clock.get("nodes")
        if "movetime" in clock:
            lim.movetime = clock["movetime"] / 1000
        mine, inc = ("wtime", "winc") if red_to_move else ("btime", "binc")
        if mine in clock:
            lim.my_time = clock[mine] / 1000
            lim.my_inc = clock.get(inc, 0) / 1000
        lim.movestogo = clock.get("movestogo")
        return lim, problems

    def score(self, score: int) -> str:
        if abs(score) > MATE_BOUND:
            plies = MATE - abs(score)
            moves = (plies + 1) // 2
            return f"mate {moves if score > 0 else -moves}"
        return f"cp {score}"

    def bestmove(self, move: str | None) -> str:
        return f"bestmove {move}" if move else "bestmove (none)"


class Ucci(Dialect):
    name = "ucci"
    ok = "ucciok"
    quit_reply = "bye"

    def option_line(self, opt: Option) -> str:
        return f"option {opt.name} {_option_tail(opt)}"

    def parse_setoption(self, tokens: list[str]) -> tuple[str, str]:
        # setoption <name> [<value>]
        if len(tokens) < 2:
            raise ProtocolError("setoption: expected 'setoption <name> [<value>]'")
        return tokens[1], " ".join(tokens[2:])

    def parse_go(self, tokens: list[str], red_to_move: bool, millis: bool = False) -> tuple[Limits, list[str]]:
        lim = Limits()
        problems: list[str] = []
        unit = 1000 if millis else 1
        i = 1
        while i < len(tokens):
            t = tokens[i].lower()
            if t in ("ponder", "draw"):
                lim.ponder = lim.ponder or t == "ponder"
                i += 1
            elif t == "infinite":
                lim.infinite = True
                i += 1
            elif t == "depth" and i + 1 < len(tokens) and tokens[i + 1].lower() == "infinite":
                lim.infinite = True
                i += 2
            elif t in ("depth", "nodes", "time", "increment", "movestogo",
                       "opptime", "oppincrement", "oppmovestogo"):
                n, i = _number(tokens, i, problems)
                if n is None:
                    continue
                if t == "depth":
                    lim.depth = n
                elif t == "nodes":
                    lim.nodes = n
                elif t == "time":
                    lim.my_time = n / unit
                elif t == "increment":
                    lim.my_inc = n / unit
                elif t == "movestogo":
                    lim.movestogo = n
            else:
                problems.append(f"go: unknown word '{tokens[i]}'")
                i += 1
        return lim, problems

    def score(self, score: int) -> str:
        return str(score)

    def bestmove(self, move: str | None) -> str:
        return f"bestmove {move}" if move else "nobestmove"


DIALECTS: dict[str, type[Dialect]] = {"uci": Uci, "ucci": Ucci}
