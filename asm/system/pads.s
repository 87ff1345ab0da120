; pads.s: reads the two standard controllers (NESdev wiki "Standard controller").

.include "nes.inc"
.include "global.inc"

.segment "CODE"

;;
; Reads both controllers.
; @return pad_held+0/1: buttons down (KEY_A = bit 7 ... KEY_RIGHT = bit 0)
; @return pad_pressed+0/1: buttons down now that were up at the last call
; Uses local+0/1 for last frame's state.  Clobbers A, X.
; Cycles: about 380.
; (No DPCM is played, so the DPCM read-corruption workaround is not needed.)
.proc read_pads
last = local+0          ; 2 bytes
  ldx #1
@save:
  lda pad_held,x
  sta last,x
  dex
  bpl @save

  lda #1
  sta JOY1              ; strobe on: the pads latch their buttons
  sta pad_held+1        ; ring counter: this 1 reaches carry after 8 reads
  lsr a
  sta JOY1              ; strobe off
@bit:
  lda JOY1
  and #$03              ; bit 0 = standard pad, bit 1 = Famicom expansion pad
  cmp #1                ; C = 1 if either reports the button down
  rol pad_held+0
  lda JOY2
  and #$03
  cmp #1
  rol pad_held+1
  bcc @bit

  ldx #1
@edges:
  lda last,x
  eor #$FF
  and pad_held,x
  sta pad_pressed,x
  dex
  bpl @edges
  rts
.endproc
