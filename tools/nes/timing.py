"""The NTSC NES's clocks, for turning cycles and frames into seconds.

NES_HZ is the CPU clock (the 21.477272 MHz master clock / 12) and NTSC_FPS
the frame rate (the CPU clock / 29,780.5 cycles per frame), so that every
driver, benchmark and player converts the same way.
"""
NES_HZ = 1_789_773
NTSC_FPS = 60.0988
