"""Read a hand-edited YAML config file into plain values that remember their line.

config/*.yaml is edited by hand and read by every build and every engine, so
reading it must never hang, exhaust memory or end in a traceback, and every
refusal must name the file and the line.  The loader therefore walks PyYAML's
event stream itself (no composer, no constructor of arbitrary tags) and
refuses what a config file never needs:

  * anchors and aliases (`&a`, `*a`): an alias bomb of ten lines expands
    into billions of nodes;
  * explicit tags (`!!int "abc"`, `!!python/object:...`): plain values are
    typed by how they are written;
  * nesting deeper than MAX_DEPTH, files larger than MAX_BYTES, integers
    written with more than MAX_INT_CHARS characters, more than one document,
    and keys that are not plain values;
  * bytes that are not UTF-8, and anything but a regular file.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 1 << 20          # 1 MiB: the shipped files are a few KiB
MAX_DEPTH = 16               # the shipped files nest 4 levels deep
MAX_INT_CHARS = 24           # far beyond any value the engines hold (16 bits)
YAML_TAG_PREFIX = "tag:yaml.org,2002:"     # what '!!' stands for
INT_TAG = YAML_TAG_PREFIX + "int"


class ConfigError(Exception):
    """A problem in a YAML file, with its location: "file:line: message"."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")
        self.path = str(path)
        self.line = line
        self.message = message


class Node:
    """A YAML value together with the line it came from: `value` is a
    dict[str, Node], a list[Node] or a plain Python value; a mapping also
    keeps the line of each key (`key_lines`), where a nested value starts
    on a later line."""

    __slots__ = ("value", "line", "key_lines")

    def __init__(self, value: Any, line: int) -> None:
        self.value = value
        self.line = line
        self.key_lines: dict[str, int] = {}

    def key_line(self, key: str) -> int:
        """The line of a key of this mapping (the mapping's line if unknown)."""
        return self.key_lines.get(key, self.line)


def show(value: Any, limit: int = 40) -> str:
    """A value for an error message, cut to `limit` characters."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _read_text(path: Path) -> str:
    try:
        if not path.is_file():
            why = "no such file" if not path.exists() else "not a regular file"
            raise ConfigError(path, None, f"cannot read: {why}")
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise ConfigError(path, None, f"larger than {MAX_BYTES // 1024} KiB: not a config file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ConfigError(path, line, f"not UTF-8 text (byte 0x{data[exc.start]:02X} at column {col})") from None


class _Builder:
    """Turns the event stream into Nodes, with the checks of the module doc."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.loader = yaml.SafeLoader("")     # its resolver and constructor, for plain scalars
        self.root: Node | None = None
        self.stack: list[tuple[Node, list[str | None]]] = []   # open collections, pending key
        self.documents = 0

    def fail(self, line: int, message: str) -> None:
        raise ConfigError(self.path, line, message)

    def event(self, ev: yaml.Event) -> None:
        line = ev.start_mark.line + 1
        if isinstance(ev, yaml.AliasEvent):
            self.fail(line, f"YAML aliases ('*{ev.anchor}') are not allowed in a config file: "
                      "write the value out")
        if isinstance(ev, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.fail(line, "more than one YAML document ('---') in a config file")
            return
        if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.stack.pop()
            return
        if not isinstance(ev, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            return
        if ev.anchor is not None:
            self.fail(line, f"YAML anchors ('&{ev.anchor}') are not allowed in a config file")
        if ev.tag is not None:
            self.fail(line, f"YAML tags ('{ev.tag.replace(YAML_TAG_PREFIX, '!!')}') are not allowed in a config file: "
                      "write plain values")
        if isinstance(ev, yaml.ScalarEvent):
            self.add(Node(self.scalar(ev, line), line), ev.value)
            return
        node = Node({} if isinstance(ev, yaml.MappingStartEvent) else [], line)
        self.add(node, None)
        if len(self.stack) >= MAX_DEPTH:
            self.fail(line, f"nested more than {MAX_DEPTH} levels deep")
        self.stack.append((node, [None]))

    def scalar(self, ev: yaml.ScalarEvent, line: int) -> Any:
        tag = self.loader.resolve(yaml.ScalarNode, ev.value, ev.implicit)
        if tag == INT_TAG and len(ev.value) > MAX_INT_CHARS:
            self.fail(line, f"the number {show(ev.value, 20)} has {len(ev.value)} characters: "
                      f"too long for any setting")
        node = yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style)
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError, yaml.YAMLError) as exc:
            self.fail(line, f"cannot read the value {show(ev.value)}: {exc}")

    def add(self, node: Node, raw_key: str | None) -> None:
        if not self.stack:
            self.root = node
            return
        parent, pending = self.stack[-1]
        if isinstance(parent.value, list):
            parent.value.append(node)
        elif pending[0] is None:
            if raw_key is None:
                self.fail(node.line, "a key must be a plain value, not a list or a mapping")
            if raw_key in parent.value:
                self.fail(node.line, f"duplicate key '{raw_key}'")
            pending[0] = raw_key
            parent.key_lines[raw_key] = node.line
        else:
            parent.value[pending[0]] = node
            pending[0] = None


def _code(character: int | str | bytes) -> int:
    return character if isinstance(character, int) else ord(character)


def load_yaml(path: Path | str) -> Node:
    """The file's single document as a Node tree.  Raises ConfigError."""
    path = Path(path)
    text = _read_text(path)
    builder = _Builder(path)
    try:
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            builder.event(ev)
    except yaml.reader.ReaderError as exc:      # a character YAML does not allow (NUL, ...)
        raise ConfigError(path, text.count("\n", 0, exc.position) + 1,
                          f"not valid YAML: character U+{_code(exc.character):04X} is not allowed") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(path, mark.line + 1 if mark else None,
                          f"not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise ConfigError(path, None, "nested too deeply") from None
    if builder.root is None or builder.root.value is None:
        raise ConfigError(path, None, "file is empty")
    return builder.root


def find_line(path: Path | str, *keys: str | int) -> int | None:
    """The line of the entry at keys[0] -> keys[1] -> ... (a str for a
    mapping key: the key's line; an int for a list index: the item's line),
    or None when there is no such entry: for checks made after loading (the
    ROM build's) that must still name the line of what they refuse."""
    node = load_yaml(path)
    line = node.line
    for key in keys:
        if isinstance(key, int) and isinstance(node.value, list) and 0 <= key < len(node.value):
            node = node.value[key]
            line = node.line
        elif isinstance(key, str) and isinstance(node.value, dict) and key in node.value:
            line = node.key_line(key)
            node = node.value[key]
        else:
            return None
    return line


__all__ = ["ConfigError", "MAX_BYTES", "MAX_DEPTH", "MAX_INT_CHARS", "Node", "find_line", "load_yaml", "show"]
