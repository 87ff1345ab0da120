; chr.s: the tile patterns and their upload to the board's 8 KiB CHR-RAM.
;
; The patterns are built from the PNGs in assets/ by tools/rom/chr.py
; (tools/rom/build.py writes build/*.chr before assembling) and stored in
; PRG bank TILES; reset_handler copies them to the PPU once, with rendering
; off, before anything is drawn.

.include "nes.inc"
.include "global.inc"

CHR_SIZE = $2000        ; CHR-RAM: pattern tables $0000 (background) and $1000 (sprites)

.segment "CODE"

;;
; Copies the 8 KiB of tile patterns to CHR-RAM ($0000-$1FFF).
; Call with rendering off (reset_handler does), from the fixed bank.
; Output: the tiles' bank is left mapped (bank_cur says so): the caller maps
;   the bank it needs next.
; Uses local+0..1.  Clobbers A, X, Y.
; Cycles: about 115,000 (14 per byte: four frames, once per reset).
.proc chr_upload
src = local+0           ; 2 bytes: the next page of patterns
  SWITCH_BANK_OF chr_patterns
  lda #<chr_patterns
  sta src
  lda #>chr_patterns
  sta src+1
  bit PPUSTATUS         ; reset the address latch
  lda #>PATTERN_TABLE_0
  sta PPUADDR
  lda #<PATTERN_TABLE_0
  sta PPUADDR
  ldx #>CHR_SIZE        ; 32 pages
  ldy #0
@byte:
  lda (src),y
  sta PPUDATA
  iny
  bne @byte
  inc src+1
  dex
  bne @byte
  rts
.endproc

.segment "TILES"
chr_patterns:
  .incbin "build/bg.chr"        ; PPU $0000: background tiles (assets/bg.png)
  .incbin "build/sprites.chr"   ; PPU $1000: sprite tiles (assets/sprites.png)
.assert * - chr_patterns = CHR_SIZE, error, "the tiles must fill the 8 KiB of CHR-RAM"
