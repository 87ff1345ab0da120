; game_chase.s: the perpetual-chase judgement of a repetition cycle
; (reference_py/chase.py, cycle_chases and chase_attacks; docs/ENGINE.md,
; "Repetition and chasing" and "The ROM's form").
;
; game_outcome calls game_chase when a threefold repetition is found and
; neither side gave perpetual check.  The ring (game_rules.s) keeps, per
; game position, its key, whether the side to move is in check, and the
; destination of the ply that led to it; the cycle holds no capture, so the
; piece on that destination came from the one square of
; chase.origins(kind, side, to) whose Zobrist number completes the
; difference of the two keys around the ply (chase.quiet_origin).  Walking
; back from the current position, for each ply of the cycle:
;   after  = the mover's chase-attacks now (0 when the ply gave check);
;   the ply is taken back (the piece returns to its origin);
;   before = the mover's chase-attacks now (only when after is not 0; when
;            the mover is in check now, eng_in_check, its captures need
;            only be pseudo-legal: chase_attacks' bit 7 of A);
;   mask[mover] &= after & ~before;
; until the cycle is done or both masks are 0; then the plies taken back are
; played again, in order.  Slots are never renumbered in between, so the
; 16-bit masks (bit = a slot of the chased side) name the same pieces all
; along.  A chase-attack set (chase_attacks) uses the engine's own
; primitives as chase.py uses the reference's: the capture generator for
; the side asked (eng_side set to it for the call), eng_make / eng_in_check
; / eng_unmake as the legality test.  The move lists go on the move stack
; above ms_top (game_outcome's legal-move list below it stays intact).
;
; The candidate origins of a step piece here are those of chase.origins
; without the palace and half filters (the king's, advisor's and
; elephant's squares on the whole board, the pawn's sideways squares on
; either side of the river): for the project's Zobrist table their numbers
; differ too (tests/test_ref_chase.py:
; test_zobrist_origins_are_unique_without_the_filters), and the true origin
; is always among them.

.include "global.inc"
.include "engine/eng.inc"
.include "engine/search.inc"

; ---- scratch: chase_scratch (ram.s, CHASE_SCRATCH bytes), used only while
; the judgement runs (game_outcome, or the search's draw_score: no other
; routine reads it).
ch_mask_lo  = chase_scratch + 0    ; per side (Red, Black): the slots of the other side chased by every ply so far
ch_mask_hi  = chase_scratch + 2    ; (per side, as ch_mask_lo)
ch_acc_lo   = chase_scratch + 4   ; chase_attacks' output / the mask being built
ch_acc_hi   = chase_scratch + 5
ch_after_lo = chase_scratch + 6   ; the mover's chase-attacks after its ply
ch_after_hi = chase_scratch + 7
ch_bit_lo   = chase_scratch + 8   ; the target's slot as a mask
ch_bit_hi   = chase_scratch + 9
ch_by       = chase_scratch + 10   ; chase_attacks: the attacking side
ch_them     = chase_scratch + 11   ; chase_attacks: the other side
ch_side0    = chase_scratch + 12   ; chase_attacks: eng_side on entry
ch_base     = chase_scratch + 13   ; chase_attacks: first entry of the attacker's captures
ch_end      = chase_scratch + 14   ; chase_attacks: first entry after them
ch_idx      = chase_scratch + 15   ; chase_attacks: the capture being looked at
ch_idx2     = chase_scratch + 16   ; chase_attacks: the other side's capture being looked at
ch_frm      = chase_scratch + 17   ; chase_attacks: the capture's from / to
ch_to       = chase_scratch + 18
ch_akind    = chase_scratch + 19   ; chase_attacks: the attacker's kind / the target's
ch_tkind    = chase_scratch + 20
ch_n        = chase_scratch + 21   ; game_chase: ring index of the current position
ch_k        = chase_scratch + 22   ; game_chase: the cycle's plies
ch_j        = chase_scratch + 23   ; game_chase: plies taken back
ch_mover    = chase_scratch + 24   ; game_chase: the side that made the ply being judged
ch_chk      = chase_scratch + 25   ; game_chase: eng_chk on entry
ch_want_lo  = chase_scratch + 26   ; chase_unmove: the origin's Zobrist number
ch_want_hi  = chase_scratch + 27
ch_to_sq    = chase_scratch + 28   ; chase_unmove / chase_redo: the ply's destination (padded)
.assert 30 = CHASE_SCRATCH, error, "CHASE_SCRATCH must match the names above"
.export ch_acc_lo             ; (the tests read chase_attacks' output)
ch_arg      = chase_scratch + 29   ; chase_attacks: A on entry (bit 7: pseudo-legal captures)
; The origin of a ply taken back is kept in its ring entry's key low byte
; (rep_key_lo[n - j]: no later step reads that byte); chase_redo puts the
; key back (the key before ^ the side ^ the piece's Zobrist numbers at the
; origin and the destination: no capture in a cycle).

; zero-page pointers of chase_unmove (no engine call while they live)
zl = local+0               ; the piece's Zobrist-low row (- 23)
zh = local+2               ; its Zobrist-high row

.segment "ENGINE_RARE"

;;
; The perpetual chases of a repetition cycle (reference chase.cycle_chases).
; Input: A = n, the ring index of the current position; X = k, the cycle's
;   plies (4 <= k <= n, even; no capture among them, none of the ring's
;   entries n-k+1..n dropped); the position is the ring's entry n,
;   eng_ply <= SEARCH_MAX_DEPTH (game_outcome: 0; the search's draw_score:
;   its node's ply), ms_top = first free move-stack entry (the capture
;   lists go above it; one that does not fit is empty).
; Output: the ring's keys as on entry (the walk keeps origins in them).
;         ch_mask_lo/hi[side] = the slots of the other side that every ply
;   of `side` in the cycle chases (0: none); A = 1 when only Red's mask is
;   not 0, 2 when only Black's, 3 both, 0 neither.  The position, eng_side,
;   eng_chk, eng_ply, ms_top and the move stack below ms_top are as on
;   entry.
; Uses local+0..11 and the scratch above (undo entries CHASE_PLY..+3).
; Clobbers A, X, Y.
; Cycles: two chase-attack sets per ply judged (chase_attacks; one when the
;   ply gave check or attacks nothing) and an eng_in_check before the
;   second, plus about 600 per ply for the walk back and forth, less when
;   both masks reach 0 early: 24,237 for the 8 plies of a rook chasing a
;   cannon in a sparse position, 132,617 on a full board, at most about
;   2 M (48 plies) (emu_tests/test_game_chase.py, docs/ENGINE.md "The
;   ROM's form").
.proc game_chase
  sta ch_n
  stx ch_k
  lda eng_chk
  sta ch_chk
  lda #$FF
  sta ch_mask_lo
  sta ch_mask_lo+1
  sta ch_mask_hi
  sta ch_mask_hi+1
  lda #0
  sta ch_j
@ply:
  lda eng_side
  eor #1
  sta ch_mover           ; the ply n - j was the other side's
  lda ch_n
  sec
  sbc ch_j
  tax                    ; X = the ring entry the ply led to
  lda #0
  sta ch_after_lo
  sta ch_after_hi
  lda rep_info,x
  bmi @unmove            ; it gave check: it chases nothing
  lda ch_mover
  jsr chase_attacks
  lda ch_acc_lo
  sta ch_after_lo
  lda ch_acc_hi
  sta ch_after_hi
@unmove:
  lda ch_n
  sec
  sbc ch_j
  tax
  jsr chase_unmove
  bcs @lost              ; no origin fits the keys (not a cycle of the ring)
  inc ch_j
  lda ch_after_lo
  ora ch_after_hi
  beq @and               ; A = 0: nothing chased
  lda ch_mover
  jsr eng_in_check       ; C = 1: the mover was in check before its ply
  lda #0
  ror a                  ; bit 7 = C: its captures need only be pseudo-legal
  ora ch_mover
  jsr chase_attacks      ; before the ply
  lda ch_acc_lo
  eor #$FF
  and ch_after_lo
  sta ch_acc_lo          ; after & ~before
  lda ch_acc_hi
  eor #$FF
  and ch_after_hi
  sta ch_after_hi
  lda ch_acc_lo
@and:                    ; A = the low byte, ch_after_hi the high byte (0 when A came from the beq)
  ldx ch_mover
  and ch_mask_lo,x
  sta ch_mask_lo,x
  lda ch_after_hi
  and ch_mask_hi,x
  sta ch_mask_hi,x
  lda ch_mask_lo
  ora ch_mask_lo+1
  ora ch_mask_hi
  ora ch_mask_hi+1
  beq @redo              ; both 0: the verdict is known
  lda ch_j
  cmp ch_k
  bcs @redo
  jmp @ply
@lost:
  lda #0                 ; no verdict of chase
  sta ch_mask_lo
  sta ch_mask_lo+1
  sta ch_mask_hi
  sta ch_mask_hi+1
@redo:
  jsr chase_redo
  lda ch_chk
  sta eng_chk
  ldy #0                 ; A = the verdict: 1 Red's mask, 2 Black's
  lda ch_mask_lo
  ora ch_mask_hi
  beq :+
  iny
: lda ch_mask_lo+1
  ora ch_mask_hi+1
  beq :+
  iny
  iny
: tya
  rts
.endproc

;;
; Plays again the ch_j plies game_chase took back, oldest first, and puts
; back the key low bytes that held their origins.
; Input: ch_j, ch_n, the ring (rep_key_lo[n - j] = the origin of the ply
;   taken back j-th).  Output: ch_j = 0, the position and the ring as
;   before the walk back.
; Uses local+0..1.  Clobbers A, X, Y.  Cycles: about 110 per ply.
.proc chase_redo
@ply:
  lda ch_j
  beq @done
  dec ch_j
  lda ch_n
  sec
  sbc ch_j               ; the entry ply j led to: n - j
  tax
  lda rep_info,x
  and #$7F
  tay
  lda sq_of90,y
  sta ch_to_sq           ; the ply's destination
  lda rep_key_lo-1,x     ; the key low byte before the ply ^ the side
  eor #ZOBRIST_SIDE_LO
  sta ch_want_hi
  ldy rep_key_lo,x       ; Y = the origin
  sty ch_want_lo
  ldx board,y            ; the piece's code
  lda code_pk-CODE_BASE,x
  tax                    ; side*8 + kind
  lda row_ptr_l,x
  sta zl
  lda row_ptr_h,x
  sta zl+1
  lda ch_want_hi
  eor (zl),y             ; ^ Z[from]
  ldy ch_to_sq
  eor (zl),y             ; ^ Z[to]
  pha
  lda ch_n
  sec
  sbc ch_j
  tax
  pla
  sta rep_key_lo,x       ; the key low byte back
  ldx ch_want_lo         ; X = from, Y = to
  lda board,x
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  ldx board,y            ; the piece's code
  sty piece_sq-CODE_BASE,x
  lda eng_side
  eor #1
  sta eng_side
  jmp @ply
@done:
  rts
.endproc

;;
; Takes back the quiet ply that led to ring entry X = ch_n - ch_j: the
; piece on its destination returns to the origin that fits the keys of
; entries X-1 and X (chase.quiet_origin), kept in rep_key_lo[X]; eng_side
; flips.  eng_key, eng_score and eng_clock are not touched (nothing reads
; them before chase_redo undoes this).
; Input: X = ring entry (>= 1).  Output: C = 0 done; C = 1 no candidate
;   fits (nothing changed).
; Uses local+0..3.  Clobbers A, X, Y.
; Cycles: about 150 + 30 per candidate (a rook or cannon: up to 17).
.proc chase_unmove
  lda rep_info,x
  and #$7F
  tay
  lda sq_of90,y
  sta ch_to_sq
  tay                    ; Y = to
  lda rep_key_lo-1,x     ; key before ^ key after ^ side
  eor rep_key_lo,x
  eor #ZOBRIST_SIDE_LO
  sta ch_want_lo
  lda rep_key_hi-1,x
  eor rep_key_hi,x
  eor #ZOBRIST_SIDE_HI
  sta ch_want_hi
  ldx board,y            ; the piece's code
  lda code_pk-CODE_BASE,x
  tax                    ; side*8 + kind
  lda row_ptr_l,x
  sta zl
  sta zh
  lda row_ptr_h,x
  sta zl+1
  clc
  adc #ROW_REGION_PAGES
  sta zh+1
  lda ch_want_lo         ; ^ Z[to]: the origin's number
  eor (zl),y
  sta ch_want_lo
  lda ch_want_hi
  eor (zh),y
  sta ch_want_hi
  ldx board,y
  lda code_kind-CODE_BASE,x
  cmp #KIND_ROOK
  beq @slider
  cmp #KIND_CANNON
  beq @slider
  cmp #KIND_PAWN
  bne @steps
  lda code_pk-CODE_BASE,x  ; 7 (Red) or 15 (Black)
  cmp #8                 ; C = 1: Black's pawn, its own table
  lda #KIND_PAWN
  adc #0
@steps:                  ; A = the step table's index (kind, or KIND_PAWN + 1)
  tax
  lda step_first,x
  sta local+4            ; first delta
  lda step_first+1,x
  sta local+5            ; end
@step:
  ldx local+4
  cpx local+5
  bcs @none
  inc local+4
  lda ch_to_sq
  clc
  adc step_delta,x
  tay
  jsr try_origin
  bcs @step
  rts                    ; C = 0
@slider:
  ldx #3
@ray:
  stx local+4            ; ray index 3..0
  ldy ch_to_sq
@walk:
  tya
  clc
  adc ray_delta,x
  tay
  lda board,y
  cmp #SQ_OFFBOARD
  beq @next_ray
  jsr try_origin
  bcc @found
  ldx local+4
  bpl @walk              ; (always: X = 0..3)
@next_ray:
  ldx local+4
  dex
  bpl @ray
@none:
  sec
  rts
@found:
  rts
.endproc

;;
; chase_unmove's test of one candidate origin Y: when it is on the board
; and its Zobrist number (zl / zh rows) is ch_want, the piece on ch_to_sq
; goes back there (board, piece_sq, rep_key_lo[ch_n - ch_j], eng_side) and C = 0;
; else C = 1 and nothing changes.  Clobbers A, X.  Cycles: 12-80.
.proc try_origin
  lda board,y
  cmp #SQ_OFFBOARD
  beq @no
  lda (zl),y
  cmp ch_want_lo
  bne @no
  lda (zh),y
  cmp ch_want_hi
  bne @no
  lda ch_n
  sec
  sbc ch_j
  tax
  tya
  sta rep_key_lo,x       ; the origin, until chase_redo
  ldx ch_to_sq
  lda board,x
  sta board,y
  lda #SQ_EMPTY
  sta board,x
  ldx board,y
  sty piece_sq-CODE_BASE,x
  lda eng_side
  eor #1
  sta eng_side
  clc
  rts
@no:
  sec
  rts
.endproc

; The chase-attack sets and their tests live in the fixed bank (FIXED_RARE:
; bank 0 is full); they are called only from the code above, with bank 0
; mapped.
.segment "FIXED_RARE"

;;
; The enemy pieces side A chase-attacks in the position, whichever side is
; to move (reference chase.chase_attacks): for each legal capture by one of
; its advisors, elephants, horses, rooks or cannons of a piece that is not
; the king nor a pawn on its own half, the target counts when the attacker
; is weaker (STRONGER: chase_stronger), else when no legal move of the
; other side takes back on its square and the attack is not mutual (the
; target of the attacker's kind with a legal capture of it).  With bit 7
; of A set (chase_attacks' `pseudo`: the "before" set of a mover in check)
; the attacker's captures are not tested for legality (pseudo-legal
; only); the take-back and mutual tests keep theirs.
; Input: A = the attacking side (bit 0), bit 7 = pseudo-legal captures
;   (bits 1-6 0); the position; ms_top = first free entry (the captures go
;   above it); eng_ply + 2 <= ENG_PLIES.
; Output: ch_acc_lo/hi = the chased side's slots attacked so.  The
;   position, eng_side and ms_top are as on entry.
; Uses local+0..11.  Clobbers A, X, Y.
; Cycles: 5,019 median, 20,235 at most in the 40 middlegames of
;   bench/middlegames.fen (both sides; emu_tests/test_game_chase.py): the
;   side's captures, a legality test each (about 700; none with bit 7),
;   and per candidate target the other side's captures and their legality
;   tests.
.proc chase_attacks
  sta ch_arg
  and #1
  sta ch_by
  eor #1
  sta ch_them
  lda eng_side
  sta ch_side0
  lda ch_by
  sta eng_side
  lda #0
  sta ch_acc_lo
  sta ch_acc_hi
  lda ms_top
  sta ch_base
  sta ch_end             ; an overflow (C = 1) leaves the list empty
  jsr eng_gen_captures
  lda ms_top
  sta ch_end
  lda ch_base
  sta ch_idx
  jmp @capture
@next:
  inc ch_idx
@capture:
  ldx ch_idx
  cpx ch_end
  bcc :+
  jmp @done
: ldy ms_from,x
  sty ch_frm
  lda board,y
  tay
  lda code_kind-CODE_BASE,y
  sta ch_akind
  cmp #KIND_ADVISOR
  bcc @next              ; the king does not chase
  cmp #KIND_PAWN
  bcs @next              ; nor does a pawn
  ldy ms_to,x
  sty ch_to
  lda board,y
  tay                    ; the target's code
  lda code_kind-CODE_BASE,y
  sta ch_tkind
  cmp #KIND_KING
  beq @next              ; the king is not chased
  cmp #KIND_PAWN
  bne @slot
  ldx ch_to
  lda sq_flags,x
  ldx ch_them
  and half_flag,x
  bne @next              ; a pawn on its own half is not chased
@slot:
  tya
  and #$0F
  tax                    ; the target's slot
  lda #0
  sta ch_bit_lo
  sta ch_bit_hi
  cpx #8
  bcs @hi
  lda bit_mask,x
  sta ch_bit_lo
  and ch_acc_lo
  bne @next              ; already counted
  beq @legal             ; (always)
@hi:
  lda bit_mask-8,x
  sta ch_bit_hi
  and ch_acc_hi
  bne @next
@legal:
  bit ch_arg
  bmi @pseudo            ; pseudo-legal is enough
  ldx ch_idx
  lda ch_by
  jsr chase_legal
  bcs @far
@pseudo:
  ldx ch_akind
  lda chase_stronger,x
  ldx ch_tkind
  and bit_mask,x
  bne @count             ; a weaker attacker: protected or not
  jsr chase_protected
  bcc @far
  lda ch_tkind
  cmp ch_akind
  bne @count
  jsr chase_mutual
  bcc @far              ; an offer to exchange
@count:
  lda ch_acc_lo
  ora ch_bit_lo
  sta ch_acc_lo
  lda ch_acc_hi
  ora ch_bit_hi
  sta ch_acc_hi
@far:
  jmp @next
@done:
  lda ch_base
  sta ms_top
  lda ch_side0
  sta eng_side
  rts
.endproc

;;
; Is move-stack entry X legal for side A (eng_side = A): A's king safe
; after it?  C = 0 legal, C = 1 not.  The position is as before.
; Uses local+0..11.  Clobbers A, X, Y.  Cycles: about 700.
.proc chase_legal
  pha
  jsr eng_make
  pla
  jsr eng_in_check       ; A = the mover, no longer eng_side: eng_chk untouched
  php
  jsr eng_unmake
  plp
  rts
.endproc

;;
; After ch_by's capture ch_idx (ch_frm -> ch_to): has ch_them a legal move
; that takes back on ch_to?  C = 0 it has (protected), C = 1 not.
; ms_top is left at ch_end, the position as before.
; Uses local+0..11.  Clobbers A, X, Y.  Cycles: about 1,500 + 700 per
;   take-back tested.
.proc chase_protected
  ldx ch_idx
  jsr eng_make           ; eng_side = ch_them
  jsr eng_gen_captures   ; their captures at ch_end..ms_top
  ldx ch_end
@scan:
  cpx ms_top
  bcs @none
  lda ms_to,x
  cmp ch_to
  bne @next
  stx ch_idx2
  lda ch_them
  jsr chase_legal
  ldx ch_idx2
  bcc @done              ; C = 0: a take-back
@next:
  inx
  bne @scan              ; (always: < 192)
@none:
  sec
@done:
  php
  lda ch_end
  sta ms_top
  jsr eng_unmake
  plp
  rts
.endproc

;;
; Has ch_them a legal capture ch_to -> ch_frm (the target taking the
; attacker back: a mutual attack)?  C = 0 it has, C = 1 not.
; eng_side is ch_by on entry and exit, ms_top is left at ch_end.
; Uses local+0..11.  Clobbers A, X, Y.  Cycles: about 1,500 (+ 700 when
;   the capture is there).
.proc chase_mutual
  lda ch_them
  sta eng_side
  jsr eng_gen_captures
  ldx ch_end
@scan:
  cpx ms_top
  bcs @none
  lda ms_from,x
  cmp ch_to
  bne @next
  lda ms_to,x
  cmp ch_frm
  bne @next
  lda ch_them
  jsr chase_legal
  jmp @done              ; C = 0 legal: mutual
@next:
  inx
  bne @scan              ; (always)
@none:
  sec
@done:
  php
  lda ch_end
  sta ms_top
  lda ch_by
  sta eng_side
  plp
  rts
.endproc

.segment "ENGINE_DATA"
; chase.STRONGER: per attacker kind, the kinds (bit kind) it chases even
; when they are protected
chase_stronger:
  .byte 0, 0                                                         ; -, king
  .byte 1 << KIND_ROOK | 1 << KIND_HORSE | 1 << KIND_CANNON          ; advisor
  .byte 1 << KIND_ROOK | 1 << KIND_HORSE | 1 << KIND_CANNON          ; elephant
  .byte 1 << KIND_ROOK                                               ; horse
  .byte 0                                                            ; rook
  .byte 1 << KIND_ROOK                                               ; cannon
  .byte 0                                                            ; pawn
; a side's own half (FLAG_*_HALF), by side
half_flag:
  .byte FLAG_RED_HALF, FLAG_BLACK_HALF
; chase_unmove: the rays of a rook or cannon (ray_delta[0..3]) and, per
; step kind, its candidate origins as deltas from the destination
; (step_delta[step_first[i] .. step_first[i + 1] - 1], i = the kind, or
; KIND_PAWN + 1 for Black's pawn)
ray_delta:
  .byte <DIR_UP, <DIR_DOWN, <DIR_LEFT, <DIR_RIGHT
step_first:
  .byte 0, 0, 4, 8, 12, 20, 20, 20, 23, 26
step_delta:
  .byte <1, <-1, <11, <-11                                  ; king
  .byte <10, <12, <-10, <-12                                ; advisor
  .byte <20, <24, <-20, <-24                                ; elephant
  .byte <21, <23, <-21, <-23, <9, <13, <-9, <-13            ; horse
  .byte <-11, <1, <-1                                       ; Red's pawn (came from below or beside)
  .byte <11, <1, <-1                                        ; Black's pawn
.assert KIND_KING = 1 && KIND_ADVISOR = 2 && KIND_ELEPHANT = 3 && KIND_HORSE = 4 && KIND_ROOK = 5 && KIND_CANNON = 6 && KIND_PAWN = 7, error, "step_first follows the kinds"
