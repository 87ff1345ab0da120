"""Tests for tools/rom/chr.py, the PNG -> NES CHR converter."""

import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tools.rom import chr as chrtool

ROOT = Path(__file__).resolve().parents[1]


def indexed(w, h, pixels=None):
    img = Image.new("P", (w, h), 0)
    img.putpalette([0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255] + [9] * 3 * 252)
    if pixels:
        px = img.load()
        for (x, y), v in pixels.items():
            px[x, y] = v
    return img


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "tools.rom.chr", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True)


def test_known_tile_encoding():
    # Row 0: pixel 0 = colour 1, pixel 7 = colour 2; row 7: pixel 0 = colour 3.
    img = indexed(8, 8, {(0, 0): 1, (7, 0): 2, (0, 7): 3})
    data = chrtool.convert_image(img, "t.png")
    assert len(data) == 16
    assert data[0] == 0x80 and data[8] == 0x01   # plane 0 / plane 1 of row 0
    assert data[7] == 0x80 and data[15] == 0x80  # colour 3 sets both planes


def test_tile_order_left_to_right_then_down():
    img = indexed(16, 16, {(8, 0): 1, (0, 8): 2})
    data = chrtool.convert_image(img)
    assert len(data) == 64
    assert data[16] == 0x80            # tile 1 = (1,0): plane 0 row 0
    assert data[32 + 8] == 0x80        # tile 2 = (0,1): plane 1 row 0


def test_round_trip_random():
    rng = random.Random(1234)
    img = indexed(32, 24)
    px = img.load()
    for y in range(24):
        for x in range(32):
            px[x, y] = rng.randrange(4)
    data = chrtool.convert_image(img)
    back = chrtool.chr_to_image(data, cols=4)
    assert back.size == (32, 24)
    assert back.tobytes() == img.tobytes()


def test_rgb_with_declared_palette(tmp_path):
    pal = ((10, 20, 30), (200, 0, 0), (0, 200, 0), (0, 0, 200))
    img = Image.new("RGB", (8, 8), pal[0])
    img.putpixel((1, 0), pal[3])
    data = chrtool.convert_image(img, "x.png", palette=pal)
    assert data[0] == 0x40 and data[8] == 0x40


def test_error_size_not_multiple_of_8():
    with pytest.raises(chrtool.ChrError, match=r"bad\.png: image size 12x8 is not a multiple of 8x8"):
        chrtool.convert_image(indexed(12, 8), "bad.png")


def test_error_too_many_tiles():
    with pytest.raises(chrtool.ChrError, match=r"big\.png: 512 tiles .* more than the limit of 256"):
        chrtool.convert_image(indexed(256, 128), "big.png")


def test_error_more_than_4_colours_in_tile():
    img = Image.new("RGB", (16, 8), (0, 0, 0))
    for i, c in enumerate([(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)]):
        img.putpixel((8 + i, 3), c)
    with pytest.raises(chrtool.ChrError, match=r"five\.png: tile \(1,0\): 5 colours in one tile"):
        chrtool.convert_image(img, "five.png")


def test_error_colour_not_in_palette():
    img = Image.new("RGB", (8, 16), (0, 0, 0))
    img.putpixel((5, 9), (255, 0, 0))
    with pytest.raises(chrtool.ChrError,
                       match=r"red\.png: tile \(0,1\): pixel \(5,1\) has colour #FF0000, "
                             r"not in the declared palette"):
        chrtool.convert_image(img, "red.png")


def test_error_indexed_colour_above_3():
    img = indexed(8, 8, {(2, 3): 7})
    with pytest.raises(chrtool.ChrError, match=r"tile \(0,0\): pixel \(2,3\) has colour index 7"):
        chrtool.convert_image(img, "i.png")


def test_cli_success_and_atomic_output(tmp_path):
    src = tmp_path / "ok.png"
    indexed(16, 8, {(0, 0): 3}).save(src)
    out = tmp_path / "ok.chr"
    r = run_cli(src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:1] == b"\x80" and len(out.read_bytes()) == 32
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_cli_error_exit_and_no_partial_output(tmp_path):
    src = tmp_path / "bad.png"
    img = Image.new("RGB", (8, 8), (0, 0, 0))
    img.putpixel((0, 0), (1, 2, 3))
    img.save(src)
    out = tmp_path / "bad.chr"
    out.write_bytes(b"old")
    r = run_cli(src, "-o", out)
    assert r.returncode == 1
    assert "bad.png: tile (0,0): pixel (0,0) has colour #010203" in r.stderr
    assert out.read_bytes() == b"old"               # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.chr", "bad.png"]


def test_cli_missing_file(tmp_path):
    r = run_cli(tmp_path / "nope.png", "-o", tmp_path / "x.chr")
    assert r.returncode == 1
    assert "nope.png: cannot read image" in r.stderr
    assert not (tmp_path / "x.chr").exists()


def test_cli_bad_palette(tmp_path):
    src = tmp_path / "a.png"
    indexed(8, 8).save(src)
    r = run_cli(src, "-o", tmp_path / "a.chr", "--palette", "000000,FFFFFF")
    assert r.returncode == 1 and "exactly 4 colours" in r.stderr
