; init.s: power-on and reset (NESdev wiki "Init code").

.include "nes.inc"
.include "global.inc"

.segment "CODE"

;;
; Reset vector.  Puts the machine in a known state, draws the whole screen
; (empty board and panel) with rendering off, then turns NMI on and jumps to
; the main loop; the first NMI turns rendering on.
; Order: IRQs off, decimal off, APU frame IRQ off, stack, PPU off, DMC IRQ off,
; vblank wait 1, clear RAM (and hide all sprites), vblank wait 2 (the PPU is
; now warm), palette, nametable, attributes, panel text.
; Never returns.
.proc reset_handler
  sei                   ; no IRQs (NROM has no IRQ source; the APU has two)
  cld                   ; the 2A03 has no decimal mode, but be clean
  ldx #$40
  stx APU_FRAMECNT      ; APU frame IRQ off
  ldx #$FF
  txs                   ; stack at $01FF
  inx                   ; X = 0
  stx PPUCTRL           ; NMI off
  stx PPUMASK           ; rendering off
  stx DMC_FREQ          ; DMC IRQ off
  stx SND_CHN           ; all sound channels off

  bit PPUSTATUS         ; clear a vblank flag left over from before reset
@vblank_wait_1:
  bit PPUSTATUS
  bpl @vblank_wait_1

  ; ~29,000 cycles until the PPU accepts writes: clear RAM meanwhile.
  txa                   ; A = 0, X = 0
@clear_ram:
  sta $0000,x
  sta $0100,x
  sta $0300,x
  sta $0400,x
  sta $0500,x
  sta $0600,x
  sta $0700,x
  inx
  bne @clear_ram
  jsr ppu_clear_oam     ; $0200 page: every sprite hidden (Y = $FF)

@vblank_wait_2:
  bit PPUSTATUS
  bpl @vblank_wait_2

  ; The PPU is ready; rendering is still off, so VRAM can be written freely.
  jsr load_palette
  jsr board_view_init   ; empty board and panel text

  ; Turn on NMI now; the first NMI turns rendering on (PPUMASK from the shadow).
  lda #MASK_BG | MASK_SPR | MASK_BG_LEFT | MASK_SPR_LEFT
  sta ppu_mask_shadow
  lda #CTRL_NMI | CTRL_SPR_1000 | CTRL_NT_2000
  sta ppu_ctrl_shadow
  bit PPUSTATUS         ; no NMI right away if we are inside a vblank
  sta PPUCTRL
  jmp main
.endproc
