"""tools/web: the site's build (the page's file references, what it refuses
to do) and its server (types, loopback, a missing site), without a browser
or npm.  The page itself is tested in Chromium: emu_tests/test_web_page.py."""
from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from tools.web import build as web_build
from tools.web.build import MARKER, WebBuildError, build, fill_page, versioned
from tools.web.server import BackgroundServer, SiteServerError, make_server

URLS = {"ROM": "xiangqi.nes?v=1", "SCRIPT": "xiangqi.js?v=2"}


def test_fill_page_replaces_every_reference():
    page = fill_page('<body data-rom="@ROM@">\n<script src="@SCRIPT@"></script>', URLS, Path("index.html"))
    assert page == '<body data-rom="xiangqi.nes?v=1">\n<script src="xiangqi.js?v=2"></script>'


def test_fill_page_names_the_line_of_an_unknown_reference():
    with pytest.raises(WebBuildError, match=r"index.html:3: @STYLES@ names no file"):
        fill_page('@ROM@\n@SCRIPT@\n<link href="@STYLES@">', URLS, Path("index.html"))


def test_fill_page_requires_every_file_referenced():
    with pytest.raises(WebBuildError, match=r"never references @SCRIPT@"):
        fill_page("@ROM@", URLS, Path("index.html"))


def test_versioned_url_follows_the_content():
    assert versioned("a.js", b"1") != versioned("a.js", b"2")
    assert versioned("a.js", b"1") == versioned("a.js", b"1")
    assert versioned("a.js", b"1").startswith("a.js?v=")


def test_build_will_not_replace_a_folder_it_did_not_make(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(WebBuildError, match="not made by make web"):
        build(out)
    assert (out / "notes.txt").read_text() == "keep me"


def test_build_needs_the_rom(tmp_path):
    with pytest.raises(WebBuildError, match=r"no ROM \(build it first: make rom\)"):
        build(tmp_path / "site", tmp_path / "missing.nes")
    assert not (tmp_path / "site").exists()


def test_build_rejects_a_file_that_is_no_cartridge(tmp_path):
    bad = tmp_path / "bad.nes"
    bad.write_bytes(b"not a ROM")
    with pytest.raises(WebBuildError, match="not an iNES file"):
        build(tmp_path / "site", bad)


def test_build_without_npm_says_so(tmp_path, monkeypatch):
    rom = tmp_path / "x.nes"
    rom.write_bytes(b"NES\x1a" + bytes([2, 0, 0, 0]) + bytes(8) + bytes(0x8000))   # NROM-256
    monkeypatch.setattr(web_build, "installed_jsnes", lambda: None)
    monkeypatch.setattr(web_build.shutil, "which", lambda name: None)
    with pytest.raises(WebBuildError, match="npm is not installed"):
        build(tmp_path / "site", rom)
    assert not (tmp_path / "site").exists()


def test_server_serves_the_site_on_loopback(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    (tmp_path / "x.nes").write_bytes(b"NES\x1a")
    (tmp_path / MARKER).write_text("")
    with BackgroundServer(tmp_path) as server:
        assert server.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.url + "x.nes", timeout=10) as answer:
            assert answer.headers["Content-Type"] == "application/octet-stream"
            assert answer.headers["Cache-Control"] == "no-cache"
            assert answer.read() == b"NES\x1a"
        with urllib.request.urlopen(server.url, timeout=10) as answer:
            assert answer.headers["Content-Type"] == "text/html; charset=utf-8"


def test_server_needs_a_built_site(tmp_path):
    with pytest.raises(SiteServerError, match=r"no index.html \(build the site first: make web\)"):
        make_server(tmp_path, port=0)
