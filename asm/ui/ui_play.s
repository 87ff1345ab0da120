; ui_play.s: the game on the board screen: the human's input, the moves
; of both sides, the pause menu, the end of the game and the demo.
;
; Turn flow: turn_begin asks game_outcome (which also lists the legal
; moves); if the game goes on and the side to move is the computer's, it
; sets ui_think and the main loop runs game_think, then play_after_think
; plays the move it found.  Otherwise play_update takes the human's input
; frame by frame.  Every change of the position goes board_unmark,
; board_snap, game_play / game_undo, board_sync, board_marks, so the screen
; always shows the engine's board; the next turn_begin turns the board
; round first when the view asks for it (view_update, ui_board.s).

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"

PAUSE_ITEMS       = 5    ; RESUME, TAKEBACK, HINT, RESIGN, NEW GAME
ITEM_RESUME       = 0
ITEM_TAKEBACK     = 1
ITEM_HINT         = 2
ITEM_RESIGN       = 3
ITEM_NEW_GAME     = 4
ATTRACT_MAX_PLIES = 100  ; the demo goes back to the title after this
ATTRACT_END_FRAMES = 180 ; and shows a finished game's result for 3 s
CURSOR_FILE_START = 4    ; e
CURSOR_RANK_RED   = 3    ; on the middle pawn of the human's side
CURSOR_RANK_BLACK = 6

.segment "UI_CODE"

;;
; Starts a game from the opening with the title's settings (ui_players,
; ui_level).
; Uses local+0..15.  Clobbers A, X, Y.
.proc play_enter
  jsr settings_save     ; a soft reset comes back to these
  lda #0
  sta puz_cur           ; not a puzzle
  ; fall through
.endproc

;;
; Starts the game of puz_cur (0: from the opening; else that puzzle's
; position, ui_players set by puzzle_start).
; Uses local+0..15.  Clobbers A, X, Y.
.proc game_enter
  jsr game_prepare
  jsr new_game
  jmp turn_begin
.endproc

;;
; Before a game's first turn (game_enter, the editor's PLAY): stirs the
; seed, sets the play screen and puts the cursor on the middle pawn of the
; human's side.
; Clobbers A, X.
.proc game_prepare
  lda nmi_count         ; stir the seed with the time spent on the menus
  eor game_seed
  sta game_seed
  ora game_seed+1
  bne :+
  lda #<LFSR_DEFAULT    ; never 0 (the noise LFSR would stay at 0)
  sta game_seed
  lda #>LFSR_DEFAULT
  sta game_seed+1
: lda #UI_SCREEN_PLAY
  sta ui_screen
  ldx #CURSOR_RANK_RED
  lda ui_players
  cmp #UI_HUMAN_BLACK
  bne :+
  ldx #CURSOR_RANK_BLACK
: stx cursor_rank
  rts
.endproc

;;
; Starts the demo: the computer plays both sides at level 0.
; Uses local+0..15.  Clobbers A, X, Y.
.proc attract_enter
  lda #UI_SCREEN_ATTRACT
  sta ui_screen
  lda #0
  sta ui_players        ; no human
  sta puz_cur           ; not a puzzle
  sta busy_pads         ; no stale press from an earlier search
  jsr new_game
  jsr panel_demo
  jmp turn_begin
.endproc

;;
; game_new (or game_start with puzzle puz_cur's position), the UI's game
; state, and the board screen drawn with the screen off, from the side
; view_wanted names (ui_players, ui_view); a puzzle's goal in the panel.
; Uses local+0..15.  Clobbers A, X, Y.
.proc new_game
  lda puz_cur
  beq @opening
  sec
  sbc #1
  FAR_CALL puz_load     ; eng_load_buf, eng_side, eng_clock
  FAR_CALL game_start
  jmp new_game_screen
@opening:
  FAR_CALL game_new
  ; fall through
.endproc

;;
; The UI's state of a new game whose position the engine holds (new_game's,
; or the editor's after game_setup_start), and the board screen drawn with
; the screen off from the side view_wanted names; a puzzle's goal in the
; panel.
; Uses local+0..15.  Clobbers A, X, Y.
.proc new_game_screen
  jsr view_wanted
  sta ui_flip
  lda #0
  sta ui_sel
  sta ui_result
  sta ui_think
  sta ui_idle
  sta ui_opening        ; (board_redraw draws the panel's title)
  lda #GAME_NO_WINNER
  sta ui_winner
  lda #CURSOR_FILE_START
  sta cursor_file
  jsr screen_off
  jsr ppu_clear_oam
  jsr board_redraw
  lda #CTRL_SPR_1000 | CTRL_NT_2000
  jsr screen_on
  lda puz_cur
  beq @rts
  sec
  sbc #1
  FAR_CALL puz_panel    ; "PUZZLE n" and the goal instead of the level
@rts:
  rts
.endproc

;;
; The start of a turn: turns the board if the view setting asks for it
; (view_update: two players, UI_VIEW_TURN), ends the game if it is over,
; else updates the panel and, if the computer is to move, asks the main
; loop for its move.  game_outcome leaves the legal moves listed for the
; human.
; Uses local+0..15.  Clobbers A, X, Y.
.proc turn_begin
  jsr view_update
  FAR_CALL game_outcome
  beq @ongoing
  jmp game_over
@ongoing:
  jsr puzzle_limit      ; a puzzle's move limit reached: over
  bcc :+
  jmp game_over
: jsr panel_turn
  lda ui_screen
  cmp #UI_SCREEN_ATTRACT
  bne @game
  lda game_ply+1
  bne @demo_over
  lda game_ply
  cmp #ATTRACT_MAX_PLIES
  bcc @computer
@demo_over:
  jmp title_enter
@game:
  ldx eng_side
  lda side_human,x
  and ui_players
  bne @human
@computer:
  lda #UI_THINK_MOVE
  sta ui_think
@human:
  rts
.endproc

;;
; One frame of the board screen (play and demo).  Demo: any button goes
; back to the title (and so does the end of a demo game, after a while).
; Play (the human's turn): Start pauses; the D-pad moves the cursor; A on
; one of the mover's pieces picks it up (its legal destinations show as
; dots), A on a destination plays the move, A on another own piece picks
; that one up, A on the picked-up piece or B puts it down.
; Uses local+0..15.  Clobbers A, X, Y.
.proc play_update
target = local+8
  lda ui_screen
  cmp #UI_SCREEN_ATTRACT
  bne @play
  lda pad_pressed
  ora pad_held
  bne @to_title
  lda ui_result
  bne :+
  rts
: inc ui_idle
  lda ui_idle
  cmp #ATTRACT_END_FRAMES
  bcs @to_title
  rts
@to_title:
  jmp title_enter
@play:
  lda pad_pressed
  and #KEY_START
  beq :+
  jmp pause_enter
: jsr cursor_move
  lda pad_pressed
  and #KEY_B
  beq @not_b
  lda ui_sel
  beq @not_b
  lda #0
  sta ui_sel
  lda #SFX_CURSOR
  jsr sfx_play
@not_b:
  lda pad_pressed
  and #KEY_A
  beq @rts
  jsr cursor_square     ; X = the square under the cursor
  stx target
  lda board,x
  beq @not_own
  and #BLACK_TAG        ; $20 for Black
  asl a
  asl a
  asl a                 ; C = 1 for Black
  lda #0
  rol a
  cmp eng_side
  bne @not_own
  cpx ui_sel            ; own piece: the picked-up one goes down
  beq @put_down
  ldy game_nmoves       ; pick it up if it can move
@scan:
  dey
  bmi @error
  txa
  cmp ms_from,y
  bne @scan
  stx ui_sel
  lda #SFX_SELECT
  jmp sfx_play
@put_down:
  lda #0
  sta ui_sel
  lda #SFX_CURSOR
  jmp sfx_play
@not_own:               ; empty or the opponent's: a destination?
  lda ui_sel
  beq @error
  ldx target
  FAR_CALL game_find_move
  bcs @error
  lda ui_sel
  ldx target
  jsr play_move
  jmp turn_begin
@error:
  lda #SFX_ERROR
  jmp sfx_play
@rts:
  rts
.endproc

;;
; After the main loop's game_think: plays the computer's move (blinking
; the piece and marking it), or, for a hint, picks up the suggested piece
; and puts the cursor on its destination.
; @param A from, X to (game_think's result; 0 if there was none)
; Uses local+0..15.  Clobbers A, X, Y.
.proc play_after_think
to = local+8
  ldy ui_think
  stx to
  ldx #UI_THINK_NONE
  stx ui_think
  cpy #UI_THINK_HINT
  beq @hint
  cmp #0
  beq @none
  ldx to
  jsr play_move
  lda s_res_book        ; a book move: the opening of the position it led to
  beq :+                ; (else of the one it was played in); searched: none
  jsr book_opening
  bne :+
  lda s_res_book
: jsr panel_opening
  jsr board_blink
  jsr board_marks
@none:
  jmp turn_begin
@hint:
  cmp #0
  beq @no_hint
  sta ui_sel
  ldx to
  lda sq_file,x
  sta cursor_file
  lda sq_rank,x
  sta cursor_rank
  FAR_CALL game_gen_legal ; the search used the move stack
  lda #SFX_SELECT
  jsr sfx_play
@no_hint:
  jmp panel_turn
.endproc

;;
; Plays a legal move on the board and the screen, with its sound (check,
; capture or move), and marks it as the last move.
; @param A from, X to (padded squares)
; Uses local+0..15.  Clobbers A, X, Y.
.proc play_move
  pha
  txa
  pha
  jsr board_unmark
  jsr board_snap
  pla
  tax
  pla
  jsr zh_note_move      ; 前/中/后 for the move list (keeps A, X)
  FAR_CALL game_play
  lda #0
  sta ui_sel
  jsr board_sync
  jsr board_marks
  lda #SFX_CHECK
  ldx game_check
  bne @sound
  lda #SFX_CAPTURE
  ldx game_captured
  bne @sound
  lda #SFX_MOVE
@sound:
  jmp sfx_play
.endproc

;;
; The game is over: records the result, shows it (and whether a puzzle is
; solved: puzzle_over), plays the jingle.
; @param A result (game_outcome's A, UI_RESULT_RESIGN or UI_RESULT_LIMIT), X winner
; Uses local+0..15.  Clobbers A, X, Y.
.proc game_over
  sta ui_result
  stx ui_winner
  lda #0
  sta ui_sel
  sta ui_think
  sta ui_idle
  jsr panel_moves
  jsr panel_result
  jsr puzzle_over
  lda ui_screen
  cmp #UI_SCREEN_ATTRACT
  beq :+
  lda #UI_SCREEN_OVER
  sta ui_screen
: lda #SFX_GAME_OVER
  jmp sfx_play
.endproc

;;
; One frame of the game-over screen: A or Start goes back to the title
; (to the puzzle menu after a puzzle).
; Uses local+0..15.  Clobbers A, X, Y.
.proc over_update
  lda pad_pressed
  and #KEY_A | KEY_START
  beq :+
  jmp leave_game
: rts
.endproc

;;
; Opens the pause menu in the panel.
; Uses local+0..15.  Clobbers A, X, Y.
.proc pause_enter
  lda #UI_SCREEN_PAUSE
  sta ui_screen
  lda #0
  sta ui_menu
  sta ui_sel
  jsr panel_menu
  lda #SFX_SELECT
  jmp sfx_play
.endproc

;;
; One frame of the pause menu: Up/Down choose, A or Start take the item,
; B resumes.
; Uses local+0..15.  Clobbers A, X, Y.
.proc pause_update
  ldx #PAUSE_ITEMS
  jsr menu_up_down      ; A = the old item
  bcc @not_moved
  jsr menu_item_palette ; the old item back to black
  lda ui_menu
  jsr menu_item_palette ; the new one red
  lda #SFX_CURSOR
  jmp sfx_play
@not_moved:
  lda pad_pressed
  and #KEY_B
  beq @not_b
  jmp resume
@not_b:
  lda pad_pressed
  and #KEY_A | KEY_START
  beq @rts
  lda ui_menu
  cmp #ITEM_NEW_GAME
  bne :+
  jmp leave_game        ; the title, or the puzzle menu
: pha
  jsr resume
  pla
  cmp #ITEM_TAKEBACK
  bne :+
  jmp takeback
:
  cmp #ITEM_HINT
  bne @not_hint
  lda #UI_THINK_HINT
  sta ui_think
  rts
@not_hint:
  cmp #ITEM_RESIGN
  bne @rts
  lda eng_side          ; the side to move (the human's) resigns
  eor #1
  tax
  lda #UI_RESULT_RESIGN
  jmp game_over
@rts:
  rts
.endproc

;;
; Closes the pause menu: back to play, the panel's move rows redrawn.
; Uses local+0..15.  Clobbers A, X, Y.
.proc resume
  lda #UI_SCREEN_PLAY
  sta ui_screen
  lda ui_lang
  beq :+
  jsr zh_menu_close     ; the Chinese menu's top row
: jmp panel_moves
.endproc

;;
; TAKE BACK: against the computer, takes back plies until the human is to
; move again (normally the computer's reply and the human's move); with
; two players, one ply.  Refused (error blip) when the record is empty.
; Uses local+0..15.  Clobbers A, X, Y.
.proc takeback
  jsr board_unmark
  jsr board_snap
  FAR_CALL game_undo
  bcs @nothing
  lda ui_players
  cmp #UI_HUMAN_RED | UI_HUMAN_BLACK
  beq @done
  ldx eng_side
  lda side_human,x
  and ui_players
  bne @done
  FAR_CALL game_undo    ; the computer's move was undone: the human's too
@done:
  lda #0
  jsr panel_opening     ; no name until the computer plays from the book again
  jsr board_sync
  jsr board_marks
  lda #SFX_MOVE
  jsr sfx_play
  jmp turn_begin
@nothing:
  jsr board_marks
  lda #SFX_ERROR
  jmp sfx_play
.endproc

.segment "UI_DATA"
side_human:
  .byte UI_HUMAN_RED, UI_HUMAN_BLACK
