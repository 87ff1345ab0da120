; eng_attack.s: is a king attacked?  (reference Position.in_check)
;
; One specialised copy per side: the enemy's code range and the pawn's
; direction are immediates.  A square's code c is an enemy piece when
; ENEMY <= c < ENEMY+16 (empty 0, off-board $FF and own codes all fail the
; range test), and its kind is piece_kind-$10,c.

.include "global.inc"
.include "eng.inc"

ksq = local+0          ; the king's square

;; Return from the routine with C = 1 when A (a square's code) is an
;; enemy piece of `kind`.  nz: A is known not to be empty (0).  Clobbers X.
;; Red's pieces are $10-$1F, Black's $20-$2F, off the board $FF: against
;; Black ($20-$2F) one compare rejects empty and own squares (7 cycles),
;; against Red ($10-$1F) one compare rejects own and off-board ones.
.macro IF_ENEMY_KIND enemy, kind, nz
  .local no
  .if enemy = ::RED_TAG
  .if !nz
  cmp #RED_TAG
  bcc no               ; empty
  .endif
  cmp #BLACK_TAG
  bcs no               ; own or off the board
  .else
  cmp #BLACK_TAG
  bcc no               ; empty or own
  cmp #BLACK_TAG + 16
  bcs no               ; off the board
  .endif
  tax
  lda piece_kind-CODE_BASE,x
  cmp #kind
  bne no
  rts                  ; equal: C = 1, in check
no:
.endmacro

;; One orthogonal line from the king: the first piece is a rook or the
;; king (the flying general), the second one a cannon.  first: Y is
;; already ksq.  edge: the line towards the own back rank, where the king
;; usually stands (its first square is then off the board: 12 cycles).
.macro LINE d, enemy, first, edge
  .local scan, scan2, screen, done, hit, not_enemy, enemy_piece
  .if !first
  ldy ksq
  .endif
  .if edge
  lda board+(d),y
  cmp #SQ_OFFBOARD
  beq done
  .endif
  SCAN_PREP d
scan:
  STEP_SCAN d
  lda board,y
  beq scan
  .if enemy = ::RED_TAG
  cmp #BLACK_TAG
  bcs not_enemy        ; own ($20-$2F) or off the board
  .else
  cmp #BLACK_TAG
  bcc screen           ; own ($10-$1F)
  cmp #BLACK_TAG + 16
  bcs done             ; off the board
  .endif
enemy_piece:
  tax
  lda piece_kind-CODE_BASE,x
  cmp #KIND_ROOK
  beq hit
  cmp #KIND_KING
  bne screen
hit:
  rts                  ; C = 1 from the cmp: in check
  .if enemy = ::RED_TAG
not_enemy:
  cmp #SQ_OFFBOARD
  beq done
  .endif
screen:
  SCAN_PREP d
scan2:
  STEP_SCAN d
  lda board,y
  beq scan2
  IF_ENEMY_KIND enemy, KIND_CANNON, 1
done:
.endmacro

;; The two horse squares whose leg is the diagonal square `leg` of the king.
.macro HORSE_PAIR leg, t1, t2, enemy
  .local skip
  lda board+(leg),y
  bne skip
  lda board+(t1),y
  IF_ENEMY_KIND enemy, KIND_HORSE, 0
  lda board+(t2),y
  IF_ENEMY_KIND enemy, KIND_HORSE, 0
skip:
.endmacro

;; The whole test for the king in slot `kslot`; returns C.
.macro IN_CHECK kslot, enemy, pawn_fwd, enemy_horses, enemy_pawns
  .local no_horses, no_pawns, have_king, horses
  ldy piece_sq+kslot
  bne have_king
  clc                  ; no king (only in test positions): not in check
  rts
have_king:
  sty ksq
  LINE ::UP, enemy, 1, enemy = ::RED_TAG
  LINE ::DOWN, enemy, 0, enemy = ::BLACK_TAG
  LINE ::LEFT, enemy, 0, 0
  LINE ::RIGHT, enemy, 0, 0
  ldy ksq
  lda counts+enemy_horses
  bne horses
  jmp no_horses
horses:
  HORSE_PAIR ::UP+::RIGHT, 2*::UP+::RIGHT, ::UP+2*::RIGHT, enemy
  HORSE_PAIR ::UP+::LEFT, 2*::UP+::LEFT, ::UP+2*::LEFT, enemy
  HORSE_PAIR ::DOWN+::RIGHT, 2*::DOWN+::RIGHT, ::DOWN+2*::RIGHT, enemy
  HORSE_PAIR ::DOWN+::LEFT, 2*::DOWN+::LEFT, ::DOWN+2*::LEFT, enemy
no_horses:
  lda counts+enemy_pawns
  beq no_pawns
  lda board+(pawn_fwd),y
  IF_ENEMY_KIND enemy, KIND_PAWN, 0
  lda board+::LEFT,y
  IF_ENEMY_KIND enemy, KIND_PAWN, 0
  lda board+::RIGHT,y
  IF_ENEMY_KIND enemy, KIND_PAWN, 0
no_pawns:
  clc
  rts
.endmacro

.segment "CODE"

;;
; Is the king of side A attacked (by a rook, horse, cannon or pawn, or by
; the enemy king on an open file)?
; Input: A = side (0 Red, 1 Black).
; Output: C = 1 in check, C = 0 not (also when the side has no king).
;   When A is the side to move, the answer is also kept in eng_chk (0/1),
;   which lets eng_is_legal skip the full test for most moves.
; Uses local+0.  Clobbers A, X, Y.
; Cycles: 309 on average in middlegames, 444 at most (bench/rom_bench.py).
.proc eng_in_check
  cmp eng_side
  bne @other
  tax
  bne @black_self
  jsr in_check_red
  bcs @yes
@no:
  lda #0
  sta eng_chk
  rts
@black_self:
  jsr in_check_black
  bcc @no
@yes:
  lda #1
  sta eng_chk
  rts
@other:
  cmp #SIDE_RED
  beq @red
  jmp in_check_black
@red:
  jmp in_check_red
.endproc

;;
; After eng_make: was the move legal, i.e. is the king of the side that
; moved safe afterwards?  Exactly !in_check(mover).  When the mover was
; known not to be in check before the move (undo_check = 0, see
; eng_in_check) and its king did not move, only what passes through `from`
; (vacated) or `to` (newly occupied) can have changed, so only these are
; tested: the king's line through `from` (rook, facing king, cannon), the
; two horse squares when `from` was a horse's leg (a diagonal neighbour of
; the king), and the king's line through `to` (a new cannon screen).
; Otherwise the full test (in_check_red / in_check_black) runs.
; Output: C = 0 legal, C = 1 illegal (that king is attacked).
; Uses local+0..1.  Clobbers A, X, Y.
; Cycles: about 50-140 with the check state known, the full test + 20
;   otherwise; 158 on average after a make of the middlegame lists, 498 at
;   most (bench/rom_bench.py).
.proc eng_is_legal
  ldx eng_ply
  lda eng_side
  bne @red_moved
  lda undo_check-1,x
  bne :+
  jmp black_moved_fast
: jmp in_check_black
@red_moved:
  lda undo_check-1,x
  bne :+
  jmp red_moved_fast
: jmp in_check_red
.endproc

fl_to = local+1        ; the move's `to`

;; The rays and horse pairs of one king, as subroutines returning C = 1
;; when that line / pair attacks it (ksq set by the caller).
.macro LINE_PROC d, enemy, edge
  LINE d, enemy, 0, edge
  clc
  rts
.endmacro

.macro HORSE_SQUARES t1, t2, enemy
  ldy ksq
  lda board+(t1),y
  IF_ENEMY_KIND enemy, KIND_HORSE, 0
  lda board+(t2),y
  IF_ENEMY_KIND enemy, KIND_HORSE, 0
  clc
  rts
.endmacro

;; A line through square Y from the king (X = ksq): runs that ray's test
;; and goes to `next` with its C; goes to `none` when Y is on neither line.
.macro LINE_THROUGH_Y lup, ldown, lleft, lright, next, none
  .local not_file, below, not_rank, left
  lda sq_file,y
  cmp sq_file,x
  bne not_file
  cpy ksq
  bcc below
  jsr lup
  jmp next
below:
  jsr ldown
  jmp next
not_file:
  lda sq_rank,y
  cmp sq_rank,x
  bne none
  cpy ksq
  bcc left
  jsr lright
  jmp next
left:
  jsr lleft
  jmp next
.endmacro

;; The fast legality test for the side whose king is in slot kslot.
.macro FAST_LEGAL kslot, full, lup, ldown, lleft, lright, hur, hul, hdr, hdl
  .local from_done, from_line, diag, to_test, legal, illegal, dl, dr, ul
  lda undo_to-1,x
  sta fl_to
  ldy undo_from-1,x
  ldx piece_sq+kslot   ; X = ksq until a test is called
  stx ksq
  cpx fl_to
  bne :+
  jmp full             ; the king moved
: lda sq_file,y
  cmp sq_file,x
  beq from_line
  lda sq_rank,y
  cmp sq_rank,x
  beq from_line
  tya
  sec
  sbc ksq              ; from - ksq, C = 1 when >= 0
  adc #<(-(::DOWN+::LEFT)) ; + 12 (+ 1 when >= 0): the four diagonal
  cmp #::UP+::RIGHT-::DOWN-::LEFT+2 ; neighbours give 25, 23, 2, 0, the
  bcs to_test          ; squares outside -12..12 give 26 and more
  cmp #::UP+::RIGHT-::DOWN-::LEFT+1
  bne ul
  jsr hur
  jmp from_done
ul:
  cmp #::UP+::LEFT-::DOWN-::LEFT+1
  bne dr
  jsr hul
  jmp from_done
dr:
  cmp #::DOWN+::RIGHT-::DOWN-::LEFT
  bne dl
  jsr hdr
  jmp from_done
dl:
  cmp #0
  bne to_test
  jsr hdl
  jmp from_done
from_line:
  LINE_THROUGH_Y lup, ldown, lleft, lright, from_done, to_test
from_done:
  bcs illegal
  ldx ksq
to_test:               ; X = ksq
  ldy fl_to
  LINE_THROUGH_Y lup, ldown, lleft, lright, illegal, legal
legal:
  clc
illegal:               ; C from the last test
  rts
.endmacro

.proc red_moved_fast
  FAST_LEGAL 0, in_check_red, red_up, red_down, red_left, red_right, red_hur, red_hul, red_hdr, red_hdl
.endproc
.proc black_moved_fast
  FAST_LEGAL 16, in_check_black, black_up, black_down, black_left, black_right, black_hur, black_hul, black_hdr, black_hdl
.endproc

; Red's king against Black's pieces
.proc red_up
  LINE_PROC ::UP, ::BLACK_TAG, 0
.endproc
.proc red_down
  LINE_PROC ::DOWN, ::BLACK_TAG, 1
.endproc
.proc red_left
  LINE_PROC ::LEFT, ::BLACK_TAG, 0
.endproc
.proc red_right
  LINE_PROC ::RIGHT, ::BLACK_TAG, 0
.endproc
.proc red_hur
  HORSE_SQUARES 2*::UP+::RIGHT, ::UP+2*::RIGHT, ::BLACK_TAG
.endproc
.proc red_hul
  HORSE_SQUARES 2*::UP+::LEFT, ::UP+2*::LEFT, ::BLACK_TAG
.endproc
.proc red_hdr
  HORSE_SQUARES 2*::DOWN+::RIGHT, ::DOWN+2*::RIGHT, ::BLACK_TAG
.endproc
.proc red_hdl
  HORSE_SQUARES 2*::DOWN+::LEFT, ::DOWN+2*::LEFT, ::BLACK_TAG
.endproc
; Black's king against Red's pieces
.proc black_up
  LINE_PROC ::UP, ::RED_TAG, 1
.endproc
.proc black_down
  LINE_PROC ::DOWN, ::RED_TAG, 0
.endproc
.proc black_left
  LINE_PROC ::LEFT, ::RED_TAG, 0
.endproc
.proc black_right
  LINE_PROC ::RIGHT, ::RED_TAG, 0
.endproc
.proc black_hur
  HORSE_SQUARES 2*::UP+::RIGHT, ::UP+2*::RIGHT, ::RED_TAG
.endproc
.proc black_hul
  HORSE_SQUARES 2*::UP+::LEFT, ::UP+2*::LEFT, ::RED_TAG
.endproc
.proc black_hdr
  HORSE_SQUARES 2*::DOWN+::RIGHT, ::DOWN+2*::RIGHT, ::RED_TAG
.endproc
.proc black_hdl
  HORSE_SQUARES 2*::DOWN+::LEFT, ::DOWN+2*::LEFT, ::RED_TAG
.endproc

.proc in_check_red
  IN_CHECK 0, ::BLACK_TAG, ::UP, 8 + KIND_HORSE, 8 + KIND_PAWN
.endproc

.proc in_check_black
  IN_CHECK 16, ::RED_TAG, ::DOWN, KIND_HORSE, KIND_PAWN
.endproc
