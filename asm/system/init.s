; init.s: power-on and reset (NESdev wiki "Init code").

.include "nes.inc"
.include "global.inc"
.include "puzzles_const.inc"

.segment "CODE"

;;
; Reset vector.  Puts the machine in a known state and jumps to the main
; loop, in the UI bank, with rendering and NMI off (main draws the title,
; then turns them on).  The switchable bank is unknown at power-on: nothing
; here reads $8000-$BFFF before a bank is mapped.
; A reset in the middle of a search lands here too: the stack, all RAM and
; the screen start over, so it always comes back cleanly to the title; only
; the title's settings and the solved puzzles are kept (settings_save,
; checked here).
; Order: IRQs off, decimal off, APU frame IRQ off, stack, PPU off, DMC IRQ off,
; vblank wait 1, the kept settings checked, clear RAM but the kept solved puzzles (and hide all sprites), sound (silent), vblank
; wait 2 (the PPU is now warm), tile patterns to CHR-RAM, the UI bank,
; palette.
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

  ; Settings a soft reset keeps (settings_save): Y = KEEP_VALID | them when
  ; the signature and the check byte hold, else 0.  Power-on RAM (random,
  ; $00 or $FF) passes both only by a 1 in 2^24 chance.
  ldy #0
  lda keep_sig
  cmp #KEEP_SIG0
  bne @fresh
  lda keep_sig+1
  cmp #KEEP_SIG1
  bne @fresh
  lda keep_settings
  eor #KEEP_CHECK
  .repeat ::PUZ_SOLVED_BYTES, i
  eor puz_solved+i
  .endrepeat
  eor ui_lang
  cmp keep_check
  bne @fresh
  lda keep_settings
  ora #KEEP_VALID
  tay
@fresh:
  ; ~29,000 cycles until the PPU accepts writes: clear RAM meanwhile.
  txa                   ; A = 0, X = 0
@clear_ram:
  sta $0000,x
  sta $0100,x
  sta $0400,x
  sta $0500,x
  sta $0600,x
  sta $0700,x
  inx
  bne @clear_ram
@clear_page3:           ; page 3 but the solved puzzles (puz_solved) and ui_lang
  cpx #<puz_solved
  bcc @zero
  cpx #<(puz_solved + PUZ_SOLVED_BYTES + 1)
  bcc @keep
@zero:
  sta $0300,x
@keep:
  inx
  bne @clear_page3
  sty keep_settings     ; for settings_load (the signature is cleared)
  cpy #0
  bne @kept
  ldx #PUZ_SOLVED_BYTES  ; power-on: no puzzle solved, English (ui_lang follows puz_solved)
@no_puzzle:
  sta puz_solved,x
  dex
  bpl @no_puzzle
@kept:
  jsr ppu_clear_oam     ; $0200 page: every sprite hidden (Y = $FF)
  jsr sound_init        ; APU: pulse 1 and noise on and silent

@vblank_wait_2:
  bit PPUSTATUS
  bpl @vblank_wait_2

  ; The PPU is ready.  Rendering and NMI stay off: main draws the title
  ; first, then turns them on (screen_on).
  jsr chr_upload        ; tiles to CHR-RAM (maps the tiles' bank)
  SWITCH_BANK_OF main   ; the main loop's home bank
  jsr load_palette      ; (in the UI bank, now mapped)
  jmp main
.endproc
