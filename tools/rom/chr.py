"""PNG -> NES CHR converter (2 bits per pixel, 8x8 tiles, 16 bytes each).

Usage:
    python -m tools.rom.chr IN.png -o OUT.chr [--palette C0,C1,C2,C3] [--max-tiles N]

Tiles are read left to right, then top to bottom.  Each 8x8 tile becomes
16 bytes: 8 bytes of bit plane 0 (colour bit 0, one byte per row, leftmost
pixel in bit 7) followed by 8 bytes of bit plane 1 (colour bit 1).

Palette convention (the art in assets/ follows the first rule):
  * An indexed PNG (mode "P") gives the colour index directly: pixel value
    0-3 is the NES colour index in the tile.  The PNG's own palette only
    serves to preview the art; the NES colours come from the ROM's palette
    table (asm/ui/board_view.s).
  * Any other image (RGB, RGBA, greyscale) is mapped through a declared
    palette of exactly 4 colours, index 0 first.  The default palette is
    black, dark grey, light grey, white (#000000,#555555,#AAAAAA,#FFFFFF).

Errors name the file, the tile (column, row in tiles) and what is wrong;
the program then exits with status 1 and writes nothing (the output goes
to a temporary file that replaces OUT only once it is complete).  Only PNG
files are read, whatever their name; an image with more tiles than
--max-tiles is refused from its header, before its pixels are decoded.
"""

from __future__ import annotations

import argparse
import sys

from PIL import Image

from tools.atomic import write_atomic

TILE_W = 8
TILE_H = 8
BYTES_PER_TILE = 16
DEFAULT_PALETTE = ((0x00, 0x00, 0x00), (0x55, 0x55, 0x55),
                   (0xAA, 0xAA, 0xAA), (0xFF, 0xFF, 0xFF))
DEFAULT_MAX_TILES = 256  # one 4 KiB pattern table


class ChrError(Exception):
    """A conversion error whose message names the file and the tile."""


def parse_palette(text: str) -> tuple[tuple[int, int, int], ...]:
    """Parse "#RRGGBB,#RRGGBB,#RRGGBB,#RRGGBB" (the '#' is optional)."""
    parts = [p.strip().lstrip("#") for p in text.split(",") if p.strip()]
    if len(parts) != 4:
        raise ChrError(f"--palette needs exactly 4 colours, got {len(parts)}")
    colours = []
    for p in parts:
        if len(p) != 6:
            raise ChrError(f"--palette colour {p!r} is not RRGGBB hex")
        try:
            colours.append((int(p[0:2], 16), int(p[2:4], 16), int(p[4:6], 16)))
        except ValueError:
            raise ChrError(f"--palette colour {p!r} is not RRGGBB hex") from None
    return tuple(colours)


def _pixel_rows(img: Image.Image):
    """Return (width, height, get(x, y) -> key) for the image.

    For indexed images the key is the palette index; for everything else
    it is an (R, G, B) tuple (alpha is ignored: fully transparent pixels
    keep their stored colour).
    """
    if img.mode == "P":
        data = img.tobytes()
        w = img.width
        return lambda x, y: data[y * w + x]
    rgb = img.convert("RGB")
    px = rgb.load()
    return lambda x, y: px[x, y]


def _fmt_colour(key) -> str:
    if isinstance(key, int):
        return f"index {key}"
    return "#%02X%02X%02X" % key


def convert_image(img: Image.Image, name: str = "<image>",
                  palette=None, max_tiles: int = DEFAULT_MAX_TILES) -> bytes:
    """Convert a Pillow image to CHR bytes.  Raises ChrError."""
    w, h = img.size
    if w % TILE_W or h % TILE_H or w == 0 or h == 0:
        raise ChrError(f"{name}: image size {w}x{h} is not a multiple of 8x8")
    cols, rows = w // TILE_W, h // TILE_H
    if cols * rows > max_tiles:
        raise ChrError(f"{name}: {cols * rows} tiles ({cols}x{rows}) is more "
                       f"than the limit of {max_tiles}")
    get = _pixel_rows(img)
    indexed = img.mode == "P"
    if not indexed:
        pal = tuple(palette) if palette is not None else DEFAULT_PALETTE
        lookup = {tuple(c): i for i, c in enumerate(pal)}
    out = bytearray()
    for ty in range(rows):
        for tx in range(cols):
            keys = [[get(tx * TILE_W + x, ty * TILE_H + y) for x in range(TILE_W)]
                    for y in range(TILE_H)]
            distinct = sorted({k for row in keys for k in row})
            if len(distinct) > 4:
                listed = ", ".join(_fmt_colour(k) for k in distinct)
                raise ChrError(f"{name}: tile ({tx},{ty}): {len(distinct)} colours "
                               f"in one tile, at most 4 allowed ({listed})")
            for y in range(TILE_H):
                for x in range(TILE_W):
                    k = keys[y][x]
                    if indexed:
                        if k > 3:
                            raise ChrError(
                                f"{name}: tile ({tx},{ty}): pixel ({x},{y}) has "
                                f"colour index {k}, not in palette 0-3")
                    elif k not in lookup:
                        raise ChrError(
                            f"{name}: tile ({tx},{ty}): pixel ({x},{y}) has colour "
                            f"{_fmt_colour(k)}, not in the declared palette "
                            + ",".join(_fmt_colour(c) for c in pal))
            idx = keys if indexed else [[lookup[k] for k in row] for row in keys]
            plane0 = bytearray(8)
            plane1 = bytearray(8)
            for y in range(TILE_H):
                b0 = b1 = 0
                for x in range(TILE_W):
                    c = idx[y][x]
                    b0 = (b0 << 1) | (c & 1)
                    b1 = (b1 << 1) | ((c >> 1) & 1)
                plane0[y] = b0
                plane1[y] = b1
            out += plane0 + plane1
    return bytes(out)


def convert_file(path, palette=None, max_tiles: int = DEFAULT_MAX_TILES) -> bytes:
    """Open a PNG and convert it.  Raises ChrError (also for unreadable files,
    other image formats, and images too big for max_tiles, refused from
    their header before any pixel is decoded)."""
    name = str(path)
    try:
        with Image.open(path) as img:
            if img.format != "PNG":
                raise ChrError(f"{name}: a {img.format} image, not a PNG")
            w, h = img.size
            if (w // TILE_W) * (h // TILE_H) > max_tiles:
                raise ChrError(f"{name}: {w}x{h} pixels is more than the limit of {max_tiles} tiles")
            img.load()
            return convert_image(img, name, palette, max_tiles)
    except ChrError:
        raise
    except Exception as exc:  # noqa: BLE001 - Pillow's decoders raise many types on a broken file
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ChrError(f"{name}: cannot read image: {why}") from None


def chr_to_image(data: bytes, cols: int = 16) -> Image.Image:
    """Inverse conversion (for tests and previews): CHR bytes -> indexed image."""
    if len(data) % BYTES_PER_TILE:
        raise ValueError("CHR data is not a whole number of tiles")
    ntiles = len(data) // BYTES_PER_TILE
    rows = (ntiles + cols - 1) // cols
    img = Image.new("P", (cols * TILE_W, rows * TILE_H), 0)
    img.putpalette([0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255])
    px = img.load()
    for t in range(ntiles):
        tile = data[t * 16:(t + 1) * 16]
        ox, oy = (t % cols) * TILE_W, (t // cols) * TILE_H
        for y in range(TILE_H):
            for x in range(TILE_W):
                bit = 7 - x
                px[ox + x, oy + y] = ((tile[y] >> bit) & 1) | (((tile[8 + y] >> bit) & 1) << 1)
    return img


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.rom.chr",
                                 description="Convert a PNG tile sheet to NES CHR.")
    ap.add_argument("png", help="input image (indexed PNG, or RGB with --palette)")
    ap.add_argument("-o", "--output", required=True, help="output .chr file")
    ap.add_argument("--palette", help="4 colours C0,C1,C2,C3 as RRGGBB hex, "
                    "for non-indexed images")
    ap.add_argument("--max-tiles", type=int, default=DEFAULT_MAX_TILES,
                    help="refuse images with more tiles (default 256 = 4 KiB)")
    args = ap.parse_args(argv)
    try:
        pal = parse_palette(args.palette) if args.palette else None
        if args.max_tiles < 1:
            raise ChrError(f"--max-tiles must be at least 1, got {args.max_tiles}")
        data = convert_file(args.png, pal, args.max_tiles)
        write_atomic(args.output, data)
    except ChrError as exc:
        print(f"chr.py: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"chr.py: error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
