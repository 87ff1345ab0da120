"""Compare NES pictures from different emulators, up to their palettes.

Every emulator turns the PPU's 64 colour indices into RGB with its own
palette (cynes, FCEUX and Nestopia all differ), so two correct pictures of
the same frame agree pixel for pixel only up to a renaming of colours.
`palette_mismatch` finds the best such renaming (each colour of one picture
to the colour the other most often shows at the same pixels, both ways) and
counts the pixels that break it: 0 for the same frame drawn with two
palettes, more for a missing sprite, a wrong tile or a shifted picture.

`locate_frame` finds where a 256x240 NES frame sits in a screenshot of a
whole X screen (the emulator's window, menus and all), by its edges alone,
which no palette changes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Lines 8-231 are what every emulator and TV shows (many crop the first and
# last 8 of the 240).
VISIBLE_ROWS = slice(8, 232)


def colour_codes(img: np.ndarray) -> np.ndarray:
    """HxWx3 uint8 RGB (or HxW palette indices) -> HxW int64 colour codes."""
    a = np.asarray(img)
    if a.ndim == 2:
        return a.astype(np.int64)
    a = a[:, :, :3].astype(np.int64)
    return a[:, :, 0] << 16 | a[:, :, 1] << 8 | a[:, :, 2]


def _majority(src: np.ndarray, dst: np.ndarray) -> dict[int, int]:
    """For each value of src, the value of dst most often at the same place."""
    pairs, counts = np.unique(np.stack([src.ravel(), dst.ravel()]), axis=1, return_counts=True)
    best: dict[int, tuple[int, int]] = {}
    for (s, d), n in zip(pairs.T.tolist(), counts.tolist()):
        if s not in best or n > best[s][1]:
            best[s] = (d, n)
    return {s: d for s, (d, _) in best.items()}


@dataclass(frozen=True)
class PaletteMismatch:
    fraction: float              # share of pixels that break the colour renaming
    pixels: int                  # how many
    mask: np.ndarray             # HxW bool, True where they break it
    colours: dict[int, int]      # the renaming, a's colour code -> b's

    def where(self) -> str:
        """The bounding box of the mismatching pixels, for messages."""
        if not self.pixels:
            return "nowhere"
        ys, xs = np.nonzero(self.mask)
        return f"x {xs.min()}-{xs.max()}, y {ys.min()}-{ys.max()}"


def palette_mismatch(a: np.ndarray, b: np.ndarray) -> PaletteMismatch:
    """How far two pictures of the same size are from being the same picture
    in two palettes (see the module doc).  a and b: HxWx3 RGB or HxW indices."""
    ca, cb = colour_codes(a), colour_codes(b)
    if ca.shape != cb.shape:
        raise ValueError(f"pictures of different sizes: {ca.shape} and {cb.shape}")
    forward, backward = _majority(ca, cb), _majority(cb, ca)
    fwd = np.vectorize(forward.__getitem__, otypes=[np.int64])(ca)
    back = np.vectorize(backward.__getitem__, otypes=[np.int64])(cb)
    mask = (fwd != cb) | (back != ca)
    return PaletteMismatch(float(mask.mean()), int(mask.sum()), mask, forward)


def _edges(codes: np.ndarray) -> np.ndarray:
    """+1 where a pixel differs from its right or lower neighbour, -1 elsewhere."""
    e = np.zeros(codes.shape, dtype=bool)
    e[:, :-1] |= codes[:, :-1] != codes[:, 1:]
    e[:-1, :] |= codes[:-1, :] != codes[1:, :]
    return np.where(e, 1.0, -1.0)


def locate_frame(screen: np.ndarray, frame: np.ndarray) -> tuple[int, int, float]:
    """Where `frame` (hxw) best matches inside `screen` (HxW), by edges:
    (x, y, share of edge/no-edge pixels that agree there, 0.5 = chance)."""
    s, f = _edges(colour_codes(screen)), _edges(colour_codes(frame))
    (H, W), (h, w) = s.shape, f.shape
    if h > H or w > W:
        raise ValueError(f"a {w}x{h} frame cannot be inside a {W}x{H} screen")
    # Cross-correlation by FFT: score[y, x] = sum(f * s[y:y+h, x:x+w]).
    size = (H + h, W + w)
    score = np.fft.irfft2(np.fft.rfft2(s, size) * np.conj(np.fft.rfft2(f, size)), size)
    valid = score[:H - h + 1, :W - w + 1]
    y, x = np.unravel_index(int(np.argmax(valid)), valid.shape)
    agree = (valid[y, x] / f.size + 1) / 2
    return int(x), int(y), float(agree)
