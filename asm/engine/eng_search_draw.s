; eng_search_draw.s: the game's end rules at a search node (draw_score:
; repetitions judged by perpetual check, else by perpetual chase
; (search_chase, game_chase.s), then the move-count draw unless the
; side to move has no legal move; reference _draw_score) and the
; repetition ring's in-check bits (rep_check_bit; also read by
; game_rules.s).  ab_node pushes the search path onto the ring (its
; push_history step).

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

.segment "ENGINE_DATA"
; 1 << i
bit_mask:
  .byte $01, $02, $04, $08, $10, $20, $40, $80

.segment "ENGINE_CODE"

;;
; Z = 0 when ring entry Y has its REP_CHECK bit (rep_info: the side to move
; was in check there); A = that bit.  X and Y kept.  6 cycles + jsr/rts.
.proc rep_check_bit
  lda rep_info,y
  and #REP_CHECK
  rts
.endproc
;;
; The game's end rules at a node with ply > 0 (reference _draw_score), in
; the game's order: a repetition (perpetual check, else perpetual chase
; (search_chase), else a draw), then the
; move-count draw, which at_limit applies only when the side to move has a
; legal move (none: mated or stalemated, -MATE + ply).
; A clock below 4 (a capture in the last 3 plies) decides nothing (k >= 4
; > clock, far below the limit): ab_node tests that inline and calls this
; only with clock >= 4.
; Input: A = eng_clock >= 4, eng_ply, ply_first[eng_ply] (= ms_top), the
;   ring, eng_chk, s_ahead.
; Output: C = 1 and rv = the score when a rule decides the node, else C = 0.
; Uses local+0..7 (at the move limit local+0..13).  Clobbers A, X, Y.
; The repetition scan compares keys[n - k] with keys[n] for k = 4, 6, ..
; up to min(clock, n), walking Y = n - k down by 2 (about 21 cycles a step).
; A match with k < eng_ply (on the search path) is a repetition; one with
; k >= eng_ply (at or before the root) is one when the root's side is ahead
; (s_ahead, set by eng_search), else only with a second match further back
; (rep_twice), and the cycle judged is then the first, k.
; Cycles: about 20 to the RTS without a repetition candidate (the JSR
;   apart), + the scan's steps; at the move limit the scan (rep, as a subroutine) and at_limit's eng_gen and one
;   make / legality test / unmake per move up to the first legal one.
.assert DRAW_PLIES >= 4, error, "ab_node's inline test of draw_score: clock < 4 is below the move limit"
.proc draw_score
k    = local+0         ; plies back to the repeated position
n    = local+1         ; ring index of the current position (s_rep_top)
jj   = local+2         ; the check walk's j
opp  = local+3         ; nonzero: the side that just moved checked on every move
stm  = local+4         ; nonzero: the side to move checked on every move
klo  = local+5         ; keys[n]
khi  = local+6
ylast = local+7        ; the last Y to compare (n - min(clock, n)) + 2
  cmp #DRAW_PLIES      ; A = clock >= 4
  bcs limit            ; (the common case falls through)
rep:                   ; A = clock (also a subroutine: move_limit calls it)
  ldx s_rep_top
  stx n
  cpx eng_clock
  bcs :+               ; n >= clock: the limit is clock
  txa                  ; else n
: cmp #4
  bcc none             ; no k to try
  sta ylast
  txa
  sec
  sbc ylast            ; n - limit
  adc #1               ; C = 1: + 2
  sta ylast
  lda rep_key_lo,x
  sta klo
  lda rep_key_hi,x
  sta khi
  txa
  sec
  sbc #4
  tay                  ; Y = n - 4
loop:
  lda rep_key_lo,y
  cmp klo
  beq maybe
next:
  cpy ylast
  bcc none             ; k + 2 > limit
  dey
  dey
  bcs loop             ; always (C = 1 from cpy)
none:
  clc
  rts
limit:
  jmp move_limit       ; in ENGINE_RARE, after the bank's hot code and tables
maybe:
  lda rep_key_hi,y
  cmp khi
  bne next
  sty k                ; k = n - Y
  lda n
  sec
  sbc k
  sta k
  cmp eng_ply
  bcc found            ; k < ply: the earlier occurrence is on the search path
  bit s_ahead
  bmi found            ; the root's side ahead: one in the game's past is enough
  jmp rep_twice        ; else the game's past needs a second one
found:
  ; opp = all checks[n - j] for j = 0, 2, .., k - 2; stm for j = 1, 3, .., k - 1
  lda #1
  sta opp
  sta stm
  lda #0
  sta jj
walk:
  lda n
  sec
  sbc jj
  tay
  lda rep_info,y       ; REP_CHECK is bit 7
  bmi :+
  lda #0
  sta opp
: lda rep_info-1,y     ; Y >= 1: n - jj - 1 >= n - k + 1
  bmi :+
  lda #0
  sta stm
: inc jj
  inc jj
  lda jj
  cmp k
  bcc walk
  RV_ZERO
  lda opp
  beq :+
  lda stm
  bne draw
  lda #<PERPETUAL_CHECK   ; the side that just moved checked throughout
  sta rv
  lda #>PERPETUAL_CHECK
  sta rv+1
  sec
  rts
: lda stm
  beq chase               ; neither side checked throughout
  lda #<(-PERPETUAL_CHECK)
  sta rv
  lda #>(-PERPETUAL_CHECK)
  sta rv+1
draw:
  sec
  rts
chase:
  lda n
  ldx k
  jmp search_chase        ; in ENGINE_RARE
.endproc

.segment "ENGINE_RARE"

;;
; draw_score's scan when the first earlier occurrence found (k plies back)
; lies at or before the root (k >= eng_ply), in the game's past, and the
; root's side is not ahead (reference _draw_score): the node is a repetition only when the position occurred
; once more before that, and is then judged by the shortest cycle, k.
; Input: Y = n - k (the first match), k, klo/khi, ylast (draw_score's).
; Output: as draw_score's repetition (draw_score::found, k unchanged), or
;   C = 0 when there is no second occurrence.  Clobbers A, Y (and draw_score's).
; Cycles: about 21 a step down the ring.
.proc rep_twice
again:
  cpy draw_score::ylast
  bcc none             ; k' + 2 > limit
  dey
  dey
  lda rep_key_lo,y
  cmp draw_score::klo
  bne again
  lda rep_key_hi,y
  cmp draw_score::khi
  bne again
  jmp draw_score::found
none:
  clc
  rts
.endproc

;;
; draw_score's verdict of a repetition that neither side checked all
; through (reference Searcher._chase_score): the cycle judged by the game's
; perpetual-chase rule (game_chase, its capture lists above this node's
; ms_top); the side that alone chased perpetually loses.
; Input: A = n, the ring index of the current position; X = k, the
;   cycle's plies; eng_ply <= SEARCH_MAX_DEPTH, ms_top = ply_first[eng_ply].
; Output: C = 1; rv = +PERPETUAL_CHASE when only the side that just moved
;   chased, -PERPETUAL_CHASE when only the side to move did, else 0.
; Uses local+0..11, rv and game_chase's scratch.  Clobbers A, X, Y.
; Cycles: game_chase's (about 10,000 to 140,000) + about 40.
.proc search_chase
  jsr game_chase         ; A: 1 only Red chased, 2 only Black, 0 or 3 neither
  tax
  RV_ZERO
  txa
  beq done
  cmp #3
  beq done
  sbc #0                 ; C = 0 (cmp #3 with A < 3): A - 1 = the side that chased
  eor eng_side           ; 1: the side that just moved chased
  beq lost
  lda #<PERPETUAL_CHASE
  sta rv
  lda #>PERPETUAL_CHASE
  sta rv+1
  sec
  rts
lost:
  lda #<(-PERPETUAL_CHASE)
  sta rv
  lda #>(-PERPETUAL_CHASE)
  sta rv+1
done:
  sec
  rts
.endproc

;;
; draw_score's tail at the move limit (clock >= DRAW_PLIES; A = clock):
; a repetition decides first (draw_score's scan, called as a subroutine),
; else the node is a draw (rv = 0) when the side to move has a legal move
; and lost (rv = -MATE + ply) when it has none.  The moves are listed at
; ply_first[eng_ply] as the node would list them; when they do not fit,
; the draw stands.  Output: C = 1, rv.  Uses local+0..13.  Clobbers A, X, Y.
; It lies in ENGINE_RARE, after the bank's hot code and tables, so that
; adding it moved none of them (their page crossings set the search's
; cycles per node).
.proc move_limit
mi   = local+12        ; the move being tried (eng_make and eng_is_legal
                       ; use local+0..11)
  jsr draw_score::rep  ; a repetition first (C = 1: it decides, rv set)
  bcs done
  ldx eng_ply          ; the moves, as the node would list them
  lda ply_first,x
  sta ms_top
  sta mi
  jsr eng_gen
  bcs limit_draw       ; they do not fit: the draw stands
try:
  ldx mi
  cpx ms_top
  bcs mated            ; no legal move
  jsr eng_make
  jsr eng_is_legal     ; C = 0 legal
  php
  jsr eng_unmake
  plp
  bcc limit_draw
  inc mi
  bne try              ; always (ms_top <= MOVE_STACK_ENTRIES)
mated:                 ; -MATE + ply
  lda eng_ply
  RV_MATED
  sec
  rts
limit_draw:
  RV_ZERO
  sec
done:
  rts
.endproc
