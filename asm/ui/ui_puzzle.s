; ui_puzzle.s: the endgame puzzles: their menu, starting one, its move
; limit and its end (docs/UI.md).
;
; The title's PUZZLES item opens the menu (UI_SCREEN_PUZZLES): one row per
; puzzle, drawn by puz_draw_menu in the puzzles' bank (asm/puzzles/puzzles.s,
; reached with FAR_CALL), the cursor on ui_menu.  A puzzle is a game like
; the others (ui_play.s) with puz_cur = its number: new_game loads its
; position, the human plays its side (ui_players) against the computer at
; the strongest level (main.s), the panel shows its goal instead of the
; level; turn_begin ends it at its move limit (puzzle_limit), game_over
; marks it solved when the goal is reached (puzzle_over).  ui_players is
; the title's again when the title comes back (title_enter takes it from
; keep_settings).

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "puzzles_const.inc"

.segment "UI_CODE"

;;
; Shows the puzzle menu, the cursor on the last puzzle played (or the
; first).  The caller has saved the title's settings (settings_save).
; Uses local+0..15.  Clobbers A, X, Y.
.proc puzzles_enter
  jsr screen_off
  jsr ppu_clear_oam
  lda #UI_SCREEN_PUZZLES
  sta ui_screen
  lda #0
  sta ui_think
  sta ui_busy
  sta ui_sel
  ldx puz_cur           ; number = index + 1; 0: none yet
  beq :+
  dex
: stx ui_menu
  FAR_CALL puz_draw_menu
  lda #CTRL_SPR_1000 | CTRL_NT_2000    ; the board's tiles (font at $0000)
  jmp screen_on
.endproc

;;
; One frame of the puzzle menu: Up/Down move the cursor, A or Start play
; the puzzle under it, B goes back to the title.
; Uses local+0..15.  Clobbers A, X, Y.
.proc puzzles_update
  lda pad_pressed
  and #KEY_B
  beq @not_b
  lda #SFX_CURSOR
  jsr sfx_play
  jmp title_enter
@not_b:
  lda pad_pressed
  and #KEY_A | KEY_START
  beq @not_a
  lda #SFX_SELECT
  jsr sfx_play
  jmp puzzle_start
@not_a:
  ldx #PUZ_COUNT
  jsr menu_up_down
  bcc @rts
  FAR_CALL puz_cursor_sprite
  lda #SFX_CURSOR
  jmp sfx_play
@rts:
  rts
.endproc

;;
; Starts the puzzle under the menu's cursor: puz_cur, the human's side
; (ui_players) from its flags, then the game (game_enter: new_game loads
; the puzzle's position).
; Uses local+0..15.  Clobbers A, X, Y.
.proc puzzle_start
  ldx ui_menu
  inx
  stx puz_cur
  dex
  txa
  FAR_CALL puz_info     ; A = flags
  and #PUZ_FLAG_PLAYER_BLACK
  lsr a                 ; 0 Red, 1 Black
  clc
  adc #UI_HUMAN_RED     ; 1 or 2
  sta ui_players
  jmp game_enter
.endproc
.assert PUZ_FLAG_PLAYER_BLACK = 2 && UI_HUMAN_RED = 1 && UI_HUMAN_BLACK = 2, error, "puzzle_start's ui_players"

;;
; The start of a puzzle's turn: has the player made the limit's moves?
; @return C = 1 if so (then A = UI_RESULT_LIMIT, X = GAME_NO_WINNER:
;   game_over's input), C = 0 if not or without a limit or a puzzle
; Uses local+0..1.  Clobbers A, X, Y.
.proc puzzle_limit
  lda puz_cur
  beq @no
  sec
  sbc #1
  FAR_CALL puz_info     ; X = the limit in plies, 0: none
  txa
  beq @no
  lda game_ply+1
  bne @reached
  cpx game_ply          ; C = 0 while the limit is above game_ply
  beq @reached
  bcs @no
@reached:
  lda #UI_RESULT_LIMIT
  ldx #GAME_NO_WINNER
  sec
  rts
@no:
  clc
  rts
.endproc

;;
; A puzzle ended (game_over, ui_result and ui_winner set): solved when the
; goal is reached (win: the human won; draw: the human did not lose), then
; marked in puz_solved and the kept RAM sealed again (settings_save); the
; panel's goal row says SOLVED! or FAILED.
; Uses local+0..15.  Clobbers A, X, Y.
.proc puzzle_over
  lda puz_cur
  beq @rts
  sec
  sbc #1
  FAR_CALL puz_info     ; A = flags
  ldx ui_players
  dex                   ; the human's side, 0 Red, 1 Black
  and #PUZ_FLAG_GOAL_DRAW
  bne @draw
  cpx ui_winner         ; a win puzzle: the human must be the winner
  bne @failed
  beq @solved
@draw:
  txa                   ; a draw puzzle: the computer must not be the winner
  eor #1
  cmp ui_winner
  beq @failed
@solved:
  lda puz_cur
  sec
  sbc #1
  FAR_CALL puz_mark_solved
  jsr settings_save     ; keep_check covers puz_solved
  ldx #T_SOLVED
  jmp ui_text
@failed:
  ldx #T_FAILED
  jmp ui_text
@rts:
  rts
.endproc

;;
; Leaves a game (game over, or the pause menu's NEW GAME): back to the
; puzzle menu after a puzzle, else to the title.
; Uses local+0..15.  Clobbers A, X, Y.
.proc leave_game
  lda puz_cur
  beq @title
  jmp puzzles_enter
@title:
  jmp title_enter
.endproc
