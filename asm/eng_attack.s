; eng_attack.s: is a king attacked?  (reference Position.in_check)
;
; One specialised copy per side: the enemy's code range and the pawn's
; direction are immediates.  A square's code c is an enemy piece when
; ENEMY <= c < ENEMY+16 (empty 0, off-board $FF and own codes all fail the
; range test), and its kind is code_kind-$10,c.

.include "global.inc"
.include "eng.inc"

ksq = local+0          ; the king's square

; king_rel (below) covers the squares within this offset of a king
KING_REL_REACH = 2 * UP + RIGHT

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
  lda code_kind-CODE_BASE,x
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
  lda code_kind-CODE_BASE,x
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

;; What `from` (Y; X = ksq) can change for the king on ksq: the king's line
;; through it (a rook, king or cannon line opened, or a cannon's screen
;; gone), or, as a diagonal neighbour of the king, a horse's leg freed.
;; Runs that line's or horse pair's test and goes to `hit` when it finds
;; the king attacked; otherwise ends with X = ksq, falling through or (when
;; `from` touches neither) jumping to `to_test`.  Shared by FAST_LEGAL and
;; GIVES_CHECK.
.macro FROM_TEST lup, ldown, lleft, lright, hur, hul, hdr, hdl, hit, to_test
  .local from_done, from_line, dl, dr, ul
  lda sq_file,y
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
  bcs hit
  ldx ksq
.endmacro

;; The fast legality test for the side whose king is in slot kslot.
;; ft: a second entry (a label of the .proc) with Y = from, fl_to = to.
.macro FAST_LEGAL kslot, full, lup, ldown, lleft, lright, hur, hul, hdr, hdl, ft
  .local to_test, legal, illegal
  lda undo_to-1,x
  sta fl_to
  ldy undo_from-1,x
ft:
  ldx piece_sq+kslot   ; X = ksq until a test is called
  stx ksq
  cpx fl_to
  bne :+
  jmp full             ; the king moved
:
  FROM_TEST lup, ldown, lleft, lright, hur, hul, hdr, hdl, illegal, to_test
to_test:               ; X = ksq
  ldy fl_to
  LINE_THROUGH_Y lup, ldown, lleft, lright, illegal, legal
legal:
  clc
illegal:               ; C from the last test
  rts
.endmacro

.proc red_moved_fast
  FAST_LEGAL 0, in_check_red, red_up, red_down, red_left, red_right, red_hur, red_hul, red_hdr, red_hdl, ft
.endproc
.proc black_moved_fast
  FAST_LEGAL 16, in_check_black, black_up, black_down, black_left, black_right, black_hur, black_hul, black_hdr, black_hdl, ft
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

; ---- does the move just made give check?  (eng_gives_check)

;; The fast "gives check" test for the king in slot kslot (the side now to
;; move), with X = eng_ply >= 2: see eng_gives_check.  Ends with eng_chk
;; and C set (1: in check).  ft: a second entry (a label of the .proc) with
;; Y = from and fl_to = to.
.macro GIVES_CHECK kslot, lup, ldown, lleft, lright, hur, hul, hdr, hdl, pawn_fwd, ft
  .local to_test, to_line, to_off, yes, no
  lda undo_to-1,x
  sta fl_to
  ldy undo_from-1,x    ; Y = from
ft:
  ldx piece_sq+kslot   ; X = ksq until a test is called
  bne :+
  jmp no               ; no king (test positions only): not in check
: stx ksq
  ; from: the king's line through it (a rook, king or cannon line opened,
  ; or a cannon's screen gone), or its diagonal neighbour (a horse's leg
  ; freed)
  FROM_TEST lup, ldown, lleft, lright, hur, hul, hdr, hdl, yes, to_test
to_test:               ; X = ksq
  ; to: the king's line through it (the mover as a rook, king or cannon,
  ; or as a new cannon screen), else the mover as a horse
  ldy fl_to
  LINE_THROUGH_Y lup, ldown, lleft, lright, to_line, to_off
to_line:
  bcs yes
  ; the mover as a pawn in front of the king or beside it
  ldy fl_to
  ldx board,y
  lda code_kind-CODE_BASE,x
  cmp #KIND_PAWN
  bne no
  tya
  sec
  sbc ksq
  cmp #<(pawn_fwd)
  beq yes
  cmp #<(::RIGHT)
  beq yes
  cmp #<(::LEFT)
  beq yes
  bne no               ; always
to_off:                ; Y = to, off the king's lines
  ldx board,y
  lda code_kind-CODE_BASE,x
  cmp #KIND_HORSE
  bne no
  tya                  ; a horse square of the king, its leg empty
  sec
  sbc ksq
  clc
  adc #KING_REL_REACH
  cmp #2*KING_REL_REACH+1
  bcs no
  tax
  lda king_rel,x
  cmp #2
  bcc no               ; 0: not near, 1: a diagonal neighbour
  adc ksq              ; C = 1: + the leg offset - 1 ...
  tax
  lda board-1,x        ; ... so the leg is board-1,x
  bne no
yes:
  lda #1
  sta eng_chk
  sec
  rts
no:
  lda #0
  sta eng_chk
  clc
  rts
.endmacro

;;
; After eng_make inside a search: is the side now to move (eng_side) in
; check?  The same answer as eng_in_check with A = eng_side, and the same
; state: C = 1 in check, and eng_chk = 0/1.
; Precondition (eng_ply >= 2): the side now to move was not in check
;   before the move.  This holds for every move made below a search's root:
;   each position there was reached by a legal move (so the side that made
;   it is not in check), or by a null move, which is only made when the
;   side to move is not in check.  It need not hold at the root (eng_load
;   accepts a position whose side not to move is in check; parse_fen
;   rejects it), so a root move (eng_ply = 1) runs the full test.
; Since only `from` (now empty) and `to` (now the mover) changed, and the
; full test found no attack before the move, only the parts of the test
; that read one of them can have changed, and only those run (docs/
; ENGINE_ROM.md, "The gives-check test"): the king's line through `from`,
; the king's line through `to` (each the whole ray: rook or king first,
; cannon second), the horse pair whose leg is `from`, the mover itself as
; a horse (`to` a horse square, its leg empty) or as a pawn (`to` in front
; of the king or beside it).
; Uses local+0..1.  Clobbers A, X, Y.
; Cycles: 149 on average after a make in the middlegames, 362 at most
;   (bench/rom_bench.py; about 120 when `from` and `to` are off the king's
;   lines, a ray test adds 30-200), against 308 for the full test.
.proc eng_gives_check
  ldx eng_ply
  cpx #2
  bcs fast
  lda eng_side         ; a root move: the full test
  jmp eng_in_check
fast:
  lda eng_side
  beq red
  jmp black_gives_check
red:
  GIVES_CHECK 0, red_up, red_down, red_left, red_right, red_hur, red_hul, red_hdr, red_hdl, ::UP, red_ft
.endproc

.proc black_gives_check
  GIVES_CHECK 16, black_up, black_down, black_left, black_right, black_hur, black_hul, black_hdr, black_hdl, ::DOWN, ft
.endproc

; ---- can a quiet move be counted without making it?  (eng_quiet_safe)

qs_from = local+2      ; (local+0..1: ksq and fl_to of the tests it calls)
qs_to   = local+3
qs_ff   = local+4      ; from's file, rank
qs_fr   = local+5
qs_tf   = local+6      ; to's file, rank
qs_tr   = local+7
qs_ek   = local+8      ; the enemy king's square
qs_ok   = local+9      ; the mover's king's square
qs_chk  = local+10     ; eng_chk, kept

;;
; Before a quiet move is made: is it legal and not a check?  For ab_node's
; futility pruning, which counts such a move as a legal move and skips it:
; deciding it here saves the make, the two tests and the unmake.
; Input: Y = the move-stack index of a quiet move (`to` empty) of the side
;   to move; neither side in check (true at a node below the root that is
;   not in check: see eng_gives_check).
; Output: C = 0: the move is legal and gives no check; C = 1: it is a king
;   move, illegal, or a check (make it and test).  Exact: C = 0 exactly when
;   the mover is not the king, the move is legal and it gives no check.
;   The position (and eng_chk) is as before.
; Most moves touch neither king: `from` and `to` off the mover's king's
; lines and `from` not its diagonal neighbour (then it is legal, as in
; eng_is_legal's fast path, and not a king move), and the same for the enemy
; king, whose horse squares the mover (if a horse) does not reach with the
; leg empty (then it gives no check, as in eng_gives_check; `from` is not
; that leg, so the leg reads the same before the move as after it; a pawn's
; checking squares are on the king's lines).  Otherwise the piece is moved
; on the board alone (piece lists, score, key untouched: the tests read only
; the board, code_kind and the kings' squares) and the tests of
; eng_is_legal's and eng_gives_check's fast paths run from their `ft`
; entries; then the board is put back.
; Uses local+0..10.  Clobbers A, X, Y.
; Cycles: 221 on average when the move touches neither king, 488 when it
;   does, 865 at most (middlegames, bench/rom_bench.py), against about 790
;   for eng_make + eng_is_legal + eng_gives_check + eng_unmake.
.proc eng_quiet_safe
  lda ms_to,y
  sta qs_to
  tax
  lda sq_file,x
  sta qs_tf
  lda sq_rank,x
  sta qs_tr
  ldx ms_from,y
  stx qs_from
  lda sq_file,x
  sta qs_ff
  lda sq_rank,x
  sta qs_fr
  lda eng_side
  bne black
  ldy piece_sq+16      ; the enemy king
  ldx piece_sq+0       ; the mover's king
  jmp kings
black:
  ldy piece_sq+0
  ldx piece_sq+16
kings:
  sty qs_ek
  stx qs_ok
  jsr near_king
  bcs exact
  ldx qs_ek
  jsr near_king
  bcs exact
  ldx qs_from          ; the mover as a horse giving check from `to`
  ldy board,x
  lda code_kind-CODE_BASE,y
  cmp #KIND_HORSE
  bne safe
  lda qs_to
  sec
  sbc qs_ek
  clc
  adc #KING_REL_REACH
  cmp #2*KING_REL_REACH+1
  bcs safe
  tax
  lda king_rel,x
  cmp #2
  bcc safe             ; 0: not near, 1: a diagonal neighbour
  adc qs_ek            ; C = 1: the leg + 1
  tax
  lda board-1,x
  bne safe             ; the leg is blocked
  sec                  ; a check
  rts
safe:
  clc
  rts
exact:                 ; a king's line or diagonal neighbour: test the move
  ldx qs_from
  cpx qs_ok
  beq done             ; a king move (C = 1): make it
  lda board,x          ; the mover to `to`, on the board only
  ldy qs_to
  sty fl_to
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  lda eng_chk
  sta qs_chk
  ldy qs_from
  lda eng_side
  bne black_moves
  jsr red_moved_fast::ft
  bcs put_back         ; illegal
  ldy qs_from
  jsr black_gives_check::ft
  jmp put_back
black_moves:
  jsr black_moved_fast::ft
  bcs put_back         ; illegal
  ldy qs_from
  jsr eng_gives_check::red_ft
put_back:              ; C = the answer
  lda qs_chk
  sta eng_chk
  ldx qs_to
  lda board,x
  ldy qs_from
  sta board,y
  lda #SQ_EMPTY
  sta board,x
done:
  rts
.endproc

;;
; For eng_quiet_safe: C = 1 when the king on square X (0: none) has `from`
; or `to` (qs_ff/qs_fr, qs_tf/qs_tr) on its file or rank, or `from` as a
; diagonal neighbour.  Clobbers A, X.  32-48 cycles.
.proc near_king
  lda sq_file,x
  cmp qs_ff
  beq yes
  cmp qs_tf
  beq yes
  lda sq_rank,x
  cmp qs_fr
  beq yes
  cmp qs_tr
  beq yes
  txa                  ; from - king
  eor #$FF
  sec
  adc qs_from
  clc
  adc #KING_REL_REACH
  cmp #2*KING_REL_REACH+1
  bcs far
  tax
  lda king_rel,x
  lsr a                ; C = bit 0: a diagonal neighbour
  rts
far:
  clc
yes:                   ; C = 1 from the equal compare
  rts
.endproc

.segment "RODATA"
; king_rel[d + KING_REL_REACH] for d = square - king square, |d| <= 23:
; 1 for the four diagonal neighbours, the leg offset (even) for the eight
; squares a horse attacks the king from, else 0.
king_rel:
  .byte $F4, $00, $F6, $00, $00, $00, $00, $00, $00, $00, $F4, $01   ; -23..-12
  .byte $00, $01, $F6, $00, $00, $00, $00, $00, $00, $00, $00, $00   ; -11..0
  .byte $00, $00, $00, $00, $00, $00, $00, $00, $0A, $01, $00, $01   ; 1..12
  .byte $0C, $00, $00, $00, $00, $00, $00, $00, $0A, $00, $0C        ; 13..23
.assert * - king_rel = 2 * KING_REL_REACH + 1, error, "king_rel covers -23..23"
.segment "CODE"

.proc in_check_red
  IN_CHECK 0, ::BLACK_TAG, ::UP, 8 + KIND_HORSE, 8 + KIND_PAWN
.endproc

.proc in_check_black
  IN_CHECK 16, ::RED_TAG, ::DOWN, KIND_HORSE, KIND_PAWN
.endproc

; ---- could a side move to a square?  (eng_attacked)

asq   = local+0        ; the square
afl   = local+1        ; its sq_flags, the attacker's half and palace bits
                       ; moved to FLAG_RED_HALF / FLAG_RED_PALACE
asq24 = local+2        ; the square - STEP_REL_REACH (mod 256)
afile = local+3        ; the square's file and rank
arank = local+4
atag  = local+5        ; the attacker's RED_TAG / BLACK_TAG
acnt  = local+6        ; rooks and cannons: slots left - 1
ap    = local+7        ;   the piece's square
astep = local+8        ;   the step from the square towards it
abud  = local+9        ;   pieces it may pass: 0 a rook, 1 a cannon (- passed)

.assert FLAG_BLACK_HALF = 2 * FLAG_RED_HALF, error, "afl: lsr moves Black's half bit to Red's"
.assert FLAG_BLACK_PALACE = 2 * FLAG_RED_PALACE, error, "afl: lsr moves Black's palace bit to Red's"
.assert SLOT_PAWN + SLOTS_PAWN = 16, error, "pawns take the last slots"
.assert SLOTS_ROOK = 2 && SLOTS_CANNON = 2 && SLOT_CANNON = SLOT_ROOK + 2, error, "rooks, then cannons"

;; To `hit` when A, a square's code xor atag, is one of the attacker's
;; pawns (slots SLOT_PAWN..15; any other code gives 16 or more).
.macro PAWN_HIT hit
  .local no
  cmp #SLOT_PAWN
  bcc no
  cmp #16
  bcc hit
no:
.endmacro

;; The piece of slot `slot` + X: A = step_rel[piece - asq + STEP_REL_REACH];
;; goes to `skip` when the slot is empty or the piece is out of reach.
;; Clobbers Y.  21 cycles.
.macro STEP_SLOT slot, skip
  lda piece_sq+slot,x
  beq skip
  sec
  sbc asq24
  cmp #2 * STEP_REL_REACH + 1
  bcs skip
  tay
  lda step_rel,y
.endmacro

;; The horse of slot + X: to `hit` when it stands on a horse square of asq
;; with its leg (the square's diagonal neighbour towards it) empty.
.macro HORSE_SLOT slot, hit
  .local skip
  STEP_SLOT slot, skip
  cmp #STEP_HORSE_MIN
  bcc skip             ; not a horse square
  adc asq              ; C = 1: the leg + 1
  tay
  lda board-1,y
  beq hit              ; the leg is empty
skip:
.endmacro

;; The elephant of slot + X: to `hit` when it stands two diagonal steps from
;; asq with the eye between them empty (the caller checks the half).
.macro ELEPHANT_SLOT slot, hit
  .local skip
  STEP_SLOT slot, skip
  cmp #STEP_ELEPHANT
  bne skip
  lda piece_sq+slot,x  ; C = 1: (piece + asq + 1) / 2 = the eye, the
  adc asq              ; sum being even; ror takes the 9th bit
  ror a
  tay
  lda board,y
  beq hit              ; the eye is empty
skip:
.endmacro

;; The advisor or king of slot + X: to `hit` when it stands `marker` from
;; asq (the caller checks the palace).
.macro PALACE_SLOT slot, marker, hit
  .local skip
  STEP_SLOT slot, skip
  cmp #marker
  beq hit
skip:
.endmacro

;;
; Could a piece of side A move to square Y by its movement rule?  Exactly
; the reference's Position.attacked(Y, A): some pseudo-legal move of that
; side (eng_gen's rules: pins and the facing kings ignored) would end on
; Y, were Y to hold a piece of the other side; what Y holds is not read
; (q_node asks about its victim's square, with the capturer's `from`
; emptied).  The pawns are read on the board (one behind the square, and
; beside it when the square is across the river from them); the other
; pieces come from the attacker's piece list, the kind given by the slot:
; a horse with its leg empty; when the square is on the attacker's half,
; an elephant with its eye empty; when it is in the attacker's palace, an
; advisor or the king one step away (step_rel says which step a piece's
; offset is); a rook or cannon on the square's file or rank with no piece,
; or one, between them (scanned from the square).
; Input: A = the attacking side (0 Red, 1 Black), Y = a square on the board.
; Output: C = 1 attacked, C = 0 not.
; Uses local+0..9.  Clobbers A, X, Y.
; Cycles: 74-701, median 254 over every square of the test positions; 286
;   median, 584 at most on q_node's questions (the targets of captures in
;   middlegames, emu_tests/test_romengine_attacked.py); 280 on average in a
;   Master search (bench.rom_profile; docs/ENGINE_ROM.md, "The attack test").
.proc eng_attacked
  sty asq
  tax                  ; X = side
  tya
  sec
  sbc #STEP_REL_REACH
  sta asq24
  lda sq_file,y
  sta afile
  lda sq_rank,y
  sta arank
  lda sq_flags,y
  cpx #SIDE_RED
  bne black
  and #FLAG_RED_HALF | FLAG_RED_PALACE
  sta afl
  lda #RED_TAG
  sta atag
  ldx #0               ; X = Red's first slot
  lda board+::DOWN,y   ; a red pawn steps up onto the square
  eor #RED_TAG
  jmp pawns
phit:
  sec
  rts
black:
  and #FLAG_BLACK_HALF | FLAG_BLACK_PALACE
  lsr a
  sta afl
  lda #BLACK_TAG
  sta atag
  ldx #16              ; X = Black's first slot
  lda board+::UP,y     ; a black pawn steps down onto the square
  eor #BLACK_TAG
pawns:
  PAWN_HIT phit
  lda afl
  and #FLAG_RED_HALF
  bne steps            ; on the attacker's half: no pawn steps sideways onto it
  lda board+::LEFT,y
  eor atag
  PAWN_HIT phit
  lda board+::RIGHT,y
  eor atag
  PAWN_HIT phit
steps:
  HORSE_SLOT SLOT_HORSE, hit
  HORSE_SLOT SLOT_HORSE + 1, hit
  lda afl
  and #FLAG_RED_HALF
  bne half
  jmp lines
hit:
  sec
  rts
half:
  ELEPHANT_SLOT SLOT_ELEPHANT, hit
  ELEPHANT_SLOT SLOT_ELEPHANT + 1, hit
  lda afl
  and #FLAG_RED_PALACE
  beq lines
  PALACE_SLOT SLOT_ADVISOR, STEP_ADVISOR, hit2
  PALACE_SLOT SLOT_ADVISOR + 1, STEP_ADVISOR, hit2
  PALACE_SLOT SLOT_KING, STEP_KING, hit2
lines:                 ; the cannons, then the rooks
  lda #SLOTS_ROOK + SLOTS_CANNON - 1
  sta acnt
  txa
  clc
  adc #SLOT_CANNON + SLOTS_CANNON - 1
  tax
next_line:
  ldy piece_sq,x
  beq no_line          ; captured
  lda sq_file,y
  cmp afile
  bne rank
  cpy asq
  beq no_line          ; the square's own piece
  lda #::UP
  bne scan_prep        ; always
rank:
  lda sq_rank,y
  cmp arank
  bne no_line
  lda #::RIGHT
scan_prep:             ; A = the step towards a piece above or to the right
  sty ap
  cpy asq
  bcs :+
  eor #$FF             ; C = 0: -A, towards one below or to the left
  adc #1
: sta astep
  lda acnt
  lsr a                ; a cannon (acnt 3, 2) may pass one piece, a rook none
  sta abud
  ldy asq
scan:
  tya
  clc
  adc astep
  tay
  lda board,y
  beq scan
  cpy ap
  beq reached
  dec abud
  bpl scan             ; a cannon's screen
  bmi no_line          ; always: blocked
reached:
  lda abud
  beq hit2             ; no piece left to pass
no_line:
  dex
  dec acnt
  bpl next_line
  clc
  rts
hit2:
  sec
  rts
.endproc
