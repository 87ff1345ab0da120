"""Engine trees: the reference engine and the YAML it reads, as one unit an A/B test compares.

An A/B test (`python -m tools.tune sprt BASE TEST`) plays two engines in
one process, so each side is a copy of reference_py renamed to a package
of its own (`rpy_<digest>`) beside the config/ directory it reads
(reference_py finds its YAML at ../config from its own files).  A side is
named by:

  * a directory holding the YAML files (eval.yaml, difficulty.yaml,
    search.yaml): today's reference_py with that configuration, and the
    directory's opening book data (book.checked.json) or, without one,
    today's config/book.checked.json;
  * a directory holding config/ (a checkout): its reference_py/ (today's
    when it has none) and its config/, the book data included if it has any;
  * a git revision of this repository (`HEAD~1`, `main`, a commit): its
    reference_py/ and config/ (the book data included), so a change to the
    engine's code can be tested as well as a change to the YAML.

The book data and the horse bitbases (config/bitbase_*.bin) travel with
the tree because reference_py reads them from ../config beside itself (it
plays without a book when that file is absent).

A tree's digest is the SHA-256 of its files, so the same configuration
always gets the same package and the same cached games.  Trees are built
under build/tune/trees/; a worker on another machine (Ray) rebuilds one
from the archive the task carries.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import importlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
TREES = ROOT / "build" / "tune" / "trees"
YAML_FILES = ("eval.yaml", "difficulty.yaml", "search.yaml")
BOOK_FILE = "book.checked.json"          # the opening book's data (reference_py/book.py)
BITBASE_FILES = ("bitbase_h_e.bin", "bitbase_h_aa.bin")   # the horse bitbases (reference_py/bitbase.py)
DATA_FILES = (BOOK_FILE, *BITBASE_FILES)  # data a tree takes from its config/ or, without it, today's


class TreeError(ValueError):
    """A side of an A/B test that cannot be built."""


def _files_from_dir(config_dir: Path, book_fallback: Path | None) -> dict[str, bytes]:
    """The YAML files of config_dir and its data files, the book's and the
    bitbase's (book_fallback's when it has none)."""
    out = {}
    for name in YAML_FILES:
        p = config_dir / name
        if not p.is_file():
            raise TreeError(f"{config_dir}: no {name} (a configuration needs {', '.join(YAML_FILES)})")
        out[f"config/{name}"] = p.read_bytes()
    for name in DATA_FILES:
        for data in (config_dir / name, book_fallback / name if book_fallback else None):
            if data is not None and data.is_file():
                out[f"config/{name}"] = data.read_bytes()
                break
    return out


def _reference_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "reference_py").rglob("*.py"))}


def _files_from_git(rev: str) -> dict[str, bytes]:
    try:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "reference_py", "config"],
                             check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as exc:
        raise TreeError(f"'{rev}' is neither a directory nor a git revision here: "
                        f"{exc.stderr.decode().strip()}") from None
    out = {}
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        for m in tf.getmembers():
            if m.isfile() and (m.name.endswith(".py") or m.name.startswith("config/") and m.name.endswith(".yaml")
                               or m.name in {f"config/{n}" for n in DATA_FILES}):
                out[m.name] = tf.extractfile(m).read()
    return out


def collect(spec: str) -> dict[str, bytes]:
    """The files of the tree a BASE or TEST argument names: {relative path: bytes}."""
    p = Path(spec)
    if p.is_dir():
        if (p / "config").is_dir():
            own_code = (p / "reference_py").is_dir()
            files = _files_from_dir(p / "config", None if own_code else ROOT / "config")
            files.update(_reference_files(p) if own_code else _reference_files(ROOT))
            return files
        files = _files_from_dir(p, ROOT / "config")
        files.update(_reference_files(ROOT))
        return files
    if p.exists():
        raise TreeError(f"{spec}: not a directory (name a directory of YAML files, a checkout or a git revision)")
    return _files_from_git(spec)


def digest(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + files[name] + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def local_digest() -> str:
    """The digest of this checkout's engine (reference_py/ and config/, as
    `collect` reads a checkout): the identity of a player named by a bare
    level, for the game cache.  Computed once per process."""
    return digest(collect(str(ROOT)))


def package_name(dig: str) -> str:
    return f"rpy_{dig[:16]}"


def materialize(files: dict[str, bytes], base: Path = TREES) -> tuple[str, Path]:
    """Write the tree (package renamed) under base/<digest>/ once; (package, dir)."""
    dig = digest(files)
    pkg = package_name(dig)
    out = base / dig[:16]
    if (out / ".complete").exists():
        return pkg, out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{dig[:16]}."))
    for name, data in files.items():
        if name.startswith("reference_py/"):
            target = tmp / pkg / name[len("reference_py/"):]
            data = re.sub(rb"\breference_py\b", pkg.encode(), data)
        else:
            target = tmp / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (tmp / ".complete").write_text(dig)
    try:
        os.replace(tmp, out)
    except OSError:                 # another process made it first
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    return pkg, out


def archive(files: dict[str, bytes]) -> str:
    """The files as one base64 text (a Ray task carries it)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size = len(files[name])
            tf.addfile(info, io.BytesIO(files[name]))
    return base64.b64encode(buf.getvalue()).decode()


def unarchive(text: str) -> dict[str, bytes]:
    with tarfile.open(fileobj=io.BytesIO(base64.b64decode(text))) as tf:
        return {m.name: tf.extractfile(m).read() for m in tf.getmembers() if m.isfile()}


_LOADED: dict[str, ModuleType] = {}


def load(ref: dict) -> ModuleType:
    """The package of a tree reference {"digest", "dir"[, "archive"]}, imported once per process."""
    dig = ref["digest"]
    if dig in _LOADED:
        return _LOADED[dig]
    pkg = package_name(dig)
    where = Path(ref.get("dir", ""))
    if not (where / ".complete").exists():
        if "archive" not in ref:
            raise TreeError(f"tree {dig[:16]} is not on this machine and the task carries no archive")
        _, where = materialize(unarchive(ref["archive"]), Path(tempfile.gettempdir()) / "xiangqi-tune-trees")
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))
    mod = importlib.import_module(pkg)
    for sub in ("search", "rules", "board", "notation", "fen"):
        importlib.import_module(f"{pkg}.{sub}")
    _LOADED[dig] = mod
    return mod


def prepare(spec: str, ship: bool = False) -> dict:
    """Build the tree a command-line argument names; its reference for tasks."""
    return prepare_files(collect(spec), spec, ship)


def prepare_files(files: dict[str, bytes], spec: str, ship: bool = False) -> dict:
    """Build a tree from its files (collect()'s, perhaps edited); `spec` names it in reports."""
    pkg, where = materialize(files)
    ref = {"spec": spec, "digest": digest(files), "dir": str(where)}
    if ship:
        ref["archive"] = archive(files)
    return ref


def spec_path(ref: dict, text: str) -> str:
    """`text` (an error message of the tree's package) with the tree's copy of
    its config/ named as the user named it: SPEC/ for a directory of YAML,
    SPEC/config/ for a checkout, SPEC:config/ for a git revision."""
    spec = ref["spec"]
    p = Path(spec)
    if p.is_dir():
        name = str(p / "config") + "/" if (p / "config").is_dir() else str(p) + "/"
    else:
        name = f"{spec}:config/"
    return text.replace(str(Path(ref["dir"]) / "config") + "/", name)


def level_names(ref: dict) -> list[str]:
    """The names of the tree's difficulty levels, weakest first; a TreeError
    naming the user's file and line when the tree's YAML is wrong."""
    pkg = load(ref)
    try:
        return [lv.name for lv in pkg.search.levels()]
    except pkg.config_file.ConfigError as exc:      # the tree's own class, not reference_py's
        raise TreeError(spec_path(ref, str(exc))) from None
