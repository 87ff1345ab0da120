; UxROM test program, fixed bank: reset, NMI, the bank switch and far-call
; stubs.  Checked byte for byte against ca65/ld65 (banked.cfg); the routines
; it calls live in switchable banks (banked_far.s and the BANK0 part below).
.import fill_buffer, sum_buffer, scale_table, bank5_tail
.export buf, result, bank_switch
.exportzp ptr, cur_bank

BUF_SIZE = 16

; ---------------------------------------------------------------- header
.segment "HEADER"
    .byte "NES", $1A
    .byte 8                 ; PRG ROM: 8 x 16 KiB
    .byte 0                 ; CHR ROM: none (CHR RAM)
    .byte $21               ; mapper 2 (low nibble 2 << 4), vertical mirroring
    .byte $08               ; NES 2.0
    .byte 0, 0, 0
    .byte $07               ; CHR RAM: 64 << 7 = 8 KiB
    .byte 0, 0, 0, 0

; ---------------------------------------------------------------- RAM
.segment "ZEROPAGE"
ptr:        .res 2
cur_bank:   .res 1
nmis:       .res 1

.segment "STACK"
stack:      .res 256

.segment "BSS"
buf:        .res BUF_SIZE
result:     .res 2

; ---------------------------------------------------------------- bank 0 (this object's part)
.segment "BANK0"
bank0_id:   .byte <.bank(*)         ; every bank starts with its number

;;
; Fills buf with X, X+1, ... (BUF_SIZE bytes).
; @param X first value
; clobbers A, X, Y
.proc fill_local
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

; ---------------------------------------------------------------- fixed bank
.segment "CODE"

;;
; Switches $8000-$BFFF to bank A without a bus conflict: the value written
; is read from banktable, which holds the same value at that address.
; @param A bank (0-6)
; clobbers Y
.proc bank_switch
    sta cur_bank
    tay
    sta banktable,y
    rts
.endproc

;;
; Far-call stub: saves the current bank, maps the bank of `target`, calls
; it, and maps the saved bank back.
.macro FAR_STUB name, target
.proc name
    lda cur_bank
    pha
    lda #<.bank(target)
    jsr bank_switch
    jsr target
    pla
    jmp bank_switch
.endproc
.endmacro

FAR_STUB far_fill, fill_buffer
FAR_STUB far_sum, sum_buffer
FAR_STUB far_fill_local, fill_local

;;
; Reset: stack, bank 0 mapped, then the far routines through their stubs.
; Never returns.
.proc reset
    sei
    cld
    ldx #$FF
    txs
    lda #0
    sta nmis
    jsr bank_switch
    ldx #3
    jsr far_fill
    jsr far_sum
    ldx #$40
    jsr far_fill_local
    lda #<.bank(scale_table + 5)     ; .bank() of label + constant
    jsr bank_switch
    lda scale_table + 5
    sta result
    lda #.lobyte(.bank(bank5_tail))
    ldy #.bankbyte(bank5_tail)       ; bits 16-23 of a 16-bit address: 0
forever:
    jmp forever
.endproc

;;
; NMI: counts frames in nmis.
.proc nmi
    inc nmis
    rti
.endproc

;;
; IRQ: unused.
.proc irq
    rti
.endproc

.segment "RODATA"
; The bank of each far routine, as data: low bytes, and one 16-bit entry.
far_banks:
    .byte <.bank(fill_buffer), <.bank(sum_buffer), <.bank(fill_local), <.bank(bank5_tail)
    .word .bank(scale_table)
fixed_id:
    .byte <.bank(reset)

.assert .bank(fill_buffer) <> .bank(sum_buffer), error, "far routines share a bank"
.assert .bank(reset) = FIXED_BANK_NUM, error, "reset is not in the fixed bank"
.assert .bank(fill_local) = 0, error, "fill_local is not in bank 0"
FIXED_BANK_NUM = 7

.segment "BANKTAB"
; Bus-conflict-safe bank table: entry N holds N (the switchable banks 0-6).
banktable:
    .byte 0, 1, 2, 3, 4, 5, 6

.segment "VECTORS"
    .word nmi, reset, irq
