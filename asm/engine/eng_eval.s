; eng_eval.s: the static evaluation (reference_py/evaluate.py evaluate()).
;
;   e = s16(eng_score + eng_mterm + per-piece terms)   Red's view
;   e = -e if Black is to move
;   e = s16(e + tempo)
;
; The knowledge terms (docs/ENGINE.md "Evaluation") are computed only when
; the active weight set has any (ev_knowledge).  Every table comes from
; tools/rom/gen_tables.py (evaluate.build_tables), per weight set.  They come
; in two groups:
;   count-based (dynamic horse/cannon, pawns against attackers, missing
;     elephants / advisors): they depend on `counts` alone, which only a
;     capture changes, so eng_mterm_calc / eng_mterm_sum sum them into
;     eng_mterm when the position is loaded and after each capture
;     (eng_load, eng_make; eng_unmake restores the saved sum), and eng_eval
;     just adds eng_mterm;
;   per-piece (eng_eval itself): every kind has fixed slots (docs/ENGINE.md
;     "Board"), so they read the horses, elephants, rooks and cannons
;     straight from their slots, with no kind lookup.  They are summed by
;     the side they count against, as that side's weakness W (WEAKNESS:
;     eng_eval_ge's red_weakness / black_weakness): its horses' blocked
;     legs, its elephants' blocked eyes, the enemy's rooks and cannons on
;     its king's file, each weight with the sign that makes W >= 0
;     (ev_wk_*).  Then, from the side to move's view,
;       e = base - W(own) + W(enemy),   base = +-(eng_score + eng_mterm) + tempo.
;
; Lazy evaluation (eng_eval_ge): the caller asks whether e >= T.  Since
; W(enemy) >= 0, base - W(own) is a lower bound of e: when it reaches T the
; answer is yes and W(enemy) is never computed (the search's uses, reverse
; futility and quiescence's stand pat, only return beta then).
; tools/rom/gen_tables.py (_check_eval) refuses a weight set for which this does
; not hold: a negative weakness weight, a W above WEAKNESS_MAX = 255 (W is
; summed in one byte with C = 0 throughout, no add carrying), or an
; evaluation that could leave +-EVAL_ABS_MAX (so the 16-bit sums here
; never wrap and equal the reference's s16()).
;
; The missing-piece table indices assume at most 2 advisors and 2 elephants
; per side, and at most 2 rooks and 2 cannons (fen.py MAX_COUNT: the
; reference's tables have 9 entries), as in every legal position.

.include "global.inc"
.include "eng.inc"
.include "search.inc"

acc  = local+0         ; 2 bytes: the score being built, then the result
; (the set's weakness per blocked horse leg and per blocked elephant eye:
; eng_wleg, eng_weye, which eng_load copies from ev_wk_leg / ev_wk_eye)
kq   = local+4         ; ev_cannon: the own king's square (CANNON_ON_FILE)
kf   = local+5         ;   and its file ($7F: no king, no file)
wsum = local+6         ; ev_cannon: the weakness being summed
; eng_eval_ge's T: eval_t (search.inc), local+12..13, kept
; eng_mterm_calc:
dif  = local+2         ; a signed count (MULADD)
cdif = local+3         ; own - enemy cannons

;; sum += X * (lo, hi) mod 2^16 (`sum`: 2 bytes, acc or eng_mterm): X a
;; signed count, not 0, that set N (the last flag-setting instruction was
;; ldx or tax).  A loop of |X| adds of lo / hi, which are operands: `idx` =
;; 1 reads lo,y and hi,y.  Clobbers A; X = 0.  About 25 cycles per unit (inline: no JSR/RTS).
;; (eng_mterm_sum)
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

;; A += eng_wleg when board+d,y holds a piece (not empty, not off the
;; board).  C = 0 in and out.  Clobbers X.  7 cycles when empty, 12 when
;; blocked (board+d,y never crosses a page: asm/ram.s).
.macro LEG d
  .local skip
  ldx a:board+(d),y    ; (a: absolute: ca65 rejects `ldx board+(d),y` for d < 0)
  beq skip
  bmi skip             ; SQ_OFFBOARD ($FF); piece codes are $10-$2F
  adc eng_wleg
skip:
.endmacro

;; The horse in `slot` (if on the board): A += eng_wleg per occupied
;; orthogonal neighbour (its legs).  C = 0 in and out.  Clobbers X, Y.  5
;; cycles for an empty slot, about 35 for a horse with no leg blocked, +5
;; per blocked leg.
.macro HORSE_LEGS slot
  .local skip
  ldy piece_sq+slot
  beq skip
  LEG DIR_UP
  LEG DIR_DOWN
  LEG DIR_LEFT
  LEG DIR_RIGHT
skip:
.endmacro

;; A += eng_weye when the eye at d is occupied and its target (2d) lies on the
;; own half (FLAG_*_HALF `half`).  C = 0 in and out.  Clobbers X.
;; 7 cycles when the eye is empty (board+d,y never crosses a page: asm/ram.s).
.macro EYE d, half
  .local skip, no, done
  ldx a:board+(d),y    ; (a: absolute: ca65 rejects `ldx board+(d),y` for d < 0)
  beq done
  bmi done             ; SQ_OFFBOARD
  tax                  ; (the weakness, while A tests the target)
  lda sq_flags+(2*(d)),y
  and #half
  beq no
  txa
  adc eng_weye
  bcc done             ; always (C = 0: no add carries)
no:
  txa
done:
.endmacro

;; A += eng_weye when the eye at d holds a piece (the eye of an elephant on
;; a rank where the eye is on the board and its target on the own half: no
;; test of either).  C = 0 in and out.  Clobbers X.  7 cycles when empty,
;; 10 when blocked.
.macro EYE_ON d
  .local skip
  ldx a:board+(d),y    ; (a: absolute: ca65 rejects `ldx board+(d),y` for d < 0)
  beq skip
  adc eng_weye
skip:
.endmacro

;; The elephant in `slot` (if on the board): A += eng_weye per blocked eye.
;; An elephant stands on one of its side's 7 squares (fen.py; eng_load
;; assumes it, as the capture generator does), so its rank says which
;; eyes count: on its back rank (0 for Red, 9 for Black) the two towards
;; the river (the other two are off the board); on the river's rank (4 /
;; 5) the two towards its back rank (the others' targets lie across the
;; river); on the middle rank (2 / 7) all four (an eye off the board, on
;; the a- or i-file, reads SQ_OFFBOARD), whose targets all lie on the own
;; half.  That is EYE's test (occupied, target on the own half) for each
;; eye, without the half test (EYE keeps it on the middle rank only).  C = 0
;; in and out.  Clobbers X, Y.  8 cycles for an empty slot; with no eye
;; blocked 27-32 on the back or river rank (EYE's four tests: 37 / 33) and
;; 42-48 on the middle rank (the rank tested last: its four EYE tests
;; would put the other ranks out of a branch's reach), + 3 per blocked eye
;; (EYE_ON), + 10 on the middle rank (EYE).
.macro ELEPHANT_EYES slot, half, red
  .local skip, back, middle, out
  ldy piece_sq+slot
  beq out              ; no elephant (C = 0: `out` is in reach, skip is not)
  .if red
  cpy #FIRST_SQ + 1 * BOARD_WIDTH
  bcc back             ; rank 0 (C = 0)
  cpy #FIRST_SQ + 3 * BOARD_WIDTH
  bcc middle           ; rank 2 (C = 0)
  clc                  ; rank 4
  EYE_ON DIR_DOWN+DIR_RIGHT
  EYE_ON DIR_DOWN+DIR_LEFT
  bcc skip             ; always
back:
  EYE_ON DIR_UP+DIR_RIGHT
  EYE_ON DIR_UP+DIR_LEFT
out:
  bcc skip             ; always
middle:
  EYE DIR_UP+DIR_RIGHT, half
  EYE DIR_UP+DIR_LEFT, half
  EYE DIR_DOWN+DIR_RIGHT, half
  EYE DIR_DOWN+DIR_LEFT, half
  .else
  cpy #FIRST_SQ + 9 * BOARD_WIDTH
  bcs back             ; rank 9 (C = 1)
  cpy #FIRST_SQ + 6 * BOARD_WIDTH
  bcs middle           ; rank 7 (C = 1)
  EYE_ON DIR_UP+DIR_RIGHT         ; rank 5 (C = 0)
  EYE_ON DIR_UP+DIR_LEFT
out:
  bcc skip             ; always
back:
  clc
  EYE_ON DIR_DOWN+DIR_RIGHT
  EYE_ON DIR_DOWN+DIR_LEFT
  bcc skip             ; always
middle:
  clc
  EYE DIR_UP+DIR_RIGHT, half
  EYE DIR_UP+DIR_LEFT, half
  EYE DIR_DOWN+DIR_RIGHT, half
  EYE DIR_DOWN+DIR_LEFT, half
  .endif
skip:
.endmacro

;; The enemy rook in `slot`: A += the set's ev_wk_rook when it stands on the
;; own king's file (kf).  A captured rook (square 0) needs no test:
;; sq_file[0] = $FF is no king's file.  Clobbers X, Y, C.  13 cycles off
;; that file.
.macro ROOK_ON_FILE slot
  .local skip
  ldy piece_sq+slot
  ldx sq_file,y
  cpx kf
  bne skip
  ldx eng_vset
  clc
  adc ev_wk_rook,x
skip:
.endmacro

;; The enemy cannon in `slot`: A += its cannon-file weakness (ev_cannon)
;; when it stands on the own king's file (the king in slot `king`, whose
;; square ev_cannon reads from kq, set here).  Clobbers X, Y, C.  13 cycles
;; off that file.
.macro CANNON_ON_FILE slot, king
  .local skip
  ldy piece_sq+slot
  ldx sq_file,y
  cpx kf
  bne skip
  ldx piece_sq+king
  stx kq
  jsr ev_cannon
skip:
.endmacro

;; The weakness of the side whose pieces are in slots own..own+15 (enemy:
;; the other side's), on whose half its elephants' eye targets must lie
;; (FLAG_*_HALF `half`): A = W, C = 0.  Uses kf (and ev_cannon's kq, wsum).
;; Clobbers X, Y.  About 96 cycles with no horse, elephant, rook or cannon
;; on the board; with two of each, nothing blocked and no enemy piece on the
;; king's file about 200 with the elephants on their back rank (about 230
;; with both on the middle rank: ELEPHANT_EYES); + 5 per blocked leg, + 3-10
;; per blocked eye, + ev_cannon per enemy cannon on the king's file.
.macro WEAKNESS own, enemy, half
  ldy piece_sq+own+SLOT_KING
  lda sq_file,y
  and #$7F             ; no king ($FF): $7F, no file (a captured piece reads $FF)
  sta kf
  lda #0
  ROOK_ON_FILE enemy+SLOT_ROOK
  ROOK_ON_FILE enemy+SLOT_ROOK+1
  CANNON_ON_FILE enemy+SLOT_CANNON, own+SLOT_KING
  CANNON_ON_FILE enemy+SLOT_CANNON+1, own+SLOT_KING
  clc                  ; C = 0 from here: no add carries (W <= WEAKNESS_MAX)
  ELEPHANT_EYES own+SLOT_ELEPHANT, half, own = 0
  ELEPHANT_EYES own+SLOT_ELEPHANT+1, half, own = 0
  HORSE_LEGS own+SLOT_HORSE
  HORSE_LEGS own+SLOT_HORSE+1
.endmacro

;; acc -= A (the side to move's weakness); then, when acc >= T (eval_t),
;; return with C = 0: e >= acc since the enemy's weakness is >= 0.
;; Else fall through.  Clobbers A.  28 cycles to `below` (36 with the RTS).
.macro OWN_BOUND
  .local no_borrow, no_overflow, below
  eor #$FF             ; acc - W = acc + ~W + 1 (low byte; C = no borrow)
  sec
  adc acc
  sta acc
  bcs no_borrow
  dec acc+1
no_borrow:
  cmp eval_t           ; A = acc (lo)
  lda acc+1
  sbc eval_t+1
  bvc no_overflow
  eor #$80
no_overflow:
  asl a                ; C = 1: acc < T
  bcs below
  rts                  ; C = 0: e >= T
below:
.endmacro

.assert WEAKNESS_MAX <= 255, error, "eng_eval_ge sums a side's weakness in one byte"
.assert EVAL_ABS_MAX < $7FFF, error, "eng_eval's T = $7FFF must be above every evaluation"
.assert SLOTS_HORSE = 2 && SLOTS_ELEPHANT = 2 && SLOTS_ROOK = 2 && SLOTS_CANNON = 2, error, "WEAKNESS reads two slots per horse, elephant, rook and cannon"

.segment "CODE"

;;
; The static evaluation of the position for the side to move, exactly as
; reference evaluate(pos, tables of the active weight set); no noise.
; eng_eval_ge with T = $7FFF, which no evaluation reaches (|e| <=
; EVAL_ABS_MAX): always the exact value.
; Input: the position (eng_score, eng_mterm, piece lists, board, eng_side),
;   eng_vset (the weight set whose values eng_score and eng_mterm hold) and
;   that set's eng_wleg / eng_weye (eng_load copies them).
; Output: A = low byte, X = high byte of the signed 16-bit score; also in
;   local+0..1; C = 1; local+12..13 = $7FFF.
; Uses local+0..7 and 2 bytes of stack (ev_cannon, eng_eval_basic); keeps
; local+8..11 and local+14..15.  Clobbers A, X, Y.
; Cycles (to the final RTS): 92-94 with a material+PST set ("basic"); with
;   the knowledge terms ("full") 389 / 672 / 2,390 (min / median / max)
;   over the 520 positions of emu_tests/test_romsearch_eval.py, which prints
;   them (about half of them with a bare side: eng_eval_endgame).
.proc eng_eval
  lda #$FF
  sta eval_t
  lda #$7F
  sta eval_t+1
  ; (falls into eng_eval_ge)
.endproc

;;
; Lazy evaluation: is the static evaluation e (eng_eval's) at least T?
; base = +-(eng_score + eng_mterm) + tempo, then the side to move's
; weakness W(own) (red_weakness / black_weakness) is subtracted: when base
; - W(own) >= T, e >= T is settled (W(enemy) >= 0) and the enemy's
; weakness is not computed.  Else e = base - W(own) + W(enemy) exactly.
; The two WEAKNESS blocks are inline, each followed by a test of eng_side
; that says whether it was the own or the enemy's.  With a set without
; knowledge terms e = base (eng_eval_basic).
; Input: as eng_eval, and T in local+12..13 (signed; kept).
; Output: C = 1: e < T, A = low byte, X = high byte of e, also in
;   local+0..1.  C = 0: e >= T (A, X, local+0..1 undefined).
; Uses local+0..7 and 2 bytes of stack (ev_cannon, eng_eval_basic); keeps
; local+8..15.  Clobbers A, X, Y.
; Cycles (to the final RTS): 82-83 with a material+PST set ("basic"); with
;   the knowledge terms ("full"), over thresholds around e on 130 of the
;   test positions (emu_tests/test_romsearch_eval.py prints them): 271
;   (median) when the bound settles e >= T, 389 / 678 / 2,191 (min /
;   median / max) when e < T, those with a bare side (eng_eval_endgame,
;   no bound) included; in a search: bench.rom_profile.
.proc eng_eval_ge
  ldx eng_vset
  lda ev_knowledge,x
  bne knowledge
  jsr eng_eval_basic   ; no per-piece terms: e = base
  jmp eng_eval_compare
knowledge:            ; a side without rook, horse, cannon and pawn is bare
  lda counts+KIND_PAWN ; (a side with a pawn is not: the common case first)
  bne red_not_bare
  lda counts+KIND_ROOK
  ora counts+KIND_HORSE
  ora counts+KIND_CANNON
  beq bare
red_not_bare:
  lda counts+8+KIND_PAWN
  bne eng_eval_terms   ; no bare side (the next routine)
  lda counts+8+KIND_ROOK
  ora counts+8+KIND_HORSE
  ora counts+8+KIND_CANNON
  bne eng_eval_terms
bare:
  lda ev_endgame,x     ; the endgame terms when the set has them (eng_endgame.s)
  beq eng_eval_terms
  jmp eng_eval_endgame
.endproc

;;
; eng_eval_ge with the knowledge terms (eng_eval_ge falls into it; the
; endgame's eng_eval_endgame calls it with T = $7FFF for the exact value).
; Input: X = eng_vset, T in local+12..13, the position.  Output, uses and
; clobbers: as eng_eval_ge.
.proc eng_eval_terms
  clc                  ; acc = eng_score + eng_mterm (low byte in Y)
  lda eng_score
  adc eng_mterm
  tay
  lda eng_score+1
  adc eng_mterm+1
  sta acc+1
  lda eng_side
  beq red
  sty acc
  sec                  ; Black to move: base = tempo - acc
  lda ev_tempo_lo,x
  sbc acc
  sta acc
  lda ev_tempo_hi,x
  sbc acc+1
  sta acc+1
  jmp black_weakness
compare:               ; A = acc (lo): C = 1 when e < T
  cmp eval_t
  lda acc+1
  sbc eval_t+1
  bvc :+
  eor #$80
: asl a
  ldx acc+1
  lda acc
  rts
enemy:                 ; e = acc + W(enemy)
  clc
  adc acc
  sta acc
  bcc compare          ; (A = acc)
  inc acc+1
  bcs compare          ; always
red:
  clc                  ; Red to move: base = acc + tempo
  tya
  adc ev_tempo_lo,x
  sta acc
  lda acc+1
  adc ev_tempo_hi,x
  sta acc+1
red_weakness:          ; A = W(Red): own when Red is to move, else the enemy's
  WEAKNESS 0, 16, FLAG_RED_HALF
  ldx eng_side
  beq red_own
  jmp enemy
red_own:
  OWN_BOUND
black_weakness:        ; A = W(Black)
  WEAKNESS 16, 0, FLAG_BLACK_HALF
  ldx eng_side
  bne black_own
  jmp enemy
black_own:
  OWN_BOUND
  jmp red_weakness
.endproc
; eng_eval_ge's comparison of acc with T (A = acc lo), for the paths outside
; eng_eval_terms: without knowledge terms, and eng_eval_endgame
eng_eval_compare = eng_eval_terms::compare

;;
; The evaluation with a set without knowledge terms (ev_knowledge = 0):
; e = +-eng_score + tempo (eng_mterm is 0 then; evaluate() adds nothing).
; Input: X = eng_vset, the position.  Output: A = low, X = high byte of e,
; also in local+0..1.  Clobbers Y.  Cycles: 35 / 37 (Red / Black to move,
; to the RTS).
.proc eng_eval_basic
  ldy eng_side
  bne black
  clc
  lda eng_score
  adc ev_tempo_lo,x
  sta acc
  lda eng_score+1
  adc ev_tempo_hi,x
  sta acc+1
  tax
  lda acc
  rts
black:
  sec
  lda ev_tempo_lo,x
  sbc eng_score
  sta acc
  lda ev_tempo_hi,x
  sbc eng_score+1
  sta acc+1
  tax
  lda acc
  rts
.endproc

;;
; The weakness of an enemy cannon on square Y on the own king's file (king
; square kq): A += ev_wk_cannon = the set's cannon_on_king_file[min(pieces
; between, 3)], counting the pieces between them (the walk stops at 3).
; Input: A, Y, kq, eng_vset.  Output: A, C = 0.  Uses wsum.  Clobbers X, Y.
; Cycles: 60 + 13 per empty square between + 22 per other piece between
;   (the JSR included); 106 a call of its own on average in the Master
;   search (bench.rom_profile --level Master --positions 4 --skip 2).
.proc ev_cannon
  sta wsum
  ldx #3               ; counts the pieces between down, 0 at the third
  cpy kq
  bcs down             ; the king is below (Y > kq; never equal): C = 1
up:                    ; C = 0 (Y < kq): Y + DIR_UP never carries
  tya
  adc #DIR_UP
  tay
  lda board,y
  beq up
  cpy kq               ; a piece: the king?  (C = 0: Y < kq)
  beq done
  dex
  bne up
  beq done             ; always: 3 pieces between
down:                  ; C = 1 (Y > kq): Y - DIR_UP never borrows
  tya
  sbc #DIR_UP
  tay
  lda board,y
  beq down
  cpy kq               ; (C = 1: Y >= kq)
  beq done
  dex
  bne down
done:                  ; X = 3 - min(between, 3)
  txa
  ldy eng_vset
  ora evk_base_4,y
  tay
  lda wsum
  clc
  adc ev_wk_cannon,y
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
