; eng_bitbase.s: the horse bitbases' probe, KH vs KE and KH vs KAA
; (reference_py/bitbase.py is their specification; docs/ENGINE.md
; "Bitbases").
;
; Each bitbase (7,290 and 10,935 bytes) and the lookup that computes a
; position's index live in a bank of their own (segments BITBASE, in bank
; 2, and BITBASE_AA, in bank 6; tables from tools/rom/gen_tables.py); the
; evaluation runs in the fixed bank with the engine's bank mapped, so
; bb_probe, in the fixed bank, maps the class's bank, calls its lookup
; there, maps the caller's bank (bank_cur) back and applies the verdict.

.include "global.inc"
.include "eng.inc"

.segment "CODE"

;;
; The bitbase's verdict on the evaluation e of a KH vs KE or KH vs KAA
; position (eng_bare has EG_BITBASE or EG_BITBASE_AA; eng_eval_endgame):
; maps the class's bank for its lookup (bbe_lookup, bbaa_lookup), then the
; caller's bank again (bank_cur; the bank table write: no bus conflict).
; Input: e in local+0..1, the position (piece_sq, eng_side), eng_bare
;   (EG_STRONG_BLACK: the horse side).  Output: local+0..1 = 0 when the
;   position is a draw; e + EG_BITBASE_WIN when it is a win for the horse
;   side and the horse side is to move, e - EG_BITBASE_WIN when not.
; Uses local+2..7 and 3 bytes of stack below its return address (the bank,
; the lookup's call).  Keeps local+8..15.  Clobbers A, X, Y.
; Cycles (with the JSR): about 310-380 (emu_tests/test_rom_endgame.py prints them).
.proc bb_probe
acc = local+0
  lda bank_cur          ; the caller's bank, mapped again at the end
  pha
  lda eng_bare
  and #EG_BITBASE_AA
  bne aa
  ldy #<.bank(bbe_lookup)
  sty bank_cur
  tya
  sta bank_table,y
  jsr bbe_lookup
  jmp back
aa:
  ldy #<.bank(bbaa_lookup)
  sty bank_cur
  tya
  sta bank_table,y
  jsr bbaa_lookup
back:                   ; C = the verdict: PLA, TAY, STY, STA keep it
  pla
  tay
  sty bank_cur
  sta bank_table,y
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

; The locals of the lookups.
bb_tbl  = local+2       ; the view table, then the address of the bitbase's byte
bb_cls  = local+4       ; scratch: the class * 9 + the defender's king, then the byte within the row
bb_hsq  = local+5       ; the horse's square (0..89)
bb_ak   = local+6       ; the horse side's king
bb_dk   = local+7       ; the defender's king

;; The lookup's first part: each square in the defender's view (sq90_red /
;; sq90_black): bb_ak, bb_hsq, bb_dk; X = the defender's first slot, bb_tbl
;; the view table.  About 85 cycles.
.macro BB_VIEW
  .local view
  ldx #0                ; X: the horse side's first slot; Red's horse: Black's view
  lda #<sq90_black
  ldy #>sq90_black
  bit eng_bare
  bvc view
  ldx #16               ; Black's horse: Red's view
  lda #<sq90_red
  ldy #>sq90_red
view:
  sta bb_tbl
  sty bb_tbl+1
  ldy piece_sq+SLOT_KING,x
  lda (bb_tbl),y
  sta bb_ak
  ldy piece_sq+SLOT_HORSE,x
  bne :+
  ldy piece_sq+SLOT_HORSE+1,x
: lda (bb_tbl),y
  sta bb_hsq
  txa
  eor #16               ; the defender's slots
  tax
  ldy piece_sq+SLOT_KING,x
  lda (bb_tbl),y
  sta bb_dk
.endmacro

;; The lookup's second part, after the class (A = class * 9, bit 7: mirror
;; the position): the mirror fold, the bit's address and its test, with a
;; bitbase's tables (gen_tables.py: its mirror, palace, row_bit, row_lo/hi,
;; king_lo/hi, mask, data) and `rows` = its classes * 9 rows per side to
;; move.  The bit index (up to 87,479) does not fit 16 bits, so a row's
;; start is split: row_lo/hi = the offset of its byte in the data (row *
;; 810 >> 3), row_bit = row * 810 & 7; then v = row_bit + king * 90 + the
;; horse's square (< 908) gives the byte v >> 3 after the row's (read with
;; (bb_tbl),y) and the bit v & 7.
;; Output: C = the bit.  About 150 cycles (no mirror) to 190 (mirror).
.macro BB_INDEX mirror, palace, row_bit, row_lo, row_hi, king_lo, king_hi, mask, data, rows
  .local fold, horse_side, carry
  bpl fold
  and #$7F
  ldx bb_ak
  ldy mirror,x
  sty bb_ak
  ldx bb_dk
  ldy mirror,x
  sty bb_dk
  ldx bb_hsq
  ldy mirror,x
  sty bb_hsq
fold:
  ldx bb_dk
  clc
  adc palace,x          ; + the defender's king
  sta bb_cls
  lda eng_bare          ; the horse side (EG_STRONG_BLACK, bit 6) to move?
  asl a
  asl a                 ; C = 1: Black has the horse
  lda #0
  rol a
  eor eng_side          ; 1: the defender is to move
  beq horse_side
  lda #rows
horse_side:
  clc
  adc bb_cls
  tay                   ; Y = the row
  ldx bb_ak
  lda palace,x
  tax                   ; X = the horse side's king
  clc                   ; v = row_bit + king * 90 + the horse's square
  lda king_lo,x
  adc row_bit,y
  sta bb_tbl
  lda king_hi,x
  adc #0
  sta bb_tbl+1
  lda bb_tbl
  clc
  adc bb_hsq
  sta bb_tbl
  bcc carry
  inc bb_tbl+1
carry:
  and #7
  tax                   ; the bit within its byte
  lsr bb_tbl+1          ; v >> 3 (< 114: the high byte is 0 after)
  ror bb_tbl
  lsr bb_tbl+1
  ror bb_tbl
  lsr bb_tbl+1
  lda bb_tbl
  ror a
  sta bb_cls            ; (the class is spent: v >> 3 here)
  clc                   ; the row's byte: the data's address + row * 810 >> 3
  lda row_lo,y
  adc #<data
  sta bb_tbl
  lda row_hi,y
  adc #>data
  sta bb_tbl+1
  ldy bb_cls
  lda (bb_tbl),y
  and mask,x
  cmp #1                ; C = 1 when the bit is set
.endmacro

.segment "BITBASE"

;;
; The bit of a KH vs KE position in bbe_data (reference_py/bitbase.py's
; index): each square in the elephant side's view, all mirrored when its
; elephant is right of the centre file; then bit = bbe_row[(elephant side
; to move) * 36 + class * 9 + its king's palace index] + bbe_king[the horse
; side's king's palace index] + the horse's square (BB_INDEX: the row's
; byte and bit).
; Runs with its own bank mapped (bb_probe).
; Input: as bb_probe.  Output: C = the bit (1: a win for the horse side).
; Uses local+2..7; keeps local+0..1.  Clobbers A, X, Y.
; Cycles: about 240 (no mirror) to 280 (mirror), with the JSR and RTS.
.proc bbe_lookup
  BB_VIEW
  ldy piece_sq+SLOT_ELEPHANT,x
  bne :+
  ldy piece_sq+SLOT_ELEPHANT+1,x
: lda (bb_tbl),y
  tay
  lda bbe_class,y       ; class * 9, bit 7: mirror the position
  BB_INDEX bbe_mirror, bbe_palace, bbe_row_bit, bbe_row_lo, bbe_row_hi, bbe_king_lo, bbe_king_hi, bbe_mask, bbe_data, 36
  rts
.endproc

.segment "BITBASE_AA"

;;
; The bit of a KH vs KAA position in bbaa_data (reference_py/bitbase.py's
; index): each square in the advisors' side's view; the class of the two
; advisors' squares (bbaa_class[code5 + code1]: 6 classes, mirrored when
; the pair is the mirror image of a class's); then bit = bbaa_row[(advisor
; side to move) * 54 + class * 9 + its king's palace index] + bbaa_king[the
; horse side's king's palace index] + the horse's square.
; Runs with its own bank mapped (bb_probe).
; Input: as bb_probe.  Output: C = the bit (1: a win for the horse side).
; Uses local+2..7; keeps local+0..1.  Clobbers A, X, Y.
; Cycles: about 260 (no mirror) to 300 (mirror), with the JSR and RTS.
.proc bbaa_lookup
  BB_VIEW
  ldy piece_sq+SLOT_ADVISOR,x   ; exactly two advisors: both slots hold one
  lda (bb_tbl),y
  tay
  lda bbaa_code5,y
  sta bb_cls
  ldy piece_sq+SLOT_ADVISOR+1,x
  lda (bb_tbl),y
  tay
  lda bbaa_code1,y
  clc
  adc bb_cls
  tay
  lda bbaa_class,y      ; class * 9, bit 7: mirror the position
  BB_INDEX bbaa_mirror, bbaa_palace, bbaa_row_bit, bbaa_row_lo, bbaa_row_hi, bbaa_king_lo, bbaa_king_hi, bbaa_mask, bbaa_data, 54
  rts
.endproc
