; eng_make.s: make and unmake (reference Position.make / unmake).
;
; make saves 5 bytes per ply (from, to, captured code, clock, check state)
; in undo_*;
; unmake restores the board and piece lists from them and reverses the
; incremental score and key updates (16-bit adds and XORs are exactly
; invertible), so the state after unmake is byte-identical to the state
; before make (tested by emu_tests/test_romengine_makeunmake.py).

.include "global.inc"
.include "eng.inc"

mk_from = local+0
mk_to   = local+1
mk_cap  = local+2      ; captured code (0 = none)
vlo     = local+4      ; 2 bytes: value row (low bytes) of a side*8+kind
vhi     = local+6      ; 2 bytes: value row (high bytes)
zlo     = local+8      ; 2 bytes: Zobrist row (low bytes)
zhi     = local+10     ; 2 bytes: Zobrist row (high bytes)

;; eng_score += V[Y].  C must be 0 (ROWS_FOR_X leaves it so).  22 cycles.
.macro SCORE_ADD_C0
  lda eng_score
  adc (vlo),y
  sta eng_score
  lda eng_score+1
  adc (vhi),y
  sta eng_score+1
.endmacro

;; eng_score -= V[Y].  24 cycles.
.macro SCORE_SUB
  sec
  lda eng_score
  sbc (vlo),y
  sta eng_score
  lda eng_score+1
  sbc (vhi),y
  sta eng_score+1
.endmacro

;; eng_key ^= Z[Y].  22 cycles.
.macro KEY_XOR
  lda eng_key
  eor (zlo),y
  sta eng_key
  lda eng_key+1
  eor (zhi),y
  sta eng_key+1
.endmacro

;; One byte of the key of a move: key.b ^= row[Y] ^ row[other] ^ side.b,
;; leaving Y = the square in `other`.  21 cycles.
.macro KEY_MOVE_BYTE row, other, byte, side
  lda (row),y
  ldy other
  eor (row),y
  eor #side
  eor eng_key+byte
  sta eng_key+byte
.endmacro

.segment "CODE"

; side*8 of a piece's code (CODE_BASE..CODE_BASE+31): the row-table index
; of the piece is this | its kind (a lookup costs a cycle more if the table
; crosses a page).
side8_of_code:
  .res 16, 0
  .res 16, 8

;;
; Plays move-stack entry X (a pseudo-legal move of the side to move).
; Input: X = move-stack index; eng_ply < MAX_PLY.
; Output: the position after the move; eng_ply + 1; undo_*[old eng_ply]
;   (undo_check keeps eng_chk, which becomes $FF: not known).
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: 252 for a quiet move, 361 for a capture on average, 370 at most
;   (middlegames, bench/rom_bench.py; eng_make_ft 5 fewer).
.proc eng_make
  ldy ms_to,x
  lda ms_from,x
  sty mk_to
  sta mk_from
from_to:               ; A = mk_from, Y = mk_to
  ldx eng_ply
  sta undo_from,x
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
  ; the board and the mover's square (Y = mk_to)
  ldx mk_from
  lda board,x          ; the mover's code
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  ldx board,y          ; X = code of the mover
  sty piece_sq-CODE_BASE,x
  lda side8_of_code-CODE_BASE,x
  ora piece_kind-CODE_BASE,x
  tax                  ; X = side*8 + kind
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ; score += V[to] - V[from]; key ^= Z[to] ^ Z[from] ^ side (Y = to)
  SCORE_ADD_C0
  KEY_MOVE_BYTE zlo, mk_from, 0, ZOBRIST_SIDE_LO
  SCORE_SUB
  KEY_MOVE_BYTE zhi, mk_to, 1, ZOBRIST_SIDE_HI
  ; a capture: the victim leaves the lists (Y = to)
  ldx mk_cap
  bne @capture
  inc eng_clock
  lda eng_side
  eor #1
  sta eng_side
  inc eng_ply
  rts
@capture:
  lda #0
  sta piece_sq-CODE_BASE,x
  sta eng_clock
  lda side8_of_code-CODE_BASE,x
  ora piece_kind-CODE_BASE,x
  tax                  ; X = (side^1)*8 + kind of the victim
  dec counts,x
  ROWS_FOR_X zlo, zhi, vlo, vhi
  SCORE_SUB
  KEY_XOR
  lda eng_side
  eor #1
  sta eng_side
  inc eng_ply
  rts
.endproc

;;
; As eng_make, with the move in mk_from = local+0 and mk_to = local+1.
.proc eng_make_ft
  lda mk_from
  ldy mk_to
  jmp eng_make::from_to
.endproc

;;
; Takes back the last eng_make.
; Input: eng_ply >= 1.  Output: the position before that make; eng_ply - 1.
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: 226 for a quiet move, 336 for a capture on average, 345 at most.
.proc eng_unmake
  dec eng_ply
  ldx eng_ply
  lda undo_clock,x
  sta eng_clock
  lda undo_check,x
  sta eng_chk
  lda eng_side
  eor #1
  sta eng_side         ; the side that made the move
  lda undo_from,x
  sta mk_from
  lda undo_cap,x
  sta mk_cap
  ldy undo_to,x
  sty mk_to
  ; the board and the mover's square
  ldx board,y          ; X = code of the mover
  sta board,y          ; the captured code back (A = mk_cap)
  ldy mk_from
  txa
  sta board,y
  sty piece_sq-CODE_BASE,x
  lda side8_of_code-CODE_BASE,x
  ora piece_kind-CODE_BASE,x
  tax                  ; X = side*8 + kind
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ; score -= V[to] - V[from]; key ^= Z[to] ^ Z[from] ^ side (Y = from)
  SCORE_ADD_C0
  KEY_MOVE_BYTE zlo, mk_to, 0, ZOBRIST_SIDE_LO
  SCORE_SUB
  KEY_MOVE_BYTE zhi, mk_from, 1, ZOBRIST_SIDE_HI
  ; a capture: the victim comes back
  ldx mk_cap
  bne @capture
  rts
@capture:
  ldy mk_to
  sty piece_sq-CODE_BASE,x
  lda side8_of_code-CODE_BASE,x
  ora piece_kind-CODE_BASE,x
  tax                  ; X = (side^1)*8 + kind of the victim
  inc counts,x
  ROWS_FOR_X zlo, zhi, vlo, vhi
  SCORE_ADD_C0
  KEY_XOR
  rts
.endproc
