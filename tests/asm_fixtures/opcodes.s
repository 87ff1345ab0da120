; Every official opcode in every addressing mode (checked against ca65/ld65).
.include "macros.inc"
.import lib_routine, lib_abs
.importzp lib_zp, lib_const

.segment "ZEROPAGE"
zp0:    .res 1
zp1:    .res 2
ptr:    .res 2

.segment "BSS"
buf:    .res 16
big:    .res $100

.segment "HEADER"
    .byte "NES", $1A, 2, 1, $01, $00
    .res 8, 0

.segment "CODE"
reset:
    adc #$12
    adc zp0
    adc zp0,x
    adc buf
    adc buf,x
    adc buf,y
    adc (ptr,x)
    adc (ptr),y
    and #$12
    and zp0
    and zp0,x
    and buf
    and buf,x
    and buf,y
    and (ptr,x)
    and (ptr),y
    asl
    asl a
    asl A
    asl zp0
    asl zp0,x
    asl buf
    asl buf,x
    bit zp0
    bit buf
    brk
    clc
    cld
    cli
    clv
    cmp #$12
    cmp zp0
    cmp zp0,x
    cmp buf
    cmp buf,x
    cmp buf,y
    cmp (ptr,x)
    cmp (ptr),y
    cpx #$12
    cpx zp0
    cpx buf
    cpy #$12
    cpy zp0
    cpy buf
    dec zp0
    dec zp0,x
    dec buf
    dec buf,x
    dex
    dey
    eor #$12
    eor zp0
    eor zp0,x
    eor buf
    eor buf,x
    eor buf,y
    eor (ptr,x)
    eor (ptr),y
    inc zp0
    inc zp0,x
    inc buf
    inc buf,x
    inx
    iny
    jmp reset
    jmp (ptr)
    jmp ($FFFC)
    jsr reset
    lda #$12
    lda zp0
    lda zp0,x
    lda buf
    lda buf,x
    lda buf,y
    lda (ptr,x)
    lda (ptr),y
    ldx #$12
    ldx zp0
    ldx zp0,y
    ldx buf
    ldx buf,y
    ldy #$12
    ldy zp0
    ldy zp0,x
    ldy buf
    ldy buf,x
    lsr
    lsr a
    lsr zp0
    lsr zp0,x
    lsr buf
    lsr buf,x
    nop
    ora #$12
    ora zp0
    ora zp0,x
    ora buf
    ora buf,x
    ora buf,y
    ora (ptr,x)
    ora (ptr),y
    pha
    php
    pla
    plp
    rol
    rol a
    rol zp0
    rol zp0,x
    rol buf
    rol buf,x
    ror
    ror a
    ror zp0
    ror zp0,x
    ror buf
    ror buf,x
    rti
    rts
    sbc #$12
    sbc zp0
    sbc zp0,x
    sbc buf
    sbc buf,x
    sbc buf,y
    sbc (ptr,x)
    sbc (ptr),y
    sec
    sed
    sei
    sta zp0
    sta zp0,x
    sta buf
    sta buf,x
    sta buf,y
    sta (ptr,x)
    sta (ptr),y
    stx zp0
    stx zp0,y
    stx buf
    sty zp0
    sty zp0,x
    sty buf
    tax
    tay
    tsx
    txa
    txs
    tya
branches:
    bcc branches
    bcs branches
    beq branches
    bmi branches
    bne branches
    bpl branches
    bvc branches
    bvs branches
    bcc fwd
    bcs fwd
    beq fwd
    bmi fwd
    bne fwd
    bpl fwd
    bvc fwd
    bvs fwd
fwd:
    ; mnemonics are case-insensitive
    LDA #1
    Sta zp0
    ; zero page vs absolute selection
    lda $12
    lda $0012
    lda $1234
    lda a:$12
    lda a:zp0
    lda z:fwdzp
    lda fwdzp          ; forward reference: absolute
    lda fwdzp,x
    stx fwdzp,y        ; only zp,y exists for stx
    ldx fwdzp,y
    lda CONSTZP
    lda CONSTABS
    lda CONSTZP+1
    lda <reset
    lda >reset
    lda zp1+1
    lda buf+1
    lda #<reset
    lda #>reset
    lda #<(reset+$123)
    lda #>reset+1
    lda #^$123456
    lda #'A'
    lda #CONSTZP*2+1
    ldxy $1234
    wait_loop 10
    wait_loop 20
    poke $2000, $80
    poke zp0, 1
    jmp (vector)
    jmp far_label
    jsr lib_routine
    lda lib_zp
    lda lib_abs
    lda #lib_const
    rts

fwdzp = $44
CONSTZP = $20
CONSTABS = $0300
vector: .addr reset

.segment "VECTORS"
    .addr reset, reset, reset

.export far_label
far_label = fwd
