; nmi.s: the vblank interrupt.  It services the frame; the main loop owns all
; game logic, so a long engine search in the main loop never blanks the screen.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"

; the two digits of "  00 SEC" (panel_think in ui_panel.s)
THINK_DIGITS_VRAM = NAMETABLE_0 + THINK_ROW * 32 + PANEL_LEFT_COL + 2

.segment "CODE"

;;
; NMI handler, once per frame at the start of vblank.
; 1. OAM DMA from the shadow OAM (every frame, so sprites survive a long
;    search in the main loop).
; 2. If the main loop has set frame_ready, copies the VRAM queue to the PPU
;    and clears frame_ready (the queue is then empty).
; 3. Restores PPUCTRL, scroll and PPUMASK from their shadows.
; 4. Increments nmi_count (wait_frame watches it).
; 5. Advances the sound effects (sound_update: at most 175 cycles, ~27 idle).
; While ui_busy is set (the main loop is inside game_think and queues
; nothing) it also turns the spinner sprite (its flip bits in the shadow
; OAM, before the DMA) and counts and writes the seconds thought (two tiles
; of the panel): about 110 cycles more, and after the vblank work it reads
; pad 1 into busy_pads (about 140 cycles; the main loop reads no pads then).
; Saves and restores A, X, Y; does not touch the locals.
; Cycles: at most 1,634 including the 514-cycle OAM DMA, with a full queue
; of one-byte entries (measured in emu_tests/test_boot.py), inside the
; 2,273-cycle NTSC vblank.  Without queued updates: about 600.
.proc nmi_handler
  pha
  txa
  pha
  tya
  pha

  lda ui_busy           ; thinking: turn the spinner (before the DMA)
  beq @no_spin
  lda nmi_count
  lsr a
  lsr a
  lsr a
  and #3
  tax
  lda spinner_attr,x
  sta oam + SPINNER_OAM + OAM_ATTR
@no_spin:

  lda #0
  sta OAMADDR
  lda #>oam
  sta OAM_DMA           ; 513-514 cycles

  lda frame_ready
  beq @no_vram
  jsr ppu_copy_queue
  lda #0
  sta frame_ready
@no_vram:

  lda ui_busy           ; thinking: count and show the seconds (the main
  beq @no_clock         ; loop is in game_think, its queue is empty)
  inc think_frames
  lda think_frames
  cmp #60
  bcc @show
  lda #0
  sta think_frames
  lda think_secs        ; packed BCD, stops at 99
  cmp #$99
  beq @show
  clc
  adc #1
  sta think_secs
  and #$0F
  cmp #10
  bne @show
  lda think_secs
  adc #6 - 1            ; C = 1 from the cmp: + 6 carries into the tens
  sta think_secs
@show:
  bit PPUSTATUS
  lda #>THINK_DIGITS_VRAM
  sta PPUADDR
  lda #<THINK_DIGITS_VRAM
  sta PPUADDR
  lda think_secs
  lsr a
  lsr a
  lsr a
  lsr a
  ora #'0'
  sta PPUDATA
  lda think_secs
  and #$0F
  ora #'0'
  sta PPUDATA
@no_clock:

  bit PPUSTATUS         ; reset the address latch before the scroll writes
  lda ppu_ctrl_shadow
  sta PPUCTRL
  lda scroll_x
  sta PPUSCROLL
  lda scroll_y
  sta PPUSCROLL
  lda ppu_mask_shadow
  sta PPUMASK
  inc nmi_count
  jsr sound_update      ; after the vblank work: it needs no vblank

  lda ui_busy           ; thinking: the main loop reads no pads, so the NMI
  beq @no_pads          ; notes any button of pad 1 (the demo ends on a tap)
  lda #1
  sta JOY1
  lsr a
  sta JOY1
  ldx #8
@pad:
  lda JOY1
  and #$03              ; standard pad or Famicom expansion pad
  ora busy_pads
  sta busy_pads
  dex
  bne @pad
@no_pads:

  pla
  tay
  pla
  tax
  pla
  rti
.endproc

;;
; IRQ/BRK handler.  Nothing raises an IRQ on this cartridge (they are off in
; reset_handler), so it only returns.
.proc irq_handler
  rti
.endproc

.segment "VECTORS"
  .word nmi_handler, reset_handler, irq_handler

.segment "RODATA"
; the spinner's quarter ring goes round: top-left, top-right, bottom-right,
; bottom-left (sprite palette 2)
spinner_attr:
  .byte 2, 2 | OAM_FLIP_H, 2 | OAM_FLIP_H | OAM_FLIP_V, 2 | OAM_FLIP_V
