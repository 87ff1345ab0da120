; ui_title.s: the title screen and its menu.
;
; The picture (象棋, XIANGQI, the labels) is one RLE-compressed nametable
; (title_nametable.s, drawn by tools/rom/art.py) whose tiles live in the
; sprite pattern table: the title shows its background from $1000
; (CTRL_BG_1000), where tools/rom/art.py also put a copy of the font.  The menu
; values are drawn over it by code, the item under the cursor in red.
;
; Menu (ui_menu): 0 players (ui_players 1 = 1P as Red, 2 = 1P as Black,
; 3 = 2 players with the board fixed, Red at the bottom, or 3 and ui_view =
; UI_VIEW_TURN: 2 players, the board turned to the side to move), 1 level
; (ui_level, names from lvl_name_text), 2 notation of the move list
; and language (notation_choice: CHINESE, the default, ICCS, or ALL CHINESE:
; the move list and the game's texts in Chinese, ui_lang), 3 start,
; 4 puzzles (the puzzle menu, ui_puzzle.s), 5 set up (the position editor,
; ui_setup.s).
; Up/Down: item; Left/Right: value; A or Start: play (on PUZZLES: the menu;
; on SET UP: the editor).
;
; In ALL CHINESE (ui_lang = UI_LANG_ZH) the menu is Chinese (title_zh_draw):
; 玩家 执红/执黑/双人/转盘, 级别 入门/初级/中级/高级/大师, 中文 (the language
; item: Left/Right go back to CHINESE or ICCS, and the English menu), 开始,
; 残局, 摆棋: 16 glyphs, 16x16 each, in the 64 sprite-table tiles $C0-$FF
; that follow the title art (zh_line's ZH_TITLE_CELL cells: the labels in
; 8k .. 8k + 7, the players' value in 48-55, the level's in 56-63).  After
; ATTRACT_UNITS * 8 frames without a button, the demo starts.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"
.include "puzzles_const.inc"

TITLE_ITEMS   = 6
ITEM_PUZZLES  = 4
ITEM_SETUP    = 5
PLAYER_CHOICES = 4       ; 1P as Red, 1P as Black, 2P fixed, 2P turning
NOTATION_CHOICES = 3     ; CHINESE, ICCS, ALL CHINESE (notation_choice)
ATTRACT_UNITS = 150      ; x 8 frames = 1,200 frames = 20 s
LEVEL_VALUE_VRAM = NAMETABLE_0 + (TITLE_MENU_ROW + 2) * 32 + TITLE_VALUE_COL - 1
TITLE_ZH_LABEL_VRAM = NAMETABLE_0 + TITLE_MENU_ROW * 32 + TITLE_LABEL_COL
TITLE_ZH_VALUE_VRAM = NAMETABLE_0 + TITLE_MENU_ROW * 32 + TITLE_VALUE_COL - 1
TITLE_ZH_PLAYERS_CELL = ZH_TITLE_CELL + TITLE_ITEMS * 8
TITLE_ZH_LEVEL_CELL   = TITLE_ZH_PLAYERS_CELL + 8
.assert TITLE_ZH_LEVEL_CELL + 8 = ZH_TITLE_CELL + 64, error, "the title's Chinese menu: 16 glyphs"
.assert (TITLE_MENU_ROW & 1) = 0, error, "a Chinese item of the title is one metatile row"

.segment "UI_CODE"

;;
; Shows the title: screen off, picture, menu values, screen on with the
; background from $1000.  Also the reset point of the UI state.
; Uses local+0..15.  Clobbers A, X, Y.
.proc title_enter
  jsr screen_off
  jsr ppu_clear_oam
  lda #UI_SCREEN_TITLE
  sta ui_screen
  lda #0
  sta ui_menu
  sta ui_idle
  sta ui_think
  sta ui_busy
  sta ui_sel
  lda keep_settings     ; the title's players (a puzzle or the demo changed them)
  and #3
  bne @players          ; (0: nothing saved since power-on)
  lda ui_players        ; the demo left 0: back to 1 player as Red
  bne :+
  lda #UI_HUMAN_RED
@players:
  sta ui_players
: jsr title_draw
  lda ui_lang
  bne title_zh_show
  jsr title_values
  jsr title_highlight
  lda #CTRL_SPR_1000 | CTRL_BG_1000 | CTRL_NT_2000
  jmp screen_on
.endproc

;;
; The notation item changed the language: the menu again in it (its tile
; rows 16-27, columns 7-26, blanked then drawn with the screen off: about
; 3 frames, so the next press is seen), the cursor where it is.
; Uses local+0..15.  Clobbers A, X, Y.
.proc title_redraw
  jsr screen_off
  ldy #TITLE_MENU_ROW   ; blank the menu's area (tile 0, as title_rle)
@row:
  tya
  lsr a
  lsr a
  lsr a
  ora #>NAMETABLE_0
  bit PPUSTATUS
  sta PPUADDR
  tya
  asl a
  asl a
  asl a
  asl a
  asl a
  ora #TITLE_LABEL_COL
  sta PPUADDR
  lda #0
  ldx #TITLE_REDRAW_TILES
: sta PPUDATA
  dex
  bne :-
  iny
  cpy #TITLE_MENU_ROW + TITLE_ITEMS * 2
  bcc @row
  lda ui_lang
  beq @english
  jsr title_zh_draw
  jmp @on
@english:
  jsr title_en_labels
  jsr title_values
@on:
  jsr vram_flush        ; NMI is off: copied at once
  lda #CTRL_SPR_1000 | CTRL_BG_1000 | CTRL_NT_2000
  jmp screen_on
.endproc
TITLE_REDRAW_TILES = 20  ; the labels (7-14), the values (15-26)
.assert TITLE_LABEL_COL + TITLE_REDRAW_TILES <= 30, error, "title_redraw stays inside the frame"

;;
; The English menu's labels (as tools/rom/art.py draws them into
; title_rle), queued.
; Uses local+0..3.  Clobbers A, X, Y.
.proc title_en_labels
item = local+3
  lda #0
  sta item
@item:
  lda item
  asl a
  asl a
  asl a
  clc
  adc #<title_en_label_text
  sta local+0
  lda #0
  adc #>title_en_label_text
  sta local+1
  ldx item
  ldy title_zh_vram_lo,x
  lda title_zh_vram_hi,x
  tax
  lda #8
  jsr put_text
  inc item
  lda item
  cmp #TITLE_ITEMS
  bcc @item
  rts
.endproc

;;
; The rest of title_enter in Chinese: the menu over the English labels
; (title_zh_draw, copied at once: NMI is off), then the screen on.
; Uses local+0..15.  Clobbers A, X, Y.
.proc title_zh_show
  jsr title_zh_draw
  jsr vram_flush        ; NMI is off: copied at once
  jsr title_highlight
  lda #CTRL_SPR_1000 | CTRL_BG_1000 | CTRL_NT_2000
  jmp screen_on
.endproc

;;
; The title's menu in Chinese: the six labels over the English ones
; (TITLE_LABEL_COL, 8 tiles each), then the players' and the level's values.
; Uses local+0..13.  Clobbers A, X, Y.
.proc title_zh_draw
item = local+13
  lda #0
  sta item
@item:
  ldx item
  lda title_zh_label_lo,x
  sta local+0
  lda title_zh_label_hi,x
  sta local+1
  lda #0
  sta local+2
  lda #8
  sta local+3
  txa
  asl a
  asl a
  asl a
  ora #ZH_TITLE_CELL
  sta local+4
  lda title_zh_vram_lo,x
  tay
  lda title_zh_vram_hi,x
  tax
  jsr zh_line
  inc item
  lda item
  cmp #TITLE_ITEMS
  bcc @item
  jsr title_zh_players
  jmp title_zh_level
.endproc

;;
; The players' value in Chinese (执红 执黑 双人 转盘: players_choice), in
; the cells TITLE_ZH_PLAYERS_CELL.
; Uses local+0..12.  Clobbers A, X, Y.
.proc title_zh_players
  jsr players_choice
  tax
  lda title_zh_players_lo,x
  ldy title_zh_players_hi,x
  ldx #0
  beq title_zh_value    ; (always)
.endproc

;;
; The level's value in Chinese (入门 初级 中级 高级 大师: ui_level), in the
; cells TITLE_ZH_LEVEL_CELL.
; Uses local+0..12.  Clobbers A, X, Y.
.proc title_zh_level
  ldx ui_level
  lda title_zh_levels_lo,x
  ldy title_zh_levels_hi,x
  ldx #1
  ; fall through
.endproc

;;
; Draws a value of the Chinese menu: its glyphs from TITLE_VALUE_COL over
; tile columns TITLE_VALUE_COL - 1 .. + 6 of the item's rows.
; @param A, Y the text (zht_*: low, high); X 0 the players, 1 the level
; Uses local+0..12.  Clobbers A, X, Y.
.proc title_zh_value
  sta local+0
  sty local+1
  lda #1
  sta local+2           ; pad
  lda #8
  sta local+3           ; width
  txa
  asl a
  asl a
  asl a
  adc #TITLE_ZH_PLAYERS_CELL
  sta local+4
  txa
  bne :+
  ldx #>TITLE_ZH_VALUE_VRAM
  ldy #<TITLE_ZH_VALUE_VRAM
  jmp zh_line
: ldx #>(TITLE_ZH_VALUE_VRAM + 64)
  ldy #<(TITLE_ZH_VALUE_VRAM + 64)
  jmp zh_line
.endproc
.assert TITLE_ZH_LEVEL_CELL = TITLE_ZH_PLAYERS_CELL + 8, error, "title_zh_value's cells"

;;
; Decodes title_rle into nametable $2000 and its attributes (also into
; attr_shadow).  Rendering must be off.  Format: tools/rom/art.py.
; Uses local+0..5.  Clobbers A, X, Y.
.proc title_draw
src   = local+0          ; 2 bytes
count = local+2
out   = local+3          ; 2 bytes: bytes written so far
value = local+5          ; the byte of a run
  lda #<title_rle
  sta src
  lda #>title_rle
  sta src+1
  lda #0
  sta out
  sta out+1
  bit PPUSTATUS
  lda #>NAMETABLE_0
  sta PPUADDR
  lda #<NAMETABLE_0
  sta PPUADDR
  ldy #0
@run:
  jsr next
  beq @done
  bmi @repeat
  sta count             ; literal: count bytes follow
@literal:
  jsr next
  jsr put
  dec count
  bne @literal
  beq @run
@repeat:
  and #$7F
  sta count
  jsr next
  sta value
@same:
  lda value
  jsr put
  dec count
  bne @same
  beq @run
@done:
  rts

next:                   ; A = the next byte of the data, flags on it
  lda (src),y
  inc src
  bne :+
  inc src+1
: tax
  txa
  rts

put:                    ; writes A, and into attr_shadow from byte 960 on
  sta PPUDATA
  pha
  lda out+1
  cmp #>960
  bcc @nt
  lda out
  cmp #<960
  bcc @nt
  sbc #<960
  tax
  pla
  sta attr_shadow,x
  pha
@nt:
  pla
  inc out
  bne :+
  inc out+1
: rts
.endproc
.assert >960 = 3, error, "title_draw: the attributes start in page 3"

;;
; Draws the menu values: the players, the notation and the level name.
; Uses local+0..2.  Clobbers A, X, Y.
.proc title_values
  jsr title_players_text
  jsr title_notation_text
  ; fall through
.endproc

;;
; Queues the level name of ui_level (8 characters of lvl_name_text; in
; Chinese title_zh_level).
; Uses local+0..12.  Clobbers A, X, Y.
.proc title_level_text
  lda ui_lang
  beq :+
  jmp title_zh_level
: lda ui_level
  ldx #>LEVEL_VALUE_VRAM
  ldy #<LEVEL_VALUE_VRAM
  jmp put_level_name
.endproc

;;
; Colours the menu rows: the item ui_menu red, the others black.
; Uses local+3, local+12..15.  Clobbers A, X, Y.
.proc title_highlight
item = local+3
  lda #TITLE_ITEMS - 1
  sta item
@item:
  lda #6
  sta local+12          ; attribute columns 1-6: metatile columns 2-13
  lda item
  asl a
  adc #TITLE_MENU_ROW
  lsr a
  tax                   ; metatile row
  lda #PAL_BOARD
  ldy item
  cpy ui_menu
  bne :+
  lda #PAL_RED
: ldy #1
  jsr attr_span
  dec item
  bpl @item
  rts
.endproc

;;
; One frame of the title: the menu, and the idle timer of the demo.
; Uses local+0..15.  Clobbers A, X, Y.
.proc title_update
  lda pad_held
  beq @idle
  lda #0
  sta ui_idle
  beq @input
@idle:
  lda nmi_count
  and #7
  bne @input
  inc ui_idle
  lda ui_idle
  cmp #ATTRACT_UNITS
  bcc @input
  jmp attract_enter
@input:
  lda pad_pressed
  and #KEY_A | KEY_START
  beq @not_start
  lda #SFX_SELECT
  jsr sfx_play
  lda ui_menu
  cmp #ITEM_SETUP
  bne :+
  jmp setup_enter
: cmp #ITEM_PUZZLES
  beq :+
  jmp play_enter
: jsr settings_save     ; title_enter takes the players back from it
  jmp puzzles_enter
@not_start:
  ldx #TITLE_ITEMS
  jsr menu_up_down
  bcc @not_moved
  jsr title_highlight
  jmp @blip
@not_moved:
  lda pad_pressed
  and #KEY_LEFT | KEY_RIGHT
  bne :+
  rts
: and #KEY_RIGHT        ; A = 1 for right, 0 for left
  ldx ui_menu
  beq @players
  dex
  beq @level_item
  dex
  bne @done             ; START has no value
  tay                   ; notation: Y = 1 right (+1), 0 left (-1 = +2)
  jsr notation_choice   ; (keeps Y)
  clc
  adc #2
  dey
  bne :+
  sec
  sbc #1
: cmp #NOTATION_CHOICES
  bcc :+
  sbc #NOTATION_CHOICES
: ldx ui_lang
  jsr notation_set      ; (keeps X)
  jsr settings_save
  cpx ui_lang
  beq :+
  jsr title_redraw      ; the language changed: the menu in the other one
  jmp @blip
: jsr title_notation_text
  jmp @blip
@level_item:
  ; level: clamp to 0 .. LEVEL_COUNT-1
  tax
  beq @level_down
  lda ui_level
  cmp #LEVEL_COUNT - 1
  bcs @done
  inc ui_level
  bne @level
@level_down:
  lda ui_level
  beq @done
  dec ui_level
@level:
  jsr settings_save
  jsr title_level_text
  jmp @blip
@players:               ; choices 0-3 round: right +1, left -1
  tax                   ; X = 1 right, 0 left
  jsr players_choice    ; (keeps X)
  dex
  bne @players_left
  clc
  adc #2                ; + 2 - 1
@players_left:
  sec
  sbc #1
  and #PLAYER_CHOICES - 1
  jsr players_set
  jsr settings_save
  lda ui_lang
  bne :+
  jsr title_players_text
  jmp @blip
: jsr title_zh_players
@blip:
  lda #SFX_CURSOR
  jmp sfx_play
@done:
  rts
.endproc

;;
; The players item's choice, from ui_players and ui_view: 0 1P as Red,
; 1 1P as Black, 2 two players with the board fixed, 3 two players with
; the board turned to the side to move.
; @return A choice 0-3
; Clobbers A.  Keeps X and Y.
.proc players_choice
  lda ui_players
  cmp #UI_HUMAN_RED | UI_HUMAN_BLACK
  bne @one              ; (ui_view counts with two players only)
  clc
  adc ui_view           ; 3 + 0 or 1
@one:
  sec
  sbc #1
  rts
.endproc
.assert UI_VIEW_FIXED = 0 && UI_VIEW_TURN = 1, error, "players_choice adds ui_view"
.assert KEEP_VIEW_TURN = 1 << 5 && KEEP_ICCS = 1 << 6 && UI_NOTATION_ICCS = 1, error, "settings_save's bits"

;;
; The notation item's choice, from ui_notation and ui_lang: 0 CHINESE (the
; move list in Chinese, the texts in English), 1 ICCS (English), 2 ALL
; CHINESE (the move list and the game's texts in Chinese).
; @return A choice 0-2
; Clobbers A.  Keeps X and Y.
.proc notation_choice
  lda ui_lang
  beq :+
  lda #2                ; (ui_lang = UI_LANG_ZH: ui_notation is UI_NOTATION_ZH)
  rts
: lda ui_notation       ; UI_NOTATION_ZH 0, UI_NOTATION_ICCS 1
  rts
.endproc
.assert UI_NOTATION_ZH = 0 && UI_NOTATION_ICCS = 1 && UI_LANG_EN = 0 && UI_LANG_ZH = 1, error, "notation_choice's values"

;;
; Sets ui_notation and ui_lang to a choice of the notation item (see
; notation_choice).
; @param A choice 0-2
; Clobbers A.  Keeps X and Y.
.proc notation_set
  cmp #2
  bcc @english          ; A = UI_NOTATION_ZH or UI_NOTATION_ICCS
  lda #UI_LANG_ZH
  sta ui_lang
  lda #UI_NOTATION_ZH
  sta ui_notation
  rts
@english:
  sta ui_notation
  lda #UI_LANG_EN
  sta ui_lang
  rts
.endproc

;;
; Sets ui_players and ui_view to a choice of the players item (see
; players_choice).
; @param A choice 0-3
; Clobbers A, Y.
.proc players_set
  ldy #UI_VIEW_FIXED
  cmp #PLAYER_CHOICES - 1
  bcc @set
  ldy #UI_VIEW_TURN     ; 2 players, turning: ui_players 3 as well
  lda #PLAYER_CHOICES - 2
@set:
  sty ui_view
  clc
  adc #1
  sta ui_players
  rts
.endproc

;;
; Keeps the title's settings (ui_players, ui_level, ui_view, ui_notation;
; ui_lang lives beside puz_solved and is kept with it) for a soft
; reset: the reset handler finds them by KEEP_SIG and keep_check
; (asm/system/init.s) and settings_load takes them back; a power-on starts
; fresh.  keep_check covers the solved puzzles (puz_solved) too, which the
; reset handler keeps with the settings: call it after marking one.
; Clobbers A.
.proc settings_save
  lda ui_notation       ; UI_NOTATION_ZH 0, UI_NOTATION_ICCS 1
  asl a
  ora ui_view           ; UI_VIEW_FIXED 0, UI_VIEW_TURN 1
  asl a
  asl a
  asl a
  ora ui_level          ; (0-7: see settings_load)
  asl a
  asl a
  ora ui_players        ; notation << 6 | view << 5 | level << 2 | players
  sta keep_settings
  eor #KEEP_CHECK
  .repeat ::PUZ_SOLVED_BYTES, i
  eor puz_solved+i
  .endrepeat
  eor ui_lang
  sta keep_check
  lda #KEEP_SIG0
  sta keep_sig
  lda #KEEP_SIG1
  sta keep_sig+1
  rts
.endproc

;;
; After reset: the settings a soft reset kept (keep_settings = KEEP_VALID |
; notation << 6 | view << 5 | level << 2 | players), each only if it is one the title
; offers, and keeps them again for the next reset.
; Clobbers A.
.proc settings_load
  lda keep_settings
  bpl @done             ; power-on, or nothing kept
  and #3
  beq :+                ; (0 is the demo's: title_enter picks 1 player)
  sta ui_players
: lda keep_settings
  lsr a
  lsr a
  and #7
  cmp #LEVEL_COUNT
  bcs :+
  sta ui_level
: lda keep_settings
  and #KEEP_VIEW_TURN
  beq :+                ; A = UI_VIEW_FIXED
  lda #UI_VIEW_TURN
: sta ui_view
  lda keep_settings
  and #KEEP_ICCS
  beq :+                ; A = UI_NOTATION_ZH
  lda #UI_NOTATION_ICCS
: sta ui_notation
  lda ui_lang           ; (kept by the reset handler, covered by keep_check)
  beq :+
  lda #2                ; ALL CHINESE: the list in Chinese as well
  jsr notation_set
: jmp settings_save     ; kept again, for the next reset
@done:
  rts
.endproc

.segment "UI_DATA"
; the title's Chinese menu (zh_glyphs.s; 开始 is the editor's)
title_zh_label_lo:
  .lobytes zht_title_players, zht_title_level, zht_title_lang, zht_setup_play, zht_title_puzzles, zht_title_setup
title_zh_label_hi:
  .hibytes zht_title_players, zht_title_level, zht_title_lang, zht_setup_play, zht_title_puzzles, zht_title_setup
title_zh_vram_lo:
  GLYPH_ROWS_LO TITLE_ZH_LABEL_VRAM, TITLE_ITEMS
title_zh_vram_hi:
  GLYPH_ROWS_HI TITLE_ZH_LABEL_VRAM, TITLE_ITEMS
title_en_label_text:    ; 8 tiles each (0: blank, as in title_rle)
  .byte "PLAYERS", 0, "LEVEL", 0, 0, 0, "NOTATION", "START", 0, 0, 0
  .byte "PUZZLES", 0, "SET UP", 0, 0
title_zh_players_lo:    ; players_choice
  .lobytes zht_p1_red, zht_p1_black, zht_p2_fixed, zht_p2_turn
title_zh_players_hi:
  .hibytes zht_p1_red, zht_p1_black, zht_p2_fixed, zht_p2_turn
title_zh_levels_lo:     ; ui_level
  .lobytes zht_level_0, zht_level_1, zht_level_2, zht_level_3, zht_level_4
title_zh_levels_hi:
  .hibytes zht_level_0, zht_level_1, zht_level_2, zht_level_3, zht_level_4
.assert LEVEL_COUNT = 5, error, "title_zh_levels: a Chinese name for each level"
