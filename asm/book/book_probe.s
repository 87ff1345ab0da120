; book_probe.s: the opening book's probe (reference_py/book.py is its
; specification; docs/ENGINE.md "Opening book").
;
; The code is in the fixed bank because it reads three kinds of bank in a
; row: the key tables (BOOK_KEYS), the data bank of the position's bucket
; (BOOK_A, BOOK_B or BOOK_C), and the fixed bank's own square tables; it
; maps the caller's bank back before it returns.  The data's layout is in
; tools/rom/gen_book.py.

.include "global.inc"
.include "engine/eng.inc"
.include "book_const.inc"

; Every data bank starts with its bucket addresses (gen_book.py): the same
; addresses in each, so one lookup serves all three.
BOOK_INDEX_LO = $8000
BOOK_INDEX_HI = $8100
; a record: n, key bits 16-23, 8-15, 0-7, depth, opening, then n x (from, to, weight)
REC_N       = 0
REC_KEY     = 1
REC_DEPTH   = 4
REC_OPENING = 5
REC_MOVES   = 6

.segment "CODE"

;;
; Finds the current position's record: its 32-bit book key and its mirror
; image's (reference book.keys), then the record of either.
; Input: the position (piece_sq, eng_side).
; Output: C = 1: ptr = the record, its data bank mapped (A = the bank),
;   mirror bit 7 = the record is the mirror image's, bit 6 = the position
;   is its own mirror image; C = 0: not in the book (a book bank mapped).
; Uses local+0..15 but plies.  Clobbers A, X, Y.
; Cycles: about 5,500 for the keys (32 pieces) and 60 per record scanned.
.proc book_locate
key     = local+0       ; 4 bytes: the position's key (then book_pick's product)
mkey    = local+4       ; 4 bytes: its mirror image's key
ptr     = local+8       ; 2 bytes: a key row, then the record
plies   = local+10      ; book_probe's: the level's book depth
mirror  = local+11      ; bit 7: the record is the mirror image's; bit 6: the position is its own mirror
sq      = local+12      ; a piece's square (rank*9+file), then scratch
msq     = local+13      ; its mirror square, then scratch
slot    = local+14      ; the piece slot, then scratch
  ldy #<.bank(book_key_plane0)
  sty bank_cur
  tya
  sta bank_table,y
  ; both keys start with the side's
  ldx #3
: lda #0
  ldy eng_side
  beq :+
  lda book_key_black,x
: sta key,x
  sta mkey,x
  dex
  bpl :--
  ldx #31
@piece:
  ldy piece_sq,x
  beq @next
  lda sq90_red,y        ; rank*9+file
  sta sq
  tay
  lda book_mirror90,y
  sta msq
  stx slot
  ldy code_pk,x         ; side*8+kind of the slot (fixed slots)
  lda book_key_row_lo,y
  sta ptr
  lda book_key_row_hi,y
  sta ptr+1
  ldx #0
@plane:
  ldy sq
  lda (ptr),y
  eor key,x
  sta key,x
  ldy msq
  lda (ptr),y
  eor mkey,x
  sta mkey,x
  lda ptr+1
  clc
  adc #BOOK_PLANE_PAGES
  sta ptr+1
  inx
  cpx #4
  bne @plane
  ldx slot
@next:
  dex
  bpl @piece
  ; is the position its own mirror image?
  lda #0
  sta mirror
  ldx #3
: lda key,x
  cmp mkey,x
  bne @find
  dex
  bpl :-
  lda #$40
  sta mirror
@find:
  ldx #key
  jsr book_find
  bcs @found
  bit mirror
  bvs @none             ; the mirror image is the same position
  ldx #mkey
  jsr book_find
  bcc @none
  lda #$80
  sta mirror
@found:
  lda bank_cur
  sec
@none:
  rts
.endproc

;;
; Finds a key's record: maps the data bank of its bucket and scans the
; bucket's records.
; Input: X = the key's address in the zero page (book_locate's key or mkey).
; Output: C = 1: book_locate's ptr = the record (its bank mapped); C = 0: no
;   record.  Clobbers A, Y, book_locate's ptr, sq, msq.
.proc book_find
ptr     = book_locate::ptr
index   = book_locate::sq
step    = book_locate::msq
  lda 3,x               ; the bucket: key bits 24-31
  cmp #BOOK_C_FIRST
  bcs @c
  cmp #BOOK_B_FIRST
  bcs @b
  ldy #<.bank(book_a_index_lo)   ; BOOK_A's first bucket is 0
  bcc @map              ; always
@b:
  sbc #BOOK_B_FIRST     ; C = 1: the index in BOOK_B
  ldy #<.bank(book_b_index_lo)
  bcs @map              ; always
@c:
  sbc #BOOK_C_FIRST
  ldy #<.bank(book_c_index_lo)
@map:
  sta index
  sty bank_cur
  tya
  sta bank_table,y
  ldy index
  lda BOOK_INDEX_LO,y
  sta ptr
  lda BOOK_INDEX_HI,y
  sta ptr+1
@record:
  ldy #REC_N
  lda (ptr),y
  beq @none             ; the bucket's end
  sta step
  iny
  lda (ptr),y
  cmp 2,x
  bne @skip
  iny
  lda (ptr),y
  cmp 1,x
  bne @skip
  iny
  lda (ptr),y
  cmp 0,x
  bne @skip
  sec
  rts
@skip:                  ; ptr += REC_MOVES + 3 n
  lda step
  asl a
  adc step              ; 3 n (n < 86: no carry)
  adc #REC_MOVES
  adc ptr
  sta ptr
  bcc @record
  inc ptr+1
  bcs @record           ; always
@none:
  clc
  rts
.endproc

;;
; Picks the record's move by weight with r = s_lfsr (reference book.choose):
; the stored moves, then (in a position that is its own mirror image) the
; mirror images of those that are not among them, the first whose running
; sum of weights exceeds r * W >> 16.
; Input: book_locate's ptr = the record (its bank mapped), mirror (bit 6).
; Output: A = from, X = to (rank*9+file, the record's orientation).
; Uses book_locate's key, mkey (the product, W and the target), sq, msq,
;   slot, local+15.  Clobbers Y.
.proc book_pick
ptr     = book_locate::ptr
mirror  = book_locate::mirror
total   = book_locate::mkey      ; 2 bytes: W, then the target r * W >> 16
prod    = book_locate::key       ; 4 bytes: r * W
run     = book_locate::mkey+2    ; 2 bytes: the running sum
n       = book_locate::slot      ; the record's moves
i       = book_locate::slot+1     ; move index (the mirror images: i + n)
from    = book_locate::sq
to      = book_locate::msq
  ldy #REC_N
  lda (ptr),y
  sta n
  ; W: the weights of every candidate
  lda #0
  sta total
  sta total+1
  sta i
@sum:
  jsr candidate
  bcs @summed
  bvs @sum_next         ; a mirror image that is stored: no candidate
  clc
  adc total
  sta total
  bcc @sum_next
  inc total+1
@sum_next:
  inc i
  bne @sum              ; always (i < 2 n)
@summed:
  ; prod = r * W (16 x 16 bits), the target = bits 16-31
  lda #0
  sta prod+2
  sta prod+3
  ldx #16
@mul:
  lsr total+1           ; the next bit of W
  ror total
  bcc :+
  lda prod+2
  clc
  adc s_lfsr
  sta prod+2
  lda prod+3
  adc s_lfsr+1
  sta prod+3
: ror prod+3
  ror prod+2
  ror prod+1
  ror prod
  dex
  bne @mul
  lda prod+2
  sta total
  lda prod+3
  sta total+1
  ; walk the candidates again: the first whose running sum exceeds the target
  lda #0
  sta run
  sta run+1
  sta i
@walk:
  jsr candidate
  bvs @walk_next
  clc
  adc run
  sta run
  bcc :+
  inc run+1
: lda total             ; run > target?
  cmp run
  lda total+1
  sbc run+1
  bcc @this
@walk_next:
  inc i
  bne @walk             ; always: the sum reaches W > target
@this:
  lda from
  ldx to
  rts
.endproc

;;
; Candidate i of book_pick: i < n, the record's move i; n <= i < 2 n, the
; mirror image of move i - n when the position is its own mirror image.
; Output: C = 1: no more candidates; else from, to (book_pick's) = its
;   squares, A = its weight, V = 1 if it is a mirror image that is stored
;   too (not a candidate).
; Clobbers A, X, Y.
.proc candidate
ptr     = book_locate::ptr
mirror  = book_locate::mirror
n       = book_pick::n
i       = book_pick::i
from    = book_pick::from
to      = book_pick::to
  lda i
  cmp n
  bcc @stored
  bit mirror            ; mirror images only in a position that is its own
  bvc @end
  sbc n                 ; C = 1 from the compare: i - n
  cmp n
  bcs @end
  jsr move_at           ; A = weight of move i - n, from/to its squares
  pha
  ldy from
  ldx book_mirror90,y
  ldy to
  lda book_mirror90,y
  sta to
  stx from
  ; stored already?
  ldx #0
@scan:
  txa
  jsr move_at_keep      ; the squares of stored move X in Y (from), A (to)
  cmp to
  bne :+
  cpy from
  beq @stored_too
: inx
  cpx n
  bne @scan
  pla
  clv
  clc
  rts
@stored_too:
  pla
  bit @v_set            ; V = 1
  clc
  rts
@stored:
  jsr move_at
  clv
  clc
  rts
@end:
  sec
  rts
@v_set:
  .byte $40
.endproc

;;
; Move A of the record: from, to (book_pick's) = its squares, A = its weight.
; Clobbers Y.
.proc move_at
ptr     = book_locate::ptr
from    = book_pick::from
to      = book_pick::to
  sta to                ; scratch: 3 A + REC_MOVES
  asl a
  adc to
  adc #REC_MOVES
  tay
  lda (ptr),y
  sta from
  iny
  lda (ptr),y
  sta to
  iny
  lda (ptr),y
  rts
.endproc

;;
; The squares of move A of the record without touching book_pick's from/to:
; Y = from, A = to.  Keeps X.
.proc move_at_keep
ptr     = book_locate::ptr
  sta book_locate::plies  ; (free once the depth was checked) 3 A + REC_MOVES
  asl a
  adc book_locate::plies
  adc #REC_MOVES
  tay
  lda (ptr),y
  pha
  iny
  lda (ptr),y
  tay                   ; to
  pla
  sta book_locate::plies
  tya
  ldy book_locate::plies
  rts
.endproc

;;
; The level's book move in the current position, if any: the record of the
; position or of its mirror image (book_locate), the level's book depth,
; BOOK_LFSR_STEPS LFSR steps, the move picked by weight (reference
; book.book_move; the caller checks that it is legal).
; Input: A = the level's book plies (lvl_book: the record's depth must be
;   below it); the position (piece_sq, eng_side); s_lfsr.
; Output: C = 1: A = from, X = to (padded squares), s_res_book = the
;   opening + 1, s_lfsr stepped BOOK_LFSR_STEPS times; C = 0: not in the
;   level's book (s_lfsr untouched).  The caller's bank is mapped again.
; Uses local+0..15.  Clobbers A, X, Y.
; Cycles: about 5,500 for the keys, 60 per record scanned, and about 1,500
;   to pick a move.
.proc book_probe
ptr     = book_locate::ptr
plies   = book_locate::plies
mirror  = book_locate::mirror
from    = book_locate::sq
  sta plies
  lda bank_cur          ; the caller's bank, mapped again at the end
  pha
  jsr book_locate
  bcc @miss
  ldy #REC_DEPTH
  lda (ptr),y
  cmp plies
  bcs @miss
  ldy #REC_OPENING
  lda (ptr),y
  clc
  adc #1
  sta s_res_book
  ldx #BOOK_LFSR_STEPS  ; r: the LFSR's state after them
: jsr lfsr_step
  dex
  bne :-
  jsr book_pick          ; A = from, X = to (rank*9+file, the record's orientation)
  bit mirror
  bpl :+
  tay
  lda book_mirror90,y
  pha
  lda book_mirror90,x
  tax
  pla
: tay
  lda sq_of90,x         ; padded squares
  tax
  lda sq_of90,y
  sta from
  pla                   ; the caller's bank
  tay
  sty bank_cur
  sta bank_table,y
  lda from
  sec
  rts
@miss:
  pla
  tay
  sty bank_cur
  sta bank_table,y
  clc
  rts
.endproc

;;
; The opening of the current position, for the panel: the record of the
; position or of its mirror image (book_locate), whatever its depth.
; Input: the position (piece_sq, eng_side).
; Output: A = the opening + 1, 0 when the position is not in the book; the
;   caller's bank is mapped again.
; Uses local+0..15.  Clobbers X, Y.
; Cycles: about 5,500 for the keys and 60 per record scanned.
.proc book_opening
ptr     = book_locate::ptr
  lda bank_cur          ; the caller's bank, mapped again at the end
  pha
  jsr book_locate
  lda #0
  bcc :+
  ldy #REC_OPENING
  lda (ptr),y
  clc
  adc #1
: tax
  pla
  tay
  sty bank_cur
  sta bank_table,y
  txa
  rts
.endproc

.segment "RODATA"
; the key of Black to move, bytes 0-3
book_key_black:
  .byte BOOK_KEY_BLACK_0, BOOK_KEY_BLACK_1, BOOK_KEY_BLACK_2, BOOK_KEY_BLACK_3
; the square across the middle file, rank*9+file
book_mirror90:
  .repeat 90, s
  .byte (s / 9) * 9 + 8 - (s .mod 9)
  .endrepeat
