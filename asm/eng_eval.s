; eng_eval.s: the static evaluation (reference_py/evaluate.py evaluate()).
;
;   e = s16(eng_score + knowledge)   Red's view; eng_score is kept by make/unmake
;   e = -e if Black is to move
;   e = s16(e + tempo)
;
; The knowledge terms (docs/ENGINE.md "Evaluation") are computed only when
; the active weight set has any (ev_knowledge).  Every table comes from
; tools/gen_tables.py (evaluate.build_tables), per weight set.  Per-piece
; terms are first counted, Red minus Black, in signed bytes (blocked horse
; legs, blocked elephant eyes, rooks on the enemy king's file) and
; multiplied by their weight once at the end; the cannon-file term is added
; per cannon.  The 16-bit adds wrap exactly as the reference's s16().
;
; The missing-piece table indices assume at most 2 advisors and 2 elephants
; per side, as in every legal position.

.include "global.inc"
.include "eng.inc"
.include "search.inc"

acc  = local+0         ; 2 bytes: knowledge sum, then the result
ekf  = local+2         ; the enemy king's file (PIECE_TERMS)
dif  = local+3         ; a signed count for ev_muladd
wlo  = local+4         ; a weight (16-bit) for ev_muladd
whi  = local+5
hb   = local+6         ; blocked horse legs, Red minus Black (signed)
eb   = local+7         ; blocked elephant eyes, Red minus Black
rf   = local+8         ; rooks on the enemy king's file, Red minus Black
csq  = local+9         ; a cannon's square
ek   = local+10        ; the enemy king's square
btw  = local+11        ; pieces between a cannon and the enemy king

;; acc += (wlo, whi)
.macro ACC_ADD_W
  clc
  lda acc
  adc wlo
  sta acc
  lda acc+1
  adc whi
  sta acc+1
.endmacro

;; acc -= (wlo, whi)
.macro ACC_SUB_W
  sec
  lda acc
  sbc wlo
  sta acc
  lda acc+1
  sbc whi
  sta acc+1
.endmacro

;; (wlo, whi) = the signed byte table,y sign-extended.  Clobbers A.  17 cycles.
.macro LOAD_W8 table
  lda table,y
  sta wlo
  asl a                ; C = the sign
  lda #0
  adc #$FF             ; $00 (C = 1) or $FF (C = 0)
  eor #$FF
  sta whi
.endmacro

;; counter + 1 (red = 1) or - 1 (red = 0).
.macro TALLY red, counter
  .if red
  inc counter
  .else
  dec counter
  .endif
.endmacro

;; TALLY the counter when board+d,y holds a piece (not empty, not off-board).
.macro IF_OCCUPIED d, tally, counter
  .local skip
  lda board+(d),y
  beq skip
  bmi skip             ; SQ_OFFBOARD ($FF); piece codes are $10-$2F
  TALLY tally, counter
skip:
.endmacro

;; An elephant's eye at d is occupied and its target (2d) on the own half.
.macro EYE d, tally, half
  .local skip
  lda board+(d),y
  beq skip
  bmi skip             ; SQ_OFFBOARD
  lda sq_flags+(2*(d)),y
  and #half
  beq skip
  TALLY tally, eb
skip:
.endmacro

;; The per-piece terms of one side's slots first+1..first+15 (slot first is
;; the king, which has none).  `tally` is
;; 1 (Red: counters go up) or 0 (Black: down), `half` the side's
;; FLAG_*_HALF, `eking` the enemy king's slot, `cadd` 1 (Red: cannon terms
;; are added) or 0 (Black: subtracted).  A slot's kind is classed by
;; ev_kclass (0 = no term: king, advisor, pawn), so those slots cost 18
;; cycles and the others are told apart by two shifts.
.macro PIECE_TERMS first, tally, half, eking, cadd
  .local loop, next, rook, horse, el, cannon, to_next, walk_up, walk_down, counted, done
  ldy piece_sq+eking
  sty ek
  lda sq_file,y
  sta ekf
  ldx #first + 1       ; slot 0 is the king
loop:
  ldy piece_kind,x
  lda ev_kclass,y
  beq next             ; king, advisor, pawn
  ldy piece_sq,x
  beq next             ; captured
  asl a
  bcs horse            ; $80
  bmi el               ; $40
  asl a
  bmi rook             ; $20
  jmp cannon           ; $10
next:
  inx
  cpx #first + 16
  bne loop
  jmp done
rook:                  ; a rook on the enemy king's file
  lda sq_file,y
  cmp ekf
  bne next
  TALLY tally, rf
  jmp next
horse:                 ; occupied orthogonal neighbours (the legs)
  IF_OCCUPIED DIR_UP, tally, hb
  IF_OCCUPIED DIR_DOWN, tally, hb
  IF_OCCUPIED DIR_LEFT, tally, hb
  IF_OCCUPIED DIR_RIGHT, tally, hb
  jmp next
el:                    ; occupied eyes whose target is on the own half
  EYE DIR_UP+DIR_RIGHT, tally, half
  EYE DIR_UP+DIR_LEFT, tally, half
  EYE DIR_DOWN+DIR_RIGHT, tally, half
  EYE DIR_DOWN+DIR_LEFT, tally, half
  jmp next
to_next:
  jmp next
cannon:                ; a cannon on the enemy king's file
  lda sq_file,y
  cmp ekf
  bne to_next
  sty csq
  lda #0
  sta btw
  cpy ek               ; C = 1: the king is below (csq > ek)
  bcs walk_down
walk_up:
  tya
  clc
  adc #DIR_UP
  tay
  cpy ek
  beq counted
  lda board,y
  beq walk_up
  inc btw
  bne walk_up          ; always
walk_down:
  tya
  sec
  sbc #DIR_UP
  tay
  cpy ek
  beq counted
  lda board,y
  beq walk_down
  inc btw
  bne walk_down        ; always
counted:
  ldy btw
  cpy #3
  bcc :+
  ldy #3
: lda (cfile),y        ; signed byte
  sta wlo
  lda #0
  sta whi
  lda wlo
  bpl :+
  dec whi
:
  .if cadd
  ACC_ADD_W
  .else
  ACC_SUB_W
  .endif
  jmp next
done:
.endmacro

;; acc + (add = 1) or - (add = 0) table[set * 9 + (2 - counts[own]) * 3 +
;; counts[enemy]].  Clobbers A, X, Y.
.macro MISS_TERM own, enemy, tlo, thi, add
  ldx counts+own
  lda miss_times3,x
  clc
  adc counts+enemy
  ldx eng_vset
  adc evk_base_9,x
  tay
  lda tlo,y
  sta wlo
  lda thi,y
  sta whi
  .if add
  ACC_ADD_W
  .else
  ACC_SUB_W
  .endif
.endmacro

cfile = local+12       ; 2 bytes: this set's cannon-file table (eng_eval only)

.segment "CODE"

;;
; The static evaluation of the position for the side to move, exactly as
; reference evaluate(pos, tables of the active weight set); no noise.
; Input: the position (eng_score, counts, piece lists, board, eng_side)
;   and eng_vset (the weight set whose values eng_score holds).
; Output: A = low byte, X = high byte of the signed 16-bit score; also in
;   local+0..1.
; Uses local+0..13.  Clobbers A, X, Y.
; Cycles: 69 with a material+PST set ("basic"); with the knowledge terms
;   ("full") 1,093 / 1,361 / 2,182 (min / median / max over the 520 positions
;   of emu_tests/test_romsearch_eval.py, which prints them).
.proc eng_eval
  ldx eng_vset
  lda ev_knowledge,x
  bne knowledge
  lda eng_score
  sta acc
  lda eng_score+1
  sta acc+1
  jmp side_view
knowledge:
  lda ev_cannon_file_ptr_l,x
  sta cfile
  lda ev_cannon_file_ptr_h,x
  sta cfile+1
  lda #0
  sta acc
  sta acc+1
  sta hb
  sta eb
  sta rf
  PIECE_TERMS 0, 1, FLAG_RED_HALF, 16, 1
  PIECE_TERMS 16, 0, FLAG_BLACK_HALF, 0, 0
  ; the counted per-piece terms times their weights (a zero count is skipped)
  ldy eng_vset
  lda hb
  beq :+
  LOAD_W8 ev_horse_leg
  lda hb
  jsr ev_muladd
: lda eb
  beq :+
  LOAD_W8 ev_elephant_eye
  lda eb
  jsr ev_muladd
: lda rf
  beq :+
  LOAD_W8 ev_rook_file
  lda rf
  jsr ev_muladd
:
  ; dynamic horse/cannon: (own - enemy) * dyn[n], n = pieces on the board
  ; (counts[0] and counts[8], kind 0, are always 0)
  clc
  lda counts+1
  .repeat 6, i
  adc counts+2+i
  .endrepeat
  .repeat 7, i
  adc counts+9+i
  .endrepeat
  ldx eng_vset
  adc evk_base_33,x    ; C = 0: the sum is at most 32
  tay                  ; Y = set * 33 + n (ev_muladd keeps Y)
  lda counts+KIND_HORSE
  sec
  sbc counts+8+KIND_HORSE
  beq :+
  sta dif
  lda evk_dyn_horse_lo,y
  sta wlo
  lda evk_dyn_horse_hi,y
  sta whi
  lda dif
  jsr ev_muladd
: lda counts+KIND_CANNON
  sec
  sbc counts+8+KIND_CANNON
  beq :+
  sta dif
  lda evk_dyn_cannon_lo,y
  sta wlo
  lda evk_dyn_cannon_hi,y
  sta whi
  lda dif
  jsr ev_muladd
:
  ; pawns against the enemy's rooks + horses + cannons: one product table
  ; [set * 42 + pawns * 7 + attackers] (at most 5 pawns, 6 attackers)
  ldy counts+KIND_PAWN
  lda times7,y
  ldx eng_vset
  clc
  adc evk_base_42,x
  adc counts+8+KIND_ROOK
  adc counts+8+KIND_HORSE
  adc counts+8+KIND_CANNON
  tay
  clc
  lda acc
  adc evk_pawn_prod_lo,y
  sta acc
  lda acc+1
  adc evk_pawn_prod_hi,y
  sta acc+1
  ldy counts+8+KIND_PAWN
  lda times7,y
  clc
  adc evk_base_42,x
  adc counts+KIND_ROOK
  adc counts+KIND_HORSE
  adc counts+KIND_CANNON
  tay
  sec
  lda acc
  sbc evk_pawn_prod_lo,y
  sta acc
  lda acc+1
  sbc evk_pawn_prod_hi,y
  sta acc+1
  ; missing elephants against enemy cannons, missing advisors against rooks:
  ; index (2 - own) * 3 + enemy
  MISS_TERM KIND_ELEPHANT, 8+KIND_CANNON, evk_miss_elephant_lo, evk_miss_elephant_hi, 1
  MISS_TERM 8+KIND_ELEPHANT, KIND_CANNON, evk_miss_elephant_lo, evk_miss_elephant_hi, 0
  MISS_TERM KIND_ADVISOR, 8+KIND_ROOK, evk_miss_advisor_lo, evk_miss_advisor_hi, 1
  MISS_TERM 8+KIND_ADVISOR, KIND_ROOK, evk_miss_advisor_lo, evk_miss_advisor_hi, 0
  ; e = score + knowledge
  clc
  lda acc
  adc eng_score
  sta acc
  lda acc+1
  adc eng_score+1
  sta acc+1
side_view:
  lda eng_side
  beq tempo
  sec                  ; Black to move: e = -e
  lda #0
  sbc acc
  sta acc
  lda #0
  sbc acc+1
  sta acc+1
tempo:
  ldx eng_vset
  ldy #0
  lda ev_tempo,x
  bpl :+
  dey
: clc
  adc acc
  sta acc
  tya
  adc acc+1
  sta acc+1
  tax
  lda acc
  rts
.endproc

;;
; acc += A * (wlo, whi), A a signed count (small: a loop of |A| adds).
; Clobbers A, X.
.proc ev_muladd
  tax
  beq done
  bmi negative
add:
  clc
  lda acc
  adc wlo
  sta acc
  lda acc+1
  adc whi
  sta acc+1
  dex
  bne add
  rts
negative:
  sec
  lda acc
  sbc wlo
  sta acc
  lda acc+1
  sbc whi
  sta acc+1
  inx
  bne negative
done:
  rts
.endproc

.segment "RODATA"
; the per-piece term of each kind: $80 horse, $40 elephant, $20 rook,
; $10 cannon, 0 none (PIECE_TERMS)
ev_kclass:
  .byte 0, 0, 0, $40, $80, $20, $10, 0
.assert >ev_kclass = >(ev_kclass + 7), error, "ev_kclass crosses a page (a cycle per lookup): move it"
; (2 - own advisors or elephants) * 3, for 0, 1, 2 of them
miss_times3:
  .byte 6, 3, 0
; pawns * 7, for 0..5 pawns (evk_pawn_prod rows)
times7:
  .byte 0, 7, 14, 21, 28, 35
