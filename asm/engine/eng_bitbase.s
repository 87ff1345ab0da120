; eng_bitbase.s: the KH vs KE bitbase's probe (reference_py/bitbase.py is
; its specification; docs/ENGINE.md "Bitbase").
;
; The bitbase (7,290 bytes) and the lookup that computes a position's index
; live in the bitbase's bank (segment BITBASE, tables from
; tools/rom/gen_tables.py); the evaluation runs in the fixed bank with the
; engine's bank mapped, so bb_probe, in the fixed bank, maps the bitbase's
; bank, calls bb_verdict there and maps the caller's bank (bank_cur) back.

.include "global.inc"
.include "eng.inc"

.segment "CODE"

;;
; The bitbase's verdict on the evaluation e of a KH vs KE position
; (eng_bare has EG_BITBASE; eng_eval_endgame): maps the bitbase's bank for
; bb_verdict, then the caller's bank again (bank_cur; the bank table write:
; no bus conflict).
; Input: e in local+0..1, the position (piece_sq, eng_side), eng_bare
;   (EG_STRONG_BLACK: the horse side).  Output: local+0..1 = 0 when the
;   position is a draw; e + EG_BITBASE_WIN when it is a win for the horse
;   side and the horse side is to move, e - EG_BITBASE_WIN when not.
; Uses local+2..7 and 5 bytes of stack below its return address (the bank,
; bb_verdict's and bb_lookup's calls).  Keeps local+8..15.  Clobbers A, X, Y.
; Cycles (with the JSR): 309 / 315 / 351 for a draw, 336 / 341 / 376 for a
;   win (min / median / max over emu_tests/endgame_positions.kh_ke_positions(300)).
.proc bb_probe
  lda bank_cur          ; the caller's bank, mapped again at the end
  pha
  ldy #<.bank(bb_verdict)
  sty bank_cur
  tya
  sta bank_table,y
  jsr bb_verdict
  pla
  tay
  sty bank_cur
  sta bank_table,y
  rts
.endproc

.segment "BITBASE"

;;
; bb_probe's work, in the bitbase's bank: e (local+0..1) = 0 for a draw
; (bb_lookup: C = 0), e +- EG_BITBASE_WIN for a win (+ with the horse side
; to move).  Input, output, uses: as bb_probe.  Clobbers A, X, Y.
; Cycles: bb_lookup's + about 22 (draw) or 47 (win), with the JSR and RTS.
.proc bb_verdict
acc = local+0
  jsr bb_lookup
  bcs won
  lda #0                ; a draw
  sta acc
  sta acc+1
  rts
won:
  lda eng_bare          ; the horse side (EG_STRONG_BLACK, bit 6) to move?
  asl a
  asl a                 ; C = 1: Black has the horse
  lda #0
  rol a
  cmp eng_side
  bne lose
  clc
  lda acc
  adc #<EG_BITBASE_WIN
  sta acc
  lda acc+1
  adc #>EG_BITBASE_WIN
  sta acc+1
  rts
lose:
  sec
  lda acc
  sbc #<EG_BITBASE_WIN
  sta acc
  lda acc+1
  sbc #>EG_BITBASE_WIN
  sta acc+1
  rts
.endproc

;;
; The bit of the position in bb_data (reference_py/bitbase.py's index):
; each square in the elephant side's view (sq90_red / sq90_black), all
; mirrored (bb_mirror) when its elephant is right of the centre file; then
; bit = bb_row[(elephant side to move) * 36 + class * 9 + its king's palace
; index] + bb_king[the horse side's king's palace index] + the horse's square.
; Runs with its own bank mapped (bb_probe, bb_verdict).
; Input: as bb_probe.  Output: C = the bit (1: a win for the horse side).
; Uses local+2..7; keeps local+0..1.  Clobbers A, X, Y.
; Cycles: about 240 (no mirror) to 280 (mirror), with the JSR and RTS.
.proc bb_lookup
tbl  = local+2          ; the view table, then the address of the bitbase's byte
ecls = local+4          ; the elephant's class * 9
hsq  = local+5          ; the horse's square (0..89)
ak   = local+6          ; the horse side's king
dk   = local+7          ; the elephant side's king
  ldx #0                ; X: the horse side's first slot; Red's horse: Black's view
  lda #<sq90_black
  ldy #>sq90_black
  bit eng_bare
  bvc :+
  ldx #16               ; Black's horse: Red's view
  lda #<sq90_red
  ldy #>sq90_red
: sta tbl
  sty tbl+1
  ldy piece_sq+SLOT_KING,x
  lda (tbl),y
  sta ak
  ldy piece_sq+SLOT_HORSE,x
  bne :+
  ldy piece_sq+SLOT_HORSE+1,x
: lda (tbl),y
  sta hsq
  txa
  eor #16               ; the elephant side's slots
  tax
  ldy piece_sq+SLOT_KING,x
  lda (tbl),y
  sta dk
  ldy piece_sq+SLOT_ELEPHANT,x
  bne :+
  ldy piece_sq+SLOT_ELEPHANT+1,x
: lda (tbl),y
  tay
  lda bb_eclass,y       ; class * 9, bit 7: mirror the position
  bpl fold
  and #$7F
  ldx ak
  ldy bb_mirror,x
  sty ak
  ldx dk
  ldy bb_mirror,x
  sty dk
  ldx hsq
  ldy bb_mirror,x
  sty hsq
fold:
  ldx dk
  clc
  adc bb_palace,x       ; + the elephant side's king
  sta ecls
  lda eng_bare          ; the horse side (EG_STRONG_BLACK, bit 6) to move?
  asl a
  asl a                 ; C = 1: Black has the horse
  lda #0
  rol a
  eor eng_side          ; 1: the elephant side is to move
  beq :+
  lda #36
: clc
  adc ecls
  tay                   ; Y = the row
  ldx ak
  lda bb_palace,x
  tax                   ; X = the horse side's king
  clc
  lda bb_row_lo,y
  adc bb_king_lo,x
  sta tbl
  lda bb_row_hi,y
  adc bb_king_hi,x
  sta tbl+1
  lda tbl
  clc
  adc hsq
  sta tbl
  bcc :+
  inc tbl+1
: and #7
  tax                   ; the bit within its byte
  lsr tbl+1             ; the byte: bit >> 3
  ror tbl
  lsr tbl+1
  ror tbl
  lsr tbl+1
  ror tbl
  clc
  lda tbl
  adc #<bb_data
  sta tbl
  lda tbl+1
  adc #>bb_data
  sta tbl+1
  ldy #0
  lda (tbl),y
  and bb_mask,x
  cmp #1                ; C = 1 when the bit is set
  rts
.endproc
