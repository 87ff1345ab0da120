"""Driving the built ROM: the py65 drivers and the cynes console.

cpu.py (a bare 6502 with guards.py's faults) runs the cartridge as its board
maps it (cartridge.py, mapper.py); engine.py, search.py and game.py drive
the ROM's engine, search and game layer for the differential tests, with
names from the linker map (linkmap.py) and one vocabulary for memory
(memory.py); cli.py is their command line.  console.py drives the whole ROM
in cynes like a player; player.py is `make play`.
"""
