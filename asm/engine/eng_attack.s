; eng_attack.s: is a king attacked?  (reference Position.in_check)
;
; One specialised copy per side: the enemy's code range and the pawn's
; direction are immediates.  A square's code c is an enemy piece when
; ENEMY <= c < ENEMY+16 (empty 0, off-board $FF and own codes all fail the
; range test), and its kind is code_kind-$10,c.  A square's relation to a
; king (on its file or rank, a diagonal neighbour, a horse square) is one
; read of rel_mid[square - king square] (the rel codes, below).

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
  lda code_kind-CODE_BASE,x
  cmp #kind
  bne no
  rts                  ; equal: C = 1, in check
no:
.endmacro

;; One orthogonal line from the king on ksq: the first piece is a rook or
;; the king (the flying general), the second one a cannon.  edge: the line
;; towards the own back rank, where the king usually stands (its first
;; square is then off the board: 12 cycles).
.macro LINE d, enemy, edge
  .local scan, scan2, screen, done, hit, not_enemy, enemy_piece
  ldy ksq
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

;; IN_CHECK: the enemy's rook, cannon or king of slot `slot`, when on the
;; king's file or rank, by that ray's test (`ray`): to `yes` when it hits.
.macro IC_LINE_SLOT slot, ray, yes
  .local skip
  ldy piece_sq+slot
  beq skip             ; captured
  lda (relp),y
  bpl skip             ; off the king's file and rank
  jsr ray
  bcs yes
skip:
.endmacro

;; IN_CHECK: the enemy's horse of slot `slot`: to `yes` when it stands on a
;; horse square of the king (rel code) with the leg empty.
.macro IC_HORSE_SLOT slot, yes
  .local skip
  ldy piece_sq+slot
  beq skip             ; captured
  lda (relp),y
  beq skip
  cmp #REL_DIAG
  bcs skip             ; not a horse square
  adc ksq              ; (C = 0) REL_LEG + the leg
  tax
  lda board-REL_LEG,x
  beq yes              ; the leg is empty
skip:
.endmacro

;; The whole test for the king in slot `kslot` (the enemy's first slot
;; eslot); returns C.  The enemy's rooks, cannons and king from its piece
;; list: one on the king's file or rank (rel code) runs that ray's test
;; (`ray`, shared with the fast tests); its horses: on a horse square of
;; the king (rel code) with the leg empty; its pawns on the board.
.macro IN_CHECK kslot, eslot, enemy, pawn_fwd, enemy_pawns, ray
  .local have_king, no_pawns, yes
  lda piece_sq+kslot
  bne have_king
  clc                  ; no king (only in test positions): not in check
  rts
yes:
  sec
  rts
have_king:
  sta ksq
  REL_PTR relp
  IC_LINE_SLOT eslot+SLOT_ROOK, ray, yes
  IC_LINE_SLOT eslot+SLOT_ROOK+1, ray, yes
  IC_LINE_SLOT eslot+SLOT_CANNON, ray, yes
  IC_LINE_SLOT eslot+SLOT_CANNON+1, ray, yes
  IC_LINE_SLOT eslot+SLOT_KING, ray, yes     ; (on a file)
  IC_HORSE_SLOT eslot+SLOT_HORSE, yes
  IC_HORSE_SLOT eslot+SLOT_HORSE+1, yes
  ldy ksq
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
; Uses local+0..3 (the full test: the enemy's piece list through the rel
;   codes, see IN_CHECK).  Clobbers A, X, Y.
; Cycles: 273 on average in middlegames, 491 at most (both sides of the 40
;   middlegames, bench/rom_bench.py).
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

; ---- the short tests around a move: eng_is_legal, eng_gives_check (after
; it is made) and eng_quiet_safe (before)
;
; They look at a square's relation to a king through rel_mid[square - ksq]
; (the table at the end of this section), read as lda (relp),y with Y = the
; square and relp = rel_mid - ksq (REL_PTR): 5-6 cycles per square.

fl_to = local+1        ; the move's `to` (eng_make's mk_to: eng_legal_check)
relp  = local+2        ; 2 bytes: rel_mid - ksq, the mover's king (eng_is_legal)
relg  = local+4        ; 2 bytes: the same for the king of the side to move
                       ; (eng_gives_check; eng_quiet_safe sets both)
fcode = local+6        ; `from`'s rel code
tcode = local+7        ; `to`'s rel code (eng_gives_check)

; rel codes: what d = square - king square is for a king in its palace.
; A ray code (REL_RAY + ray, + REL_ADJ for the adjacent square) for the
; king's file and rank: the palace keeps the king on files 3-5, so every
; square of its rank is within 5 of it, and every other square of the board
; further (the board's rows are BOARD_WIDTH = 11 apart, 9 files + 2 off the
; board); the file is d = a multiple of 11.
REL_RAY   = $80
REL_ADJ   = $08
RAY_UP    = 0          ; bit 0: a rank; bit 1: towards the lower squares
RAY_RIGHT = 1
RAY_DOWN  = 2
RAY_LEFT  = 3
REL_DIAG  = $40        ; + DIAG_x: a diagonal neighbour (a horse's leg)
DIAG_UR   = 0
DIAG_UL   = 1
DIAG_DR   = 2
DIAG_DL   = 3
REL_SELF  = $C0        ; d = 0: the king's own square
REL_LEG   = 13         ; a horse square: REL_LEG + the d of its leg (1, 3, 23, 25)
; |d| <= REL_REACH between a palace square and a square on the board
REL_REACH = LAST_SQ - (FIRST_SQ + 3)
.assert BOARD_WIDTH = 11 && UP = 11 && RIGHT = 1, error, "rel codes: the padded board's geometry"
.assert 9 * UP + 5 <= REL_REACH, error, "rel: Black's highest palace square to the board's first square is in reach"

;; Points p (2 zero-page bytes) at rel_mid - A, A = a king's square: then
;; lda (p),y is rel_mid[Y - A].  16 cycles.  Clobbers A.
.macro REL_PTR p
  eor #$FF
  sec
  adc #<rel_mid        ; <rel_mid - A; C = 0: a borrow
  sta p
  lda #>rel_mid
  adc #$FF
  sta p+1
.endmacro

;; A = a ray code: a jmp to the test of that ray of the king on ksq (the
;; ray procs below; the first tested is `first`, the one towards the enemy,
;; the most frequent).  As a subroutine (red_ray / black_ray): C = 1 when
;; that ray attacks the king.
.macro RAY_TEST up, right, down, left, first
  .local not_first, is_right, is_left
  and #3
  .if first = ::RAY_UP
  bne not_first
  jmp up
not_first:
  cmp #::RAY_DOWN
  bcc is_right
  bne is_left
  jmp down
  .else
  cmp #::RAY_DOWN
  bne not_first
  jmp down
not_first:
  bcs is_left          ; 3
  lsr a
  bcs is_right         ; 1
  jmp up
  .endif
is_right:
  jmp right
is_left:
  jmp left
.endmacro

;; A = a diagonal code: a jmp to the test of the horse pair whose leg that
;; square is (red_hpair / black_hpair: C = 1 when it attacks the king).
.macro HPAIR_TEST hur, hul, hdr, hdl
  .local n0, is_ul, is_dr
  and #3
  bne n0
  jmp hur
n0:
  cmp #::DIAG_DR
  bcc is_ul
  beq is_dr
  jmp hdl
is_ul:
  jmp hul
is_dr:
  jmp hdr
.endmacro

;;
; After eng_make: was the move legal, i.e. is the king of the side that
; moved safe afterwards?  Exactly !in_check(mover).  When the mover was
; known not to be in check before the move (undo_check = 0, see
; eng_in_check) and its king did not move, only what passes through `from`
; (vacated) or `to` (newly occupied) can have changed, so only these are
; tested: the king's ray through `from` (rook, facing king, cannon), the
; two horse squares when `from` was a horse's leg (a diagonal neighbour of
; the king), and the king's ray through `to` (a new cannon screen) unless
; it is the one through `from`.  Otherwise the full test (in_check_red /
; in_check_black) runs.
; Output: C = 0 legal, C = 1 illegal (that king is attacked).
; Uses local+0..7.  Clobbers A, X, Y.
; Cycles (with the jsr): 88 when `from` and `to` are off the king's rays
;   and `from` is not its diagonal neighbour, a ray or horse pair adds
;   40-200, the full test + 20 otherwise (in check before, or a king move);
;   154 on average in a Master search (bench.rom_profile, positions 2-3),
;   130 after a make of the middlegame lists, 501 at most (bench/rom_bench.py).
.proc eng_is_legal
  ldx eng_ply
  lda undo_check-1,x
  bne full
  lda eng_side
  beq black_moved_fast ; Red to move: Black moved
  jmp red_moved_fast
full:
  lda eng_side
  beq :+
  jmp in_check_red
: jmp in_check_black
.endproc

;; The fast legality test for the side whose king is in slot kslot, X =
;; eng_ply.  core: a second entry (a label of the .proc) with ksq, relp and
;; fl_to set and Y = from (eng_quiet_safe).  Without `then` it returns C =
;; 0 legal, C = 1 illegal; with `then` (eng_legal_check's first half: the
;; move's from and to are read from local+0 / local+1, where eng_make left
;; them, rather than from undo_from / undo_to) an
;; illegal move returns A = $FF and a legal one goes on to the other king's
;; gives-check test at `then` (a GIVES_CHECK from_to entry) with fl_to kept
;; and X = eng_ply, which returns A = eng_chk.  The same tests in the same
;; order either way.
.macro FAST_LEGAL kslot, full, ray, hpair, core, then
  .local from_ray, from_diag, to_test, legal, illegal, moved
  .ifblank then
  lda undo_to-1,x
  sta fl_to
  ldy undo_from-1,x    ; Y = from
  .else
  ldy local+0          ; Y = from (eng_make's mk_from; its mk_to is fl_to)
  .endif
  lda piece_sq+kslot
  beq legal            ; no king (test positions only): never attacked
  sta ksq
  REL_PTR relp
core:
  lda (relp),y         ; from
  bmi from_ray
  cmp #REL_DIAG
  bcs from_diag
to_test:
  ldy fl_to
  lda (relp),y         ; to
  bpl legal
.ifblank then
  jmp ray              ; the ray through `to`: a new cannon screen
legal:
  clc
  rts
from_diag:             ; a horse's leg freed: its two horse squares
  jsr hpair
  bcc to_test
  rts
.else
  jsr ray              ; the ray through `to`: a new cannon screen
  bcs illegal
legal:
  ldx eng_ply
  jmp then
from_diag:             ; a horse's leg freed: its two horse squares
  jsr hpair
  bcc to_test
illegal:
  lda #$FF
  rts
.endif
from_ray:              ; (a king move: `from` is next to the king's square)
  sta fcode
  ldy fl_to
  lda (relp),y         ; to
  cmp #REL_SELF
  beq moved            ; the king moved: the full test
  sta tcode
  lda fcode            ; the ray through `from`: a line opened, a screen gone
  jsr ray
  bcs illegal
  lda tcode
  bpl legal
  eor fcode
  and #REL_RAY | 3
  beq legal            ; the ray through `from`: tested
  lda tcode
.ifblank then
  jmp ray
moved:
  jmp full
illegal:
  rts
.else
  jsr ray
  bcc legal
  bcs illegal          ; always
moved:
  jsr full
  bcc legal
  bcs illegal          ; always
.endif
.endmacro

.proc black_moved_fast
  FAST_LEGAL 16, in_check_black, black_ray, black_hpair, core
.endproc
.proc red_moved_fast
  FAST_LEGAL 0, in_check_red, red_ray, red_hpair, core
.endproc

;; The rays and horse pairs of one king, as subroutines returning C = 1
;; when that line / pair attacks it (ksq set by the caller).
.macro LINE_PROC d, enemy, edge
  LINE d, enemy, edge
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

; A = a ray code / a diagonal code: that ray's / horse pair's test
.proc red_ray
  RAY_TEST red_up, red_right, red_down, red_left, ::RAY_UP
.endproc
.proc red_hpair
  HPAIR_TEST red_hur, red_hul, red_hdr, red_hdl
.endproc
.proc black_ray
  RAY_TEST black_up, black_right, black_down, black_left, ::RAY_DOWN
.endproc
.proc black_hpair
  HPAIR_TEST black_hur, black_hul, black_hdr, black_hdl
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
;; and C set (1: in check).  back_adj: the rel code of the square behind
;; the king (no pawn attacks it from there).  core: a second entry (a label
;; of the .proc) with ksq, relg and fl_to set and Y = from; from_to: a
;; third one with fl_to set and X = eng_ply (eng_legal_check).  Every exit
;; leaves A = eng_chk.
.macro GIVES_CHECK kslot, ray, hpair, back_adj, core, from_to
  .local from_ray, from_diag, to_test, to_ray, to_ray2, to_off, to_near, to_pawn, yes, no
  lda undo_to-1,x
  sta fl_to
from_to:               ; (eng_legal_check: fl_to set, X = eng_ply)
  ldy undo_from-1,x    ; Y = from
  lda piece_sq+kslot
  beq no               ; no king (test positions only): not in check
  sta ksq
  REL_PTR relg
core:
  lda (relg),y         ; from
  bmi from_ray
  cmp #REL_DIAG
  bcs from_diag
to_test:
  ldy fl_to
  lda (relg),y         ; to
  bmi to_ray
  bne to_near
no:
  lda #0
  sta eng_chk
  clc
  rts
from_diag:             ; a horse's leg freed: its two horse squares
  jsr hpair
  bcc to_test
  bcs yes              ; always
from_ray:              ; the ray through `from`: a line opened, a screen gone
  sta fcode
  jsr ray
  bcs yes
  ldy fl_to
  lda (relg),y         ; to
  bpl to_off
  sta tcode
  eor fcode
  and #REL_RAY | 3
  beq to_pawn          ; the ray through `from`: tested
  lda tcode
  bne to_ray2          ; always
to_off:
  bne to_near
  beq no               ; always
to_ray:                ; the ray through `to`: the mover as a rook, king or
  sta tcode            ; cannon, or a new cannon screen
to_ray2:
  jsr ray
  bcs yes
to_pawn:               ; the mover as a pawn in front of the king or beside it
  lda tcode
  and #REL_ADJ
  beq no
  lda tcode
  cmp #back_adj
  beq no
  ldy fl_to
  ldx board,y
  lda code_kind-CODE_BASE,x
  cmp #KIND_PAWN
  beq yes
  bne no               ; always
to_near:               ; a diagonal neighbour, or a horse square:
  cmp #REL_DIAG
  bcs no
  adc ksq              ; (C = 0) REL_LEG + the leg
  tax
  lda board-REL_LEG,x
  bne no               ; the leg is blocked
  ldx board,y
  lda code_kind-CODE_BASE,x
  cmp #KIND_HORSE
  bne no               ; the mover is not a horse
yes:
  lda #1
  sta eng_chk
  sec
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
; ROM_ENGINE.md, "The gives-check test"): the king's ray through `from`,
; the king's ray through `to` (each the whole ray: rook or king first,
; cannon second; once when they are the same ray), the horse pair whose leg
; is `from`, the mover itself as a horse (`to` a horse square, its leg
; empty) or as a pawn (`to` in front of the king or beside it).
; Uses local+0..7.  Clobbers A, X, Y.
; Cycles (with the jsr): 92 when `from` and `to` are off the king's rays,
;   `from` is not its diagonal neighbour and `to` not a horse square, a ray
;   test adds 40-200; 133 on average in a Master search (bench.rom_profile,
;   positions 2-3), 112 after a make in the middlegames, 236 at most
;   (bench/rom_bench.py), against 273 for the full test.
.proc eng_gives_check
  ldx eng_ply
  cpx #2
  bcs fast
  lda eng_side         ; a root move: the full test
  jmp eng_in_check
fast:
  lda eng_side
  beq red_gives_check
  jmp black_gives_check
.endproc

.proc red_gives_check
  GIVES_CHECK 0, red_ray, red_hpair, ::REL_RAY + ::REL_ADJ + ::RAY_DOWN, core, from_to
.endproc

.proc black_gives_check
  GIVES_CHECK 16, black_ray, black_hpair, ::REL_RAY + ::REL_ADJ + ::RAY_UP, core, from_to
.endproc

; ---- both tests after a make in a search  (eng_legal_check)


;;
; After eng_make inside a search: eng_is_legal and, for a legal move,
; eng_gives_check, in one call (the search asks both after every make).
; Its only entry is the tail call of eng_make_check / eng_make_q_check: the
; fast path reads the move from local+0 / local+1 (mk_from / mk_to, which
; eng_make leaves there; fl_to = local+1).
; Output: A = $FF (N = 1) when the move is illegal (eng_chk not written:
;   it still holds the state of the position before the move, which the
;   unmake restores); else A = eng_chk = 1 when the side now to move is in
;   check, 0 when not (N = 0, Z = 1: no check), as eng_gives_check keeps it.
; The fast path (eng_ply >= 2 and the mover known not in check before the
; move: eng_is_legal's and eng_gives_check's fast tests) runs the mover's
; FAST_LEGAL test with a tail that goes straight on to the other king's
; GIVES_CHECK test, sharing the move's `to` (fl_to) and eng_ply; otherwise
; the two routines run as they are.
; Uses local+0..7.  Clobbers X, Y.
; Cycles: 249 a call on average (with the jsr, when the search called it
;   after eng_make; now eng_make_check's tail call saves the jsr/rts) in
;   bench.rom_profile --level Master --positions 4, where eng_is_legal and
;   eng_gives_check one after the other took 266 a make.
.proc eng_legal_check
  ldx eng_ply
  cpx #2
  bcc slow             ; a root move: the full gives-check test
  lda undo_check-1,x
  bne slow             ; the mover in check before, or not known
  lda eng_side
  beq black_moved_check ; Red to move: Black moved
  jmp red_moved_check
slow:
  jsr eng_is_legal
  bcs illegal
  jsr eng_gives_check
  lda eng_chk
  rts
illegal:
  lda #$FF
  rts
.endproc

.proc black_moved_check
  FAST_LEGAL 16, in_check_black, black_ray, black_hpair, core, red_gives_check::from_to
.endproc
.proc red_moved_check
  FAST_LEGAL 0, in_check_red, red_ray, red_hpair, core, black_gives_check::from_to
.endproc

; ---- can a quiet move be counted without making it?  (eng_quiet_safe)

qs_from = local+8      ; (local+0..7: the tests' ksq, fl_to = `to`, relp,
qs_chk  = local+9      ; relg, fcode, tcode); eng_chk, kept

;; eng_quiet_safe for the side whose king is in slot own (the enemy's in
;; slot enemy), lcore / gcore: the cores of its eng_is_legal and the
;; enemy's eng_gives_check.  fl_to and qs_from set.
.macro QUIET_SAFE own, enemy, lcore, gcore
  .local skip_own, own_hit, enemy_hit, back, safe, done
  lda piece_sq+own
  beq skip_own         ; no king (test positions only): never attacked
  REL_PTR relp
  ldy qs_from
  lda (relp),y         ; from: the mover's king's ray or diagonal
  cmp #REL_DIAG        ; neighbour, or the king itself
  bcs own_hit
  ldy fl_to
  lda (relp),y         ; to: its ray
  bmi own_hit
skip_own:              ; legal; a check?
  lda piece_sq+enemy
  beq safe             ; no king (test positions only): no check
  sta ksq
  REL_PTR relg
  ldy qs_from
  lda (relg),y         ; from: the enemy king's ray or diagonal neighbour
  cmp #REL_DIAG
  bcs enemy_hit
  ldy fl_to
  lda (relg),y         ; to: its ray, or a horse square
  bmi enemy_hit
  beq safe
  cmp #REL_DIAG
  bcs safe             ; a diagonal neighbour
  adc ksq              ; (C = 0) REL_LEG + the leg
  tax
  lda board-REL_LEG,x
  bne safe             ; the leg is blocked
  ldx qs_from
  ldy board,x
  lda code_kind-CODE_BASE,y
  cmp #KIND_HORSE
  beq done             ; a horse lands there: a check (C = 1)
safe:
  clc
done:
  rts
own_hit:
  cmp #REL_SELF
  bcs done             ; a king move (C = 1): make it
  jsr move_on_board
  lda piece_sq+own
  sta ksq
  ldy qs_from
  jsr lcore
  bcs back             ; illegal
  lda piece_sq+enemy
  beq back             ; (C = 0)
  sta ksq
  REL_PTR relg
  ldy qs_from
  jsr gcore
back:
  jmp put_back
enemy_hit:
  jsr move_on_board
  ldy qs_from
  jsr gcore
  jmp put_back
.endmacro

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
; rays and `from` not its diagonal neighbour (then it is legal, as in
; eng_is_legal's fast path, and not a king move), and the same for the enemy
; king, whose horse squares the mover (if a horse) does not reach with the
; leg empty (then it gives no check, as in eng_gives_check; `from` is not
; that leg, so the leg reads the same before the move as after it; a pawn's
; checking squares are on the king's rays).  Otherwise the piece is moved
; on the board alone (piece lists, score, key untouched: the tests read only
; the board, code_kind and the kings' squares) and the cores of
; eng_is_legal's fast path (when the mover's king is touched) and of
; eng_gives_check run; then the board is put back.
; Uses local+0..9.  Clobbers A, X, Y.
; Cycles: 122 on average when the move touches neither king, 369 when it
;   does, 609 at most (middlegames, bench/rom_bench.py); 249 on average in a
;   Master search (bench.rom_profile, positions 2-3), against about 790 for
;   eng_make + eng_is_legal + eng_gives_check + eng_unmake.
.proc eng_quiet_safe
  lda ms_to,y
  sta fl_to
  lda ms_from,y
  sta qs_from
  lda eng_side
  beq red
  jmp black
red:
  QUIET_SAFE 0, 16, red_moved_fast::core, black_gives_check::core
black:
  QUIET_SAFE 16, 0, black_moved_fast::core, red_gives_check::core
.endproc

;; eng_quiet_safe: the mover from qs_from to fl_to on the board alone, and
;; eng_chk saved (eng_gives_check's core sets it).
.proc move_on_board
  lda eng_chk
  sta qs_chk
  ldx qs_from
  lda board,x
  ldy fl_to
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  rts
.endproc

;; eng_quiet_safe: back to the position before move_on_board; C kept.
.proc put_back
  lda qs_chk
  sta eng_chk
  ldx fl_to
  lda board,x
  ldy qs_from
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  rts
.endproc

;; One rel code (above): d = square - king square.
.macro REL_BYTE d
  .if (d) = 0
  .byte REL_SELF
  .elseif (d) .mod UP = 0          ; the file
  .byte REL_RAY + ((d) < 0) * RAY_DOWN + ((d) = UP || (d) = DOWN) * REL_ADJ
  .elseif (d) >= -5 && (d) <= 5    ; the rank
  .byte REL_RAY + RAY_RIGHT + ((d) < 0) * (RAY_LEFT - RAY_RIGHT) + ((d) = RIGHT || (d) = LEFT) * REL_ADJ
  .elseif (d) = UP + RIGHT
  .byte REL_DIAG + DIAG_UR
  .elseif (d) = UP + LEFT
  .byte REL_DIAG + DIAG_UL
  .elseif (d) = DOWN + RIGHT
  .byte REL_DIAG + DIAG_DR
  .elseif (d) = DOWN + LEFT
  .byte REL_DIAG + DIAG_DL
  .elseif (d) = 2 * UP + RIGHT || (d) = UP + 2 * RIGHT
  .byte REL_LEG + UP + RIGHT
  .elseif (d) = 2 * UP + LEFT || (d) = UP + 2 * LEFT
  .byte REL_LEG + UP + LEFT
  .elseif (d) = 2 * DOWN + RIGHT || (d) = DOWN + 2 * RIGHT
  .byte REL_LEG + DOWN + RIGHT
  .elseif (d) = 2 * DOWN + LEFT || (d) = DOWN + 2 * LEFT
  .byte REL_LEG + DOWN + LEFT
  .else
  .byte 0
  .endif
.endmacro

.segment "RODATA"
; rel_mid[d] for d = square - king square, -REL_REACH..REL_REACH: the rel
; codes above (0: none of them).
rel_tab:
.repeat 2 * REL_REACH + 1, i
  REL_BYTE (i - REL_REACH)
.endrep
.assert * - rel_tab = 2 * REL_REACH + 1, error, "rel_tab covers -REL_REACH..REL_REACH"
rel_mid = rel_tab + REL_REACH
.segment "CODE"

.proc in_check_red
  IN_CHECK 0, 16, ::BLACK_TAG, ::UP, 8 + KIND_PAWN, red_ray
.endproc

.proc in_check_black
  IN_CHECK 16, 0, ::RED_TAG, ::DOWN, KIND_PAWN, black_ray
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
;   Master search (bench.rom_profile; docs/ROM_ENGINE.md, "The attack test").
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
