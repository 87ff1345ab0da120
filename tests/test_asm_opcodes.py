"""Every official 6502 opcode/mode assembles to what py65's tables say (151 pairs)."""
from __future__ import annotations

from pathlib import Path

import pytest
from py65.devices.mpu6502 import MPU
from py65.disassembler import Disassembler

from tools.asm import assemble_and_link
from tools.asm.opcodes import OPCODES

CFG = """MEMORY { PRG: start = $8000, size = $1000, type = ro, file = %O; }
SEGMENTS { CODE: load = PRG, type = ro; }
"""

# A distinctive operand per mode, and how py65 prints it (relative: target = PC + 2 + $10).
OPERANDS = {
    "imp": ("", ""), "acc": ("a", " A"), "imm": ("#$12", " #$12"), "zp": ("$34", " $34"),
    "zpx": ("$34,x", " $34,X"), "zpy": ("$34,y", " $34,Y"), "abs": ("$1234", " $1234"),
    "absx": ("$1234,x", " $1234,X"), "absy": ("$1234,y", " $1234,Y"), "ind": ("($1234)", " ($1234)"),
    "indx": ("($34,x)", " ($34,X)"), "indy": ("($34),y", " ($34),Y"), "rel": ("*+$12", None),
}
PY65_MODE = {"imp": "imp", "acc": "acc", "imm": "imm", "zp": "zpg", "zpx": "zpx", "zpy": "zpy",
             "abs": "abs", "absx": "abx", "absy": "aby", "ind": "ind", "indx": "inx", "indy": "iny",
             "rel": "rel"}


def _pairs() -> list[tuple[str, str]]:
    return sorted((m, mode) for m, modes in OPCODES.items() for mode in modes)


def test_151_official_opcodes_match_py65_table():
    pairs = _pairs()
    assert len(pairs) == 151
    assert len({code for modes in OPCODES.values() for code in modes.values()}) == 151
    table = MPU().disassemble
    for mnem, mode in pairs:
        assert table[OPCODES[mnem][mode]] == (mnem.upper(), PY65_MODE[mode]), (mnem, mode)
    official = {(name.lower(), m) for name, m in table if name != "???"}
    assert len(official) == 151


def test_every_opcode_disassembles_back(tmp_path: Path):
    pairs = _pairs()
    src = ['.segment "CODE"'] + [f"    {m} {OPERANDS[mode][0]}" for m, mode in pairs]
    (tmp_path / "all.s").write_text("\n".join(src) + "\n")
    (tmp_path / "t.cfg").write_text(CFG)
    image = assemble_and_link([str(tmp_path / "all.s")], str(tmp_path / "t.cfg")).image
    mpu = MPU()
    mpu.memory[0x8000:0x8000 + len(image)] = list(image)
    dis = Disassembler(mpu)
    pc = 0x8000
    for mnem, mode in pairs:
        length, text = dis.instruction_at(pc)
        expected = OPERANDS[mode][1]
        if expected is None:  # branch to *+$12 from pc
            expected = f" ${pc + 0x12:04X}"
        assert text.upper() == (mnem.upper() + expected).upper(), (mnem, mode, text)
        pc += length
    assert pc == 0x8000 + len(image)


@pytest.mark.parametrize("line", ["slo $10", "lax ($10),y", "dcp $1234", "sax $10", "anc #1",
                                  "isc $10,x", "rla $10", "sre $10", "rra $10", "alr #1", "arr #1",
                                  "axs #1", "kil", "jam", "stz $10", "bra *", "phx", "ply"])
def test_undocumented_and_65c02_opcodes_are_rejected(tmp_path: Path, line: str):
    from tools.asm import AsmError
    (tmp_path / "u.s").write_text(f'.segment "CODE"\n    {line}\n')
    (tmp_path / "t.cfg").write_text(CFG)
    with pytest.raises(AsmError, match="unknown mnemonic") as e:
        assemble_and_link([str(tmp_path / "u.s")], str(tmp_path / "t.cfg"))
    assert (e.value.line, e.value.col) == (2, 5)
