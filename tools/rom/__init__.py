"""Building the cartridge: rom/xiangqi.nes from asm/, assets/ and config/.

build.py runs the build (`python -m tools.build_rom`); files.py lists its
inputs; gen_tables.py writes the engine's tables from the reference and the
YAML; chr.py converts the PNG tile sheets; art.py draws them; memory_map.py
writes docs/MEMORY.md from the linker map.
"""
