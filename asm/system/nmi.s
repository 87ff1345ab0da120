; nmi.s: the vblank interrupt.  It services the frame; the main loop owns all
; game logic, so a long engine search in the main loop never blanks the screen.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"

; the two digits of "  00 SEC" (panel_think in ui_panel.s)
THINK_DIGITS_VRAM = NAMETABLE_0 + THINK_ROW * 32 + PANEL_LEFT_COL + 2
; colour 1 of the spinner's sprite palette
SPIN_PALETTE = $3F10 + SPINNER_PAL * 4 + 1

.segment "CODE"

;;
; NMI handler, once per frame at the start of vblank.
; 1. If the main loop has completed its frame (frame_ready, set by
;    wait_frame): OAM DMA from the shadow OAM, then the VRAM queue to the
;    PPU, and frame_ready cleared (the queue is then empty).  A frame the
;    main loop did not complete (a search, a long redraw) copies neither:
;    the PPU keeps the last sprites (rendering refreshes its OAM), and the
;    shadow page may hold the engine's move keys (ms_key, ram.s).
; 2. Restores PPUCTRL, scroll and PPUMASK from their shadows.
; 3. Increments nmi_count (wait_frame watches it).
; 4. Advances the sound effects (sound_update: at most 175 cycles, ~27 idle).
; While ui_busy is set (the main loop is inside game_think and queues
; nothing) it also counts and writes the seconds thought (two tiles of the
; panel) and turns the spinner: sprite palette 2 lights one of the
; spinner's three sectors, the next one every 8 frames (3 palette bytes):
; about 150 cycles, and after the vblank work it reads pad 1 into
; busy_pads (about 140 cycles; the main loop reads no pads then).
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

  lda frame_ready       ; the main loop's frame is complete: its sprites
  beq @no_frame         ; and its VRAM queue
  lda #0
  sta OAMADDR
  lda #>oam
  sta OAM_DMA           ; 513-514 cycles
  jsr ppu_copy_queue
  lda #0
  sta frame_ready
@no_frame:

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
  lda nmi_count         ; the spinner: sector (nmi_count / 8) mod 3 lit
  lsr a
  lsr a
  lsr a
  tax
  ldy spin_step,x       ; 3 x the sector
  lda #>SPIN_PALETTE
  sta PPUADDR
  lda #<SPIN_PALETTE
  sta PPUADDR
  lda spin_colors,y
  sta PPUDATA
  lda spin_colors+1,y
  sta PPUDATA
  lda spin_colors+2,y
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
; the spinner's sector lit at each step of nmi_count / 8 (0-31), times 3:
; the offset of its colours in spin_colors (the 32 steps wrap at 256
; frames, where one step is a frame short)
spin_step:
  .repeat 32, k
  .byte (k .mod 3) * 3
  .endrepeat
; sprite palette 2's colours 1-3 (the sectors top right, bottom, left) for
; each lit sector: the light goes round clockwise
spin_colors:
  .byte COLOR_SPIN_LIT, COLOR_SPIN_DIM, COLOR_SPIN_DIM
  .byte COLOR_SPIN_DIM, COLOR_SPIN_LIT, COLOR_SPIN_DIM
  .byte COLOR_SPIN_DIM, COLOR_SPIN_DIM, COLOR_SPIN_LIT
