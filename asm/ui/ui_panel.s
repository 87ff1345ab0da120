; ui_panel.s: the texts of the game screens: the status panel on the right
; of the board (whose turn, check, thinking clock, move number, the last
; moves), the pause menu, the game-over message over the river, and the
; title's menu values.  Everything goes through the VRAM queue, so it works
; with NMI on (one frame per queue-full) and off (copied at once).
;
; Panel rows (tile columns 22-29, tiles.inc):
;   4-7 the title (art), or the opening's name while the computer plays
;       from the book (panel_opening)
;   10 " RED    " / " BLACK  "      side to move (draw_side_to_move)
;   10-11 红方走棋 / 黑方走棋 / 将军   in Chinese (ui_lang: zh_status)
;   11 " TO MOVE" / " CHECK! " / " OVER   " /
;      "  07 SEC"                   THINK_ROW: while thinking; the NMI writes
;                                   the digits, the spinner turns at its left
;   14 " LEVEL  " / " DEMO   "      15 the level name
;   17 "MOVE  12"                   MOVE_ROW
;   19, 21, 23, 25                  HISTORY_ROW: the last 4 plies, newest
;                                   at the bottom, " 12 H2E2" in the
;                                   mover's colour (ICCS), or
;   18-25                           ZH_ROW: the last 4 plies in Chinese, two
;                                   rows each (panel_zh.s)
;   17, 19, ... 25                  MENU_ROW: the pause menu instead
;   16-25                           in Chinese: 继续 悔棋 ... (zh_menu)

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"
.include "book_const.inc"

; text ids (ui_text): order of the tables at the end
T_P1_RED     = 0         ; the title's players choices 0-3 (players_choice)
T_P1_BLACK   = 1
T_P2         = 2
T_P2_TURN    = 3
T_TO_MOVE    = 4
T_CHECK      = 5
T_CLOCK      = 6
T_MOVE       = 7
T_OVER       = 8
T_DEMO       = 9
T_GAME       = 10
T_RESUME     = 11        ; the pause menu: T_RESUME + item
T_RED_WINS   = 16        ; + winner (0 Red, 1 Black, 2 draw)
T_CHECKMATE  = 19        ; + result - 1 (GAME_CHECKMATE .. UI_RESULT_RESIGN)
T_NOTATION   = 27        ; + ui_notation: the title's notation choices
; T_SOLVED, T_FAILED (29, 30): global.inc (ui_puzzle.s)
T_ALL_ZH     = 31        ; the notation item's ALL CHINESE (notation_choice 2)
PAUSE_ITEMS  = 5

PANEL_ROW_VRAM = NAMETABLE_0 + PANEL_LEFT_COL
RESULT_COL     = 3       ; the result lines over the river: tile columns 3-17
RESULT_VRAM    = NAMETABLE_0 + RIVER_MROW * 64 + RESULT_COL

.segment "UI_CODE"

;;
; Queues one text of the table below.
; @param X text id (T_*)
; Uses local+0..2.  Clobbers A, X, Y.
.proc ui_text
ptr = local+0
  lda text_lo,x
  sta ptr
  lda text_hi,x
  sta ptr+1
  ; fall through to put_text_record
.endproc

;;
; Queues a text record: VRAM address high, low, length, then the characters
; (the format of both text tables, this file's and board_view.s's).
; @param local+0/1 pointer to the record
; Uses local+0..2.  Clobbers A, X, Y.
.proc put_text_record
ptr = local+0
  ldy #0
  lda (ptr),y           ; address high
  tax
  iny
  lda (ptr),y           ; address low
  pha
  iny
  lda (ptr),y           ; length
  pha
  lda ptr               ; the characters follow the 3-byte header
  clc
  adc #3
  sta ptr
  bcc :+
  inc ptr+1
: pla
  sta local+2
  pla
  tay
  lda local+2
  ; fall through to put_text
.endproc

;;
; Queues a string as one VRAM entry (so it appears in one frame).
; @param local+0/1 pointer to the characters (ASCII = font tiles)
; @param A length (1-60)
; @param X, Y VRAM address high, low
; Uses local+0..2.  Clobbers A, X, Y.
.proc put_text
ptr   = local+0
count = local+2
  sta count
  jsr vram_queue_begin
  ldy #0
@char:
  lda (ptr),y
  sta vram_queue,x
  inx
  iny
  cpy count
  bne @char
  jmp vram_queue_end
.endproc

;;
; Sets the palette of a horizontal run of metatiles, two at a time (whole
; attribute bytes, only the half of metatile row mrow), queued as one entry.
; @param A palette (PAL_*)
; @param X metatile row 0-14
; @param Y first attribute column 0-7 (metatile columns 2Y, 2Y+1, ...)
; @param local+12 number of attribute bytes (1-8)
; Uses local+12..15.  Clobbers A, X, Y.
.proc attr_span
count = local+12
fill  = local+13
mask  = local+14
index = local+15
  stx mask
  tax
  lda palette_fill,x
  sta fill
  lda mask              ; mrow
  lsr a
  php                   ; C = bottom half
  asl a
  asl a
  asl a
  sty index
  ora index
  sta index             ; attribute byte (mrow / 2) * 8 + column
  lda #$0F
  plp
  bcc :+
  lda #$F0
: sta mask
  lda index
  clc
  adc #<ATTRIBUTE_0
  tay
  lda count
  ldx #>ATTRIBUTE_0
  jsr vram_queue_begin
  ldy index
@byte:
  lda attr_shadow,y
  eor fill
  and mask
  eor attr_shadow,y     ; old ^ ((old ^ fill) & mask): only this half changes
  sta attr_shadow,y
  sta vram_queue,x
  inx
  iny
  dec count
  bne @byte
  jmp vram_queue_end
.endproc

;;
; Writes a 16-bit number as 3 characters, right-aligned with spaces,
; modulo 1000 (digits beyond the hundreds are dropped).
; @param local+12/13 the number (lo, hi); destroyed
; @param X where to write: local+X .. local+X+2
; Uses local+12..15.  Clobbers A, Y.  X is preserved.
; Cycles: about 30 per hundred of the number, at most about 10,000.
.proc fmt3
val   = local+12
hund  = local+14
tmp   = local+15
  lda #0
  sta hund
@hundreds:
  lda val
  sec
  sbc #100
  sta tmp
  lda val+1
  sbc #0
  bcc @tens
  sta val+1
  lda tmp
  sta val
  inc hund
  bne @hundreds         ; (at most 655)
@tens:
  ldy #0
  lda val
@ten:
  cmp #10
  bcc @ones
  sbc #10
  iny
  bne @ten
@ones:
  ora #'0'
  sta local+2,x
  tya
  ora #'0'
  sta local+1,x
  lda hund
  bne @mod
  lda #' '
  sta local+0,x
  cpy #0
  bne @done
  sta local+1,x
  rts
@mod:
  cmp #10
  bcc @h
  sbc #10
  bne @mod
@h:
  ora #'0'
  sta local+0,x
@done:
  rts
.endproc

;;
; Names the opening in the panel while the computer plays from the book, in
; place of the panel's title (象棋 / XIANGQI, tile rows OPENING_ROW.. +3):
; Red's system in the title's two red rows, Black's answer in its two black
; rows (tools/rom/gen_book.py), or puts the title back when the computer's
; move was searched (or a move was taken back).  Queues nothing when the
; panel already shows that opening.
; @param A the opening + 1 (s_res_book), 0: none (the title)
; Uses local+0..4, local+13..15.  Clobbers A, X, Y.
.proc panel_opening
ptr  = local+0          ; put_text's
row  = local+3
step = local+4          ; from one source row to the next
  cmp ui_opening
  bne :+
  rts                   ; shown already
: sta ui_opening
  tax
  beq @title
  dex                   ; the name of opening A - 1: (A - 1) * ROWS * COLS on
  txa
  .assert BOOK_NAME_ROWS * BOOK_NAME_COLS = 32, error, "the name's offset is opening * 32"
  ldx #0
  stx ptr+1
  asl a
  rol ptr+1
  asl a
  rol ptr+1
  asl a
  rol ptr+1
  asl a
  rol ptr+1
  asl a
  rol ptr+1
  clc
  adc #<book_opening_names
  sta ptr
  lda ptr+1
  adc #>book_opening_names
  sta ptr+1
  lda #BOOK_NAME_COLS
  bne @rows             ; (always)
@title:
  lda #<(board_nametable + OPENING_ROW * 32 + PANEL_LEFT_COL)
  sta ptr
  lda #>(board_nametable + OPENING_ROW * 32 + PANEL_LEFT_COL)
  sta ptr+1
  lda #32               ; the board's nametable, row by row
@rows:
  sta step
  lda #0
  sta row
@row:
  lda row               ; VRAM = NAMETABLE_0 + (OPENING_ROW + row) * 32 + PANEL_LEFT_COL
  clc
  adc #OPENING_ROW
  pha
  lsr a
  lsr a
  lsr a
  ora #>NAMETABLE_0
  tax
  pla
  asl a
  asl a
  asl a
  asl a
  asl a
  ora #PANEL_LEFT_COL
  tay
  lda ptr
  pha
  lda ptr+1
  pha
  lda #BOOK_NAME_COLS
  jsr put_text
  pla
  sta ptr+1
  pla
  clc
  adc step
  sta ptr
  bcc :+
  inc ptr+1
: inc row
  lda row
  cmp #BOOK_NAME_ROWS
  bne @row
  ; the red rows' outer metatiles: red for a name (the title's 象棋 only
  ; needs the middle ones), the board's palette again for the title
  ldx #PAL_BOARD
  lda ui_opening
  beq :+
  ldx #PAL_RED
: stx row
  txa
  ldx #PANEL_LEFT_COL / 2
  ldy #OPENING_ROW / 2
  jsr set_metatile_palette
  lda row
  ldx #PANEL_RIGHT_COL / 2
  ldy #OPENING_ROW / 2
  jmp set_metatile_palette
.endproc
OPENING_ROW = 4         ; the panel's title: tile rows 4-7 (art.py's TITLE_MROW)
.assert OPENING_ROW = TITLE_MROW * 2, error, "the opening's name covers the panel's title"

;;
; Whose turn: " RED" / " BLACK" in its colour, and " TO MOVE" or " CHECK!";
; in Chinese (ui_lang) 红方走棋 / 黑方走棋 or 将军 (zh_status, about 6 frames).
; Uses local+0..15.  Clobbers A, X, Y.
.proc panel_status
  lda ui_lang
  beq :+
  jmp zh_status         ; 红方走棋 ...
: lda eng_side
  beq :+
  lda #PIECE_BLACK
: jsr draw_side_to_move
  ldx #T_TO_MOVE
  lda game_check
  beq :+
  ldx #T_CHECK
: jmp ui_text
.endproc

;;
; The panel at a turn: the side to move (panel_status) and the move list
; (panel_moves).  In Chinese the list first: its rows then leave the block
; the side to move is written into (zh_status).
; Uses local+0..15.  Clobbers A, X, Y.
.proc panel_turn
  lda ui_lang
  bne @zh
  jsr panel_status
  jmp panel_moves
@zh:
  jsr panel_moves
  jmp panel_status
.endproc

;;
; Before a search: the clock "  00 SEC" under the side to move (instead of
; " TO MOVE"; in Chinese row 10 blank above it); the NMI rewrites its two digits while ui_busy is set, and
; turns the spinner sprite beside them.
; Uses local+0..2.  Clobbers A, X, Y.
.proc panel_think
  lda ui_lang
  beq :+
  jsr zh_think_row      ; in Chinese: the glyphs' top row blanked
: ldx #T_CLOCK
  jmp ui_text
.endproc

;;
; Draws panel rows 16-25: "MOVE n", an empty clock row, and the last
; HISTORY_ROWS plies of the take-back record (newest at the bottom): with
; ui_notation = UI_NOTATION_ICCS each " 12 H2E2" (ICCS from Red's side,
; upper case) in the mover's colour, else in Chinese (panel_moves_zh).
; Also resets the palettes the pause menu changed.
; Uses local+0..15.  Clobbers A, X, Y.
.proc panel_moves
k     = local+3          ; plies back from the newest, HISTORY_ROWS-1 .. 0
buf   = local+4          ; 8 characters
ply   = local+12         ; (fmt3's input)
entry = local+15
  ; "MOVE" and the number (game_ply / 2 + 1)
  ldx #T_MOVE
  jsr ui_text
  lda game_ply+1
  lsr a
  sta ply+1
  lda game_ply
  ror a
  clc
  adc #1
  sta ply
  bcc :+
  inc ply+1
: ldx #buf - local
  jsr fmt3
  jsr set_buf_ptr
  lda #3
  ldx #>(PANEL_ROW_VRAM + MOVE_ROW * 32 + 5)
  ldy #<(PANEL_ROW_VRAM + MOVE_ROW * 32 + 5)
  jsr put_text
  lda #0
  ldx #MOVE_ROW / 2
  jsr panel_palette
  lda ui_notation
  bne :+
  jmp panel_moves_zh    ; the list in Chinese (panel_zh.s)
: .assert UI_NOTATION_ZH = 0, error, "panel_moves: Chinese is 0"

  lda #HISTORY_ROWS - 1
  sta k
@row:
  ldx #7
  lda #' '
@blank:
  sta buf,x
  dex
  bpl @blank
  lda #PAL_BOARD
  pha
  lda k
  cmp game_undo_n
  bcs @show             ; not recorded: an empty row
  ; ply number p = game_ply - 1 - k, its move number p / 2 + 1
  pla
  lda game_ply
  clc                   ; - 1 - k
  sbc k
  sta ply
  lda game_ply+1
  sbc #0
  sta ply+1
  lda ply
  and #1
  clc
  adc #PAL_RED          ; even plies are Red's (PAL_RED), odd Black's
  pha
  lsr ply+1
  ror ply
  inc ply
  bne :+
  inc ply+1
: ldx #buf - local
  jsr fmt3
  ; the record entry (game_undo_head - 1 - k) & 7
  lda game_undo_head
  clc
  sbc k
  and #GAME_UNDO_PLIES - 1
  sta entry
  tay
  ldx game_undo_from,y
  lda sq_file,x
  clc
  adc #'A'
  sta buf+4
  lda sq_rank,x
  ora #'0'
  sta buf+5
  ldy entry
  ldx game_undo_to,y
  lda sq_file,x
  clc
  adc #'A'
  sta buf+6
  lda sq_rank,x
  ora #'0'
  sta buf+7
@show:
  jsr set_buf_ptr
  ldy k
  ldx hist_vram_hi,y
  lda hist_vram_lo,y
  tay
  lda #8
  jsr put_text
  ldy k
  ldx hist_mrow,y
  pla                   ; palette
  jsr panel_palette
  dec k
  bmi :+
  jmp @row
: rts
.endproc

;;
; local+0/1 = the address of the panel buffer local+4.
; Clobbers A.
.proc set_buf_ptr
  lda #local+4
  sta local+0
  lda #0
  sta local+1
  rts
.endproc

;;
; Sets the palette of the panel text area on one metatile row.
; @param A palette; @param X metatile row
; Uses local+12..15.  Clobbers A, X, Y.
.proc panel_palette
  ldy #3
  sty local+12          ; attribute columns 5-7: metatile columns 10-15
  ldy #5
  jmp attr_span
.endproc

;;
; Draws the pause menu over panel rows 16-25, the item ui_menu in red (and
; blanks the rest of the Chinese move list's rows); in Chinese (ui_lang)
; one 16x16 line an item (zh_menu).
; Uses local+0..15.  Clobbers A, X, Y.
.proc panel_menu
item = local+3
  lda ui_lang
  beq :+
  jsr zh_menu
  jmp palettes
: lda ui_notation       ; the Chinese list's rows between the items
  bne :+
  jsr zh_clear_rows
: lda #0
  sta item
@item:
  lda item
  clc
  adc #T_RESUME
  tax
  jsr ui_text
  inc item
  lda item
  cmp #PAUSE_ITEMS
  bne @item
palettes:
  lda #PAUSE_ITEMS - 1
  sta item
@palette:
  lda item
  jsr menu_item_palette
  dec item
  bpl @palette
  rts
.endproc

;;
; Colours one pause-menu item: red if it is ui_menu, else black.
; @param A item 0-4
; Uses local+12..15.  Clobbers A, X, Y.
.proc menu_item_palette
  tay
  clc
  adc #MENU_ROW / 2
  tax
  lda #PAL_BOARD
  cpy ui_menu
  bne :+
  lda #PAL_RED
: jmp panel_palette
.endproc

;;
; Up/Down, newly pressed on pad 1, move ui_menu one item within 0 .. X-1
; (the title's menu and the pause menu).
; Input: X = the number of items.
; Output: C = 1 and A = the old item if ui_menu moved; C = 0 if not.
; Clobbers A, X.
.proc menu_up_down
  lda pad_pressed
  and #KEY_UP
  beq @not_up
  lda ui_menu
  beq @no
  dec ui_menu
  sec
  rts
@not_up:
  lda pad_pressed
  and #KEY_DOWN
  beq @no
  dex                   ; the last item
  cpx ui_menu
  beq @no
  bcc @no
  lda ui_menu
  inc ui_menu
  sec
  rts
@no:
  clc
  rts
.endproc

;;
; The end of the game: who won and why over the river (" RED WINS" /
; "CHECKMATE" ..., or in Chinese 红胜 将死 ...: zh_result), in the winner's
; colour, and " GAME OVER" (终局) in the panel.
; Reads ui_result and ui_winner.
; Uses local+0..15.  Clobbers A, X, Y.
.proc panel_result
  lda ui_lang
  beq :+
  ldx #T_GAME           ; (first: the status's cells take the winner)
  jsr ui_text
  ldx #T_OVER
  jsr ui_text
  jsr zh_result         ; in Chinese: 红胜 将死 ..., 终局 in the panel
  jmp @palettes
: lda ui_winner
  clc
  adc #T_RED_WINS
  tax
  jsr ui_text
  lda ui_result
  clc
  adc #T_CHECKMATE - 1
  tax
  jsr ui_text
@colour:
  ldy #5
  sty local+12          ; metatile columns 0-9
  ldx ui_winner
  lda winner_palette,x
  ldx #RIVER_MROW
  ldy #0
  jsr attr_span
  ldx #T_GAME
  jsr ui_text
  ldx #T_OVER
  jsr ui_text
@status:
  lda #PAL_BOARD
  ldx #STATUS_MROW
  jmp panel_palette
@palettes:              ; Chinese: the river's palette, then the panel's
  ldy #5
  sty local+12
  ldx ui_winner
  lda winner_palette,x
  ldx #RIVER_MROW
  ldy #0
  jsr attr_span
  jmp @status
.endproc

;;
; The demo's panel: " DEMO" and the name of level 0 instead of the level.
; Uses local+0..2.  Clobbers A, X, Y.
.proc panel_demo
  ldx #T_DEMO
  jsr ui_text
  lda #0
  jmp draw_level_name
.endproc

;;
; The title's value of the notation item (ui_notation).
; Uses local+0..2.  Clobbers A, X, Y.
.proc title_notation_text
  jsr notation_choice
  cmp #2
  bcc :+
  ldx #T_ALL_ZH
  jmp ui_text
: clc
  adc #T_NOTATION
  tax
  jmp ui_text
.endproc

;;
; The title's value of the players item (players_choice 0-3).
; Uses local+0..2.  Clobbers A, X, Y.
.proc title_players_text
  jsr players_choice
  tax                   ; T_P1_RED + choice
  jmp ui_text
.endproc

.segment "UI_DATA"
palette_fill:
  .byte $00, $55, $AA, $FF
winner_palette:
  .byte PAL_RED, PAL_BLACK, PAL_BOARD
; history row k (plies back from the newest): tile row HISTORY_ROW +
; 2 * (HISTORY_ROWS - 1 - k)
hist_mrow:
  .byte (HISTORY_ROW + 2 * (HISTORY_ROWS - 1)) / 2, (HISTORY_ROW + 2 * (HISTORY_ROWS - 2)) / 2
  .byte (HISTORY_ROW + 2 * (HISTORY_ROWS - 3)) / 2, (HISTORY_ROW + 2 * (HISTORY_ROWS - 4)) / 2
hist_vram_lo:
  .byte <(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 1)))
  .byte <(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 2)))
  .byte <(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 3)))
  .byte <(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 4)))
hist_vram_hi:
  .byte >(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 1)))
  .byte >(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 2)))
  .byte >(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 3)))
  .byte >(PANEL_ROW_VRAM + 32 * (HISTORY_ROW + 2 * (HISTORY_ROWS - 4)))
.assert HISTORY_ROWS = 4, error, "hist_* tables have 4 rows"

TITLE_VALUE_VRAM = NAMETABLE_0 + TITLE_MENU_ROW * 32 + TITLE_VALUE_COL
.macro PANEL_TEXT row, string
  .byte >(PANEL_ROW_VRAM + (row) * 32), <(PANEL_ROW_VRAM + (row) * 32), 8, string
.endmacro
.macro RESULT_TEXT row, string
  .byte >(RESULT_VRAM + (row) * 32), <(RESULT_VRAM + (row) * 32), 15, string
.endmacro
t_p1_red:     .byte >TITLE_VALUE_VRAM, <TITLE_VALUE_VRAM, 11, "1P AS RED  "
t_p1_black:   .byte >TITLE_VALUE_VRAM, <TITLE_VALUE_VRAM, 11, "1P AS BLACK"
t_p2:         .byte >TITLE_VALUE_VRAM, <TITLE_VALUE_VRAM, 11, "2P FIXED   "
t_p2_turn:    .byte >TITLE_VALUE_VRAM, <TITLE_VALUE_VRAM, 11, "2P TURNING "
t_to_move:    PANEL_TEXT STATUS_MROW * 2 + 1, " TO MOVE"
t_check:      PANEL_TEXT STATUS_MROW * 2 + 1, " CHECK! "
t_clock:      PANEL_TEXT THINK_ROW, "  00 SEC"
t_move:       PANEL_TEXT MOVE_ROW, "MOVE    "
t_over:       PANEL_TEXT STATUS_MROW * 2 + 1, " OVER   "
t_demo:       PANEL_TEXT LEVEL_MROW * 2, " DEMO   "
t_game:       PANEL_TEXT STATUS_MROW * 2, " GAME   "
t_resume:     PANEL_TEXT MENU_ROW + 0, "RESUME  "
t_takeback:   PANEL_TEXT MENU_ROW + 2, "TAKEBACK"
t_hint:       PANEL_TEXT MENU_ROW + 4, "HINT    "
t_resign:     PANEL_TEXT MENU_ROW + 6, "RESIGN  "
t_new_game:   PANEL_TEXT MENU_ROW + 8, "NEW GAME"
t_red_wins:   RESULT_TEXT 0, "   RED WINS    "
t_black_wins: RESULT_TEXT 0, "  BLACK WINS   "
t_draw:       RESULT_TEXT 0, "     DRAW      "
t_checkmate:  RESULT_TEXT 1, "   CHECKMATE   "
t_stalemate:  RESULT_TEXT 1, "   STALEMATE   "
t_perpetual:  RESULT_TEXT 1, "PERPETUAL CHECK"
t_repetition: RESULT_TEXT 1, "  REPETITION   "
t_sixty:      RESULT_TEXT 1, "   60 MOVES    "
t_chase:      RESULT_TEXT 1, "PERPETUAL CHASE"
t_resigned:   RESULT_TEXT 1, "  RESIGNATION  "
t_limit:      RESULT_TEXT 1, "  MOVE LIMIT   "
NOTATION_VALUE_VRAM = TITLE_VALUE_VRAM + 4 * 32
t_chinese:    .byte >NOTATION_VALUE_VRAM, <NOTATION_VALUE_VRAM, 11, "CHINESE    "
t_iccs:       .byte >NOTATION_VALUE_VRAM, <NOTATION_VALUE_VRAM, 11, "ICCS       "
t_solved:     PANEL_TEXT LEVEL_MROW * 2 + 1, "SOLVED! "
t_failed:     PANEL_TEXT LEVEL_MROW * 2 + 1, " FAILED "
t_all_zh:     .byte >NOTATION_VALUE_VRAM, <NOTATION_VALUE_VRAM, 11, "ALL CHINESE"

text_lo:
  .lobytes t_p1_red, t_p1_black, t_p2, t_p2_turn, t_to_move, t_check, t_clock
  .lobytes t_move, t_over, t_demo, t_game, t_resume, t_takeback, t_hint, t_resign, t_new_game
  .lobytes t_red_wins, t_black_wins, t_draw, t_checkmate, t_stalemate, t_perpetual
  .lobytes t_repetition, t_sixty, t_chase, t_resigned, t_limit, t_chinese, t_iccs, t_solved, t_failed
  .lobytes t_all_zh
text_hi:
  .hibytes t_p1_red, t_p1_black, t_p2, t_p2_turn, t_to_move, t_check, t_clock
  .hibytes t_move, t_over, t_demo, t_game, t_resume, t_takeback, t_hint, t_resign, t_new_game
  .hibytes t_red_wins, t_black_wins, t_draw, t_checkmate, t_stalemate, t_perpetual
  .hibytes t_repetition, t_sixty, t_chase, t_resigned, t_limit, t_chinese, t_iccs, t_solved, t_failed
  .hibytes t_all_zh
.assert text_hi - text_lo = T_ALL_ZH + 1, error, "text table and T_* ids differ"
.assert T_NOTATION = T_CHECKMATE + UI_RESULT_LIMIT, error, "the notation texts follow the results"
.assert T_SOLVED = T_NOTATION + 2 && T_FAILED = T_SOLVED + 1, error, "the puzzle texts follow the notation's"
.assert UI_NOTATION_ZH = 0 && UI_NOTATION_ICCS = 1, error, "t_chinese, t_iccs order"
.assert GAME_CHECKMATE = 1 && GAME_DRAW_60 = 5 && GAME_PERPETUAL_CHASE = 6 && UI_RESULT_RESIGN = 7 && UI_RESULT_LIMIT = 8, error, "result texts order"

