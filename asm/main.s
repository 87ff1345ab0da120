; main.s: the main loop.  It owns all game logic; the NMI only services the
; frame.  Each pass: read the pads, act, update the shadow OAM and the VRAM
; queue, then wait_frame hands both to the next NMI.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"

CURSOR_START_FILE = 4   ; e
CURSOR_START_RANK = 3   ; Red's middle pawn
CURSOR_OAM        = 0   ; the cursor uses sprites 0-3

.segment "CODE"

;;
; Entry from reset_handler (NMI on, rendering turned on by the first NMI,
; the empty board on screen).  Sets the pieces up, then runs the loop.
; Never returns.
.proc main
  lda #CURSOR_START_FILE
  sta cursor_file
  lda #CURSOR_START_RANK
  sta cursor_rank
  jsr place_cursor
  jsr draw_start_position   ; through the VRAM queue, a few frames
@loop:
  jsr read_pads
  jsr move_cursor
  jsr place_cursor
  jsr wait_frame
  jmp @loop
.endproc

;;
; Moves the board cursor one square per newly pressed direction on pad 1,
; stopping at the board edges.  Up = towards Black (rank + 1).
; Clobbers A.
.proc move_cursor
  lda pad_pressed
  and #KEY_UP
  beq @not_up
  lda cursor_rank
  cmp #BOARD_RANKS - 1
  bcs @not_up
  inc cursor_rank
@not_up:
  lda pad_pressed
  and #KEY_DOWN
  beq @not_down
  lda cursor_rank
  beq @not_down
  dec cursor_rank
@not_down:
  lda pad_pressed
  and #KEY_LEFT
  beq @not_left
  lda cursor_file
  beq @not_left
  dec cursor_file
@not_left:
  lda pad_pressed
  and #KEY_RIGHT
  beq @not_right
  lda cursor_file
  cmp #BOARD_FILES - 1
  bcs @not_right
  inc cursor_file
@not_right:
  rts
.endproc

;;
; Writes the cursor's 4 sprites (a 22x22 frame of corner brackets, one tile
; flipped four ways) around the square under the cursor.
; Uses local+0 (x), local+1 (y).  Clobbers A, X.
.proc place_cursor
pos_x = local+0
pos_y = local+1
  lda cursor_file
  clc
  adc #BOARD_MCOL
  asl a
  asl a
  asl a
  asl a
  sta pos_x             ; (BOARD_MCOL + file) * 16
  ldx cursor_rank
  lda rank_mrow,x
  asl a
  asl a
  asl a
  asl a
  sec
  sbc #1                ; OAM Y is one line above the sprite
  sta pos_y

  ldx #0
@sprite:
  lda pos_y
  clc
  adc corner_dy,x
  sta oam + CURSOR_OAM * 4 + OAM_Y,x
  lda #SPR_TILE_CURSOR
  sta oam + CURSOR_OAM * 4 + OAM_TILE,x
  lda corner_attr,x
  sta oam + CURSOR_OAM * 4 + OAM_ATTR,x
  lda pos_x
  clc
  adc corner_dx,x
  sta oam + CURSOR_OAM * 4 + OAM_X,x
  inx
  inx
  inx
  inx
  cpx #16
  bne @sprite
  rts
.endproc

.segment "RODATA"
; per sprite, at 4-byte steps so X can index them like OAM.  The corners sit
; 3 px outside the 16x16 square (a 22x22 frame): near = -3, far = 16 - 8 + 3.
CURSOR_NEAR = $100 - 3
CURSOR_FAR  = 11
corner_dy:   .byte CURSOR_NEAR, 0, 0, 0,  CURSOR_NEAR, 0, 0, 0,  CURSOR_FAR, 0, 0, 0,  CURSOR_FAR
corner_dx:   .byte CURSOR_NEAR, 0, 0, 0,  CURSOR_FAR, 0, 0, 0,   CURSOR_NEAR, 0, 0, 0,  CURSOR_FAR
corner_attr: .byte 0, 0, 0, 0,  OAM_FLIP_H, 0, 0, 0,  OAM_FLIP_V, 0, 0, 0,  OAM_FLIP_H | OAM_FLIP_V
