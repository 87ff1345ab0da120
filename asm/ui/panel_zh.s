; panel_zh.s: the panel's move list in Chinese (reference_py/notation.py
; format_zh: 炮二平五, 马８进７, 前车进二), the title's default notation.
;
; Panel tile rows ZH_ROW .. ZH_ROW + 7: the last ZH_MOVES plies, newest at
; the bottom, each four 16x16 glyphs on two tile rows (one metatile row, so
; its palette gives the mover's colour).  The glyphs (tools/rom/art.py, one
; bit plane each in zh_glyphs.s) do not fit the tiles copied at reset, so
; the 64 background tiles that hold no art (zh_cell_tile) are four blocks
; of 16, ply p's glyphs in block p % 4, and drawing the list points each
; slot's nametable rows at the block of its ply; the main loop then writes
; the glyphs' patterns into the blocks that need them through the VRAM
; queue, a few a frame (16 bytes a tile, at most 3 tiles a frame: about 6
; frames for a new ply's block, 22 for all four), so input is never held
; up; before a search the rest is written at once (zh_panel_finish).
;
; The text is that of the position before the move.  Everything but 前/中/后
; is read back from the take-back record and the board when the list is
; drawn: the piece's kind by following it from its destination through the
; newer plies (to the board, or to the ply that captured it).  Whether
; another piece of its kind stood on its file is noted when the move is
; played (zh_note_move), 2 bits per record entry in zh_tandem.

.include "nes.inc"
.include "global.inc"
.include "tiles.inc"
.include "engine/eng.inc"

ZH_VRAM = NAMETABLE_0 + ZH_ROW * 32 + PANEL_LEFT_COL
ZH_CELLS = ZH_MOVES * 16  ; the tiles of zh_cell_tile
.assert ZH_ROW = HISTORY_ROW - 1 && ZH_MOVES = HISTORY_ROWS, error, "the Chinese list covers the ICCS list's rows"
.assert (ZH_ROW & 1) = 0, error, "a move of the Chinese list is one metatile row"

.segment "UI_CODE"

;;
; Before a move is played: notes in zh_tandem, for the record entry that
; game_play writes next (game_undo_head), whether other pieces of the
; mover's kind stand on its file: 0 none, 1 the mover is the front one (前),
; 3 the rear one (后), 2 between (中).  Front is towards the opponent.
; @param A from, X to (padded squares of a legal move of the position now)
; Uses local+0..3.  Clobbers Y.  Keeps A and X.
; Cycles: about 370-480 (two walks along the file; measured in py65).
.proc zh_note_move
from  = local+0
pk    = local+1         ; the mover's side*8 + kind
up    = local+2         ; like pieces above it (higher ranks), then the mark
down  = local+3         ; like pieces below it
  sta from
  pha
  txa
  pha
  ldx from
  ldy board,x
  lda code_pk-CODE_BASE,y
  sta pk
  ldx #0
  stx up
  stx down
  lda from
@up:
  clc
  adc #DIR_UP
  tay
  ldx board,y
  beq @up               ; empty
  cpx #SQ_OFFBOARD
  beq @up_done
  pha
  lda code_pk-CODE_BASE,x
  cmp pk
  bne :+
  inc up
: pla
  jmp @up
@up_done:
  lda from
@down:
  sec
  sbc #-DIR_DOWN
  tay
  ldx board,y
  beq @down
  cpx #SQ_OFFBOARD
  beq @down_done
  pha
  lda code_pk-CODE_BASE,x
  cmp pk
  bne :+
  inc down
: pla
  jmp @down
@down_done:
  lda pk                ; Black's front is below it: swap
  cmp #8
  bcc :+
  lda up
  ldx down
  sta down
  stx up
: lda up                ; up = pieces in front, down = behind
  ora down
  beq @mark             ; alone on its file: 0
  lda #1
  ldx up
  beq @mark             ; none in front: 前
  lda #3
  ldx down
  beq @mark             ; none behind: 后
  lda #2                ; 中
@mark:
  sta up
  lda game_undo_head    ; entry e: byte e / 4, bits 2 (e % 4)
  and #3
  tay
  lda up
@shift:
  dey
  bmi @shifted
  asl a
  asl a
  bne @shift            ; (0 stays 0: nothing to shift)
@shifted:
  sta up
  lda game_undo_head
  and #3
  tay
  lda game_undo_head
  lsr a
  lsr a
  tax
  lda zh_tandem,x
  and zh_pair_clear,y
  ora up
  sta zh_tandem,x
  pla
  tax
  pla
  rts
.endproc
.assert GAME_UNDO_PLIES = 8, error, "zh_tandem holds 8 entries of 2 bits"

;;
; Draws the move list in Chinese: for each of the last ZH_MOVES plies
; (newest at the bottom) the slot's two nametable rows (its cells) and the
; mover's palette, or an empty slot for a ply not recorded.  The glyphs'
; patterns follow a few cells a frame (zh_panel_step), so the main loop
; never waits for them: after one new ply only its block (16 cells: the
; older plies keep theirs, zh_block), after a take-back or a new game all
; 64, and none when no ply was played since the last draw (zh_drawn_ply).
; Uses local+0..15.  Clobbers A, X, Y.
; Cycles: with the "MOVE n" row (panel_moves) about 8,500 and the queue
; copied about 3 times (py65, NMI off): with NMI on, about 3 frames.
.proc panel_moves_zh
ptr    = local+0        ; put_text's
k      = local+3        ; plies back from the newest, ZH_MOVES-1 .. 0
glyph  = local+4        ; 4 glyph numbers
entry  = local+8        ; the record entry of ply k
side   = local+9        ; its mover: 0 Red, 1 Black
kind   = local+10       ; KIND_*
slot   = local+11       ; screen slot: ZH_MOVES-1-k (0 the top one)
  lda #ZH_MOVES - 1
  sta k
@row:
  lda #ZH_MOVES - 1
  sec
  sbc k
  sta slot
  jsr zh_shown
  cmp k
  beq :+
  bcs @move
: lda #<zh_blank        ; not recorded (or in Chinese the top slot): blank
  sta ptr
  lda #>zh_blank
  sta ptr+1
  jsr zh_put_rows
  lda #PAL_BOARD
  jmp @palette
@move:
  jsr zh_row_glyphs     ; (for the side: the glyphs follow in zh_panel_step)
  jsr zh_block          ; the nametable rows: the cells of the ply's block
  clc
  adc #<zh_cell_tile
  sta ptr
  lda #0
  adc #>zh_cell_tile
  sta ptr+1
  jsr zh_put_rows
  lda side
  clc
  adc #PAL_RED          ; Red's in red, Black's in black
@palette:
  pha
  lda slot
  clc
  adc #ZH_ROW / 2
  tax
  pla
  jsr panel_palette
  dec k
  bpl @row
  lda game_ply          ; which cells need their glyph (again)
  sec
  sbc zh_drawn_ply
  beq @same             ; no ply since the last draw: the blocks hold
  cmp #1
  bne @all              ; a take-back, a new game: every block
  lda zh_pending        ; one more ply: its block, after those pending
  clc
  adc #16
  cmp #ZH_CELLS + 1
  bcc @set
@all:
  lda #ZH_CELLS
@set:
  sta zh_pending
@same:
  lda game_ply
  sta zh_drawn_ply
  rts
.endproc

;;
; How many plies the list shows: those recorded, at most ZH_MOVES, or
; ZH_MOVES - 1 in Chinese (ui_lang: the top slot stays blank and the block
; of its ply holds the side to move, zh_status).
; @return A the count
; Clobbers A.  Keeps X and Y.
.proc zh_shown
  lda #ZH_MOVES
  sec
  sbc ui_lang
  cmp game_undo_n
  bcc :+
  lda game_undo_n
: rts
.endproc
.assert UI_LANG_EN = 0 && UI_LANG_ZH = 1, error, "zh_shown: ZH_MOVES - ui_lang"

;;
; The block of cells (a fourth of zh_cell_tile) that holds the glyphs of
; the ply k plies back from the newest: ply p = game_ply - 1 - k uses block
; p % 4, so the plies shown use the four blocks and a new ply overwrites
; only the block of the one that scrolled out.
; @param local+3 k
; @return A the block's offset in zh_cell_tile (block * 16)
; Clobbers A.
.proc zh_block
k = local+3
  lda game_ply
  clc
  sbc k
  and #ZH_MOVES - 1
  asl a
  asl a
  asl a
  asl a
  rts
.endproc
.assert ZH_MOVES = 4, error, "zh_block: four blocks, ply % 4"
.assert PAL_BLACK = PAL_RED + 1, error, "the mover's palette is PAL_RED + side"

;;
; Queues the two nametable rows of move slot `slot` (local+11): 8 tiles from
; local+0/1, then the next 8.
; Uses local+0..2.  Clobbers A, X, Y.
.proc zh_put_rows
ptr  = local+0
slot = local+11
  lda #0
  jsr row_vram
  lda #8
  jsr put_text
  lda ptr               ; the second row: the next 8 tiles (zh_blank has 16)
  clc
  adc #8
  sta ptr
  bcc :+
  inc ptr+1
: lda #32
  jsr row_vram
  lda #8
  jmp put_text
row_vram:               ; X, Y = ZH_VRAM + slot * 64 + A (A = 0 or 32)
  sta local+2           ; (put_text's count: free until put_text)
  lda slot
  clc
  ror a                 ; slot 0-3 to bits 6-7 (through the carry)
  ror a
  ror a
  clc
  adc local+2
  clc
  adc #<ZH_VRAM
  tay
  lda #>ZH_VRAM
  adc #0
  tax
  rts
.endproc

;;
; The four glyph numbers of the ply k plies back from the newest (k <
; game_undo_n), as format_zh writes it.
; @param local+3 k
; @return local+4..7 the glyphs; local+8 its record entry, local+9 its
;   mover (0 Red, 1 Black), local+10 its kind
; Uses local+4..10 and local+13..14 (zh_kind); keeps local+0..3, local+11..12.
; Clobbers A, X, Y.
.proc zh_row_glyphs
k      = local+3
glyph  = local+4
entry  = local+8
side   = local+9
kind   = local+10
step   = local+13       ; ranks moved forward (signed)
  lda game_undo_head    ; entry (head - 1 - k) & 7
  clc
  sbc k
  and #GAME_UNDO_PLIES - 1
  sta entry
  lda game_ply          ; ply game_ply - 1 - k: even is Red's
  clc
  sbc k
  and #1
  sta side
  jsr zh_kind
  sta kind
  ; the head: piece and file, or 前/中/后 and piece
  lda side              ; the piece: ZH_GLYPH_PIECE + side * 7 + kind - 1
  asl a
  asl a
  asl a
  sec
  sbc side
  clc
  adc kind
  adc #ZH_GLYPH_PIECE - 1
  pha
  lda entry             ; its mark: zh_tandem's 2 bits of the entry
  lsr a
  lsr a
  tax
  lda entry
  and #3
  tay
  lda zh_tandem,x
@mark:
  dey
  bmi @marked
  lsr a
  lsr a
  bpl @mark             ; (always)
@marked:
  and #3
  beq @file
  clc
  adc #ZH_GLYPH_TANDEM - 1
  sta glyph
  pla
  sta glyph+1
  jmp @action
@file:
  pla
  sta glyph
  ldy entry
  ldx game_undo_from,y
  jsr zh_file_glyph
  sta glyph+1
@action:                ; 进 / 退 / 平 by the ranks moved forward
  ldy entry
  ldx game_undo_to,y
  lda sq_rank,x
  ldx game_undo_from,y
  sec
  sbc sq_rank,x
  ldx side
  beq :+
  eor #$FF              ; Black: forward is down
  clc
  adc #1
: sta step
  ldx #ZH_GLYPH_ACTION + 2
  tay
  beq @sideways
  ldx #ZH_GLYPH_ACTION
  tay
  bpl :+
  inx                   ; 退
  eor #$FF
  clc
  adc #1
: sta step              ; |step|
  stx glyph+2
  lda kind              ; horse, advisor, elephant: the file reached
  cmp #KIND_ADVISOR
  bcc @distance
  cmp #KIND_HORSE + 1
  bcc @to_file
@distance:
  lda side              ; the ranks moved: 一..九 / １..９
  beq :+
  lda #ZH_GLYPH_DIGIT - ZH_GLYPH_NUMERAL
: clc
  adc step
  adc #<(ZH_GLYPH_NUMERAL - 1)  ; (mod 256)
  sta glyph+3
  rts
@sideways:
  stx glyph+2
@to_file:
  ldy entry
  ldx game_undo_to,y
  jsr zh_file_glyph
  sta glyph+3
  rts
.endproc
.assert KIND_ADVISOR + 1 = KIND_ELEPHANT && KIND_ELEPHANT + 1 = KIND_HORSE, error, "zh_row_glyphs: A, E, H are one range"

;;
; The glyph of a square's file for the mover: Red's numeral counted from
; Red's right (file i is 一), Black's digit from Black's right (file a is １).
; @param X padded square; local+9 the side
; @return A the glyph number
; Clobbers A.
.proc zh_file_glyph
side = local+9
  lda side
  bne @black
  lda sq_file,x         ; 8 - file + ZH_GLYPH_NUMERAL
  eor #$FF
  clc
  adc #ZH_GLYPH_NUMERAL + 9
  rts
@black:
  lda sq_file,x
  clc
  adc #ZH_GLYPH_DIGIT
  rts
.endproc

;;
; The kind of the piece that moved in record entry `entry`, k plies back:
; followed from its destination through the newer plies to the board, or to
; the ply that captured it (whose record names the captured kind).
; @param local+3 k, local+8 entry
; @return A the kind (KIND_*)
; Uses local+14.  Clobbers A, X, Y.
; Cycles: about 40 + 45 a ply.
.proc zh_kind
k     = local+3
entry = local+8
sq    = local+14
  ldy entry
  lda game_undo_to,y
  sta sq
  ldx k
@newer:
  dex                   ; ply j = k-1 .. 0
  bmi @on_board
  txa                   ; its entry (head - 1 - j) & 7 = (head + ~j) & 7
  eor #$FF
  clc
  adc game_undo_head
  and #GAME_UNDO_PLIES - 1
  tay
  lda game_undo_from,y
  cmp sq
  bne @stays
  lda game_undo_to,y    ; the piece moved on
  sta sq
  bne @newer            ; (always: a square is never 0)
@stays:
  lda game_undo_to,y
  cmp sq
  bne @newer
  lda game_undo_cap,y   ; captured there: side*8 + kind
  and #7
  rts
@on_board:
  ldx sq
  ldy board,x
  lda code_kind-CODE_BASE,y
  rts
.endproc

;;
; One frame's share of the Chinese list's glyphs: writes the cells that
; panel_moves_zh left pending (zh_pending: the last zh_pending cells of the
; list in screen order, the newest move's last; cell ZH_CELLS - zh_pending
; is next) while the VRAM queue has room for one more tile (3 a frame when
; nothing else is queued).  Never waits.  A screen cell's tile is in the
; block of the ply it shows (zh_block).
; A cell of an empty slot needs no pattern: the slot is skipped.  Each tile
; is one queue entry: its 8 rows from one plane of zh_glyph_bits, twice
; (both bit planes: the ink is colour 3).  The main loop calls it every
; frame on the board screens.
; Uses local+0..15.  Clobbers A, X, Y.
; Cycles: about 980 a cell (zh_row_glyphs for its slot, then the copy),
; at most about 2,950 a frame (3 cells; measured in py65 over a full list).
.proc zh_panel_step
ptr   = local+0
k     = local+3         ; zh_row_glyphs' input
glyph = local+4         ; its output
cell  = local+11        ; 0-63: slot * 16 + row * 8 + column
@cell:
  lda zh_pending
  bne :+
  rts                   ; none left
: lda vram_queue_len
  cmp #VRAM_QUEUE_SIZE - (16 + 4)
  bcc :+
  rts                   ; no room this frame
: lda #ZH_CELLS         ; cell ZH_CELLS - zh_pending
  sec
  sbc zh_pending
  sta cell
  lsr a                 ; k = ZH_MOVES - 1 - slot
  lsr a
  lsr a
  lsr a
  eor #ZH_MOVES - 1
  sta k
  jsr zh_shown
  cmp k
  beq :+
  bcs @glyph
: lda cell              ; an empty slot: none of its cells (pending: the
  and #$F0              ; cells from the next slot on)
  eor #$FF
  sec
  adc #ZH_CELLS - 16    ; ZH_CELLS - 16 - slot * 16
  sta zh_pending
  jmp @cell
@glyph:
  jsr zh_row_glyphs
  lda cell              ; glyph g = column / 2
  and #7
  lsr a
  tax
  lda glyph,x           ; ptr = zh_glyph_bits + glyph * 32 + quadrant * 8
  ldx #0
  stx ptr+1
  asl a
  asl a
  asl a
  rol ptr+1
  asl a
  rol ptr+1
  sta ptr
  lda cell              ; quadrant * 8 = row * 16 + (column & 1) * 8
  and #8
  asl a
  sta local+2
  lda cell
  and #1
  asl a
  asl a
  asl a
  ora local+2
  asl ptr               ; (glyph * 32: the last shift)
  rol ptr+1
  clc
  adc ptr
  sta ptr
  lda ptr+1
  adc #0
  sta ptr+1
  lda ptr
  clc
  adc #<zh_glyph_bits
  sta ptr
  lda ptr+1
  adc #>zh_glyph_bits
  sta ptr+1
  jsr zh_block          ; the cell's tile: in the block of the slot's ply
  sta local+2
  lda cell
  and #15
  ora local+2
  tay
  lda zh_cell_tile,y
  jsr tile_queue_begin  ; (room checked above: it does not wait)
  ldy #0
@byte:
  lda (ptr),y
  sta vram_queue,x      ; plane 0
  sta vram_queue+8,x    ; plane 1
  inx
  iny
  cpy #8
  bne @byte
  txa
  clc
  adc #8
  tax
  jsr vram_queue_end
  dec zh_pending
  jmp @cell
.endproc

;;
; Writes every pending cell of the Chinese list now, a frame at a time
; (before a search, which stops the main loop: the list is then complete
; while the computer thinks).  About 6 frames for a new ply's block, 22 for
; all four.
; Uses local+0..15.  Clobbers A, X, Y.
.proc zh_panel_finish
@frame:
  lda zh_pending
  beq @done
  jsr zh_panel_step
  jsr wait_frame
  jmp @frame
@done:
  rts
.endproc

;;
; The pause menu over the list: blanks the Chinese list's even rows (the
; menu's items are on the odd ones).
; Uses local+0..2, local+11.  Clobbers A, X, Y.
.proc zh_clear_rows
slot = local+11
  lda #ZH_MOVES - 1
  sta slot
@slot:
  lda #<zh_blank
  sta local+0
  lda #>zh_blank
  sta local+1
  jsr zh_put_rows
  dec slot
  bpl @slot
  rts
.endproc

.segment "UI_DATA"
zh_pair_clear:          ; zh_tandem: keeps the other entries' bits
  .byte $FC, $F3, $CF, $3F
zh_blank:
  .byte "                "

; ---- the game's texts in Chinese (ui_lang = UI_LANG_ZH) -------------------
; The pause menu and the result borrow the list's cells (zh_cell_tile): the
; menu covers the whole list, so it takes cells 0-39 and the list is written
; again, all of it, when it comes back (zh_release); the result takes the
; blocks of the two oldest moves shown, whose rows it blanks, so the two
; newest stay.

.segment "UI_CODE"

ZH_MENU_VRAM = NAMETABLE_0 + (MENU_ROW - 1) * 32 + PANEL_LEFT_COL
ZH_RESULT_VRAM = NAMETABLE_0 + RIVER_MROW * 64 + 3  ; ui_panel.s RESULT_VRAM
ZH_WINNER_WIDTH = 6     ; " 红胜 " (tiles), then the reason: "将死     "
ZH_REASON_WIDTH = 9     ;   or "六十回合 "
ZH_MENU_ITEMS = 5       ; PAUSE_ITEMS (ui_panel.s)
.assert ZH_TITLE_CELL | (ZH_TITLE_TILE & $7F) = ZH_TITLE_TILE, error, "zh_line's title cells"
.assert (MENU_ROW & 1) = 1, error, "an item of the Chinese menu is one metatile row"

;;
; Queues one line of 16x16 glyphs over two tile rows: `pad` blank tiles,
; the text's glyphs (two tiles wide each), blanks up to `width` tiles.  The
; glyphs' patterns go into the cells first .. first + 4n - 1 of
; zh_cell_tile (each glyph's top-left, top-right, bottom-left, bottom-right
; tile), 3 tiles a queue-full: with NMI on about a frame each, waited for
; (about 6 frames for 4 glyphs); the rows follow, so the line never shows
; a cell before its glyph is there.
; @param local+0/1 the text (zh_glyphs.s zht_*: count n, glyph numbers)
; @param local+2 pad, local+3 width (pad + 2n <= width), local+4 first
;   (0-63; or ZH_TITLE_CELL + 0-63: the title's cells, sprite-table tiles
;   $C0 + n, where the title's background is: ui_title.s)
; @param X, Y VRAM address (high, low) of the top row's first tile
; Uses local+0..12.  Clobbers A, X, Y.
.proc zh_line
text  = local+0
pad   = local+2
width = local+3
first = local+4
hi    = local+5         ; the row's VRAM address
lo    = local+6
col   = local+7         ; tiles of the row so far
cell  = local+8
glyph = local+9         ; 1 .. n: the text's glyph
src   = local+10        ; 2 bytes: zh_tile_pattern's input
half  = local+12        ; 0 the top row, 2 the bottom one (cell offset)
  stx hi
  sty lo
  lda first
  sta cell
  lda #1
  sta glyph
@glyph:
  ldy #0
  lda (text),y
  cmp glyph
  bcc @rows
  ldy glyph             ; src = zh_glyph_bits + glyph number * 32
  lda (text),y
  ldx #0
  stx src+1
  ldx #5
: asl a
  rol src+1
  dex
  bne :-
  clc
  adc #<zh_glyph_bits
  sta src
  lda src+1
  adc #>zh_glyph_bits
  sta src+1
  lda #4
  sta half              ; (now the quadrants left)
@quadrant:
  ldy cell
  bmi @title_cell
  lda zh_cell_tile,y
  jsr zh_tile_pattern
  jmp @quadrant_done
@title_cell:
  tya                   ; ZH_TITLE_CELL + n: tile $C0 + n of table $1000
  ora #ZH_TITLE_TILE & $7F
  jsr zh_tile_pattern_spr
@quadrant_done:
  lda src
  clc
  adc #8
  sta src
  bcc :+
  inc src+1
: inc cell
  dec half
  bne @quadrant
  inc glyph
  bne @glyph            ; (always)
@rows:                  ; then the rows: the cells hold their glyphs
  lda #0
  sta half
@row:
  lda width
  ldx hi
  ldy lo
  jsr vram_queue_begin
  lda #0
  sta col
  lda #1
  sta glyph
  lda first
  clc
  adc half
  sta cell
@tile:
  lda col
  cmp pad
  bcc @blank
  ldy #0
  lda (text),y          ; past the text: blank
  cmp glyph
  bcc @blank
  ldy cell
  bmi @title_tiles
  lda zh_cell_tile,y
  sta vram_queue,x
  inx
  lda zh_cell_tile+1,y
@second:
  sta vram_queue,x
  inx
  inc col
  tya
  clc
  adc #4
  sta cell
  inc glyph
  bne @next             ; (always)
@title_tiles:            ; (cell even: first and half are)
  tya
  ora #ZH_TITLE_TILE & $7F
  sta vram_queue,x
  inx
  ora #1
  bne @second           ; (always)
@blank:
  lda #' '
  sta vram_queue,x
  inx
@next:
  inc col
  lda col
  cmp width
  bcc @tile
  jsr vram_queue_end
  lda lo                ; the bottom row
  clc
  adc #32
  sta lo
  bcc :+
  inc hi
: lda half
  bne @done
  lda #2
  sta half
  bne @row              ; (always)
@done:
  rts
.endproc

;;
; Starts a VRAM queue entry for the 16 bytes of a tile's pattern in table
; $0000 (CHR address tile * 16), waiting for room as vram_queue_begin does.
; @param A the tile
; @return X as vram_queue_begin (store the 16 bytes at vram_queue,x)
; Clobbers A, Y.
.proc tile_queue_begin
  clc
  ; (falls into tile_queue_begin_in)
.endproc

;;
; tile_queue_begin in either pattern table: CHR address C * $1000 + tile * 16.
; @param A the tile; C = 0: pattern table $0000, C = 1: $1000
; @return X as vram_queue_begin
; Clobbers A, Y.
.proc tile_queue_begin_in
  pha
  ror a                 ; C * $80 + tile / 2
  lsr a
  lsr a
  lsr a                 ; C * $10 + tile / 16: the address's high byte
  tax
  pla
  asl a
  asl a
  asl a
  asl a
  tay
  lda #16
  jmp vram_queue_begin
.endproc

;;
; Queues one tile's pattern from 8 bytes of a glyph's plane (both bit
; planes: the ink is colour 3), waiting for room in the VRAM queue.
; @param A the tile (pattern table $0000); local+10/11 the 8 bytes
; Clobbers A, X, Y.
.proc zh_tile_pattern
src = local+10
  jsr tile_queue_begin
queued:
  ldy #0
@byte:
  lda (src),y
  sta vram_queue,x      ; plane 0
  sta vram_queue+8,x    ; plane 1
  inx
  iny
  cpy #8
  bne @byte
  txa
  clc
  adc #8
  tax
  jmp vram_queue_end
.endproc

;;
; zh_tile_pattern into pattern table $1000 (the title's background): tile
; A's pattern from 8 bytes of a glyph's plane.
; @param A the tile (pattern table $1000); local+10/11 the 8 bytes
; Clobbers A, X, Y.
.proc zh_tile_pattern_spr
  sec                   ; pattern table $1000
  jsr tile_queue_begin_in
  jmp zh_tile_pattern::queued
.endproc

;;
; Takes the list's cells for another text: no cell is written for the list
; any more (zh_pending), and the next panel_moves_zh writes all of them
; again (zh_drawn_ply made different from game_ply by more than one ply).
; Clobbers A.
.proc zh_release
  lda #0
  sta zh_pending
  lda game_ply
  eor #$80
  sta zh_drawn_ply
  rts
.endproc

;;
; The pause menu in Chinese (继续 悔棋 提示 认输 新局) over panel rows
; 16-25, one item in each metatile row (its palette: menu_item_palette),
; in 40 of the list's cells: those that follow the side to move's block
; (zh_status), round.  The list's rows are blanked first.
; Uses local+0..15.  Clobbers A, X, Y.
.proc zh_menu
item = local+13
base = local+14         ; the first item's first cell
  jsr zh_release
  jsr zh_clear_rows
  lda #ZH_MOVES - 1     ; the status's block, k = 3
  sta local+3
  jsr zh_block
  clc
  adc #16
  sta base
  lda #0
  sta item
@item:
  ldx item
  lda zh_menu_lo,x
  sta local+0
  lda zh_menu_hi,x
  sta local+1
  lda #2
  sta local+2           ; pad: "  继续  "
  lda #8
  sta local+3
  txa                   ; cells base + item * 8, round
  asl a
  asl a
  asl a
  adc base              ; (C = 0)
  and #ZH_CELLS - 1
  sta local+4
  ldy zh_menu_vram_lo,x
  lda zh_menu_vram_hi,x
  tax
  jsr zh_line
  inc item
  lda item
  cmp #ZH_MENU_ITEMS
  bne @item
  rts
.endproc

;;
; Closes the Chinese pause menu: blanks panel row 16 (the tops of its first
; item; panel_moves redraws rows 17-25).
; Uses local+0..2.  Clobbers A, X, Y.
.proc zh_menu_close
  lda #<zh_blank
  sta local+0
  lda #>zh_blank
  sta local+1
  ldx #>ZH_MENU_VRAM
  ldy #<ZH_MENU_VRAM
  lda #8
  jmp put_text
.endproc

;;
; The result in Chinese over the river: the winner (红胜 / 黑胜 / 和棋,
; ui_winner) and the reason (将死 困毙 长将 重复 六十回合 认输 限着,
; ui_result), written into the blocks of the two oldest moves shown, whose
; rows are blanked first (the two newest stay); and 终局 over panel rows
; 10-11 in the rest of the winner's block.  The list's pending cells
; are written first (zh_panel_finish), so none of them is written later.
; Uses local+0..15.  Clobbers A, X, Y.
.proc zh_result
  jsr zh_panel_finish
  lda #3                ; the oldest slot's block (k = 3): the winner
  sta local+3
  jsr zh_block
  pha
  dec local+3           ; the next (k = 2): the reason
  jsr zh_block
  pha
  jsr zh_release
  lda #<zh_blank        ; blank slots 0 and 1
  sta local+0
  lda #>zh_blank
  sta local+1
  lda #0
  sta local+11
  jsr zh_put_rows
  lda #<zh_blank
  sta local+0
  lda #>zh_blank
  sta local+1
  lda #1
  sta local+11
  jsr zh_put_rows
  pla                   ; the reason
  sta local+4
  ldx ui_result
  lda zh_reason_lo-1,x
  sta local+0
  lda zh_reason_hi-1,x
  sta local+1
  lda #0
  sta local+2
  lda #ZH_REASON_WIDTH
  sta local+3
  ldx #>(ZH_RESULT_VRAM + ZH_WINNER_WIDTH)
  ldy #<(ZH_RESULT_VRAM + ZH_WINNER_WIDTH)
  jsr zh_line
  pla                   ; the winner
  pha
  sta local+4
  ldx ui_winner
  lda zh_winner_lo,x
  sta local+0
  lda zh_winner_hi,x
  sta local+1
  lda #1
  sta local+2
  lda #ZH_WINNER_WIDTH
  sta local+3
  ldx #>ZH_RESULT_VRAM
  ldy #<ZH_RESULT_VRAM
  jsr zh_line
  pla                   ; 终局: cells 8-15 of the winner's block
  clc
  adc #8
  sta local+4
  lda #<zht_game_over
  sta local+0
  lda #>zht_game_over
  sta local+1
  lda #2
  sta local+2
  lda #8
  sta local+3
  ldx #>(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  ldy #<(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  jmp zh_line
.endproc

;;
; A puzzle's end in Chinese: 成功 (solved) or 失败 (failed) in place of
; zh_result's 终局 (its cells, 8-15 of the winner's block).
; @param X T_SOLVED or T_FAILED
; Uses local+0..12.  Clobbers A, X, Y.
.proc zh_verdict
  lda #<zht_solved
  ldy #>zht_solved
  cpx #T_SOLVED
  beq :+
  lda #<zht_failed
  ldy #>zht_failed
: sta local+0
  sty local+1
  lda #3                ; the oldest slot's block: the winner's (zh_result)
  sta local+3
  jsr zh_block
  clc
  adc #8
  sta local+4
  lda #2
  sta local+2
  lda #8
  sta local+3
  ldx #>(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  ldy #<(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  jmp zh_line
.endproc

;;
; The side to move in Chinese over panel rows 10-11 (STATUS_MROW), in its
; colour: 红方走棋 / 黑方走棋, or 将军 when it is in check; its glyphs in
; the block of the ply the list does not show (zh_shown: k = 3, the cells
; the pause menu and the next ply leave alone).  About 6 frames.
; Uses local+0..15.  Clobbers A, X, Y.
.proc zh_status
  lda #ZH_MOVES - 1
  sta local+3
  jsr zh_block
  sta local+4
  ldx #0                ; pad
  lda game_check
  beq :+
  lda #<zht_check
  ldy #>zht_check
  ldx #2
  bne @text             ; (always)
: lda eng_side
  bne :+
  lda #<zht_red_to_move
  ldy #>zht_red_to_move
  bne @text             ; (always: not in page 0)
: lda #<zht_black_to_move
  ldy #>zht_black_to_move
@text:
  sta local+0
  sty local+1
  stx local+2
  lda #8
  sta local+3
  ldx #>(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  ldy #<(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  jsr zh_line
  lda eng_side
  clc
  adc #PAL_RED          ; Red's in red, Black's in black
  ldx #STATUS_MROW
  jmp panel_palette
.endproc

;;
; Before a search in Chinese: blanks panel row 10 (the tops of the side to
; move's glyphs; panel_think puts the clock in row 11).
; Uses local+0..2.  Clobbers A, X, Y.
.proc zh_think_row
  lda #<zh_blank
  sta local+0
  lda #>zh_blank
  sta local+1
  ldx #>(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  ldy #<(NAMETABLE_0 + STATUS_MROW * 64 + PANEL_LEFT_COL)
  lda #8
  jmp put_text
.endproc

.segment "UI_DATA"
zh_menu_lo:
  .lobytes zht_resume, zht_takeback, zht_hint, zht_resign, zht_new_game
zh_menu_hi:
  .hibytes zht_resume, zht_takeback, zht_hint, zht_resign, zht_new_game
zh_menu_vram_lo:
  GLYPH_ROWS_LO ZH_MENU_VRAM, ZH_MENU_ITEMS
zh_menu_vram_hi:
  GLYPH_ROWS_HI ZH_MENU_VRAM, ZH_MENU_ITEMS
zh_winner_lo:           ; ui_winner: 0 Red, 1 Black, 2 none
  .lobytes zht_red_wins, zht_black_wins, zht_draw
zh_winner_hi:
  .hibytes zht_red_wins, zht_black_wins, zht_draw
zh_reason_lo:           ; ui_result - 1
  .lobytes zht_checkmate, zht_stalemate, zht_perpetual, zht_repetition, zht_sixty, zht_chase, zht_resigned, zht_limit
zh_reason_hi:
  .hibytes zht_checkmate, zht_stalemate, zht_perpetual, zht_repetition, zht_sixty, zht_chase, zht_resigned, zht_limit
.assert GAME_CHECKMATE = 1 && GAME_PERPETUAL_CHASE = 6 && UI_RESULT_RESIGN = 7 && UI_RESULT_LIMIT = 8, error, "zh_reason order"
.assert GAME_NO_WINNER = 2, error, "zh_winner order"
