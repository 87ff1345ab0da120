"""Side outputs: FCEUX .nl, Mesen .mlb, JSON map, listing, memory report, CLI flags."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tools.asm import assemble_and_link
from tools.asm.cli import main

FIX = Path(__file__).resolve().parent / "asm_fixtures"


def _build(tmp_path: Path, capsys) -> tuple[Path, str]:
    out = tmp_path / "game.nes"
    old = os.getcwd()
    os.chdir(FIX)
    try:
        rc = main(["opcodes.s", "directives.s", "-C", "fixture.cfg", "-o", str(out), "--nl",
                   "--mlb", str(tmp_path / "game.mlb"), "--map", str(tmp_path / "game.json"),
                   "-l", str(tmp_path / "game.lst")])
    finally:
        os.chdir(old)
    assert rc == 0
    return out, capsys.readouterr().out


def test_label_files_and_map(tmp_path: Path, capsys):
    out, report = _build(tmp_path, capsys)
    image = out.read_bytes()
    assert len(image) == 16 + 32768 + 8192
    ram = (tmp_path / "game.nes.ram.nl").read_text().splitlines()
    bank0 = (tmp_path / "game.nes.0.nl").read_text().splitlines()
    bank1 = (tmp_path / "game.nes.1.nl").read_text().splitlines()
    assert "$0000#zp0#" in ram and "$0200#buf#" in ram
    assert "$8000#reset#" in bank0
    assert bank1 == []  # nothing above $C000 has a label in the fixtures
    assert any(line.endswith("#lib_routine#") for line in bank0)
    assert any("#other__inner#" in line for line in bank0)  # scope::name -> scope__name
    mlb = (tmp_path / "game.mlb").read_text().splitlines()
    assert "NesPrgRom:0:reset" in mlb and "NesInternalRam:0:zp0" in mlb
    assert "NesInternalRam:200:buf" in mlb
    m = json.loads((tmp_path / "game.json").read_text())
    assert m["segments"]["CODE"]["start"] == 0x8000
    assert m["segments"]["VECTORS"]["start"] == 0xFFFA and m["segments"]["VECTORS"]["size"] == 6
    assert m["memory"]["PRG"]["size"] == 0x8000 and m["memory"]["PRG"]["kind"] == "prg"
    assert m["memory"]["CHR"]["kind"] == "chr" and m["memory"]["ZP"]["kind"] == "ram"
    assert m["exports"]["lib_const"] == 42 and m["exports"]["__CODE_LOAD__"] == 0x8000
    # the vectors point at reset
    reset = m["labels"]["reset"]
    assert image[16 + 0x7FFA:16 + 0x7FFC] == reset.to_bytes(2, "little")
    assert report.startswith("RAM:") and re.search(r"of +2,048 bytes", report) and "of 32,768" in report
    assert "ZEROPAGE 6" in report
    lst = (tmp_path / "game.lst").read_text()
    assert "8000  69 12" in lst and "opcodes.s:19" in lst


def test_library_result(tmp_path: Path):
    old = os.getcwd()
    os.chdir(FIX)
    try:
        res = assemble_and_link(["opcodes.s", "directives.s"], "fixture.cfg")
    finally:
        os.chdir(old)
    assert res.exports["lib_zp"] < 0x100
    names = {l.name for l in res.labels}
    assert {"reset", "lib_routine", "other::inner", "fwd"} <= names


def test_define_without_value_is_zero(tmp_path: Path):
    (tmp_path / "t.s").write_text('.segment "CODE"\n.byte FLAG, VAL\n')
    (tmp_path / "t.cfg").write_text('MEMORY { M: start=$8000, size=$10, file=%O; }\n'
                                    'SEGMENTS { CODE: load=M; }\n')
    assert main([str(tmp_path / "t.s"), "-C", str(tmp_path / "t.cfg"), "-o", str(tmp_path / "o"),
                 "-D", "FLAG", "-D", "VAL=$2A", "-q"]) == 0
    assert (tmp_path / "o").read_bytes() == bytes([0, 0x2A])
