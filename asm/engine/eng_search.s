; eng_search.s: iterative deepening alpha-beta (reference_py/search.py).
;
; Every detail mirrors Searcher: fail-hard negamax with PVS, null move,
; LMR, futility, quiescence with stand pat, delta and exchange pruning and
; evasions, the 8-bit ordering keys and selection picking, killers, the
; 3 x 90 history table, PV following, node counting and the node cap, draw
; rules and mate scores.
; Equality of move, score, node count and PV with the reference is tested by
; emu_tests/test_romsearch_*.py.
;
; Recursion: ab_node and q_node call themselves with JSR (2 bytes of stack
; per ply); everything else a node keeps lives in the per-ply arrays
; (search.inc), indexed by the ply = eng_ply (a null move counts as a ply:
; undo_from = 0 marks it).
;
; Windows: every child is searched with beta = -(the parent's alpha), so a
; node's beta is never stored: beta(ply) = -s_alpha(ply - 1), beta(0) = INF.
;
; Move stack: ply_first[p] is where the list of the node at ply p starts
; (each node resets ms_top to it on entry), ply_first[p + 1] where it ends.
;
; Repetition: rep_key_lo/hi[0..s_rep_top] are the keys of the positions
; (the game's last <= GAME_WINDOW positions, then the search path; the
; current position last), bit (i & 7) of rep_check[i >> 3] says whether the
; side to move was in check there.
;
; Locals: rv = local+14..15 carries a node's value (it survives make,
; unmake, eng_gen, eng_in_check, eng_gives_check, eng_quiet_safe and eng_eval,
; which use local+0..13).

.include "global.inc"
.include "eng.inc"
.include "search.inc"

rv   = local+14        ; 2 bytes: the value a node returns
; q_node's exchange test, around eng_attacked (which uses local+0..9)
xr   = local+0         ; the victim's kind (read during the delta test)
xf   = local+10        ; the capturer's `from` (kept across the call)
xc   = local+11        ; and its code
tb   = local+12        ; 2 bytes: a node's beta (recomputed after every call)
; key scoring and picking (between a node's calls; score_quiets calls only
; key_setup)
pvf  = local+6         ; the PV move of this node (0 = none; score_moves)
pvt  = local+7
kf1  = local+8         ; killer 1 / killer 2 of this ply (0 = none)
kt1  = local+9
kf2  = local+10
kt2  = local+11
kmode = local+5        ; score_quiets: bit 7 killers used, bit 6 history used
hp   = local+2         ; 2 bytes: history row pointer (score_quiets)
bi   = local+0         ; pick: best index
bk   = local+1         ; pick: best key (score_moves, score_quiets: best key + 1)

; the layout inside killers / pv_table, for the host (tools/nes/search.py)
.export s_flags, s_level, s_abort, s_single, s_qstart, s_rep_top
.export pv_from, pv_to, s_pvlen, s_res_from, s_res_to, s_res_pvlen, s_res_depth, s_res_score

.assert PV_AREA_END <= pv_table + 42, error, "the PV and result do not fit pv_table"
.assert KILLER_AREA_END <= killers + 32, error, "killers, flags and scalars do not fit the killers area"
.assert SEARCH_PLIES <= MAX_PLY, error, "per-ply arrays larger than MAX_PLY"
.assert SEARCH_PLIES <= ENG_PLIES, error, "the search makes moves past the undo entries"
.assert SEARCH_REACH <= SEARCH_PLIES || SEARCH_PLIES = MAX_PLY, error, "ply_first / the per-ply arrays miss the leaves' plies"
.assert REP_RING_ENTRIES >= GAME_WINDOW + SEARCH_MAX_DEPTH, error, "the repetition ring misses the search path"
.assert SEARCH_MAX_DEPTH < MAX_PLY, error, "ab_node enters q_node past its MAX_PLY test"

;; N = 1 when the signed 16-bit a < b (a, b: any operands of lda/cmp/sbc).
.macro SLT16 al, ah, bl, bh
  .local done
  lda al
  cmp bl
  lda ah
  sbc bh
  bvc done
  eor #$80
done:
.endmacro

;; rv = -rv
.macro NEG_RV
  sec
  lda #0
  sbc rv
  sta rv
  lda #0
  sbc rv+1
  sta rv+1
.endmacro

;; Falls through when the node at ply X >= 1 has a null window (beta -
;; alpha = 1: the 16-bit alpha + alpha(X - 1) is $FFFF) and |beta| <
;; MATE_BOUND (-MATE_BOUND < alpha(X - 1) < MATE_BOUND), else branches to
;; `no` (reverse futility and the null move).  tmp: a scratch byte.
;; Clobbers A.
.macro NULL_WINDOW_BOUNDED tmp, no
  clc
  lda s_alpha_lo,x
  adc s_alpha_lo-1,x
  sta tmp
  lda s_alpha_hi,x
  adc s_alpha_hi-1,x
  and tmp
  cmp #$FF
  bne no
  SLT16 {s_alpha_lo-1,x}, {s_alpha_hi-1,x}, #<MATE_BOUND, #>MATE_BOUND
  bpl no
  SLT16 #<(-MATE_BOUND), #>(-MATE_BOUND), {s_alpha_lo-1,x}, {s_alpha_hi-1,x}
  bpl no
.endmacro

;; dst (2 bytes) = beta of the node at ply X >= 1: -alpha(X - 1).
;; Clobbers A.
.macro BETA_P dst
  sec
  lda #0
  sbc s_alpha_lo-1,x
  sta dst
  lda #0
  sbc s_alpha_hi-1,x
  sta dst+1
.endmacro

;; tb = beta of the node at ply X >= 1.  Clobbers A.
.macro LOAD_BETA_P
  BETA_P tb
.endmacro

;; tb = beta of the node at ply X (INF at ply 0, else -alpha(X - 1)).
;; Clobbers A.
.macro LOAD_BETA
  .local root, done
  cpx #0
  beq root
  LOAD_BETA_P
  jmp done
root:
  lda #<INF_SCORE
  sta tb
  lda #>INF_SCORE
  sta tb+1
done:
.endmacro

;; N = 1 when rv < beta of the node at ply X >= 1 (beta = -alpha(X - 1)):
;; the sign of the 17-bit rv + alpha(X - 1).  Clobbers A.
.macro RV_LT_BETA_P
  .local done
  clc
  lda rv
  adc s_alpha_lo-1,x
  lda rv+1
  adc s_alpha_hi-1,x
  bvc done
  eor #$80
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

;; rv = beta of the node at ply X >= 1 (-alpha(X - 1)).  Clobbers A.
.macro RV_BETA_P
  BETA_P rv
.endmacro

;; Counts a node inline (reference _count_node): jumps to `abort` (which
;; sets s_abort) when the count reaches the level's cap.  The count rises by one from 0 and the
;; search stops at the cap (>= 1, reference_py/config.py), so reaching it
;; is equality.  Clobbers A, Y.
.macro COUNT_NODE abort
  .local done
  inc s_nodes
  bne :+
  inc s_nodes+1
: ldy s_level
  lda s_nodes
  cmp lvl_nodes_lo,y
  bne done
  lda s_nodes+1
  cmp lvl_nodes_hi,y
  beq abort
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

;; child_null's body: the child (ply X + 1) gets depth A and the null
;; window (-alpha - 1, -alpha), its alpha being ~alpha(X).
.macro CHILD_NULL_WINDOW
  sta s_u0+1,x
  lda s_alpha_lo,x
  eor #$FF             ; -alpha - 1 = ~alpha
  sta s_alpha_lo+1,x
  lda s_alpha_hi,x
  eor #$FF
  sta s_alpha_hi+1,x
.endmacro

;; child_go's body: the child's flags from the move's (gives check -> in
;; check, continues the PV -> on the PV), the search, rv = minus its value.
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

;; rv = 0
.macro RV_ZERO
  lda #0
  sta rv
  sta rv+1
.endmacro

;; The selection scan of pick and of NEXT_PICK's inline copy: with Y = i and
;; the sentinel key $FF at entry pk_end, bi = the first entry of i..end-1
;; with the highest key, A = that key (Y kept).  The previous pick's key
;; ms_key[i - 1] bounds every key left, so the first entry that reaches it
;; ends the scan.  Falls through to `done`, or branches there.
.macro PICK_SCAN done
  .local loop, higher
  lda ms_key-1,y       ; the bound
  sta pk_u
  sty bi
  tya
  tax
  lda ms_key,y         ; A = the best key so far
  cmp pk_u
  beq done
loop:
  .repeat 4
  inx
  cmp ms_key,x
  bcc higher
  .endrepeat
  bcs loop             ; always
higher:
  cpx pk_end
  bcs done             ; the sentinel
  lda ms_key,x
  stx bi
  cmp pk_u
  bne loop
.endmacro

;; The move loop's head, shared by ab_node and q_node: the first pass takes
;; the pick score_moves already found and lands at `first`; later passes (at
;; `next`: the next entry) pick the highest key left and land at `picked`;
;; both with Y = the move-stack index.  Jumps to `loop_end` (X = eng_ply)
;; when the node's list is exhausted.  Defines the labels to_loop_end, next
;; and picked in the calling .proc.  inline = 1: pick's scan is inline
;; (ab_node; the same steps as pick, see there), with pick itself only for a
;; list that ends at MOVE_STACK_ENTRIES.  mode = score_quiets' A: $C0 in
;; the main search (killers and history), $40 in quiescence (history).
;; Lazy quiet keys (reference _pick_lazy): when the best key left is below
;; KEY_CAPTURE (bit 7 clear: no capture and no PV move is left, only quiet
;; moves at key 0) and the quiet moves are not keyed yet, score_quiets keys
;; them and finds the best.  "Not keyed yet" needs no RAM: it is the first
;; pick, or the previous pick (pk_u, the scan's bound) was a capture or the
;; PV move (bit 7 set); once the quiet moves are keyed every pick is quiet.
.macro NEXT_PICK first, inline, mode
  .local full, lazy, keyed, first_keyed
  ldx eng_ply
  lda s_cur,x
  cmp ply_first+1,x
  bcs to_loop_end
  tay
  ldx bi               ; score_moves found the first pick
  lda ms_key,x
  bmi first_keyed      ; a capture or the PV move
  lda #mode            ; only quiet moves: key them now
  jsr score_quiets
  ldx bi
first_keyed:           ; X = bi, A = its key
  cpy bi
  beq :+
  jsr pick_swap
: jmp first
to_loop_end:
  jmp loop_end
.if inline
full:
  jsr pick
  jmp lazy
.endif
next:
  ldx eng_ply
  ldy s_cur,x
  iny
  sty s_cur,x
  tya
  cmp ply_first+1,x
  bcs to_loop_end
.if inline
  lda ply_first+1,x
  sta pk_end
  cmp #MOVE_STACK_ENTRIES
  bcs full
  tax
  lda #$FF
  sta ms_key,x         ; the sentinel
  PICK_SCAN lazy
.else
  jsr pick
.endif
lazy:                  ; A = the best key, Y = i (kept by the scan)
  cmp #KEY_CAPTURE
  bcs keyed            ; a capture (the PV move is always the first pick)
  bit pk_u
  bpl keyed            ; the previous pick was quiet: the quiet moves are keyed
  lda #mode
  jsr score_quiets
keyed:                 ; A = the best key
  cpy bi
  beq picked
  ldx bi
  jsr pick_swap
picked:
.endmacro

.segment "RODATA"
; start of PV row p in pv_from / pv_to
pv_row:
  .repeat SEARCH_MAX_DEPTH + 1, p
  .byte p * SEARCH_MAX_DEPTH - p * (p - 1) / 2
  .endrepeat
bit_mask:
  .byte $01, $02, $04, $08, $10, $20, $40, $80
; entry i of the repetition ring: its rep_check byte (i >> 3) and bit mask
rep_byte:
  .repeat REP_RING_ENTRIES, i
  .byte i >> 3
  .endrepeat
rep_mask:
  .repeat REP_RING_ENTRIES, i
  .byte 1 << (i & 7)
  .endrepeat
; history row per piece kind: rook 0, cannon 90, the others 180
hist_row_lo:
  .byte <(history+180), <(history+180), <(history+180), <(history+180)
  .byte <(history+180), <(history+0), <(history+90), <(history+180)
hist_row_hi:
  .byte >(history+180), >(history+180), >(history+180), >(history+180)
  .byte >(history+180), >(history+0), >(history+90), >(history+180)

.segment "CODE"

;;
; Searches the position for the side to move (reference Searcher.run()).
; Input:
;   the position, loaded with eng_load (or reached by eng_make from one);
;   rep_key_lo/hi[0..s_rep_top] and rep_check: the keys and in-check bits of
;     the last <= GAME_WINDOW positions of the game, the current one last
;     (index s_rep_top);
;   A = level index (0 = weakest, < LEVEL_COUNT);
;   s_lfsr = seed (16-bit; 0 means LFSR_DEFAULT).
; Output:
;   s_res_pvlen = 0: no legal move (score -MATE_SCORE, nodes 0, depth 0);
;   else the move s_res_from[0] -> s_res_to[0], the PV s_res_from/to[0..
;   s_res_pvlen-1], s_res_score (signed 16-bit), s_res_depth (the last
;   completed iteration), s_nodes (16-bit).
;   The position is rebuilt in canonical slot order and valued with the
;   level's weight set (eng_vset); otherwise unchanged (eng_ply = 0).
; Progress: s_nodes counts up while it runs (read it from the NMI).
; Uses local+0..15 and the stack: 4 bytes per main-search ply, 2 per
;   quiescence ply, 36 bytes at most measured at the strongest level
;   (including the caller's return address; the lowest S after a JSR, PHA
;   or PHP over the 12 suite positions at Master is $DB, entered at $FD).
; Clobbers A, X, Y.
; Cycles: 3,000-3,700 per node on average by level (bench/rom_search_bench.py,
;   results in bench/results/rom_search_bench.md).
.proc eng_search
  sta s_level
  tax
  lda lvl_eval,x
  sta eng_vset
  jsr eng_rebuild      ; canonical slots, score for the level's set; eng_ply = ms_top = 0
  lda s_lfsr
  ora s_lfsr+1
  bne :+
  lda #<LFSR_DEFAULT
  sta s_lfsr
  lda #>LFSR_DEFAULT
  sta s_lfsr+1
: lda #0
  sta s_nodes
  sta s_nodes+1
  sta s_abort
  sta s_res_pvlen
  sta s_res_depth
  sta s_res_score
  sta s_res_score+1
  sta ply_first
  ldx #KILLER_BYTES - 1
: sta killers,x
  dex
  bpl :-
  ldx #HISTORY_SIZE / 2
: sta history-1,x
  sta history+HISTORY_SIZE/2-1,x
  dex
  bne :-
  ; the legal root moves: count them, remember the first
  jsr eng_gen
  lda #0
  sta s_single         ; legal moves counted here (then: single?)
  sta s_cur
root_moves:
  ldx s_cur
  cpx ms_top
  bcs counted
  jsr eng_make
  jsr eng_is_legal
  php
  jsr eng_unmake
  plp
  bcs next_root
  lda s_single
  bne :+
  ldx s_cur            ; the first legal move: the result so far
  lda ms_from,x
  sta s_res_from
  lda ms_to,x
  sta s_res_to
  lda #1
  sta s_res_pvlen
: inc s_single
next_root:
  inc s_cur
  bne root_moves
counted:
  lda s_single
  bne have_moves
  lda #<(-MATE_SCORE)  ; no legal move: lost
  sta s_res_score
  lda #>(-MATE_SCORE)
  sta s_res_score+1
  rts
have_moves:
  cmp #1
  beq :+
  lda #0
: sta s_single         ; nonzero only for exactly one legal move
  lda #0
  sta s_u0             ; s_u0[0] = iteration depth
iteration:
  inc s_u0
  lda #<(-INF_SCORE)
  sta s_alpha_lo
  lda #>(-INF_SCORE)
  sta s_alpha_hi
  ldy s_rep_top        ; the root's in-check bit
  jsr rep_check_bit
  beq :+
  lda #S_F_CHECK
: ora #S_F_PV
  sta s_flags
  lda #0
  sta ply_first
  jsr ab_node
  lda s_abort
  beq completed
  lda s_u0             ; stopped by the node cap
  cmp #1
  bne done
  lda s_pvlen          ; iteration 1: the best root move so far, if any
  beq done
  lda pv_from
  sta s_res_from
  lda pv_to
  sta s_res_to
  lda #1
  sta s_res_pvlen
  lda #0
  sta s_res_depth
  sta s_res_score
  sta s_res_score+1
  rts
completed:
  lda rv
  sta s_res_score
  lda rv+1
  sta s_res_score+1
  lda s_u0
  sta s_res_depth
  ldx s_pvlen
  stx s_res_pvlen
: dex
  bmi :+
  lda pv_from,x        ; row 0 starts at 0
  sta s_res_from,x
  lda pv_to,x
  sta s_res_to,x
  jmp :-
: lda s_single
  bne done
  ; a mate score (|v| > MATE_BOUND) stops the search
  SLT16 #<MATE_BOUND, #>MATE_BOUND, rv, rv+1
  bmi done
  SLT16 rv, rv+1, #<(-MATE_BOUND), #>(-MATE_BOUND)
  bmi done
  ldx s_level
  lda s_u0
  cmp lvl_depth,x
  bcs done
  jmp iteration
done:
  rts
.endproc

;;
; Z = 0 when bit Y of rep_check is set.  Clobbers A, X.
.proc rep_check_bit
  tya
  and #7
  tax
  tya
  lsr a
  lsr a
  lsr a
  tay
  lda rep_check,y
  and bit_mask,x
  rts
.endproc

;;
; Counts a node (reference _count_node), for the null move (the move loops
; use COUNT_NODE inline).  Output: C = 1 when the node cap is reached
; (s_abort set).  Clobbers A, X.
.proc count_node
  inc s_nodes
  bne :+
  inc s_nodes+1
: ldx s_level
  lda s_nodes
  cmp lvl_nodes_lo,x
  lda s_nodes+1
  sbc lvl_nodes_hi,x
  bcc :+
  lda #1
  sta s_abort
: rts
.endproc

;;
; One step of the 16-bit Galois LFSR (taps LFSR_TAPS).  Output: A = the
; new low byte.  Clobbers nothing else.
.proc lfsr_step
  lsr s_lfsr+1
  ror s_lfsr
  bcc :+
  lda s_lfsr+1
  eor #>LFSR_TAPS
  sta s_lfsr+1
  lda s_lfsr
  eor #<LFSR_TAPS
  sta s_lfsr
: lda s_lfsr
  rts
.endproc

;;
; The leaf evaluation with the level's noise (reference Searcher.eval):
; eng_eval, then when lvl_noise is a mask m != 0, one LFSR step and
; + (x & m) - (m + 1) / 2.  search_eval_ge with T = $7FFF (always exact).
; Output: rv (signed 16-bit), C = 1.  Uses local+0..15.  Clobbers A, X, Y.
.proc search_eval
  lda #$FF
  sta tb
  lda #$7F
  sta tb+1
  ; (falls into search_eval_ge)
.endproc

;;
; Is the leaf evaluation (search_eval's) at least T?  Without noise this
; is eng_eval_ge (lazy: it may settle e >= T without the exact value);
; with noise the exact evaluation plus the noise, compared with T (the
; LFSR steps once either way, as in the reference).
; Input: T in tb = local+12..13 (kept), s_level, s_lfsr, the position.
; Output: C = 1: rv = the value, below T; C = 0: the value is at least T
;   (rv undefined).  Uses local+0..15.  Clobbers A, X, Y.
; Cycles: 29 a call of its own on average at Master (bench.rom_profile),
;   plus eng_eval_ge; with noise and a set without knowledge terms
;   eng_eval_basic (35-37) and about 75 for the noise and the test.
.proc search_eval_ge
  ldy s_level
  lda lvl_noise,y
  bne noisy
  jsr eng_eval_ge
  sta rv
  stx rv+1
  rts
noisy:
  ldx eng_vset
  lda ev_knowledge,x
  bne keep_t
  jsr eng_eval_basic   ; no per-piece terms
  jmp noise
keep_t:
  lda tb               ; T in rv across eng_eval (it keeps local+14..15)
  sta rv
  lda tb+1
  sta rv+1
  jsr eng_eval
  ldy rv
  sty tb
  ldy rv+1
  sty tb+1
noise:
  sta rv
  stx rv+1
  ldy s_level
  jsr lfsr_step
  and lvl_noise,y
  sta local+0          ; x & m
  lda lvl_noise,y
  lsr a
  clc
  adc #1
  sta local+1          ; (m + 1) / 2 = (m >> 1) + 1 for m = 2^k - 1
  lda local+0
  sec
  sbc local+1          ; -128..127
  ldx #0
  cmp #$80
  bcc :+
  dex
: clc
  adc rv
  sta rv
  txa
  adc rv+1
  sta rv+1
  SLT16 rv, rv+1, tb, tb+1
  asl a                ; C = 1: rv < T
  rts
.endproc

;;
; The draw rules at a node with ply > 0 (reference _draw_score).
; Output: C = 1 and rv = the score when the node is a draw (or a
; perpetual check), else C = 0.  Uses local+0..7.  Clobbers A, X, Y.
; The repetition scan compares keys[n - k] with keys[n] for k = 4, 6, ..
; up to min(clock, n), walking Y = n - k down by 2 (about 21 cycles a step).
; Cycles: 34 per call on average (bench.rom_profile, Hard).
.proc draw_score
k    = local+0
n    = local+1
jj   = local+2
opp  = local+3         ; nonzero: the side that just moved checked on every move
stm  = local+4         ; nonzero: the side to move checked on every move
klo  = local+5         ; keys[n]
khi  = local+6
ylast = local+7        ; the last Y to compare (n - min(clock, n)) + 2
  lda eng_clock
  cmp #DRAW_PLIES
  bcc rep
  RV_ZERO
  sec
  rts
rep:                   ; A = clock
  ldx s_rep_top
  stx n
  cpx eng_clock
  bcs :+               ; n >= clock: the limit is clock
  txa                  ; else n
: cmp #4
  bcc none             ; no k to try
  sta ylast
  txa
  sec
  sbc ylast            ; n - limit
  adc #1               ; C = 1: + 2
  sta ylast
  lda rep_key_lo,x
  sta klo
  lda rep_key_hi,x
  sta khi
  txa
  sec
  sbc #4
  tay                  ; Y = n - 4
loop:
  lda rep_key_lo,y
  cmp klo
  beq maybe
next:
  cpy ylast
  bcc none             ; k + 2 > limit
  dey
  dey
  bcs loop             ; always (C = 1 from cpy)
none:
  clc
  rts
maybe:
  lda rep_key_hi,y
  cmp khi
  bne next
  sty k                ; k = n - Y
  lda n
  sec
  sbc k
  sta k
found:
  ; opp = all checks[n - j] for j = 0, 2, .., k - 2; stm for j = 1, 3, .., k - 1
  lda #1
  sta opp
  sta stm
  lda #0
  sta jj
walk:
  lda n
  sec
  sbc jj
  tay
  jsr rep_check_bit
  bne :+
  lda #0
  sta opp
: lda n
  sec
  sbc jj
  tay
  dey
  jsr rep_check_bit
  bne :+
  lda #0
  sta stm
: inc jj
  inc jj
  lda jj
  cmp k
  bcc walk
  RV_ZERO
  lda opp
  beq :+
  lda stm
  bne draw
  lda #<PERPETUAL_CHECK   ; the side that just moved checked throughout
  sta rv
  lda #>PERPETUAL_CHECK
  sta rv+1
  sec
  rts
: lda stm
  beq draw
  lda #<(-PERPETUAL_CHECK)
  sta rv
  lda #>(-PERPETUAL_CHECK)
  sta rv+1
draw:
  sec
  rts
.endproc

;; The key loop of score_quiets for one side (sq90tab = sq90_red or
;; sq90_black): every entry from X up to the sentinel from square $FF is a
;; quiet move.  Two copies of the per-move body: the fast one (at `same`)
;; serves pieces whose from square is not a killer's (so the key is the
;; history key) while history is on; the general one (at `s_same`) serves
;; every other piece with the reference's order of tests (killer 1, killer
;; 2, history or 0).  Each copy has its own head for a new from square
;; (`new_piece` while history is on, `s_new_piece` while it is off): the
;; fast head tests the from square against kf1 and kf2 (0 when unused:
;; never a square) before it looks the mover's history row up; the general
;; copy returns to the head of the mode.  bk holds the best key + 1 (keys
;; here are at most 127), so one `cmp bk / bcc` keeps the first best entry.
.macro QUIET_LIST sq90tab
  .local new_piece, to_slow, scored, same, store, next, s_same
  .local s_killer2, s_hist, s_zero, s_store, s_next, s_new_piece, s_piece, s_scored
  lda ms_from,x
  bit kmode
  bvs new_piece
  jmp s_new_piece
new_piece:             ; A = the from square of entry X, a new piece
  cmp #$FF
  beq scored           ; the sentinel: the list is keyed
  sta lastf
  cmp kf1
  beq to_slow
  cmp kf2
  beq to_slow
  tay
  lda board,y
  tay
  lda code_kind-CODE_BASE,y
  tay
  lda hist_row_lo,y
  sta hp
  lda hist_row_hi,y
  sta hp+1
  ; ---- fast copy: history keys
same:
  ldy ms_to,x
  lda sq90tab,y        ; history[class(mover)][sq90(to, side)] >> 1, at most 125
  tay
  lda (hp),y
  lsr a
  cmp #KEY_KILLER2 - 1
  bcc store
  lda #KEY_KILLER2 - 1
store:
  sta ms_key,x
  cmp bk               ; higher than the best so far
  bcc next
  adc #0               ; C = 1: key + 1
  sta bk
  stx bi
next:
  inx
  lda ms_from,x
  cmp lastf
  beq same
  jmp new_piece
to_slow:               ; A = lastf
  jmp s_piece
scored:
  rts
  ; ---- general copy (reference _quiet_key order: killers, history)
s_piece:               ; A = lastf
  tay
  lda board,y
  tay
  lda code_kind-CODE_BASE,y
  tay
  lda hist_row_lo,y
  sta hp
  lda hist_row_hi,y
  sta hp+1
s_same:
  ldy ms_to,x
  bit kmode
  bpl s_hist
  lda lastf
  cmp kf1
  bne s_killer2
  cpy kt1
  bne s_killer2
  lda #KEY_KILLER1
  bne s_store          ; always
s_killer2:             ; A = lastf
  cmp kf2
  bne s_hist
  cpy kt2
  bne s_hist
  lda #KEY_KILLER2
  bne s_store          ; always
s_hist:
  bit kmode
  bvc s_zero
  lda sq90tab,y
  tay
  lda (hp),y
  lsr a
  cmp #KEY_KILLER2 - 1
  bcc s_store
  lda #KEY_KILLER2 - 1
  bne s_store          ; always
s_zero:
  lda #0
s_store:
  sta ms_key,x
  cmp bk
  bcc s_next
  adc #0               ; C = 1: key + 1
  sta bk
  stx bi
s_next:
  inx
  lda ms_from,x
  cmp lastf
  beq s_same
  bit kmode
  bvc s_new_piece
  jmp new_piece
s_new_piece:           ; A = the from square of entry X, a new piece
  cmp #$FF
  beq s_scored
  sta lastf
  jmp s_piece
s_scored:
  rts
.endmacro

.assert KEY_KILLER1 < KEY_CAPTURE, error, "quiet keys must stay below every capture key (bit 7 clear)"
.assert KEY_CAPTURE = $80, error, "NEXT_PICK and score_moves tell captures from quiet keys by bit 7"

;;
; The keys of a new list, entries ply_first[X] .. ply_first[X+1]-1
; (reference _gen_key): 255 for the PV move (pvf/pvt; pvf = 0: none),
; MVV-LVA for captures (138..207, mvv_lva), and KEY_QUIET = 0 for every
; quiet move: score_quiets keys those only when a pick first finds no
; capture and no PV move left (NEXT_PICK).  Also the first entry with the
; highest key (bi): the first pick (the list's first entry when it has no
; capture and no PV move).
; eng_gen / eng_gen_captures write the quiet and capture keys as they push
; the moves and leave the first entry with the highest of them in gen_bi
; (asm/eng_movegen.s); here only the PV move (only at nodes on the previous
; PV) is looked for.  Must follow the list's generation (only pvf/pvt may
; be written in between).
; Input: X = ply, pvf/pvt, gen_bi.  Output: bi.
; Uses local+0, 13.  Clobbers A, X, Y.
; Cycles: 15 without a PV move; at a PV node about 30 plus 18 per entry up
;   to the PV move.
.proc score_moves
gen_bi = local+9       ; eng_gen's best capture (asm/eng_movegen.s)
sm_end = local+13      ; the list's end
  lda gen_bi
  sta bi
  lda pvf
  beq done
  ldy ply_first+1,x
  sty sm_end
  lda ply_first,x
  tax
  cpx sm_end
  bcs done             ; an empty list
pv_loop:
  lda ms_from,x
  cmp pvf
  bne pv_next
  lda ms_to,x
  cmp pvt
  beq pv_found
pv_next:
  inx
  cpx sm_end
  bcc pv_loop
done:
  rts
pv_found:
  lda #KEY_PV
  sta ms_key,x
  stx bi               ; $FF: no other key is as high
  rts
.endproc

;;
; Keys the quiet moves left in the list of ply eng_ply, entries Y..end-1
; (reference _pick_lazy, called when a pick finds no capture and no PV move
; left, the first time): killer 1 / killer 2 of this ply (127 / 126, only
; with A bit 7: the main search), else min(history >> 1, 125) (when the
; level uses history), else 0; the killers and the history table as they
; are now, after the subtrees of the moves already tried.  Every entry from
; Y on is a quiet move with key 0 (score_moves).  Picks swap only captures
; and the PV move in front of them, so the moves of one piece are mostly
; still consecutive: the mover's history row and whether it can make a
; killer are found once per run (QUIET_LIST).  The list ends at a sentinel
; from square $FF written at entry end (when end = MOVE_STACK_ENTRIES, the
; byte after ms_from, ms_to[0], is saved and restored: no list that ends
; there starts at entry 0).
; Input: Y = i, A = $C0 (ab_node: killers and history) or $40 (q_node:
;   history only).
; Output: bi = the first entry of i..end-1 with the highest key, A = its
;   key, Y = i.
; Uses local+0..13.  Clobbers X.
; Cycles: about 48 per move in the fast copy, about 45 more per run of one
;   piece, more for a piece that can make a killer; about 110 per call
;   besides (key_setup); 1,364 per call on average, at 18% of the lists
;   (bench.rom_profile, Master, 3 positions).
.proc score_quiets
first = local+4        ; entry i
lastf = local+13       ; the square of the piece whose moves are being keyed
  sty first
  sty bi
  ldx eng_ply
  jsr key_setup        ; kmode, kf1..kt2
  lda kmode
  beq done             ; no killers, no history: every key stays 0
  ldx eng_ply
  ldy ply_first+1,x
  cpy #MOVE_STACK_ENTRIES
  bcc fits
  lda ms_from+MOVE_STACK_ENTRIES   ; ms_from[end] is not ours: keep it
  pha
  lda #$FF
  sta ms_from+MOVE_STACK_ENTRIES
  jsr list
  pla
  sta ms_from+MOVE_STACK_ENTRIES
  jmp done
fits:
  lda #$FF
  sta ms_from,y        ; the sentinel
  jsr list
done:
  ldy first
  ldx bi
  lda ms_key,x
  rts
list:
  lda #1
  sta bk               ; best key 0 (+ 1): entry i so far
  ldx first            ; X = the entry being keyed
  lda eng_side
  beq red
  jmp black
red:
  QUIET_LIST sq90_red
black:
  QUIET_LIST sq90_black
.endproc

pk_tmp = local+2       ; pick, pick_swap
pk_end = local+4       ; pick: the end of the list
pk_u   = local+5       ; pick: the bound (the previous pick's key)

;;
; The selection scan of a later pick (reference _scan): the first entry of
; Y..end-1 with the highest key.  Input: Y = i > the list's first entry
; (the first pick is score_moves'), X = ply.
; Output: bi, A = its key, pk_u = the previous pick's key, Y = i; NEXT_PICK
; then keys the quiet moves if needed and swaps entry bi into entry i.
; Uses local+0..5.  Clobbers X.
; The key of entry i - 1 (the previous pick) bounds every key left, so the
; scan stops at the first entry that reaches it; otherwise it runs up to
; the sentinel key $FF written at entry end (no other key is $FF: only the
; PV move's, which the first pick took; a key reaching $FF stops at the
; bound anyway).  About 9 cycles per entry scanned (4 per unrolled pass),
; about 40 per call besides.
; ab_node has an inline copy of the scan (NEXT_PICK ..., 1) and calls pick
; only for a list that ends at MOVE_STACK_ENTRIES; q_node calls it always.
; When end = MOVE_STACK_ENTRIES the byte after ms_key is saved and restored
; around the scan (3 more bytes of stack).
.proc pick
  lda ply_first+1,x
  sta pk_end
  cmp #MOVE_STACK_ENTRIES
  bcs full
  tax
  lda #$FF
  sta ms_key,x         ; the sentinel
scan:
  PICK_SCAN scanned
scanned:               ; A = the best key
  rts
full:                  ; ms_key[end] is not ours: keep it
  lda ms_key+MOVE_STACK_ENTRIES
  pha
  lda #$FF
  sta ms_key+MOVE_STACK_ENTRIES
  jsr scan
  tax                  ; the best key
  pla
  sta ms_key+MOVE_STACK_ENTRIES
  txa
  rts
.endproc

;;
; Swaps entry X (key A) into entry Y (the selection step's swap).  Keeps
; X, Y.  Clobbers A.
.proc pick_swap
  sta bk
  lda ms_from,y
  sta pk_tmp
  lda ms_from,x
  sta ms_from,y
  lda pk_tmp
  sta ms_from,x
  lda ms_to,y
  sta pk_tmp
  lda ms_to,x
  sta ms_to,y
  lda pk_tmp
  sta ms_to,x
  lda ms_key,y
  sta ms_key,x
  lda bk
  sta ms_key,y
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
  lda s_u0,x
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

;;
; Searches the child of ply X (the move is made: eng_ply = X + 1) to depth
; A with the full window (-beta, -alpha); rv = minus its value.
.proc child_full
  sta s_u0+1,x
  cpx #0
  bne :+
  lda #<(-INF_SCORE)   ; -beta = -INF at the root
  sta s_alpha_lo+1,x
  lda #>(-INF_SCORE)
  sta s_alpha_hi+1,x
  jmp child_go
: lda s_alpha_lo-1,x   ; -beta = alpha of the grandparent
  sta s_alpha_lo+1,x
  lda s_alpha_hi-1,x
  sta s_alpha_hi+1,x
  jmp child_go
.endproc

;;
; As child_full with the null window (-alpha - 1, -alpha).  ab_node's first
; null-window search of a move (at pvs_go) is an inline copy of child_null
; and child_go (the re-search after LMR calls this one).
.proc child_null
  CHILD_NULL_WINDOW
  ; fall through
.endproc

;;
; The common tail of child_full / child_null: the child's flags from the
; move's (gives check -> in check, continues the PV -> on the PV).
.proc child_go
  CHILD_SEARCH
  rts
.endproc

;;
; pv[X] = [move Y] + pv[X + 1] (reference self.pv[ply] = [m] + self.pv[ply + 1]).
; Uses local+0..3.  Keeps X.
.proc pv_update
dst = local+0
src = local+1
cnt = local+2
  lda pv_row,x
  sta dst
  lda pv_row+1,x
  sta src
  lda s_pvlen+1,x
  sta cnt
  clc
  adc #1
  sta s_pvlen,x
  stx local+3
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
  ldx local+3
  rts
.endproc

;;
; Rewards the quiet move Y at ply X (reference _reward): with C = 1 it
; becomes killer 1 (the old killer 1 becomes killer 2 unless it is the same
; move); then the history bonus for the node's depth, halving the whole
; table first when the entry would pass 255.  Uses local+0..5.  Keeps X.
.proc reward
rk = local+0
ri = local+1
rp = local+4           ; (hp = local+2..3)
rb = local+5
  lda #0
  rol a
  sta rk
  sty ri
  stx rp
  ldy s_level
  lda lvl_flags,y
  and #LEVEL_FLAG_KILLERS
  beq hist
  lda rk
  beq hist
  txa
  asl a
  asl a
  tax
  ldy ri
  lda ms_from,y
  cmp killers,x
  bne shift
  lda ms_to,y
  cmp killers+1,x
  beq hist
shift:
  lda killers,x
  sta killers+2,x
  lda killers+1,x
  sta killers+3,x
  lda ms_from,y
  sta killers,x
  lda ms_to,y
  sta killers+1,x
hist:
  ldy s_level
  lda lvl_flags,y
  and #LEVEL_FLAG_HISTORY
  beq done
  ldy ri
  ldx ms_from,y
  lda board,x
  tax
  lda code_kind-CODE_BASE,x
  tax
  lda hist_row_lo,x
  sta hp
  lda hist_row_hi,x
  sta hp+1
  ldx ms_to,y
  lda eng_side
  beq red
  lda sq90_black,x
  jmp got
red:
  lda sq90_red,x
got:
  tay                  ; Y = sq90(to, mover)
  ldx rp
  lda s_u0,x           ; depth, at most 8 counts
  cmp #8
  bcc :+
  lda #8
: tax
  lda history_bonus-1,x
  sta rb
  clc
  adc (hp),y
  bcc add
  ldx #HISTORY_SIZE / 2   ; aging: halve every entry
: lsr history-1,x
  lsr history+HISTORY_SIZE/2-1,x
  dex
  bne :-
add:
  lda (hp),y
  clc
  adc rb
  sta (hp),y
done:
  ldx rp
  rts
.endproc

;;
; The key mode and the killers of ply X into kmode, kf1..kt2, for
; score_quiets.  A = $C0 (the main search: killers and history) or $40
; (quiescence: history only); the level's flags clear the bits it does not
; use.  Without killers (bit 7 clear, or ply >= SEARCH_MAX_DEPTH) kf1..kt2
; = 0: QUIET_LIST's fast head tests kf1 and kf2 without looking at kmode,
; and 0 is never a from square.  Keeps X.  Clobbers A, Y.
.proc key_setup
  sta kmode
  ldy s_level
  lda lvl_flags,y
  and #LEVEL_FLAG_HISTORY
  bne :+
  lda kmode
  and #$BF
  sta kmode
: lda lvl_flags,y
  and #LEVEL_FLAG_KILLERS
  beq killers_off
  bit kmode
  bpl no_killers       ; quiescence
  cpx #SEARCH_MAX_DEPTH
  bcs no_killers
  txa
  asl a
  asl a
  tay
  lda killers,y
  sta kf1
  lda killers+1,y
  sta kt1
  lda killers+2,y
  sta kf2
  lda killers+3,y
  sta kt2
  rts
killers_off:
  lda kmode
  and #$7F
  sta kmode
no_killers:            ; kf1 = kf2 = 0: never a from square (QUIET_LIST)
  lda #0
  sta kf1
  sta kt1
  sta kf2
  sta kt2
  rts
.endproc

PRUNE_ANY = FUT_MARGIN1 | FUT_MARGIN2 | RFP_DEPTH
.assert RFP_DEPTH <= 2, error, "prune_setup evaluates only at depth <= 2"
; s_fut_hi values that are no threshold (ab_node's futility test): $7FFF is
; "no futility at this node"; FUT_ON_HI marks a node whose quiet moves are
; known to be futile.  A threshold (|static| < 4,000, docs/ENGINE.md
; "Evaluation", plus a margin) never has either high byte.
FUT_OFF_HI = $7F
FUT_ON_HI  = $80
.assert FUT_MARGIN1 < $6000 && FUT_MARGIN2 < $6000, error, "a futility threshold could reach the high byte FUT_OFF_HI"

.segment "RODATA"
; futility margin and reverse-futility margin x depth, for depth 1 and 2
fut_margin_lo:  .byte <FUT_MARGIN1, <FUT_MARGIN2
fut_margin_hi:  .byte >FUT_MARGIN1, >FUT_MARGIN2
rfp_margin_lo:  .byte <RFP_MARGIN, <(2 * RFP_MARGIN)
rfp_margin_hi:  .byte >RFP_MARGIN, >(2 * RFP_MARGIN)
.segment "CODE"

;;
; Forward pruning at a node of the main search, before its null move
; (reference _alphabeta: `static`, reverse futility, `fmargin`).  At ply > 0,
; not in check, depth <= 2 it takes the static eval (no noise) and
;   reverse futility (depth <= RFP_DEPTH, null window, |beta| < MATE_BOUND):
;     static - RFP_MARGIN * depth >= beta: the node returns beta;
;   futility threshold: s_fut[ply] = static + the depth's margin (0: off).
; Reverse futility asks eng_eval_ge whether static >= T = beta + RFP_MARGIN
; * depth (lazy: a lower bound may settle it without the exact static);
; without it T = $7FFF, which no evaluation reaches.
; Every other node, and a margin of 0, gets s_fut[ply] = $7FFF, above any
; alpha (|alpha| <= INF_SCORE), so ab_node's `s_fut <= alpha` test fails.
; Input: X = eng_ply, s_u0,x = depth >= 1, s_flags,x, s_alpha.
; Output: C = 1: cut, rv = beta; C = 0: go on.  X = eng_ply.
; Uses local+0..13 (eng_eval_ge).  Clobbers A, Y.
; Cycles: 39 when it does not apply; 179 a call of its own on average
;   (bench.rom_profile --level Master --positions 4 --skip 2; 207 when it
;   called eng_eval and tested reverse futility itself), plus eng_eval_ge.
.proc prune_setup
st = local+0           ; the null-window test's scratch (before eng_eval_ge)
  lda #$FF
  sta s_fut_lo,x
  sta tb               ; T = $7FFF: no reverse futility
  lda #FUT_OFF_HI      ; $7FFF: no futility
  sta s_fut_hi,x
  sta tb+1
  cpx #0
  beq off              ; the root
  lda s_flags,x
  bmi off              ; in check
  lda s_u0,x
  cmp #3
  bcc eval             ; depth <= 2
off:
  clc
  rts
eval:
.if ::RFP_DEPTH
  .assert MATE_BOUND + RFP_MARGIN * RFP_DEPTH <= $7FFF, error, "prune_setup's T = beta + RFP_MARGIN * depth must fit 16 bits"
  ldy s_u0,x
  cpy #RFP_DEPTH + 1
  bcs go
  NULL_WINDOW_BOUNDED st, go
  sec                  ; T = beta + margin * depth = margin - alpha(ply - 1)
  lda rfp_margin_lo-1,y
  sbc s_alpha_lo-1,x
  sta tb
  lda rfp_margin_hi-1,y
  sbc s_alpha_hi-1,x
  sta tb+1
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
  ldy s_u0,x
  lda fut_margin_lo-1,y
  ora fut_margin_hi-1,y
  beq none             ; no futility at this depth
  clc
  lda rv
  adc fut_margin_lo-1,y
  sta s_fut_lo,x
  lda rv+1
  adc fut_margin_hi-1,y
  sta s_fut_hi,x
none:
  clc
  rts
.endproc

;;
; One node of the main search (reference _alphabeta) at ply = eng_ply.
; Input: s_u0 = depth, s_alpha = alpha, s_flags = S_F_CHECK / S_F_PV of
;   this ply; beta = -s_alpha of the ply before (INF at ply 0).
; Output: rv = the value (fail-hard), 0 once the search is aborted.
; Uses local+0..15 and the per-ply arrays.  Clobbers A, X, Y.
; At depth 0 it enters q_node past q_node's qply / MAX_PLY tests.
; Cycles: about 445 per call of its own (bench.rom_profile, Hard, 2
; positions), the callees apart.
.proc ab_node
  ldx eng_ply
  lda ply_first,x
  sta ms_top
  lda #0
  sta s_pvlen,x        ; pv[ply] = []
  cpx #0
  beq no_draw
  jsr draw_score
  bcc no_draw
  rts
no_draw:
  ldx eng_ply
  lda s_u0,x
  bne main_search
  stx s_qstart         ; depth 0: quiescence at this ply (qply 0)
  ldy s_level
  lda lvl_qdepth,y
  bne :+
  jmp search_eval      ; qdepth 0: a leaf
: jmp q_node_entered   ; ply <= SEARCH_MAX_DEPTH < MAX_PLY
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
  lda s_u0,x
  cmp #NULL_MIN_DEPTH
  bcc no_null_j
  NULL_WINDOW_BOUNDED tb, no_null_j
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
  lda s_u0,x           ; child: depth - 1 - R, window (-beta, -beta + 1)
  sec
  sbc #1 + NULL_REDUCTION
  sta s_u0+1,x
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
: LOAD_BETA
  SLT16 rv, rv+1, tb, tb+1
  bmi no_null          ; v < beta
  lda tb
  sta rv
  lda tb+1
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
generated:
  ldx eng_ply
  lda ms_top
  sta ply_first+1,x
  lda ply_first,x
  sta s_cur,x
  lda #0
  sta s_u1,x           ; no best move yet
  sta pvf
  sta pvt
  lda s_flags,x
  and #S_F_CHECK | S_F_PV
  sta s_flags,x        ; legal = 0
  and #S_F_PV
  beq :+
  lda s_res_depth      ; a completed iteration has left its PV
  beq :+
  cpx s_res_pvlen
  bcs :+
  lda s_res_from,x
  sta pvf
  lda s_res_to,x
  sta pvt
: jsr score_moves      ; PV and captures (the quiet moves later, if reached)
  ; ---- the moves
  NEXT_PICK first, 1, $C0
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
  ; Alpha only rises in the move loop, so once both hold they hold for the
  ; rest of the node: the first time, s_fut_hi becomes FUT_ON_HI (s_fut is
  ; then below every alpha, which keeps the test's meaning) and the later
  ; quiet moves test one byte.  FUT_OFF_HI ($7FFF: no futility) is as
  ; quick.  A threshold's high byte is neither (|static + margin| < $1000).
  lda s_fut_hi,x
  cmp #FUT_OFF_HI
  beq make             ; no futility at this node
  cmp #FUT_ON_HI
  beq futile           ; decided earlier in this node
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, {s_fut_lo,x}, {s_fut_hi,x}
  bmi make             ; alpha < static + margin
  SLT16 #<(-MATE_BOUND), #>(-MATE_BOUND), {s_alpha_lo,x}, {s_alpha_hi,x}
  bpl make             ; alpha <= -MATE_BOUND
  lda #FUT_ON_HI
  sta s_fut_hi,x
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
  jsr eng_make
  jsr eng_is_legal
  bcs unmake_next
  ldx eng_ply
  COUNT_LEGAL {s_flags-1,x}
  jsr eng_gives_check
  bcc unmake_next      ; no check: pruned
  ldx eng_ply
  lda s_flags-1,x
  ora #S_F_CCHECK
  sta s_flags-1,x
  jmp count
.endif
make:
  tya
  tax
  jsr eng_make
  jsr eng_is_legal
  bcc legal
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
legal:
  ldx eng_ply
  COUNT_LEGAL {s_flags-1,x}
  jsr eng_gives_check  ; = eng_in_check(eng_side), from `from` and `to`
  ldx eng_ply
  bcc count            ; (futility was decided before the make: fut_make)
  lda s_flags-1,x
  ora #S_F_CCHECK
  sta s_flags-1,x
count:
  COUNT_NODE abort
  ; push_history (reference): s_rep_top + 1, its key, and whether the
  ; move gives check as its in-check bit
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
  lda rep_mask,y
  ldx rep_byte,y
  bcs :+
  eor #$FF
  and rep_check,x
  bcc :++              ; always
: ora rep_check,x
: sta rep_check,x
  ldx eng_ply
  dex
  lda s_flags,x
  and #S_F_LEGAL
  cmp #1
  bne pvs
  lda s_u0,x           ; the first legal move: full window
  sec
  sbc #1
  jsr child_full
  jmp searched
searched_low:          ; v <= alpha, not aborted
  dec s_rep_top        ; pop_history
  jsr eng_unmake
  jmp next
pvs:                   ; depth - 1 - r, null window (lmr_r inline)
  cpx #0
  beq pvs_full         ; never reduced at the root
  lda s_u0,x
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
  lda s_u0,x           ; reduced: depth - 2
  sbc #2               ; C = 1 from cmp
  jmp pvs_go
pvs_full:
  lda s_u0,x
  sec
  sbc #1
pvs_go:                ; child_null and child_go inline
  CHILD_NULL_WINDOW
  CHILD_SEARCH
  ldx eng_ply
  dex
  lda s_abort
  bne searched
  ; both re-searches need v > alpha
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
  bpl searched_low     ; v <= alpha
  jsr lmr_r
  beq no_re
  lda s_u0,x           ; reduced: again at depth - 1
  sec
  sbc #1
  jsr child_null
  ldx eng_ply
  dex
  lda s_abort
  bne searched
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, rv, rv+1
  bmi no_re
  jmp searched_low     ; v <= alpha
no_re:                 ; alpha < v
  RV_LT_BETA
  bpl searched         ; v >= beta
  lda s_u0,x
  sec
  sbc #1
  jsr child_full
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
: LOAD_BETA
  lda tb
  sta rv
  lda tb+1
  sta rv+1
  rts
to_next:
  jmp next
raise:
  lda rv
  sta s_alpha_lo,x
  lda rv+1
  sta s_alpha_hi,x
  ldy s_cur,x
  iny
  tya
  sta s_u1,x           ; best = this move (index + 1)
  dey
  jsr pv_update
  jmp next
loop_end:
  lda s_flags,x
  and #S_F_LEGAL
  bne some
  txa                  ; no legal move: -MATE + ply
  clc
  adc #<(-MATE_SCORE)
  sta rv
  lda #>(-MATE_SCORE)
  adc #0
  sta rv+1
  rts
some:
  ldy s_u1,x
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
; One node of the quiescence search (reference _quiesce) at ply = eng_ply
; >= 1, qply = eng_ply - s_qstart.  Input: s_alpha, s_flags (S_F_CHECK) of
; this ply; beta = -s_alpha of the ply before.  Output: rv.
; Uses local+0..15 and the per-ply arrays (s_u0/s_u1 = the stand-pat score
; + DELTA_MARGIN, for delta pruning).  Clobbers A, X, Y.
; Stand pat asks search_eval_ge whether stand >= beta (lazy evaluation: a
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
  ldx eng_ply
  lda ply_first,x
  sta ms_top
  txa
  sec
  sbc s_qstart
  ldy s_level
  cmp lvl_qdepth,y
.if ::SEARCH_REACH > ::MAX_PLY
  bcs leaf
  cpx #MAX_PLY         ; the reference's cut-off: only when a level's depth
  bcc entered          ; + qdepth exceeds MAX_PLY
leaf:
  jmp search_eval
.else
  bcc entered          ; qply < qdepth: ply < depth + qdepth <= SEARCH_REACH
  jmp search_eval      ; <= MAX_PLY, so the reference's ply >= MAX_PLY
.endif                 ; cut-off never applies here
entered:               ; from ab_node: X = eng_ply, ms_top set, qply 0 < qdepth
  lda s_flags,x
  bmi generate         ; in check: no stand pat
  LOAD_BETA_P          ; tb = beta
  jsr search_eval_ge   ; C = 0: stand >= beta (maybe settled by a bound)
  ldx eng_ply
  bcs :+               ; stand < beta, in rv
  lda tb               ; beta (tb is kept)
  sta rv
  lda tb+1
  sta rv+1
  rts
: clc                  ; stand + DELTA_MARGIN, for delta pruning
  lda rv
  adc #<DELTA_MARGIN
  sta s_u0,x
  lda rv+1
  adc #>DELTA_MARGIN
  sta s_u1,x
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
  lda #0
  sta pvf              ; no PV move (pvt is not read when pvf = 0)
  jsr score_moves      ; captures (evasion lists: the quiet moves later, if reached)
  NEXT_PICK picked, 0, $40
  ldx eng_ply
  lda s_flags,x
  bmi make             ; in check: no delta pruning
  ; delta pruning: stand + DELTA_MARGIN + material[victim] <= alpha: skip
  ldx ms_to,y
  lda board,x
  tax
  ldy code_kind-CODE_BASE,x   ; Y = the victim's kind
.if ::QS_EXCHANGE
  sty xr
.endif
  ldx eng_ply
  clc
  lda material_value_lo,y
  adc s_u0,x
  sta tb
  lda material_value_hi,y
  adc s_u1,x
  sta tb+1
  ldy s_cur,x
  SLT16 {s_alpha_lo,x}, {s_alpha_hi,x}, tb, tb+1
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
  stx xf
  lda board,x
  sta xc
  tax
  lda code_kind-CODE_BASE,x
  asl a
  asl a
  asl a
  ora xr
  tax                  ; X = capturer kind * 8 + victim kind
  lda exchange_prune,x
  beq make             ; the gap is below qs_exchange: search it
  lda ms_to,y
  tay
  ldx xf
  lda #SQ_EMPTY
  sta board,x          ; `from` emptied
  lda eng_side
  eor #1
  jsr eng_attacked     ; C = 1: the opponent could move to `to`
  ldx xf
  lda xc
  sta board,x          ; `from` back (C kept)
  ldx eng_ply
  ldy s_cur,x
  bcc make
  jmp next             ; pruned
.endif
abort:                 ; the node cap (COUNT_NODE)
  lda #1
  sta s_abort
  jsr eng_unmake
  RV_ZERO
  rts
make:
  tya
  tax
  jsr eng_make
  jsr eng_is_legal
  bcc legal
  jsr eng_unmake
  jmp next
legal:
  ldx eng_ply
  lda s_flags-1,x
  ora #1
  sta s_flags-1,x
  COUNT_NODE abort
  jsr eng_gives_check  ; = eng_in_check(eng_side), from `from` and `to`
  lda #0
  ror a                ; C -> bit 7: S_F_CHECK
  ldx eng_ply
  sta s_flags,x
  lda s_alpha_lo-2,x   ; child alpha = -beta = alpha of the grandparent
  sta s_alpha_lo,x
  lda s_alpha_hi-2,x
  sta s_alpha_hi,x
  jsr q_node
  NEG_RV
  jsr eng_unmake
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
  clc
  adc #<(-MATE_SCORE)
  sta rv
  lda #>(-MATE_SCORE)
  adc #0
  sta rv+1
  rts
: lda s_alpha_lo,x
  sta rv
  lda s_alpha_hi,x
  sta rv+1
  rts
.endproc
q_node_entered = q_node::entered

