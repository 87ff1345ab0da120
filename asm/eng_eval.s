; eng_eval.s: the static evaluation (reference_py/evaluate.py evaluate()).
;
;   e = s16(eng_score + eng_mterm + per-piece terms)   Red's view
;   e = -e if Black is to move
;   e = s16(e + tempo)
;
; The knowledge terms (docs/ENGINE.md "Evaluation") are computed only when
; the active weight set has any (ev_knowledge).  Every table comes from
; tools/gen_tables.py (evaluate.build_tables), per weight set.  They come
; in two groups:
;   count-based (dynamic horse/cannon, pawns against attackers, missing
;     elephants / advisors): they depend on `counts` alone, which only a
;     capture changes, so eng_mterm_calc / eng_mterm_sum sum them into
;     eng_mterm when the position is loaded and after each capture
;     (eng_load, eng_make; eng_unmake restores the saved sum), and eng_eval
;     just adds eng_mterm;
;   per-piece (eng_eval itself): every kind has fixed slots (docs/ENGINE.md
;     "Board"), so they read the horses, elephants, rooks and cannons
;     straight from their slots, with no kind lookup: blocked horse legs,
;     blocked elephant eyes and rooks on the enemy king's file are counted,
;     Red minus Black, in X and multiplied by their weight once per kind
;     (COUNT_TIMES); the cannon-file term is added per cannon.
; All the 16-bit adds wrap (mod 2^16), so the order of the terms does not
; matter and the result is exactly the reference's s16().
;
; The missing-piece table indices assume at most 2 advisors and 2 elephants
; per side, and at most 2 rooks and 2 cannons (fen.py MAX_COUNT: the
; reference's tables have 9 entries), as in every legal position.

.include "global.inc"
.include "eng.inc"
.include "search.inc"

acc  = local+0         ; 2 bytes: eng_score + the knowledge sum, then the result
bkf  = local+2         ; Black's king's file (for Red's rooks and cannons), $7F: no king
rkf  = local+3         ; Red's king's file (for Black's)
wlo  = local+4         ; a weight (16-bit) for MULADD; the king's square
whi  = local+5         ;   for ev_cannon
btw  = local+9         ; pieces between a cannon and the enemy king (ev_cannon)
cfile = local+10       ; 2 bytes: this set's cannon-file table (ev_cannon)
; eng_mterm_calc:
dif  = local+2         ; a signed count (MULADD)
cdif = local+3         ; own - enemy cannons

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

;; sum += X * (lo, hi) mod 2^16 (`sum`: 2 bytes, acc or eng_mterm): X a
;; signed count, not 0, that set N (the last flag-setting instruction was
;; ldx or tax).  A loop of |X| adds of lo / hi, which are operands: `idx` =
;; 1 reads lo,y and hi,y.  Clobbers A; X = 0.  About 25 cycles per unit (inline: no JSR/RTS).
.macro MULADD lo, hi, idx, sum
  .local add, negative, done
  bmi negative
add:
  clc
  lda sum
  .if idx
  adc lo,y
  .else
  adc lo
  .endif
  sta sum
  lda sum+1
  .if idx
  adc hi,y
  .else
  adc hi
  .endif
  sta sum+1
  dex
  bne add
  beq done             ; always
negative:
  sec
  lda sum
  .if idx
  sbc lo,y
  .else
  sbc lo
  .endif
  sta sum
  lda sum+1
  .if idx
  sbc hi,y
  .else
  sbc hi
  .endif
  sta sum+1
  inx
  bne negative
done:
.endmacro

;; X + 1 (red = 1) or X - 1 (red = 0): the count of a per-piece term.
.macro TALLY red
  .if red
  inx
  .else
  dex
  .endif
.endmacro

;; TALLY when board+d,y holds a piece (not empty, not off-board).
;; 7 cycles when empty.
.macro IF_OCCUPIED d, red
  .local skip
  lda board+(d),y
  beq skip
  bmi skip             ; SQ_OFFBOARD ($FF); piece codes are $10-$2F
  TALLY red
skip:
.endmacro

;; An elephant's eye at d is occupied and its target (2d) on the own half.
;; 7 cycles when the eye is empty.
.macro EYE d, red, half
  .local skip
  lda board+(d),y
  beq skip
  bmi skip             ; SQ_OFFBOARD
  lda sq_flags+(2*(d)),y
  and #half
  beq skip
  TALLY red
skip:
.endmacro

;; The horse in `slot` (if on the board): its occupied orthogonal
;; neighbours (the legs), counted in X (`red` 1: up, 0: down).
;; 6 cycles for an empty slot, 33-45 for a horse.
.macro HORSE_LEGS slot, red
  .local skip
  ldy piece_sq+slot
  beq skip
  IF_OCCUPIED DIR_UP, red
  IF_OCCUPIED DIR_DOWN, red
  IF_OCCUPIED DIR_LEFT, red
  IF_OCCUPIED DIR_RIGHT, red
skip:
.endmacro

;; The elephant in `slot` (if on the board): its occupied eyes whose
;; targets lie on the own half (FLAG_*_HALF `half`), counted in X.
;; 6 cycles for an empty slot, 33 and up for an elephant.
.macro ELEPHANT_EYES slot, red, half
  .local skip
  ldy piece_sq+slot
  beq skip
  EYE DIR_UP+DIR_RIGHT, red, half
  EYE DIR_UP+DIR_LEFT, red, half
  EYE DIR_DOWN+DIR_RIGHT, red, half
  EYE DIR_DOWN+DIR_LEFT, red, half
skip:
.endmacro

;; The rook in `slot` counts in X when it is on the enemy king's file
;; (`kfile`).  A captured rook (square 0) needs no test: sq_file[0] = $FF is
;; no king's file (a missing king's is $7F).  12 cycles off that file.
.macro ROOK_FILE slot, red, kfile
  .local skip
  ldy piece_sq+slot
  lda sq_file,y
  cmp kfile
  bne skip
  TALLY red
skip:
.endmacro

;; The cannon in `slot`: its cannon-file term when it is on the enemy
;; king's file (ev_cannon, with X = the enemy king's slot).  12 cycles off
;; that file.
.macro CANNON_FILE slot, kfile, kslot
  .local skip
  ldy piece_sq+slot
  lda sq_file,y
  cmp kfile
  bne skip
  ldx #kslot
  jsr ev_cannon
skip:
.endmacro

;; acc += X * the set's signed byte weight `table`[eng_vset], when X != 0.
.macro COUNT_TIMES table
  .local skip
  txa
  beq skip
  ldy eng_vset
  LOAD_W8 table
  txa                  ; N = the count's sign (MULADD)
  MULADD wlo, whi, 0, acc
skip:
.endmacro

;; eng_mterm += the missing-piece terms of one table (miss_elephant or
;; miss_advisor of the active set), table[(2 - own) * 3 + enemy] -
;; table[(2 - own2) * 3 + enemy2].  Its entries are m * c * w
;; (evaluate.build_tables), so this is (miss_prod[(2-own)*3+enemy] -
;; miss_prod[(2-own2)*3+enemy2]) * w with w = entry 4 (m = c = 1), added by
;; MULADD when not 0: mod 2^16 exactly the two table entries.  Clobbers
;; A, X, Y.  11 cycles when both sides have 2 (the products are 0), else 48
;; when the difference is 0.
.macro MISS_PAIR own, enemy, own2, enemy2, tlo, thi
  .local skip
  lda counts+own
  and counts+own2
  cmp #2
  beq skip             ; 2 and 2 (of 0..2)
  ldy counts+own2
  lda miss_times3,y
  clc
  adc counts+enemy2
  tay
  lda miss_prod,y
  sta dif
  ldy counts+own
  lda miss_times3,y
  adc counts+enemy     ; C = 0: the add above is at most 8
  tay
  lda miss_prod,y
  sec
  sbc dif              ; -4..4
  beq skip
  sta dif
  ldx eng_vset
  ldy evk_base_9,x
  ldx dif
  MULADD tlo+4, thi+4, 1, eng_mterm
skip:
.endmacro

.segment "CODE"

;;
; The static evaluation of the position for the side to move, exactly as
; reference evaluate(pos, tables of the active weight set); no noise.
; eng_score + eng_mterm (the count-based terms, kept by eng_load / eng_make
; / eng_unmake) plus the per-piece terms, which read the fixed slots of
; each kind (docs/ENGINE.md "Board"): both sides' horses (HORSE_LEGS),
; elephants (ELEPHANT_EYES), rooks (ROOK_FILE) and cannons (CANNON_FILE),
; straight-line code with no kind lookup; an empty slot costs 6 cycles.
; Input: the position (eng_score, eng_mterm, piece lists, board, eng_side)
;   and eng_vset (the weight set whose values eng_score and eng_mterm hold).
; Output: A = low byte, X = high byte of the signed 16-bit score; also in
;   local+0..1.
; Uses local+0..11 (keeps local+12..15) and 2 bytes of stack (ev_cannon).
; Clobbers A, X, Y.
; Cycles (to the final RTS): 68-69 with a material+PST set ("basic"); with
;   the knowledge terms ("full") 276 / 395 / 958 (min / median / max over
;   the 520 positions of emu_tests/test_romsearch_eval.py, which prints
;   them; 501 / 734 / 1,371 when eng_eval computed the count-based terms
;   itself) and 552 a call on average in the Master search of
;   bench.rom_profile --level Master --positions 1 (middle-game position;
;   897 with the count-based terms, 1,408 with the per-slot kind dispatch
;   before the fixed slots).
.proc eng_eval
  ldx eng_vset
  lda ev_knowledge,x
  bne knowledge
  lda eng_score        ; acc = eng_score
  sta acc
  lda eng_score+1
  sta acc+1
  jmp side_view
knowledge:
  clc                  ; acc = eng_score + eng_mterm, the per-piece terms added to it
  lda eng_score
  adc eng_mterm
  sta acc
  lda eng_score+1
  adc eng_mterm+1
  sta acc+1
  .assert SLOTS_HORSE = 2 && SLOTS_ELEPHANT = 2 && SLOTS_ROOK = 2 && SLOTS_CANNON = 2, error, "eng_eval reads two slots per horse, elephant, rook and cannon"
  ; blocked horse legs, Red minus Black, times the set's weight
  ldx #0
  HORSE_LEGS SLOT_HORSE, 1
  HORSE_LEGS SLOT_HORSE+1, 1
  HORSE_LEGS 16+SLOT_HORSE, 0
  HORSE_LEGS 16+SLOT_HORSE+1, 0
  COUNT_TIMES ev_horse_leg
  ; blocked elephant eyes
  ldx #0
  ELEPHANT_EYES SLOT_ELEPHANT, 1, FLAG_RED_HALF
  ELEPHANT_EYES SLOT_ELEPHANT+1, 1, FLAG_RED_HALF
  ELEPHANT_EYES 16+SLOT_ELEPHANT, 0, FLAG_BLACK_HALF
  ELEPHANT_EYES 16+SLOT_ELEPHANT+1, 0, FLAG_BLACK_HALF
  COUNT_TIMES ev_elephant_eye
  ; the kings' files ($FF for a missing king becomes $7F: no captured
  ; piece's file, sq_file[0] = $FF, matches it)
  ldy piece_sq+16+SLOT_KING
  lda sq_file,y
  and #$7F
  sta bkf
  ldy piece_sq+SLOT_KING
  lda sq_file,y
  and #$7F
  sta rkf
  ; rooks on the enemy king's file
  ldx #0
  ROOK_FILE SLOT_ROOK, 1, bkf
  ROOK_FILE SLOT_ROOK+1, 1, bkf
  ROOK_FILE 16+SLOT_ROOK, 0, rkf
  ROOK_FILE 16+SLOT_ROOK+1, 0, rkf
  COUNT_TIMES ev_rook_file
  ; cannons on the enemy king's file
  CANNON_FILE SLOT_CANNON, bkf, 16+SLOT_KING
  CANNON_FILE SLOT_CANNON+1, bkf, 16+SLOT_KING
  CANNON_FILE 16+SLOT_CANNON, rkf, SLOT_KING
  CANNON_FILE 16+SLOT_CANNON+1, rkf, SLOT_KING
side_view:
  ; Red to move: e = acc + tempo; Black: e = tempo - acc
  ldx eng_vset
  ldy #0
  lda ev_tempo,x
  bpl :+
  dey                  ; (Y, A) = tempo sign-extended
: ldx eng_side
  bne black
  clc
  adc acc
  sta acc
  tya
  adc acc+1
  sta acc+1
  tax
  lda acc
  rts
black:
  sec
  sbc acc
  sta acc
  tya
  sbc acc+1
  sta acc+1
  tax
  lda acc
  rts
.endproc

;;
; eng_mterm = the count-based knowledge terms of the evaluation (docs/ENGINE.md
; "Evaluation"; reference evaluate()): dynamic horse/cannon, pawns against
; the enemy's rooks + horses + cannons, missing elephants against enemy
; cannons and missing advisors against enemy rooks, summed mod 2^16 with the
; weights of the active set (eng_mterm_sum); 0 when the set has no
; knowledge terms (ev_knowledge, the "basic" set), and then every
; undo_mterm entry is set to 0 too.  They depend on `counts` alone, so
; eng_load computes them and eng_make recomputes them after a capture only
; (eng_unmake restores the saved value); eng_eval adds eng_mterm to
; eng_score and computes only the per-piece terms.
; Input: counts, eng_vset.  Output: eng_mterm (lo, hi); undo_mterm_lo/hi
;   with a set without knowledge terms.
; Uses local+2..3.  Clobbers A, X, Y.
; Cycles (to the final RTS): 230 with a material+PST set (the undo
;   entries); with the knowledge terms 153 for the opening position, about
;   150-530 along the random walks of emu_tests/test_romengine_makeunmake.py
;   (which prints them) and, as eng_mterm_sum from eng_make, 379 a call on
;   average in the Master search of bench.rom_profile --level Master
;   --positions 1 (after captures).
.proc eng_mterm_calc
  ldx eng_vset
  lda ev_knowledge,x
  bne eng_mterm_sum    ; (the next routine)
  sta eng_mterm        ; 0: eng_eval does not read it
  sta eng_mterm+1
  ldx #ENG_PLIES - 1   ; and 0 in every undo entry: eng_make saves nothing
: sta undo_mterm_lo,x  ;   with such a set, eng_unmake restores this 0
  sta undo_mterm_hi,x
  dex
  bpl :-
  rts
.endproc

;;
; eng_mterm_calc's sum, for a set with knowledge terms (eng_make's entry
; after a capture; eng_mterm_calc falls into it).
; Input: X = eng_vset, counts.  Output: eng_mterm.
; Uses local+2..3.  Clobbers A, X, Y.
.proc eng_mterm_sum
  ; pawns against the enemy's rooks + horses + cannons: one product table
  ; [set * 42 + pawns * 7 + attackers] (at most 5 pawns, 6 attackers);
  ; Red's term starts the sum
  ldy counts+KIND_PAWN
  lda times7,y
  clc
  adc evk_base_42,x
  adc counts+8+KIND_ROOK
  adc counts+8+KIND_HORSE
  adc counts+8+KIND_CANNON
  tay
  lda evk_pawn_prod_lo,y
  sta eng_mterm
  lda evk_pawn_prod_hi,y
  sta eng_mterm+1
  ldy counts+8+KIND_PAWN
  lda times7,y
  clc
  adc evk_base_42,x
  adc counts+KIND_ROOK
  adc counts+KIND_HORSE
  adc counts+KIND_CANNON
  tay
  sec
  lda eng_mterm
  sbc evk_pawn_prod_lo,y
  sta eng_mterm
  lda eng_mterm+1
  sbc evk_pawn_prod_hi,y
  sta eng_mterm+1
  ; dynamic horse/cannon: (own - enemy) * dyn[n], n = pieces on the board
  ; (not counted when both differences are 0)
  lda counts+KIND_CANNON
  sec
  sbc counts+8+KIND_CANNON
  sta cdif
  lda counts+KIND_HORSE
  sec
  sbc counts+8+KIND_HORSE
  sta dif
  ora cdif
  beq no_dyn
  ; (counts[0] and counts[8], kind 0, are always 0)
  clc
  lda counts+1
  .repeat 6, i
  adc counts+2+i
  .endrepeat
  .repeat 7, i
  adc counts+9+i
  .endrepeat
  adc evk_base_33,x    ; X = eng_vset; C = 0: the sum is at most 32
  tay                  ; Y = set * 33 + n
  ldx dif
  beq :+
  MULADD evk_dyn_horse_lo, evk_dyn_horse_hi, 1, eng_mterm
: ldx cdif
  beq no_dyn
  MULADD evk_dyn_cannon_lo, evk_dyn_cannon_hi, 1, eng_mterm
no_dyn:
  ; missing elephants against enemy cannons, missing advisors against rooks
  MISS_PAIR KIND_ELEPHANT, 8+KIND_CANNON, 8+KIND_ELEPHANT, KIND_CANNON, evk_miss_elephant_lo, evk_miss_elephant_hi
  MISS_PAIR KIND_ADVISOR, 8+KIND_ROOK, 8+KIND_ADVISOR, KIND_ROOK, evk_miss_advisor_lo, evk_miss_advisor_hi
  rts
.endproc

;;
; The cannon-file term of the cannon on square Y whose file holds the enemy
; king (the king in slot X: SLOT_KING for a Black cannon, 16+SLOT_KING for
; a Red one): acc += cannon_file[min(pieces between, 3)] of the active set
; for a Red cannon, acc -= it for a Black one.
; Clobbers A, X, Y, wlo, whi, btw, cfile.  (Rare: most cannons are not on
; the enemy king's file.)
.proc ev_cannon
  lda piece_sq,x
  sta wlo              ; the enemy king's square
  stx whi              ; (its slot: the sign of the term)
  lda #0
  sta btw
  cpy wlo              ; C = 1: the king is below (Y > wlo)
  bcs walk_down
walk_up:
  tya
  clc
  adc #DIR_UP
  tay
  cpy wlo
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
  cpy wlo
  beq counted
  lda board,y
  beq walk_down
  inc btw
  bne walk_down        ; always
counted:
  ldx whi              ; the king's slot: 0 a Black cannon (subtract), 16 a Red one
  ldy eng_vset
  lda ev_cannon_file_ptr_l,y
  sta cfile
  lda ev_cannon_file_ptr_h,y
  sta cfile+1
  ldy btw
  cpy #3
  bcc :+
  ldy #3
: LOAD_W8 {(cfile)}    ; the signed byte, sign-extended
  .assert SLOT_KING = 0, error, "ev_cannon tells the sides apart by the enemy king's slot 0 / 16"
  cpx #16
  bne black
  ACC_ADD_W
  rts
black:
  ACC_SUB_W
  rts
.endproc

.segment "RODATA"
; (2 - own advisors or elephants) * 3, for 0, 1, 2 of them
miss_times3:
  .byte 6, 3, 0
; [m * 3 + c] = m * c, for m, c = 0..2 (MISS_PAIR)
miss_prod:
  .byte 0, 0, 0, 0, 1, 2, 0, 2, 4
; pawns * 7, for 0..5 pawns (evk_pawn_prod rows)
times7:
  .byte 0, 7, 14, 21, 28, 35
