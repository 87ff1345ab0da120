; main.s: the main loop and the screen state machine.
;
; The main loop owns all game logic; the NMI only services the frame.  Each
; pass: read the pads, then either run the one search the screens asked for
; (ui_think) or the handler of the current screen (ui_screen), then (on the
; board screens) the sprites and a few cells of the Chinese move list, then
; wait_frame hands the shadow OAM and the VRAM queue to the next NMI.
;
; The loop lives in the UI bank (bank.s: the main loop's home) and reaches
; the game layer in the engine's bank with FAR_CALL.  game_think is called
; from here, at the loop's own stack depth (S = $FA inside it: the far
; call's frame is 3 bytes deeper than a JSR), because the engine may use 48
; of the 64 stack bytes: the screens never call it themselves, they set
; ui_think and return.
; States and transitions: docs/UI.md.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"

PUZ_LEVEL = LEVEL_COUNT - 1   ; the computer's level in a puzzle: the strongest (Master)

.segment "UI_CODE"

;;
; Entry from reset_handler (RAM cleared, rendering and NMI off, palette
; loaded).  Shows the title, then runs the loop.  Never returns.
.proc main
  jsr settings_load     ; what a soft reset kept, else power-on defaults
  jsr title_enter
@loop:
  jsr read_pads
  jsr merge_pad2
  lda ui_screen         ; the demo: any button, even between two searches
  cmp #UI_SCREEN_ATTRACT
  bne @think
  lda pad_held
  ora busy_pads         ; or a tap during the last search (the NMI saw it)
  beq @think
  jsr title_enter
  jmp @frame
@think:
  lda ui_think
  beq @screen
  jsr think_begin
  lda #0                ; a hint and the demo play at the weakest level
  ldx ui_think
  cpx #UI_THINK_HINT
  beq @level
  ldx ui_screen
  cpx #UI_SCREEN_ATTRACT
  beq @level
  lda #PUZ_LEVEL        ; a puzzle: the strongest
  ldx puz_cur
  bne @level
  lda ui_level
@level:
  FAR_CALL game_think   ; A = from, X = to; seconds to tens of seconds
  pha
  txa
  pha
  jsr think_end
  pla
  tax
  pla
  jsr play_after_think
  jmp @frame
@screen:
  jsr run_screen
@frame:
  lda ui_screen
  beq @no_sprites       ; the title and the puzzle menu keep their own sprites
  cmp #UI_SCREEN_PUZZLES
  beq @no_sprites
  jsr board_sprites
  jsr zh_panel_step     ; the Chinese move list's glyphs, a few a frame
@no_sprites:            ; (those two call the engine only on their way to a
  jsr wait_frame        ; board screen, whose screen_on hides every sprite)
  jmp @loop
.endproc

;;
; Calls the handler of the current screen (ui_screen).
; Clobbers A, X, Y, locals (whatever the handler does).
.proc run_screen
  ldx ui_screen
  lda screen_lo,x
  sta local+0
  lda screen_hi,x
  sta local+1
  jmp (local+0)
.endproc

;;
; Before a search: shows the clock in the panel (under the side), hides the
; cursor and the dots, puts the spinner sprite up, writes the Chinese move
; list's pending glyphs (zh_panel_finish: about 6 frames after a ply, up to
; 22 after a take-back), flushes the VRAM queue, then sets ui_busy so that
; the NMI animates both while the main loop is inside game_think.
; Clobbers A, X, Y, locals.
.proc think_begin
  lda #0
  sta think_frames
  sta think_secs
  jsr panel_think       ; "  00 SEC"
  jsr ppu_clear_oam     ; no cursor while the computer thinks
  lda #THINK_Y - 1
  sta oam + SPINNER_OAM + OAM_Y
  lda #SPR_TILE_SPINNER
  sta oam + SPINNER_OAM + OAM_TILE
  lda #SPINNER_PAL
  sta oam + SPINNER_OAM + OAM_ATTR
  lda #THINK_X
  sta oam + SPINNER_OAM + OAM_X
  jsr zh_panel_finish   ; the move list complete before the main loop stops
  jsr wait_frame        ; the queue is out: the NMI may now write VRAM itself
  lda #0
  sta busy_pads
  lda #1
  sta ui_busy
  rts
.endproc
THINK_X = PANEL_LEFT_COL * 8
THINK_Y = THINK_ROW * 8

;;
; After a search: clears ui_busy (the NMI stops touching VRAM), then reads
; the pads once so that buttons pressed during the search are not taken as
; new presses, and clears the clock row.
; Clobbers A, X, Y, locals.
.proc think_end
  lda #0
  sta ui_busy           ; (ui_think stays: play_after_think reads it)
  jsr read_pads
  jsr read_pads
  lda #$FF
  sta oam + SPINNER_OAM + OAM_Y
  rts
.endproc

;;
; Two players: on Black's turn pad 2 counts as well as pad 1, so two
; people can share one controller or use one each.  (Red always plays with
; pad 1; one player and the menus use pad 1 only.)
; Clobbers A.
.proc merge_pad2
  lda ui_players
  cmp #UI_HUMAN_RED | UI_HUMAN_BLACK
  bne @done
  lda eng_side
  beq @done
  lda pad_held
  ora pad_held+1
  sta pad_held
  lda pad_pressed
  ora pad_pressed+1
  sta pad_pressed
@done:
  rts
.endproc

.segment "UI_DATA"
screen_lo:
  .lobytes title_update, play_update, pause_update, over_update, play_update, puzzles_update
  .lobytes setup_update, setup_menu_update
screen_hi:
  .hibytes title_update, play_update, pause_update, over_update, play_update, puzzles_update
  .hibytes setup_update, setup_menu_update
.assert UI_SCREEN_ATTRACT = 4 && UI_SCREEN_PUZZLES = 5, error, "screen table order"
.assert UI_SCREEN_SETUP = 6 && UI_SCREEN_SETUP_MENU = 7, error, "screen table order"
