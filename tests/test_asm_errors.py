"""Every error names file:line:col and the problem, exits 1 and writes no output file."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tools.asm import AsmError, assemble_and_link
from tools.asm.cli import main

FIX = Path(__file__).resolve().parent / "asm_fixtures"

# (source, expected "file:line:col: error: ..." regex); t.s is the source, t.cfg the fixture config.
CASES = {
    "undefined symbol": ('.segment "CODE"\n  lda nowhere\n', r"t\.s:2:7: error: undefined symbol 'nowhere'"),
    "undefined cheap local": ('.segment "CODE"\nx: jmp @nope\n', r"t\.s:2:8: error: undefined symbol '@nope'"),
    "undefined anonymous": ('.segment "CODE"\n  bne :+\n', r"t\.s:2:7: error: undefined anonymous label"),
    "duplicate label": ('.segment "CODE"\nfoo: nop\nfoo: nop\n',
                        r"t\.s:3:1: error: duplicate label 'foo' \(first defined at t\.s:2:1\)"),
    "branch out of range": ('.segment "CODE"\nstart: .res 200\n  bne start\n',
                            r"t\.s:3:7: error: branch out of range \(distance -202, must be -128\.\.127\)"),
    "branch out of range at link": ('.segment "CODE"\n  bne far\n.segment "RODATA"\nfar: nop\n',
                                    r"t\.s:2:7: error: branch out of range \(distance 254,"),
    "immediate out of range": ('.segment "CODE"\n  lda #$100\n',
                               r"t\.s:2:7: error: value 256 \(\$100\) out of range for immediate operand \(0\.\.255\)"),
    "indirect out of range": ('.segment "CODE"\n  lda ($1234),y\n',
                              r"t\.s:2:7: error: value 4660 \(\$1234\) out of range for indirect \(zero page\) operand"),
    "byte out of range": ('.segment "CODE"\n  .byte 1, 300\n', r"t\.s:2:12: error: value 300 \(\$12C\) out of range for byte"),
    "word out of range": ('.segment "CODE"\n  .word $10000\n', r"t\.s:2:9: error: value 65536 .* out of range for word"),
    "address in a byte": ('.segment "CODE"\nl: lda #l\n', r"t\.s:2:8: error: value out of range for immediate operand: the expression is a 16-bit address"),
    "unknown mnemonic": ('.segment "CODE"\n  foo $10\n', r"t\.s:2:3: error: unknown mnemonic 'foo'"),
    "undocumented opcode": ('.segment "CODE"\n  lax $10\n', r"t\.s:2:3: error: unknown mnemonic 'lax'"),
    "unknown directive": ('.segment "CODE"\n  .frobnicate 1\n', r"t\.s:2:3: error: unknown directive '\.frobnicate'"),
    "bad mode zp only": ('.segment "CODE"\n  stx $1234,y\n', r"t\.s:2:7: error: illegal addressing mode for 'stx'"),
    "bad mode immediate": ('.segment "CODE"\n  jmp #1\n', r"t\.s:2:7: error: illegal addressing mode \(immediate\) for 'jmp'"),
    "bad mode implied": ('.segment "CODE"\n  inx $10\n', r"t\.s:2:7: error: illegal addressing mode for 'inx'"),
    "bad index register": ('.segment "CODE"\n  lda (1),x\n', r"t\.s:2:11: error: illegal addressing mode \(index register Y expected\)"),
    "z: on an address": ('.segment "CODE"\nl: lda z:l\n', r"t\.s:2:8: error: illegal addressing mode for 'lda' \(z: on a 16-bit address\)"),
    "trailing garbage": ('.segment "CODE"\n  lda #1 2\n', r"t\.s:2:10: error: unexpected '2' \(end of line expected\)"),
    "memory overflow": ('.segment "CODE"\n  .res $8002\n',
                        r"t\.cfg:7:5: error: memory area 'PRG' overflows by 2 bytes \(segment 'CODE', size 32770\)"),
    "segment overflow": ('.segment "HEADER"\n  .res 17\n', r"t\.cfg:6:5: error: memory area 'HEADER' overflows by 1 byte "),
    "segment start overlap": ('.segment "CODE"\n  .res $7FF0\n.segment "VECTORS"\n.word 1\n',
                              r"t\.cfg:18:5: error: segment 'VECTORS' would start at \$FFFA .*overlap by 6 bytes"),
    "assert": ('.segment "CODE"\n  .assert 1 = 2, error, "one is not two"\n', r"t\.s:2:3: error: \.assert failed: one is not two"),
    "assert at link": ('.segment "CODE"\n  .assert lab = 2, error, "link time"\nlab: nop\n',
                       r"t\.s:2:3: error: \.assert failed: link time"),
    "include not found": ('.segment "CODE"\n  .include "nothere.inc"\n', r"t\.s:2:12: error: include file 'nothere\.inc' not found"),
    "incbin not found": ('.segment "CODE"\n  .incbin "nothere.bin"\n', r"t\.s:2:11: error: include file 'nothere\.bin' not found"),
    "macro recursion": ('.macro m\n  m\n.endmacro\n.segment "CODE"\n  m\n',
                        r"t\.s:2:3: error: macro recursion too deep in 'm' \(depth limit 64\)"),
    ".error": ('.segment "CODE"\n  .error "custom stop"\n', r"t\.s:2:3: error: \.error: custom stop"),
    "unresolved import": ('.import ext\n.segment "CODE"\n  jmp ext\n', r"t\.s:1:9: error: unresolved external symbol 'ext'"),
    "segment not in config": ('.segment "NOSUCH"\n  nop\n', r"t\.s:1:10: error: segment 'NOSUCH' is not defined in the linker config"),
    "unclosed proc": ('.segment "CODE"\n.proc p\n nop\n', r"t\.s:2:1: error: '\.proc' without '\.endproc'"),
    "unclosed if": ('.segment "CODE"\n.if 1\n nop\n', r"t\.s:2:1: error: '\.if' without '\.endif'"),
    "division by zero": ('.segment "CODE"\n  .byte 1/0\n', r"t\.s:2:9: error: division by zero"),
    "non-constant .res": ('.segment "CODE"\n  .res fwd\nfwd = 1\n', r"t\.s:2:8: error: constant expression expected"),
    # ca65: inside a scope a bare name defined only outside is no constant yet (::NAME is)
    "outer name in .if": ('K = 2\n.segment "CODE"\n.proc p\n  .if K = 2\n  .endif\n.endproc\n',
                          r"t\.s:4:7: error: constant expression expected: 'K' is not defined in scope 'p' "
                          r"\(yet\), and ca65 binds it to the outer 'K' only at the end of the file; "
                          r"write '::K'$"),
    "outer name in .repeat": ('K = 2\n.segment "CODE"\n.scope s\n  .repeat 1+K\n  .endrep\n.endscope\n',
                              r"t\.s:4:13: error: constant expression expected: 'K' is not defined in "
                              r"scope 's' \(yet\).*write '::K'$"),
    "parent scope name in .res": ('.segment "CODE"\n.proc p\nN = 1\n.proc q\n  .res N\n.endproc\n.endproc\n',
                                  r"t\.s:5:8: error: constant expression expected: 'N' is not defined in "
                                  r"scope 'p::q' \(yet\), and ca65 binds it to the outer 'p::N' .*; "
                                  r"write '::p::N'$"),
    "outer name via local const": ('K = 2\n.segment "CODE"\n.proc p\nJ = K\n  .if J\n  .endif\n.endproc\n',
                                   r"t\.s:5:7: error: constant expression expected: 'K' \(used by 'J'\) "
                                   r"is not defined in scope 'p' \(yet\).*write '::K'$"),
    "outer name from macro argument": ('UP = 2\n.macro m d\n  .if d > 0\n  .endif\n.endmacro\n'
                                       '.segment "CODE"\n.proc p\n  m UP\n.endproc\n',
                                       r"t\.s:8:5: error: constant expression expected: 'UP' is not "
                                       r"defined in scope 'p' \(yet\).*write '::UP' "
                                       r"\(in macro 'm' called at t\.s:8:3\)$"),
    "undefined export": ('.export nothing\n.segment "CODE"\n nop\n', r"t\.s:1:9: error: exported symbol 'nothing' is undefined"),
    "bad character": ('.segment "CODE"\n  lda #1 ?\n', r"t\.s:2:10: error: invalid character '\?'"),
    "used but never defined": ('.segment "CODE"\nK = NOPE + 1\n  nop\n', r"t\.s:2:5: error: undefined symbol 'NOPE'"),
    # .bank(): fixture.cfg gives no memory area a `bank` attribute
    ".bank of an area without bank": ('.segment "CODE"\nl: .word .bank(l)\n',
                                      r"t\.s:2:10: error: \.bank\(\): memory area 'PRG' \(of segment 'CODE', "
                                      r"defined at t\.cfg:7:5\) has no 'bank' attribute$"),
    ".bank of a zero page label": ('.segment "ZEROPAGE"\nzv: .res 1\n.segment "CODE"\n  lda .bank(zv)\n',
                                   r"t\.s:4:7: error: \.bank\(\): memory area 'ZP' .* has no 'bank' attribute"),
    ".bank of a constant": ('.segment "CODE"\n  .word .bank(5)\n',
                            r"t\.s:2:9: error: \.bank\(\) needs one label \(or '\*'\), plus or minus constants"),
    ".bank of two labels": ('.segment "CODE"\nla: nop\nlb: .word .bank(lb - la)\n',
                            r"t\.s:3:11: error: \.bank\(\) needs one label"),
    ".bank in an immediate": ('.segment "CODE"\nl: lda #.bank(l)\n',
                              r"t\.s:2:8: error: value out of range for immediate operand: \.bank\(\) of a "
                              r"16-bit address has that address size in ca65 \(write <\.bank\(\.\.\.\)\)"),
    ".bank in .if": ('.segment "CODE"\nl: nop\n.if .bank(l)\n.endif\n', r"t\.s:3:5: error: constant expression expected"),
}

# Linker config errors: (config, expected message); t.s is a small valid program.
CFG_OK_SOURCE = '.segment "CODE"\n  nop\n'
_SEGS = "SEGMENTS {\n    CODE: load = PRG;\n}\n"
CFG_CASES = {
    "memory area defined twice": ("MEMORY {\n    PRG: start = $8000, size = $100;\n    PRG: start = $9000, size = $100;\n}\n"
                                  + _SEGS,
                                  r"t\.cfg:3:5: error: memory area 'PRG' is defined twice \(first at t\.cfg:2:5\)$"),
    "segment defined twice": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n"
                              "SEGMENTS {\n    CODE: load = PRG;\n    CODE: load = PRG;\n}\n",
                              r"t\.cfg:6:5: error: segment 'CODE' is defined twice \(first at t\.cfg:5:5\)$"),
    "unknown memory attribute": ("MEMORY {\n    PRG: start = $8000, size = $100, fil = yes;\n}\n" + _SEGS,
                                 r"t\.cfg:2:38: error: unknown attribute 'fil' for memory area 'PRG' \(known: "
                                 r"bank, define, file, fill, fillval, size, start, type\)$"),
    "unknown segment attribute": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n"
                                  "SEGMENTS {\n    CODE: load = PRG, bnak = 1;\n}\n",
                                  r"t\.cfg:5:23: error: unknown attribute 'bnak' for segment 'CODE'"),
    "attribute given twice": ("MEMORY {\n    PRG: start = $8000, size = $100, bank = 1, bank = 2;\n}\n" + _SEGS,
                              r"t\.cfg:2:48: error: attribute 'bank' of memory area 'PRG' is given twice "
                              r"\(first at t\.cfg:2:38\)$"),
    "unknown memory type": ("MEMORY {\n    PRG: start = $8000, size = $100, type = rx;\n}\n" + _SEGS,
                            r"t\.cfg:2:45: error: 'type' of memory area 'PRG' must be one of ro, rw; got 'rx'$"),
    "unknown segment type": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n"
                             "SEGMENTS {\n    CODE: load = PRG, type = code;\n}\n",
                             r"t\.cfg:5:30: error: 'type' of segment 'CODE' must be one of ro, rw, bss, zp; "
                             r"got 'code'$"),
    "invalid file": ("MEMORY {\n    PRG: start = $8000, size = $100, file = yes;\n}\n" + _SEGS,
                     r"t\.cfg:2:45: error: 'file' of memory area 'PRG' must be a string \(%O or \"\"\), got 'yes'$"),
    "other output file": ("MEMORY {\n    PRG: start = $8000, size = $100, file = \"x.bin\";\n}\n" + _SEGS,
                          r"t\.cfg:2:45: error: memory area 'PRG': file = \"x\.bin\" is not supported"),
    "invalid fill": ("MEMORY {\n    PRG: start = $8000, size = $100, fill = maybe;\n}\n" + _SEGS,
                     r"t\.cfg:2:45: error: 'fill' of memory area 'PRG' must be yes, no, true, false or a "
                     r"number, got 'maybe'$"),
    "fill as a string": ("MEMORY {\n    PRG: start = $8000, size = $100, fill = \"yes\";\n}\n" + _SEGS,
                         r"t\.cfg:2:45: error: 'fill' of memory area 'PRG' must be .*, got \"yes\"$"),
    "invalid define": ("MEMORY {\n    PRG: start = $8000, size = $100, define = perhaps;\n}\n" + _SEGS,
                       r"t\.cfg:2:47: error: 'define' of memory area 'PRG' must be yes, no, true, false"),
    "invalid optional": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n"
                         "SEGMENTS {\n    CODE: load = PRG, optional = often;\n}\n",
                         r"t\.cfg:5:34: error: 'optional' of segment 'CODE' must be yes, no, true, false"),
    "huge filled area": ("MEMORY {\n    PRG: start = $8000, size = $100000000, fill = yes;\n}\n" + _SEGS,
                         r"t\.cfg:2:5: error: memory area 'PRG' \(start \$8000, size \$100000000, fill = yes\) "
                         r"would make the output 4,294,967,296 bytes long, over the limit of 16,777,216 bytes "
                         r"\(16 MiB\)$"),
    "huge start": ("MEMORY {\n    PRG: start = $0, size = $2000000;\n}\n"
                   "SEGMENTS {\n    CODE: load = PRG, start = $1000000;\n}\n",
                   r"t\.cfg:2:5: error: memory area 'PRG' \(start \$0, size \$2000000\) would make the "
                   r"output 16,777,217 bytes long"),
    "segment start out of range": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n"
                                   "SEGMENTS {\n    CODE: load = PRG, start = $1000001;\n}\n",
                                   r"t\.cfg:5:31: error: 'start' of segment 'CODE' must be \$0\.\.\$1000000, "
                                   r"got 16777217 \(\$1000001\)$"),
    "unknown memory area": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n"
                            "SEGMENTS {\n    CODE: load = ROM;\n}\n",
                            r"t\.cfg:5:18: error: 'load' of segment 'CODE': unknown memory area 'ROM'$"),
    "unknown section": ("MEMORY {\n    PRG: start = $8000, size = $100;\n}\n" + _SEGS + "SEGMENT {\n}\n",
                        r"t\.cfg:7:1: error: unknown linker config section 'SEGMENT'"),
    "unresolved name in bank": ("MEMORY {\n    PRG: start = $8000, size = $100, bank = LAST;\n}\n" + _SEGS,
                                r"t\.cfg:2:45: error: unresolved symbol 'LAST' in a 'bank' attribute$"),
    "missing semicolon": ("MEMORY {\n    PRG: start = $8000, size = $100\n}\n" + _SEGS,
                          r"t\.cfg:3:1: error: ';' expected after the attributes of memory area 'PRG', got '\}'$"),
    "binary number": ("MEMORY {\n    PRG: start = %1000, size = $100;\n}\n" + _SEGS,
                      r"t\.cfg:2:18: error: invalid format specification '%1' in linker config"),
}


def _run(tmp_path: Path, source: str, capsys) -> tuple[int, str]:
    (tmp_path / "t.s").write_text(source)
    (tmp_path / "t.cfg").write_text((FIX / "fixture.cfg").read_text())
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        rc = main(["t.s", "-C", "t.cfg", "-o", "out.bin", "--nl", "--mlb", "out.mlb",
                   "--map", "out.json", "-l", "out.lst"])
    finally:
        os.chdir(old)
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_message_and_no_output(tmp_path: Path, capsys, name: str):
    source, pattern = CASES[name]
    rc, err = _run(tmp_path, source, capsys)
    assert rc == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one clean line, no traceback
    assert re.match(pattern, lines[0]), lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.cfg", "t.s"]  # nothing written


@pytest.mark.parametrize("name", sorted(CFG_CASES))
def test_config_error_message_and_no_output(tmp_path: Path, capsys, name: str):
    cfg, pattern = CFG_CASES[name]
    (tmp_path / "t.s").write_text(CFG_OK_SOURCE)
    (tmp_path / "t.cfg").write_text(cfg)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        rc = main(["t.s", "-C", "t.cfg", "-o", "out.bin", "--nl", "--mlb", "out.mlb",
                   "--map", "out.json", "-l", "out.lst"])
    finally:
        os.chdir(old)
    err = capsys.readouterr().err
    assert rc == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one clean line, no traceback (and no MemoryError)
    assert re.match(pattern, lines[0]), lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.cfg", "t.s"]  # nothing written


def test_overlapping_banked_areas_are_fine(tmp_path: Path):
    """Banks share $8000: their areas overlap in address, each has its own place in the file."""
    (tmp_path / "t.s").write_text('.segment "B0"\nl0: .byte <.bank(l0)\n.segment "B1"\nl1: .byte <.bank(l1)\n')
    (tmp_path / "t.cfg").write_text(
        "MEMORY {\n    P0: start = $8000, size = $4000, fill = yes, bank = 0;\n"
        "    P1: start = $8000, size = $4000, fill = yes, bank = 1;\n}\n"
        "SEGMENTS {\n    B0: load = P0;\n    B1: load = P1;\n}\n")
    image = assemble_and_link([str(tmp_path / "t.s")], str(tmp_path / "t.cfg")).image
    assert len(image) == 0x8000 and image[0] == 0 and image[0x4000] == 1


def test_duplicate_export_across_files(tmp_path: Path, capsys):
    (tmp_path / "a.s").write_text('.export x\n.segment "CODE"\nx: nop\n')
    (tmp_path / "b.s").write_text('.export x\n.segment "CODE"\nx: nop\n')
    (tmp_path / "t.cfg").write_text((FIX / "fixture.cfg").read_text())
    rc = main([str(tmp_path / "a.s"), str(tmp_path / "b.s"), "-C", str(tmp_path / "t.cfg"),
               "-o", str(tmp_path / "o.bin")])
    err = capsys.readouterr().err
    assert rc == 1 and "b.s:1:9: error: duplicate export 'x'" in err
    assert not (tmp_path / "o.bin").exists()


def test_library_raises_one_error_type_with_position(tmp_path: Path):
    (tmp_path / "t.s").write_text('.segment "CODE"\n  nop\n  bogus\n')
    (tmp_path / "t.cfg").write_text((FIX / "fixture.cfg").read_text())
    with pytest.raises(AsmError) as e:
        assemble_and_link([str(tmp_path / "t.s")], str(tmp_path / "t.cfg"))
    assert e.value.file.endswith("t.s") and (e.value.line, e.value.col) == (3, 3)
    assert "unknown mnemonic 'bogus'" in e.value.message


def test_missing_source_and_config(tmp_path: Path, capsys):
    assert main([str(tmp_path / "none.s"), "-C", str(FIX / "fixture.cfg"), "-o", str(tmp_path / "o")]) == 1
    assert "cannot open source file" in capsys.readouterr().err
    (tmp_path / "t.s").write_text("nop\n")
    assert main([str(tmp_path / "t.s"), "-C", str(tmp_path / "no.cfg"), "-o", str(tmp_path / "o")]) == 1
    assert "cannot open linker config" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_warnings_do_not_fail(tmp_path: Path, capsys):
    (tmp_path / "t.s").write_text('.segment "CODE"\n  .assert 0, warning, "just saying"\n  nop\n')
    (tmp_path / "t.cfg").write_text((FIX / "fixture.cfg").read_text())
    assert main([str(tmp_path / "t.s"), "-C", str(tmp_path / "t.cfg"), "-o", str(tmp_path / "o"), "-q"]) == 0
    assert "warning: just saying" in capsys.readouterr().err


def test_error_inside_macro_names_the_call(tmp_path: Path, capsys):
    rc, err = _run(tmp_path, '.macro setv v\n  lda #v\n.endmacro\n.segment "CODE"\n  setv 300\n', capsys)
    assert rc == 1
    assert re.match(r"t\.s:2:7: error: value 300 .* \(in macro 'setv' called at t\.s:5:3\)", err), err


def test_unwritable_side_output_leaves_no_output(tmp_path: Path, capsys):
    (tmp_path / "t.s").write_text('.segment "CODE"\n  nop\n')
    (tmp_path / "t.cfg").write_text((FIX / "fixture.cfg").read_text())
    rc = main([str(tmp_path / "t.s"), "-C", str(tmp_path / "t.cfg"), "-o", str(tmp_path / "o.bin"),
               "--map", str(tmp_path / "missing" / "o.json")])
    assert rc == 1
    assert "cannot write" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.cfg", "t.s"]
