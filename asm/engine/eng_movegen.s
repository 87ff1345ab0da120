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
; Every kind has fixed slots (docs/ENGINE.md "Board": king 0, advisors
; 1-2, elephants 3-4, horses 5-6, rooks 7-8, cannons 9-10, pawns 11-15), so
; the slot order is a fixed sequence of kinds and nothing dispatches on
; a piece's kind (code_kind): one generator per (captures-only?, side,
; kind), with the side's tag, palace and half flags and the pawn's
; direction as immediates, and per (mode, side) the 16 slots unrolled
; (SLOT_CALLS), each live piece's generator called by jsr with Y = its
; square.  While generating, X = next free move-stack entry; the sliders
; keep their square in gen_from.

.include "global.inc"
.include "eng.inc"

gen_from = local+0     ; square of the slider being generated
; (gen_slow_slider also uses local+2..5)
; The search's move keys (reference _gen_key), written as the moves are
; pushed: KEY_QUIET = 0 for a quiet move, mvv_lva[victim * 8 + attacker]
; for a capture, and the first entry with the highest key so far (the
; search's first pick: score_moves reads gen_bi).
gk_t     = local+1     ; gk_step: the target's offset
gk_k     = local+6     ; the capturer's kind
gk_y     = local+7     ; gk_step: Y kept
gen_best = local+8     ; the best key so far + 1 (1: none yet)
; its entry (the list's first entry when no capture): gen_bi (eng.inc)

; ---------------------------------------------------------------- macros
; Each push checks the capacity first: a list that does not fit makes the
; whole generation fail (carry set, gen_overflow), as the reference's
; search treats a node whose moves do not fit as a leaf.  The exception: a
; quiet-mode rook or cannon has at most SLIDER_MOVES targets, so its
; generator checks once, on entry, that they all fit (else
; gen_slow_slider, with checked pushes, does that piece) and pushes
; unchecked.

SLIDER_MOVES = 17      ; 9 squares of its file + 8 of its rank

;; push (gen_from, Y); Y unchanged.  22 cycles; quiet = 1: a quiet move,
;; key 0 (A = 0 on entry), 27 cycles.
.macro ADD_Y quiet
  .local ok
  cpx #MOVE_STACK_ENTRIES
  bcc ok
  jmp gen_overflow
ok:
  .ifnblank quiet
  sta ms_key,x         ; KEY_QUIET
  .endif
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

;; push (Y, Y + t) with Y = the piece's square, a quiet move: key 0 (A = 0
;; on entry: the target's content); Y unchanged, Z = 0.  26 cycles.
.macro ADD_TO t
  .local ok
  cpx #MOVE_STACK_ENTRIES
  bcc ok
  jmp gen_overflow
ok:                    ; C = 0 from the cpx
  sta ms_key,x         ; KEY_QUIET
  tya
  sta ms_from,x
  adc #<(t)
  sta ms_to,x
  inx
.endmacro

;; push (Y, Y + t), a capture by a piece of kind `kind`, with its key (by
;; a subroutine: gk_step); Y unchanged, Z = 0.  About 85 cycles.
.macro CAP_TO t, kind
  lda #<(t)
  .if kind = ::KIND_KING
  jsr gk_step_king
  .elseif kind = ::KIND_ADVISOR
  jsr gk_step_advisor
  .elseif kind = ::KIND_ELEPHANT
  jsr gk_step_elephant
  .elseif kind = ::KIND_HORSE
  jsr gk_step_horse
  .else
  jsr gk_step_pawn
  .endif
.endmacro

;; one target at offset t: all = empty or enemy, cap = enemy only.
.macro STEP t, own, cap, kind
  .local skip, empty
  lda board+(t),y
  .if cap
  beq skip
  .else
  beq empty
  .endif
  and #own             ; own piece or off the board ($FF): skip
  bne skip
  CAP_TO t, kind
  .if !cap
  bne skip             ; always
empty:
  ADD_TO t
  .endif
skip:
.endmacro

;; A += d (d = UP: C = 0) or A -= -d (d = DOWN: C = 1), with the carry
;; kept: a file ray's square stays on the padded board (no carry, no borrow).
.macro ADD_D d
  .if d > 0
  adc #d
  .else
  sbc #-(d)
  .endif
.endmacro

;; A quiet-mode rook's or cannon's ray along its file (d = UP or DOWN), two
;; squares per pass: board+d,y and board+2d,y are read with Y fixed and Y
;; moves by 2d only after both were empty, which saves the tya/adc/tay of
;; every other square (about 32 cycles per quiet move instead of 37).  The
;; moves and their order are SLIDE's / CANNON_RAY's; cannon = 1: the ray
;; goes on behind the first piece (the screen) to a capture.
.macro FILE_RAY d, own, first, cannon
  .local loop, stop1, stop2, at_stop, behind, done
  .if !first
  ldy gen_from
  .endif
  SCAN_PREP d
loop:
  lda board+(d),y
  bne stop1
  sta ms_key,x         ; KEY_QUIET (A = 0)
  lda gen_from
  sta ms_from,x
  tya
  ADD_D d
  sta ms_to,x
  inx
  lda board+2*(d),y
  bne stop2
  sta ms_key,x         ; KEY_QUIET (A = 0)
  lda gen_from
  sta ms_from,x
  tya
  ADD_D 2*(d)
  sta ms_to,x
  tay
  inx
  bne loop             ; always taken (X >= 1)
  .if cannon
stop1:                 ; A = the screen (or the board's edge) at Y + d
  cmp #SQ_OFFBOARD
  beq done
  .if d < 0
  sec                  ; (the cmp left C = 0: right for up, not for down)
  .endif
  tya
  ADD_D d
  tay
  .if d > 0
  bcc at_stop          ; always
  .else
  bcs at_stop          ; always
  .endif
stop2:                 ; A = the screen (or the edge) at Y + 2d
  cmp #SQ_OFFBOARD
  beq done
  .if d < 0
  sec
  .endif
  tya
  ADD_D 2*(d)
  tay
at_stop:               ; Y = the screen, C as SCAN_PREP d
  BEHIND_FILE d, own, 0, done
  .else
stop1:                 ; A = the first piece (or the edge) at Y + d
  and #own
  bne done
  tya
  ADD_D d
  tay
  .if d > 0
  bcc at_stop          ; always
  .else
  bcs at_stop          ; always
  .endif
stop2:                 ; A = the first piece (or the edge) at Y + 2d
  and #own
  bne done
  tya
  ADD_D 2*(d)
  tay
at_stop:               ; Y = an enemy piece: the capture
  PUSH_Y
  jsr gk_slide_rook    ; its key
  .endif
done:
.endmacro

;; A cannon's scan along its file (d = UP or DOWN) from its screen on Y
;; (C as SCAN_PREP d) to the first piece behind it, two squares per pass as
;; FILE_RAY; an enemy piece there is pushed (cap = 1: checked, ADD_Y) with
;; its key, else the scan goes to `done`.
.macro BEHIND_FILE d, own, cap, done
  .local loop, hit1, hit, push
loop:
  lda board+(d),y
  bne hit1
  tya
  ADD_D 2*(d)
  tay
  lda board,y
  beq loop
hit:                   ; A = the piece (or the edge) at Y
  and #own
  bne done
  beq push             ; always
hit1:                  ; A = the piece (or the edge) at Y + d
  and #own
  bne done
  tya
  ADD_D d
  tay
push:
  .if cap
  ADD_Y
  .else
  PUSH_Y
  .endif
  jsr gk_slide_cannon  ; its key
.endmacro

;; A captures-mode rook's or cannon's ray along its file (d = UP or DOWN):
;; the scan to the first piece (for a cannon, the screen, then the one behind
;; it: BEHIND_FILE) reads board+d,y and board+2d,y with Y fixed and moves Y
;; by 2d only after both were empty (9.5 cycles per empty square instead of
;; 13).  The captures and their order are SLIDE's / CANNON_RAY's.
.macro CAP_FILE_RAY d, own, first, cannon
  .local loop, stop1, at_stop, done
  .if !first
  ldy gen_from
  .endif
  SCAN_PREP d
loop:
  lda board+(d),y
  bne stop1
  tya
  ADD_D 2*(d)
  tay
  lda board,y
  beq loop
  .if cannon           ; A = the screen (or the edge) at Y
  cmp #SQ_OFFBOARD
  beq done
  .if d < 0
  sec                  ; (the cmp left C = 0: right for up, not for down)
  .endif
  .if d > 0
  bcc at_stop          ; always
  .else
  bcs at_stop          ; always
  .endif
stop1:                 ; A = the screen (or the edge) at Y + d
  cmp #SQ_OFFBOARD
  beq done
  .if d < 0
  sec
  .endif
  tya
  ADD_D d
  tay
at_stop:               ; Y = the screen, C as SCAN_PREP d
  BEHIND_FILE d, own, 1, done
  .else                ; A = the first piece (or the edge) at Y
  and #own
  bne done
  beq at_stop          ; always
stop1:                 ; A = the first piece (or the edge) at Y + d
  and #own
  bne done
  tya
  ADD_D d
  tay
at_stop:               ; Y = an enemy piece: the capture
  ADD_Y
  jsr gk_slide_rook    ; its key
  .endif
done:
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
  ADD_Y
  .else
  bne stop
  sta ms_key,x         ; KEY_QUIET (A = 0)
  PUSH_Y               ; keeps C for STEP_SCAN
  bne loop             ; always taken
stop:
  and #own
  bne done
  PUSH_Y
  .endif
  jsr gk_slide_rook    ; its key
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
  sta ms_key,x         ; KEY_QUIET (A = 0)
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
  ADD_Y
  .else
  PUSH_Y
  .endif
  jsr gk_slide_cannon  ; its key
done:
.endmacro

;; king / advisor step inside the own palace.  Quiet mode tests the palace
;; first (most targets of an advisor are outside it), capture mode the
;; board first (most targets are empty).
.macro PALACE_STEP d, own, pal, cap, kind
  .local skip, empty
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
  beq empty
  and #own
  bne skip
  .endif
  CAP_TO d, kind
  .if !cap
  bne skip             ; always
empty:
  ADD_TO d
  .endif
skip:
.endmacro

;; elephant: eye empty, target on the own half.  An elephant stands on one
;; of its side's 7 squares (fen.py), so an empty eye (on the board) has its
;; target on the board, and the target leaves the own half only for a step
;; towards the river from the river's rank (4 for Red, 5 for Black): a
;; compare of the square, no sq_flags read (steps away from the river need
;; no test).
.macro ELEPHANT_STEP d, own, half, cap
  .local skip, empty
  lda board+(d),y
  bne skip
  .if half = ::FLAG_RED_HALF
  .if (d) > 0          ; towards Black (DIR_UP > 0)
  cpy #::FIRST_SQ + 3 * ::BOARD_WIDTH
  bcs skip             ; from rank 4: across the river
  .endif
  .else
  .if (d) < 0          ; towards Red
  cpy #::FIRST_SQ + 7 * ::BOARD_WIDTH
  bcc skip             ; from rank 5: across the river
  .endif
  .endif
  .if cap
  lda board+2*(d),y
  beq skip
  and #own             ; own or off the board
  bne skip
  .else
  lda board+2*(d),y
  beq empty
  and #own
  bne skip
  .endif
  CAP_TO 2*(d), ::KIND_ELEPHANT
  .if !cap
  bne skip             ; always
empty:
  ADD_TO 2*(d)
  .endif
skip:
.endmacro

;; horse: one leg, its two targets.
.macro HORSE_LEG leg, t1, t2, own, cap
  .local skip
  lda board+(leg),y
  bne skip
  STEP t1, own, cap, ::KIND_HORSE
  STEP t2, own, cap, ::KIND_HORSE
skip:
.endmacro

;; The generators: called by SLOT_CALLS (jsr) with Y = the piece's square
;; and X = the next free entry; they return (rts) with X advanced.
.macro GEN_KING own, pal, cap
  PALACE_STEP ::UP, own, pal, cap, ::KIND_KING
  PALACE_STEP ::DOWN, own, pal, cap, ::KIND_KING
  PALACE_STEP ::LEFT, own, pal, cap, ::KIND_KING
  PALACE_STEP ::RIGHT, own, pal, cap, ::KIND_KING
  rts
.endmacro

.macro GEN_ADVISOR own, pal, cap
  PALACE_STEP ::UP+::RIGHT, own, pal, cap, ::KIND_ADVISOR
  PALACE_STEP ::UP+::LEFT, own, pal, cap, ::KIND_ADVISOR
  PALACE_STEP ::DOWN+::RIGHT, own, pal, cap, ::KIND_ADVISOR
  PALACE_STEP ::DOWN+::LEFT, own, pal, cap, ::KIND_ADVISOR
  rts
.endmacro

.macro GEN_ELEPHANT own, half, cap
  ELEPHANT_STEP ::UP+::RIGHT, own, half, cap
  ELEPHANT_STEP ::UP+::LEFT, own, half, cap
  ELEPHANT_STEP ::DOWN+::RIGHT, own, half, cap
  ELEPHANT_STEP ::DOWN+::LEFT, own, half, cap
  rts
.endmacro

.macro GEN_HORSE own, cap
  HORSE_LEG ::UP, 2*::UP+::LEFT, 2*::UP+::RIGHT, own, cap
  HORSE_LEG ::DOWN, 2*::DOWN+::LEFT, 2*::DOWN+::RIGHT, own, cap
  HORSE_LEG ::LEFT, 2*::LEFT+::DOWN, 2*::LEFT+::UP, own, cap
  HORSE_LEG ::RIGHT, 2*::RIGHT+::DOWN, 2*::RIGHT+::UP, own, cap
  rts
.endmacro

;; A rook's or cannon's generator starts here: gen_from = Y and, in quiet
;; mode, to `slow` when SLIDER_MOVES more entries may not fit (X = ms_top).
.macro SLIDER_ENTRY cap, slow
  sty gen_from
  .if !cap
  cpx #MOVE_STACK_ENTRIES - SLIDER_MOVES + 1
  bcs slow
  .endif
.endmacro

;; quiet mode: `slow` is the entry taken when SLIDER_MOVES may not fit.
.macro GEN_ROOK own, cap, slow
  SLIDER_ENTRY cap, slow
  .if cap
  CAP_FILE_RAY ::UP, own, 1, 0
  CAP_FILE_RAY ::DOWN, own, 0, 0
  .else
  FILE_RAY ::UP, own, 1, 0
  FILE_RAY ::DOWN, own, 0, 0
  .endif
  SLIDE ::LEFT, own, cap, 0
  SLIDE ::RIGHT, own, cap, 0
  rts
.endmacro

.macro GEN_CANNON own, cap, slow
  SLIDER_ENTRY cap, slow
  .if cap
  CAP_FILE_RAY ::UP, own, 1, 1
  CAP_FILE_RAY ::DOWN, own, 0, 1
  .else
  FILE_RAY ::UP, own, 1, 1
  FILE_RAY ::DOWN, own, 0, 1
  .endif
  CANNON_RAY ::LEFT, own, cap, 0
  CANNON_RAY ::RIGHT, own, cap, 0
  rts
.endmacro

.macro GEN_PAWN own, fwd, half, cap
  .local done
  STEP fwd, own, cap, ::KIND_PAWN
  cpy #::FIRST_SQ + 5 * ::BOARD_WIDTH  ; ranks 0-4 (Red's half, FLAG_RED_HALF) lie below
  .if half = ::FLAG_RED_HALF
  bcc done             ; still on the own half: forward only
  .else
  bcs done             ; still on the own half: forward only
  .endif
  STEP ::LEFT, own, cap, ::KIND_PAWN
  STEP ::RIGHT, own, cap, ::KIND_PAWN
done:
  rts
.endmacro

;; One slot: its generator `gen` called with Y = its square when the slot
;; holds a piece.  17 cycles per live piece (with the generator's rts), 6
;; per empty slot.
.macro SLOT_CALL slot, gen
  .local skip
  ldy piece_sq+slot
  beq skip             ; captured (or no such piece)
  jsr gen
skip:
.endmacro

;; A = the OR of board[(file f, rank r)] over the squares listed, ranks seen
;; from the side whose slot 0 is `first` (Black's are turned: 9 - r).  With
;; only empty squares and pieces among them, `and #enemy_tag` is non-zero
;; exactly when one of them holds an enemy piece.  4 cycles per square.
.macro OR_SQUARES first, f1, r1, f2, r2, f3, r3, f4, r4, f5, r5, f6, r6, f7, r7, f8, r8, f9, r9
  .if first
  lda board+(11-(r1))*BOARD_WIDTH+(f1)+1
  .else
  lda board+((r1)+2)*BOARD_WIDTH+(f1)+1
  .endif
  OR_SQUARES_REST first, f2, r2, f3, r3, f4, r4, f5, r5, f6, r6, f7, r7, f8, r8, f9, r9
.endmacro
.macro OR_SQUARES_REST first, f1, r1, f2, r2, f3, r3, f4, r4, f5, r5, f6, r6, f7, r7, f8, r8
  .ifnblank f1
  .if first
  ora board+(11-(r1))*BOARD_WIDTH+(f1)+1
  .else
  ora board+((r1)+2)*BOARD_WIDTH+(f1)+1
  .endif
  OR_SQUARES_REST first, f2, r2, f3, r3, f4, r4, f5, r5, f6, r6, f7, r7, f8, r8
  .endif
.endmacro

;; The 16 slots of the side whose slot 0 is `first` (0 Red, 16 Black) in
;; slot order, each kind's slots calling its generator (the fixed layout
;; SLOT_x / SLOTS_x), then the end of eng_gen / eng_gen_captures: ms_top =
;; X, C = 0.  Captures only (`cap`): a king or advisor captures only inside
;; its own palace and an elephant only on one of its side's 7 elephant
;; squares (legal positions have their elephants there: fen.py), so when
;; none of those squares holds an enemy piece their generators, which would
;; find nothing, are not called (41 / 33 cycles for the test instead of
;; about 130 / 120 for the calls).
.macro SLOT_CALLS first, cap, king, advisor, elephant, horse, rook, cannon, pawn
  .local no_palace, no_elephant
  .assert SLOT_KING = 0 && SLOT_ADVISOR = 1 && SLOT_ELEPHANT = 3 && SLOT_HORSE = 5 && SLOT_ROOK = 7 && SLOT_CANNON = 9 && SLOT_PAWN = 11 && SLOTS_PAWN = 5, error, "the slot layout changed: update SLOT_CALLS"
  ldx ms_top
  stx gen_bi           ; no capture yet: the first entry
  lda #1
  sta gen_best
  .if cap
  OR_SQUARES first, 3, 0, 4, 0, 5, 0, 3, 1, 4, 1, 5, 1, 3, 2, 4, 2, 5, 2
  .if first
  and #RED_TAG
  .else
  and #BLACK_TAG
  .endif
  beq no_palace
  .endif
  SLOT_CALL first+0, king
  SLOT_CALL first+1, advisor
  SLOT_CALL first+2, advisor
no_palace:
  .if cap
  OR_SQUARES first, 2, 0, 6, 0, 0, 2, 4, 2, 8, 2, 2, 4, 6, 4
  .if first
  and #RED_TAG
  .else
  and #BLACK_TAG
  .endif
  beq no_elephant
  .endif
  SLOT_CALL first+3, elephant
  SLOT_CALL first+4, elephant
no_elephant:
  SLOT_CALL first+5, horse
  SLOT_CALL first+6, horse
  SLOT_CALL first+7, rook
  SLOT_CALL first+8, rook
  SLOT_CALL first+9, cannon
  SLOT_CALL first+10, cannon
  SLOT_CALL first+11, pawn
  SLOT_CALL first+12, pawn
  SLOT_CALL first+13, pawn
  SLOT_CALL first+14, pawn
  SLOT_CALL first+15, pawn
  stx ms_top
  clc
  rts
.endmacro

.segment "CODE"

;;
; Generates every pseudo-legal move of the side to move onto the move
; stack, in the reference's order (slots 0..15, SLOT_CALLS).
; Input: the position; ms_top = first free entry.
; Output: C = 0: the moves are ms_from/ms_to[old ms_top .. new ms_top-1],
;   their search keys in ms_key (KEY_QUIET = 0, or mvv_lva for a capture)
;   and in gen_bi (local+9) the first entry with the highest key (the old
;   ms_top when there is no capture): score_moves' first pick.  C = 1: they
;   do not fit the MOVE_STACK_ENTRIES entries; ms_top is unchanged (the
;   entries above it are garbage).
; Uses local+0..9 and 4 bytes of hardware stack.  Clobbers A, X, Y.
; Cycles: about 2,440 for a middlegame position with 38.5 moves, 63.5 per
;   generated move (bench/rom_bench.py): 17 per live piece for its call
;   (SLOT_CALL), 6 per empty slot, 22-27 per quiet push (key included),
;   about 40 (a rook or cannon) or 85 (the others) per capture (gk_slide_*,
;   gk_step), 9-13 per empty square a slider passes.
.proc eng_gen
  lda eng_side
  beq gen_slots_red    ; (just below)
  jmp gen_slots_black
.endproc
;; eng_gen's slot sequences (SLOT_CALLS), one per side: reached by a jump
;; from eng_gen, they return from it.
.proc gen_slots_red
  SLOT_CALLS 0, 0, gen_red_king, gen_red_advisor, gen_red_elephant, gen_red_horse, gen_red_rook, gen_red_cannon, gen_red_pawn
.endproc
.proc gen_slots_black
  SLOT_CALLS 16, 0, gen_black_king, gen_black_advisor, gen_black_elephant, gen_black_horse, gen_black_rook, gen_black_cannon, gen_black_pawn
.endproc

;;
; As eng_gen, captures only (the quiescence search's moves), same order and
; the same contract (keys and gen_bi; a list that does not fit: C = 1,
; ms_top unchanged).
; Cycles: about 1,270 per middlegame position (2.5 captures;
;   bench/rom_bench.py): the rays of the rooks and cannons cost most.
.proc eng_gen_captures
  lda eng_side
  beq cap_slots_red    ; (just below)
  jmp cap_slots_black
.endproc
;; eng_gen_captures' slot sequences (SLOT_CALLS), one per side: reached by a
;; jump from eng_gen_captures, they return from it.
.proc cap_slots_red
  SLOT_CALLS 0, 1, cap_red_king, cap_red_advisor, cap_red_elephant, cap_red_horse, cap_red_rook, cap_red_cannon, cap_red_pawn
.endproc
.proc cap_slots_black
  SLOT_CALLS 16, 1, cap_black_king, cap_black_advisor, cap_black_elephant, cap_black_horse, cap_black_rook, cap_black_cannon, cap_black_pawn
.endproc

;; A checked push did not fit: the whole generation fails.  Reached by a
;; jump from a generator, which its slot's jsr called: drops that return
;; address, so the rts returns from eng_gen / eng_gen_captures.
.proc gen_overflow
  pla
  pla
  sec
  rts
.endproc

;; A capture pushed by gk_step did not fit: as gen_overflow, one return
;; address deeper.
.proc gk_overflow
  pla
  pla
  jmp gen_overflow
.endproc

;;
; A capture by a king, advisor, elephant, horse or pawn (CAP_TO): pushes
; (Y, Y + A) with its key mvv_lva[victim kind * 8 + that kind] and keeps
; the first entry with the highest key in gen_bi (gen_best: that key + 1).
; Input: A = the target's offset, Y = the piece's square, X = the next free
;   entry (the capacity is checked here).
; Output: X + 1; Y kept, Z = 0.  Uses local+1, 6..9.
; Cycles: about 85 with the caller's lda/jsr (Master search, bench.rom_profile).
.proc gk_step_king
  sta gk_t
  lda #KIND_KING
  bne gk_step          ; always
.endproc
.proc gk_step_advisor
  sta gk_t
  lda #KIND_ADVISOR
  bne gk_step          ; always
.endproc
.proc gk_step_elephant
  sta gk_t
  lda #KIND_ELEPHANT
  bne gk_step          ; always
.endproc
.proc gk_step_pawn
  sta gk_t
  lda #KIND_PAWN
  bne gk_step          ; always
.endproc
.proc gk_step_horse
  sta gk_t
  lda #KIND_HORSE
.endproc
.proc gk_step
  sta gk_k
  cpx #MOVE_STACK_ENTRIES
  bcs gk_overflow
  tya                  ; C = 0 from the cpx
  sta ms_from,x
  adc gk_t
  sta ms_to,x
  sty gk_y
  tay
  lda board,y          ; the victim
  tay
  lda code_k8-CODE_BASE,y
  ora gk_k
  tay
  lda mvv_lva,y
  sta ms_key,x
  cmp gen_best
  bcc :+               ; not above the best so far
  adc #0               ; C = 1: key + 1
  sta gen_best
  stx gen_bi
: inx
  ldy gk_y             ; Z = 0: a square
  rts
.endproc

;; The key of a capture by a piece of kind `kind` just pushed (entry X - 1,
;; its target Y), as gk_step's.
.macro GK_SLIDE kind
  lda board,y          ; the victim
  tay
  lda code_k8-CODE_BASE,y
  tay
  lda mvv_lva+kind,y
  sta ms_key-1,x
  cmp gen_best
  bcc :+               ; not above the best so far
  adc #0               ; C = 1: key + 1
  sta gen_best
  dex
  stx gen_bi
  inx
: rts
.endmacro

;;
; The key of a rook's / a cannon's capture just pushed (entry X - 1, its
; target Y), as gk_step.  Clobbers A, Y.  Uses local+8..9.
; Cycles: 36 with the jsr, 42 on average with the new bests (Master search).
.proc gk_slide_rook
  GK_SLIDE KIND_ROOK
.endproc
.proc gk_slide_cannon
  GK_SLIDE KIND_CANNON
.endproc

;;
; A quiet-mode rook or cannon when fewer than SLIDER_MOVES entries are left:
; the same moves as GEN_ROOK / GEN_CANNON, in the same order, with checked
; pushes.  Reached by a jump from the fast generator's entry (X, gen_from as
; there, Y = gen_from); returns to its slot's jsr.
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
  ADD_Y 1
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
  ADD_Y
  bit ss_can
  bmi :+
  jsr gk_slide_rook    ; its key
  jmp next_dir
: jsr gk_slide_cannon
next_dir:
  ldy ss_dir
  iny
  cpy #4
  bne dir
  rts
.endproc

; ---------------------------------------------------------------- generators
; One per (mode, side, kind).  Entry: Y = the piece's square, X = next free
; entry (the sliders store Y in gen_from); rts with X advanced.
.proc gen_red_king
  GEN_KING RED_TAG, FLAG_RED_PALACE, 0
.endproc
.proc gen_red_advisor
  GEN_ADVISOR RED_TAG, FLAG_RED_PALACE, 0
.endproc
.proc gen_red_elephant
  GEN_ELEPHANT RED_TAG, ::FLAG_RED_HALF, 0
.endproc
.proc gen_red_horse
  GEN_HORSE RED_TAG, 0
.endproc
.proc gen_red_rook_slow
  lda #RED_TAG
  jmp gen_slow_slider
.endproc
.proc gen_red_rook
  GEN_ROOK RED_TAG, 0, gen_red_rook_slow
.endproc
.proc gen_red_cannon_slow
  lda #RED_TAG | $80
  jmp gen_slow_slider
.endproc
.proc gen_red_cannon
  GEN_CANNON RED_TAG, 0, gen_red_cannon_slow
.endproc
.proc gen_red_pawn
  GEN_PAWN RED_TAG, ::UP, ::FLAG_RED_HALF, 0
.endproc

.proc gen_black_king
  GEN_KING BLACK_TAG, FLAG_BLACK_PALACE, 0
.endproc
.proc gen_black_advisor
  GEN_ADVISOR BLACK_TAG, FLAG_BLACK_PALACE, 0
.endproc
.proc gen_black_elephant
  GEN_ELEPHANT BLACK_TAG, ::FLAG_BLACK_HALF, 0
.endproc
.proc gen_black_horse
  GEN_HORSE BLACK_TAG, 0
.endproc
.proc gen_black_rook_slow
  lda #BLACK_TAG
  jmp gen_slow_slider
.endproc
.proc gen_black_rook
  GEN_ROOK BLACK_TAG, 0, gen_black_rook_slow
.endproc
.proc gen_black_cannon_slow
  lda #BLACK_TAG | $80
  jmp gen_slow_slider
.endproc
.proc gen_black_cannon
  GEN_CANNON BLACK_TAG, 0, gen_black_cannon_slow
.endproc
.proc gen_black_pawn
  GEN_PAWN BLACK_TAG, ::DOWN, ::FLAG_BLACK_HALF, 0
.endproc

.proc cap_red_king
  GEN_KING RED_TAG, FLAG_RED_PALACE, 1
.endproc
.proc cap_red_advisor
  GEN_ADVISOR RED_TAG, FLAG_RED_PALACE, 1
.endproc
.proc cap_red_elephant
  GEN_ELEPHANT RED_TAG, ::FLAG_RED_HALF, 1
.endproc
.proc cap_red_horse
  GEN_HORSE RED_TAG, 1
.endproc
.proc cap_red_rook
  GEN_ROOK RED_TAG, 1, 0
.endproc
.proc cap_red_cannon
  GEN_CANNON RED_TAG, 1, 0
.endproc
.proc cap_red_pawn
  GEN_PAWN RED_TAG, ::UP, ::FLAG_RED_HALF, 1
.endproc

.proc cap_black_king
  GEN_KING BLACK_TAG, FLAG_BLACK_PALACE, 1
.endproc
.proc cap_black_advisor
  GEN_ADVISOR BLACK_TAG, FLAG_BLACK_PALACE, 1
.endproc
.proc cap_black_elephant
  GEN_ELEPHANT BLACK_TAG, ::FLAG_BLACK_HALF, 1
.endproc
.proc cap_black_horse
  GEN_HORSE BLACK_TAG, 1
.endproc
.proc cap_black_rook
  GEN_ROOK BLACK_TAG, 1, 0
.endproc
.proc cap_black_cannon
  GEN_CANNON BLACK_TAG, 1, 0
.endproc
.proc cap_black_pawn
  GEN_PAWN BLACK_TAG, ::DOWN, ::FLAG_BLACK_HALF, 1
.endproc

.segment "RODATA"
; code_k8[code - CODE_BASE]: the kind of a piece's code * 8 (mvv_lva's row)
code_k8:
  .repeat 2
  .res SLOTS_KING, KIND_KING * 8
  .res SLOTS_ADVISOR, KIND_ADVISOR * 8
  .res SLOTS_ELEPHANT, KIND_ELEPHANT * 8
  .res SLOTS_HORSE, KIND_HORSE * 8
  .res SLOTS_ROOK, KIND_ROOK * 8
  .res SLOTS_CANNON, KIND_CANNON * 8
  .res SLOTS_PAWN, KIND_PAWN * 8
  .endrepeat
.assert * - code_k8 = 32, error, "code_k8: 32 codes"
slide_dirs:            ; gen_slow_slider's rays, in the generators' order
  .byte <UP, <DOWN, <LEFT, <RIGHT
