; eng_search_quiesce.s: a node of the quiescence search, q_node (reference
; _quiesce): stand pat (lazy, search_eval_ge), captures or, in check, every
; move, delta pruning and exchange pruning.  ab_node enters it at depth 0
; past its leaf tests (q_node_entered).

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

.segment "ENGINE_CODE"

;;
; One node of the quiescence search (reference _quiesce) at ply = eng_ply
; >= 1, qply = eng_ply - s_qstart.  Input: s_alpha, s_flags (S_F_CHECK) of
; this ply; beta = -s_alpha of the ply before.  Output: rv.
; Uses local+0..15 and the per-ply arrays (s_delta_lo / s_delta_hi = the
; stand-pat score + DELTA_MARGIN, for delta pruning).  Clobbers A, X, Y.
; Stand pat asks search_eval_ge whether stand >= beta (its noiseless path,
; a call of eng_eval_ge, inline; lazy evaluation: a
; bound may settle it without the exact value, and then beta is returned,
; as the reference does); when stand < beta it has the exact value.
; Exchange pruning (QS_EXCHANGE, reference _losing_exchange): a capture that
; delta pruning keeps is skipped, not made, when its capturer is worth at
; least qs_exchange more than the victim (exchange_prune[capturer * 8 +
; victim]) and eng_attacked finds the opponent could move to `to` with
; `from` emptied.
; Cycles: about 210 per node of its own (bench.rom_profile, Hard, 2
; positions, ab_node's depth-0 entries included), the callees apart; the
; exchange test adds 3 per capture delta pruning tests, about 40 more per
; capture it keeps, and about 50 plus eng_attacked (about 280) when the gap
; applies.
.proc q_node
victim_kind = local+0  ; the capture's victim's kind (read by the delta test)
cap_from = local+10    ; the exchange test: the capturer's `from` and code,
cap_code = local+11    ;   kept across eng_attacked (which uses local+0..9)
reach = local+12       ; 2 bytes: stand pat + DELTA_MARGIN + the victim's value
  ldx eng_ply
  lda ply_first,x
  sta ms_top
  txa
  sec
  sbc s_qstart
  ldy s_level
  cmp lvl_qdepth,y
.if ::CHECK_EXT
  bcs leaf
  txa                  ; ply < depth + qdepth: a line the check extension
  cmp lvl_reach,y      ; deepened ends there, whatever its qply (reference:
  bcc entered          ; a leaf at ply >= depth + qdepth)
leaf:
  jmp search_eval
.else
  bcc entered          ; qply < qdepth: then ply < depth + qdepth too
  jmp search_eval      ; (quiescence starts at a ply <= depth)
.endif
entered:               ; from ab_node: X = eng_ply, ms_top set, qply 0 < qdepth
  lda s_flags,x
  bmi generate         ; in check: no stand pat
  BETA_P eval_t        ; T = beta
  ldy s_level          ; search_eval_ge, its noiseless path inline
  lda lvl_noise,y
  bne noisy
  jsr eng_eval_ge      ; C = 0: stand >= beta (maybe settled by a bound)
  bcc at_beta
  sta rv               ; stand < beta
  stx rv+1
  bcs stand            ; always
noisy:
  jsr search_eval_ge
  bcs stand            ; stand < beta, in rv
at_beta:
  lda eval_t           ; beta (T is kept)
  sta rv
  lda eval_t+1
  sta rv+1
  rts
stand:
  ldx eng_ply
  clc                  ; stand + DELTA_MARGIN, for delta pruning
  lda rv
  adc #<DELTA_MARGIN
  sta s_delta_lo,x
  lda rv+1
  adc #>DELTA_MARGIN
  sta s_delta_hi,x
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
  bpl generate         ; stand <= alpha
  lda rv
  sta s_alpha_lo,x
  lda rv+1
  sta s_alpha_hi,x
generate:
  lda s_flags,x
  bmi :+
  jsr eng_gen_captures
  jmp :++
: jsr eng_gen
: bcc generated
  ldx eng_ply          ; the list does not fit
  lda s_flags,x
  bpl :+
  jmp search_eval      ; in check: the evaluation
: lda s_alpha_lo,x     ; else alpha
  sta rv
  lda s_alpha_hi,x
  sta rv+1
  rts
generated:
  ldx eng_ply
  lda ms_top
  sta ply_first+1,x
  lda ply_first,x
  sta s_cur,x
  lda s_flags,x
  and #S_F_CHECK
  sta s_flags,x        ; no legal move yet
  lda gen_bi           ; no PV move: the first pick is the generator's
  sta pick_best        ; (score_moves' answer without one; evasion lists:
                       ; the quiet moves keyed later, if reached)
  NEXT_PICK picked, $40
  ldx eng_ply
  lda s_flags,x
  bmi make             ; in check: no delta pruning
  ; delta pruning: stand + DELTA_MARGIN + material[victim] <= alpha: skip
  ldx ms_to,y
  lda board,x
  tax
  ldy code_kind-CODE_BASE,x   ; Y = the victim's kind
.if ::QS_EXCHANGE
  sty victim_kind
.endif
  ldx eng_ply
  clc
  lda material_value_lo,y
  adc s_delta_lo,x
  sta reach
  lda material_value_hi,y
  adc s_delta_hi,x
  sta reach+1
  ldy s_cur,x
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, reach, reach+1
.if ::QS_EXCHANGE
  bmi exchange         ; alpha < stand + gain
.else
  bmi make             ; alpha < stand + gain: search it
.endif
  jmp next
.if ::QS_EXCHANGE
exchange:              ; Y = the move's index
  ; exchange pruning (reference _losing_exchange): a capturer worth at
  ; least qs_exchange more than its victim, whose target the opponent
  ; could move to once `from` is empty: skip
  ldx ms_from,y
  stx cap_from
  lda board,x
  sta cap_code
  tax
  lda code_kind-CODE_BASE,x
  asl a
  asl a
  asl a
  ora victim_kind
  tax                  ; X = capturer kind * 8 + victim kind
  lda exchange_prune,x
  beq make             ; the gap is below qs_exchange: search it
  lda ms_to,y
  tay
  ldx cap_from
  lda #SQ_EMPTY
  sta board,x          ; `from` emptied
  lda eng_side
  eor #1
  jsr eng_attacked     ; C = 1: the opponent could move to `to`
  ldx cap_from
  lda cap_code
  sta board,x          ; `from` back (C kept)
  ldx eng_ply
  ldy s_cur,x
  bcc make
  jmp next             ; pruned
.endif
abort:                 ; the node cap (COUNT_NODE)
  lda #1
  sta s_abort
  jsr eng_unmake_q
  RV_ZERO
  rts
make:
  tya
  tax
  jsr eng_make_q_check ; (no key, no clock: nothing here reads them); A = $FF
                       ; illegal, else eng_chk: 1 in check
  bpl legal
  jsr eng_unmake_q
  jmp next
legal:
  ldx eng_ply
  lda s_flags-1,x
  ora #1
  sta s_flags-1,x
  COUNT_NODE abort
  lda eng_chk
  lsr a                ; C = in check (eng_legal_check, before the count)
  lda #0
  ror a                ; C -> bit 7: S_F_CHECK
  sta s_flags,x
  lda s_alpha_lo-2,x   ; child alpha = -beta = alpha of the grandparent
  sta s_alpha_lo,x
  lda s_alpha_hi-2,x
  sta s_alpha_hi,x
  jsr q_node
  NEG_RV
  jsr eng_unmake_q
  lda s_abort
  beq :+
  RV_ZERO
  rts
: ldx eng_ply
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
  bpl to_next          ; v <= alpha
  RV_LT_BETA_P
  bmi raise
  RV_BETA_P
  rts
raise:
  lda rv
  sta s_alpha_lo,x
  lda rv+1
  sta s_alpha_hi,x
to_next:
  jmp next
loop_end:
  lda s_flags,x
  bpl :+               ; not in check: alpha
  and #1
  bne :+
  txa                  ; in check with no legal move: -MATE + ply
  RV_MATED
  rts
: lda s_alpha_lo,x
  sta rv
  lda s_alpha_hi,x
  sta rv+1
  rts
.endproc
q_node_entered = q_node::entered
