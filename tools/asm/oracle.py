"""Run the real ca65 + ld65 (the test oracle; never part of the build).

Used by the differential tests and handy by hand: build the same sources
with both toolchains and compare the bytes.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile


class OracleError(Exception):
    """ca65 or ld65 rejected the input (the message is their stderr)."""


def ca65_available() -> bool:
    return shutil.which("ca65") is not None and shutil.which("ld65") is not None


def build_with_ca65(sources: list[str], config: str, include_dirs: list[str] | None = None,
                    defines: dict[str, int] | None = None, cwd: str | None = None,
                    dbgfile: str | None = None) -> bytes:
    """``ca65`` each source, then ``ld65 -C config``; returns the output bytes.

    With ``dbgfile``, the sources are assembled with ``-g`` and ld65 writes its
    debug file there (every label with its segment and the segment's offset
    in the output: an independent account of where each label went).
    """
    with tempfile.TemporaryDirectory() as tmp:
        objs = []
        for n, src in enumerate(sources):
            obj = os.path.join(tmp, f"{n}.o")
            cmd = ["ca65", src, "-o", obj] + (["-g"] if dbgfile else [])
            for d in include_dirs or []:
                cmd += ["-I", d]
            for k, v in (defines or {}).items():
                cmd += ["-D", f"{k}={v}"]
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
            if p.returncode:
                raise OracleError(p.stderr.strip() or p.stdout.strip())
            objs.append(obj)
        out = os.path.join(tmp, "out.bin")
        extra = ["--dbgfile", dbgfile] if dbgfile else []
        p = subprocess.run(["ld65", "-C", config, "-o", out, *extra, *objs], capture_output=True,
                           text=True, cwd=cwd)
        if p.returncode or not os.path.exists(out):
            raise OracleError(p.stderr.strip() or p.stdout.strip() or "ld65 wrote no output")
        with open(out, "rb") as f:
            return f.read()
