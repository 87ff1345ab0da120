; header.s: the 16-byte iNES header (NESdev wiki "INES").
; NROM-256: mapper 0, 2 x 16 KiB PRG ROM, 1 x 8 KiB CHR ROM, no PRG RAM, NTSC.

INES_MAPPER   = 0      ; NROM
INES_PRG_16K  = 2      ; 32 KiB PRG at $8000-$FFFF
INES_CHR_8K   = 1      ; 8 KiB CHR ROM
INES_MIRROR   = 1      ; 1 = vertical mirroring (the game uses one screen only)
INES_BATTERY  = 0      ; no battery-backed PRG RAM
INES_TV_NTSC  = 0      ; byte 9 bit 0: 0 = NTSC

.segment "HEADER"
  .byte "NES", $1A
  .byte INES_PRG_16K
  .byte INES_CHR_8K
  .byte ((INES_MAPPER & $0F) << 4) | (INES_BATTERY << 1) | INES_MIRROR  ; flags 6
  .byte INES_MAPPER & $F0                                               ; flags 7
  .byte 0              ; byte 8: PRG RAM size (none)
  .byte INES_TV_NTSC   ; byte 9
  .byte 0, 0, 0, 0, 0, 0  ; bytes 10-15: unused, zero
