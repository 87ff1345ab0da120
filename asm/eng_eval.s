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
; per cannon.  All the 16-bit adds wrap (mod 2^16), so the order of the
; terms does not matter and the result is exactly the reference's s16().
;
; The missing-piece table indices assume at most 2 advisors and 2 elephants
; per side, and at most 2 rooks and 2 cannons (fen.py MAX_COUNT: the
; reference's tables have 9 entries), as in every legal position.

.include "global.inc"
.include "eng.inc"
.include "search.inc"

acc  = local+0         ; 2 bytes: eng_score + the knowledge sum, then the result
bkf  = local+2         ; Black's king's file (for Red's rooks and cannons)
rkf  = local+3         ; Red's king's file (for Black's)
wlo  = local+4         ; a weight (16-bit) for MULADD; the king's square
whi  = local+5         ;   for ev_cannon
hb   = local+6         ; blocked horse legs, Red minus Black (signed)
eb   = local+7         ; blocked elephant eyes, Red minus Black
rf   = local+8         ; rooks on the enemy king's file, Red minus Black
btw  = local+9         ; pieces between a cannon and the enemy king
cfile = local+10       ; 2 bytes: this set's cannon-file table (ev_cannon)
; after the piece loop:
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

;; acc += X * (lo, hi) mod 2^16: X a signed count, not 0, that set N (the
;; last flag-setting instruction was ldx or tax).  A loop of |X| adds of
;; lo / hi, which are operands: `idx` = 1 reads lo,y and hi,y.  Clobbers A;
;; X = 0.  About 25 cycles per unit (inline: no JSR/RTS).
.macro MULADD lo, hi, idx
  .local add, negative, done
  bmi negative
add:
  clc
  lda acc
  .if idx
  adc lo,y
  .else
  adc lo
  .endif
  sta acc
  lda acc+1
  .if idx
  adc hi,y
  .else
  adc hi
  .endif
  sta acc+1
  dex
  bne add
  beq done             ; always
negative:
  sec
  lda acc
  .if idx
  sbc lo,y
  .else
  sbc lo
  .endif
  sta acc
  lda acc+1
  .if idx
  sbc hi,y
  .else
  sbc hi
  .endif
  sta acc+1
  inx
  bne negative
done:
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

;; The horse on square Y: its occupied orthogonal neighbours (the legs).
;; `tally` 1 = Red (hb goes up), 0 = Black (down).
.macro HORSE_LEGS tally
  IF_OCCUPIED DIR_UP, tally, hb
  IF_OCCUPIED DIR_DOWN, tally, hb
  IF_OCCUPIED DIR_LEFT, tally, hb
  IF_OCCUPIED DIR_RIGHT, tally, hb
.endmacro

;; The elephant on square Y: its occupied eyes whose targets lie on the own
;; half (FLAG_*_HALF `half`).
.macro ELEPHANT_EYES tally, half
  EYE DIR_UP+DIR_RIGHT, tally, half
  EYE DIR_UP+DIR_LEFT, tally, half
  EYE DIR_DOWN+DIR_RIGHT, tally, half
  EYE DIR_DOWN+DIR_LEFT, tally, half
.endmacro

;; The slot at piece_kind+first,x / piece_sq+first,x (first = 0 Red, 16
;; Black): nothing for a king, advisor, pawn or empty slot (ev_kclass 0);
;; a horse or elephant goes on to `he` (with A = its class); a rook or
;; cannon on to `file` when it is on the enemy king's file (`kfile`).
;; Falls through when there is nothing to do: 11 cycles for a class-0
;; slot, 25 for a rook or cannon off that file.  A captured rook or cannon
;; (square 0) needs no test: sq_file[0] = $FF is no king's file.
.macro SLOT first, he, kfile, file
  .local next
  ldy piece_kind+first,x
  lda ev_kclass,y
  beq next             ; king, advisor, pawn, no piece
  bpl he               ; $01 horse, $40 elephant
  ldy piece_sq+first,x ; $80: a rook or cannon
  lda sq_file,y
  cmp kfile
  beq file
next:
.endmacro

;; The horse or elephant (class in A) of SLOT `first`: on to `horse`, or
;; falls through for an elephant; to `next` when captured.
.macro HORSE_OR_ELEPHANT first, next, horse
  ldy piece_sq+first,x
  beq next             ; captured
  lsr a
  bcs horse            ; $01
.endmacro

;; The missing-piece terms of one table (miss_elephant or miss_advisor of
;; the active set), table[(2 - own) * 3 + enemy] - table[(2 - own2) * 3 +
;; enemy2].  Its entries are m * c * w (evaluate.build_tables), so this is
;; (miss_prod[(2-own)*3+enemy] - miss_prod[(2-own2)*3+enemy2]) * w with
;; w = entry 4 (m = c = 1), added by MULADD when not 0: mod 2^16 exactly
;; the two table entries.  Clobbers A, X, Y.  11 cycles when both sides
;; have 2 (the products are 0), else 48 when the difference is 0.
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
  MULADD tlo+4, thi+4, 1
skip:
.endmacro

.segment "CODE"

;;
; The static evaluation of the position for the side to move, exactly as
; reference evaluate(pos, tables of the active weight set); no noise.
; The per-piece terms walk the slots 15..1 of both sides in one loop, Red's
; slot x then Black's slot x (SLOT: 11 cycles for a king, advisor, pawn or
; empty slot, 20-25 for a captured piece); the horse, elephant and file
; handlers jump back into the loop.
; Input: the position (eng_score, counts, piece lists, board, eng_side)
;   and eng_vset (the weight set whose values eng_score holds).
; Output: A = low byte, X = high byte of the signed 16-bit score; also in
;   local+0..1.
; Uses local+0..11 (keeps local+12..15) and 2 bytes of stack (ev_cannon).
; Clobbers A, X, Y.
; Cycles (to the final RTS): 68-69 with a material+PST set ("basic"); with
;   the knowledge terms ("full") 766 / 1,074 / 1,789 (min / median / max
;   over the 520 positions of emu_tests/test_romsearch_eval.py, which
;   prints them) and 1,325 a call on average in the Hard search of
;   bench.rom_profile --level Hard --positions 2 (middle-game positions).
.proc eng_eval
  ldx eng_vset
  lda eng_score        ; acc = eng_score, the knowledge terms added to it
  sta acc
  lda eng_score+1
  sta acc+1
  lda ev_knowledge,x
  bne knowledge
  jmp side_view
knowledge:
  lda #0
  sta hb
  sta eb
  sta rf
  ldy piece_sq+16      ; Black's king
  lda sq_file,y
  sta bkf
  ldy piece_sq         ; Red's king
  lda sq_file,y
  sta rkf
  ldx #15              ; slots 15..1 of each side (slot 0 is the king)
  bne loop             ; always
  ; the handlers sit around the loop, in reach of its branches
r_horse:
  HORSE_LEGS 1
  jmp r_next
r_he:
  HORSE_OR_ELEPHANT 0, r_next, r_horse
  ELEPHANT_EYES 1, FLAG_RED_HALF
  jmp r_next
loop:
  SLOT 0, r_he, bkf, r_file
r_next:
  SLOT 16, b_he, rkf, b_file
b_next:
  dex
  bne loop
  jmp terms
r_file:                ; a rook or cannon on Black's king's file
  lda piece_kind,x
  cmp #KIND_ROOK
  beq :+
  jmp r_cannon
: inc rf
  jmp r_next
b_file:
  lda piece_kind+16,x
  cmp #KIND_ROOK
  beq :+
  jmp b_cannon
: dec rf
  jmp b_next
b_he:
  HORSE_OR_ELEPHANT 16, b_next, b_horse
  ELEPHANT_EYES 0, FLAG_BLACK_HALF
  jmp b_next
b_horse:
  HORSE_LEGS 0
  jmp b_next
terms:
  ; the counted per-piece terms times their weights (a zero count is skipped)
  ldy eng_vset
  lda hb
  beq :+
  LOAD_W8 ev_horse_leg
  ldx hb
  MULADD wlo, whi, 0
: lda eb
  beq :+
  LOAD_W8 ev_elephant_eye
  ldx eb
  MULADD wlo, whi, 0
: lda rf
  beq :+
  LOAD_W8 ev_rook_file
  ldx rf
  MULADD wlo, whi, 0
:
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
  ldx eng_vset
  adc evk_base_33,x    ; C = 0: the sum is at most 32
  tay                  ; Y = set * 33 + n
  ldx dif
  beq :+
  MULADD evk_dyn_horse_lo, evk_dyn_horse_hi, 1
: ldx cdif
  beq no_dyn
  MULADD evk_dyn_cannon_lo, evk_dyn_cannon_hi, 1
no_dyn:
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
  ; missing elephants against enemy cannons, missing advisors against rooks
  MISS_PAIR KIND_ELEPHANT, 8+KIND_CANNON, 8+KIND_ELEPHANT, KIND_CANNON, evk_miss_elephant_lo, evk_miss_elephant_hi
  MISS_PAIR KIND_ADVISOR, 8+KIND_ROOK, 8+KIND_ADVISOR, KIND_ROOK, evk_miss_advisor_lo, evk_miss_advisor_hi
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
  ; the cannon on square Y is on the enemy king's file (rare)
r_cannon:
  lda piece_sq+16      ; Black's king
  sta wlo
  jsr ev_cannon
  ACC_ADD_W
  jmp r_next
b_cannon:
  lda piece_sq         ; Red's king
  sta wlo
  jsr ev_cannon
  ACC_SUB_W
  jmp b_next
.endproc

;;
; The cannon-file term of the cannon on square Y whose file holds the enemy
; king (on square wlo): (wlo, whi) = cannon_file[min(pieces between, 3)]
; of the active set sign-extended.  Clobbers A, Y, btw, cfile; keeps X.
.proc ev_cannon
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
  stx whi              ; (keeps X)
  ldx eng_vset
  lda ev_cannon_file_ptr_l,x
  sta cfile
  lda ev_cannon_file_ptr_h,x
  sta cfile+1
  ldx whi
  ldy btw
  cpy #3
  bcc :+
  ldy #3
: LOAD_W8 {(cfile)}    ; the signed byte, sign-extended
  rts
.endproc

.segment "RODATA"
; the per-piece term of each kind: $01 horse, $40 elephant, $80 rook or
; cannon (the file terms), 0 none (SLOT)
ev_kclass:
  .byte 0, 0, 0, $40, $01, $80, $80, 0
.assert >ev_kclass = >(ev_kclass + 7), warning, "ev_kclass crosses a page: a cycle more per lookup (correct, only slower); move it"
; (2 - own advisors or elephants) * 3, for 0, 1, 2 of them
miss_times3:
  .byte 6, 3, 0
; [m * 3 + c] = m * c, for m, c = 0..2 (MISS_PAIR)
miss_prod:
  .byte 0, 0, 0, 0, 1, 2, 0, 2, 4
; pawns * 7, for 0..5 pawns (evk_pawn_prod rows)
times7:
  .byte 0, 7, 14, 21, 28, 35
