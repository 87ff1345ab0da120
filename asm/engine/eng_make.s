; eng_make.s: make and unmake (reference Position.make / unmake).
;
; make saves 9 bytes per ply (from, to, captured code, clock, check state,
; eng_score and eng_key) in undo_*, and a capture 2 more (eng_mterm, which it
; recomputes: the evaluation's count-based terms change only when `counts`
; does), then updates the score and key incrementally; unmake restores the
; board and piece lists from them and copies the saved score, key (and after
; a capture eng_mterm) back instead of reversing the updates, so the state
; after unmake is byte-identical to the state before make (tested by
; emu_tests/test_romengine_makeunmake.py).

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

; Every kind has fixed slots (SLOT_x .. SLOT_x + SLOTS_x - 1, in kind order;
; docs/ENGINE.md "Board"), so a piece's kind is a constant of its code: two
; tables indexed by the code ($10-$2F), as table-CODE_BASE,x (or ,y).
;   code_pk    side*8 + kind: the row-table / counts index of the piece
;   code_kind  kind (KIND_*)
; Both lie in one page with the 16 bytes before them (table-CODE_BASE),
; so an indexed read costs 4 cycles, as a zero-page one (checked below).
.assert SLOT_KING = 0 && SLOT_ADVISOR = SLOT_KING + SLOTS_KING && SLOT_ELEPHANT = SLOT_ADVISOR + SLOTS_ADVISOR && SLOT_HORSE = SLOT_ELEPHANT + SLOTS_ELEPHANT && SLOT_ROOK = SLOT_HORSE + SLOTS_HORSE && SLOT_CANNON = SLOT_ROOK + SLOTS_ROOK && SLOT_PAWN = SLOT_CANNON + SLOTS_CANNON && SLOT_PAWN + SLOTS_PAWN = 16, error, "code_pk / code_kind assume 16 slots per side in kind order"
  .align 128            ; with the 16 bytes below, code_pk-CODE_BASE ..
  .res CODE_BASE, 0     ; code_kind+31 (80 bytes) never cross a page
code_pk:
  .repeat 2, side
  .res SLOTS_KING, side*8 + KIND_KING
  .res SLOTS_ADVISOR, side*8 + KIND_ADVISOR
  .res SLOTS_ELEPHANT, side*8 + KIND_ELEPHANT
  .res SLOTS_HORSE, side*8 + KIND_HORSE
  .res SLOTS_ROOK, side*8 + KIND_ROOK
  .res SLOTS_CANNON, side*8 + KIND_CANNON
  .res SLOTS_PAWN, side*8 + KIND_PAWN
  .endrepeat
code_kind:
  .repeat 2
  .res SLOTS_KING, KIND_KING
  .res SLOTS_ADVISOR, KIND_ADVISOR
  .res SLOTS_ELEPHANT, KIND_ELEPHANT
  .res SLOTS_HORSE, KIND_HORSE
  .res SLOTS_ROOK, KIND_ROOK
  .res SLOTS_CANNON, KIND_CANNON
  .res SLOTS_PAWN, KIND_PAWN
  .endrepeat
code_tables_end:
.assert code_kind - code_pk = 32 && code_tables_end - code_kind = 32, error, "code_pk / code_kind: 32 codes each"
.assert >(code_pk - CODE_BASE) = >(code_tables_end - 1), error, "code_pk-CODE_BASE .. code_kind+31 must lie in one page (no page-crossing cycle): move the tables"

;; eng_make's body from the board's save on (A = mk_from, Y = mk_to, both
;; also in mk_from / mk_to).  key = 1: eng_key and eng_clock are saved
;; in undo_key / undo_clock and updated; key = 0 (eng_make_q_check): they
;; are neither saved nor touched (eng_unmake_q does not restore them).
;; then (optional): the routine the body ends with, as a tail call
;; (eng_legal_check), instead of an RTS; then eng_chk is not set to $FF
;; (not known): eng_legal_check writes it for a legal move, and an illegal
;; one is taken back at once (nothing reads eng_chk before the unmake
;; copies it back).
.macro MAKE_BODY key, then
  .local capture, done
  ldx eng_ply
  sta undo_from,x
  sty undo_to,x
  lda board,y
  sta undo_cap,x
  sta mk_cap
  .if key
  lda eng_clock
  sta undo_clock,x
  .endif
  lda eng_chk
  sta undo_check,x
  lda eng_score        ; eng_unmake copies the score and key back
  sta undo_score_lo,x
  lda eng_score+1
  sta undo_score_hi,x
  .if key
  lda eng_key
  sta undo_key_lo,x
  lda eng_key+1
  sta undo_key_hi,x
  .endif
  .ifblank then
  lda #$FF
  sta eng_chk          ; not known for the new position
  .endif                ; (eng_legal_check writes it for a legal move)
  ; the board and the mover's square (Y = mk_to)
  ldx mk_from
  lda board,x          ; the mover's code
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  ldx board,y          ; X = code of the mover
  sty piece_sq-CODE_BASE,x
  lda code_pk-CODE_BASE,x
  tax                  ; X = side*8 + kind
  .if key
  ROWS_FOR_X zlo, zhi, vlo, vhi
  ; score += V[to] - V[from]; key ^= Z[to] ^ Z[from] ^ side (Y = to)
  SCORE_ADD_C0
  KEY_MOVE_BYTE zlo, mk_from, 0, ZOBRIST_SIDE_LO
  SCORE_SUB
  KEY_MOVE_BYTE zhi, mk_to, 1, ZOBRIST_SIDE_HI
  .else
  VROWS_FOR_X vlo, vhi
  SCORE_ADD_C0         ; score += V[to] - V[from] (Y = to)
  ldy mk_from
  SCORE_SUB
  ldy mk_to
  .endif
  ; a capture: the victim leaves the lists (Y = to)
  ldx mk_cap
  bne capture
  .if key
  inc eng_clock
  .endif
  lda eng_side
  eor #1
  sta eng_side
  inc eng_ply
  .ifblank then
  rts
  .else
  jmp then
  .endif
capture:
  lda #0
  sta piece_sq-CODE_BASE,x
  .if key
  sta eng_clock
  .endif
  lda code_pk-CODE_BASE,x
  tax                  ; X = (side^1)*8 + kind of the victim
  dec counts,x
  .if key
  ROWS_FOR_X zlo, zhi, vlo, vhi
  SCORE_SUB
  KEY_XOR
  .else
  VROWS_FOR_X vlo, vhi
  SCORE_SUB
  .endif
  lda eng_side
  eor #1
  sta eng_side
  ; the counts changed: save eng_mterm and recompute it (a set without
  ; knowledge terms keeps eng_mterm and every undo_mterm entry 0: eng_load)
  ldy eng_ply
  inc eng_ply
  ldx eng_vset
  lda ev_knowledge,x
  beq done
  lda eng_mterm
  sta undo_mterm_lo,y
  lda eng_mterm+1
  sta undo_mterm_hi,y
  .ifblank then
  jmp eng_mterm_sum    ; X = eng_vset
done:
  rts
  .else
  jsr eng_mterm_sum    ; X = eng_vset
done:
  jmp then
  .endif
.endmacro

;; VROWS_FOR_X without the Zobrist rows: vlo, vhi = the value rows of the
;; side*8+kind X in the active set, C = 0.  29 cycles.
.macro VROWS_FOR_X vlo, vhi
  lda row_ptr_l,x
  sta vlo
  sta vhi
  lda row_ptr_h,x
  clc
  adc #ROW_REGION_PAGES
  adc eng_vbase
  sta vlo+1
  adc #ROW_REGION_PAGES
  sta vhi+1
.endmacro

;;
; Plays move-stack entry X (a pseudo-legal move of the side to move).
; Input: X = move-stack index; eng_ply < ENG_PLIES.
; Output: the position after the move; eng_ply + 1; undo_*[old eng_ply]
;   (undo_check keeps eng_chk, which becomes $FF: not known; undo_score /
;   undo_key keep eng_score / eng_key for eng_unmake); with a weight set
;   that has knowledge terms a capture saves eng_mterm in undo_mterm_lo/hi
;   and recomputes it (eng_mterm_sum, a tail call); a quiet move leaves
;   it, and so does any move with a set without them (eng_mterm and the
;   undo_mterm entries then stay 0, as eng_load set them).
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: 276 for a quiet move, 394 for a capture on average, 403 at most
;   with a set without knowledge terms (middlegames, bench/rom_bench.py;
;   eng_make_ft 5 fewer; 28 of them save the score and key); with the
;   knowledge terms a capture adds about 15 for the save and eng_mterm_sum
;   (379 a call on average in the Master search of bench.rom_profile
;   --level Master --positions 1): 315 a make on average of its own, 407
;   with eng_mterm_sum, in bench.rom_profile --level Master --positions 4
;   --skip 2.
.proc eng_make
  ldy ms_to,x
  lda ms_from,x
  sty mk_to
  sta mk_from
from_to:               ; A = mk_from, Y = mk_to
  MAKE_BODY 1
.endproc

;;
; eng_make, then eng_legal_check (a tail call: one JSR/RTS less than the
; two calls): the main search's make.
; Input: as eng_make.  Output: as eng_make, and A (N, Z) as eng_legal_check;
;   after an illegal move (A = $FF) eng_chk is still the check state of the
;   position before the move, not $FF (the search unmakes it at once).
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: eng_make's + eng_legal_check's less 17 (no JSR/RTS, no $FF store).
.proc eng_make_check
  ldy ms_to,x
  lda ms_from,x
  sty mk_to
  sta mk_from
  MAKE_BODY 1, eng_legal_check
.endproc

;;
; eng_make without the Zobrist key and the clock, then eng_legal_check (a
; tail call), for the quiescence search, where nothing reads eng_key or
; eng_clock (no repetition or draw test, no history push): neither is
; saved in undo_key / undo_clock nor changed, and eng_unmake_q, which
; takes such a move back, leaves both as they are.  Through the whole
; quiescence search they are those of the position where it began.
; Input, uses and clobbers: as eng_make.  Output: as eng_make, but eng_key
;   and eng_clock are those of the position before the move (and
;   undo_key / undo_clock of the ply are not written); A (N, Z) as
;   eng_legal_check.
; Cycles: eng_make's less the key (2 x 21, 22 more for a capture), the
;   Zobrist rows' pointers (12 per piece), the key's and clock's saves (24)
;   and the clock's update (5, 3 for a capture), + eng_legal_check's less 17.
.proc eng_make_q_check
  ldy ms_to,x
  lda ms_from,x
  sty mk_to
  sta mk_from
  MAKE_BODY 0, eng_legal_check
.endproc

;;
; As eng_make, with the move in mk_from = local+0 and mk_to = local+1.
.proc eng_make_ft
  lda mk_from
  ldy mk_to
  jmp eng_make::from_to
.endproc

;; eng_unmake's body.  key = 1: eng_clock and eng_key are copied back
;; from undo_clock / undo_key; key = 0 (eng_unmake_q): they are not (the
;; make was eng_make_q_check's, which neither saved nor changed them).
.macro UNMAKE_BODY key
  .local capture
  dec eng_ply
  ldy eng_ply          ; Y = ply (undo_* reads are absolute,y: 4 cycles too)
  .if key
  lda undo_clock,y
  sta eng_clock
  .endif
  lda undo_check,y
  sta eng_chk
  lda undo_score_lo,y
  sta eng_score
  lda undo_score_hi,y
  sta eng_score+1
  .if key
  lda undo_key_lo,y
  sta eng_key
  lda undo_key_hi,y
  sta eng_key+1
  .endif
  lda eng_side
  eor #1
  sta eng_side         ; the side that made the move
  lda undo_cap,y
  bne capture
  ; a quiet move: the mover goes back, `to` is empty again
  ldx undo_to,y        ; X = to
  lda undo_from,y
  tay                  ; Y = from
  lda board,x          ; the mover's code
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  ldx board,y          ; X = code of the mover
  sty piece_sq-CODE_BASE,x
  rts
capture:               ; A = the victim's code, Y = ply
  tax
  lda undo_to,y        ; the victim comes back to `to`
  sta piece_sq-CODE_BASE,x
  stx mk_cap
  lda code_pk-CODE_BASE,x
  tax                  ; X = (side^1)*8 + kind of the victim
  inc counts,x
  lda undo_mterm_lo,y  ; the counts are back: so is eng_mterm
  sta eng_mterm
  lda undo_mterm_hi,y
  sta eng_mterm+1
  ldx undo_to,y        ; X = to
  lda undo_from,y
  tay                  ; Y = from
  lda board,x          ; the mover's code
  sta board,y
  lda mk_cap
  sta board,x
  ldx board,y          ; X = code of the mover
  sty piece_sq-CODE_BASE,x
  rts
.endmacro

;;
; Takes back the last eng_make (eng_make, eng_make_ft, eng_make_check).
; Input: eng_ply >= 1.  Output: the position before that make: the board,
;   piece lists and counts put back, eng_score, eng_key, eng_clock and
;   eng_chk copied from undo_*, eng_mterm too after a capture (from
;   undo_mterm_lo/hi); eng_ply - 1.
; Uses local+2 (a capture).  Clobbers A, X, Y.
; Cycles: 104 for a quiet move, 145 for a capture (middlegames,
;   bench/rom_bench.py; 116 a call on average in bench.rom_profile --level
;   Master --positions 4 --skip 2).
.assert SQ_EMPTY = 0, error, "eng_make and eng_unmake read undo_cap = SQ_EMPTY as no capture (bne)"
.proc eng_unmake
  UNMAKE_BODY 1
.endproc

;;
; Takes back the last eng_make_q_check: eng_unmake without eng_clock and
; eng_key, which that make left as they were.
; Input: eng_ply >= 1.  Output, uses and clobbers: as eng_unmake, but
;   eng_clock and eng_key are not written.
; Cycles: eng_unmake's less 21.
.proc eng_unmake_q
  UNMAKE_BODY 0
.endproc
