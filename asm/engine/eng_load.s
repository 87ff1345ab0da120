; eng_load.s: setting up a position (reference_py/position.py rebuild).

.include "global.inc"
.include "eng.inc"

.segment "CODE"

;;
; Loads a position from the compact form and does the canonical rebuild:
; every kind has fixed slots (SLOT_x .. SLOT_x + SLOTS_x - 1: king 0,
; advisors 1-2, elephants 3-4, horses 5-6, rooks 7-8, cannons 9-10, pawns
; 11-15; reference_py/position.py KIND_SLOTS), taken in ascending square
; order: a piece gets slot SLOT_x + the pieces of its side and kind placed
; before it (its count so far).  Counts, score and Zobrist key are
; recomputed.  A side must not have more pieces of a kind than the kind has
; slots (fen.py MAX_COUNT refuses such positions; the game never makes
; one): the extra piece would take the next kind's slot.
; Input:
;   eng_load_buf (= ms_from, 90 bytes): side*8+kind of each square
;     (0 = empty), index rank*9+file, rank 0 = Red's back rank
;   eng_side  side to move (0 Red, 1 Black)
;   eng_clock plies since the last capture
;   eng_vset  weight set (EVAL_SET_*) whose value table gives eng_score
; Output: board, piece_sq, counts, eng_score, eng_key, eng_mterm
;   (eng_mterm_calc), eng_vbase, eng_wleg and eng_weye set; eng_ply = 0, ms_top = 0 (the move
;   stack is emptied), eng_chk = $FF.  (A piece's kind is a constant of its
;   code: code_kind, code_pk.)
; Uses local+0..12.  Clobbers A, X, Y.
; Cycles: 10,538 for the opening position with a set without knowledge
;   terms, 10,461 with them (eng_mterm_calc).
.proc eng_load
idx    = local+0       ; 0..89
pk     = local+1
vlo    = local+4       ; pointers into the value / Zobrist rows of pk
vhi    = local+6
zlo    = local+8
zhi    = local+10
sq     = local+12
  ; empty board: 0 on the 90 playable squares, $FF elsewhere
  ldx #BOARD_SIZE
@clear_board:
  lda sq_flags-1,x     ; X = square + 1
  and #FLAG_ON_BOARD   ; 1 on the board, 0 off it
  sec
  sbc #1               ; $00 on the board, $FF (SQ_OFFBOARD) off it
  sta board-1,x
  dex
  bne @clear_board
  ; empty piece list and counts
  lda #0
  ldx #31
@clear_lists:
  sta piece_sq,x
  dex
  bpl @clear_lists
  ldx #15
@clear_counts:
  sta counts,x
  dex
  bpl @clear_counts
  sta eng_ply
  sta eng_score
  sta eng_score+1
  sta eng_key
  sta eng_key+1
  lda eng_vset         ; eng_vbase = ROW_REGION_PAGES * (1 + 2*eng_vset)
  asl a
  ora #1
  sta eng_vbase
  .repeat ::ROW_REGION_PAGES - 1
  clc
  adc eng_vbase
  .endrepeat
  sta eng_vbase
  ldx eng_vset         ; the set's weakness weights, for eng_eval's WEAKNESS
  lda ev_wk_leg,x
  sta eng_wleg
  lda ev_wk_eye,x
  sta eng_weye

  ; place the pieces in ascending square order
  lda #0
  sta idx
@square:
  ldx idx
  lda eng_load_buf,x
  beq @next
  sta pk
  lda sq_of90,x
  sta sq
  ldx pk
  lda counts,x         ; pieces of this side and kind placed so far
  inc counts,x
  clc
  adc slot_code,x      ; + CODE_BASE + side*16 + the kind's first slot
  tay                  ; Y = the piece's code
  lda sq
  sta piece_sq-CODE_BASE,y
  tya
  ldy sq
  sta board,y
  ; score += V[pk][sq], key ^= Z[pk][sq]
  ldx pk
  ROWS_FOR_X zlo, zhi, vlo, vhi
  lda eng_score
  adc (vlo),y          ; C = 0 from ROWS_FOR_X
  sta eng_score
  lda eng_score+1
  adc (vhi),y
  sta eng_score+1
  lda eng_key
  eor (zlo),y
  sta eng_key
  lda eng_key+1
  eor (zhi),y
  sta eng_key+1
@next:
  inc idx
  lda idx
  cmp #90
  beq :+
  jmp @square
:

  lda eng_side
  beq :+
  lda eng_key
  eor #ZOBRIST_SIDE_LO
  sta eng_key
  lda eng_key+1
  eor #ZOBRIST_SIDE_HI
  sta eng_key+1
: lda #0
  sta ms_top
  lda #$FF
  sta eng_chk          ; not known until eng_in_check is asked
  jmp eng_mterm_calc   ; eng_mterm from the counts
.endproc

;;
; Rebuilds the piece lists in canonical order from the current board (the
; search calls it at its start, as reference Position.rebuild()): writes the
; compact form of the board into eng_load_buf and runs eng_load, so side,
; clock and weight set are kept.
; Input: a position (board).  Output: as eng_load; the move
;   stack is emptied and eng_ply = 0.
; Uses local+0..12.  Clobbers A, X, Y.
.proc eng_rebuild
  jsr eng_compact
  jmp eng_load
.endproc

;;
; Writes the compact form of the current board into eng_load_buf (90 bytes,
; side*8+kind per square, index rank*9+file), eng_load's input.  The game
; layer (game_rules.s) edits it to take a move back.
; Input: a position (board).  Output: eng_load_buf.
; Clobbers A, X, Y.  Cycles: 2,057 for the opening position.
.proc eng_compact
  ldy #89
@square:
  ldx sq_of90,y
  lda board,x
  beq @store           ; empty: 0
  tax
  lda code_pk-CODE_BASE,x  ; side*8 + kind
@store:
  sta eng_load_buf,y
  dey
  bpl @square
  rts
.endproc

.segment "RODATA"
; [side*8+kind]: the code of the kind's first slot, CODE_BASE + side*16 +
; SLOT_kind (eng_load adds the pieces of that kind placed so far); entries
; 0 and 8 (no kind) are unused
slot_code:
  .byte 0, CODE_BASE+SLOT_KING, CODE_BASE+SLOT_ADVISOR, CODE_BASE+SLOT_ELEPHANT
  .byte CODE_BASE+SLOT_HORSE, CODE_BASE+SLOT_ROOK, CODE_BASE+SLOT_CANNON, CODE_BASE+SLOT_PAWN
  .byte 0, CODE_BASE+16+SLOT_KING, CODE_BASE+16+SLOT_ADVISOR, CODE_BASE+16+SLOT_ELEPHANT
  .byte CODE_BASE+16+SLOT_HORSE, CODE_BASE+16+SLOT_ROOK, CODE_BASE+16+SLOT_CANNON, CODE_BASE+16+SLOT_PAWN
