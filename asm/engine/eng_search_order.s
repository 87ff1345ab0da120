; eng_search_order.s: move ordering (docs/ENGINE.md "Move ordering keys"):
; the keys of a new list (score_moves: the PV move; the generators key the
; captures as they push), the lazy keys of the quiet moves (score_quiets:
; killers and history, set up by key_setup), the selection pick (pick; the
; nodes' NEXT_PICK has an inline copy of its scan, and the swap) and a
; quiet move's reward after a cut-off or as the best move (reward: killers
; and history).

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

;; The key loop of score_quiets for one side (sq90tab = sq90_red or
;; sq90_black): every entry from X up to the sentinel from square $FF is a
;; quiet move.  Two copies of the per-move body: the fast one (at `same`)
;; serves pieces whose from square is not a killer's (so the key is the
;; history key) while history is on; the general one (at `s_same`) serves
;; every other piece with the reference's order of tests (killer 1, killer
;; 2, history or 0).  Each copy has its own head for a new from square
;; (`new_piece` while history is on, `s_new_piece` while it is off): the
;; fast head tests the from square against killer1_from and killer2_from
;; (0 when unused: never a square) before it looks the mover's history row
;; up; the general copy returns to the head of the mode.  best_key1 holds
;; the best key + 1 (keys here are at most 127), so one `cmp best_key1 /
;; bcc` keeps the first best entry.  Names score_quiets' locals.
.macro QUIET_LIST sq90tab
  .local new_piece, to_slow, scored, same, store, next, clamp, better, s_same
  .local s_killer2, s_hist, s_zero, s_store, s_next, s_new_piece, s_piece, s_scored
  lda ms_from,x
  bit key_mode
  bvs new_piece
  jmp s_new_piece
new_piece:             ; A = the from square of entry X, a new piece
  cmp #$FF
  beq scored           ; the sentinel: the list is keyed
  sta lastf
  cmp killer1_from
  beq to_slow
  cmp killer2_from
  beq to_slow
  tay
  lda board,y
  tay
  lda hist_code_lo-CODE_BASE,y
  sta hist_row         ; (hist_row+1 = >history: score_quiets)
  ; ---- fast copy: history keys (the rare cases, a clamped key and a new
  ; best, branch out of the loop: its common path takes no branch)
same:
  ldy ms_to,x
  lda sq90tab,y        ; history[class(mover)][sq90(to, side)] >> 1, at most 125
  tay
  lda (hist_row),y
  lsr a
  cmp #KEY_KILLER2 - 1
  bcs clamp
store:
  sta ms_key,x
  cmp best_key1        ; higher than the best so far
  bcs better
next:
  inx
  lda ms_from,x
  cmp lastf
  beq same
  jmp new_piece
clamp:
  lda #KEY_KILLER2 - 1
  bne store            ; always
better:                ; C = 1
  adc #0               ; key + 1 (at most 126: C = 0)
  sta best_key1
  stx pick_best
  bcc next             ; always
to_slow:               ; A = lastf
  jmp s_piece
scored:
  rts
  ; ---- general copy (reference _quiet_key order: killers, history)
s_piece:               ; A = lastf
  tay
  lda board,y
  tay
  lda hist_code_lo-CODE_BASE,y
  sta hist_row
s_same:
  ldy ms_to,x
  bit key_mode
  bpl s_hist
  lda lastf
  cmp killer1_from
  bne s_killer2
  cpy killer1_to
  bne s_killer2
  lda #KEY_KILLER1
  bne s_store          ; always
s_killer2:             ; A = lastf
  cmp killer2_from
  bne s_hist
  cpy killer2_to
  bne s_hist
  lda #KEY_KILLER2
  bne s_store          ; always
s_hist:
  bit key_mode
  bvc s_zero
  lda sq90tab,y
  tay
  lda (hist_row),y
  lsr a
  cmp #KEY_KILLER2 - 1
  bcc s_store
  lda #KEY_KILLER2 - 1
  bne s_store          ; always
s_zero:
  lda #0
s_store:
  sta ms_key,x
  cmp best_key1
  bcc s_next
  adc #0               ; C = 1: key + 1
  sta best_key1
  stx pick_best
s_next:
  inx
  lda ms_from,x
  cmp lastf
  beq s_same
  bit key_mode
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

.segment "ENGINE_DATA"
; The history row of a piece by its code (the square's content, $10-$2F:
; hist_code_lo-CODE_BASE,y), its pointer's low byte: rook 0, cannon 90, the
; others 180 (the kind is a constant of the slot, as code_kind's).  The
; three rows start in one page (asm/ram.s), so the high byte is always
; >history.  The 16 bytes before the table and the table lie in one page,
; so an indexed read costs 4 cycles.
.macro HIST_ROWS part
  .repeat 2
  .repeat SLOTS_KING + SLOTS_ADVISOR + SLOTS_ELEPHANT + SLOTS_HORSE
  .byte part(history+180)
  .endrepeat
  .repeat SLOTS_ROOK
  .byte part(history+0)
  .endrepeat
  .repeat SLOTS_CANNON
  .byte part(history+90)
  .endrepeat
  .repeat SLOTS_PAWN
  .byte part(history+180)
  .endrepeat
  .endrepeat
.endmacro
.assert SLOT_HORSE + SLOTS_HORSE = SLOT_ROOK && SLOT_ROOK + SLOTS_ROOK = SLOT_CANNON && SLOT_CANNON + SLOTS_CANNON = SLOT_PAWN, error, "hist_code_lo/hi assume the slots in kind order"
  .align 128            ; (with the 16 bytes below: 48 bytes never cross a page)
  .res CODE_BASE, 0     ; hist_code_lo-CODE_BASE .. hist_code_lo+31 in one page
hist_code_lo:
  HIST_ROWS <
hist_code_end:
.assert hist_code_end - hist_code_lo = 32, error, "hist_code_lo: 32 codes"
.assert >(hist_code_lo - CODE_BASE) = >(hist_code_end - 1), error, "hist_code_lo-CODE_BASE .. hist_code_lo+31 must lie in one page"

.segment "ENGINE_CODE"

;;
; The keys of a new list, entries ply_first[X] .. ply_first[X+1]-1
; (reference _gen_key): 255 for the PV move (pv_move_from / pv_move_to;
; pv_move_from = 0: none), MVV-LVA for captures (138..207, mvv_lva), and
; KEY_QUIET = 0 for every quiet move: score_quiets keys those only when a
; pick first finds no capture and no PV move left (NEXT_PICK).  Also the
; first entry with the highest key (pick_best): the first pick (the list's
; first entry when it has no capture and no PV move).
; eng_gen / eng_gen_captures write the quiet and capture keys as they push
; the moves and leave the first entry with the highest of them in gen_bi
; (eng_movegen.s); here only the PV move (only at nodes on the previous
; PV) is looked for.  Must follow the list's generation (only pv_move_from
; / pv_move_to may be written in between).
; Without a PV move it only copies gen_bi to pick_best, which ab_node (off
; the PV) and q_node do themselves without calling it.
; Input: X = ply, pv_move_from / pv_move_to, gen_bi.  Output: pick_best.
; Uses local+0, 13.  Clobbers A, X, Y.
; Cycles: 15 without a PV move; at a PV node about 30 plus 18 per entry up
;   to the PV move.
.proc score_moves
list_end = local+13    ; the list's end
  lda gen_bi
  sta pick_best
  lda pv_move_from
  beq done
  ldy ply_first+1,x
  sty list_end
  lda ply_first,x
  tax
  cpx list_end
  bcs done             ; an empty list
pv_loop:
  lda ms_from,x
  cmp pv_move_from
  bne pv_next
  lda ms_to,x
  cmp pv_move_to
  beq pv_found
pv_next:
  inx
  cpx list_end
  bcc pv_loop
done:
  rts
pv_found:
  lda #KEY_PV
  sta ms_key,x
  stx pick_best        ; $FF: no other key is as high
  rts
.endproc

;;
; The selection scan of a later pick (reference _scan): the first entry of
; Y..end-1 with the highest key.  Input: Y = i > the list's first entry
; (the first pick is score_moves'), X = ply.
; Output: pick_best, A = its key, pick_bound = the previous pick's key,
; Y = i; NEXT_PICK then keys the quiet moves if needed and swaps entry
; pick_best into entry i.
; Uses local+0..5.  Clobbers X.
; The key of entry i - 1 (the previous pick) bounds every key left, so the
; scan stops at the first entry that reaches it; otherwise it runs up to
; the sentinel key $FF written at entry end (no other key is $FF: only the
; PV move's, which the first pick took; a key reaching $FF stops at the
; bound anyway).  About 8.4 cycles per entry scanned (8 per unrolled pass),
; about 40 per call besides.
; The nodes' NEXT_PICK has an inline copy of the scan and calls pick only
; for a list that ends at MOVE_STACK_ENTRIES.  When end = MOVE_STACK_ENTRIES
; the byte after ms_key is saved and restored around the scan (3 more bytes
; of stack).
.proc pick
  lda ms_key-1,y       ; the bound
  sta pick_bound
  lda ply_first+1,x
  sta pick_end
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
; Output: pick_best = the first entry of i..end-1 with the highest key,
;   A = its key, Y = i.
; Uses local+0..13.  Clobbers X.
; Cycles: about 43 per move in the fast copy, about 32 more per run of one
;   piece (hist_code_lo), more for a piece that can make a killer; about
;   110 per call besides (key_setup); 1,340 per call on average with
;   key_setup, at 19% of the lists (bench.rom_profile --level Master
;   --positions 4).
.proc score_quiets
best_key1 = local+1    ; the best key so far + 1 (keys here are at most 127)
hist_row = local+2     ; 2 bytes: the history row of the piece being keyed
first = local+4        ; entry i
lastf = local+13       ; the square of the piece whose moves are being keyed
  sty first
  sty pick_best
  ldx eng_ply
  jsr key_setup        ; key_mode, killer1_from..killer2_to
  lda key_mode
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
  ldx pick_best
  lda ms_key,x
  rts
list:
  lda #>history        ; every history row starts in history's page
  sta hist_row+1
  lda #1
  sta best_key1        ; best key 0 (+ 1): entry i so far
  ldx first            ; X = the entry being keyed
  lda eng_side
  beq red
  jmp black
red:
  QUIET_LIST sq90_red
black:
  QUIET_LIST sq90_black
.endproc

;;
; The key mode and the killers of ply X into key_mode and killer1_from ..
; killer2_to, for score_quiets.  A = $C0 (the main search: killers and
; history) or $40 (quiescence: history only); the level's flags clear the
; bits it does not use.  Without killers (bit 7 clear, or ply >=
; KILLER_PLIES) killer1_from .. killer2_to = 0: QUIET_LIST's fast head
; tests killer1_from and killer2_from without looking at key_mode, and 0 is
; never a from square.  Keeps X.  Clobbers A, Y.
.proc key_setup
  sta key_mode
  ldy s_level
  lda lvl_flags,y
  and #LEVEL_FLAG_HISTORY
  bne :+
  lda key_mode
  and #$BF
  sta key_mode
: lda lvl_flags,y
  and #LEVEL_FLAG_KILLERS
  beq killers_off
  bit key_mode
  bpl no_killers       ; quiescence
  cpx #KILLER_PLIES
  bcs no_killers
  txa
  asl a
  asl a
  tay
  lda s_killers,y
  sta killer1_from
  lda s_killers+1,y
  sta killer1_to
  lda s_killers+2,y
  sta killer2_from
  lda s_killers+3,y
  sta killer2_to
  rts
killers_off:
  lda key_mode
  and #$7F
  sta key_mode
no_killers:            ; 0: never a from square (QUIET_LIST)
  lda #0
  sta killer1_from
  sta killer1_to
  sta killer2_from
  sta killer2_to
  rts
.endproc

;;
; Rewards the quiet move Y at ply X (reference _reward): with C = 1 it
; becomes killer 1 (the old killer 1 becomes killer 2 unless it is the same
; move) when X < KILLER_PLIES; then the history bonus for the node's
; depth, halving the whole table first when the entry would pass 255.  Uses local+0..5.  Keeps X.
.proc reward
as_killer = local+0    ; 1: the move becomes killer 1 (C on entry)
move_i = local+1       ; Y on entry: the move's index
hist_row = local+2     ; 2 bytes: the mover's history row
ply = local+4          ; X on entry (kept)
bonus = local+5        ; the history bonus for the node's depth
  lda #0
  rol a
  sta as_killer
  sty move_i
  stx ply
  ldy s_level
  lda lvl_flags,y
  and #LEVEL_FLAG_KILLERS
  beq hist
  lda as_killer
  beq hist
  cpx #KILLER_PLIES
  bcs hist             ; no killers at this ply
  txa
  asl a
  asl a
  tax
  ldy move_i
  lda ms_from,y
  cmp s_killers,x
  bne shift
  lda ms_to,y
  cmp s_killers+1,x
  beq hist
shift:
  lda s_killers,x
  sta s_killers+2,x
  lda s_killers+1,x
  sta s_killers+3,x
  lda ms_from,y
  sta s_killers,x
  lda ms_to,y
  sta s_killers+1,x
hist:
  ldy s_level
  lda lvl_flags,y
  and #LEVEL_FLAG_HISTORY
  beq done
  ldy move_i
  ldx ms_from,y
  lda board,x
  tax
  lda hist_code_lo-CODE_BASE,x
  sta hist_row
  lda #>history        ; every history row starts in history's page
  sta hist_row+1
  ldx ms_to,y
  lda eng_side
  beq red
  lda sq90_black,x
  jmp got
red:
  lda sq90_red,x
got:
  tay                  ; Y = sq90(to, mover)
  ldx ply
  lda s_depth,x        ; depth, at most 8 counts
  cmp #8
  bcc :+
  lda #8
: tax
  lda history_bonus-1,x
  sta bonus
  clc
  adc (hist_row),y
  bcc add
  ldx #HISTORY_SIZE / 2   ; aging: halve every entry
: lsr history-1,x
  lsr history+HISTORY_SIZE/2-1,x
  dex
  bne :-
add:
  lda (hist_row),y
  clc
  adc bonus
  sta (hist_row),y
done:
  ldx ply
  rts
.endproc
