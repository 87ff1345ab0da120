; eng_movegen.s: pseudo-legal move generation (reference Position.generate).
;
; Order (docs/ENGINE.md "Move generation", identical to the reference):
; slots 0..15 of the side to move; per piece the direction order of
; board.py: ORTHO = up, down, left, right; DIAG = up-right, up-left,
; down-right, down-left; sliders nearest square first; cannons: quiet moves
; then the capture behind the screen; horses in HORSE_MOVES order (per leg
; up, down, left, right, the two targets in ascending delta order); pawns
; forward, then left, then right once across the river.
;
; One generator per (captures-only?, side, kind): the side's tag, palace
; and half flags and the pawn's direction are immediates, and the 32-entry
; jump table is indexed by mode*16 + side*8 + kind.  While generating,
; X = next free move-stack entry and Y = the piece's square (gen_from).

.include "global.inc"
.include "eng.inc"

gen_from = local+0     ; square of the piece being generated
gen_slot = local+1     ; piece index side*16 + slot
gen_end  = local+2     ; side*16 + 16
gen_tsel = local+3     ; mode*16 + side*8: jump-table row
gen_jp   = local+4     ; 2 bytes: generator address for jmp (gen_jp)

; ---------------------------------------------------------------- macros
; Each push checks the capacity first: a list that does not fit makes the
; whole generation fail (carry set), as the reference's search treats a
; node whose moves do not fit as a leaf.

;; push (gen_from, Y); Y unchanged.  22 cycles.
.macro ADD_Y
  .local ok
  cpx #MOVE_STACK_ENTRIES
  bcc ok
  jmp eng_gen_common::gen_overflow
ok:
  tya
  sta ms_to,x
  lda gen_from
  sta ms_from,x
  inx
.endmacro

;; push (Y, Y + t) with Y = gen_from; Y unchanged.  23 cycles.
.macro ADD_TO t
  .local ok
  cpx #MOVE_STACK_ENTRIES
  bcc ok
  jmp eng_gen_common::gen_overflow
ok:
  tya
  sta ms_from,x
  clc
  adc #<(t)
  sta ms_to,x
  inx
.endmacro

;; one target at offset t: all = empty or enemy, cap = enemy only.
.macro STEP t, own, cap
  .local skip
  lda board+(t),y
  .if cap
  beq skip
  .endif
  and #own             ; own piece or off the board ($FF): skip
  bne skip
  ADD_TO t
skip:
.endmacro

;; rook ray: quiet moves nearest first, then the capture.
.macro SLIDE d, own, cap
  .local loop, stop, done
  ldy gen_from
  .if cap
  SCAN_PREP d
loop:
  STEP_SCAN d
  lda board,y
  beq loop
  .else
  clc
loop:
  STEP_C0 d
  lda board,y
  bne stop
  ADD_Y                ; leaves C = 0
  bne loop             ; X >= 1 after the push: always taken
stop:
  .endif
  and #own
  bne done
  ADD_Y
done:
.endmacro

;; cannon ray: quiet moves, then the first piece behind the screen if enemy.
.macro CANNON_RAY d, own, cap
  .local loop, screen, behind, done
  ldy gen_from
  .if cap
  SCAN_PREP d
loop:
  STEP_SCAN d
  lda board,y
  beq loop
  .else
  clc
loop:
  STEP_C0 d
  lda board,y
  bne screen
  ADD_Y                ; leaves C = 0
  bne loop
  .endif
screen:
  cmp #SQ_OFFBOARD
  beq done
  SCAN_PREP d
behind:
  STEP_SCAN d
  lda board,y
  beq behind
  and #own
  bne done
  ADD_Y
done:
.endmacro

;; king / advisor step inside the own palace.
.macro PALACE_STEP d, own, pal, cap
  .local skip
  lda sq_flags+(d),y
  and #pal
  beq skip
  lda board+(d),y
  .if cap
  beq skip
  .endif
  and #own
  bne skip
  ADD_TO d
skip:
.endmacro

;; elephant: eye empty, target on the own half.
.macro ELEPHANT_STEP d, own, half, cap
  .local skip
  lda board+(d),y
  bne skip
  lda sq_flags+2*(d),y
  and #half
  beq skip
  lda board+2*(d),y
  .if cap
  beq skip
  .endif
  and #own
  bne skip
  ADD_TO 2*(d)
skip:
.endmacro

;; horse: one leg, its two targets.
.macro HORSE_LEG leg, t1, t2, own, cap
  .local skip
  lda board+(leg),y
  bne skip
  STEP t1, own, cap
  STEP t2, own, cap
skip:
.endmacro

.macro GEN_KING own, pal, cap
  PALACE_STEP ::UP, own, pal, cap
  PALACE_STEP ::DOWN, own, pal, cap
  PALACE_STEP ::LEFT, own, pal, cap
  PALACE_STEP ::RIGHT, own, pal, cap
  jmp eng_gen_common::gen_next
.endmacro

.macro GEN_ADVISOR own, pal, cap
  PALACE_STEP ::UP+::RIGHT, own, pal, cap
  PALACE_STEP ::UP+::LEFT, own, pal, cap
  PALACE_STEP ::DOWN+::RIGHT, own, pal, cap
  PALACE_STEP ::DOWN+::LEFT, own, pal, cap
  jmp eng_gen_common::gen_next
.endmacro

.macro GEN_ELEPHANT own, half, cap
  ELEPHANT_STEP ::UP+::RIGHT, own, half, cap
  ELEPHANT_STEP ::UP+::LEFT, own, half, cap
  ELEPHANT_STEP ::DOWN+::RIGHT, own, half, cap
  ELEPHANT_STEP ::DOWN+::LEFT, own, half, cap
  jmp eng_gen_common::gen_next
.endmacro

.macro GEN_HORSE own, cap
  HORSE_LEG ::UP, 2*::UP+::LEFT, 2*::UP+::RIGHT, own, cap
  HORSE_LEG ::DOWN, 2*::DOWN+::LEFT, 2*::DOWN+::RIGHT, own, cap
  HORSE_LEG ::LEFT, 2*::LEFT+::DOWN, 2*::LEFT+::UP, own, cap
  HORSE_LEG ::RIGHT, 2*::RIGHT+::DOWN, 2*::RIGHT+::UP, own, cap
  jmp eng_gen_common::gen_next
.endmacro

.macro GEN_ROOK own, cap
  SLIDE ::UP, own, cap
  SLIDE ::DOWN, own, cap
  SLIDE ::LEFT, own, cap
  SLIDE ::RIGHT, own, cap
  jmp eng_gen_common::gen_next
.endmacro

.macro GEN_CANNON own, cap
  CANNON_RAY ::UP, own, cap
  CANNON_RAY ::DOWN, own, cap
  CANNON_RAY ::LEFT, own, cap
  CANNON_RAY ::RIGHT, own, cap
  jmp eng_gen_common::gen_next
.endmacro

.macro GEN_PAWN own, fwd, half, cap
  .local done
  STEP fwd, own, cap
  lda sq_flags,y
  and #half            ; still on the own half: forward only
  bne done
  STEP ::LEFT, own, cap
  STEP ::RIGHT, own, cap
done:
  jmp eng_gen_common::gen_next
.endmacro

.segment "CODE"

;;
; Generates every pseudo-legal move of the side to move onto the move
; stack, in the reference's order.
; Input: the position; ms_top = first free entry.
; Output: C = 0: the moves are ms_from/ms_to[old ms_top .. new ms_top-1]
;   (ms_key is not written).  C = 1: they do not fit the MOVE_STACK_ENTRIES
;   entries; ms_top is unchanged (the entries above it are garbage).
; Uses local+0..5.  Clobbers A, X, Y.
; Cycles: about 2,890 for a middlegame position with 38 moves, 75 per
;   generated move (bench/rom_bench.py): 54 per piece for the dispatch, 22
;   per push, 9-13 per empty square a slider passes.
.proc eng_gen
  lda #0
  jmp eng_gen_common
.endproc

;;
; As eng_gen, captures only (the quiescence search's moves), same order.
.proc eng_gen_captures
  lda #16
  jmp eng_gen_common
.endproc

;;
; The loop over the side's 16 slots shared by eng_gen and eng_gen_captures.
; @param A 0 (all moves) or 16 (captures only)
.proc eng_gen_common
  sta gen_tsel
  lda eng_side
  asl a
  asl a
  asl a
  ora gen_tsel
  sta gen_tsel         ; mode*16 + side*8
  lda eng_side
  asl a
  asl a
  asl a
  asl a
  sta gen_slot         ; side*16
  clc
  adc #16
  sta gen_end
  ldx ms_top
  ldy gen_slot
loop:                  ; Y = gen_slot
  lda piece_sq,y
  beq gen_next
  sta gen_from
  lda piece_kind,y
  ora gen_tsel
  tay
  lda gen_table_lo,y
  sta gen_jp
  lda gen_table_hi,y
  sta gen_jp+1
  ldy gen_from
  jmp (gen_jp)
gen_next:              ; every generator ends here, X = next free entry
  ldy gen_slot
  iny
  sty gen_slot
  cpy gen_end
  bne loop
  stx ms_top
  clc
  rts
gen_overflow:
  sec
  rts
.endproc

; ---------------------------------------------------------------- generators
; Entry: Y = gen_from = the piece's square, X = next free entry.
.proc gen_none         ; kind 0 never occurs: a safe target for the table
  jmp eng_gen_common::gen_next
.endproc

.proc gen_red_king
  GEN_KING RED_TAG, FLAG_RED_PALACE, 0
.endproc
.proc gen_red_advisor
  GEN_ADVISOR RED_TAG, FLAG_RED_PALACE, 0
.endproc
.proc gen_red_elephant
  GEN_ELEPHANT RED_TAG, FLAG_RED_HALF, 0
.endproc
.proc gen_red_horse
  GEN_HORSE RED_TAG, 0
.endproc
.proc gen_red_rook
  GEN_ROOK RED_TAG, 0
.endproc
.proc gen_red_cannon
  GEN_CANNON RED_TAG, 0
.endproc
.proc gen_red_pawn
  GEN_PAWN RED_TAG, ::UP, FLAG_RED_HALF, 0
.endproc

.proc gen_black_king
  GEN_KING BLACK_TAG, FLAG_BLACK_PALACE, 0
.endproc
.proc gen_black_advisor
  GEN_ADVISOR BLACK_TAG, FLAG_BLACK_PALACE, 0
.endproc
.proc gen_black_elephant
  GEN_ELEPHANT BLACK_TAG, FLAG_BLACK_HALF, 0
.endproc
.proc gen_black_horse
  GEN_HORSE BLACK_TAG, 0
.endproc
.proc gen_black_rook
  GEN_ROOK BLACK_TAG, 0
.endproc
.proc gen_black_cannon
  GEN_CANNON BLACK_TAG, 0
.endproc
.proc gen_black_pawn
  GEN_PAWN BLACK_TAG, ::DOWN, FLAG_BLACK_HALF, 0
.endproc

.proc cap_red_king
  GEN_KING RED_TAG, FLAG_RED_PALACE, 1
.endproc
.proc cap_red_advisor
  GEN_ADVISOR RED_TAG, FLAG_RED_PALACE, 1
.endproc
.proc cap_red_elephant
  GEN_ELEPHANT RED_TAG, FLAG_RED_HALF, 1
.endproc
.proc cap_red_horse
  GEN_HORSE RED_TAG, 1
.endproc
.proc cap_red_rook
  GEN_ROOK RED_TAG, 1
.endproc
.proc cap_red_cannon
  GEN_CANNON RED_TAG, 1
.endproc
.proc cap_red_pawn
  GEN_PAWN RED_TAG, ::UP, FLAG_RED_HALF, 1
.endproc

.proc cap_black_king
  GEN_KING BLACK_TAG, FLAG_BLACK_PALACE, 1
.endproc
.proc cap_black_advisor
  GEN_ADVISOR BLACK_TAG, FLAG_BLACK_PALACE, 1
.endproc
.proc cap_black_elephant
  GEN_ELEPHANT BLACK_TAG, FLAG_BLACK_HALF, 1
.endproc
.proc cap_black_horse
  GEN_HORSE BLACK_TAG, 1
.endproc
.proc cap_black_rook
  GEN_ROOK BLACK_TAG, 1
.endproc
.proc cap_black_cannon
  GEN_CANNON BLACK_TAG, 1
.endproc
.proc cap_black_pawn
  GEN_PAWN BLACK_TAG, ::DOWN, FLAG_BLACK_HALF, 1
.endproc

.segment "RODATA"
; jump table: index mode*16 + side*8 + kind
gen_table_lo:
  .lobytes gen_none, gen_red_king, gen_red_advisor, gen_red_elephant
  .lobytes gen_red_horse, gen_red_rook, gen_red_cannon, gen_red_pawn
  .lobytes gen_none, gen_black_king, gen_black_advisor, gen_black_elephant
  .lobytes gen_black_horse, gen_black_rook, gen_black_cannon, gen_black_pawn
  .lobytes gen_none, cap_red_king, cap_red_advisor, cap_red_elephant
  .lobytes cap_red_horse, cap_red_rook, cap_red_cannon, cap_red_pawn
  .lobytes gen_none, cap_black_king, cap_black_advisor, cap_black_elephant
  .lobytes cap_black_horse, cap_black_rook, cap_black_cannon, cap_black_pawn
gen_table_hi:
  .hibytes gen_none, gen_red_king, gen_red_advisor, gen_red_elephant
  .hibytes gen_red_horse, gen_red_rook, gen_red_cannon, gen_red_pawn
  .hibytes gen_none, gen_black_king, gen_black_advisor, gen_black_elephant
  .hibytes gen_black_horse, gen_black_rook, gen_black_cannon, gen_black_pawn
  .hibytes gen_none, cap_red_king, cap_red_advisor, cap_red_elephant
  .hibytes cap_red_horse, cap_red_rook, cap_red_cannon, cap_red_pawn
  .hibytes gen_none, cap_black_king, cap_black_advisor, cap_black_elephant
  .hibytes cap_black_horse, cap_black_rook, cap_black_cannon, cap_black_pawn
