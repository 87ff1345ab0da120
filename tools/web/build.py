"""`make web`: the static site that plays the cartridge in a browser.

    python -m tools.web build [--out site]

site/ gets the page and what it loads, nothing else:

    index.html       web/index.html, its @NAME@ references replaced by the
                     files below, each as name?v=<first 12 hex digits of its
                     SHA-256>, so a browser's cache never mixes an old ROM
                     with a new page
    style.css        web/style.css
    xiangqi.js       web/xiangqi.js: screen, keys, touch buttons, sound, power
    sound.js         web/sound.js: the sound's AudioWorklet
    jsnes.min.js     the jsnes emulator's browser bundle, the version pinned by
                     web/package-lock.json (installed with `npm ci` into
                     web/node_modules, which is not committed)
    jsnes.LICENSE.txt  its licence (Apache-2.0), which goes with it
    xiangqi.nes      rom/xiangqi.nes

The site is put together in a temporary folder beside it and renamed into
place when complete, so a failed build leaves the previous site as it was.
Errors (no ROM, no npm, `npm ci` failing, a reference in index.html that
names no file) raise WebBuildError with the file and what is wrong.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tools.atomic import check_target
from tools.nes.cartridge import Cartridge, CartridgeError
from tools.rom.files import ROM, ROOT

WEB = ROOT / "web"
SITE = ROOT / "site"
NODE_MODULES = WEB / "node_modules"
JSNES = NODE_MODULES / "jsnes"
# npm ci writes this last: its presence, newer than the lock, means a complete install.
NPM_DONE = NODE_MODULES / ".package-lock.json"
MARKER = ".made-by-make-web"     # in every site this builds: only such a folder is replaced
REFERENCE = re.compile(r"@([A-Z_]+)@")


class WebBuildError(Exception):
    """The site cannot be built; the message names the file and the problem."""


@dataclass(frozen=True)
class SiteFile:
    """One file of the site: where it comes from, and the @NAME@ index.html uses for it."""
    name: str
    source: Path
    reference: str | None        # None: in the site but not referenced by the page


def site_files(rom: Path = ROM) -> list[SiteFile]:
    return [
        SiteFile("style.css", WEB / "style.css", "STYLE"),
        SiteFile("xiangqi.js", WEB / "xiangqi.js", "SCRIPT"),
        SiteFile("sound.js", WEB / "sound.js", "SOUND"),
        SiteFile("jsnes.min.js", JSNES / "dist" / "jsnes.min.js", "JSNES"),
        SiteFile("jsnes.LICENSE.txt", JSNES / "LICENSE", None),
        SiteFile("xiangqi.nes", rom, "ROM"),
    ]


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


# ---- jsnes, from the npm registry ------------------------------------------------
def pinned_jsnes() -> str:
    """The jsnes version web/package-lock.json pins."""
    lock = WEB / "package-lock.json"
    try:
        data = json.loads(lock.read_text())
        return data["packages"]["node_modules/jsnes"]["version"]
    except FileNotFoundError:
        raise WebBuildError(f"{rel(lock)}: missing") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise WebBuildError(f"{rel(lock)}: no pinned jsnes version ({exc!r})") from None


def installed_jsnes() -> str | None:
    """The jsnes version in web/node_modules, or None if npm ci has not
    completed since web/package-lock.json last changed."""
    lock = WEB / "package-lock.json"
    if not NPM_DONE.exists() or NPM_DONE.stat().st_mtime < lock.stat().st_mtime:
        return None
    try:
        return json.loads((JSNES / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def install_jsnes() -> str:
    """`npm ci` in web/ if web/node_modules does not hold the pinned jsnes;
    returns its version."""
    want = pinned_jsnes()
    if installed_jsnes() == want:
        return want
    npm = shutil.which("npm")
    if npm is None:
        raise WebBuildError("npm is not installed: the page needs Node.js and npm to fetch jsnes "
                            "(Debian: apt-get install npm)")
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise WebBuildError(f"npm ci in {rel(WEB)} failed (exit {proc.returncode}):\n"
                            f"{(proc.stdout + proc.stderr).strip()}")
    NPM_DONE.touch()
    got = installed_jsnes()
    if got != want:
        raise WebBuildError(f"npm ci in {rel(WEB)} installed jsnes {got}, but "
                            f"{rel(WEB / 'package-lock.json')} pins {want}")
    return got


# ---- the page ------------------------------------------------------------------------
def versioned(name: str, data: bytes) -> str:
    return f"{name}?v={hashlib.sha256(data).hexdigest()[:12]}"


def fill_page(template: str, urls: dict[str, str], source: Path) -> str:
    """index.html with every @NAME@ replaced by its file's URL; an unknown
    @NAME@ is an error naming its line."""
    for number, line in enumerate(template.splitlines(), 1):
        for match in REFERENCE.finditer(line):
            if match[1] not in urls:
                raise WebBuildError(f"{rel(source)}:{number}: @{match[1]}@ names no file of the site "
                                    f"(known: {', '.join('@' + k + '@' for k in sorted(urls))})")
    unused = [k for k in urls if f"@{k}@" not in template]
    if unused:
        raise WebBuildError(f"{rel(source)}: never references {', '.join('@' + k + '@' for k in unused)}")
    return REFERENCE.sub(lambda m: urls[m[1]], template)


def check_rom(rom: Path) -> None:
    if not rom.exists():
        raise WebBuildError(f"{rel(rom)}: no ROM (build it first: make rom)")
    try:
        Cartridge.load(rom)      # a board the project models (NROM or UxROM: jsnes runs both)
    except CartridgeError as exc:
        raise WebBuildError(str(exc)) from None


def build(out: Path = SITE, rom: Path = ROM) -> list[Path]:
    """Build the site into `out` (replacing a site built before); returns its files."""
    out = Path(out).resolve()
    try:
        check_target(out, directory=True)
    except OSError as exc:
        raise WebBuildError(f"{rel(out)}: cannot be the site's folder ({exc.filename}: {exc.strerror})") from None
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        raise WebBuildError(f"{out}: exists and was not made by make web; not replacing it")
    check_rom(rom)
    install_jsnes()
    files = site_files(rom)
    data: dict[str, bytes] = {}
    for f in files:
        try:
            data[f.name] = f.source.read_bytes()
        except OSError as exc:
            raise WebBuildError(f"{rel(f.source)}: cannot read it ({exc.strerror})") from None
    urls = {f.reference: versioned(f.name, data[f.name]) for f in files if f.reference}
    page_source = WEB / "index.html"
    page = fill_page(page_source.read_text(encoding="utf-8"), urls, page_source)

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (staging / "index.html").write_text(page, encoding="utf-8")
        for name, blob in data.items():
            (staging / name).write_bytes(blob)
        (staging / MARKER).write_text("This folder is rebuilt by `make web`: edit web/ instead.\n")
        staging.chmod(0o755)
        old = None
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            out.rename(old / out.name)
        try:
            staging.rename(out)
        except BaseException:
            if old is not None:
                (old / out.name).rename(out)      # the previous site back in place
            raise
        if old is not None:
            shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sorted(p for p in out.iterdir() if p.name != MARKER)
