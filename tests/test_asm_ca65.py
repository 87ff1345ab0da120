"""Differential tests: tools.asm must produce exactly the bytes of ca65 + ld65.

ca65/ld65 are only the oracle; the tests skip when they are not installed
(CI installs them).  The fixtures in tests/asm_fixtures exercise every
opcode, mode and directive of the supported subset; the project test links
the real asm/*.s with the project's linker config.
"""
from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.asm import AsmError, assemble_and_link
from tools.asm.oracle import OracleError, build_with_ca65, ca65_available

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "asm_fixtures"
CFG = FIX / "fixture.cfg"

needs_ca65 = pytest.mark.skipif(not ca65_available(), reason="ca65/ld65 not installed (oracle)")


def both(sources: list[Path], cfg: Path, include_dirs: list[str] | None = None,
         defines: dict[str, int] | None = None, cwd: Path = FIX) -> tuple[bytes, bytes]:
    srcs = [str(s) for s in sources]
    ref = build_with_ca65(srcs, str(cfg), include_dirs, defines, cwd=str(cwd))
    old = os.getcwd()
    os.chdir(cwd)  # ca65 searches the current directory too; run ours from the same place
    try:
        ours = assemble_and_link(srcs, str(cfg), include_dirs, defines).image
    finally:
        os.chdir(old)
    return ref, ours


def assert_same(ref: bytes, ours: bytes) -> None:
    assert len(ours) == len(ref), f"length {len(ours)} != ca65/ld65 {len(ref)}"
    if ours != ref:
        i = next(k for k in range(len(ref)) if ref[k] != ours[k])
        pytest.fail(f"first difference at file offset ${i:X}: ours {ours[i:i + 8].hex()} "
                    f"ca65 {ref[i:i + 8].hex()}")


@needs_ca65
@pytest.mark.parametrize("order", [("opcodes.s", "directives.s"), ("directives.s", "opcodes.s")])
def test_fixtures_multi_file(order):
    ref, ours = both([FIX / n for n in order], CFG)
    assert len(ref) == 16 + 32768 + 8192
    assert_same(ref, ours)


@needs_ca65
@pytest.mark.parametrize("defines", [None, {"DEBUG": 3, "LEVEL": 2}])
def test_fixture_scopes_defines_includes(defines):
    ref, ours = both([FIX / "scopes.s"], CFG, ["inc"], defines)
    assert_same(ref, ours)


@needs_ca65
def test_fixture_linker_layout():
    ref, ours = both([FIX / "layout.s"], FIX / "layout.cfg")
    assert_same(ref, ours)


def _big_program(seed: int, n_procs: int = 300) -> str:
    """A random but valid program: procs, cheap locals, anonymous labels, zp/abs mix."""
    rnd = random.Random(seed)
    out = ['.segment "ZEROPAGE"'] + [f"z{i}: .res 1" for i in range(64)]
    out += ['.segment "BSS"', "buf: .res 256", '.segment "CODE"']
    for p in range(n_procs):
        out.append(f".proc p{p}")
        for k in range(20):
            r = rnd.randrange(9)
            if r == 0:
                out.append(f"    lda z{rnd.randrange(64)},x")
            elif r == 1:
                out.append(f"    sta buf+{rnd.randrange(200)},y")
            elif r == 2:
                out.append(f"@l{k}: dex\n    bne @l{k}")
            elif r == 3:
                out.append("    bne :+\n    inx\n:   nop")
            elif r == 4:
                out.append(f"    jsr p{rnd.randrange(n_procs)}")
            elif r == 5:
                out.append(f"    .byte {rnd.randrange(256)}, <p{rnd.randrange(n_procs)}, "
                           f">p{rnd.randrange(n_procs)}")
            elif r == 6:
                out.append(f"    lda (z{rnd.randrange(63)}),y")
            elif r == 7:
                out.append(f"    ldx #<(p{rnd.randrange(n_procs)} - p0)")
            else:
                out.append(f"    .word p{rnd.randrange(n_procs)}, K{rnd.randrange(4)}")
        out.append("    rts\n.endproc")
    out += ["K0 = 0", "K1 = $80", "K2 = $1234", "K3 = p0"]
    return "\n".join(out) + "\n"


@needs_ca65
def test_generated_program(tmp_path: Path):
    (tmp_path / "big.s").write_text(_big_program(7))
    cfg = tmp_path / "big.cfg"
    cfg.write_text(CFG.read_text())
    ref, ours = both([tmp_path / "big.s"], cfg, cwd=tmp_path)
    assert_same(ref, ours)


# ---------------------------------------------------------------- expressions vs ca65
_BINOPS = ["+", "-", "*", "/", ".mod", "&", "|", "^", "<<", ">>", ".bitand", ".bitor", ".bitxor",
           ".shl", ".shr", "=", "<>", "<", ">", "<=", ">=", "&&", "||", ".and", ".or", ".xor"]
_UNOPS = ["-", "~", "<", ">", "^", ".bitnot", "+"]


@st.composite
def expressions(draw, depth: int = 3) -> str:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        n = draw(st.integers(0, 300))
        fmt = draw(st.sampled_from(["{}", "${:X}", "%{:b}"]))
        return fmt.format(n)
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return f"{draw(st.sampled_from(_UNOPS))}({draw(expressions(depth - 1))})"
    if kind == 1:
        return f"!({draw(expressions(depth - 1))})"
    op = draw(st.sampled_from(_BINOPS))
    a = draw(expressions(depth - 1))
    if op in ("/", ".mod"):
        b = str(draw(st.integers(1, 40)))  # never divide by zero
    elif op in ("<<", ">>", ".shl", ".shr"):
        b = str(draw(st.integers(0, 12)))
    else:
        b = draw(expressions(depth - 1))
    paren = draw(st.booleans())
    return f"({a} {op} {b})" if paren else f"{a} {op} {b}"


@needs_ca65
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(expressions(), min_size=40, max_size=60))
def test_random_expressions_match_ca65(tmp_path_factory, exprs):
    tmp = tmp_path_factory.mktemp("expr")
    lines = ['.segment "CODE"']
    for e in exprs:
        lines.append(f"    .word ({e}) & $FFFF")
        lines.append(f"    .byte <({e}), ({e}) >= 0")
    (tmp / "e.s").write_text("\n".join(lines) + "\n")
    (tmp / "e.cfg").write_text(CFG.read_text())
    try:
        ref = build_with_ca65([str(tmp / "e.s")], str(tmp / "e.cfg"), cwd=str(tmp))
    except OracleError:  # e.g. a syntax ca65 rejects: then we must reject it too
        with pytest.raises(Exception):
            assemble_and_link([str(tmp / "e.s")], str(tmp / "e.cfg"))
        return
    ours = assemble_and_link([str(tmp / "e.s")], str(tmp / "e.cfg")).image
    assert_same(ref, ours)


# ca65 shifts a 64-bit `long`: `>>` is logical, and a negative count or one of
# 64 or more gives 0 (hypothesis once found `((0 - 1) >> 1) >= 0` differing).
_SHIFT_EDGES = ["((0 - 1) >> 1) >= 0", "(0 - 8) >> 1", "(0 - 8) .shr 65", "5 << (0 - 1)",
                "(0 - 8) >> (0 - 1)", "(1 << 63) >= 0", "(1 << 63) >> 63", "((0 - 1) << 62) >> 60",
                "5 << 64", "(0 - 4) .shr 1 >= 0", "(0 - 300) >> 12", "$7FFF << 50 >> 40"]


@needs_ca65
def test_shift_edges_match_ca65(tmp_path: Path):
    lines = ['.segment "CODE"'] + [f"    .word ({e}) & $FFFF\n    .byte ({e}) >= 0" for e in _SHIFT_EDGES]
    (tmp_path / "e.s").write_text("\n".join(lines) + "\n")
    (tmp_path / "e.cfg").write_text(CFG.read_text())
    ref = build_with_ca65([str(tmp_path / "e.s")], str(tmp_path / "e.cfg"), cwd=str(tmp_path))
    ours = assemble_and_link([str(tmp_path / "e.s")], str(tmp_path / "e.cfg")).image
    assert_same(ref, ours)


# ---------------------------------------------------------------- operand size selection
_ATOMS = ["zpa", "zpb", "absa", "absb", "czp", "cabs", "fzp", "fabs", "$12", "$1234", "izp", "iabs",
          "fwdlab", "*"]
_OPERAND_FORMS = ["{e}", "{e},x", "{e},y", "z:{e}", "a:{e}", "#{e}", "({e}),y", "({e},x)", "({e})",
                  "#<{e}", "#>{e}", "<{e}", ">{e}"]
_MNEMS = ["lda", "ldx", "ldy", "sta", "stx", "sty", "adc", "cmp", "inc", "asl", "bit", "jmp", "jsr",
          "cpx", "eor", "lsr"]


@st.composite
def operand_lines(draw) -> str:
    a = draw(st.sampled_from(_ATOMS))
    if draw(st.booleans()):
        a = f"{a} {draw(st.sampled_from(['+', '-']))} {draw(st.integers(0, 3))}"
    form = draw(st.sampled_from(_OPERAND_FORMS))
    return f"    {draw(st.sampled_from(_MNEMS))} {form.format(e=a)}"


@needs_ca65
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(operand_lines(), min_size=1, max_size=4))
def test_random_operands_match_ca65(tmp_path_factory, lines):
    """Zero page vs absolute choice, range errors and mode errors agree with ca65, line by line."""
    tmp = tmp_path_factory.mktemp("ops")
    head = ['.importzp izp', '.import iabs', '.segment "ZEROPAGE"', "zpa: .res 1", "zpb: .res 2",
            '.segment "BSS"', "absa: .res 1", "absb: .res 2", "czp = $34", "cabs = $0567",
            '.segment "CODE"']
    tail = ["fwdlab: rts", "fzp = $56", "fabs = $789A"]
    (tmp / "o.s").write_text("\n".join(head + lines + tail) + "\n")
    (tmp / "x.s").write_text('.exportzp izp\n.export iabs\nizp = $77\niabs = $1357\n')
    (tmp / "o.cfg").write_text(CFG.read_text())
    srcs = [str(tmp / "o.s"), str(tmp / "x.s")]
    try:
        ref = build_with_ca65(srcs, str(tmp / "o.cfg"), cwd=str(tmp))
    except OracleError:
        with pytest.raises(Exception):
            assemble_and_link(srcs, str(tmp / "o.cfg"))
        return
    assert_same(ref, assemble_and_link(srcs, str(tmp / "o.cfg")).image)


# ---------------------------------------------------------------- names of enclosing scopes
# ca65 binds a bare name in an expression to a symbol of the *current* scope (created
# undefined); only at the end of the file is an undefined one bound to the symbol of an
# enclosing scope.  So inside .proc/.scope an outer constant is no constant yet (.if,
# .elseif, .repeat, .res, .align: "Constant expression expected"; ::NAME is), a later
# local definition wins over the outer one, .defined() is false once the name was used,
# and the addressing mode comes from the outer symbol's address size if it is known.
_ZP = '.segment "ZEROPAGE"\nzv: .res 1\n.segment "CODE"\n'
_MAC = ".macro m v\n.if v = 2\nnop\n.endif\n.endmacro\n"
SCOPE_CASES = {
    "if outer const": ("K = 2\n.proc p\n.if K = 2\nnop\n.endif\n.endproc\n", False),
    "if outer const defined later": (".proc p\n.if K = 2\nnop\n.endif\n.endproc\nK = 2\n", False),
    "elseif": ("K = 2\n.proc p\n.if 0\n.elseif K = 2\nnop\n.endif\n.endproc\n", False),
    "repeat count": ("K = 2\n.proc p\n.repeat K\nnop\n.endrep\n.endproc\n", False),
    "res count": ("K = 2\n.proc p\n.res K\n.endproc\n", False),
    "align": ("K = 2\n.proc p\n.align K\n.endproc\n", False),
    "named scope": ("K = 2\n.scope s\n.if K = 2\nnop\n.endif\n.endscope\n", False),
    "anonymous scope": ("K = 2\n.scope\n.if K = 2\nnop\n.endif\n.endscope\n", False),
    "outer label": ("K: nop\n.proc p\n.if K = 2\nnop\n.endif\n.endproc\n", False),
    "parent proc const": (".proc p\nK = 2\n.proc q\n.if K = 2\nnop\n.endif\n.endproc\n.endproc\n", False),
    "via local const": ("K = 2\n.proc p\nJ = K + 1\n.if J = 3\nnop\n.endif\n.endproc\n", False),
    "after a reference": ("K = 2\n.proc p\nlda #K\n.if K = 2\nnop\n.endif\n.endproc\n", False),
    "macro body": ("K = 2\n.macro n\n.if K = 2\nnop\n.endif\n.endmacro\n.proc p\nn\n.endproc\n", False),
    "macro argument": ("K = 2\n" + _MAC + ".proc p\nm K\n.endproc\n", False),
    "command line define": (".proc p\n.if DEBUG\nnop\n.endif\n.endproc\n", False),
    "scoped name of a placeholder": ("K = 2\n.proc p\nlda #K\n.endproc\n.if p::K = 2\nnop\n.endif\n",
                                     False),
    "global scope": ("K = 2\n.if K = 2\nnop\n.endif\n" + _MAC + "m K\n", True),
    "rooted": ("K = 2\n.proc p\n.if ::K = 2\nnop\n.endif\n.repeat ::K\nnop\n.endrep\n.endproc\n", True),
    "rooted macro argument": ("K = 2\n" + _MAC + ".proc p\nm ::K\n.endproc\n", True),
    "rooted nested": (".proc p\nK = 2\n.proc q\n.if ::p::K = 2\nnop\n.endif\n.endproc\n.endproc\n",
                      True),
    "scoped nested": (".proc p\nK = 2\n.proc q\n.if p::K = 2\nnop\n.endif\n.endproc\n.endproc\n", True),
    "local const": (".proc p\nK = 2\n.if K = 2\nnop\n.endif\n.endproc\n", True),
    "defined() of outer": ("K = 2\n.proc p\n.if .defined(K)\nnop\n.endif\n.ifdef K\nnop\n.endif\n"
                           ".endproc\n", True),
    "defined() after a reference": ("K = 2\n.proc p\nlda #K\n.if .defined(K)\nnop\n.endif\n"
                                    ".ifdef K\nnop\n.endif\n.endproc\n", True),
    "later local wins": ("K = 2\n.proc p\nlda #K\nK = 3\n.endproc\n", True),
    "later local label wins": ("K = 2\n.proc p\njmp K\nK: nop\n.endproc\n", True),
    "deferred uses": ("K = 2\n.proc p\nlda #K\n.byte K\n.word K\n.assert K = 2, error, \"x\"\n"
                      ".endproc\n", True),
    "enum member from outer": ("K = 2\n.proc p\n.enum\nE1 = K\nE2\n.endenum\nlda #E2\n.endproc\n",
                               True),
    "enum member forward": (".enum\nA1 = fwd\nB1\n.endenum\nfwd = 5\nlda #B1\n", True),
    "zp size from outer label": (_ZP + ".proc p\nlda zv\nlda zv,x\nstx zv,y\nlda z:zv\n"
                                 ".proc q\nlda zv\n.endproc\n.endproc\n", True),
    "zp size blocked by parent's use": (_ZP + ".proc p\nlda zv\n.proc q\nlda zv\n.endproc\n"
                                        ".endproc\n", True),
    "size from outer const": ("K = 2\nL = $1234\n.proc p\nlda K\nlda L\nJ = K\nlda J\n.endproc\n",
                              True),
    "size of a later outer const": (".proc p\nlda K\n.endproc\nK = 2\n", True),
    "global declaration": ('.globalzp gz\n.proc p\nlda gz\n.endproc\n.segment "ZEROPAGE"\n'
                           "gz: .res 1\n", True),
    "anonymous scope refs": (_ZP + "K = 2\n.scope\nlda #K\nlda zv\njmp top\n.endscope\ntop: rts\n"
                             ".proc p\n.scope\nlda zv\nlda #F\n.endscope\n.endproc\nF = 7\n", True),
    "branch to outer": ("top: nop\n.proc p\nbne top\n.endproc\n", True),
}


@needs_ca65
@pytest.mark.parametrize("name", sorted(SCOPE_CASES))
def test_outer_scope_names_like_ca65(tmp_path: Path, name: str):
    body, ca65_accepts = SCOPE_CASES[name]
    (tmp_path / "t.s").write_text('.segment "CODE"\n' + body)
    (tmp_path / "t.cfg").write_text(CFG.read_text())
    src, cfg, defines = [str(tmp_path / "t.s")], str(tmp_path / "t.cfg"), {"DEBUG": 1}
    try:
        ref = build_with_ca65(src, cfg, defines=defines, cwd=str(tmp_path))
    except OracleError as e:
        assert not ca65_accepts, f"ca65 rejects it: {e}"
        assert "Constant expression expected" in str(e)
        with pytest.raises(AsmError, match="constant expression expected"):
            assemble_and_link(src, cfg, defines=defines)
        return
    assert ca65_accepts, "ca65 accepts it"
    assert_same(ref, assemble_and_link(src, cfg, defines=defines).image)


# ---------------------------------------------------------------- the project itself
@needs_ca65
def test_project_rom_matches_ca65():
    """The cartridge's own sources, linker config and include path (the
    build's, from tools.build_rom) give the same bytes with both tools."""
    from tools.rom import build as build_rom, gen_tables
    gen_tables.generate(build_rom.GEN_DIR)   # the engine's tables are generated at build time
    sources = [str(s) for s in build_rom.sources()]
    incs = [str(ROOT / d) for d in build_rom.INCLUDE_DIRS]
    ref = build_with_ca65(sources, str(build_rom.CONFIG), incs, cwd=str(ROOT))
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        ours = assemble_and_link(sources, str(build_rom.CONFIG), incs).image
    finally:
        os.chdir(old)
    assert_same(ref, ours)


# ---------------------------------------------------------------- reproducibility
def test_reproducible_builds(tmp_path: Path):
    from tools.asm.cli import main
    digests = []
    for n in range(2):
        out = tmp_path / f"out{n}.bin"
        old = os.getcwd()
        os.chdir(FIX)
        try:
            assert main(["opcodes.s", "directives.s", "-C", "fixture.cfg", "-o", str(out), "-q",
                         "--map", str(tmp_path / f"m{n}.json"), "-l", str(tmp_path / f"l{n}.lst")]) == 0
        finally:
            os.chdir(old)
        digests.append(tuple(hashlib.sha256(p.read_bytes()).hexdigest()
                             for p in (out, tmp_path / f"m{n}.json", tmp_path / f"l{n}.lst")))
    assert digests[0][0] == digests[1][0]
    assert digests[0][1] == digests[1][1]
