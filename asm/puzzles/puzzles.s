; puzzles.s: the endgame puzzles' table and the code that reads it (bank 6).
;
; The table is generated from config/puzzles.yaml, each position checked
; with Fairy-Stockfish (tools/rom/gen_puzzles.py: the record format): per
; puzzle its flags, move limit, clock and pieces, its row of the menu and
; its two rows of the panel.  The screens (asm/ui/ui_puzzle.s, bank 1)
; reach these routines with FAR_CALL; they use only RAM, the PPU and the
; fixed bank's VRAM queue, never another switchable bank.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "puzzles_const.inc"

PUZ_NUMBER_COL = PUZ_CURSOR_COL + 1   ; two digits, then the solved mark
PUZ_MARK_COL   = PUZ_CURSOR_COL + 3   ; (a sprite: the font has no mark)
PUZ_TEXT_COL   = PUZ_CURSOR_COL + 5   ; the name and the goal (puz_rows)
PUZ_TITLE_ROW  = 2
PUZ_MARK_PAL   = 2                    ; sprite palette 2, red: a solved puzzle's dot
PUZ_LEGEND_COL = 22                   ; the help row's dot before "SOLVED"
PUZ_HELP_ROW   = PUZ_FIRST_ROW + PUZ_PAGE_ROWS
PUZ_PAGE_COL   = 26                   ; the heading's page number, "1/2"
PANEL_PUZ_VRAM = NAMETABLE_0 + LEVEL_MROW * 2 * 32 + PANEL_LEFT_COL
.assert PUZ_HELP_ROW <= 27 && PUZ_TITLE_ROW < PUZ_FIRST_ROW, error, "the puzzle menu has one row per puzzle of a page"
.assert PUZ_COUNT <= 2 * PUZ_PAGE_ROWS, error, "the puzzle menu has two pages"

.segment "PUZZLES"

;;
; A puzzle's flags and move limit.
; @param A puzzle index 0 .. PUZ_COUNT-1
; @return A flags (PUZ_FLAG_*), X the plies played when the player has made
;   the limit's moves (0: no limit), Y the record's first piece byte offset (4)
; Uses local+0..1 (the record's address).  Clobbers A, X, Y.
.proc puz_info
rec = local+0
  tax
  lda puz_rec_lo,x
  sta rec
  lda puz_rec_hi,x
  sta rec+1
  ldy #1
  lda (rec),y           ; limit in plies
  tax
  dey
  lda (rec),y           ; flags
  ldy #4
  rts
.endproc

;;
; Sets up a puzzle's position as eng_load's input (game_start then loads
; it): eng_load_buf (side*8+kind per square rank*9+file), eng_side, eng_clock.
; @param A puzzle index 0 .. PUZ_COUNT-1
; @return A flags (PUZ_FLAG_*), X the limit in plies (as puz_info)
; Uses local+0..4.  Clobbers A, X, Y.
.proc puz_load
rec   = local+0          ; 2 bytes (puz_info)
count = local+2
flags = local+3
limit = local+4
  jsr puz_info
  sta flags
  stx limit
  and #PUZ_FLAG_BLACK_TO_MOVE
  sta eng_side          ; (PUZ_FLAG_BLACK_TO_MOVE = 1)
  ldy #2
  lda (rec),y
  sta eng_clock
  iny
  lda (rec),y
  sta count
  lda #0
  ldx #89
@clear:
  sta eng_load_buf,x
  dex
  bpl @clear
@piece:
  iny
  lda (rec),y           ; square 0-89
  tax
  iny
  lda (rec),y           ; side*8+kind
  sta eng_load_buf,x
  dec count
  bne @piece
  lda flags
  ldx limit
  rts
.endproc
.assert PUZ_FLAG_BLACK_TO_MOVE = 1, error, "puz_load takes eng_side from bit 0"

;;
; Is puzzle A solved?
; @param A puzzle index 0 .. PUZ_COUNT-1
; @return Z = 0 (BNE) if solved; X the byte of puz_solved, A its bit
; Clobbers A, X, Y.
.proc puz_bit
  pha
  lsr a
  lsr a
  lsr a
  tax                   ; byte
  pla
  and #7
  tay
  lda #1
@shift:
  dey
  bmi @done
  asl a
  bne @shift            ; (always)
@done:
  tay
  and puz_solved,x
  php
  tya
  plp
  rts
.endproc

;;
; Marks puzzle A solved (the caller seals the kept RAM again: settings_save).
; @param A puzzle index 0 .. PUZ_COUNT-1
; Clobbers A, X, Y.
.proc puz_mark_solved
  jsr puz_bit
  ora puz_solved,x
  sta puz_solved,x
  rts
.endproc

;;
; Draws the puzzle menu's page of puzzle ui_menu into nametable $2000
; (rendering must be off): the heading with the page number, one row per
; puzzle of the page (PUZ_PAGE_ROWS at most: its number, the name and the
; goal), the controls, all in the board's palette (attr_shadow too); and
; its sprites in the shadow OAM (cleared before): a red dot in the mark
; column of each solved puzzle of the page and one before the help row's
; "SOLVED" (from slot 1 on; slot 0 is the cursor, puz_cursor_sprite).
; Uses local+0..7.  Clobbers A, X, Y.
.proc puz_draw_menu
ptr   = local+0          ; 2 bytes: the puzzle's row text
index = local+2
row   = local+3          ; 2 bytes: its VRAM address
slot  = local+5          ; the next free OAM slot x 4 (the marks')
first = local+6          ; the page's first puzzle index
last  = local+7          ; and the index after its last
  lda #4
  sta slot
  jsr puz_page_first
  sta first
  sta index
  clc
  adc #PUZ_PAGE_ROWS
  cmp #PUZ_COUNT
  bcc :+
  lda #PUZ_COUNT
: sta last
  bit PPUSTATUS
  lda #>NAMETABLE_0
  sta PPUADDR
  lda #<NAMETABLE_0
  sta PPUADDR
  lda #' '              ; 960 spaces: 4 x 240
  ldy #4
@fill:
  ldx #240
: sta PPUDATA
  dex
  bne :-
  dey
  bne @fill
  ldx #0                ; attributes: the board's palette
  .assert PAL_BOARD = 0, error, "puz_draw_menu clears the attributes to PAL_BOARD"
@attr:
  lda #0
  sta attr_shadow,x
  sta PPUDATA
  inx
  cpx #64
  bne @attr
  lda #PUZ_HELP_ROW     ; the legend's dot
  ldx #PUZ_LEGEND_COL * 8
  jsr put_dot

  ldx #0                ; heading and controls
  ldy #text_title - texts
  jsr put_line
  ldx #1
  ldy #text_help - texts
  jsr put_line

  .if ::PUZ_COUNT > ::PUZ_PAGE_ROWS
  lda #>(NAMETABLE_0 + PUZ_TITLE_ROW * 32 + PUZ_PAGE_COL)   ; "1/2" or "2/2"
  sta PPUADDR
  lda #<(NAMETABLE_0 + PUZ_TITLE_ROW * 32 + PUZ_PAGE_COL)
  sta PPUADDR
  ldx #'1'
  lda first
  beq :+
  inx
: stx PPUDATA
  lda #'/'
  sta PPUDATA
  lda #'2'
  sta PPUDATA
  .endif

  lda #<puz_rows        ; the page's first row text
  ldx #>puz_rows
  ldy first
  beq :+
  lda #<(puz_rows + PUZ_PAGE_ROWS * PUZ_ROW_LEN)
  ldx #>(puz_rows + PUZ_PAGE_ROWS * PUZ_ROW_LEN)
: sta ptr
  stx ptr+1
@puzzle:
  lda index             ; VRAM = NAMETABLE_0 + (PUZ_FIRST_ROW + index - first) * 32 + PUZ_CURSOR_COL
  sec
  sbc first
  clc
  adc #PUZ_FIRST_ROW
  ldx #0
  stx row+1
  asl a
  asl a
  asl a
  asl a
  rol row+1
  asl a
  rol row+1
  ora #PUZ_CURSOR_COL
  sta row
  lda row+1
  ora #>NAMETABLE_0
  sta PPUADDR
  lda row
  sta PPUADDR
  lda #' '              ; (the cursor is a sprite)
  sta PPUDATA
  lda index             ; the number, 2 characters
  clc
  adc #1
  ldx #'0' - 1
@tens:
  inx
  sec
  sbc #10
  bcs @tens
  adc #10 + '0'         ; the units
  cpx #'0'
  bne :+
  ldx #' '
: stx PPUDATA
  sta PPUDATA
  lda #' '
  sta PPUDATA           ; the mark column
  lda index
  jsr puz_bit
  beq @unsolved
  lda index
  sec
  sbc first
  clc
  adc #PUZ_FIRST_ROW
  ldx #PUZ_MARK_COL * 8
  jsr put_dot
@unsolved:
  lda #' '
  sta PPUDATA
  ldy #0
@char:
  lda (ptr),y
  sta PPUDATA
  iny
  cpy #PUZ_ROW_LEN
  bne @char
  lda ptr
  clc
  adc #PUZ_ROW_LEN
  sta ptr
  bcc :+
  inc ptr+1
: inc index
  lda index
  cmp last
  beq :+
  jmp @puzzle
: jmp puz_cursor_sprite

; Puts a red dot sprite in the next free slot (local+5: the slot x 4) on
; tile row A, pixel column X.
put_dot:
  asl a
  asl a
  asl a                 ; the row's top line
  clc
  adc #DOT_TOP - 1      ; (OAM Y: top line - 1)
  ldy slot
  sta oam+OAM_Y,y
  txa
  clc
  adc #DOT_LEFT
  sta oam+OAM_X,y
  lda #SPR_TILE_DOT
  sta oam+OAM_TILE,y
  lda #PUZ_MARK_PAL
  sta oam+OAM_ATTR,y
  iny
  iny
  iny
  iny
  sty slot
  rts

; Writes line X of line_vram at its address: the text at texts+Y up to a 0.
put_line:
  lda line_vram_hi,x
  sta PPUADDR
  lda line_vram_lo,x
  sta PPUADDR
@put:
  lda texts,y
  beq @end
  sta PPUDATA
  iny
  bne @put
@end:
  rts
.endproc
DOT_TOP  = 4 - 2         ; the dot's centre (2, 2) on the cell's centre
DOT_LEFT = 4 - 2

;;
; The first puzzle index of ui_menu's page of the menu.
; @return A 0 or PUZ_PAGE_ROWS, C = 0
.proc puz_page_first
  lda ui_menu
  cmp #PUZ_PAGE_ROWS
  lda #0
  bcc :+
  lda #PUZ_PAGE_ROWS
  clc
: rts
.endproc

;;
; Puts the menu's cursor, a green dot sprite (OAM slot 0), on the row of
; puzzle ui_menu on its page.
; Uses local+8.  Clobbers A.
.proc puz_cursor_sprite
  jsr puz_page_first
  sta local+8
  lda ui_menu
  sec
  sbc local+8
  clc
  adc #PUZ_FIRST_ROW
  asl a
  asl a
  asl a
  adc #DOT_TOP - 1      ; (C = 0: row < 32)
  sta oam+OAM_Y
  lda #PUZ_CURSOR_COL * 8 + DOT_LEFT
  sta oam+OAM_X
  lda #SPR_TILE_DOT
  sta oam+OAM_TILE
  lda #PUZ_CURSOR_PAL
  sta oam+OAM_ATTR
  rts
.endproc
PUZ_CURSOR_PAL = 1       ; sprite palette 1, green (the board's selection)

.assert PUZ_MARK_COL = PUZ_CURSOR_COL + 3 && PUZ_TEXT_COL = PUZ_CURSOR_COL + 5, error, "puz_draw_menu writes the columns in order"

;;
; Queues the panel's two rows of a puzzle (LEVEL_MROW: "PUZZLE n" and the
; goal) in place of the level.
; @param A puzzle index 0 .. PUZ_COUNT-1
; Uses local+0..3.  Clobbers A, X, Y.
.proc puz_panel
ptr = local+0
row = local+2
end = local+3
  ldx #0
  stx ptr+1
  .repeat 4
  asl a
  rol ptr+1
  .endrepeat            ; index * PUZ_PANEL_LEN
  clc
  adc #<puz_panel_text
  sta ptr
  lda ptr+1
  adc #>puz_panel_text
  sta ptr+1
  lda #0
  sta row
@row:
  ldx row
  ldy panel_lo,x
  lda #8
  ldx #>PANEL_PUZ_VRAM
  .assert >PANEL_PUZ_VRAM = >(PANEL_PUZ_VRAM + 32), error, "the panel's puzzle rows share a VRAM page"
  jsr vram_queue_begin
  lda row
  asl a
  asl a
  asl a
  tay
  adc #8
  sta end
@char:
  lda (ptr),y
  sta vram_queue,x
  inx
  iny
  cpy end
  bne @char
  jsr vram_queue_end
  inc row
  lda row
  cmp #2
  bne @row
  rts
.endproc
.assert PUZ_PANEL_LEN = 16, error, "puz_panel multiplies by 16"

line_vram_lo:
  .byte <(NAMETABLE_0 + PUZ_TITLE_ROW * 32 + 8), <(NAMETABLE_0 + PUZ_HELP_ROW * 32 + 5)
line_vram_hi:
  .byte >(NAMETABLE_0 + PUZ_TITLE_ROW * 32 + 8), >(NAMETABLE_0 + PUZ_HELP_ROW * 32 + 5)
texts:
text_title: .byte "ENDGAME PUZZLES", 0
text_help:  .byte "A: PLAY  B: BACK   SOLVED", 0   ; (the dot: PUZ_LEGEND_COL)
panel_lo:
  .byte <PANEL_PUZ_VRAM, <(PANEL_PUZ_VRAM + 32)

.include "puzzles_data.inc"
