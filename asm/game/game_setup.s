; game_setup.s: the position editor's rules (the screen is asm/ui/ui_setup.s).
;
; The editor edits the engine's own position (board, piece lists, counts,
; eng_side): every change goes through eng_compact, an edit of eng_load_buf
; and eng_load, so the position in RAM is always one eng_load made (tools
; such as `python -m tools.nes fen` read it back).  What may stand where is
; the UI's business (setup_can_place); what may be played is decided here,
; with the engine's own tests, when the player asks to play.

.include "global.inc"
.include "engine/eng.inc"

.segment "ENGINE_RARE"

;;
; Checks the editor's position and, if it can be played, starts a game from
; it (game_start, the clock at 0): the take-back record starts empty, so a
; take-back goes back to the set-up position at most.
; Refused, in this order: a king missing (Red's first), the kings facing
; each other on an open file, the side not to move in check (it could be
; captured), the side to move without a legal move (game_gen_legal).
; Input: the engine's position (eng_load made), eng_side.
; Output: A = SETUP_OK (0, Z = 1) and the game started (game_start's
;   output), or A = SETUP_NO_RED_KING .. SETUP_NO_MOVE (Z = 0) and the
;   position unchanged (eng_load made again: the move stack is empty).
; Uses local+0..13.  Clobbers A, X, Y.
; Cycles: about 15,000 + game_gen_legal's (a frame or two).
.proc game_setup_start
sq = local+13
  lda counts+PIECE_KING
  bne :+
  lda #SETUP_NO_RED_KING
  rts
: lda counts+PIECE_BLACK+PIECE_KING
  bne :+
  lda #SETUP_NO_BLACK_KING
  rts
: ; the kings on one file with nothing between them (Red's is below)
  jsr eng_compact         ; eng_load_buf: the board by rank*9+file
  ldx piece_sq+0          ; slot 0: Red's king, slot 16: Black's (eng_load's canonical slots)
  ldy piece_sq+16
  lda sq_file,x
  cmp sq_file,y
  bne @not_facing
  lda sq90_red,y
  sta sq                  ; Black's king
  lda sq90_red,x
@between:
  clc
  adc #BOARD_FILES        ; one rank up
  cmp sq
  bcs @facing             ; reached Black's king: nothing between
  tax
  lda eng_load_buf,x
  bne @not_facing
  txa
  bcc @between            ; (C = 0: always)
@facing:
  lda #SETUP_KINGS_FACE
  rts
@not_facing:
  lda eng_side            ; the side not to move in check?
  eor #1
  pha
  jsr eng_in_check        ; C = 1 in check
  pla
  bcc @no_check
  clc
  adc #SETUP_RED_IN_CHECK ; + 0 Red, 1 Black
  rts
@no_check:
  jsr game_gen_legal      ; A = the legal moves (the move stack: eng_load_buf)
  bne @play
  jsr eng_rebuild         ; (the same position; the move stack emptied)
  lda #SETUP_NO_MOVE
  rts
@play:
  jsr eng_compact
  lda #0
  sta eng_clock
  jsr game_start
  lda #SETUP_OK
  rts
.endproc
.assert SETUP_BLACK_IN_CHECK = SETUP_RED_IN_CHECK + 1, error, "game_setup_start adds the side"
