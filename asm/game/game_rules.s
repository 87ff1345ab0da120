; game_rules.s: the game around the engine (reference_py/rules.py, Game).
;
; The position of the game is the engine's own (board, piece lists, side,
; clock, key: docs/ROM_ENGINE.md).  This layer adds what a game needs and a
; search does not: the legal moves of the side to move, playing a move for
; good, the repetition ring the search and the game rules read, a take-back
; record, the game's outcome, and the computer's move.
;
; The take-back record keeps the last GAME_UNDO_PLIES plies as (from, to,
; captured side*8+kind, clock before).  A take-back writes the board's
; compact form (eng_compact), moves the piece back, puts the captured piece
; back and reloads with eng_load.  That is independent of the piece slots,
; which eng_search renumbers (Position.rebuild) at every search.
;
; The repetition ring rep_key_lo/hi[0..game_rep_top] with rep_info (the
; check bit REP_CHECK and the destination, 0-89, of the ply that led to the
; entry: the perpetual-chase judgement's record, game_chase.s) holds the
; last <= GAME_WINDOW positions of the game, the current one last: exactly
; what reference Game keeps in pos.keys[-GAME_WINDOW:] /
; pos.checks[-GAME_WINDOW:].  When it is full, the oldest entry drops out.  A take-back
; drops the newest; if the ring had already dropped old entries, those are
; not restored (the reference's replay would have them): a repetition more
; than GAME_WINDOW - (plies taken back) positions back after a take-back in a game of
; over GAME_WINDOW positions since the last capture is the one case the two can differ.

.include "global.inc"
.include "engine/eng.inc"
.include "engine/search.inc"

.segment "ENGINE_CODE"

;;
; Starts a game from the opening position, Red to move (game_start).
; Output: as game_start.
; Uses local+0..12.  Clobbers A, X, Y.  Cycles: about 12,000.
.proc game_new
  ldx #BOARD_SQUARES - 1
@copy:
  lda start_position,x   ; side*8+kind, rank*9+file: eng_load's form
  sta eng_load_buf,x
  dex
  bpl @copy
  lda #0
  sta eng_side
  sta eng_clock
  ; fall through
.endproc

;;
; Starts a game from the position in eng_load_buf (a puzzle's, or the
; opening's: game_new).
; Input: eng_load_buf, eng_side, eng_clock (eng_load's input).
; Output: the engine's position (weight set 0); the ring holds it
;   (game_rep_top = 0, its check bit); the record is empty; game_ply = 0;
;   game_last_from/to = 0; game_captured = 0; game_check = 1 if the side to
;   move is in check, else 0.  game_seed is the UI's and is not touched.
; Uses local+0..12.  Clobbers A, X, Y.  Cycles: about 12,000.
.proc game_start
  lda #0
  sta eng_vset
  jsr eng_load
  lda #0
  sta game_rep_top
  sta game_undo_n
  sta game_undo_head
  sta game_ply
  sta game_ply+1
  sta game_last_from
  sta game_last_to
  sta game_captured
  lda eng_side
  jsr eng_in_check       ; C = 1 in check
  lda #0
  rol a
  sta game_check
  lsr a                  ; C = in check, A = 0
  ror a                  ; REP_CHECK (bit 7) = C; no ply led to entry 0
  sta rep_info
  lda eng_key
  sta rep_key_lo
  lda eng_key+1
  sta rep_key_hi
  rts
.endproc

;;
; Lists the legal moves of the side to move (reference legal_moves(), in
; generation order).
; Output: A = game_nmoves = the number of legal moves; ms_from/ms_to[0..
;   A-1] are the moves (padded squares); eng_chk = the side to move's check
;   state; ms_top = A; eng_ply = 0.
; Uses local+0..13.  Clobbers A, X, Y.
; Cycles: about 2,900 + 700 per pseudo-legal move (about 30,000 in a
;   middlegame: two frames).
.proc game_gen_legal
i = local+12
n = local+13
  lda #0
  sta eng_ply
  sta ms_top
  sta i
  sta n
  lda eng_side
  jsr eng_in_check       ; keeps eng_chk for eng_is_legal's shortcut
  jsr eng_gen            ; C = 1 cannot happen at the root (< 192 moves)
@move:
  lda i
  cmp ms_top
  bcs @done
  tax
  jsr eng_make
  jsr eng_is_legal       ; C = 0 legal
  php
  jsr eng_unmake
  plp
  bcs @next
  ldx i
  ldy n
  lda ms_from,x
  sta ms_from,y
  lda ms_to,x
  sta ms_to,y
  inc n
@next:
  inc i
  bne @move
@done:
  lda n
  sta ms_top
  sta game_nmoves
  rts
.endproc

;;
; Is from -> to one of the moves game_gen_legal listed?
; Input: A = from, X = to (padded squares); game_gen_legal's list.
; Output: C = 0 and Y = its index if it is; C = 1 if not.
; Uses local+0..1.  Clobbers A.
.proc game_find_move
from = local+0
to   = local+1
  sta from
  stx to
  ldy game_nmoves
@scan:
  dey
  cpy #$FF
  beq @no
  lda ms_from,y
  cmp from
  bne @scan
  lda ms_to,y
  cmp to
  bne @scan
  clc
  rts
@no:
  sec
  rts
.endproc

;;
; Plays a legal move for good (reference Game.play).
; Input: A = from, X = to (padded squares; the move must be legal).
; Output: the position after it, eng_ply = 0, eng_chk known; the move is
;   recorded for take-back; the new key and check state are pushed on the
;   ring; game_ply + 1; game_last_from/to = the move; game_captured = the
;   captured piece (side*8+kind, 0 none); game_check = 1 if the side to move
;   is now in check, else 0.
; Uses local+0..11.  Clobbers A, X, Y.  Cycles: about 1,000 (2,000 when the
;   ring is full and shifts).
.proc game_play
mk_from = local+0        ; eng_make_ft's input
mk_to   = local+1
  sta mk_from
  stx mk_to
  sta game_last_from
  stx game_last_to
  ldy game_undo_head
  sta game_undo_from,y
  txa
  sta game_undo_to,y
  lda eng_clock
  sta game_undo_clock,y
  lda board,x            ; the captured piece's code, 0 if none
  beq @cap
  tax
  lda code_pk-CODE_BASE,x  ; side*8 + kind
@cap:
  sta game_undo_cap,y
  sta game_captured
  iny
  tya
  and #GAME_UNDO_PLIES - 1
  sta game_undo_head
  lda game_undo_n
  cmp #GAME_UNDO_PLIES
  bcs @full
  inc game_undo_n
@full:
  lda #0
  sta eng_ply
  jsr eng_make_ft
  lda #0
  sta eng_ply
  inc game_ply
  bne @ply
  inc game_ply+1
@ply:
  lda eng_side
  jsr eng_in_check       ; C = 1 in check; eng_chk
  lda #0
  rol a
  sta game_check
  jmp game_push_ring
.endproc

;;
; Appends the current key, check state (game_check) and the destination of
; the ply that led to it (game_last_to) to the ring, dropping the oldest
; entry when GAME_WINDOW are held.
; Clobbers A, X, Y.  Cycles: about 60 (1,500 when the ring is full and shifts).
.proc game_push_ring
  ldx game_rep_top
  cpx #GAME_WINDOW - 1
  bcc @room
  ; full: entries 1..GAME_WINDOW-1 move down one place
  ldx #0
@shift:
  lda rep_key_lo+1,x
  sta rep_key_lo,x
  lda rep_key_hi+1,x
  sta rep_key_hi,x
  lda rep_info+1,x
  sta rep_info,x
  inx
  cpx #GAME_WINDOW - 1
  bne @shift
  dex                    ; the new entry goes to GAME_WINDOW - 1
@room:
  inx
  stx game_rep_top
  lda eng_key
  sta rep_key_lo,x
  lda eng_key+1
  sta rep_key_hi,x
  ldy game_last_to
  lda game_check
  lsr a                  ; C = in check
  lda sq90_red,y         ; the ply's destination, 0-89
  bcc @store
  ora #REP_CHECK
@store:
  sta rep_info,x
  rts
.endproc
;;
; Takes back the last ply played (reference Game.undo(1)).
; Output: C = 1 and nothing changes if the record is empty; else C = 0,
;   the position before that ply (slots in canonical order, eng_ply = 0,
;   eng_chk known), the ring's newest entry dropped, game_ply - 1,
;   game_last_from/to = the ply before it (0 if not recorded),
;   game_check = the side to move's check state, game_captured = 0.
; Uses local+0..12.  Clobbers A, X, Y.  Cycles: about 15,000.
.proc game_undo
to90 = local+13
  lda game_undo_n
  bne @have
  sec
  rts
@have:
  dec game_undo_n
  lda game_undo_head
  sec
  sbc #1
  and #GAME_UNDO_PLIES - 1
  sta game_undo_head
  jsr eng_compact        ; the board as eng_load_buf
  ldy game_undo_head
  ldx game_undo_to,y
  lda sq90_red,x
  sta to90
  ldx game_undo_from,y
  lda sq90_red,x
  tax                    ; X = from, 0-89
  ldy to90
  lda eng_load_buf,y     ; the piece goes back
  sta eng_load_buf,x
  ldx game_undo_head
  lda game_undo_cap,x    ; and the captured one returns
  sta eng_load_buf,y
  lda game_undo_clock,x
  sta eng_clock
  lda eng_side
  eor #1
  sta eng_side
  jsr eng_load
  lda game_rep_top
  beq @ring
  dec game_rep_top
@ring:
  lda game_ply
  bne @ply
  dec game_ply+1
@ply:
  dec game_ply
  lda #0
  sta game_captured
  sta game_last_from
  sta game_last_to
  ldy game_undo_n
  beq @no_last
  lda game_undo_head
  sec
  sbc #1
  and #GAME_UNDO_PLIES - 1
  tay
  lda game_undo_from,y
  sta game_last_from
  lda game_undo_to,y
  sta game_last_to
@no_last:
  lda eng_side
  jsr eng_in_check
  lda #0
  rol a
  sta game_check
  clc
  rts
.endproc

;;
; The game's state after the last move (reference Game.outcome), in order:
; no legal move loses (checkmate or stalemate); a threefold repetition
; since the last capture within the ring is lost by a side that checked with
; every move since the first occurrence while the other did not; when
; neither did, by a side that chased a piece with every move while the
; other did not (game_chase); else drawn; 120 plies without a capture are
; drawn.
; Output: A = GAME_ONGOING (0), GAME_CHECKMATE, GAME_STALEMATE,
;   GAME_PERPETUAL, GAME_PERPETUAL_CHASE, GAME_REPETITION or GAME_DRAW_60;
;   X = the winner (0 Red, 1 Black, GAME_NO_WINNER).  As a side effect,
;   game_gen_legal's list of legal moves (A = game_nmoves).
; Uses local+0..15 (and game_chase's scratch for a chase).  Clobbers A, X, Y.
; Cycles: game_gen_legal's, plus at most about 3,000 for the ring, plus a
;   perpetual-chase judgement's (game_chase) when a repetition is found.
.proc game_outcome
n       = local+14       ; index of the current position in the ring
k       = local+15       ; plies back
seen    = local+12       ; occurrences found
limit   = local+13       ; min(clock, n)
flags   = local+10       ; mover_all, other_all
  jsr game_gen_legal
  bne @has_moves
  lda eng_side
  eor #1
  tax                    ; the other side wins
  lda eng_chk
  beq @stalemate
  lda #GAME_CHECKMATE
  rts
@stalemate:
  lda #GAME_STALEMATE
  rts
@has_moves:
  lda game_rep_top
  sta n
  cmp eng_clock
  bcc @lim
  lda eng_clock
@lim:
  sta limit
  lda #0
  sta seen
  lda #4
  sta k
@scan:
  lda k
  cmp limit
  beq @test
  bcs @no_rep            ; k > limit
@test:
  lda n
  sec
  sbc k
  tax
  ldy n
  lda rep_key_lo,x
  cmp rep_key_lo,y
  bne @next
  lda rep_key_hi,x
  cmp rep_key_hi,y
  bne @next
  inc seen
  lda seen
  cmp #2
  beq @repeated          ; k = the earliest of the three
@next:
  inc k
  inc k
  bne @scan
@no_rep:
  lda eng_clock
  cmp #DRAW_PLIES
  bcc @ongoing
  lda #GAME_DRAW_60
  ldx #GAME_NO_WINNER
  rts
@ongoing:
  lda #GAME_ONGOING
  rts
@repeated:
  ; mover (the side that just moved) checked at n, n-2, ... (j even < k);
  ; the other side at n-1, n-3, ... (j odd < k)
  lda #0
  sta flags
  jsr all_checks         ; C = 1: every even j was a check
  rol flags
  lda #1
  jsr all_checks
  rol flags
  lda flags              ; bit 1 = mover_all, bit 0 = other_all
  cmp #2
  beq @mover_perpetual
  cmp #1
  beq @other_perpetual
  cmp #3
  beq @draw              ; both checked throughout
  lda n                  ; neither: a perpetual chase?
  ldx k
  jsr game_chase         ; A: 1 Red chased, 2 Black chased, 0 or 3 neither
  ldx #SIDE_BLACK        ; Red chased: Black wins
  cmp #1
  beq @chase
  ldx #SIDE_RED
  cmp #2
  bne @draw
@chase:
  lda #GAME_PERPETUAL_CHASE
  rts
@draw:
  lda #GAME_REPETITION
  ldx #GAME_NO_WINNER
  rts
@mover_perpetual:        ; the side that just moved gave perpetual check: it loses
  ldx eng_side
  lda #GAME_PERPETUAL
  rts
@other_perpetual:        ; the side to move did: the mover wins
  lda eng_side
  eor #1
  tax
  lda #GAME_PERPETUAL
  rts

; C = 1 if the check bit of entry n - j is set for every j = A, A+2, ... < k.
all_checks:
  sta local+11           ; j
@j:
  lda local+11
  cmp k
  bcs @all               ; j >= k: every one was set
  lda n
  sec
  sbc local+11
  tay
  jsr rep_check_bit      ; (eng_search_draw.s) Z = 0: set
  beq @not_all
  inc local+11
  inc local+11
  bne @j
@all:
  sec
  rts
@not_all:
  clc
  rts
.endproc

;;
; The computer's move: eng_search at a level from the game's position.
; Input: A = level index (0 = weakest .. LEVEL_COUNT-1); game_seed.
; Output: A = from, X = to (the best move; both 0 if there is no legal
;   move: game_outcome says so first); s_res_* as eng_search leaves them;
;   game_last_seed = the seed the search used; game_seed advanced.  The
;   position is unchanged (its slots are renumbered canonically).
; The NMI keeps running; s_nodes counts up (progress).
; Uses local+0..15 and up to 48 bytes of stack.  Clobbers A, X, Y.
; Cycles: the search's: up to about 100 million at the strongest level.
.proc game_think
  pha
  lda game_rep_top
  sta s_rep_top
  lda game_seed
  sta s_lfsr
  sta game_last_seed
  lda game_seed+1
  sta s_lfsr+1
  sta game_last_seed+1
  ; next seed: x * 5 + $3B ... (mod 2^16), any full-period step will do
  lda game_seed
  asl a
  sta local+0
  lda game_seed+1
  rol a
  sta local+1
  asl local+0
  rol local+1
  clc
  lda local+0
  adc game_seed
  sta local+0
  lda local+1
  adc game_seed+1
  sta local+1
  clc
  lda local+0
  adc #$3B
  sta game_seed
  lda local+1
  adc #0
  sta game_seed+1
  pla
  jsr eng_search
  lda s_res_pvlen
  beq @none
  lda s_res_from
  ldx s_res_to
  rts
@none:
  tax
  rts
.endproc

.segment "ENGINE_DATA"

; The starting position (game_new), square = rank * 9 + file (rank 0 = Red's back rank).
R = 0
B = PIECE_BLACK
start_position:
  .byte R+PIECE_ROOK, R+PIECE_HORSE, R+PIECE_ELEPHANT, R+PIECE_ADVISOR, R+PIECE_KING
  .byte R+PIECE_ADVISOR, R+PIECE_ELEPHANT, R+PIECE_HORSE, R+PIECE_ROOK     ; rank 0
  .byte 0, 0, 0, 0, 0, 0, 0, 0, 0                                        ; rank 1
  .byte 0, R+PIECE_CANNON, 0, 0, 0, 0, 0, R+PIECE_CANNON, 0              ; rank 2
  .byte R+PIECE_PAWN, 0, R+PIECE_PAWN, 0, R+PIECE_PAWN, 0, R+PIECE_PAWN, 0, R+PIECE_PAWN ; 3
  .byte 0, 0, 0, 0, 0, 0, 0, 0, 0                                        ; rank 4
  .byte 0, 0, 0, 0, 0, 0, 0, 0, 0                                        ; rank 5
  .byte B+PIECE_PAWN, 0, B+PIECE_PAWN, 0, B+PIECE_PAWN, 0, B+PIECE_PAWN, 0, B+PIECE_PAWN ; 6
  .byte 0, B+PIECE_CANNON, 0, 0, 0, 0, 0, B+PIECE_CANNON, 0              ; rank 7
  .byte 0, 0, 0, 0, 0, 0, 0, 0, 0                                        ; rank 8
  .byte B+PIECE_ROOK, B+PIECE_HORSE, B+PIECE_ELEPHANT, B+PIECE_ADVISOR, B+PIECE_KING
  .byte B+PIECE_ADVISOR, B+PIECE_ELEPHANT, B+PIECE_HORSE, B+PIECE_ROOK     ; rank 9
.assert * - start_position = BOARD_SQUARES, error, "start_position needs 90 squares"
