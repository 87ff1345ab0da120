; nmi.s: the vblank interrupt.  It services the frame; the main loop owns all
; game logic, so a long engine search in the main loop never blanks the screen.

.include "nes.inc"
.include "global.inc"

.segment "CODE"

;;
; NMI handler, once per frame at the start of vblank.
; 1. OAM DMA from the shadow OAM (every frame, so sprites survive a long
;    search in the main loop).
; 2. If the main loop has set frame_ready, copies the VRAM queue to the PPU
;    and clears frame_ready (the queue is then empty).
; 3. Restores PPUCTRL, scroll and PPUMASK from their shadows.
; 4. Increments nmi_count (wait_frame watches it).
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
