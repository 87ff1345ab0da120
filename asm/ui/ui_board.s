; ui_board.s: the board on screen: pieces (kept in step with the engine's
; board by diffing against a snapshot), the last-move marks, the cursor with
; key repeat, the selection frame and the legal-destination dots (sprites,
; in a shadow-OAM order that turns every frame so that more than 8 sprites
; on a line flicker instead of vanishing).
;
; Squares: the engine's padded squares (board, game_*) and their 0-89
; numbers (rank * 9 + file: drawn[], draw_square), converted with sq_of90
; and sq90_red.  Where a square is on the screen is square_to_screen's
; business alone: Red's side at the bottom, or Black's while ui_flip is
; set (view_update turns the board).  The cursor moves on the screen:
; cursor_move swaps the D-pad's directions while the board is turned.
;
; The snapshot (board_snap / board_sync) lives in the engine's history
; table, free between searches (docs/UI.md): it is taken right before the
; position changes, never across a game_think.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"

drawn = history          ; 90 bytes: piece code per screen square (overlay)

CURSOR_NEAR = $100 - 3   ; cursor corners: 3 px outside the 16x16 square
CURSOR_FAR  = 11
DOT_OFFSET  = 7 - 2      ; the dot's centre (2, 2) on the intersection (7, 7)
REPEAT_DELAY = 16        ; D-pad: frames before the first repeat
REPEAT_RATE  = 4         ;   then frames between repeats
OAM_TURN     = 5 * 4     ; the first sprite slot moves by 5 every frame
SEL_PAL      = 1         ; sprite palette of the selection frame and dots
BLINK_TIMES  = 3         ; the computer's piece blinks 3 times,
BLINK_FRAMES = 6         ;   6 frames off, 6 on

.segment "UI_CODE"

;;
; The piece code (draw_square's: side * 8 + kind, 0 = empty) on a square.
; @param X padded square
; @return A piece code; Z set if empty
; Clobbers X.
.proc code_at
  lda board,x
  beq @empty
  tax
  lda code_pk-CODE_BASE,x  ; side*8 + kind (8 for Black, 0 for Red)
@empty:
  rts
.endproc

;;
; The padded square under the cursor.
; @return A and X padded square
; Clobbers A, X.
.proc cursor_square
  jsr cursor_sq90
  lda sq_of90,x
  tax
  rts
.endproc

;;
; The square under the cursor, 0-89.
; @return X (and A) = cursor_rank * 9 + cursor_file
; Clobbers A, X.
.proc cursor_sq90
  lda cursor_rank
  asl a
  asl a
  asl a
  adc cursor_rank       ; rank * 9 (C = 0: rank < 10)
  adc cursor_file
  tax
  rts
.endproc

;;
; Where a square is on the screen: its metatile column and row, seen from
; Red's side (rank 0 at the bottom, file a on the left) or, while ui_flip
; is set, from Black's (turned half round: rank 9 at the bottom, file i on
; the left).  Every drawing of a square (draw_square, the marks, the
; cursor, the selection and the dots) goes through here.
; @param X padded square
; @return X metatile column, Y metatile row
; Clobbers A.
; Cycles: 38 (Red's side) or 43 (turned), with the JSR and RTS.
.proc square_to_screen
  lda ui_flip
  bne @turned
  ldy sq_rank,x
  lda sq_file,x
  clc
  adc #BOARD_MCOL
  tax
  lda rank_mrow,y
  tay
  rts
@turned:
  lda #BOARD_RANKS - 1
  sec
  sbc sq_rank,x
  tay                   ; 9 - rank
  lda #BOARD_FILES - 1 + BOARD_MCOL
  sbc sq_file,x         ; C = 1: 8 - file, + BOARD_MCOL
  tax
  lda rank_mrow,y
  tay
  rts
.endproc

;;
; Draws the whole board screen with rendering off: the empty board and
; panel (board_view_init), the river text and every piece of the engine's
; position as ui_flip says, and the level name.  Leaves drawn[] = the
; position.
; Uses local+0..15.  Clobbers A, X, Y.
.proc board_redraw
  jsr board_view_init
  jsr draw_river
  ldx #BOARD_SQUARES - 1
  lda #0
@clear:
  sta drawn,x           ; the screen is empty now
  dex
  bpl @clear
  jmp board_sync
.endproc

;;
; Turns the board to the side view_wanted names, if it is not seen from
; there already: with the screen off, the river text, every square (piece
; or empty intersection) and the last-move marks are drawn again from the
; new side; the panel stays as it is.  The screen is dark for about 3
; frames.  Call when the position is the game's (not inside a search).
; Uses local+0..15.  Clobbers A, X, Y.
.proc view_update
  jsr view_wanted
  cmp ui_flip
  beq @same
  sta ui_flip
  jsr screen_off
  jsr ppu_clear_oam     ; (board_sprites draws them again next frame)
  jsr draw_river
  ldx #BOARD_SQUARES - 1
  lda #$FF              ; no piece code: board_sync draws every square
@forget:
  sta drawn,x
  dex
  bpl @forget
  jsr board_sync        ; (its palettes take the marks off)
  jsr board_marks
  jsr vram_flush        ; NMI is off: copied at once
  lda #CTRL_SPR_1000 | CTRL_NT_2000
  jmp screen_on
@same:
  rts
.endproc

;;
; The side the board should be seen from now: Black's (1) when one player
; plays Black, or with two players and the UI_VIEW_TURN setting when Black
; is to move; else Red's (0).
; @return A 0 Red's side at the bottom, 1 Black's
; Clobbers A, X.
.proc view_wanted
  ldx ui_players
  lda #1
  cpx #UI_HUMAN_BLACK
  beq @done
  lda #0
  cpx #UI_HUMAN_RED | UI_HUMAN_BLACK
  bne @done
  lda ui_view
  beq @done             ; UI_VIEW_FIXED
  lda eng_side
@done:
  rts
.endproc

;;
; Snapshot: drawn[] = the piece codes of the position, i.e. what the screen
; shows.  Call right before changing the position (game_play, game_undo).
; Uses local+12.  Clobbers A, X, Y.
.proc board_snap
i = local+12
  lda #BOARD_SQUARES - 1
  sta i
@sq:
  ldy i
  ldx sq_of90,y
  jsr code_at
  ldy i
  sta drawn,y
  dec i
  bpl @sq
  rts
.endproc

;;
; Redraws every square whose piece differs from drawn[] (and updates
; drawn[]): after game_play 2 squares, after a take-back up to 4.  Each
; redraw also resets that square's palette to its piece's.
; Uses local+0..15.  Clobbers A, X, Y.
.proc board_sync
i = local+12             ; draw_square keeps local+12
  lda #BOARD_SQUARES - 1
  sta i
@sq:
  ldy i
  ldx sq_of90,y
  jsr code_at
  ldx i
  cmp drawn,x
  beq @next
  sta drawn,x
  jsr draw_square       ; X = square 0-89, A = piece
@next:
  dec i
  bpl @sq
  rts
.endproc

;;
; Takes the last-move marks off: the palettes of game_last_from/to back to
; their pieces' (PAL_BOARD when empty).  Call before the position changes.
; Uses local+0..1, local+13..15.  Clobbers A, X, Y.
.proc board_unmark
  ldx game_last_from
  beq done
  jsr unmark_one
  ldx game_last_to
  ; fall through
unmark_one:
  stx local+0
  jsr code_at
  beq @set              ; empty: PAL_BOARD = 0
  and #PIECE_BLACK
  beq @red
  lda #PAL_BLACK
  bne @set
@red:
  lda #PAL_RED
@set:
  sta local+1
  ldx local+0
  jsr square_to_screen
  lda local+1
  jmp set_metatile_palette
done:
  rts
.endproc

;;
; Marks the last move (game_last_from/to) with PAL_MARK: the from square's
; lines and the piece's face light up.  PAL_MARK's ink is set to the
; mover's colour so the moved piece keeps its side's colour.
; Uses local+0, local+13..15.  Clobbers A, X, Y.
.proc board_marks
  ldx game_last_from
  beq @none
  lda eng_side          ; the mover is the other side
  eor #1
  jsr set_mark_ink
  ldx game_last_from
  jsr square_to_screen
  lda #PAL_MARK
  jsr set_metatile_palette
  ldx game_last_to
  jsr square_to_screen
  lda #PAL_MARK
  jmp set_metatile_palette
@none:
  rts
.endproc

;;
; Blinks the piece on game_last_to (the computer's move) a few times.
; Waits BLINK_TIMES * 2 * BLINK_FRAMES frames, reading the pads each frame:
; any button held sets busy_pads, so a tap during the blink ends the demo
; (in a game the press is only swallowed, like one during the search).
; Uses local+0..15.  Clobbers A, X, Y.
.proc board_blink
times = local+12         ; draw_square keeps local+12
  lda #BLINK_TIMES * 2
  sta times
@blink:
  lda times
  lsr a                 ; C = odd: the piece shows, even: it is off
  lda #0
  bcc :+
  ldx game_last_to
  jsr code_at
: pha
  ldx game_last_to
  lda sq90_red,x
  tax
  pla
  jsr draw_square
  ldx #BLINK_FRAMES
@wait:
  txa
  pha
  jsr wait_frame
  jsr read_pads         ; a button during the blink counts as one during
  lda pad_held          ; the search: the demo ends on it (main.s)
  ora busy_pads
  sta busy_pads
  pla
  tax
  dex
  bne @wait
  dec times
  bne @blink
  rts
.endproc

;;
; Moves the cursor with the D-pad: one square per new press, then, while
; the direction is held, again after REPEAT_DELAY frames and every
; REPEAT_RATE frames.  Stops at the board edges.  Up = towards the top
; of the screen: towards Black, or towards Red while the board is turned
; (ui_flip: the directions are swapped, Up with Down, Left with Right).
; Plays SFX_CURSOR when it moves.
; Uses local+0..1.  Clobbers A, X, Y.
.proc cursor_move
dirs  = local+0
moved = local+1
  lda pad_pressed
  and #KEY_UP | KEY_DOWN | KEY_LEFT | KEY_RIGHT
  beq @held
  ldx #REPEAT_DELAY
  bne @go
@held:
  lda pad_held
  and #KEY_UP | KEY_DOWN | KEY_LEFT | KEY_RIGHT
  beq @none
  dec ui_repeat
  bne @none
  ldx #REPEAT_RATE
@go:
  stx ui_repeat
  ldy ui_flip
  beq @dirs
  tay                   ; turned: U D L R (bits 3-0) become D U R L
  and #KEY_UP | KEY_LEFT
  lsr a
  sta dirs
  tya
  and #KEY_DOWN | KEY_RIGHT
  asl a
  ora dirs
@dirs:
  sta dirs
  lda #0
  sta moved
  lda dirs
  and #KEY_UP
  beq @not_up
  lda cursor_rank
  cmp #BOARD_RANKS - 1
  bcs @not_up
  inc cursor_rank
  inc moved
@not_up:
  lda dirs
  and #KEY_DOWN
  beq @not_down
  lda cursor_rank
  beq @not_down
  dec cursor_rank
  inc moved
@not_down:
  lda dirs
  and #KEY_LEFT
  beq @not_left
  lda cursor_file
  beq @not_left
  dec cursor_file
  inc moved
@not_left:
  lda dirs
  and #KEY_RIGHT
  beq @not_right
  lda cursor_file
  cmp #BOARD_FILES - 1
  bcs @not_right
  inc cursor_file
  inc moved
@not_right:
  lda moved
  beq @none
  lda #SFX_CURSOR
  jmp sfx_play
@none:
  rts
.endproc

;;
; Builds the shadow OAM of the board screen: the cursor (not in the demo),
; the selection frame around ui_sel and a dot on each of its legal
; destinations (game_gen_legal's list).  Sprites go to consecutive slots
; from ui_oam_rot, which moves OAM_TURN bytes every frame: when more than
; 8 sprites share a line, a different 8 show each frame (flicker, not
; dropout).  At most 4 + 4 + 17 sprites.
; Uses local+0..5.  Clobbers A, X, Y.
; Cycles: about 1,550 + 14 per legal move + 85 per dot.
.proc board_sprites
px   = local+0
py   = local+1
attr = local+2
i    = local+3
keep_y = local+4
  jsr ppu_clear_oam
  lda ui_oam_rot
  clc
  adc #OAM_TURN
  sta ui_oam_rot
  tay                   ; Y = the next free slot (x 4) throughout
  lda ui_screen
  cmp #UI_SCREEN_ATTRACT
  beq @no_cursor
  jsr cursor_square
  lda #0
  jsr put_frame
@no_cursor:
  lda ui_sel
  beq @done
  tax
  lda #SEL_PAL
  jsr put_frame
  ldx game_nmoves
  stx i
@move:
  dec i
  bmi @done
  ldx i
  lda ms_from,x
  cmp ui_sel
  bne @move
  lda ms_to,x
  tax
  jsr square_xy
  lda py
  clc
  adc #DOT_OFFSET
  sta oam+OAM_Y,y
  lda #SPR_TILE_DOT
  sta oam+OAM_TILE,y
  lda #SEL_PAL
  sta oam+OAM_ATTR,y
  lda px
  clc
  adc #DOT_OFFSET
  sta oam+OAM_X,y
  iny
  iny
  iny
  iny
  jmp @move
@done:
  rts

; px, py = the sprite position (OAM Y: one line up) of the square X.
; Keeps Y.
square_xy:
  sty keep_y            ; (square_to_screen returns in X and Y)
  jsr square_to_screen
  txa
  asl a
  asl a
  asl a
  asl a
  sta px
  tya
  ldy keep_y
  asl a
  asl a
  asl a
  asl a
  sec
  sbc #1
  sta py
  rts

; The 4 corner sprites around square X in palette A, from slot Y.
put_frame:
  sta attr
  jsr square_xy
  ldx #0
@corner:
  lda py
  clc
  adc corner_dy,x
  sta oam+OAM_Y,y
  lda #SPR_TILE_CURSOR
  sta oam+OAM_TILE,y
  lda corner_attr,x
  ora attr
  sta oam+OAM_ATTR,y
  lda px
  clc
  adc corner_dx,x
  sta oam+OAM_X,y
  iny
  iny
  iny
  iny
  inx
  cpx #4
  bne @corner
  rts
.endproc

.segment "UI_DATA"
corner_dy:   .byte CURSOR_NEAR, CURSOR_NEAR, CURSOR_FAR, CURSOR_FAR
corner_dx:   .byte CURSOR_NEAR, CURSOR_FAR, CURSOR_NEAR, CURSOR_FAR
corner_attr: .byte 0, OAM_FLIP_H, OAM_FLIP_V, OAM_FLIP_H | OAM_FLIP_V
