; eng_search.s: the search's entry point, eng_search: the root's legal
; moves, iterative deepening and the result (reference_py/search.py,
; Searcher.run).
;
; The search mirrors Searcher in every detail: fail-hard negamax with PVS,
; null move, LMR, futility, quiescence with stand pat, delta and exchange
; pruning and evasions, the 8-bit ordering keys and selection picking,
; killers, the 3 x 90 history table, PV following, node counting and the
; node cap, draw rules and mate scores.  Equality of move, score, node count
; and PV with the reference is tested by emu_tests/test_romsearch_*.py.
;
; The search's files, by role:
;   eng_search.s          the entry: root moves, iterative deepening, result
;   eng_search_node.s     ab_node, a node of the main search, and its child
;                         searches (windows, LMR's test, the PV)
;   eng_search_prune.s    prune_setup: reverse futility and the futility
;                         threshold of a main-search node
;   eng_search_quiesce.s  q_node, a node of the quiescence search
;   eng_search_order.s    move ordering: keys, picks, killers and history
;   eng_search_draw.s     the draw rules and the repetition ring's check bits
;   eng_search_eval.s     the leaf evaluation with the level's noise (LFSR)
;   search.inc            sizes, s_flags bits, the locals routines pass
;                         between them, the routines the files share
;   search_macros.inc     the macros the files share
; RAM: ram.s ("search" blocks).
;
; Recursion: ab_node and q_node call themselves with JSR (2 bytes of stack
; per ply); everything else a node keeps lives in the per-ply arrays
; (s_alpha_lo/hi, s_cur, s_flags, s_depth/s_best or s_delta_lo/hi), indexed
; by the ply = eng_ply (a null move counts as a ply: undo_from = 0 marks it).
;
; Windows: every child is searched with beta = -(the parent's alpha), so a
; node's beta is never stored: beta(ply) = -s_alpha(ply - 1), beta(0) = INF.
;
; Move stack: ply_first[p] is where the list of the node at ply p starts
; (each node sets ms_top to it before it generates, or calls draw_score),
; ply_first[p + 1] where it ends.
;
; Repetition: rep_key_lo/hi[0..s_rep_top] are the keys of the positions
; (the game's last <= GAME_WINDOW positions, then the search path; the
; current position last), bit 7 (REP_CHECK) of rep_info[i] says whether the
; side to move was in check there, bits 0-6 the destination (0-89) of the
; move that led there (the chase judgement's record; the search pushes its
; moves' destinations too).
;
; Locals: the bytes that carry a value from one routine to another (rv,
; eval_t, the picks' and the keys' bytes) are named in search.inc with
; their contract; every other local is named inside its .proc.

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

; The shared locals the host reads and writes around single routines
; (tools/nes/search.py, emu_tests/test_romsearch_*.py).
.export rv, eval_t, pick_best, pv_move_from, pv_move_to

.assert SEARCH_PLIES <= MAX_PLY, error, "per-ply arrays larger than MAX_PLY"
.assert SEARCH_PLIES <= ENG_PLIES, error, "the search makes moves past the undo entries"
.assert SEARCH_REACH <= SEARCH_PLIES || SEARCH_PLIES = MAX_PLY, error, "ply_first / the per-ply arrays miss the leaves' plies"
.assert REP_RING_ENTRIES >= GAME_WINDOW + SEARCH_MAX_DEPTH, error, "the repetition ring misses the search path"
.assert SEARCH_REACH <= MAX_PLY, error, "a node deeper than the reference's per-ply arrays (MAX_PLY)"

.segment "ENGINE_CODE"

;;
; Searches the position for the side to move (reference Searcher.run()).
; Input:
;   the position, loaded with eng_load (or reached by eng_make from one);
;   rep_key_lo/hi[0..s_rep_top] and rep_info: the keys, in-check bits and
;     destinations of the last <= GAME_WINDOW positions of the game, the
;     current one last (index s_rep_top);
;   A = level index (0 = weakest, < LEVEL_COUNT);
;   s_lfsr = seed (16-bit; 0 means LFSR_DEFAULT).
; Output:
;   s_res_pvlen = 0: no legal move (score -MATE_SCORE, nodes 0, depth 0);
;   else the move s_res_from[0] -> s_res_to[0], the PV s_res_from/to[0..
;   s_res_pvlen-1], s_res_score (signed 16-bit), s_res_depth (the last
;   completed iteration), s_nodes (16-bit).  An iteration stopped by the
;   node cap answers when it has searched a root move in full: its best
;   move so far, that move's score and PV (s_res_depth stays the last
;   completed iteration's); otherwise the last completed iteration does.
;   The position is rebuilt in canonical slot order and valued with the
;   level's weight set (eng_vset); otherwise unchanged (eng_ply = 0).
;   s_ahead bit 7 = the root's static evaluation (eng_eval) is above 0
;     (set after the book; draw_score reads it);
;   s_level = the row searched: the level, or its bare row (lvl_bare) when
;   the level has one and the side to move has no rook, horse, cannon or
;   pawn (after the book: the book uses the level's own row).
;   s_cap = the node cap searched to (set_node_cap).
; Progress: s_nodes counts up while it runs (read it from the NMI).
; Uses local+0..15 and the stack: 2 bytes per main-search ply (the JSR to
;   ab_node: the children's windows are inline) and 2 per quiescence ply,
;   plus the leaf's calls; the lowest S after a JSR, PHA or PHP over the 65
;   positions of bench/endgames.yaml with the bare side to move at Master
;   (its bare row: depth 8 + qdepth 2) is $DD, entered at $FD (tools/nes).
; Clobbers A, X, Y.
; Cycles: per node on average, by level: bench/results/SUMMARY.md
;   (bench/rom_search_bench.py).
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
  sta s_res_book
  sta ply_first
  ldx #KILLER_BYTES - 1
: sta s_killers,x
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
  sta s_root_moves     ; the legal root moves, counted
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
  lda s_root_moves
  bne :+
  ldx s_cur            ; the first legal move: the result so far
  lda ms_from,x
  sta s_res_from
  lda ms_to,x
  sta s_res_to
  lda #1
  sta s_res_pvlen
: inc s_root_moves
next_root:
  inc s_cur
  bne root_moves
counted:
  lda s_root_moves
  bne have_moves
  lda #<(-MATE_SCORE)  ; no legal move: lost
  sta s_res_score
  lda #>(-MATE_SCORE)
  sta s_res_score+1
  rts
have_moves:
  ; the opening book: a legal book move is the answer (score, nodes, depth 0)
  ldx s_level
  lda lvl_book,x
  beq no_book
  jsr book_probe       ; C = 1: A = from, X = to; s_res_book = opening + 1
  bcc no_book
  jsr root_legal       ; the move among the legal root moves?
  bcc no_book_move
  rts
no_book_move:
  lda #0               ; a key that collided: no book move (the LFSR stepped)
  sta s_res_book
no_book:
  ; a bare side to move: the level's bare row (its depth, qdepth, nodes)
  ldx s_level
  ldy lvl_bare,x
  cpy #$FF
  beq :+               ; the level has none
  jsr stm_bare
  bcc :+
  sty s_level          ; the search reads the row's limits from here on
: jsr set_node_cap     ; s_cap: the row's cap, or the level's sparse one
  jsr eng_eval         ; X:A = the root's static evaluation (local+0 = A)
  ldy #0               ; s_ahead = $80 when it is above 0 (reference root_ahead)
  txa
  bmi :+
  ora local+0
  beq :+
  ldy #$80
: sty s_ahead
  lda s_root_moves
  cmp #1
  beq :+
  lda #0
: sta s_single         ; nonzero only for exactly one legal move
  lda #0
  sta s_depth          ; s_depth[0] = iteration depth
iteration:
  inc s_depth
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
  lda s_pvlen          ; stopped by the node cap: a root move searched in
  beq done             ; full (row 0 not empty) answers, with its score
  lda s_alpha_lo       ; (the root's alpha) and line; the depth stays the
  sta rv               ; last completed iteration's
  lda s_alpha_hi
  sta rv+1
  dec s_depth
  jmp store_result
completed:
  jsr store_result
  lda s_single
  bne done
  ; a mate score (|v| > MATE_BOUND) no further than the depth, MATE - |v|
  ; plies (< 100: its low byte), stops the search
  SLT16 #<MATE_BOUND, #>MATE_BOUND, rv, rv+1
  bpl not_winning
  lda #<MATE_SCORE     ; v = MATE - d
  sec
  sbc rv
  jmp mate_distance
not_winning:
  SLT16 rv, rv+1, #<(-MATE_BOUND), #>(-MATE_BOUND)
  bpl deeper
  lda #<MATE_SCORE     ; v = -MATE + d
  clc
  adc rv
mate_distance:         ; A = d
  cmp s_depth
  bcc done
  beq done
deeper:
.if ::NEXT_ITERATION
  jsr next_fits        ; C = 0: the next iteration would not finish under the cap
  bcc done
.endif
  ldx s_level
  lda s_depth
  cmp lvl_depth,x
  bcs done
  jmp iteration
done:
  rts
.endproc

.if ::NEXT_ITERATION
;;
; Whether eng_search starts its next iteration (reference: pruning
; next_iteration): only while s_nodes * NEXT_ITERATION is below the cap
; (s_cap); a bare row (lvl_bare's, after the levels' rows) always
; goes on (the bare side's deeper search).
; Input: s_level, s_nodes, s_cap.  Output: C = 1: start it; C = 0: stop.
; Uses local+0..2.  Clobbers A, X, Y.
; Cycles: about 30 * NEXT_ITERATION + 40, once per completed iteration.
.proc next_fits
  ldx s_level
  cpx #LEVEL_COUNT
  bcs yes              ; a bare row (C = 1)
  lda #0
  sta local+0          ; local+0..2 = s_nodes * NEXT_ITERATION (24 bits)
  sta local+1
  sta local+2
  ldy #NEXT_ITERATION
times:
  clc
  lda local+0
  adc s_nodes
  sta local+0
  lda local+1
  adc s_nodes+1
  sta local+1
  bcc no_carry
  inc local+2
no_carry:
  dey
  bne times
  lda local+2
  bne no               ; at least 65,536: past every cap
  lda local+0
  cmp s_cap
  lda local+1
  sbc s_cap+1
  bcc yes              ; below the cap (C = 0 here: make it 1)
no:
  clc
  rts
yes:
  sec
  rts
.endproc
.endif

;;
; The search's result from an iteration (eng_search): score rv, depth
; s_depth, the PV from row 0 of the PV table.
; Input: rv, s_depth, s_pvlen / pv_from / pv_to (row 0).
; Output: s_res_score, s_res_depth, s_res_pvlen, s_res_from/to.
; Clobbers A, X.
.proc store_result
  lda rv
  sta s_res_score
  lda rv+1
  sta s_res_score+1
  lda s_depth
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
: rts
.endproc

;;
; The node cap of the search (reference Searcher.run(): the level's `nodes`,
; its `bare` block's, or its `sparse` block's): the cap of the row searched
; (lvl_nodes), but for a level's own row (not a bare row) with a sparse
; block (lvl_sparse, in the fixed bank) and at most that many pieces on the
; board, the block's cap (lvl_sparse_lo/hi).  COUNT_NODE, count_node and
; next_fits compare with s_cap.
; In the fixed bank (the engine's bank has no room left), beside its tables.
; Input: s_level (the row searched), counts.  Output: s_cap.
; Clobbers A, X, Y.
; Cycles: about 200 with the block, once per search.
.segment "CODE"
.proc set_node_cap
  ldx s_level
  lda lvl_nodes_lo,x
  sta s_cap
  lda lvl_nodes_hi,x
  sta s_cap+1
  cpx #LEVEL_COUNT
  bcs done             ; a bare row: its own cap
  lda lvl_sparse,x     ; the block's pieces + 1, 0: none
  beq done
  ldy #15              ; A = the pieces on the board: counts[1..15]
  lda #0               ; (counts[0] and counts[8], kind 0, are 0; at
  clc                  ; most 32 pieces: no carry)
: adc counts,y
  dey
  bne :-
  cmp lvl_sparse,x
  bcs done             ; more than the block's pieces
  lda lvl_sparse_lo,x
  sta s_cap
  lda lvl_sparse_hi,x
  sta s_cap+1
done:
  rts
.endproc
.segment "ENGINE_CODE"

;;
; Whether the side to move is bare: none of its rooks, horses, cannons or
; pawns is on the board (reference: endgame.bare_side is the side to move,
; or 2, both bare).
; Input: eng_side, counts.  Output: C = 1: bare; C = 0: not.
; Clobbers A, X.  Keeps Y.
; Cycles: 32 (bare) or 31, plus the JSR.
.proc stm_bare
  lda eng_side
  asl a
  asl a
  asl a
  tax                  ; side * 8
  lda counts+KIND_ROOK,x
  ora counts+KIND_HORSE,x
  ora counts+KIND_CANNON,x
  ora counts+KIND_PAWN,x
  beq :+
  clc                  ; one of them is on the board
  rts
: sec                  ; none
  rts
.endproc

;;
; Whether a move is among the legal moves of the root (eng_search's move
; list, ms_from/ms_to[0..ms_top-1]); if so it becomes the result: the PV of
; one move, s_res_pvlen = 1 (score, depth and nodes stay 0).
; Input: A = from, X = to (padded squares); the root's list; eng_ply = 0.
; Output: C = 1: legal (s_res_from/to, s_res_pvlen set); C = 0: not.
; Uses local+0..13 (eng_make / eng_is_legal).  Clobbers A, X, Y.
.proc root_legal
from = local+14
to   = local+15
  sta from
  stx to
  ldx #0
@scan:
  cpx ms_top
  bcs @no
  lda ms_from,x
  cmp from
  bne @next
  lda ms_to,x
  cmp to
  bne @next
  jsr eng_make         ; X = the index
  jsr eng_is_legal     ; C = 1: illegal
  php
  jsr eng_unmake
  plp
  bcs @no
  lda from
  sta s_res_from
  lda to
  sta s_res_to
  lda #1
  sta s_res_pvlen
  sec
  rts
@next:
  inx
  bne @scan            ; always (ms_top <= MOVE_STACK_ENTRIES)
@no:
  clc
  rts
.endproc
