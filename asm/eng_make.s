; eng_make.s: make and unmake (reference Position.make / unmake).
;
; make saves 4 bytes per ply (from, to, captured code, clock) in undo_*;
; unmake restores the board and piece lists from them and reverses the
; incremental score and key updates (16-bit adds and XORs are exactly
; invertible), so the state after unmake is byte-identical to the state
; before make (tested by emu_tests/test_romengine_makeunmake.py).

.include "global.inc"
.include "eng.inc"

mk_from = local+0
mk_to   = local+1
mk_cap  = local+2      ; captured code (0 = none)
mk_s8   = local+3      ; side*8 of the moving side
vlo     = local+4      ; 2 bytes: value row (low bytes) of a side*8+kind
vhi     = local+6      ; 2 bytes: value row (high bytes)
zlo     = local+8      ; 2 bytes: Zobrist row (low bytes)
zhi     = local+10     ; 2 bytes: Zobrist row (high bytes)

;; eng_score += V[Y]
.macro SCORE_ADD
  clc
  lda eng_score
  adc (vlo),y
  sta eng_score
  lda eng_score+1
  adc (vhi),y
  sta eng_score+1
.endmacro

;; eng_score -= V[Y]
.macro SCORE_SUB
  sec
  lda eng_score
  sbc (vlo),y
  sta eng_score
  lda eng_score+1
  sbc (vhi),y
  sta eng_score+1
.endmacro

;; eng_key ^= Z[Y]
.macro KEY_XOR
  lda eng_key
  eor (zlo),y
  sta eng_key
  lda eng_key+1
  eor (zhi),y
  sta eng_key+1
.endmacro

.segment "CODE"

;;
; Plays move-stack entry X (a pseudo-legal move of the side to move).
; Input: X = move-stack index; eng_ply < MAX_PLY.
; Output: the position after the move; eng_ply + 1; undo_*[old eng_ply]
;   (undo_check keeps eng_chk, which becomes $FF: not known).
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: 282 for a quiet move, 397 for a capture on average, 406 at most
;   (middlegames, bench/rom_bench.py; eng_make_ft 14 fewer).
.proc eng_make
  lda ms_from,x
  sta mk_from
  lda ms_to,x
  sta mk_to
  ; fall through
.endproc

;;
; As eng_make, with the move in mk_from = local+0 and mk_to = local+1.
.proc eng_make_ft
  ldx eng_ply
  lda mk_from
  sta undo_from,x
  ldy mk_to
  sty undo_to,x
  lda board,y
  sta undo_cap,x
  sta mk_cap
  lda eng_clock
  sta undo_clock,x
  lda eng_chk
  sta undo_check,x
  lda #$FF
  sta eng_chk          ; not known for the new position
  ; the board and the mover's square
  ldy mk_from
  lda board,y
  tax                  ; X = code of the mover
  lda #SQ_EMPTY
  sta board,y
  ldy mk_to
  txa
  sta board,y
  sty piece_sq-CODE_BASE,x
  lda eng_side
  asl a
  asl a
  asl a
  sta mk_s8
  ora piece_kind-CODE_BASE,x
  tax                  ; X = side*8 + kind
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ; score += V[to] - V[from]; key ^= Z[to] ^ Z[from] ^ side
  SCORE_ADD
  KEY_XOR
  ldy mk_from
  SCORE_SUB
  lda eng_key
  eor (zlo),y
  eor #ZOBRIST_SIDE_LO
  sta eng_key
  lda eng_key+1
  eor (zhi),y
  eor #ZOBRIST_SIDE_HI
  sta eng_key+1
  ; a capture: the victim leaves the lists
  ldx mk_cap
  beq @quiet
  lda #0
  sta piece_sq-CODE_BASE,x
  sta eng_clock
  lda mk_s8
  eor #8
  ora piece_kind-CODE_BASE,x
  tax                  ; X = (side^1)*8 + kind of the victim
  dec counts,x
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ldy mk_to
  SCORE_SUB
  KEY_XOR
  jmp @done
@quiet:
  inc eng_clock
@done:
  lda eng_side
  eor #1
  sta eng_side
  inc eng_ply
  rts
.endproc

;;
; Takes back the last eng_make.
; Input: eng_ply >= 1.  Output: the position before that make; eng_ply - 1.
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: 252 for a quiet move, 367 for a capture on average, 376 at most.
.proc eng_unmake
  dec eng_ply
  ldx eng_ply
  lda undo_clock,x
  sta eng_clock
  lda undo_check,x
  sta eng_chk
  lda undo_from,x
  sta mk_from
  lda undo_cap,x
  sta mk_cap
  ldy undo_to,x
  sty mk_to
  lda eng_side
  eor #1
  sta eng_side         ; the side that made the move
  asl a
  asl a
  asl a
  sta mk_s8
  ; the board and the mover's square
  lda board,y
  tax                  ; X = code of the mover
  lda mk_cap
  sta board,y
  ldy mk_from
  txa
  sta board,y
  sty piece_sq-CODE_BASE,x
  lda mk_s8
  ora piece_kind-CODE_BASE,x
  tax
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ; score -= V[to] - V[from]; key ^= Z[to] ^ Z[from] ^ side
  SCORE_ADD            ; Y = from
  lda eng_key
  eor (zlo),y
  eor #ZOBRIST_SIDE_LO
  sta eng_key
  lda eng_key+1
  eor (zhi),y
  eor #ZOBRIST_SIDE_HI
  sta eng_key+1
  ldy mk_to
  SCORE_SUB
  KEY_XOR
  ; a capture: the victim comes back
  ldx mk_cap
  beq @done
  lda mk_to
  sta piece_sq-CODE_BASE,x
  lda mk_s8
  eor #8
  ora piece_kind-CODE_BASE,x
  tax
  inc counts,x
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ldy mk_to
  SCORE_ADD
  KEY_XOR
@done:
  rts
.endproc
