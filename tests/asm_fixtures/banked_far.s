; UxROM test program, switchable banks 1, 2, 3 and 5 (see banked.s).
.import buf, result, bank_switch
.importzp ptr, cur_bank
.export fill_buffer, sum_buffer, scale_table, bank5_tail

BUF_SIZE = 16

.segment "BANK1"
    .byte <.bank(*)

;;
; Fills buf with X, X+1, ... (BUF_SIZE bytes).
; @param X first value
; clobbers A, X, Y
.proc fill_buffer
    ldy #0
loop:
    txa
    sta buf,y
    inx
    iny
    cpy #BUF_SIZE
    bne loop
    rts
.endproc

.segment "BANK2"
    .byte <.bank(*)
    .res 32, $EA

;;
; Sums buf into result (16 bits).
; clobbers A, X
.proc sum_buffer
    lda #0
    sta result
    sta result + 1
    ldx #0
loop:
    clc
    lda result
    adc buf,x
    sta result
    bcc :+
    inc result + 1
:   inx
    cpx #BUF_SIZE
    bne loop
    rts
.endproc

.segment "BANK3"
    .byte <.bank(*)
scale_table:
    .repeat 64, i
    .byte i * 3
    .endrepeat
bank3_self:
    .byte <.bank(bank3_self), <.bank(scale_table + 63)

.segment "BANK5"
    .byte <.bank(*)
    .res $3FF0 - 1
;;
; The last routine of bank 5: a label near the end of a switchable bank.
.proc bank5_tail
    lda cur_bank
    sta ptr
    rts
.endproc
