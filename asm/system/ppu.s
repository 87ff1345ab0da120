; ppu.s: PPU helpers and the VRAM update queue.
;
; The queue (vram_queue in ram.s) holds entries the main loop builds during
; a frame; the NMI copies them to the PPU in the next vblank:
;   count (1-60), address high, address low, count data bytes
; and a 0 count ends the queue.  Bit 7 of the address high byte selects
; "add 32" mode, i.e. the bytes go down a nametable column.  The main loop
; appends with vram_queue_begin ... vram_queue_end, then calls wait_frame.
; Protocol: the NMI reads the queue only while frame_ready = 1, and the main
; loop appends only while frame_ready = 0 (it is 0 whenever wait_frame has
; returned), so the two never touch the queue at the same time.

.include "nes.inc"
.include "global.inc"

VRAM_QUEUE_FLAG_DOWN = $80   ; in the address high byte: PPUDATA + 32

.segment "CODE"

;;
; Copies every queued entry to VRAM, then empties the queue.
; Call only in vblank (the NMI does) or with rendering off (init does).
; Leaves PPUCTRL with the increment of the last entry: the caller restores
; PPUCTRL and the scroll afterwards.
; Clobbers A, X, Y.  Does not touch the locals (the NMI calls it).
; Cycles: about 10 + 54 per entry + 15 per data byte; at most ~1,050 for a
; full 64-byte queue (15 one-byte entries).
.proc ppu_copy_queue
  ldx #0
@entry:
  ldy vram_queue,x      ; count, 0 = end of the queue
  beq @done
  lda vram_queue+1,x
  asl a                 ; C = "down" flag
  lda ppu_ctrl_shadow
  and #$FF - CTRL_INC_32
  bcc @across
  ora #CTRL_INC_32
@across:
  sta PPUCTRL
  lda vram_queue+1,x
  and #$3F
  sta PPUADDR
  lda vram_queue+2,x
  sta PPUADDR
  inx
  inx
  inx
@byte:
  lda vram_queue,x
  sta PPUDATA
  inx
  dey
  bne @byte
  beq @entry            ; always
@done:
  sty vram_queue_len    ; Y = 0
  sty vram_queue
  rts
.endproc

;;
; Makes sure the queue has room for A more bytes (entry headers included).
; If not, pushes the queue out first (vram_flush: waits for the next NMI, or
; copies it directly while NMI is off).  Reserving all the bytes of a
; multi-entry update up front keeps it in a single frame.
; @param A bytes needed (at most VRAM_QUEUE_SIZE - 1)
; Preserves X and Y; clobbers A.
.proc vram_queue_reserve
  clc
  adc vram_queue_len
  bcs @flush
  cmp #VRAM_QUEUE_SIZE  ; len + needed must leave a byte for the terminator
  bcc @room
@flush:
  txa
  pha
  tya
  pha
  jsr vram_flush
  pla
  tay
  pla
  tax
@room:
  rts
.endproc

;;
; Starts a queue entry (reserving room for it, see vram_queue_reserve).
; @param A count of data bytes (1-60)
; @param X VRAM address high byte (| $80 to write down a column)
; @param Y VRAM address low byte
; @return X index in vram_queue where the first data byte goes; the caller
;   stores count bytes at vram_queue,x (inx after each) and then calls
;   vram_queue_end with that X.
; Clobbers A, Y.
.proc vram_queue_begin
  pha                   ; count
  clc
  adc #4                ; header + terminator
  jsr vram_queue_reserve
  tya
  pha                   ; address low
  txa                   ; A = address high
  ldx vram_queue_len
  sta vram_queue+1,x
  pla
  sta vram_queue+2,x
  pla
  sta vram_queue+0,x
  inx
  inx
  inx
  rts
.endproc

;;
; Ends the queue entry that vram_queue_begin started.
; @param X index just past the entry's last data byte
; Clobbers A.  X is preserved.
.proc vram_queue_end
  lda #0
  sta vram_queue,x      ; terminator
  stx vram_queue_len
  rts
.endproc

;;
; Empties the queue into VRAM now: waits for the next NMI when NMI is on,
; or copies it directly when NMI is off (during init, rendering off).
; Clobbers A, X, Y.
.proc vram_flush
  lda ppu_ctrl_shadow
  bmi @nmi_on           ; bit 7 = CTRL_NMI
  jmp ppu_copy_queue
@nmi_on:
  jmp wait_frame
.endproc

;;
; Marks the frame as complete (shadow OAM and VRAM queue ready) and waits
; for the next NMI, which applies them.  On return the queue is empty.
; Clobbers A.
.proc wait_frame
  lda #1
  sta frame_ready       ; set before reading the count: an NMI in between
  lda nmi_count         ; only costs one more frame of waiting
@wait:
  cmp nmi_count
  beq @wait
  rts
.endproc

;;
; Hides all 64 sprites in the shadow OAM (Y = $FF, below the screen).
; Clobbers A, X (X = 0 at the end).
.proc ppu_clear_oam
  lda #$FF
  ldx #0
@loop:
  sta oam,x
  inx
  bne @loop
  rts
.endproc

;;
; Turns the screen off for a redraw: waits for the next vblank (if NMI is
; on), then turns rendering and NMI off, so the caller may write VRAM
; directly (vram_flush then copies the queue at once).
; Clobbers A.
.proc screen_off
  lda ppu_ctrl_shadow
  bpl @nmi_off
  jsr wait_frame        ; returns early in vblank
@nmi_off:
  lda #0
  sta ppu_mask_shadow
  sta PPUMASK
  lda ppu_ctrl_shadow
  and #$FF - CTRL_NMI
  sta ppu_ctrl_shadow
  sta PPUCTRL
  rts
.endproc

;;
; Turns the screen back on after screen_off: NMI on with the given PPUCTRL
; bits, scroll 0, rendering on from the next NMI (which this waits for).
; The shadow OAM is shown as it is: every caller clears it (ppu_clear_oam)
; after screen_off and draws its sprites, so no frame shows the move keys
; an engine call left in that page (ram.s, ms_key).
; @param A PPUCTRL bits without CTRL_NMI (pattern tables, nametable)
; Clobbers A.
.proc screen_on
  ora #CTRL_NMI
  sta ppu_ctrl_shadow
  lda #0
  sta scroll_x
  sta scroll_y
  sta frame_ready       ; the queue was flushed directly
  lda #MASK_BG | MASK_SPR | MASK_BG_LEFT | MASK_SPR_LEFT
  sta ppu_mask_shadow
  bit PPUSTATUS         ; no NMI at once if the vblank flag is up
  lda ppu_ctrl_shadow
  sta PPUCTRL
  jmp wait_frame
.endproc
