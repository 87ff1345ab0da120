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
; and half flags and the pawn's direction are immediates.  One slot loop per
; (mode, side) dispatches on the kind by a branch tree (GEN_LOOP; captures:
; CAP_LOOP, unrolled, the generators called by jsr).  While
; generating, X = next free move-stack entry and Y = the piece's square
; (gen_from).

.include "global.inc"
.include "eng.inc"

gen_from = local+0     ; square of the piece being generated
gen_slot = local+1     ; piece index side*16 + slot
; (gen_slow_slider also uses local+2..5)

; ---------------------------------------------------------------- macros
; Each push checks the capacity first: a list that does not fit makes the
; whole generation fail (carry set), as the reference's search treats a
; node whose moves do not fit as a leaf.  The exception: a quiet-mode rook
; or cannon has at most SLIDER_MOVES targets, so its generator checks once,
; on entry, that they all fit (else gen_slow_slider, with checked pushes,
; does that piece) and pushes unchecked.

SLIDER_MOVES = 17      ; 9 squares of its file + 8 of its rank

;; push (gen_from, Y); Y unchanged.  22 cycles.
.macro ADD_Y cap
  .local ok
  cpx #MOVE_STACK_ENTRIES
  bcc ok
  .if cap
  jmp cap_overflow
  .else
  jmp gen_overflow
  .endif
ok:
  tya
  sta ms_to,x
  lda gen_from
  sta ms_from,x
  inx
.endmacro

;; push (gen_from, Y) without the capacity check (room made sure of on
;; entry); Y and C unchanged, Z = 0 (X >= 1 after it).  17 cycles.
.macro PUSH_Y
  tya
  sta ms_to,x
  lda gen_from
  sta ms_from,x
  inx
.endmacro

;; push (Y, Y + t) with Y = gen_from; Y unchanged.  21 cycles.
.macro ADD_TO t, cap
  .local ok
  cpx #MOVE_STACK_ENTRIES
  bcc ok
  .if cap
  jmp cap_overflow
  .else
  jmp gen_overflow
  .endif
ok:                    ; C = 0 from the cpx
  tya
  sta ms_from,x
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
  ADD_TO t, cap
skip:
.endmacro

;; rook ray: quiet moves nearest first, then the capture.  `first`: Y is
;; already gen_from (the first ray).
.macro SLIDE d, own, cap, first
  .local loop, stop, done
  .if !first
  ldy gen_from
  .endif
  SCAN_PREP d
loop:
  STEP_SCAN d
  lda board,y
  .if cap
  beq loop
  and #own
  bne done
  ADD_Y 1
  .else
  bne stop
  PUSH_Y               ; keeps C for STEP_SCAN
  bne loop             ; always taken
stop:
  and #own
  bne done
  PUSH_Y
  .endif
done:
.endmacro

;; cannon ray: quiet moves, then the first piece behind the screen if enemy.
.macro CANNON_RAY d, own, cap, first
  .local loop, screen, behind, done
  .if !first
  ldy gen_from
  .endif
  SCAN_PREP d
loop:
  STEP_SCAN d
  lda board,y
  .if cap
  beq loop
  .else
  bne screen
  PUSH_Y               ; keeps C for STEP_SCAN
  bne loop             ; always taken
  .endif
screen:
  cmp #SQ_OFFBOARD
  beq done
  .if d < -1
  sec                  ; (the cmp left C = 0: right for up, not for down)
  .endif
behind:
  STEP_SCAN d
  lda board,y
  beq behind
  and #own
  bne done
  .if cap
  ADD_Y 1
  .else
  PUSH_Y
  .endif
done:
.endmacro

;; king / advisor step inside the own palace.  Quiet mode tests the palace
;; first (most targets of an advisor are outside it), capture mode the
;; board first (most targets are empty).
.macro PALACE_STEP d, own, pal, cap
  .local skip
  .if cap
  lda board+(d),y
  beq skip
  and #own
  bne skip
  lda sq_flags+(d),y
  and #pal
  beq skip
  .else
  lda sq_flags+(d),y
  and #pal
  beq skip
  lda board+(d),y
  and #own
  bne skip
  .endif
  ADD_TO d, cap
skip:
.endmacro

;; elephant: eye empty, target on the own half.
.macro ELEPHANT_STEP d, own, half, cap
  .local skip
  lda board+(d),y
  bne skip
  .if cap
  lda board+2*(d),y
  beq skip
  and #own             ; own or off the board
  bne skip
  lda sq_flags+2*(d),y
  and #half
  beq skip
  .else
  lda sq_flags+2*(d),y
  and #half
  beq skip
  lda board+2*(d),y
  and #own
  bne skip
  .endif
  ADD_TO 2*(d), cap
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

;; A generator's end: quiet mode goes back to its slot loop (`next`),
;; capture mode returns (it was called by its slot's code, CAP_SLOT).
.macro GEN_END cap, next
  .if cap
  rts
  .else
  jmp next
  .endif
.endmacro

.macro GEN_KING own, pal, cap, next
  PALACE_STEP ::UP, own, pal, cap
  PALACE_STEP ::DOWN, own, pal, cap
  PALACE_STEP ::LEFT, own, pal, cap
  PALACE_STEP ::RIGHT, own, pal, cap
  GEN_END cap, next
.endmacro

.macro GEN_ADVISOR own, pal, cap, next
  PALACE_STEP ::UP+::RIGHT, own, pal, cap
  PALACE_STEP ::UP+::LEFT, own, pal, cap
  PALACE_STEP ::DOWN+::RIGHT, own, pal, cap
  PALACE_STEP ::DOWN+::LEFT, own, pal, cap
  GEN_END cap, next
.endmacro

.macro GEN_ELEPHANT own, half, cap, next
  ELEPHANT_STEP ::UP+::RIGHT, own, half, cap
  ELEPHANT_STEP ::UP+::LEFT, own, half, cap
  ELEPHANT_STEP ::DOWN+::RIGHT, own, half, cap
  ELEPHANT_STEP ::DOWN+::LEFT, own, half, cap
  GEN_END cap, next
.endmacro

.macro GEN_HORSE own, cap, next
  HORSE_LEG ::UP, 2*::UP+::LEFT, 2*::UP+::RIGHT, own, cap
  HORSE_LEG ::DOWN, 2*::DOWN+::LEFT, 2*::DOWN+::RIGHT, own, cap
  HORSE_LEG ::LEFT, 2*::LEFT+::DOWN, 2*::LEFT+::UP, own, cap
  HORSE_LEG ::RIGHT, 2*::RIGHT+::DOWN, 2*::RIGHT+::UP, own, cap
  GEN_END cap, next
.endmacro

;; quiet mode: `slow` is the entry taken when SLIDER_MOVES may not fit.
.macro GEN_ROOK own, cap, next, slow
  .if cap
  sty gen_from         ; (CAP_DISPATCH does not store it)
  .else
  cpx #MOVE_STACK_ENTRIES - SLIDER_MOVES + 1
  bcs slow
  .endif
  SLIDE ::UP, own, cap, 1
  SLIDE ::DOWN, own, cap, 0
  SLIDE ::LEFT, own, cap, 0
  SLIDE ::RIGHT, own, cap, 0
  GEN_END cap, next
.endmacro

.macro GEN_CANNON own, cap, next, slow
  .if cap
  sty gen_from         ; (CAP_DISPATCH does not store it)
  .else
  cpx #MOVE_STACK_ENTRIES - SLIDER_MOVES + 1
  bcs slow
  .endif
  CANNON_RAY ::UP, own, cap, 1
  CANNON_RAY ::DOWN, own, cap, 0
  CANNON_RAY ::LEFT, own, cap, 0
  CANNON_RAY ::RIGHT, own, cap, 0
  GEN_END cap, next
.endmacro

.macro GEN_PAWN own, fwd, half, cap, next
  .local done
  STEP fwd, own, cap
  lda sq_flags,y
  and #half            ; still on the own half: forward only
  bne done
  STEP ::LEFT, own, cap
  STEP ::RIGHT, own, cap
done:
  GEN_END cap, next
.endmacro

;; The branch tree on a kind in A (1 king 001, 2 advisor 010, 3 elephant
;; 011, 4 horse 100, 5 rook 101, 6 cannon 110, 7 pawn 111): jumps to the
;; generator, except a pawn, which branches to `pawn` (so it must be within
;; branch reach: the generator itself, or a jmp next to the tree).
.macro KIND_TREE king, advisor, elephant, horse, rook, cannon, pawn
  .local odd, j_king, j_rook, j_horse, j_cannon
  lsr a
  bcs odd
  lsr a                ; advisor: A = 0, C = 1; horse 1, 0; cannon 1, 1
  bcc j_horse
  bne j_cannon
  jmp advisor
odd:                   ; A = 0 king, 1 elephant, 2 rook, 3 pawn
  beq j_king
  lsr a                ; elephant: A = 0, C = 1; rook 1, 0; pawn 1, 1
  bcc j_rook
  bne pawn
  jmp elephant
j_horse:
  jmp horse
j_cannon:
  jmp cannon
j_king:
  jmp king
j_rook:
  jmp rook
.endmacro

;; The loop over one side's 16 slots for one mode: each live piece goes to
;; its generator by a branch tree on the bits of its kind (1 king 001,
;; 2 advisor 010, 3 elephant 011, 4 horse 100, 5 rook 101, 6 cannon 110,
;; 7 pawn 111), with Y = gen_from = its square and X = the next free entry;
;; the generators come back to `next`.  Per live piece 43-49 cycles (with
;; the generator's jump back), per empty slot 14.
.macro GEN_LOOP first, king, advisor, elephant, horse, rook, cannon, pawn
  .local loop, j_pawn
  ldx ms_top
  ldy #first
loop:                  ; Y = slot
  lda piece_sq,y
  beq skip
  sty gen_slot
  sta gen_from
  lda piece_kind,y
  ldy gen_from
  KIND_TREE king, advisor, elephant, horse, rook, cannon, j_pawn
j_pawn:
  jmp pawn
next:                  ; every generator ends here, X = next free entry
  ldy gen_slot
skip:
  iny
  cpy #first + 16
  bne loop
  stx ms_top
  clc
  rts
.endmacro

;; Captures only: the 16 slots unrolled; each live piece's generator is
;; called (jsr CAP_DISPATCH, which jumps to it; it returns by rts) with
;; Y = its square, A = its kind, X = the next free entry.  Per live piece
;; 22 cycles + the dispatch, per empty slot 7.
.macro CAP_LOOP first, dispatch
  .local slot
  ldx ms_top
  .repeat 16, i
  ldy piece_sq+first+i
  beq :+
  lda piece_kind+first+i
  jsr dispatch
:
  .endrepeat
  stx ms_top
  clc
  rts
.endmacro

;; The capture-mode dispatch on the kind in A (bits as in GEN_LOOP), with
;; Y = the square: jumps to the generator (sliders store gen_from
;; themselves).  pawn: the generator that follows it (reached by a branch).
.macro CAP_DISPATCH king, advisor, elephant, horse, rook, cannon, pawn
  KIND_TREE king, advisor, elephant, horse, rook, cannon, pawn
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
; Cycles: about 2,530 for a middlegame position with 38 moves, 66 per
;   generated move (bench/rom_bench.py): 43-49 per piece for the dispatch
;   (GEN_LOOP), 14 per empty slot, 17-22 per push, 9-13 per empty square a
;   slider passes.  Captures only (eng_gen_captures, CAP_LOOP): about
;   1,600 per call in the Hard search (bench/rom_profile.py), 22 per live
;   piece + the dispatch, 7 per empty slot.
.proc eng_gen
  lda eng_side
  bne :+
  jmp gen_loop_red
: jmp gen_loop_black
.endproc

;;
; As eng_gen, captures only (the quiescence search's moves), same order.
; Same contract (a list that does not fit: C = 1, ms_top unchanged); one
; more hardware-stack level (2 bytes) than eng_gen.
.proc eng_gen_captures
  lda eng_side
  bne :+
  jmp cap_loop_red
: jmp cap_loop_black
.endproc

; One slot loop per (mode, side), each with its own generators.
.proc gen_loop_red
  GEN_LOOP 0, gen_red_king, gen_red_advisor, gen_red_elephant, gen_red_horse, gen_red_rook, gen_red_cannon, gen_red_pawn
.endproc
.proc gen_loop_black
  GEN_LOOP 16, gen_black_king, gen_black_advisor, gen_black_elephant, gen_black_horse, gen_black_rook, gen_black_cannon, gen_black_pawn
.endproc

;; A checked push did not fit: the whole generation fails (the generators
;; are reached by jumps from eng_gen / eng_gen_captures: rts returns from it).
.proc gen_overflow
  sec
  rts
.endproc

;; The same for a capture generator, called by its slot's jsr: drops that
;; return address first.
.proc cap_overflow
  pla
  pla
  sec
  rts
.endproc

;;
; A quiet-mode rook or cannon when fewer than SLIDER_MOVES entries are left:
; the same moves as GEN_ROOK / GEN_CANNON, in the same order, with checked
; pushes.  Reached by a jump from the fast generator's entry (X, gen_from as
; there, Y = gen_from).
; @param A own tag (RED_TAG / BLACK_TAG), bit 7 set for a cannon
.proc gen_slow_slider
ss_own = local+2       ; own tag
ss_can = local+3       ; bit 7: a cannon
ss_dir = local+4       ; direction index 0..3 (up, down, left, right)
ss_d   = local+5       ; its delta
  sta ss_can
  and #RED_TAG | BLACK_TAG
  sta ss_own
  ldy #0
dir:
  sty ss_dir
  lda slide_dirs,y
  sta ss_d
  ldy gen_from
step:
  tya
  clc
  adc ss_d
  tay
  lda board,y
  bne hit
  ADD_Y 0
  jmp step
hit:
  bit ss_can
  bpl target           ; a rook: this piece
  cmp #SQ_OFFBOARD     ; a cannon: the piece behind the screen
  beq next_dir
behind:
  tya
  clc
  adc ss_d
  tay
  lda board,y
  beq behind
target:
  and ss_own           ; own piece or off the board: no move
  bne next_dir
  ADD_Y 0
next_dir:
  ldy ss_dir
  iny
  cpy #4
  bne dir
  lda eng_side
  bne :+
  jmp gen_loop_red::next
: jmp gen_loop_black::next
.endproc

; ---------------------------------------------------------------- generators
; Entry: Y = gen_from = the piece's square, X = next free entry.
.proc gen_red_king
  GEN_KING RED_TAG, FLAG_RED_PALACE, 0, gen_loop_red::next
.endproc
.proc gen_red_advisor
  GEN_ADVISOR RED_TAG, FLAG_RED_PALACE, 0, gen_loop_red::next
.endproc
.proc gen_red_elephant
  GEN_ELEPHANT RED_TAG, FLAG_RED_HALF, 0, gen_loop_red::next
.endproc
.proc gen_red_horse
  GEN_HORSE RED_TAG, 0, gen_loop_red::next
.endproc
.proc gen_red_rook_slow
  lda #RED_TAG
  jmp gen_slow_slider
.endproc
.proc gen_red_rook
  GEN_ROOK RED_TAG, 0, gen_loop_red::next, gen_red_rook_slow
.endproc
.proc gen_red_cannon_slow
  lda #RED_TAG | $80
  jmp gen_slow_slider
.endproc
.proc gen_red_cannon
  GEN_CANNON RED_TAG, 0, gen_loop_red::next, gen_red_cannon_slow
.endproc
.proc gen_red_pawn
  GEN_PAWN RED_TAG, ::UP, FLAG_RED_HALF, 0, gen_loop_red::next
.endproc

.proc gen_black_king
  GEN_KING BLACK_TAG, FLAG_BLACK_PALACE, 0, gen_loop_black::next
.endproc
.proc gen_black_advisor
  GEN_ADVISOR BLACK_TAG, FLAG_BLACK_PALACE, 0, gen_loop_black::next
.endproc
.proc gen_black_elephant
  GEN_ELEPHANT BLACK_TAG, FLAG_BLACK_HALF, 0, gen_loop_black::next
.endproc
.proc gen_black_horse
  GEN_HORSE BLACK_TAG, 0, gen_loop_black::next
.endproc
.proc gen_black_rook_slow
  lda #BLACK_TAG
  jmp gen_slow_slider
.endproc
.proc gen_black_rook
  GEN_ROOK BLACK_TAG, 0, gen_loop_black::next, gen_black_rook_slow
.endproc
.proc gen_black_cannon_slow
  lda #BLACK_TAG | $80
  jmp gen_slow_slider
.endproc
.proc gen_black_cannon
  GEN_CANNON BLACK_TAG, 0, gen_loop_black::next, gen_black_cannon_slow
.endproc
.proc gen_black_pawn
  GEN_PAWN BLACK_TAG, ::DOWN, FLAG_BLACK_HALF, 0, gen_loop_black::next
.endproc

.proc cap_red_king
  GEN_KING RED_TAG, FLAG_RED_PALACE, 1, cap_loop_red::next
.endproc
.proc cap_red_advisor
  GEN_ADVISOR RED_TAG, FLAG_RED_PALACE, 1, cap_loop_red::next
.endproc
.proc cap_red_elephant
  GEN_ELEPHANT RED_TAG, FLAG_RED_HALF, 1, cap_loop_red::next
.endproc
.proc cap_red_horse
  GEN_HORSE RED_TAG, 1, cap_loop_red::next
.endproc
.proc cap_red_rook
  GEN_ROOK RED_TAG, 1, cap_loop_red::next, 0
.endproc
.proc cap_red_cannon
  GEN_CANNON RED_TAG, 1, cap_loop_red::next, 0
.endproc
.proc cap_red_dispatch
  CAP_DISPATCH cap_red_king, cap_red_advisor, cap_red_elephant, cap_red_horse, cap_red_rook, cap_red_cannon, cap_red_pawn
.endproc
.proc cap_red_pawn
  GEN_PAWN RED_TAG, ::UP, FLAG_RED_HALF, 1, cap_loop_red::next
.endproc

.proc cap_black_king
  GEN_KING BLACK_TAG, FLAG_BLACK_PALACE, 1, cap_loop_black::next
.endproc
.proc cap_black_advisor
  GEN_ADVISOR BLACK_TAG, FLAG_BLACK_PALACE, 1, cap_loop_black::next
.endproc
.proc cap_black_elephant
  GEN_ELEPHANT BLACK_TAG, FLAG_BLACK_HALF, 1, cap_loop_black::next
.endproc
.proc cap_black_horse
  GEN_HORSE BLACK_TAG, 1, cap_loop_black::next
.endproc
.proc cap_black_rook
  GEN_ROOK BLACK_TAG, 1, cap_loop_black::next, 0
.endproc
.proc cap_black_cannon
  GEN_CANNON BLACK_TAG, 1, cap_loop_black::next, 0
.endproc
.proc cap_black_dispatch
  CAP_DISPATCH cap_black_king, cap_black_advisor, cap_black_elephant, cap_black_horse, cap_black_rook, cap_black_cannon, cap_black_pawn
.endproc
.proc cap_black_pawn
  GEN_PAWN BLACK_TAG, ::DOWN, FLAG_BLACK_HALF, 1, cap_loop_black::next
.endproc

; The capture-mode slot loops (after the generators: the quiet ones keep
; their addresses).
.proc cap_loop_red
  CAP_LOOP 0, cap_red_dispatch
.endproc
.proc cap_loop_black
  CAP_LOOP 16, cap_black_dispatch
.endproc

.segment "RODATA"
slide_dirs:            ; gen_slow_slider's rays, in the generators' order
  .byte <UP, <DOWN, <LEFT, <RIGHT
