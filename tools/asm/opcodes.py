"""The 151 official NMOS 6502 opcodes.

``OPCODES[mnemonic][mode] = opcode byte``.  Modes: imp, acc, imm, zp, zpx,
zpy, abs, absx, absy, ind, indx, indy, rel.  Undocumented opcodes are left
out on purpose: using one is an "unknown mnemonic" error, as in ca65's
default 6502 CPU mode.
"""
from __future__ import annotations

_TABLE = """
adc imm 69 zp 65 zpx 75 abs 6D absx 7D absy 79 indx 61 indy 71
and imm 29 zp 25 zpx 35 abs 2D absx 3D absy 39 indx 21 indy 31
asl acc 0A zp 06 zpx 16 abs 0E absx 1E
bcc rel 90
bcs rel B0
beq rel F0
bit zp 24 abs 2C
bmi rel 30
bne rel D0
bpl rel 10
brk imp 00
bvc rel 50
bvs rel 70
clc imp 18
cld imp D8
cli imp 58
clv imp B8
cmp imm C9 zp C5 zpx D5 abs CD absx DD absy D9 indx C1 indy D1
cpx imm E0 zp E4 abs EC
cpy imm C0 zp C4 abs CC
dec zp C6 zpx D6 abs CE absx DE
dex imp CA
dey imp 88
eor imm 49 zp 45 zpx 55 abs 4D absx 5D absy 59 indx 41 indy 51
inc zp E6 zpx F6 abs EE absx FE
inx imp E8
iny imp C8
jmp abs 4C ind 6C
jsr abs 20
lda imm A9 zp A5 zpx B5 abs AD absx BD absy B9 indx A1 indy B1
ldx imm A2 zp A6 zpy B6 abs AE absy BE
ldy imm A0 zp A4 zpx B4 abs AC absx BC
lsr acc 4A zp 46 zpx 56 abs 4E absx 5E
nop imp EA
ora imm 09 zp 05 zpx 15 abs 0D absx 1D absy 19 indx 01 indy 11
pha imp 48
php imp 08
pla imp 68
plp imp 28
rol acc 2A zp 26 zpx 36 abs 2E absx 3E
ror acc 6A zp 66 zpx 76 abs 6E absx 7E
rti imp 40
rts imp 60
sbc imm E9 zp E5 zpx F5 abs ED absx FD absy F9 indx E1 indy F1
sec imp 38
sed imp F8
sei imp 78
sta zp 85 zpx 95 abs 8D absx 9D absy 99 indx 81 indy 91
stx zp 86 zpy 96 abs 8E
sty zp 84 zpx 94 abs 8C
tax imp AA
tay imp A8
tsx imp BA
txa imp 8A
txs imp 9A
tya imp 98
"""


def _build() -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for line in _TABLE.strip().splitlines():
        words = line.split()
        modes = table.setdefault(words[0], {})
        for mode, code in zip(words[1::2], words[2::2]):
            modes[mode] = int(code, 16)
    return table


OPCODES: dict[str, dict[str, int]] = _build()

#: Operand size in bytes for each addressing mode.
MODE_SIZE = {"imp": 0, "acc": 0, "imm": 1, "zp": 1, "zpx": 1, "zpy": 1,
             "abs": 2, "absx": 2, "absy": 2, "ind": 2, "indx": 1, "indy": 1,
             "rel": 1}

#: Zero-page mode -> the absolute mode used when the operand is not known < $100.
ZP_TO_ABS = {"zp": "abs", "zpx": "absx", "zpy": "absy"}
