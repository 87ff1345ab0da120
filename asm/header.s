; header.s: the 16-byte NES 2.0 header (NESdev wiki "NES 2.0").
; UxROM (mapper 2, the UNROM board with bus conflicts): 8 x 16 KiB PRG ROM,
; 8 KiB CHR-RAM, no PRG RAM, no battery, NTSC, standard controllers.
; A reader that only knows iNES 1.0 sees the same thing: mapper 2 (the high
; nibble of byte 7 is 0), 8 PRG banks, no CHR ROM (so CHR-RAM).

NES2_MAPPER      = 2       ; UxROM
NES2_SUBMAPPER   = 2       ; UxROM with AND-type bus conflicts: the code writes
                           ; every bank number to a ROM byte that holds it
NES2_PRG_16K     = 8       ; 128 KiB PRG ROM
NES2_CHR_8K      = 0       ; no CHR ROM
NES2_CHR_RAM     = 7       ; CHR-RAM: 64 << 7 = 8,192 bytes
NES2_MIRROR      = 1       ; 1 = vertical mirroring (the game uses one screen only)
NES2_BATTERY     = 0       ; no battery-backed memory
NES2_TIMING      = 0       ; 0 = NTSC (RP2C02)
NES2_INPUT       = 1       ; default expansion device: standard NES controllers
NES2_ID          = $08     ; byte 7 bits 2-3 = %10: this is an NES 2.0 header

.segment "HEADER"
  .byte "NES", $1A
  .byte NES2_PRG_16K & $FF                                       ; 4: PRG ROM, LSB
  .byte NES2_CHR_8K & $FF                                        ; 5: CHR ROM, LSB
  .byte ((NES2_MAPPER & $0F) << 4) | (NES2_BATTERY << 1) | NES2_MIRROR  ; 6
  .byte (NES2_MAPPER & $F0) | NES2_ID                            ; 7
  .byte (NES2_SUBMAPPER << 4) | (NES2_MAPPER >> 8)               ; 8: submapper, mapper D8-D11
  .byte 0              ; 9: PRG / CHR ROM size MSBs
  .byte 0              ; 10: no PRG RAM, no PRG NVRAM
  .byte NES2_CHR_RAM   ; 11: CHR-RAM (low nibble), no CHR NVRAM
  .byte NES2_TIMING    ; 12
  .byte 0              ; 13: not a Vs. System / extended console
  .byte 0              ; 14: no miscellaneous ROMs
  .byte NES2_INPUT     ; 15
