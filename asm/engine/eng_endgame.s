; eng_endgame.s: the endgame terms against a bare side (reference_py/endgame.py).
;
; A side with no rook, horse, cannon or pawn is bare.  eng_eval_ge tests
; the counts of both sides (12 cycles when both have a pawn, the usual
; case, 29 when neither has one and neither is bare); when a side is bare and the weight set has the endgame terms it
; hands over to eng_eval_endgame: the position's class (eng_bare_calc),
; the strong side's drive, the exact evaluation, then the class's shift.
;
; eng_bare:  0                      no side bare, or a set without the terms
;            EG_BOTH_BARE            both sides bare (the shift, no drive)
;            EG_ACTIVE | [EG_STRONG_BLACK] | [EG_BITBASE | EG_BITBASE_AA] | shift
;                                    one side bare; EG_BITBASE: exactly KH vs KE
;                                    or KH vs KAA, EG_BITBASE_AA: the latter

.include "global.inc"
.include "eng.inc"
.include "search.inc"

acc   = local+0        ; the evaluation (eng_eval_ge's acc)
drv   = local+2        ; eng_eval_endgame: the drive being summed
wf    = local+3        ;   the bare king's file
wr    = local+4        ;   and rank
dist  = local+5        ;   scratch

.assert EG_ROW_OTHER = 0, error, "eng_bare_calc reaches EG_ROW_OTHER with Z = 1"
.assert EG_STRONG_BLACK = $40, error, "eng_eval_endgame reads EG_STRONG_BLACK as bit 6 (BIT: V)"
.assert (EG_BITBASE & (EG_ACTIVE | EG_STRONG_BLACK | EG_BOTH | EG_SHIFT_MASK | EG_BITBASE_AA)) = 0, error, "EG_BITBASE is a bit of its own"
.assert (EG_BITBASE_AA & (EG_ACTIVE | EG_STRONG_BLACK | EG_BOTH | EG_SHIFT_MASK)) = 0, error, "EG_BITBASE_AA is a bit of its own"

;; drv += eg_near[files + ranks from the bare king (wf, wr)] for the strong
;; side's piece in slot X + `slot`, when it is on the board.  Clobbers A, Y.
;; 7 cycles for an empty slot, about 50 for a piece.
.macro NEAR slot
  .local skip, fpos, rpos
  ldy piece_sq+slot,x
  beq skip
  lda sq_file,y
  sec
  sbc wf
  bcs fpos
  eor #$FF             ; C = 0: -A = ~A + 1
  adc #1
fpos:
  sta dist
  lda sq_rank,y
  sec
  sbc wr
  bcs rpos
  eor #$FF
  adc #1
rpos:
  clc
  adc dist
  tay
  lda eg_near,y
  clc
  adc drv
  sta drv
skip:
.endmacro

.segment "CODE"

;;
; eng_bare = the endgame class of a position with a bare side
; (reference_py/endgame.py; eng_eval_ge has found one): EG_BOTH_BARE when
; both are; else EG_ACTIVE, | EG_STRONG_BLACK when Black is the strong
; side, | the shift eg_scale[EG_ROW_* of the strong side's attackers (a
; lone rook, horse, cannon without / with an advisor of its own, one pawn,
; two pawns, other) + the bare side's advisors + 3 * its elephants], |
; EG_BITBASE when the material is exactly king + horse against king + one
; elephant (the row H, the column E, no advisor or elephant of the horse's),
; EG_BITBASE | EG_BITBASE_AA when it is king + horse against king + two
; advisors (the column AA).
; Input: counts, with a bare side.  Output: eng_bare.
; Uses 1 byte of stack, no locals.  Clobbers A, X, Y.
; Cycles (to the RTS): about 85-125.
.proc eng_bare_calc
  lda counts+KIND_ROOK
  ora counts+KIND_HORSE
  ora counts+KIND_CANNON
  ora counts+KIND_PAWN
  beq red_bare
  ldy #0               ; Red has an attacker, so Black is bare: Red (Y = 0)
  ldx #8               ;   is the strong side, X = 8 the bare side's counts
  lda #EG_ACTIVE
  bne classify         ; always
red_bare:
  lda counts+8+KIND_ROOK
  ora counts+8+KIND_HORSE
  ora counts+8+KIND_CANNON
  ora counts+8+KIND_PAWN
  bne black_strong
  lda #EG_BOTH_BARE
  sta eng_bare
  rts
black_strong:
  ldy #8
  ldx #0
  lda #EG_ACTIVE | EG_STRONG_BLACK
classify:
  pha                  ; the flags
  lda counts+KIND_ROOK,y       ; the strong side's attackers
  clc
  adc counts+KIND_HORSE,y
  adc counts+KIND_CANNON,y
  adc counts+KIND_PAWN,y
  cmp #1
  beq one
  cmp #2
  bne other
  lda counts+KIND_PAWN,y
  cmp #2
  bne other
  lda #EG_ROW_PP
  bne row              ; always
other:
  lda #EG_ROW_OTHER    ; 0: Z = 1
  beq row              ; always
one:
  lda counts+KIND_ROOK,y
  beq :+
  lda #EG_ROW_R
  bne row
: lda counts+KIND_HORSE,y
  beq :+
  lda #EG_ROW_H
  bne row
: lda counts+KIND_PAWN,y
  beq :+
  lda #EG_ROW_P
  bne row
: lda counts+KIND_ADVISOR,y    ; a lone cannon: with a screen of its own or not
  beq :+
  lda #EG_ROW_CA
  bne row
: lda #EG_ROW_C
row:                   ; + the column: advisors + 3 * elephants of the bare side
  clc
  adc counts+KIND_ADVISOR,x
  adc counts+KIND_ELEPHANT,x
  adc counts+KIND_ELEPHANT,x
  adc counts+KIND_ELEPHANT,x
  tax
  pla
  ora eg_scale,x
  cpx #EG_ROW_H + 3    ; a lone horse against one elephant (no advisor)
  beq horse
  cpx #EG_ROW_H + 2    ; or against two advisors (no elephant)
  bne store
horse:
  pha
  lda counts+KIND_ADVISOR,y    ; and the horse has no advisor or elephant
  ora counts+KIND_ELEPHANT,y   ;   of its own: a bitbase's class
  beq bitbase
  pla
  bne store            ; always (EG_ACTIVE)
bitbase:
  pla
  ora #EG_BITBASE
  cpx #EG_ROW_H + 3
  beq store
  ora #EG_BITBASE_AA
store:
  sta eng_bare
  rts
.endproc

;; eg_free += 1 when the bare king's neighbour eg_king + d is in its palace
;; (FLAG_*_PALACE `palace`), holds none of its pieces (tag `weak_tag`) and
;; is not attacked by the strong side `strong` (eng_attacked).  Clobbers
;; A, X, Y, local+0..9.  About 15 cycles off the palace, + eng_attacked.
.macro FREE d, palace, weak_tag, strong
  .local skip
  lda eg_king
  clc
  adc #<(d)
  tay
  lda sq_flags,y
  and #palace
  beq skip
  lda board,y
  and #weak_tag
  bne skip
  lda #strong
  jsr eng_attacked
  bcs skip
  inc eg_free
skip:
.endmacro

;; eg_free = the free squares of the bare king of side `weak` (its four
;; orthogonal neighbours: FREE).  Clobbers A, X, Y, local+0..9.
.macro FREE_SQUARES weak
  lda piece_sq+16*(weak)+SLOT_KING
  sta eg_king
  lda #0
  sta eg_free
  .if weak = ::SIDE_RED
  FREE ::UP, ::FLAG_RED_PALACE, ::RED_TAG, ::SIDE_BLACK
  FREE ::DOWN, ::FLAG_RED_PALACE, ::RED_TAG, ::SIDE_BLACK
  FREE ::LEFT, ::FLAG_RED_PALACE, ::RED_TAG, ::SIDE_BLACK
  FREE ::RIGHT, ::FLAG_RED_PALACE, ::RED_TAG, ::SIDE_BLACK
  .else
  FREE ::UP, ::FLAG_BLACK_PALACE, ::BLACK_TAG, ::SIDE_RED
  FREE ::DOWN, ::FLAG_BLACK_PALACE, ::BLACK_TAG, ::SIDE_RED
  FREE ::LEFT, ::FLAG_BLACK_PALACE, ::BLACK_TAG, ::SIDE_RED
  FREE ::RIGHT, ::FLAG_BLACK_PALACE, ::BLACK_TAG, ::SIDE_RED
  .endif
.endmacro

;;
; eng_eval_ge for a position with a bare side and a weight set with the
; endgame terms (eng_eval_ge jumps here).  The class first (eng_bare_calc:
; eng_bare); unless both sides are bare, the strong side's drive d
; first: eg_mobility[the bare king's free squares] (FREE_SQUARES, with
; eng_attacked), EG_KING_CENTRE for the strong king on file e, eg_near per
; strong horse and pawn by its distance to the bare king.  Then the exact
; evaluation e (eng_eval_terms with T = $7FFF), + d when the strong side is
; to move, - d when not; then e shifted right (arithmetic: rounding down)
; by eng_bare's shift, and compared with T.
; Input: as eng_eval_ge (T in local+12..13, kept).  Output: as eng_eval_ge.
; Uses local+0..9 (eng_attacked), eng_bare, eg_king, eg_free and 5 bytes of
; stack (d, T, and eng_eval_terms' call with its ev_cannon).  Clobbers A,
; X, Y.
; Exactly KH vs KE or KH vs KAA (EG_BITBASE): then the bitbase's verdict (bb_probe):
; a draw makes e 0, a win adds EG_BITBASE_WIN for the horse side.
; Cycles: eng_eval_ge's exact evaluation + about 200 + eng_attacked per
;   free-square candidate (at most 4) + 50 per strong horse or pawn + 17
;   per bit of shift; + bb_probe's in KH vs KE (eng_eval: 1,534 / 2,032 /
;   2,375 min / median / max over emu_tests/test_rom_endgame.py's 300).
.proc eng_eval_endgame
  jsr eng_bare_calc
  bit eng_bare
  bvc red_or_none      ; V = EG_STRONG_BLACK
  jmp black_strong
red_or_none:
  lda eng_bare
  and #EG_BOTH
  beq red_strong
  lda #0               ; d = 0 when both sides are bare
  jmp exact
red_strong:
  FREE_SQUARES ::SIDE_BLACK
  ldx #0               ; X = the strong side's slots
  jmp drive
black_strong:
  FREE_SQUARES ::SIDE_RED
  ldx #16
drive:                 ; X = the strong side's first slot
  ldy eg_free
  lda eg_mobility,y
  sta drv
  ldy eg_king
  lda sq_file,y
  sta wf
  lda sq_rank,y
  sta wr
  ldy piece_sq+SLOT_KING,x
  lda sq_file,y
  cmp #4
  bne :+
  lda drv
  clc
  adc #EG_KING_CENTRE
  sta drv
: NEAR SLOT_HORSE
  NEAR SLOT_HORSE+1
  NEAR SLOT_PAWN
  NEAR SLOT_PAWN+1
  NEAR SLOT_PAWN+2
  NEAR SLOT_PAWN+3
  NEAR SLOT_PAWN+4
  lda drv
exact:
  pha                  ; d
  lda eval_t+1
  pha
  lda eval_t
  pha
  lda #$FF             ; T = $7FFF: the exact evaluation
  sta eval_t
  lda #$7F
  sta eval_t+1
  ldx eng_vset
  jsr eng_eval_terms
  pla
  sta eval_t
  pla
  sta eval_t+1
  pla
  sta drv
  lda eng_bare         ; the strong side (bit 6) to move?
  asl a
  asl a                ; C = EG_STRONG_BLACK
  lda #0
  rol a
  cmp eng_side
  bne subtract
  clc                  ; e += d
  lda acc
  adc drv
  sta acc
  bcc shift
  inc acc+1
  bcs shift            ; always (INC keeps C = 1)
subtract:              ; (d = 0 when both are bare)
  sec                  ; e -= d
  lda acc
  sbc drv
  sta acc
  bcs shift
  dec acc+1
shift:
  lda eng_bare
  and #EG_SHIFT_MASK
  beq bitbase
  tax
: lda acc+1            ; e >>= 1, rounding down
  cmp #$80
  ror acc+1
  ror acc
  dex
  bne :-
bitbase:
  lda eng_bare         ; exactly KH vs KE or KAA: the bitbase decides (eng_bitbase.s:
  and #EG_BITBASE      ;   e = 0 for a draw, e +- EG_BITBASE_WIN for a win)
  beq compare
  jsr bb_probe
compare:
  lda acc
  jmp eng_eval_compare ; e against T, as eng_eval_ge's other paths
.endproc
