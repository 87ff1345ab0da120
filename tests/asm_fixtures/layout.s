; Linker layout corner cases (see layout.cfg), checked against ca65/ld65.
.import __M1_START__, __M1_SIZE__, __M1_LAST__, __M1_FILEOFFS__, __M2_FILEOFFS__, __M2_LAST__, __STACK__, FOO
.segment "A"
.byte 1, 2, 3
.word __M1_START__, __M1_SIZE__, __M1_LAST__, __M1_FILEOFFS__, __M2_FILEOFFS__, __M2_LAST__, __STACK__, FOO
.segment "B"
.res 4
.segment "C"
.byte 9
.segment "D"
.byte 8
.segment "E"
.byte $E0
.segment "F"
.res 3
.segment "G"
.byte $60, <__M3_FILEOFFS__
.import __M3_FILEOFFS__
