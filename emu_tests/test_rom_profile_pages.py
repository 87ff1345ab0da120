"""bench.rom_profile's page-crossing tally (--pages): every branch it counts
is a conditional branch of the ROM whose target lies on another page than
the next instruction (each costs the search one more cycle, so a change
that only moves code is explained by the change of this tally)."""
from __future__ import annotations

from bench.engine_bench import suite_fens
from bench.rom_profile import BRANCH_OPS, Profile, listing_lines
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


def test_listing_lines_are_the_search_banks():
    """The lines a profile shows come from the engine's bank and the fixed
    bank: every one at an address of an engine label is that label's file,
    and the book's, the UI's and the bitbases' lines (the same $8000-$BFFF
    addresses in other banks) are not among them."""
    rs = RomSearch()
    lines = listing_lines()
    below = {v.split(":", 1)[0] for a, v in lines.items() if a < 0xC000}
    assert not any(f.startswith(("asm/book/", "asm/ui/", "asm/puzzles/", "asm/tiles/")) for f in below)
    assert "asm/engine/eng_bitbase.s" not in below        # its code is in the fixed bank
    assert "asm/engine/eng_search_node.s" in below
    for label, file in (("ab_node", "eng_search_node.s"), ("score_quiets", "eng_search_order.s"),
                        ("eng_gen", "eng_movegen.s"), ("eng_eval", "eng_eval.s")):
        addr = rs.link.labels[label]
        assert lines[addr].startswith(f"asm/engine/{file}:"), (label, lines[addr])
