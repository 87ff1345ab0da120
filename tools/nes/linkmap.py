"""The linker's JSON map (rom/xiangqi.map.json): the contract between the
build and everything that drives the ROM.

tools/asm/outputs.py map_json writes it beside the ROM: "segments" and
"memory" (each with its "bank", null when the area has none), "exports"
(every exported symbol, constants included), "labels" ({name: address})
and, for a banked ROM, "label_banks" ({label: bank}).  Drivers never
hard-code an address: they ask this map.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tools.rom.files import MAP, ensure_rom


class LinkMapError(Exception):
    """The map is missing, unreadable or lacks what a driver needs."""


class MissingName(LinkMapError, KeyError):
    """A name the map does not hold (a KeyError too, for lookups by name)."""

    __str__ = Exception.__str__


@dataclass(frozen=True)
class LinkMap:
    path: Path
    labels: dict[str, int]
    exports: dict[str, int]
    segments: dict[str, dict]
    memory: dict[str, dict]
    label_banks: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, missing_ok: bool = False) -> "LinkMap":
        """The map at path; with missing_ok, an empty map if there is none
        (a ROM built by ca65/ld65 has no JSON map)."""
        path = Path(path)
        try:
            m = json.loads(path.read_bytes())
        except FileNotFoundError:
            if missing_ok:
                return cls(path, {}, {}, {}, {})
            raise LinkMapError(f"{path}: no linker map (build the ROM first: make rom)") from None
        except OSError as exc:
            raise LinkMapError(f"{path}: cannot read the linker map: {exc.strerror}") from None
        except (ValueError, RecursionError) as exc:
            raise LinkMapError(f"{path}: not a linker map: not JSON ({exc})") from None
        try:
            segments = {str(k): {**v, "start": int(v["start"]), "size": int(v["size"])}
                        for k, v in m["segments"].items()}
            return cls(path, {k: int(v) for k, v in m["labels"].items()},
                       {k: int(v) for k, v in m.get("exports", {}).items()},
                       segments, dict(m.get("memory", {})),
                       {k: int(v) for k, v in (m.get("label_banks") or {}).items()})
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise LinkMapError(f"{path}: not a linker map ({type(exc).__name__}: {exc})") from None

    def symbols(self) -> dict[str, int]:
        """Every name a driver may address: the labels, then the exported
        symbols that are not labels (.export'ed RAM and constants)."""
        out = dict(self.exports)
        out.update(self.labels)
        return out

    def segment(self, name: str) -> tuple[int, int]:
        """[start, end) of a segment at run time."""
        try:
            seg = self.segments[name]
        except KeyError:
            raise MissingName(f"{self.path}: no segment {name}") from None
        return seg["start"], seg["start"] + seg["size"]

    def export(self, name: str) -> int:
        """An exported constant of the build (e.g. ENG_PLIES)."""
        try:
            return self.exports[name]
        except KeyError:
            raise MissingName(f"{self.path}: the build exports no {name}") from None

    @property
    def banked(self) -> bool:
        """True when the ROM's code lives in switchable banks."""
        return bool(self.label_banks)

    def bank_of(self, name: str) -> int | None:
        """The PRG bank a label lives in (None: not banked, or not in ROM)."""
        return self.label_banks.get(name)


def built() -> LinkMap:
    """The map of rom/xiangqi.nes, the ROM (re)built first if stale: for
    tests that take the build's constants at import."""
    ensure_rom()
    return LinkMap.load(MAP)
