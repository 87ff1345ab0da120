"""Write a file whole or not at all.

Every file the host tools write (CHR, generated tables, screenshots, the
demo GIF) goes through a temporary file in the same directory, renamed into
place only when complete, so an error or an interrupt never leaves a
partial file behind.  (tools/asm has its own copy: the assembler stands
alone.)
"""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

from PIL import Image


def check_target(path: str | Path, directory: bool = False) -> None:
    """Raise OSError (naming the culprit) if `path` cannot become a file (or,
    with `directory`, a folder of files): a directory in the way, a parent
    that is a file, or a folder where no file can be created (tried: a
    temporary file is made and removed).  A tool that writes after a long
    run checks its outputs first."""
    path = Path(path)
    if path.exists() and path.is_dir() != directory:
        code = errno.ENOTDIR if directory else errno.EISDIR
        raise OSError(code, os.strerror(code), str(path))
    folder = path if directory and path.is_dir() else None
    for parent in path.parents:
        if folder is not None:
            break
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent))
            folder = parent
    try:
        with tempfile.TemporaryFile(dir=folder or Path(".")):
            pass
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def write_atomic(path: str | Path, data: bytes | Callable[[BinaryIO], None]) -> None:
    """Write `data` (bytes, or a function writing to a binary file) to path
    through a temporary file and a rename.  The file gets the usual mode
    (0666 less the umask), not mkstemp's 0600.  A path that is a directory,
    or lies under a file, raises OSError naming it before anything is written."""
    path = Path(path)
    check_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_png(image: Image.Image, path: str | Path) -> None:
    """An image as an optimized PNG, atomically."""
    write_atomic(path, lambda f: image.save(f, format="PNG", optimize=True))
