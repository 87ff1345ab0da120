; ui_puzzle.s: the endgame puzzles: their menu, starting one, its move
; limit and its end (docs/UI.md).
;
; The title's PUZZLES item opens the menu (UI_SCREEN_PUZZLES): one row per
; puzzle on two pages of PUZ_PAGE_ROWS, drawn by puz_draw_menu in the
; puzzles' bank (asm/puzzles/puzzles.s, reached with FAR_CALL), the cursor
; on ui_menu; the cursor moving onto the other page draws the menu again.  A puzzle is a game like
; the others (ui_play.s) with puz_cur = its number: new_game loads its
; position, the human plays its side (ui_players) against the computer at
; the strongest level (main.s), the panel shows its goal instead of the
; level; turn_begin ends it at its move limit (puzzle_limit), game_over
; marks it solved when the goal is reached (puzzle_over).  ui_players is
; the title's again when the title comes back (title_enter takes it from
; keep_settings).
;
; In ALL CHINESE (ui_lang) the menu's heading is 残局 and its help 开始
; (A), 返回 (B), 已解 (the solved mark), in the move list's cells 0-31
; (puzzles_zh_draw); the puzzles' names and goals stay English (a row of
; tiles each: a glyph is two); a puzzle's end says 成功 / 失败 (zh_verdict).

PUZ_ZH_TEXTS = 4         ; puzzles_zh_draw: 残局, 开始, 返回, 已解
PUZ_HELP_VRAM = NAMETABLE_0 + (PUZ_FIRST_ROW + PUZ_PAGE_ROWS) * 32  ; the help row (puzzles.s)
.assert PUZ_FIRST_ROW + PUZ_PAGE_ROWS + 1 <= 29, error, "the puzzle menu's Chinese help: two tile rows"

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
  ; (falls into puzzles_draw)
.endproc

;;
; Draws the puzzle menu's page of ui_menu, rendering off meanwhile (the
; English menu, then the Chinese heading and help in ALL CHINESE).
; Uses local+0..15.  Clobbers A, X, Y.
.proc puzzles_draw
  jsr screen_off
  jsr ppu_clear_oam
  FAR_CALL puz_draw_menu
  lda ui_lang
  beq :+
  jsr puzzles_zh_draw
: lda #CTRL_SPR_1000 | CTRL_NT_2000    ; the board's tiles (font at $0000)
  jmp screen_on
.endproc

;;
; The puzzle menu's heading and help in Chinese, over the English ones
; (NMI is off: copied at once), in the move list's cells 8 * text.
; Uses local+0..13.  Clobbers A, X, Y.
.proc puzzles_zh_draw
item = local+13
  jsr zh_release        ; the list's cells are the menu's now
  lda #0
  sta item
@text:
  ldx item
  lda puz_zh_text_lo,x
  sta local+0
  lda puz_zh_text_hi,x
  sta local+1
  lda puz_zh_pad,x
  sta local+2
  lda puz_zh_width,x
  sta local+3
  txa
  asl a
  asl a
  asl a
  sta local+4
  ldy puz_zh_vram_lo,x
  lda puz_zh_vram_hi,x
  tax
  jsr zh_line
  inc item
  lda item
  cmp #PUZ_ZH_TEXTS
  bcc @text
  lda #<puz_zh_keys     ; "A:" before 开始, "B:" before 返回 (top rows)
  sta local+0
  lda #>puz_zh_keys
  sta local+1
  ldx #>(PUZ_HELP_VRAM + 5)
  ldy #<(PUZ_HELP_VRAM + 5)
  lda #2
  jsr put_text
  lda #<(puz_zh_keys + 2)
  sta local+0
  lda #>(puz_zh_keys + 2)
  sta local+1
  ldx #>(PUZ_HELP_VRAM + 12)
  ldy #<(PUZ_HELP_VRAM + 12)
  lda #2
  jsr put_text
  jmp vram_flush
.endproc

;;
; One frame of the puzzle menu: Up/Down move the cursor (onto the other
; page past a page's end), Left/Right turn to the first / second page (the
; cursor on the same row, or on the last puzzle), A or Start play the
; puzzle under it, B goes back to the title.
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
  lda pad_pressed
  and #KEY_LEFT
  beq @not_left
  lda ui_menu           ; page 2 -> page 1
  sec
  sbc #PUZ_PAGE_ROWS
  bcc @rts
  sta ui_menu
  bcs @page             ; (always)
@not_left:
  lda pad_pressed
  and #KEY_RIGHT
  beq @up_down
  lda ui_menu           ; page 1 -> page 2
  cmp #PUZ_PAGE_ROWS
  bcs @rts
  adc #PUZ_PAGE_ROWS    ; (C = 0)
  cmp #PUZ_COUNT
  bcc :+
  lda #PUZ_COUNT - 1
: cmp ui_menu
  beq @rts              ; (one page: nowhere to go)
  sta ui_menu
  jmp @page
@up_down:
  ldx #PUZ_COUNT
  jsr menu_up_down
  bcc @rts
  cmp #PUZ_PAGE_ROWS    ; A = the old item: from the second page's first
  beq @page
  lda ui_menu
  cmp #PUZ_PAGE_ROWS    ; or onto it: the other page
  beq @page
  FAR_CALL puz_cursor_sprite
  lda #SFX_CURSOR
  jmp sfx_play
@page:
  lda #SFX_CURSOR
  jsr sfx_play
  jmp puzzles_draw
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
  bne puzzle_verdict    ; (always)
@failed:
  ldx #T_FAILED
  bne puzzle_verdict    ; (always)
@rts:
  rts
.endproc

;;
; Shows whether the puzzle is solved: SOLVED! / FAILED on the panel's goal
; row, or in Chinese 成功 / 失败 in place of 终局 (zh_verdict).
; @param X T_SOLVED or T_FAILED
; Uses local+0..12.  Clobbers A, X, Y.
.proc puzzle_verdict
  lda ui_lang
  bne :+
  jmp ui_text
: jmp zh_verdict
.endproc
.assert T_SOLVED <> 0 && T_FAILED <> 0, error, "puzzle_over branches on them"

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

.segment "UI_DATA"
; puzzles_zh_draw: 残局 over the heading (rows 1-2), 开始 / 返回 / 已解 over
; the help row (the keys' and the mark's places in "A: PLAY  B: BACK   SOLVED")
puz_zh_text_lo:
  .lobytes zht_title_puzzles, zht_setup_play, zht_puz_back, zht_puz_solved
puz_zh_text_hi:
  .hibytes zht_title_puzzles, zht_setup_play, zht_puz_back, zht_puz_solved
puz_zh_vram_lo:
  .byte <(NAMETABLE_0 + 1 * 32 + 8), <(PUZ_HELP_VRAM + 5), <(PUZ_HELP_VRAM + 11), <(PUZ_HELP_VRAM + 18)
puz_zh_vram_hi:
  .byte >(NAMETABLE_0 + 1 * 32 + 8), >(PUZ_HELP_VRAM + 5), >(PUZ_HELP_VRAM + 11), >(PUZ_HELP_VRAM + 18)
puz_zh_pad:             ; glyphs at columns 14, 7, 14, 23
  .byte 6, 2, 3, 5
puz_zh_width:           ; over "ENDGAME PUZZLES" (columns 8-22) and the help (5-29)
  .byte 15, 6, 7, 12
puz_zh_keys:
  .byte "A:B:"
