"""Load and validate config/eval.yaml, config/difficulty.yaml and config/search.yaml.

Both engines are built from these files, so a typo must stop the build with
a message that names the file, the line and the problem, never a traceback
or a half-written table.  config_file.py reads the YAML (no aliases, no tags,
bounded size and depth); here every value's shape, type and range is checked
against what both engines share.  The ROM's own limits (its RAM and banks)
are checked by the ROM build, tools/rom/gen_tables.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from .board import ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK
from .config_file import ConfigError, Node, find_line, load_yaml, show
from .endgame import CLASSES, DEFENCE_NAMES, NEAR_MAX_DISTANCE, SHIFT_MAX, EndgameTables

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"
KIND_KEYS = {"king": KING, "advisor": ADVISOR, "elephant": ELEPHANT, "horse": HORSE,
             "rook": ROOK, "cannon": CANNON, "pawn": PAWN}
SET_INT_KEYS = ("tempo", "horse_per_capture4", "cannon_per_capture4", "pawn_per_missing_attacker",
                "horse_leg_blocked", "elephant_eye_blocked", "rook_on_king_file",
                "missing_elephant_per_cannon", "missing_advisor_per_rook")
LEVEL_KEYS = ("name", "depth", "qdepth", "eval", "nodes", "noise", "killers", "history", "book", "check_ext",
              "bare", "sparse")
BARE_KEYS = ("depth", "qdepth", "nodes")
SPARSE_KEYS = ("pieces", "nodes")
SPARSE_PIECES = (2, 31)    # a `sparse` block's piece limit: two kings at least, below a full board
DEPTH_MAX = 6              # a level's depth
BARE_DEPTH_MAX = 8         # a level's `bare` depth (history_bonus has 8 entries)
BOOK_PLIES_MAX = 60        # a level follows the book at most this many plies from the start
CHECK_EXT_MAX = 8          # the check extension's reach: the main search's plies stay below it
# What the cartridge can show: its menu lists at most MAX_LEVELS levels and a
# name in LEVEL_NAME_LEN tiles of a font with upper-case letters and digits.
MAX_LEVELS = 8
LEVEL_NAME_LEN = 8
# A weight set's name becomes an assembler constant of the ROM (EVAL_SET_<NAME>).
SET_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,15}\Z")


def _load(path: Path) -> Node:
    return load_yaml(path)


def key_line(path: Path | str, *keys: str | int) -> int | None:
    """The line of the value at keys[0] -> keys[1] -> ... in a YAML file
    (config_file.find_line), or None when it has no such value."""
    return find_line(path, *keys)


def _mapping(path: Path, node: Node, what: str) -> dict[str, Node]:
    if not isinstance(node.value, dict):
        raise ConfigError(path, node.line, f"{what} must be a mapping ('key: value' lines), got {show(node.value)}")
    return node.value


def _get(path: Path, mapping: Node, key: str, what: str = "this entry") -> Node:
    if key not in _mapping(path, mapping, what):
        raise ConfigError(path, mapping.line, f"missing key '{key}'")
    return mapping.value[key]


def _int(path: Path, node: Node, what: str, lo: int, hi: int) -> int:
    v = node.value
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError(path, node.line, f"{what} must be an integer, got {show(v)}")
    if not lo <= v <= hi:
        raise ConfigError(path, node.line, f"{what} = {v} is out of range {lo}..{hi}")
    return v


def _bool(path: Path, node: Node, what: str) -> bool:
    if not isinstance(node.value, bool):
        raise ConfigError(path, node.line, f"{what} must be true or false, got {show(node.value)}")
    return node.value


def _unknown(path: Path, mapping: Node, allowed: tuple[str, ...] | set[str], what: str) -> None:
    for k in _mapping(path, mapping, what):
        if k not in allowed:
            raise ConfigError(path, mapping.key_line(k), f"unknown key '{k}' in {what}")


@dataclass(frozen=True)
class WeightSet:
    name: str
    pst: bool
    tempo: int
    horse_per_capture4: int
    cannon_per_capture4: int
    pawn_per_missing_attacker: int
    horse_leg_blocked: int
    elephant_eye_blocked: int
    rook_on_king_file: int
    cannon_on_king_file: tuple[int, int, int, int]
    missing_elephant_per_cannon: int
    missing_advisor_per_rook: int
    endgame: bool = False          # use the endgame terms (EvalConfig.endgame)


@dataclass(frozen=True)
class EvalConfig:
    material: dict[int, int]                   # kind -> points
    pst: dict[int, tuple[int, ...]]            # kind -> 90 values, index rank*9+file (Red's view)
    sets: dict[str, WeightSet]
    endgame: EndgameTables | None = None       # `endgame:` (None: the file has none)


@dataclass(frozen=True)
class BareLimits:
    """A level's `bare:` block: the depth, qdepth and node cap its searches use
    instead of its own when the side to move at the root is bare (no rook,
    horse, cannon or pawn; endgame.bare_side), or both sides are."""
    depth: int
    qdepth: int
    nodes: int


@dataclass(frozen=True)
class SparseLimits:
    """A level's `sparse:` block: the node cap its searches use instead of its
    own when at most `pieces` pieces (both sides, kings included) are on the
    board at the root.  The cap stands for NES time, and the full board of
    the opening, with the widest tree, is where a larger cap costs the most
    of it, so a thinner board can afford more nodes (docs/ENGINE.md)."""
    pieces: int
    nodes: int


@dataclass(frozen=True)
class Level:
    name: str
    depth: int
    qdepth: int
    eval: str
    nodes: int
    noise: int
    killers: bool
    history: bool
    book: int = 0        # plies from the start within which the level plays book moves (0: none)
    check_ext: int = 0   # the check extension's reach: a move that gives check is searched a ply
                         #   deeper while the node's ply + depth < this (0: none)
    bare: BareLimits | None = None   # its limits when the side to move is bare (None: the level's own)
    sparse: SparseLimits | None = None   # its node cap on a thinner board (None: the level's own)

    def limited(self, nodes: int) -> "Level":
        """The level with every node cap it can search to (its own and its
        `sparse` block's; a `bare` block keeps its own) at most `nodes`: what
        a client's `go nodes N` asks of it."""
        sparse = self.sparse and replace(self.sparse, nodes=max(1, min(self.sparse.nodes, nodes)))
        return replace(self, nodes=max(1, min(self.nodes, nodes)), sparse=sparse)


def load_eval(path: Path | None = None) -> EvalConfig:
    path = path or CONFIG_DIR / "eval.yaml"
    root = _load(path)
    _unknown(path, root, ("material", "pst", "sets", "endgame"), "the top level")
    mat_node = _get(path, root, "material")
    _unknown(path, mat_node, KIND_KEYS.keys(), "material")
    material = {kind: _int(path, _get(path, mat_node, key), f"material.{key}", 0, 1000)
                for key, kind in KIND_KEYS.items()}
    pst_node = _get(path, root, "pst")
    _unknown(path, pst_node, KIND_KEYS.keys(), "pst")
    pst: dict[int, tuple[int, ...]] = {}
    for key, kind in KIND_KEYS.items():
        node = _get(path, pst_node, key)
        if not isinstance(node.value, list) or len(node.value) != 10:
            raise ConfigError(path, node.line, f"pst.{key} must be a list of 10 rows of 9 integers")
        values = [0] * 90
        for i, row in enumerate(node.value):
            if not isinstance(row.value, list) or len(row.value) != 9:
                got = len(row.value) if isinstance(row.value, list) else "no list"
                raise ConfigError(path, row.line, f"pst.{key} row {i + 1} has {got} values, expected 9")
            for f, cell in enumerate(row.value):
                values[(9 - i) * 9 + f] = _int(path, cell, f"pst.{key} row {i + 1}", -128, 127)
        pst[kind] = tuple(values)
    sets_node = _get(path, root, "sets")
    if not _mapping(path, sets_node, "sets"):
        raise ConfigError(path, sets_node.line, "sets must be a non-empty mapping")
    sets: dict[str, WeightSet] = {}
    for name, node in sets_node.value.items():
        if not SET_NAME.match(name):
            raise ConfigError(path, sets_node.key_line(name), f"weight set name {show(name)} must be a letter followed by "
                              "at most 15 letters, digits or '_'")
        if name.upper() in (n.upper() for n in sets):
            raise ConfigError(path, sets_node.key_line(name), f"weight set '{name}' differs from another only in case")
        _unknown(path, node, set(SET_INT_KEYS) | {"pst", "cannon_on_king_file", "endgame"}, f"set '{name}'")
        ints = {k: _int(path, _get(path, node, k), f"sets.{name}.{k}", -100, 100) for k in SET_INT_KEYS}
        ck = _get(path, node, "cannon_on_king_file")
        if not isinstance(ck.value, list) or len(ck.value) != 4:
            raise ConfigError(path, ck.line, f"sets.{name}.cannon_on_king_file must be a list of 4 integers")
        ck_vals = tuple(_int(path, v, f"sets.{name}.cannon_on_king_file", -100, 100) for v in ck.value)
        use_endgame = False
        if "endgame" in node.value:
            eg_node = node.value["endgame"]
            use_endgame = _bool(path, eg_node, f"sets.{name}.endgame")
            if use_endgame and "endgame" not in root.value:
                raise ConfigError(path, eg_node.line, f"sets.{name}.endgame is true but the file has no "
                                  "top-level 'endgame:' tables")
        sets[name] = WeightSet(name=name, pst=_bool(path, _get(path, node, "pst"), f"sets.{name}.pst"),
                               cannon_on_king_file=ck_vals, endgame=use_endgame,
                               **ints)  # type: ignore[arg-type]
    endgame = _load_endgame(path, root.value["endgame"]) if "endgame" in root.value else None
    return EvalConfig(material=material, pst=pst, sets=sets, endgame=endgame)


def _int_list(path: Path, node: Node, what: str, n: int, lo: int, hi: int) -> tuple[int, ...]:
    if not isinstance(node.value, list) or len(node.value) != n:
        raise ConfigError(path, node.line, f"{what} must be a list of {n} integers")
    return tuple(_int(path, v, what, lo, hi) for v in node.value)


def _load_endgame(path: Path, node: Node) -> EndgameTables:
    """The `endgame:` tables (reference_py/endgame.py says what they mean)."""
    _unknown(path, node, ("scale", "both_bare", "king_mobility", "king_centre", "near", "bitbase_win"), "endgame")
    scale_node = _get(path, node, "scale")
    _unknown(path, scale_node, CLASSES, "endgame.scale")
    scale = tuple(_int_list(path, _get(path, scale_node, c), f"endgame.scale.{c} "
                            f"(shifts for {', '.join(DEFENCE_NAMES)})", len(DEFENCE_NAMES), 0, SHIFT_MAX)
                  for c in CLASSES)
    mobility = _int_list(path, _get(path, node, "king_mobility"),
                         "endgame.king_mobility (points by the bare king's free squares 0..4)", 5, -100, 100)
    near = _int_list(path, _get(path, node, "near"), "endgame.near (points by distance 0..17)",
                     NEAR_MAX_DISTANCE + 1, -20, 20)
    return EndgameTables(scale=scale,
                         both_bare=_int(path, _get(path, node, "both_bare"), "endgame.both_bare", 0, SHIFT_MAX),
                         king_mobility=mobility,
                         king_centre=_int(path, _get(path, node, "king_centre"), "endgame.king_centre", -60, 60),
                         near=near,
                         bitbase_win=_int(path, _get(path, node, "bitbase_win"), "endgame.bitbase_win", 0, 1000))


def _level_name(path: Path, node: Node) -> str:
    """A level's name as the ROM's menu can show it, whole."""
    name = node.value
    if not isinstance(name, str) or not name.isascii() or not name.replace(" ", "").isalnum():
        raise ConfigError(path, node.line, f"level name {show(name)} must be ASCII letters, digits or spaces")
    if not 1 <= len(name) <= LEVEL_NAME_LEN:
        raise ConfigError(path, node.line, f"level name '{name}' has {len(name)} characters: the ROM's menu "
                          f"shows {LEVEL_NAME_LEN} (1-{LEVEL_NAME_LEN} letters, digits or spaces)")
    if name != name.strip() or "  " in name:
        raise ConfigError(path, node.line, f"level name '{name}' must not start or end with a space "
                          "or hold two in a row")
    return name


def load_levels(path: Path | None = None, eval_config: EvalConfig | None = None) -> list[Level]:
    path = path or CONFIG_DIR / "difficulty.yaml"
    eval_config = eval_config or load_eval()
    root = _load(path)
    _unknown(path, root, ("levels",), "the top level")
    levels_node = _get(path, root, "levels")
    if not isinstance(levels_node.value, list) or len(levels_node.value) < 1:
        raise ConfigError(path, levels_node.line, "levels must be a non-empty list")
    if len(levels_node.value) > MAX_LEVELS:
        raise ConfigError(path, levels_node.line, f"at most {MAX_LEVELS} levels fit the ROM's menu")
    levels: list[Level] = []
    names: set[str] = set()
    for node in levels_node.value:
        _unknown(path, node, LEVEL_KEYS, "a level")
        name_node = _get(path, node, "name", "a level")
        name = _level_name(path, name_node)
        if name.lower() in names:
            raise ConfigError(path, name_node.line, f"duplicate level name '{name}'")
        names.add(name.lower())
        ev = _get(path, node, "eval")
        if not isinstance(ev.value, str):
            raise ConfigError(path, ev.line, f"eval must name a weight set ({', '.join(eval_config.sets)}), "
                              f"got {show(ev.value)}")
        if ev.value not in eval_config.sets:
            raise ConfigError(path, ev.line, f"unknown eval set '{ev.value}' (known: {', '.join(eval_config.sets)})")
        noise_node = _get(path, node, "noise")
        noise = _int(path, noise_node, "noise", 0, 255)
        if noise & (noise + 1):
            raise ConfigError(path, noise_node.line, f"noise = {noise} must be 0 or 2^k-1 (1, 3, 7, ..., 255)")
        levels.append(Level(
            name=name,
            depth=_int(path, _get(path, node, "depth"), "depth", 1, DEPTH_MAX),
            qdepth=_int(path, _get(path, node, "qdepth"), "qdepth", 0, 8),
            eval=ev.value,
            nodes=_int(path, _get(path, node, "nodes"), "nodes", 1, 65535),
            noise=noise,
            killers=_bool(path, _get(path, node, "killers"), "killers"),
            history=_bool(path, _get(path, node, "history"), "history"),
            book=(_int(path, node.value["book"], "book", 0, BOOK_PLIES_MAX) if "book" in node.value else 0),
            check_ext=(_int(path, node.value["check_ext"], "check_ext", 0, CHECK_EXT_MAX)
                       if "check_ext" in node.value else 0),
            bare=(_bare(path, node.value["bare"]) if "bare" in node.value else None),
            sparse=(_sparse(path, node.value["sparse"]) if "sparse" in node.value else None),
        ))
        lv = levels[-1]
        # An extended line's quiescence ends at ply depth + qdepth (the ROM's per-ply
        # arrays), so its main search must end before, in every row of the level.
        for what, depth, qdepth in [("", lv.depth, lv.qdepth)] + (
                [("bare ", lv.bare.depth, lv.bare.qdepth)] if lv.bare else []):
            bound = depth + max(qdepth, 1)
            if lv.check_ext >= bound:
                raise ConfigError(path, node.value["check_ext"].line,
                                  f"level '{name}': check_ext = {lv.check_ext} must be below {bound}, its "
                                  f"{what}depth + {'qdepth' if qdepth else '1 (qdepth 0)'}: an extended line "
                                  f"ends at that ply")
    return levels


def _bare(path: Path, node: Node) -> BareLimits:
    """A level's `bare:` block (depth, qdepth, nodes, all required)."""
    _unknown(path, node, BARE_KEYS, "bare")
    return BareLimits(depth=_int(path, _get(path, node, "depth", "bare"), "bare.depth", 1, BARE_DEPTH_MAX),
                      qdepth=_int(path, _get(path, node, "qdepth", "bare"), "bare.qdepth", 0, 8),
                      nodes=_int(path, _get(path, node, "nodes", "bare"), "bare.nodes", 1, 65535))


def _sparse(path: Path, node: Node) -> SparseLimits:
    """A level's `sparse:` block (pieces, nodes, both required)."""
    _unknown(path, node, SPARSE_KEYS, "sparse")
    return SparseLimits(pieces=_int(path, _get(path, node, "pieces", "sparse"), "sparse.pieces", *SPARSE_PIECES),
                        nodes=_int(path, _get(path, node, "nodes", "sparse"), "sparse.nodes", 1, 65535))


@dataclass(frozen=True)
class Pruning:
    """Forward pruning (config/search.yaml `pruning:`); the defaults here
    switch everything off.  Both engines implement the futility, reverse
    futility and quiescence exchange-pruning knobs (the shipped config turns
    them on); the rest are experiments that only reference_py implements,
    and the ROM build (tools/rom/gen_tables.py) refuses them."""
    futility_margin1: int = 0     # depth-1 futility: quiet non-checking moves skipped when eval + m <= alpha
    futility_margin2: int = 0     # the same at depth 2 (extended futility)
    rfp_depth: int = 0            # reverse futility: at depth <= this, null-window nodes
    rfp_margin: int = 0           #   return beta when eval - margin * depth >= beta
    lmp1: int = 0                 # late-move pruning at depth 1: quiet non-checking moves skipped
    lmp2: int = 0                 #   once this many legal moves were searched (lmp2: at depth 2)
    lmr_min_depth: int = 3        # LMR below the root from depth >= this (LMR_MIN_DEPTH)
    lmr_min_moves: int = 3        #   for legal moves after this many (LMR_MIN_MOVES)
    lmr2_moves: int = 0           # reduce 2 plies instead of 1 after this many legal moves (0: never)
    lmr_root: int = 0             # LMR at the root too, for legal moves after this many (0: never)
    next_iteration: int = 0       # > 0: a level's next iteration starts only while nodes x this < its cap
    aspiration: int = 0           # root window +- this from depth 2 on (0: full window)
    qs_evasion_qply: int = 0      # quiescence: in check at qply >= this returns the static eval (0: off)
    prune_checks: int = 0         # 1: futility / LMP also skip quiet checking moves, decided before
                                  #   making the move; the first such move ends the move loop
    qs_exchange: int = 0          # > 0: quiescence skips a capture by a piece worth at least this
                                  #   much more than its victim when the opponent can move to its
                                  #   square (exchange pruning; 1 = any dearer piece)
    qs_exchange_qply: int = 0     #   ... from this quiescence ply on (0: every ply)
    order_exchange: int = 0       # > 0: the main search keys a capture by a piece worth at least this
                                  #   much more than its victim, when the opponent can move to its
                                  #   square, as a quiet move (tested when a pick reaches it)
                                  #   (bench/results/exchange_ordering.md)

    @property
    def any(self) -> bool:
        return self != Pruning()


PRUNING_KEYS = tuple(Pruning.__dataclass_fields__)


@dataclass(frozen=True)
class SearchConfig:
    victim_rank: dict[int, int]
    attacker_rank: dict[int, int]
    history_bonus: tuple[int, ...]   # index depth-1, depth 1..8
    perpetual_check: int
    perpetual_chase: int
    delta_margin: int
    move_stack_entries: int
    null_move_min_depth: int
    pruning: Pruning = Pruning()


def load_search(path: Path | None = None) -> SearchConfig:
    path = path or CONFIG_DIR / "search.yaml"
    root = _load(path)
    _unknown(path, root, ("victim_rank", "attacker_rank", "history_bonus", "perpetual_check", "perpetual_chase",
                                "delta_margin",
                                "move_stack_entries", "null_move_min_depth", "pruning"),
             "the top level")
    ranks = {}
    for key in ("victim_rank", "attacker_rank"):
        node = _get(path, root, key)
        _unknown(path, node, KIND_KEYS.keys(), key)
        # A victim rank >= 1 keeps every capture key (128 + 16 * victim - attacker)
        # at 137 or more, above every quiet key (<= 127): lazy quiet keys and the
        # ROM's bit-7 test rely on it (docs/ENGINE.md "Move ordering keys").
        lo = 1 if key == "victim_rank" else 0
        ranks[key] = {kind: _int(path, _get(path, node, name), f"{key}.{name}", lo, 7)
                      for name, kind in KIND_KEYS.items()}
    hb = _get(path, root, "history_bonus")
    if not isinstance(hb.value, list) or len(hb.value) != 8:
        raise ConfigError(path, hb.line, "history_bonus must be a list of 8 integers (depth 1..8)")
    bonus = tuple(_int(path, v, "history_bonus", 0, 128) for v in hb.value)
    pc = _int(path, _get(path, root, "perpetual_check"), "perpetual_check", 0, 20000)
    pch = _int(path, _get(path, root, "perpetual_chase"), "perpetual_chase", 0, 20000)
    dm = _int(path, _get(path, root, "delta_margin"), "delta_margin", 0, 1000)
    # (the ROM indexes the move stack with one byte; tools/rom/gen_tables.py
    # checks that the entries fit its RAM)
    ms = _int(path, _get(path, root, "move_stack_entries"), "move_stack_entries", 128, 255)
    nm = _int(path, _get(path, root, "null_move_min_depth"), "null_move_min_depth", 3, 9)
    pruning = Pruning()
    if "pruning" in root.value:
        pn = root.value["pruning"]
        if not isinstance(pn.value, dict):
            raise ConfigError(path, pn.line, "pruning must be a mapping")
        _unknown(path, pn, PRUNING_KEYS, "pruning")
        pruning = Pruning(**{k: _int(path, v, f"pruning.{k}", 0, 1000) for k, v in pn.value.items()})
    return SearchConfig(ranks["victim_rank"], ranks["attacker_rank"], bonus, pc, pch, dm, ms, nm, pruning)
