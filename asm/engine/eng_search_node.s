; eng_search_node.s: a node of the main search, ab_node (reference
; _alphabeta): draw rules, forward pruning (prune_setup), the null move,
; the move loop with futility, PVS and LMR, cut-offs and the PV.  Around
; it, its helpers: first those of the move loop (the children's windows,
; macros inlined in ab_node; pv_update), after it the null
; move's (count_node, flip_side) and LMR's test for the re-search (lmr_r).
; Depth 0 enters the quiescence search (eng_search_quiesce.s).

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

;; dst (2 bytes) = beta of the node at ply X (INF at ply 0, else
;; -alpha(X - 1)).  Clobbers A.
.macro LOAD_BETA dst
  .local root, done
  cpx #0
  beq root
  BETA_P dst
  jmp done
root:
  lda #<INF_SCORE
  sta dst
  lda #>INF_SCORE
  sta dst+1
done:
.endmacro

;; N = 1 when rv < beta of the node at ply X (INF at ply 0).  Clobbers A.
.macro RV_LT_BETA
  .local root, done
  cpx #0
  beq root
  RV_LT_BETA_P
  jmp done
root:
  SLT16 rv, rv+1, #<INF_SCORE, #>INF_SCORE
done:
.endmacro

;; One more legal move for the node whose s_flags byte is `flags` (bits
;; 0-2 count legal moves, saturating at 7).  Clobbers A.  10-14 cycles.
.macro COUNT_LEGAL flags
  .local done
  lda flags
  and #S_F_LEGAL
  cmp #S_F_LEGAL
  bcs done
  inc flags
done:
.endmacro

;; The child's depth: A, or A + 1 for a move that gives check while ply
;; X + depth(X) < the level's lvl_ext (the check extension, reference d1;
;; never with LMR's reduction, which needs a quiet move that gives no
;; check).  Keeps X.  Clobbers A, Y.  9 cycles for a move that gives no
;; check (none when no level has the extension: CHECK_EXT = 0).
.macro CHILD_DEPTH
  .local done
  sta s_depth+1,x
.if ::CHECK_EXT
  lda s_flags,x
  and #S_F_CCHECK
  beq done
  txa
  clc
  adc s_depth,x        ; ply + depth (at most 8 + 8)
  ldy s_level
  cmp lvl_ext,y
  bcs done
  inc s_depth+1,x
done:
.endif
.endmacro

;; The null-window child search's first half: the child (ply X + 1) gets
;; depth A (CHILD_DEPTH; with `plain` given: A itself, for a move known
;; not to give check) and the null window (-alpha - 1, -alpha), its alpha being
;; ~alpha(X).  Keeps X.  Clobbers A, Y.
.macro CHILD_NULL_WINDOW plain
.ifblank plain
  CHILD_DEPTH
.else
  sta s_depth+1,x
.endif
  lda s_alpha_lo,x
  eor #$FF             ; -alpha - 1 = ~alpha
  sta s_alpha_lo+1,x
  lda s_alpha_hi,x
  eor #$FF
  sta s_alpha_hi+1,x
.endmacro

;; The child of ply X (the move is made: eng_ply = X + 1) at depth A
;; (CHILD_DEPTH) with the full window (-beta, -alpha): the child's depth and
;; alpha (-beta, or -INF at the root).  Inline at both of ab_node's
;; full-window searches, so that the path's stack holds 2 bytes per
;; main-search ply (the JSR to ab_node), not 4.  Keeps X.  Clobbers A, Y.
.macro CHILD_FULL_WINDOW
  .local grand, done
  CHILD_DEPTH
  cpx #0
  bne grand
  lda #<(-INF_SCORE)   ; -beta = -INF at the root
  sta s_alpha_lo+1,x
  lda #>(-INF_SCORE)
  sta s_alpha_hi+1,x
  bne done             ; always (>(-INF_SCORE) is not 0)
grand:
  lda s_alpha_lo-1,x   ; -beta = alpha of the grandparent
  sta s_alpha_lo+1,x
  lda s_alpha_hi-1,x
  sta s_alpha_hi+1,x
done:
.endmacro

;; The child search's second half: the child's flags from the move's (gives
;; check -> in check, continues the PV -> on the PV), the search (the JSR to
;; ab_node: a path's only 2 bytes of stack per main-search ply), rv = minus
;; its value.
.macro CHILD_SEARCH
  lda s_flags,x
  and #S_F_CCHECK | S_F_CPV
  asl a
  asl a
  asl a
  sta s_flags+1,x
  jsr ab_node
  NEG_RV
.endmacro

.segment "ENGINE_DATA"
; start of PV row p in pv_from / pv_to
pv_row:
  .repeat PV_PLIES + 1, p
  .byte p * PV_PLIES - p * (p - 1) / 2
  .endrepeat

.segment "ENGINE_CODE"

;;
; pv[X] = [move Y] + pv[X + 1] when X < PV_PLIES, else nothing (reference
; self.pv[ply] = [m] + self.pv[ply + 1]; pv[PV_PLIES] stays empty, so a row
; never outgrows its PV_PLIES - X moves).
; Input: X = ply, Y = the move's index.  Output: row X, s_pvlen[X].
; Uses local+0..3.  Keeps X.  Clobbers A, Y.
; Cycles: 9 at X >= PV_PLIES; else about 50 + 28 per move copied.
.proc pv_update
dst = local+0          ; start of row X in pv_from / pv_to
src = local+1          ; start of row X + 1
cnt = local+2          ; moves of row X + 1 left to copy
save_x = local+3       ; X on entry
  cpx #PV_PLIES
  bcc :+
  rts                  ; no row at this ply
: lda pv_row,x
  sta dst
  lda pv_row+1,x
  sta src
  lda s_pvlen+1,x
  sta cnt
  clc
  adc #1
  sta s_pvlen,x
  stx save_x
  ldx dst
  lda ms_from,y
  sta pv_from,x
  lda ms_to,y
  sta pv_to,x
  ldy src
copy:
  lda cnt
  beq done
  inx
  lda pv_from,y
  sta pv_from,x
  lda pv_to,y
  sta pv_to,x
  iny
  dec cnt
  jmp copy
done:
  ldx save_x
  rts
.endproc

;;
; One node of the main search (reference _alphabeta) at ply = eng_ply.
; Input: s_depth = depth, s_alpha = alpha, s_flags = S_F_CHECK / S_F_PV of
;   this ply; beta = -s_alpha of the ply before (INF at ply 0).
; Output: rv = the value (fail-hard), 0 once the search is aborted.
; Uses local+0..15 and the per-ply arrays.  Clobbers A, X, Y.
; At depth 0 it enters q_node past q_node's leaf tests (qply 0 < qdepth;
; ply <= depth + qdepth - 1 even on an extended line).
; Cycles: about 600 per call of its own (bench.rom_profile --level Master
; --positions 4; the inline pick scan and swap included), the callees apart.
.proc ab_node
window_sum = local+12  ; NULL_WINDOW_BOUNDED's scratch (the null move's test)
beta = local+12        ; 2 bytes: this node's beta, where needed (LOAD_BETA)
  ldx eng_ply
  cpx #PV_PLIES + 1
  bcs :+
  lda #0
  sta s_pvlen,x        ; pv[ply] = [] (kept at plies <= PV_PLIES only)
: cpx #0
  beq no_draw
  lda eng_clock        ; draw_score's first test inline: a clock below 4
  cmp #4               ; (a capture in the last 3 plies) decides nothing
  bcc no_draw
  ldy ply_first,x      ; ms_top = the node's list start (draw_score's
  sty ms_top           ; move limit and chase test generate there)
  jsr draw_score       ; A = clock >= 4
  bcc no_draw_x
  rts
no_draw_x:
  ldx eng_ply
no_draw:               ; X = eng_ply
  lda s_depth,x
  bne main_search      ; (no_null sets ms_top before it generates)
  lda ply_first,x      ; depth 0: the quiescence's list starts here
  sta ms_top
  stx s_qstart         ; quiescence at this ply (qply 0)
  ldy s_level
  lda lvl_qdepth,y
  bne :+
  jmp search_eval      ; qdepth 0: a leaf
: jmp q_node_entered   ; qply 0 < qdepth, ply < depth + qdepth
no_null_j:
  jmp no_null
main_search:
.if ::PRUNE_ANY
  jsr prune_setup      ; reverse futility, the futility threshold
  bcc :+
  rts
:
.endif
  ; ---- null move
  cpx #0
  beq no_null_j
  lda s_flags,x
  bmi no_null_j        ; in check
  lda s_depth,x
  cmp #NULL_MIN_DEPTH
  bcc no_null_j
  NULL_WINDOW_BOUNDED window_sum, no_null_j
  lda undo_from-1,x
  beq no_null_j        ; the previous move was a null move
  lda eng_side         ; the side to move has a rook, horse or cannon
  asl a
  asl a
  asl a
  tay
  lda counts+KIND_ROOK,y
  ora counts+KIND_HORSE,y
  ora counts+KIND_CANNON,y
  beq no_null_j
  ; make the null move (reference make_null)
  lda eng_clock
  sta undo_clock,x
  lda eng_chk
  sta undo_check,x
  lda #$FF             ; the check state of the other side: not known
  sta eng_chk
  lda #0
  sta undo_from,x
  sta eng_clock
  jsr flip_side
  lda ply_first,x
  sta ply_first+1,x
  lda s_depth,x        ; child: depth - 1 - R, window (-beta, -beta + 1)
  sec
  sbc #1 + NULL_REDUCTION
  sta s_depth+1,x
  lda s_alpha_lo-1,x   ; -beta = alpha(ply - 1)
  sta s_alpha_lo+1,x
  lda s_alpha_hi-1,x
  sta s_alpha_hi+1,x
  lda #0
  sta s_flags+1,x
  inc eng_ply
  jsr count_node
  bcs null_undo
  jsr ab_node
  NEG_RV
null_undo:
  dec eng_ply
  ldx eng_ply
  lda undo_clock,x
  sta eng_clock
  lda undo_check,x
  sta eng_chk
  jsr flip_side
  lda s_abort
  beq :+
  RV_ZERO
  rts
: LOAD_BETA beta
  SLT16 rv, rv+1, beta, beta+1
  bmi no_null          ; v < beta
  lda beta
  sta rv
  lda beta+1
  sta rv+1
  rts
no_null:
  ; ---- generate and order
  ldx eng_ply
  lda ply_first,x
  sta ms_top
  jsr eng_gen
  bcc generated
  jmp search_eval      ; the list does not fit: a leaf
pv_node:               ; a node on the PV: score_moves looks for the PV
  lda #0               ; move a completed iteration has left
  sta pv_move_from     ; (0: none)
  lda s_res_depth
  beq :+
  cpx s_res_pvlen
  bcs :+
  lda s_res_from,x
  sta pv_move_from
  lda s_res_to,x
  sta pv_move_to
: jsr score_moves      ; the first pick
  jmp moves
generated:
  ldx eng_ply
  lda ms_top
  sta ply_first+1,x
  lda ply_first,x
  sta s_cur,x
  lda #0
  sta s_best,x         ; no best move yet
  lda s_flags,x
  and #S_F_CHECK | S_F_PV
  sta s_flags,x        ; legal = 0
  and #S_F_PV
  bne pv_node
  lda gen_bi           ; no PV move: the first pick is the generator's
  sta pick_best        ; (score_moves' answer without one)
  ; ---- the moves (captures keyed, the quiet moves later, if reached)
moves:
  NEXT_PICK first, $C0
  ; a later pick: never the PV move (its key $FF is the list's highest), so
  ; its key (A) tells a capture (KEY_CAPTURE and up) from a quiet move
  ; (killers and history keys are at most 127)
  ldx eng_ply
  cmp #KEY_CAPTURE     ; C = 1: a capture
  lda s_flags,x
  and #<~(S_F_QUIET | S_F_CCHECK | S_F_CPV)
  bcc quiet
  sta s_flags,x        ; a capture: never pruned
  jmp make
quiet:
  ora #S_F_QUIET
  sta s_flags,x
.if ::PRUNE_ANY
  ; futility (docs/ENGINE.md, Alpha-beta step 6): a quiet move that is not
  ; the PV move and gives no check is skipped (counted as a legal move, not
  ; as a node) when s_fut <= alpha and alpha > -MATE_BOUND.  Neither
  ; changes during a make, so this is decided before it; s_fut <= alpha
  ; also means ply > 0 and not in check (prune_setup).
  ; Alpha changes only when a move raises it, so the condition is decided
  ; then (FUT_UPDATE at `raise`) and when prune_setup sets the threshold:
  ; once it holds s_fut_hi is FUT_ON_HI (s_fut is then below every alpha,
  ; which keeps the test's meaning) and holds for the rest of the node, and
  ; each quiet move tests that one byte (s_fut_hi is indexed by the ply).
  lda s_fut_hi,x
  cmp #FUT_ON_HI
  bne make             ; not futile (Y = the move's index)
futile:
  jsr eng_quiet_safe   ; legal, no check, not the king (without a make)?
  ldx eng_ply
  bcs fut_make
  COUNT_LEGAL {s_flags,x} ; yes: a legal move, pruned
  jmp next
fut_make:              ; a king move, an illegal move or a check: made and
                       ; tested as any move, pruned if legal and no check
  lda s_cur,x
  tax
  jsr eng_make_check   ; A = $FF illegal, else eng_chk
  bmi unmake_next
  tay
  ldx eng_ply
  COUNT_LEGAL {s_flags-1,x}
  tya
  beq unmake_next      ; no check: pruned
  lda s_flags-1,x
  ora #S_F_CCHECK
  sta s_flags-1,x
  jmp count
.endif
make:
  tya
  tax
  jsr eng_make_check   ; A = $FF illegal, else eng_chk (Z: no check)
  bpl legal
unmake_next:
  jsr eng_unmake
  jmp next
first:                 ; the first pick: the PV move when its key is $FF
  lda ms_key,y
  cmp #KEY_PV
  beq :+
  jmp picked
: ldx ms_to,y
  lda board,x
  ldx eng_ply
  cmp #1               ; C = 1: a capture
  lda s_flags,x
  and #<~(S_F_QUIET | S_F_CCHECK | S_F_CPV)
  ora #S_F_CPV
  bcs :+
  ora #S_F_QUIET
: sta s_flags,x
  jmp make
abort:                 ; the node cap (COUNT_NODE)
  lda #1
  sta s_abort
  jsr eng_unmake
  RV_ZERO
  rts
legal:                 ; A = eng_chk: 1 when the move gives check
  ldx eng_ply
  tay
  beq :+               ; (futility was decided before the make: fut_make)
  lda s_flags-1,x
  ora #S_F_CCHECK
  sta s_flags-1,x
: COUNT_LEGAL {s_flags-1,x}
count:
  COUNT_NODE abort
  ; push_history (reference): s_rep_top + 1, its key, whether the move
  ; gives check as its in-check bit and the move's destination (0-89)
  lda s_flags-1,x
  and #S_F_CCHECK
  cmp #1               ; C = gives check
  ldy s_rep_top
  iny
  sty s_rep_top
  lda eng_key
  sta rep_key_lo,y
  lda eng_key+1
  sta rep_key_hi,y
  lda undo_to-1,x      ; the move's destination
  tax
  lda sq90_red,x
  bcc :+
  ora #REP_CHECK
: sta rep_info,y
  ldx eng_ply
  dex
  lda s_flags,x
  and #S_F_LEGAL
  cmp #1
  bne pvs
  lda s_depth,x        ; the first legal move: full window
  sec
  sbc #1
  CHILD_FULL_WINDOW
  CHILD_SEARCH
  jmp searched
searched_low:          ; v <= alpha, not aborted
  dec s_rep_top        ; pop_history
  jsr eng_unmake
  jmp next
pvs:                   ; depth - 1 - r, null window (lmr_r inline)
  cpx #0
  beq pvs_full         ; never reduced at the root
  lda s_depth,x
  cmp #LMR_MIN_DEPTH
  bcc pvs_full
  lda s_flags,x
  and #S_F_LEGAL
  cmp #LMR_MIN_MOVES + 1
  bcc pvs_full
  lda s_flags,x
  and #S_F_CHECK | S_F_QUIET | S_F_CCHECK
  cmp #S_F_QUIET
  bne pvs_full
  lda s_depth,x        ; reduced: depth - 2
  sbc #2               ; C = 1 from cmp
  jmp pvs_go
pvs_full:
  lda s_depth,x
  sec
  sbc #1
pvs_go:
  CHILD_NULL_WINDOW
  CHILD_SEARCH
  ldx eng_ply
  dex
  lda s_abort
  beq :+
  jmp searched
: ; both re-searches need v > alpha
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
.if ::CHECK_EXT
  bmi :+               ; (CHILD_DEPTH's extension test puts searched_low
  jmp searched_low     ; out of a branch's reach) v <= alpha
:
.else
  bpl searched_low     ; v <= alpha
.endif
  jsr lmr_r
  beq no_re
  lda s_depth,x        ; reduced: again at depth - 1
  sec
  sbc #1
  CHILD_NULL_WINDOW 1  ; (a reduced move gives no check: no extension)
  CHILD_SEARCH
  ldx eng_ply
  dex
  lda s_abort
.if ::CHECK_EXT
  beq :+
  jmp searched         ; (CHILD_DEPTH below puts it out of a branch's reach)
:
.else
  bne searched
.endif
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
  bmi no_re
  jmp searched_low     ; v <= alpha
no_re:                 ; alpha < v
  RV_LT_BETA
  bpl searched         ; v >= beta
  lda s_depth,x
  sec
  sbc #1
  CHILD_FULL_WINDOW
  CHILD_SEARCH
searched:
  dec s_rep_top        ; pop_history
  jsr eng_unmake
  lda s_abort
  beq :+
  RV_ZERO
  rts
: ldx eng_ply
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
  bpl to_next          ; v <= alpha
  RV_LT_BETA
  bmi raise            ; v < beta
  lda s_flags,x        ; a cutoff
  and #S_F_QUIET
  beq :+
  ldy s_cur,x
  sec
  jsr reward
: LOAD_BETA beta
  lda beta
  sta rv
  lda beta+1
  sta rv+1
  rts
to_next:
  jmp next
raise:
  lda rv
  sta s_alpha_lo,x
  lda rv+1
  sta s_alpha_hi,x
.if ::PRUNE_ANY
  lda s_fut_hi,x       ; a futility threshold not yet reached: again at
  cmp #FUT_OFF_HI      ; the new alpha
  beq :+
  cmp #FUT_ON_HI
  beq :+
  ldy s_depth,x
  FUT_UPDATE
:
.endif
  ldy s_cur,x
  iny
  tya
  sta s_best,x         ; best = this move (index + 1)
  dey
  jsr pv_update
  jmp next
loop_end:
  lda s_flags,x
  and #S_F_LEGAL
  bne some
  txa                  ; no legal move: -MATE + ply
  RV_MATED
  rts
some:
  ldy s_best,x
  beq :+
  dey
  lda ms_to,y
  tax
  lda board,x
  bne :+               ; the best move is a capture
  ldx eng_ply
  clc
  jsr reward
: ldx eng_ply
  lda s_alpha_lo,x
  sta rv
  lda s_alpha_hi,x
  sta rv+1
  rts
.endproc

;;
; Counts a node (reference _count_node), for the null move (the move loops
; use COUNT_NODE inline).  Output: C = 1 when the node cap is reached
; (s_abort set).  Clobbers A.
.proc count_node
  inc s_nodes
  bne :+
  inc s_nodes+1
: lda s_nodes
  cmp s_cap
  lda s_nodes+1
  sbc s_cap+1
  bcc :+
  lda #1
  sta s_abort
: rts
.endproc

;;
; key ^= the side key, side ^= 1 (the null move).  Keeps X, Y.
.proc flip_side
  lda eng_key
  eor #ZOBRIST_SIDE_LO
  sta eng_key
  lda eng_key+1
  eor #ZOBRIST_SIDE_HI
  sta eng_key+1
  lda eng_side
  eor #1
  sta eng_side
  rts
.endproc

;;
; A = 1 (Z = 0) when the move being searched at ply X is reduced by LMR
; (ab_node has an inline copy of the same tests at `pvs`):
; ply > 0, depth >= LMR_MIN_DEPTH, more than LMR_MIN_MOVES legal moves so far, a
; quiet move, the side to move not in check and the move giving no check.
; Keeps X, Y.
.proc lmr_r
  cpx #0
  beq no               ; never at the root
  lda s_depth,x
  cmp #LMR_MIN_DEPTH
  bcc no
  lda s_flags,x
  and #S_F_LEGAL
  cmp #LMR_MIN_MOVES + 1
  bcc no
  lda s_flags,x
  and #S_F_CHECK | S_F_QUIET | S_F_CCHECK
  cmp #S_F_QUIET
  bne no
  lda #1
  rts
no:
  lda #0
  rts
.endproc
