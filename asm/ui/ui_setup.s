; ui_setup.s: the position editor (the title's SET UP item; docs/UI.md).
;
; The editor shows the board screen, Red at the bottom, with the cursor;
; its position is the engine's own (asm/game/game_setup.s), so it needs no
; RAM of its own: the board, the piece counts and eng_side are the state,
; ui_screen says which of the two modes has the pad, ui_menu the menu's
; item, and setup_refused (= ui_result, ram.s) whether a refusal is shown.
;
; Board mode (UI_SCREEN_SETUP), hint line under the board:
;   D-pad   the cursor
;   A       the next piece the square allows: empty, Red's king, advisor,
;           elephant, horse, rook, cannon, pawn, then Black's, then empty,
;           skipping a kind that can never stand there (setup_allowed) or
;           that the side already has its full count of (1 king, 2 each,
;           5 pawns)
;   B       empties the square
;   Select  the side to move (also in the menu)
;   Start   the menu
; Menu mode (UI_SCREEN_SETUP_MENU): the items in the panel where the pause
; menu is: PLAY, SIDE, STANDARD (the opening position), EMPTY (the two
; kings only), EXIT (the title).  Up/Down, A or Start to take the item,
; B back to the board.  PLAY runs game_setup_start: a position it refuses
; stays in the editor with the reason over the river, in red; a good one
; is a game like the others (ui_play.s) with the title's settings.
;
; Texts: English, or with ALL CHINESE (ui_lang) the menu (开始 先后 初始
; 清空 退出), the side to move (红先 / 黑先) and a refusal's reason (one
; line: 缺少红帅 ...) in glyphs (zh_line), in the Chinese move list's 64
; cells, which the editor has to itself (zh_release): the menu cells 0-39,
; the side 40-47, the reason 48-63.  The hint line stays English (one tile
; row: a glyph needs two), and so does the English refusal's "CANNOT PLAY".

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"

SETUP_ITEMS        = 5
SETUP_ITEM_PLAY    = 0
SETUP_ITEM_SIDE    = 1
SETUP_ITEM_STANDARD = 2
SETUP_ITEM_EMPTY   = 3
SETUP_ITEM_EXIT    = 4
SETUP_NO_ITEM      = $FF  ; ui_menu in board mode: no item in red
HINT_ROW           = 27   ; the hint line: tile row under the board's frame
HINT_COL           = 2
HINT_LEN           = 28
KING_RED_SQ90      = 4    ; e0: the kings of EMPTY
KING_BLACK_SQ90    = 85   ; e9
START_CURSOR_FILE  = 4    ; the cursor starts on Red's king
SETUP_RESULT_COL   = 3    ; the refusal: tile columns 3-17 of the river rows
SETUP_RESULT_LEN   = 15
SETUP_RIVER_VRAM   = NAMETABLE_0 + RIVER_MROW * 64 + SETUP_RESULT_COL
SETUP_ZH_MENU_VRAM = NAMETABLE_0 + (MENU_ROW - 1) * 32 + PANEL_LEFT_COL  ; an item a metatile row
SETUP_ZH_SIDE_VRAM = NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL
ZH_CELL_SIDE       = 40   ; the Chinese cells: the menu's 0-39 (8 an item), the side's,
ZH_CELL_REASON     = 48   ;   the reason's (4 glyphs)

.segment "UI_CODE"

;;
; Opens the editor from the title: the title's settings saved, the
; standard position (game_new), Red to move, the board screen drawn from
; Red's side with the menu (no item chosen) and the hint.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_enter
  jsr settings_save     ; a soft reset comes back to the title's choices
  lda #0
  sta puz_cur           ; (leave_game: back to the title)
  FAR_CALL game_new     ; the standard position, Red to move
  lda #UI_SCREEN_SETUP
  sta ui_screen
  lda #0
  sta ui_flip           ; Red at the bottom, whatever the players
  sta ui_sel
  sta setup_refused
  sta ui_think
  sta ui_idle
  sta ui_opening
  sta cursor_rank
  lda #START_CURSOR_FILE
  sta cursor_file
  lda #SETUP_NO_ITEM
  sta ui_menu
  jsr screen_off
  jsr ppu_clear_oam
  jsr board_redraw
  lda ui_lang
  beq :+
  jsr zh_release        ; the list's cells are the editor's now
: jsr setup_menu_texts
  jsr setup_menu_draw
  jsr setup_side_text
  jsr vram_flush        ; NMI is off: copied at once
  lda #CTRL_SPR_1000 | CTRL_NT_2000
  jmp screen_on
.endproc

;;
; One frame of the editor's board mode: the cursor, A (the next piece),
; B (empty), Select (the side to move), Start (the menu).
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_update
  lda pad_pressed
  and #KEY_START
  beq @not_start
  lda #UI_SCREEN_SETUP_MENU
  sta ui_screen
  lda #SETUP_ITEM_PLAY
  sta ui_menu
  jsr setup_menu_draw
  lda #SFX_SELECT
  jmp sfx_play
@not_start:
  jsr cursor_move
  lda pad_pressed
  and #KEY_SELECT
  beq @not_select
  jmp setup_side
@not_select:
  lda pad_pressed
  and #KEY_B
  beq @not_b
  jsr setup_unrefuse
  jsr cursor_sq90
  lda #PIECE_NONE
  jsr setup_put
  jmp setup_blip
@not_b:
  lda pad_pressed
  and #KEY_A
  beq @rts
  jsr setup_unrefuse
  jsr setup_cycle
  jmp setup_blip
@rts:
  rts
.endproc

;;
; One frame of the editor's menu: Up/Down choose, A or Start take the item,
; B goes back to the board.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_menu_update
  ldx #SETUP_ITEMS
  jsr menu_up_down      ; A = the old item
  bcc @not_moved
  jsr menu_item_palette ; the old item back to black
  lda ui_menu
  jsr menu_item_palette ; the new one red
  jmp setup_blip
@not_moved:
  lda pad_pressed
  and #KEY_B
  beq @not_b
  jsr setup_board_mode
  jmp setup_blip
@not_b:
  lda pad_pressed
  and #KEY_A | KEY_START
  bne :+
  rts
: lda ui_menu
  cmp #SETUP_ITEM_EXIT
  bne :+
  lda #SFX_SELECT
  jsr sfx_play
  jmp title_enter
: cmp #SETUP_ITEM_PLAY
  bne :+
  jmp setup_play
: pha
  jsr setup_board_mode  ; the other items act on the board and give it the pad back
  jsr setup_unrefuse
  pla
  cmp #SETUP_ITEM_SIDE
  bne :+
  jmp setup_side
: cmp #SETUP_ITEM_STANDARD
  bne @empty
  jsr board_snap
  FAR_CALL game_new     ; the standard position, Red to move
  jsr board_sync
  jmp setup_side_blip
@empty:
  jsr board_snap
  ldx #BOARD_SQUARES - 1
  lda #PIECE_NONE
: sta eng_load_buf,x
  dex
  bpl :-
  lda #PIECE_KING
  sta eng_load_buf + KING_RED_SQ90
  lda #PIECE_BLACK + PIECE_KING
  sta eng_load_buf + KING_BLACK_SQ90
  lda #0
  sta eng_side
  jsr setup_load
  jmp setup_side_blip
.endproc

;;
; PLAY: game_setup_start checks the position; a refused one stays in the
; editor (board mode) with its reason, a good one starts the game with the
; title's settings (ui_players, ui_level, ui_view) from its first turn.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_play
  FAR_CALL game_setup_start   ; A = SETUP_OK or the reason
  tax
  bne @refused
  lda #SFX_SELECT
  jsr sfx_play
  jsr game_prepare      ; the seed, the play screen, the cursor
  jsr new_game_screen   ; the UI's game state and the board screen
  jmp turn_begin
@refused:
  pha
  jsr setup_board_mode
  jsr setup_unrefuse
  pla
  jmp setup_refuse
.endproc

;;
; Back to board mode: ui_screen, no item in red, the board's hint.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_board_mode
  lda #UI_SCREEN_SETUP
  sta ui_screen
  lda #SETUP_NO_ITEM
  sta ui_menu
  ; fall through
.endproc

;;
; The menu's palettes (the item ui_menu in red, none in board mode) and
; the hint line of the mode (ui_screen).
; Uses local+0..3, local+12..15.  Clobbers A, X, Y.
.proc setup_menu_draw
item = local+3
  lda #SETUP_ITEMS - 1
  sta item
@item:
  lda item
  jsr menu_item_palette
  dec item
  bpl @item
  ldx #ST_HINT_BOARD
  lda ui_screen
  cmp #UI_SCREEN_SETUP_MENU
  bne :+
  ldx #ST_HINT_MENU
: jmp setup_text
.endproc

;;
; The menu's items in the panel: English, or (ui_lang) one line of two
; glyphs an item in the cells 8 * item .. (zh_line: about 14 frames with
; the screen on; setup_enter draws them with it off).
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_menu_texts
item = local+13
  lda #SETUP_ITEMS - 1
  sta item
@item:
  lda ui_lang
  bne @zh
  lda item
  clc
  adc #ST_PLAY
  tax
  jsr setup_text
  jmp @next
@zh:
  ldx item
  lda setup_zh_menu_lo,x
  sta local+0
  lda setup_zh_menu_hi,x
  sta local+1
  lda #2
  sta local+2           ; "  开始  "
  lda #8
  sta local+3
  txa
  asl a
  asl a
  asl a
  sta local+4           ; cells 8 * item ..
  ldy setup_zh_menu_vram_lo,x
  lda setup_zh_menu_vram_hi,x
  tax
  jsr zh_line
@next:
  dec item
  bpl @item
  rts
.endproc

;;
; A: the square under the cursor gets the next piece it allows (order in
; the file's header); empty after Black's pawn.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_cycle
kind = local+13
code = local+14          ; setup_put's
at   = local+15
  jsr cursor_sq90
  stx at
  lda sq_of90,x
  tax
  jsr code_at           ; A = side*8 + kind, 0 = empty
  sta code
@next:
  inc code
  lda code
  cmp #PIECE_BLACK
  bne :+
  inc code              ; (8 is no piece: Black's start at 9)
: lda code
  cmp #PIECE_BLACK * 2
  bcc @try
  lda #PIECE_NONE       ; after Black's pawn: empty (always allowed)
  beq @put
@try:
  jsr setup_allowed
  bcc @next
  lda code
@put:
  ldx at
  jmp setup_put
.endproc

;;
; May piece `code` be added on square `at` (setup_cycle's)?  Its side must
; have fewer than the standard count of the kind (counts), and the kind
; must be able to stand there (kings and advisors in the palace, the
; elephants' seven points, a pawn not behind its river's pawn points:
; reference_py/fen.py _can_stand; the table is Red's, Black's is the board
; turned half round: 89 - square, the points being the same on both wings).
; @return C = 1 allowed, C = 0 not
; Uses setup_cycle's kind, code, at.  Clobbers A, X, Y.
.proc setup_allowed
kind = setup_cycle::kind
code = setup_cycle::code
at   = setup_cycle::at
  lda code
  and #PIECE_TYPE_MASK
  sta kind
  tax
  ldy code
  lda counts,y          ; side*8 + kind: the pieces of the kind the side has
  cmp max_count,x
  bcs @no
  lda at
  cpy #PIECE_BLACK
  bcc :+
  lda #BOARD_SQUARES - 1
  sec
  sbc at                ; Black's: the square seen from Red's side
: tay
  lda red_stand,y
  and kind_bit,x
  beq @no
  sec
  rts
@no:
  clc
  rts
.endproc

;;
; Puts a piece code (or PIECE_NONE) on a square of the position and
; redraws what changed (board_snap, the edit of eng_compact's form,
; setup_load).
; @param A piece code (side*8 + kind, 0 = empty)
; @param X square 0-89 (rank * 9 + file)
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_put
code = local+14
at   = local+15
  sta code
  stx at
  jsr board_snap        ; (local+12)
  jsr eng_compact
  ldx at
  lda code
  sta eng_load_buf,x
  ; fall through
.endproc

;;
; Loads eng_load_buf as the position (clock 0, weight set 0) and redraws
; the squares that changed since board_snap.
; Uses local+0..15.  Clobbers A, X, Y.
; Cycles: about 11,000 for eng_load and 10,000 for board_sync.
.proc setup_load
  lda #0
  sta eng_clock
  sta eng_vset
  jsr eng_load
  jmp board_sync
.endproc

;;
; Select, or the menu's SIDE: the other side to move (eng_load again: the
; key has the side in it), shown in the panel.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_side
  jsr setup_unrefuse
  lda eng_side
  eor #1
  sta eng_side
  jsr board_snap
  jsr eng_compact
  jsr setup_load
  ; fall through
.endproc

;;
; The side to move in the panel, and the cursor's tick.
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_side_blip
  jsr setup_side_text
  ; fall through
.endproc

;;
; The editor's sound of a change: the cursor's tick.
; Clobbers A, X, Y.
.proc setup_blip
  lda #SFX_CURSOR
  jmp sfx_play
.endproc

;;
; The side to move in the panel: " RED" / " BLACK" (draw_side_to_move;
; the row under it is board_view_init's " TO MOVE"), or (ui_lang) 红先 /
; 黑先 over both rows in the side's colour (about 3 frames).
; Uses local+0..15.  Clobbers A, X, Y.
.proc setup_side_text
  lda ui_lang
  bne @zh
  lda eng_side
  beq :+
  lda #PIECE_BLACK
: jmp draw_side_to_move
@zh:
  ldx #<zht_red_first
  ldy #>zht_red_first
  lda eng_side
  beq :+
  ldx #<zht_black_first
  ldy #>zht_black_first
: stx local+0
  sty local+1
  lda #2
  sta local+2           ; "  红先  "
  lda #8
  sta local+3
  lda #ZH_CELL_SIDE
  sta local+4
  ldx #>SETUP_ZH_SIDE_VRAM
  ldy #<SETUP_ZH_SIDE_VRAM
  jsr zh_line
  lda eng_side
  clc
  adc #PAL_RED          ; Red's in red, Black's in black
  ldx #STATUS_MROW
  jmp panel_palette
.endproc
.assert PAL_BLACK = PAL_RED + 1, error, "setup_side_text adds the side to PAL_RED"

;;
; Shows why PLAY was refused over the river, in red: "CANNOT PLAY" and
; the reason, or (ui_lang) the reason in glyphs (缺少红帅 ..., about 6
; frames); setup_refused keeps it until the next change (setup_unrefuse).
; @param A the reason (game_setup_start's SETUP_NO_RED_KING ..)
; Uses local+0..2, local+12..15.  Clobbers A, X, Y.
.proc setup_refuse
  sta setup_refused
  lda ui_lang
  bne @zh
  ldx #ST_CANNOT
  jsr setup_text
  lda setup_refused
  clc
  adc #ST_REASON - 1
  tax
  jsr setup_text
  jmp @palette
@zh:                    ; one line of 4 glyphs over both river rows, centred
  ldx setup_refused
  lda setup_zh_reason_lo-1,x
  sta local+0
  lda setup_zh_reason_hi-1,x
  sta local+1
  lda #(SETUP_RESULT_LEN - 8) / 2
  sta local+2
  lda #SETUP_RESULT_LEN
  sta local+3
  lda #ZH_CELL_REASON
  sta local+4
  ldx #>SETUP_RIVER_VRAM
  ldy #<SETUP_RIVER_VRAM
  jsr zh_line
@palette:
  lda #PAL_RED
  jsr river_palette
  lda #SFX_ERROR
  jmp sfx_play
.endproc

;;
; Takes a refusal off the river, if one is shown: the river's two rows
; back from board_nametable (Red's view: the editor never turns the board)
; and their palette.
; Uses local+0..2, local+12..15.  Clobbers A, X, Y.
.proc setup_unrefuse
ptr = local+0            ; put_text's
  lda setup_refused
  beq @rts
  lda #0
  sta setup_refused
  lda #<(board_nametable + RIVER_MROW * 64 + SETUP_RESULT_COL)
  sta ptr
  lda #>(board_nametable + RIVER_MROW * 64 + SETUP_RESULT_COL)
  sta ptr+1
  lda #SETUP_RESULT_LEN
  ldx #>SETUP_RIVER_VRAM
  ldy #<SETUP_RIVER_VRAM
  jsr put_text
  lda #<(board_nametable + RIVER_MROW * 64 + 32 + SETUP_RESULT_COL)
  sta ptr
  lda #>(board_nametable + RIVER_MROW * 64 + 32 + SETUP_RESULT_COL)
  sta ptr+1
  lda #SETUP_RESULT_LEN
  ldx #>(SETUP_RIVER_VRAM + 32)
  ldy #<(SETUP_RIVER_VRAM + 32)
  jsr put_text
  lda #PAL_BOARD
  jmp river_palette
@rts:
  rts
.endproc

;;
; The palette of the river row's metatile columns 0-9 (the refusal's).
; @param A palette (PAL_*)
; Uses local+12..15.  Clobbers A, X, Y.
.proc river_palette
  ldy #5
  sty local+12          ; attribute columns 0-4: metatile columns 0-9
  ldx #RIVER_MROW
  ldy #0
  jmp attr_span
.endproc

;;
; Queues one of the editor's texts (the table below).
; @param X text id (ST_*)
; Uses local+0..2.  Clobbers A, X, Y.
.proc setup_text
  lda setup_text_lo,x
  sta local+0
  lda setup_text_hi,x
  sta local+1
  jmp put_text_record
.endproc

.segment "UI_DATA"
; the most pieces of a kind a side may have (reference_py/fen.py MAX_COUNT), by kind
max_count:
  .byte 0, 1, 2, 2, 2, 2, 2, 5
; 1 << kind
kind_bit:
  .byte $01, $02, $04, $08, $10, $20, $40, $80
; The kinds Red may put on each square, bit kind (1 king .. 7 pawn), by
; rank * 9 + file (generated from reference_py/fen.py _can_stand; horses,
; rooks and cannons go anywhere).
red_stand:
  .byte $70, $70, $78, $76, $72, $76, $78, $70, $70   ; rank 0
  .byte $70, $70, $70, $72, $76, $72, $70, $70, $70   ; rank 1
  .byte $78, $70, $70, $76, $7A, $76, $70, $70, $78   ; rank 2
  .byte $F0, $70, $F0, $70, $F0, $70, $F0, $70, $F0   ; rank 3
  .byte $F0, $70, $F8, $70, $F0, $70, $F8, $70, $F0   ; rank 4
  .byte $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0   ; rank 5
  .byte $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0   ; rank 6
  .byte $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0   ; rank 7
  .byte $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0   ; rank 8
  .byte $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0, $F0   ; rank 9
.assert * - red_stand = BOARD_SQUARES, error, "red_stand needs 90 squares"

; text ids (setup_text): the order of the table below
ST_PLAY       = 0        ; the menu: ST_PLAY + item
ST_HINT_BOARD = 5
ST_HINT_MENU  = 6
ST_CANNOT     = 7
ST_REASON     = 8        ; + reason - 1 (SETUP_NO_RED_KING ..)

.macro SETUP_ITEM_TEXT item, string
  .byte >(NAMETABLE_0 + (MENU_ROW + 2 * (item)) * 32 + PANEL_LEFT_COL)
  .byte <(NAMETABLE_0 + (MENU_ROW + 2 * (item)) * 32 + PANEL_LEFT_COL)
  .byte 8, string
.endmacro
.macro SETUP_HINT_TEXT string
  .byte >(NAMETABLE_0 + HINT_ROW * 32 + HINT_COL), <(NAMETABLE_0 + HINT_ROW * 32 + HINT_COL)
  .byte HINT_LEN, string
.endmacro
.macro SETUP_RIVER_TEXT row, string
  .byte >(SETUP_RIVER_VRAM + (row) * 32), <(SETUP_RIVER_VRAM + (row) * 32)
  .byte SETUP_RESULT_LEN, string
.endmacro
st_play:       SETUP_ITEM_TEXT SETUP_ITEM_PLAY, "PLAY    "
st_side:       SETUP_ITEM_TEXT SETUP_ITEM_SIDE, "SIDE    "
st_standard:   SETUP_ITEM_TEXT SETUP_ITEM_STANDARD, "STANDARD"
st_empty:      SETUP_ITEM_TEXT SETUP_ITEM_EMPTY, "EMPTY   "
st_exit:       SETUP_ITEM_TEXT SETUP_ITEM_EXIT, "EXIT    "
st_hint_board: SETUP_HINT_TEXT "A:PIECE  B:CLEAR  START:MENU"
st_hint_menu:  SETUP_HINT_TEXT "UP/DOWN  A:CHOOSE  B:BOARD  "
st_cannot:     SETUP_RIVER_TEXT 0, "  CANNOT PLAY  "
st_no_red:     SETUP_RIVER_TEXT 1, "  NO RED KING  "
st_no_black:   SETUP_RIVER_TEXT 1, " NO BLACK KING "
st_facing:     SETUP_RIVER_TEXT 1, " KINGS FACING  "
st_red_check:  SETUP_RIVER_TEXT 1, " RED IN CHECK  "
st_black_check: SETUP_RIVER_TEXT 1, "BLACK IN CHECK "
st_no_move:    SETUP_RIVER_TEXT 1, " NO LEGAL MOVE "
setup_text_lo:
  .lobytes st_play, st_side, st_standard, st_empty, st_exit, st_hint_board, st_hint_menu
  .lobytes st_cannot, st_no_red, st_no_black, st_facing, st_red_check, st_black_check, st_no_move
setup_text_hi:
  .hibytes st_play, st_side, st_standard, st_empty, st_exit, st_hint_board, st_hint_menu
  .hibytes st_cannot, st_no_red, st_no_black, st_facing, st_red_check, st_black_check, st_no_move
.assert setup_text_hi - setup_text_lo = ST_REASON + SETUP_NO_MOVE, error, "setup texts and ST_* ids differ"
; the Chinese texts (zh_glyphs.s, generated by tools/rom/art.py ZH_TEXTS)
setup_zh_menu_lo:
  .lobytes zht_setup_play, zht_setup_side, zht_setup_standard, zht_setup_empty, zht_setup_exit
setup_zh_menu_hi:
  .hibytes zht_setup_play, zht_setup_side, zht_setup_standard, zht_setup_empty, zht_setup_exit
setup_zh_menu_vram_lo:
  GLYPH_ROWS_LO SETUP_ZH_MENU_VRAM, SETUP_ITEMS
setup_zh_menu_vram_hi:
  GLYPH_ROWS_HI SETUP_ZH_MENU_VRAM, SETUP_ITEMS
setup_zh_reason_lo:     ; reason - 1
  .lobytes zht_no_red_king, zht_no_black_king, zht_kings_face, zht_red_in_check, zht_black_in_check, zht_no_move
setup_zh_reason_hi:
  .hibytes zht_no_red_king, zht_no_black_king, zht_kings_face, zht_red_in_check, zht_black_in_check, zht_no_move
.assert ZH_CELL_REASON + 16 <= ZH_MOVES * 16 && ZH_CELL_SIDE + 8 <= ZH_CELL_REASON, error, "the editor's Chinese cells"
.assert SETUP_NO_RED_KING = 1 && SETUP_NO_BLACK_KING = 2 && SETUP_KINGS_FACE = 3, error, "the reasons' order"
.assert SETUP_RED_IN_CHECK = 4 && SETUP_BLACK_IN_CHECK = 5 && SETUP_NO_MOVE = 6, error, "the reasons' order"
