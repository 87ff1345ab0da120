"""Banked (UxROM) linking: .bank(), the config's `bank` attribute, per-bank outputs.

The fixture (tests/asm_fixtures/banked.cfg, banked.s, banked_far.s) is a
small UxROM program: NES 2.0 header, eight 16 KiB banks with `bank`
attributes (numbers and expressions, one through a SYMBOLS value), code in
several banks, a bus-conflict-safe bank table and far-call stubs using
`.bank(target)` in the fixed bank, vectors at $FFFA.  It must link to the
bytes of ca65 + ld65, and the label files and the map must put every label
where ld65's own debug file says it went.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tools.asm import AsmError, assemble_and_link
from tools.asm.cli import main
from tools.asm.oracle import OracleError, build_with_ca65, ca65_available

FIX = Path(__file__).resolve().parent / "asm_fixtures"
SOURCES = [FIX / "banked.s", FIX / "banked_far.s"]
CFG = FIX / "banked.cfg"
HEADER = 16
BANK = 0x4000

needs_ca65 = pytest.mark.skipif(not ca65_available(), reason="ca65/ld65 not installed (oracle)")


def _ours(tmp_path: Path, capsys, order=SOURCES) -> tuple[bytes, str]:
    out = tmp_path / "b.nes"
    rc = main([*map(str, order), "-C", str(CFG), "-o", str(out), "--nl",
               "--mlb", str(tmp_path / "b.mlb"), "--map", str(tmp_path / "b.json")])
    assert rc == 0
    return out.read_bytes(), capsys.readouterr().out


# ---------------------------------------------------------------- bytes
@needs_ca65
@pytest.mark.parametrize("order", [SOURCES, SOURCES[::-1]])
def test_banked_fixture_matches_ca65(tmp_path: Path, capsys, order):
    ref = build_with_ca65([str(s) for s in order], str(CFG))
    ours, _ = _ours(tmp_path, capsys, order)
    assert len(ref) == HEADER + 8 * BANK
    assert ours == ref, f"first difference at ${next(i for i in range(len(ref)) if ref[i] != ours[i]):X}"


def test_banked_image_layout(tmp_path: Path, capsys):
    """What the fixture's source says, checked in the image by hand-known offsets."""
    image, _ = _ours(tmp_path, capsys)
    labels = json.loads((tmp_path / "b.json").read_text())["labels"]
    assert len(image) == HEADER + 8 * BANK
    assert image[:HEADER] == bytes([0x4E, 0x45, 0x53, 0x1A, 8, 0, 0x21, 0x08, 0, 0, 0, 7, 0, 0, 0, 0])

    def at(bank: int, addr: int, n: int = 1) -> bytes:
        base = 0xC000 if bank == 7 else 0x8000
        off = HEADER + bank * BANK + addr - base
        return image[off:off + n]

    for bank in (0, 1, 2, 3, 5):  # each used bank starts with `.byte <.bank(*)`
        assert at(bank, 0x8000) == bytes([bank])
    for bank in (4, 6):  # unused banks: all fill
        assert at(bank, 0x8000, BANK) == b"\xFF" * BANK
    # far-call stubs: lda cur_bank (2), pha (1), lda #<.bank(target) (A9 nn)
    for stub, bank in (("far_fill", 1), ("far_sum", 2), ("far_fill_local", 0)):
        assert at(7, labels[stub] + 3, 2) == bytes([0xA9, bank]), stub
    assert at(7, labels["banktable"], 7) == bytes(range(7))
    assert labels["banktable"] % 0x10 == 0
    assert at(7, labels["far_banks"], 6) == bytes([1, 2, 0, 5, 3, 0])  # 4 bytes, then .word 3
    assert at(7, labels["fixed_id"]) == b"\x07"
    assert at(7, 0xFFFA, 6) == b"".join(labels[n].to_bytes(2, "little") for n in ("nmi", "reset", "irq"))
    assert labels["bank5_tail"] == 0xBFF0 and at(5, 0xBFF0) == b"\xA5"  # lda zp near the end of bank 5


# ---------------------------------------------------------------- label files vs ld65's debug file
def _ld65_labels(dbg: Path) -> list[tuple[str, int, int | None]]:
    """(debugger name, address, file offset or None) of every label in an ld65 debug file."""
    recs: dict[str, dict[str, dict[str, str]]] = {"scope": {}, "seg": {}, "sym": {}}
    for line in dbg.read_text().splitlines():
        kind, _, rest = line.partition("\t")
        if kind in recs:
            fields = dict(re.findall(r'(\w+)=("[^"]*"|[^,]*)', rest))
            recs[kind][fields["id"]] = {k: v.strip('"') for k, v in fields.items()}

    def qualified(sym: dict[str, str]) -> str:
        parts = [sym["name"]]
        scope = recs["scope"][sym["scope"]]
        while scope["name"]:
            parts.append(scope["name"])
            scope = recs["scope"][scope["parent"]]
        return "__".join(reversed(parts))

    out = []
    for sym in recs["sym"].values():
        if sym.get("type") != "lab" or "seg" not in sym:
            continue
        seg = recs["seg"][sym["seg"]]
        addr = int(sym["val"], 16)
        foff = int(seg["ooffs"]) + addr - int(seg["start"], 16) if "ooffs" in seg else None
        out.append((qualified(sym), addr, foff))
    return out


@needs_ca65
def test_banked_label_files_match_ld65_debug_info(tmp_path: Path, capsys):
    """FCEUX: ROM.nes.N.nl with N = (file offset - 16) // $4000 in hex, $ADDR#name#;
    ROM.nes.ram.nl for RAM.  Mesen: NesPrgRom:(file offset - 16):name.  The
    expected lines come from ld65's --dbgfile, not from our map."""
    dbg = tmp_path / "ld65.dbg"
    build_with_ca65([str(s) for s in SOURCES], str(CFG), dbgfile=str(dbg))
    _ours(tmp_path, capsys)
    labels = _ld65_labels(dbg)
    assert len(labels) > 25
    nl: dict[str, set[str]] = {"ram": set()} | {f"{b:X}": set() for b in range(8)}
    mlb = set()
    for name, addr, foff in labels:
        if foff is None:  # RAM
            nl["ram"].add(f"${addr:04X}#{name}#")
            mlb.add(f"NesInternalRam:{addr:X}:{name}")
        else:
            nl[f"{(foff - HEADER) // BANK:X}"].add(f"${addr:04X}#{name}#")
            mlb.add(f"NesPrgRom:{foff - HEADER:X}:{name}")
    written = sorted(p.name for p in tmp_path.glob("b.nes.*.nl"))
    assert written == sorted(f"b.nes.{k}.nl" for k in nl)
    for key, lines in nl.items():
        got = (tmp_path / f"b.nes.{key}.nl").read_text().splitlines()
        assert len(got) == len(set(got))
        assert set(got) == lines, key
    assert set((tmp_path / "b.mlb").read_text().splitlines()) == mlb
    assert "$8001#fill_buffer#" in nl["1"] and "$8001#fill_local#" in nl["0"]  # same address, two banks


@needs_ca65
def test_banked_map_matches_ld65_debug_info(tmp_path: Path, capsys):
    dbg = tmp_path / "ld65.dbg"
    build_with_ca65([str(s) for s in SOURCES], str(CFG), dbgfile=str(dbg))
    _ours(tmp_path, capsys)
    m = json.loads((tmp_path / "b.json").read_text())
    for name, addr, foff in _ld65_labels(dbg):
        assert m["labels"][name] == addr
        if foff is None:
            assert name not in m["label_banks"]
        else:  # in this config bank N is the Nth 16 KiB of PRG
            assert m["label_banks"][name] == (foff - HEADER) // BANK, name


def test_banked_map_and_report(tmp_path: Path, capsys):
    _, report = _ours(tmp_path, capsys)
    m = json.loads((tmp_path / "b.json").read_text())
    for n in range(8):
        area = m["memory"][f"PRG{n}"]
        assert (area["bank"], area["kind"], area["in_output"]) == (n, "prg", True)
        assert area["file_offset"] == HEADER + n * BANK and area["prg_offset"] == n * BANK
    assert m["memory"]["HEADER"]["bank"] is None and m["memory"]["HEADER"]["file_offset"] == 0
    assert m["memory"]["HEADER"]["kind"] == "header"
    assert m["memory"]["ZP"]["bank"] is None and m["memory"]["ZP"]["file_offset"] is None
    assert m["memory"]["PRG7"]["segments"] == ["CODE", "RODATA", "BANKTAB", "VECTORS"]
    for seg, bank in (("BANK0", 0), ("BANK3", 3), ("CODE", 7), ("VECTORS", 7), ("BSS", None)):
        assert m["segments"][seg]["bank"] == bank
    assert m["label_banks"]["reset"] == 7 and m["label_banks"]["sum_buffer__loop"] == 2
    assert "buf" in m["labels"] and "buf" not in m["label_banks"]
    assert set(m["label_banks"]) < set(m["labels"])
    assert m["exports"]["FIXED_BANK"] == 7
    lines = report.splitlines()
    size = {n: seg["size"] for n, seg in m["segments"].items()}
    assert lines[0] == (f"RAM:    {size['ZEROPAGE'] + size['STACK'] + size['BSS']:>7,} of   2,048 bytes "
                        f"(ZEROPAGE {size['ZEROPAGE']}, STACK 256, BSS {size['BSS']})")
    used = {n: sum(size[s] for s in m["memory"][f"PRG{n}"]["segments"]) for n in range(8)}
    total = sum(used.values())
    assert lines[1] == f"PRG:    {total:>7,} of 131,072 bytes, {131072 - total:,} free, 8 banks"
    bank_lines = lines[2:10]
    for n, line in enumerate(bank_lines):
        segs = ", ".join(f"{s} {size[s]:,}" for s in m["memory"][f"PRG{n}"]["segments"]
                         if m["segments"][s]["present"])
        assert line == f"  bank {n:<3}PRG{n}  {used[n]:>7,} used {BANK - used[n]:>7,} free  {segs}".rstrip()
    assert bank_lines[4] == "  bank 4  PRG4        0 used  16,384 free"
    assert bank_lines[7].endswith(f"CODE {size['CODE']}, RODATA {size['RODATA']}, BANKTAB 7, VECTORS 6")
    assert lines[10:] == ["CHR:    none (no CHR area in the config: CHR RAM)",
                          "Header:      16 bytes (HEADER)"]


def test_nrom_report_and_label_files_unchanged_in_form(tmp_path: Path, capsys):
    """One PRG area without `bank`: FCEUX files .0 and .1 ($8000-$BFFF, $C000-$FFFF), no label_banks."""
    out = tmp_path / "n.nes"
    old = os.getcwd()
    os.chdir(FIX)
    try:
        assert main(["opcodes.s", "directives.s", "-C", "fixture.cfg", "-o", str(out), "--nl",
                     "--map", str(tmp_path / "n.json")]) == 0
    finally:
        os.chdir(old)
    report = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.glob("*.nl")) == ["n.nes.0.nl", "n.nes.1.nl", "n.nes.ram.nl"]
    m = json.loads((tmp_path / "n.json").read_text())
    assert m["label_banks"] == {} and m["memory"]["PRG"]["bank"] is None
    assert m["memory"]["PRG"]["file_offset"] == 16 and m["memory"]["CHR"]["file_offset"] == 16 + 0x8000
    assert re.search(r"^PRG: +[\d,]+ of 32,768 bytes, [\d,]+ free$", report, re.M)
    assert re.search(r"^  PRG +[\d,]+ used +[\d,]+ free  CODE ", report, re.M)
    assert re.search(r"^CHR: +32 of +8,192 bytes \(CHARS 32\)$", report, re.M)


# ---------------------------------------------------------------- .bank() expressions vs ca65/ld65
BANK_CFG = """MEMORY {
  ZP:  start = $00,   size = $100,  type = rw, file = "";
  RAM: start = $300,  size = $500,  type = rw, file = "";
  B0:  start = $8000, size = $4000, file = %O, fill = yes, bank = 0;
  B1:  start = $8000, size = $4000, file = %O, fill = yes, bank = 1 + 2;
  NB:  start = $C000, size = $4000, file = %O, fill = yes;
}
SEGMENTS {
  ZEROPAGE: load = ZP, type = zp;
  BSS: load = RAM, type = bss;
  S0: load = B0;
  S1: load = B1;
  CODE: load = NB;
}
"""
BANK_HEAD = """.segment "ZEROPAGE"
zpv: .res 1
.segment "BSS"
bssv: .res 1
.segment "S0"
l0: nop
.segment "S1"
l2: nop
l1: nop
K = 6
KM = 2*3
KL = l1
.segment "CODE"
cl: nop
"""
BANK_TAIL = """
.segment "S0"
fwdl: nop
fwdc = .bank(l1)
KF = KG * 2
KG = 3
"""
# (statement, "ok" | "error" | "warning": what ld65 does; ours must do the same)
BANK_CASES = [
    (".word .bank(l1), .BANK(l0), .Bank(cl + 0) * 0 + 1", "error"),
    (".word .bank(l1), .BANK(l0)", "ok"),
    (".word .bank(l1 + 5), .bank(5 + l1), .bank(l1 - 1 + 1), .bank(5 - l1)", "ok"),
    (".word .bank(l1 + K), .bank(l1 + KM), .bank(KL), .bank(l1 + 6*7), .bank(l1 + K * 2)", "ok"),
    (".word .bank((l1)), .bank(+l1), .bank(l1) * 2, .bank(l1) + .bank(l0)", "ok"),
    (".word .bank(5)", "error"),
    (".word .bank(l1 - l0)", "error"),
    (".word .bank(l1 - l2)", "error"),
    (".word .bank(l1 - l2 + l1)", "error"),
    (".word .bank(-l1)", "error"),
    (".word .bank(2 * l1)", "error"),
    (".word .bank(<l1)", "error"),
    (".word .bank(l1 & $FFFF)", "error"),
    (".word .bank(.bank(l1))", "error"),
    (".word .bank(l1 + KF)", "error"),           # KF = KG * 2, KG defined later: not folded
    (".word .bank(l1 + <KF)", "error"),
    (".word .bank(cl)", "error"),                # area without a bank attribute
    (".word .bank(*)", "error"),
    (".word .bank(zpv)", "error"),               # zero page, no bank attribute
    (".word .bank(bssv)", "error"),
    (".word .bank(nothere)", "error"),
    ("lda #.bank(l1)", "error"),                 # ca65: .bank(l1) has l1's (16-bit) size
    (".byte .bank(l1)", "error"),
    (".byte .bank(l1) & $FF", "error"),
    (".byte .bank(fwdl)", "error"),
    ("lda #<.bank(l1)\nldx #.lobyte(.bank(l1))\n.byte <.bank(l1), <.bank(fwdl)", "ok"),
    ("lda .bank(l1)", "ok"),                     # absolute addressing, operand 3
    ("lda .bank(zpv)", "error"),
    ("lda #.bankbyte(l1)\n.byte .BANKBYTE($123456), ^$ABCDEF, .bankbyte(zpv)", "ok"),
    (".word .bank(l1 + -K)", "error"),           # -6 is a 32-bit constant: the .word range error
    (".word .bank(l1 + $10000)", "error"),
    (".byte <.bank(l1 + -6)", "ok"),
    (".byte .bank(l1) = 3, .bank(l1) <> 0\nldx #.bank(l1) = 3", "ok"),
    ("lda fwdc", "ok"),
    (".if .bank(l1)\n.endif", "error"),
    (".res .bank(l1)", "error"),
    (".assert .bank(l1) = 3, error, \"bank\"", "ok"),
    (".assert .bank(l1) = 2, error, \"bank\"", "error"),
    (".assert .bank(l1) = 2, warning, \"bank\"", "warning"),
    (".assert .bank(cl) = 0, error, \"bank\"", "warning"),   # ld65: cannot evaluate assertion
    (".assert .bank(5) = 0, error, \"bank\"", "warning"),
    (".assert .bank(l1) <> 0 && .bank(cl) = 0, error, \"bank\"", "warning"),
    (".assert 1 || .bank(cl), error, \"bank\"", "ok"),
    (".assert 0 && .bank(cl), error, \"bank\"", "error"),
    (".byte 1 || .bank(cl), 0 && .bank(cl)", "ok"),
    (".byte .bank(cl) && 0", "error"),
    (".byte 0 && nothere", "error"),
    (".if 0 && fwd\n.endif\n.if 1 || fwd\n.endif\nfwd = 2", "ok"),
    (".byte l1 = $8000, !l1, l1 && 1, l1 .xor 1", "ok"),
]


@needs_ca65
@pytest.mark.parametrize("stmt,ld65", BANK_CASES, ids=[c[0].split("\n")[0] for c in BANK_CASES])
def test_bank_expressions_like_ld65(tmp_path: Path, stmt: str, ld65: str):
    (tmp_path / "t.s").write_text(BANK_HEAD + stmt + "\n" + BANK_TAIL)
    (tmp_path / "t.cfg").write_text(BANK_CFG)
    src, cfg = [str(tmp_path / "t.s")], str(tmp_path / "t.cfg")
    try:
        ref = build_with_ca65(src, cfg)
    except OracleError:
        ref = None
    assert (ref is None) == (ld65 == "error"), "the case's note about ld65 is wrong"
    if ref is None:
        with pytest.raises(AsmError):
            assemble_and_link(src, cfg)
        return
    res = assemble_and_link(src, cfg)
    assert res.image == ref
    warnings = [m for m in res.messages if "does not exist" not in m]
    assert bool(warnings) == (ld65 == "warning"), warnings
    if "cl)" in stmt and ld65 == "warning":
        assert any("cannot evaluate assertion" in w and "has no 'bank' attribute" in w for w in warnings)


# ---------------------------------------------------------------- the config vs ld65
CFG_SRC = '.segment "CODE"\nc: nop\n.word .bank(c)\n.segment "S2"\n.byte 1\n.res 3\n'
_M = "MEMORY { M: start=$8000, size=$100, bank=1; }\n"
_S = "SEGMENTS { CODE: load=M; S2: load=M; }\n"
# (config, ld65 accepts it)
CFG_CASES = [
    ("MEMORY { M: start=$8000, size=$100, fill=yes, bank=2; }\n" + _S, True),
    ("MEMORY { M: start $8000 size $100 fill yes bank 2; }\nSEGMENTS { CODE: load M; S2: load M; }\n", True),
    ("memory { M: Start=$8000, SIZE=$100, Bank=1, FILL=Yes; }\nsegments { CODE: load=M, TYPE=RO; S2: load=M; }\n",
     True),
    ("MEMORY { M: start=$8000, size=$100, fill=TRUE, bank=1+1*2-(4/2); }\n"
     "SEGMENTS { CODE: load=M; S2: load=M, fillval=$EA; }\n", True),
    ("MEMORY { M: start=$8000, size=$100, fill=1, bank=B; }\n" + _S + "SYMBOLS { B: type=export, value=5; }\n",
     True),
    ("MEMORY { M: start=$8000, size=$100, bank=1, file=\"%O\"; }\n" + _S, True),
    ("MEMORY { M: start=$8000, size=-1, bank=1; }\n" + _S, True),
    ("MEMORY { M: start=$8000, size=$100, bank=1; R: start=$300, size=$100, file=\"\"; }\n"
     "SEGMENTS { CODE: load=M; S2: load=M, run=R, align_load=16; }\n", True),
    ("MEMORY { M: start=$8000, size=$100, bank=1, fill=yes, fillval=$AA; R: start=$300, size=$100, file=\"\"; }\n"
     "SEGMENTS { CODE: load=M; S2: load=M, run=R, align_load=16, align=64; }\n", True),
    (_M + _S + "FEATURES { STARTADDRESS: default = $8000; }\n", True),
    ("MEMORY { M: start=$8000, size=$100, fill=0, bank=NOPE; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=c; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=1/0; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=-1; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=$10000; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=1; M: start=$8000, size=$100; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, fil=yes; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, type=rx; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, fill=maybe; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, fill=\"yes\"; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, file=yes; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, define=perhaps; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=1, bank=2; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=1, fillval=256; }\n" + _S, False),
    ("MEMORY { M: start=$8000, size=$100, bank=1 }\n" + _S, False),
    ("MEMORY { M: start=%1000, size=$100, bank=1; }\n" + _S, False),
    (_M + "SEGMENTS { CODE: load=M; S2: load=M, optional=sometimes; }\n", False),
    (_M + "SEGMENTS { CODE: load=M; CODE: load=M; S2: load=M; }\n", False),
    (_M + "SEGMENTS { CODE: load=M; S2: load=M, start=$1000001; }\n", False),
    (_M + "SEGMENTS { CODE: load=M, typ=ro; S2: load=M; }\n", False),
    (_M + "SEGMENTS { CODE: load=M, type=code; S2: load=M; }\n", False),
    (_M + "SEGMENTS { CODE: load=N; S2: load=M; }\n", False),
    (_M + "SEGMENTS { CODE: load=M; S2: load=M, align=0; }\n", False),
    (_S + _M, False),
    (_M + _S + "SYMBOLS { Q: value=3; }\n", False),
    (_M + _S + "SYMBOLS { Q: type=import, value=3; }\n", False),
    (_M + _S + "SYMBOLS { Q: type=export; }\n", False),
    (_M + _S + "SYMBOLS { Q: type=exp, value=1; }\n", False),
    (_M + _S + "SYMBOLS { Q: type=export, value=1, addrsize=huge; }\n", False),
    (_M + _S + "BOGUS { }\n", False),
    ("MEMORY { M: start=$8000, size=$100, type=ro, bank=1; }\n" + _S, False),  # segments default to rw
    ("MEMORY { M: start=$8000, size=$100, type=ro, bank=1; }\n"
     "SEGMENTS { CODE: load=M, type=ro; S2: load=M, type=rw; }\n", False),
    ("MEMORY { M: start=$8000, size=$100, type=ro, bank=1; R: start=$300, size=$100, file=\"\"; }\n"
     "SEGMENTS { CODE: load=M, type=ro; S2: load=M, run=R; }\n", True),
    (_M + "SEGMENTS { CODE: load=M; S2: load=M, align=1, start=$8010; }\n", False),
    (_M + "SEGMENTS { CODE: load=M; S2: load=M, offset=$10, start=$8010; }\n", False),
    (_M + "SEGMENTS { CODE: load=M; S2: load=M, offset=$10; }\n", True),
]


@needs_ca65
@pytest.mark.parametrize("cfg,accepted", CFG_CASES, ids=[str(i) for i in range(len(CFG_CASES))])
def test_config_like_ld65(tmp_path: Path, cfg: str, accepted: bool):
    (tmp_path / "t.s").write_text(CFG_SRC)
    (tmp_path / "t.cfg").write_text(cfg)
    src, path = [str(tmp_path / "t.s")], str(tmp_path / "t.cfg")
    try:
        ref = build_with_ca65(src, path)
    except OracleError:
        ref = None
    assert (ref is not None) == accepted, "the case's note about ld65 is wrong"
    if ref is None:
        with pytest.raises(AsmError, match=r"t\.(cfg|s):\d+:\d+: error: "):
            assemble_and_link(src, path)
    else:
        assert assemble_and_link(src, path).image == ref


def test_config_subset_rejects_what_it_does_not_implement(tmp_path: Path):
    """ld65 accepts these; tools.asm says so instead of writing different bytes."""
    (tmp_path / "t.s").write_text(CFG_SRC)
    cases = {
        _M + "SEGMENTS { CODE: load=M; S2: load=M, type=overwrite, offset=4; }\n":
            r"t\.cfg:2:43: error: segment 'S2': type = overwrite is not supported",
        "MEMORY { M: start=$8000, size=$100, file=\"other.bin\"; }\n" + _S:
            r"t\.cfg:1:42: error: memory area 'M': file = \"other\.bin\" is not supported",
    }
    for cfg, msg in cases.items():
        (tmp_path / "t.cfg").write_text(cfg)
        with pytest.raises(AsmError, match=msg):
            assemble_and_link([str(tmp_path / "t.s")], str(tmp_path / "t.cfg"))
