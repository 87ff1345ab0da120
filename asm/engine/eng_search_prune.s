; eng_search_prune.s: forward pruning at a main-search node before its null
; move (prune_setup, reference _alphabeta: `static`, reverse futility,
; `fmargin`): reverse futility's cut-off and the futility threshold s_fut
; that ab_node's move loop tests (PRUNE_ANY, FUT_OFF_HI and FUT_ON_HI are
; in search.inc).

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

.assert RFP_DEPTH <= 2, error, "prune_setup evaluates only at depth <= 2"
.assert FUT_MARGIN1 < $6000 && FUT_MARGIN2 < $6000, error, "a futility threshold could reach the high byte FUT_OFF_HI"

.segment "ENGINE_DATA"
; futility margin and reverse-futility margin x depth, for depth 1 and 2
fut_margin_lo:  .byte <FUT_MARGIN1, <FUT_MARGIN2
fut_margin_hi:  .byte >FUT_MARGIN1, >FUT_MARGIN2
rfp_margin_lo:  .byte <RFP_MARGIN, <(2 * RFP_MARGIN)
rfp_margin_hi:  .byte >RFP_MARGIN, >(2 * RFP_MARGIN)

.segment "ENGINE_CODE"

;;
; Forward pruning at a node of the main search, before its null move
; (reference _alphabeta: `static`, reverse futility, `fmargin`).  At ply > 0,
; not in check, depth <= 2 it takes the static eval (no noise) and
;   reverse futility (depth <= RFP_DEPTH, null window, |beta| < MATE_BOUND):
;     static - RFP_MARGIN * depth >= beta: the node returns beta;
;   futility threshold: s_fut = static + the depth's margin (0: off),
;     s_fut_hi = FUT_ON_HI at once when s_fut <= alpha > -MATE_BOUND
;     (FUT_UPDATE).
; Reverse futility asks eng_eval_ge whether static >= T = beta + RFP_MARGIN
; * depth (lazy: a lower bound may settle it without the exact static);
; without it T = $7FFF, which no evaluation reaches.
; Every other node, and a margin of 0, gets s_fut_hi[ply] = FUT_OFF_HI: no
; futility (ab_node reads s_fut_lo only below another high byte).
; s_fut_hi is indexed by the ply, so that ab_node's move loop tests it with
; X = ply and keeps Y; s_fut_lo, read once per node at most, by depth - 1
; (two bytes, not one per ply): depth falls at every ply of the path, so the
; one node at depth d on the path owns entry d - 1.
; Input: X = eng_ply, s_depth,x = depth >= 1, s_flags,x, s_alpha.
; Output: C = 1: cut, rv = beta; C = 0: go on.  X = eng_ply.
; Uses local+0..13 (eng_eval_ge).  Clobbers A, Y.
; Cycles (with the RTS): 24 at depth > 2, 28 at the root, 33 in check;
;   when it evaluates, the setup of T plus eng_eval_ge.
.proc prune_setup
window_sum = local+0   ; NULL_WINDOW_BOUNDED's scratch (before eng_eval_ge)
  lda #FUT_OFF_HI      ; no futility (unless `fut` sets a threshold)
  sta s_fut_hi,x
  ldy s_depth,x
  cpy #FUT_PLIES + 1
  bcs off              ; depth > 2: no pruning
  cpx #0
  beq off              ; the root
  lda s_flags,x
  bpl eval             ; not in check
off:
  clc
  rts
.if ::RFP_DEPTH
no_rfp:
.else
eval:
.endif
  lda #$FF             ; T = $7FFF: no reverse futility
  sta eval_t
  lda #$7F
  sta eval_t+1
.if ::RFP_DEPTH
  jmp go
eval:                  ; Y = depth
  .assert MATE_BOUND + RFP_MARGIN * RFP_DEPTH <= $7FFF, error, "prune_setup's T = beta + RFP_MARGIN * depth must fit 16 bits"
  cpy #RFP_DEPTH + 1
  bcs no_rfp
  NULL_WINDOW_BOUNDED window_sum, no_rfp
  sec                  ; T = beta + margin * depth = margin - alpha(ply - 1)
  lda rfp_margin_lo-1,y
  sbc s_alpha_lo-1,x
  sta eval_t
  lda rfp_margin_hi-1,y
  sbc s_alpha_hi-1,x
  sta eval_t+1
go:
.endif
  jsr eng_eval_ge
  sta rv               ; rv = static (when C = 1)
  stx rv+1
  ldx eng_ply
  bcs fut
  RV_BETA_P            ; static - margin * depth >= beta: the node returns beta
  sec
  rts
fut:
  ldy s_depth,x
  lda fut_margin_lo-1,y
  ora fut_margin_hi-1,y
  beq none             ; no futility at this depth
  clc
  lda rv
  adc fut_margin_lo-1,y
  sta s_fut_lo-1,y
  lda rv+1
  adc fut_margin_hi-1,y
  sta s_fut_hi,x
  FUT_UPDATE           ; futile already at this alpha?
none:
  clc
  rts
.endproc
