; board_view.s: draws the board, the pieces and the status panel.
;
; Screen layout (16x16 metatiles = attribute cells; constants in tiles.inc):
;   metatile columns 1-9 = files a-i, rows 2-6 = ranks 9-5, row 7 = river,
;   rows 8-12 = ranks 4-0 (Red at the bottom; turned half round while
;   ui_flip is set, see square_to_screen in ui_board.s).  Each intersection is the
;   centre of its metatile, so each piece is one attribute cell with its own
;   palette.  The status panel is tile columns 22-29 on the right.
; The empty screen comes from board_nametable (generated with the art by
; tools/rom/art.py); pieces and panel text are drawn over it by code.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"

; NES colours (2C02 palette numbers)
COLOR_WOOD      = $27   ; board wood, the universal background colour
COLOR_LINE      = $07   ; grid lines, frame, river text
COLOR_FACE      = $30   ; piece face (white: the brightest, clearest on a TV)
COLOR_MARK_FACE = $3A   ; piece face when marked (the last move)
COLOR_MARK_LINE = $1A   ; grid lines of a marked square (the last move's origin)
COLOR_INK       = $0F   ; black: panel text, black pieces
COLOR_RED       = $16   ; red pieces
COLOR_CURSOR_OUTLINE = $0F
COLOR_CURSOR_FILL    = $21   ; sky blue: a colour nothing else uses
COLOR_CURSOR_LIGHT   = $31
COLOR_SEL_OUTLINE    = $0F   ; selection frame and legal-move dots: green
COLOR_SEL_FILL       = $2A
COLOR_SEL_LIGHT      = $3A

.segment "UI_DATA"

palette_table:
  .byte COLOR_WOOD, COLOR_LINE, COLOR_FACE, COLOR_INK        ; 0 board
  .byte COLOR_WOOD, COLOR_LINE, COLOR_FACE, COLOR_RED        ; 1 red pieces
  .byte COLOR_WOOD, COLOR_LINE, COLOR_FACE, COLOR_INK        ; 2 black pieces
  .byte COLOR_WOOD, COLOR_MARK_LINE, COLOR_MARK_FACE, COLOR_INK   ; 3 marked (ink: set_mark_ink)
  .byte COLOR_WOOD, COLOR_CURSOR_OUTLINE, COLOR_CURSOR_FILL, COLOR_CURSOR_LIGHT  ; sprites 0: cursor
  .byte COLOR_WOOD, COLOR_SEL_OUTLINE, COLOR_SEL_FILL, COLOR_SEL_LIGHT           ; 1: selection, dots
  .byte COLOR_WOOD, COLOR_SPIN_LIT, COLOR_SPIN_DIM, COLOR_SPIN_DIM                ; 2: spinner (the NMI turns it)
  .byte COLOR_WOOD, COLOR_CURSOR_OUTLINE, COLOR_CURSOR_FILL, COLOR_CURSOR_LIGHT
PALETTE_SIZE = * - palette_table

; Metatile row of each rank (rank 0 at the bottom; the river row is skipped).
rank_mrow:
  .byte BOARD_MROW + 10, BOARD_MROW + 9, BOARD_MROW + 8, BOARD_MROW + 7, BOARD_MROW + 6
  .byte BOARD_MROW + 4,  BOARD_MROW + 3, BOARD_MROW + 2, BOARD_MROW + 1, BOARD_MROW + 0

; Attribute helpers: the 2-bit field of each quadrant, and a palette
; number repeated in all four fields.
quadrant_mask:
  .byte $03, $0C, $30, $C0
palette_fill:
  .byte $00, $55, $AA, $FF

; Panel texts: nametable address (high, low), length, ASCII = tile numbers.
; All texts are 8 tiles wide (columns 22-29), left-aligned one tile in, so
; each one fully overwrites the previous text on its row.
text_side_red:
  .byte >(NAMETABLE_0 + (STATUS_MROW * 2) * 32 + PANEL_LEFT_COL)
  .byte <(NAMETABLE_0 + (STATUS_MROW * 2) * 32 + PANEL_LEFT_COL)
  .byte 8, " RED    "
text_side_black:
  .byte >(NAMETABLE_0 + (STATUS_MROW * 2) * 32 + PANEL_LEFT_COL)
  .byte <(NAMETABLE_0 + (STATUS_MROW * 2) * 32 + PANEL_LEFT_COL)
  .byte 8, " BLACK  "
text_to_move:
  .byte >(NAMETABLE_0 + (STATUS_MROW * 2 + 1) * 32 + PANEL_LEFT_COL)
  .byte <(NAMETABLE_0 + (STATUS_MROW * 2 + 1) * 32 + PANEL_LEFT_COL)
  .byte 8, " TO MOVE"
text_level:
  .byte >(NAMETABLE_0 + (LEVEL_MROW * 2) * 32 + PANEL_LEFT_COL)
  .byte <(NAMETABLE_0 + (LEVEL_MROW * 2) * 32 + PANEL_LEFT_COL)
  .byte 8, " LEVEL  "
; The level name under " LEVEL  " comes from lvl_name_text (generated from
; config/difficulty.yaml by tools/rom/gen_tables.py): see draw_level_name.
LEVEL_NAME_VRAM = NAMETABLE_0 + (LEVEL_MROW * 2 + 1) * 32 + PANEL_LEFT_COL

text_ptr_lo:
  .lobytes text_side_red, text_side_black, text_to_move, text_level
text_ptr_hi:
  .hibytes text_side_red, text_side_black, text_to_move, text_level
.assert text_ptr_hi - text_ptr_lo = TEXT_COUNT, error, "text table and TEXT_* ids differ"

.segment "UI_CODE"

;;
; Loads all 32 palette entries.  Call with rendering off or in vblank.
; Clobbers A, X.
.proc load_palette
  bit PPUSTATUS
  lda #>PALETTE_RAM
  sta PPUADDR
  lda #<PALETTE_RAM
  sta PPUADDR
  ldx #0
@loop:
  lda palette_table,x
  sta PPUDATA
  inx
  cpx #PALETTE_SIZE
  bne @loop
  rts
.endproc

;;
; Draws the empty screen with rendering off: copies the empty board
; (board_nametable, 960 tiles + 64 attributes) to nametable $2000, keeps
; the attributes in attr_shadow and writes the panel text.  NMI must be off
; (the queue is flushed directly).  The pieces come later, through the NMI
; queue (board_sync in ui_board.s).
; Uses local+0..2.  Clobbers A, X, Y.
.proc board_view_init
src = local+0           ; 2 bytes
  lda #<board_nametable
  sta src
  lda #>board_nametable
  sta src+1
  bit PPUSTATUS
  lda #>NAMETABLE_0
  sta PPUADDR
  lda #<NAMETABLE_0
  sta PPUADDR
  ldx #4                ; 4 pages = 960 tiles + 64 attributes
  ldy #0
@copy:
  lda (src),y
  sta PPUDATA
  iny
  bne @copy
  inc src+1
  dex
  bne @copy

  ldx #63
@attr:
  lda board_nametable + 960,x
  sta attr_shadow,x
  dex
  bpl @attr

  ldx #TEXT_SIDE_RED
  jsr draw_text
  ldx #TEXT_TO_MOVE
  jsr draw_text
  ldx #TEXT_LEVEL
  jsr draw_text
  lda ui_level
  jsr draw_level_name
  jmp vram_flush
.endproc

;;
; Queues the redraw of one board square: the piece, or the empty
; intersection under it (read back from board_nametable), and its palette
; in the attribute table, where square_to_screen puts the square.  The update is queued as one unit (3 entries,
; 14 bytes), so it always appears in a single frame.
; @param X square (0-89) = rank * 9 + file
; @param A piece code (PIECE_NONE, or type + PIECE_BLACK for Black)
; Uses local+0..11 and (set_metatile_palette) local+13..15.  Clobbers A, X, Y.
; Cycles: at most 800 (measured: 727 from Red's side, emu_tests/test_boot.py;
; 733 turned, emu_tests/test_board_view.py), plus a frame wait if the queue
; is full.
.proc draw_square
ptr     = local+0       ; 2 bytes: the empty square in board_nametable
mcol    = local+2
mrow    = local+3
piece   = local+4
addr_lo = local+5
addr_hi = local+6
pal     = local+7
tiles   = local+8       ; 4 bytes: top-left, top-right, bottom-left, bottom-right
  sta piece
  lda sq_of90,x         ; the square's place on the screen (the view's)
  tax
  jsr square_to_screen
  stx mcol
  sty mrow
  tya

  ; nametable offset of the top-left tile = mrow * 64 + mcol * 2
  lsr a
  lsr a
  sta addr_hi           ; offset high byte (mrow / 4)
  lda mrow
  asl a
  asl a
  asl a
  asl a
  asl a
  asl a                 ; (mrow & 3) * 64
  sta addr_lo
  lda mcol
  asl a
  ora addr_lo
  sta addr_lo
  clc
  adc #<board_nametable
  sta ptr
  lda addr_hi
  adc #>board_nametable
  sta ptr+1
  lda addr_hi
  ora #>NAMETABLE_0
  sta addr_hi

  ; the four tiles and the palette
  lda piece
  and #PIECE_TYPE_MASK
  bne @is_piece
  sta pal               ; PAL_BOARD = 0
  ldy #0
  lda (ptr),y
  sta tiles+0
  iny
  lda (ptr),y
  sta tiles+1
  ldy #32
  lda (ptr),y
  sta tiles+2
  iny
  lda (ptr),y
  sta tiles+3
  jmp @queue
@is_piece:
  asl a
  asl a                 ; type * 4
  clc
  adc #PIECE_TILE_BASE - 4
  ldy #PAL_RED
  ldx piece
  cpx #PIECE_BLACK
  bcc @red
  adc #PIECE_TILES_BLACK - 1  ; C = 1 here
  ldy #PAL_BLACK
@red:
  sty pal
  ldx #0
@piece_tiles:
  sta tiles,x
  clc
  adc #1
  inx
  cpx #4
  bne @piece_tiles

@queue:
  lda #2 * (3 + 2) + (3 + 1) + 1   ; two rows, one attribute byte, terminator
  jsr vram_queue_reserve
  lda #2
  ldx addr_hi
  ldy addr_lo
  jsr vram_queue_begin
  lda tiles+0
  sta vram_queue,x
  inx
  lda tiles+1
  sta vram_queue,x
  inx
  jsr vram_queue_end
  lda addr_lo
  ora #32               ; next tile row (mrow * 64 is even rows only)
  tay
  lda #2
  ldx addr_hi
  jsr vram_queue_begin
  lda tiles+2
  sta vram_queue,x
  inx
  lda tiles+3
  sta vram_queue,x
  inx
  jsr vram_queue_end

  lda pal
  ldx mcol
  ldy mrow
  jmp set_metatile_palette
.endproc

;;
; Queues the river text as the view shows it: 楚河 ... 漢界 (files b, c
; and g, h) from Red's side; while ui_flip is set the two words change
; places (漢界 ... 楚河), so the board turned round reads as it does from
; Black's chair.  The tiles come from board_nametable; 4 entries of 4
; tiles (29 queue bytes, reserved at once: one frame).
; Uses local+0..2.  Clobbers A, X, Y.
.proc draw_river
k   = local+0            ; entry 3..0: bit 1 the tile row, bit 0 the word
src = local+1            ; the word's tiles: offset from the river's first row
n   = local+2
  lda #4 * (3 + 4) + 1
  jsr vram_queue_reserve
  lda #3
  sta k
@entry:
  lda k
  and #1
  eor ui_flip           ; the word the view puts in this place
  tax
  lda k
  and #2
  asl a
  asl a
  asl a
  asl a                 ; 0 or 32: the tile row
  tay
  clc
  adc river_col,x
  sta src
  lda k
  and #1
  tax
  tya
  clc
  adc river_col,x
  adc #<RIVER_VRAM      ; (no carry: asserted below)
  tay
  lda #4
  ldx #>RIVER_VRAM
  jsr vram_queue_begin
  lda #4
  sta n
  ldy src
@tile:
  lda board_nametable + RIVER_MROW * 64,y
  sta vram_queue,x
  inx
  iny
  dec n
  bne @tile
  jsr vram_queue_end
  dec k
  bpl @entry
  rts
.endproc
RIVER_VRAM = NAMETABLE_0 + RIVER_MROW * 64
.assert <RIVER_VRAM + 32 + (BOARD_MCOL + 6) * 2 + 3 < $100, error, "draw_river: the river's rows in one page"

;;
; Sets the palette of one 16x16 metatile (one attribute cell) in attr_shadow
; and queues the changed attribute byte (one 4-byte queue entry).
; @param A palette 0-3 (PAL_*)
; @param X metatile column 0-15
; @param Y metatile row 0-14
; Uses local+13..15.  Clobbers A, X, Y.
.proc set_metatile_palette
pal   = local+13
quad  = local+14
index = local+15
  sta pal
  ; byte (mrow / 2) * 8 + mcol / 2, 2-bit field (mrow & 1) * 2 + (mcol & 1)
  tya
  and #1
  asl a
  sta quad
  txa
  and #1
  ora quad
  sta quad
  tya
  and #$FE
  asl a
  asl a
  sta index
  txa
  lsr a
  ora index
  tay                   ; Y = attribute byte 0-63
  ldx pal
  lda palette_fill,x
  eor attr_shadow,y
  ldx quad
  and quadrant_mask,x
  eor attr_shadow,y     ; old ^ ((old ^ fill) & mask)
  sta attr_shadow,y
  pha
  tya
  clc
  adc #<ATTRIBUTE_0
  tay
  lda #1
  ldx #>ATTRIBUTE_0
  jsr vram_queue_begin
  pla
  sta vram_queue,x
  inx
  jmp vram_queue_end
.endproc

;;
; Shows whose turn it is in the panel: " RED" in red or " BLACK" in black
; (text and the palette of the status rows), above " TO MOVE".
; @param A 0 for Red, PIECE_BLACK for Black
; Uses local+0..2, local+11..15.  Clobbers A, X, Y.
.proc draw_side_to_move
side = local+11
col  = local+12
  sta side
  lda #(3 + 8) + 4 * 4 + 1       ; text, 4 attribute entries, terminator
  jsr vram_queue_reserve         ; all in the same frame
  ldx #TEXT_SIDE_RED
  lda side
  beq @red
  ldx #TEXT_SIDE_BLACK
@red:
  jsr draw_text
  lda #PANEL_LEFT_COL / 2
  sta col
@cell:
  lda #PAL_RED
  ldx side
  beq @pal
  lda #PAL_BLACK
@pal:
  ldx col
  ldy #STATUS_MROW
  jsr set_metatile_palette
  inc col
  lda col
  cmp #PANEL_RIGHT_COL / 2 + 1
  bne @cell
  rts
.endproc

;;
; Queues one panel text (see the text table).
; @param X text id (TEXT_*)
; Uses local+0..2.  Clobbers A, X, Y.
.proc draw_text
ptr   = local+0
  lda text_ptr_lo,x
  sta ptr
  lda text_ptr_hi,x
  sta ptr+1
  jmp put_text_record
.endproc

;;
; Queues the name of a difficulty level (8 characters of lvl_name_text,
; generated from config/difficulty.yaml) on the panel row under " LEVEL  ".
; @param A level, 0 = weakest (below LEVEL_COUNT)
; Uses local+0..2.  Clobbers A, X, Y.
.proc draw_level_name
  ldx #>LEVEL_NAME_VRAM
  ldy #<LEVEL_NAME_VRAM
  ; fall through
.endproc

;;
; Queues the name of a difficulty level at any VRAM address (the panel,
; the title's menu).
; @param A level, 0 = weakest (below LEVEL_COUNT)
; @param X, Y VRAM address high, low
; Uses local+0..2.  Clobbers A, X, Y.
.proc put_level_name
  asl a
  asl a
  asl a                 ; level * LEVEL_NAME_LEN
  clc
  adc #<lvl_name_text
  sta local+0
  lda #0
  adc #>lvl_name_text
  sta local+1
  lda #LEVEL_NAME_LEN
  jmp put_text
.endproc
.assert LEVEL_NAME_LEN = 8, error, "put_level_name multiplies by 8"

;;
; Sets the ink (colour 3) of PAL_MARK to a side's colour, so that a marked
; piece keeps its side's colour (queues one palette byte).
; @param A side: 0 Red, 1 Black
; Uses local+13.  Clobbers A, X, Y.
.proc set_mark_ink
  tay
  lda mark_ink,y
  sta local+13
  lda #1
  ldx #>(PALETTE_RAM + PAL_MARK * 4 + 3)
  ldy #<(PALETTE_RAM + PAL_MARK * 4 + 3)
  jsr vram_queue_begin
  lda local+13
  sta vram_queue,x
  inx
  jmp vram_queue_end
.endproc

.segment "UI_DATA"
river_col:                ; tile columns of the river's two words
  .byte (BOARD_MCOL + 1) * 2, (BOARD_MCOL + 6) * 2
mark_ink:
  .byte COLOR_RED, COLOR_INK
