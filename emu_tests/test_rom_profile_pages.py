"""bench.rom_profile's page-crossing tally (--pages): every branch it counts
is a conditional branch of the ROM whose target lies on another page than
the next instruction (each costs the search one more cycle, so a change
that only moves code is explained by the change of this tally)."""
from __future__ import annotations

from bench.engine_bench import suite_fens
from bench.rom_profile import BRANCH_OPS, Profile
from tools.nes.search import RomSearch


def test_counted_branches_cross_a_page():
    rs = RomSearch()
    prof = Profile(rs.link.labels, rs.link.label_banks)
    for fen in suite_fens()[:2]:
        prof.search(rs, fen, "Easy")
    assert prof.page_cross, "an Easy search takes some branch to another page"
    mem = rs.mem
    for pc, n in prof.page_cross.items():
        assert mem[pc] in BRANCH_OPS, hex(pc)
        off = mem[pc + 1]
        target = pc + 2 + (off - 256 if off & 0x80 else off)
        assert (target ^ (pc + 2)) & 0xFF00, hex(pc)
        assert n > 0
