"""Compare a screenshot of the console with a checked-in reference PNG.

    diff = compare_screenshot(con.screen(), "emu_tests/screenshots/x.png")

Run the tests with UPDATE_SCREENSHOTS=1 to (re)write the references from
what the ROM draws now, then review the images before committing them.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from tools.atomic import save_png


@dataclass(frozen=True)
class ScreenshotDiff:
    mean: float          # mean absolute difference per channel (0-255)
    fraction: float      # fraction of pixels that differ in any channel
    actual: Path | None  # where the actual image was saved (on failure)


def compare_screenshot(img: Image.Image, reference_png: str | Path, max_mean: float = 1.0,
                       max_fraction: float = 0.002, out_dir: str | Path | None = None) -> ScreenshotDiff:
    """Compare `img` with a checked-in reference PNG.

    Passes when the mean absolute difference per channel is at most `max_mean`
    and at most `max_fraction` of the pixels differ at all.  On failure the
    actual image and a difference mask are saved to `out_dir` (default
    $SCREENSHOT_OUT or <tmp>/xiangqi-screenshots) and the AssertionError says
    where.  With UPDATE_SCREENSHOTS=1 the reference is (re)written instead.
    """
    ref_path = Path(reference_png)
    actual = np.asarray(img.convert("RGB"), dtype=np.int16)
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        save_png(img.convert("RGB"), ref_path)
        return ScreenshotDiff(0.0, 0.0, None)
    out = Path(out_dir or os.environ.get("SCREENSHOT_OUT") or Path(tempfile.gettempdir()) / "xiangqi-screenshots")
    saved = out / f"{ref_path.stem}.actual.png"
    hint = f"(if the change is intended: UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest emu_tests, then review {ref_path})"
    if not ref_path.exists():
        save_png(img.convert("RGB"), saved)
        raise AssertionError(f"no reference screenshot {ref_path}; the actual image is at {saved} {hint}")
    with Image.open(ref_path) as ref_img:
        ref = np.asarray(ref_img.convert("RGB"), dtype=np.int16)
    if ref.shape != actual.shape:
        save_png(img.convert("RGB"), saved)
        raise AssertionError(f"{ref_path}: size {ref.shape[1]}x{ref.shape[0]}, actual "
                             f"{actual.shape[1]}x{actual.shape[0]} saved at {saved} {hint}")
    diff = np.abs(actual - ref)
    mean = float(diff.mean())
    differing = diff.max(axis=2) > 0
    fraction = float(differing.mean())
    if mean <= max_mean and fraction <= max_fraction:
        return ScreenshotDiff(mean, fraction, None)
    save_png(img.convert("RGB"), saved)
    mask = out / f"{ref_path.stem}.diff.png"
    save_png(Image.fromarray(np.where(differing, 255, 0).astype(np.uint8), "L"), mask)
    raise AssertionError(f"{ref_path}: mean difference {mean:.3f} (max {max_mean}), {fraction:.4%} of pixels "
                         f"differ (max {max_fraction:.4%}); actual saved at {saved}, difference mask at "
                         f"{mask} {hint}")
