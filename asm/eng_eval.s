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
tp   = local+2         ; 2 bytes: table pointer
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

;; (wlo, whi) = the signed byte table,x sign-extended.  Clobbers A, Y.
.macro LOAD_W8 table
  .local positive
  ldy #0
  lda table,x
  sta wlo
  bpl positive
  dey
positive:
  sty whi
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
  cmp #SQ_OFFBOARD
  beq skip
  TALLY tally, counter
skip:
.endmacro

;; An elephant's eye at d is occupied and its target (2d) on the own half.
.macro EYE d, tally, half
  .local skip
  lda board+(d),y
  beq skip
  cmp #SQ_OFFBOARD
  beq skip
  lda sq_flags+(2*(d)),y
  and #half
  beq skip
  TALLY tally, eb
skip:
.endmacro

;; The per-piece terms of one side's slots first..first+15.  `tally` is
;; 1 (Red: counters go up) or 0 (Black: down), `half` the side's
;; FLAG_*_HALF, `eking` the enemy king's slot, `cadd` 1 (Red: cannon terms
;; are added) or 0 (Black: subtracted).
.macro PIECE_TERMS first, tally, half, eking, cadd
  .local loop, next, to_el, rook, horse, el, cannon, to_next, walk_up, walk_down, counted, done
  ldx #first
loop:
  ldy piece_sq,x
  beq next
  lda piece_kind,x
  cmp #KIND_ELEPHANT
  bcc next             ; king, advisor
  beq to_el
  cmp #KIND_ROOK
  beq rook
  bcc horse
  cmp #KIND_PAWN
  beq next
  jmp cannon
to_el:
  jmp el
rook:
  lda sq_file,y        ; a rook on the enemy king's file
  ldy piece_sq+eking
  cmp sq_file,y
  bne next
  TALLY tally, rf
next:
  inx
  cpx #first + 16
  bne loop
  jmp done
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
cannon:
  sty csq              ; a cannon on the enemy king's file
  lda sq_file,y
  ldy piece_sq+eking
  cmp sq_file,y
  bne to_next
  sty ek
  lda #0
  sta btw
  cpy csq              ; C = 1: the king is above (ek > csq)
  ldy csq
  bcc walk_down
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
;   ("full") 1,280 / 1,599 / 2,776 (min / median / max over the 520 positions
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
  ; the counted per-piece terms times their weights
  ldx eng_vset
  LOAD_W8 ev_horse_leg
  lda hb
  jsr ev_muladd
  ldx eng_vset
  LOAD_W8 ev_elephant_eye
  lda eb
  jsr ev_muladd
  ldx eng_vset
  LOAD_W8 ev_rook_file
  lda rf
  jsr ev_muladd
  ; dynamic horse/cannon: (own - enemy) * dyn[n], n = pieces on the board
  lda #0
  clc
  ldx #15
: adc counts,x
  dex
  bpl :-
  ldx eng_vset
  adc evk_base_33,x    ; C = 0: the sum is at most 32
  tay                  ; Y = set * 33 + n (ev_muladd keeps Y)
  lda evk_dyn_horse_lo,y
  sta wlo
  lda evk_dyn_horse_hi,y
  sta whi
  lda counts+KIND_HORSE
  sec
  sbc counts+8+KIND_HORSE
  jsr ev_muladd
  lda evk_dyn_cannon_lo,y
  sta wlo
  lda evk_dyn_cannon_hi,y
  sta whi
  lda counts+KIND_CANNON
  sec
  sbc counts+8+KIND_CANNON
  jsr ev_muladd
  ; pawns against the enemy's rooks + horses + cannons
  ldx eng_vset
  lda counts+8+KIND_ROOK
  clc
  adc counts+8+KIND_HORSE
  adc counts+8+KIND_CANNON
  adc evk_base_7,x
  tay
  lda evk_pawn_adj_lo,y
  sta wlo
  lda evk_pawn_adj_hi,y
  sta whi
  lda counts+KIND_PAWN
  jsr ev_muladd
  ldx eng_vset
  lda counts+KIND_ROOK
  clc
  adc counts+KIND_HORSE
  adc counts+KIND_CANNON
  adc evk_base_7,x
  tay
  lda evk_pawn_adj_lo,y
  sta wlo
  lda evk_pawn_adj_hi,y
  sta whi
  lda #0
  sec
  sbc counts+8+KIND_PAWN
  jsr ev_muladd
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
; (2 - own advisors or elephants) * 3, for 0, 1, 2 of them
miss_times3:
  .byte 6, 3, 0
