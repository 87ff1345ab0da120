; Labels, scopes, expressions and data directives (checked against ca65/ld65).
.include "macros.inc"

.segment "ZEROPAGE"
lib_zp: .res 1
.exportzp lib_zp

.segment "CODE"
.export lib_routine, lib_abs, lib_const
lib_const = 42
lib_abs = $0456

.proc lib_routine
    ldx #0
@loop:
    inx
    bne @loop
    beq :+
    nop
:   lda #1
    bne :++
:   nop
    jmp :-
:   rts
.endproc

.proc other
    ldy #3
@loop:
    dey
    bne @loop
inner:
    lda inner
    lda ::lib_const
    rts
.endproc

    jsr other
    lda other::inner
    jmp other::inner

.scope named
value = 7
.endscope
    lda #named::value

; expressions
E1 = 1 + 2 * 3
E2 = (1 + 2) * 3
E3 = 7 / 2
E4 = -7 / 2
E5 = 17 .mod 5
E6 = $F0 & $3C | $01
E7 = $F0 ^ $FF
E8 = 1 << 4 | $80 >> 3
E9 = ~$FF & $FFFF
E10 = <$1234 + >$1234
E11 = (3 > 2) + (3 < 2) * 2 + (3 = 3) * 4 + (3 <> 3) * 8 + (2 <= 2) * 16 + (1 >= 2) * 32
E12 = 1 && 0 || 1
E13 = !0
E13B = .not 1 + (!2)
E14 = 5 .bitand 3 .bitor 8 .bitxor 1
E15 = 1 .shl 3 .shr 1
E16 = 2 .and 3 .or 0
E17 = 'z' - 'a'
E18 = %10100101 & 0
E19 = .lobyte($ABCD) + .hibyte($ABCD) + .bankbyte($123456)

.segment "RODATA"
exprs:
    .byte E1, E2, E3, <E4, E5, E6, E7, E8, <E9, E10, E11, E12, E13, E14, E15, E16, E17, <E19, E13B
    .word E9, $FFFF, exprs, * , *+2
    .dbyt $1234, exprs
    .byte "Hello, NES!", 0, "x", 'y'
    .byt 1, 2, 3
table:
    .lobytes $1234, $5678, table, exprs+1
    .hibytes $1234, $5678, table, exprs+1
    .addr table, exprs
size = * - exprs
    .byte size, <(table - exprs)
    .res 3
    .res 2, $AB
    .align 16
aligned:
    .byte 1
    .align 8, $EE
    .byte 2
    .incbin "data.bin"
    .incbin "data.bin", 4
    .incbin "data.bin", 2, 3

; conditionals
.if E1 = 7
    .byte $71
.elseif E1 = 8
    .byte $81
.else
    .byte $91
.endif
.if 0
    .byte $00
    .if 1
        .byte $01
    .endif
.elseif 1
    .byte $A1
.else
    .byte $B1
.endif
.ifdef E1
    .byte $D1
.endif
.ifndef NOPE
    .byte $D2
.endif
.ifdef NOPE
    .byte $D3
.else
    .byte $D4
.endif
.if .defined(E1) && (!.defined(NOPE))
    .byte $D5
.endif

; repeat
.repeat 4, i
    .byte i * 3
.endrep
.repeat 2
    .repeat 3, j
        .byte j
    .endrepeat
.endrep

    store_args 1, 2
    store_args 1, 2, 3
    store_args {4}, 5
    bytes_upto 0
    bytes_upto 2
    bytes_upto 7
    bytes_outer 1
    bytes_outer 0
    .byte $DD

.assert size > 0, error, "size must be positive"
.assert * > exprs, warning, "pc moved"
.assert lib_routine <> 0, error, "link-time assertion"

; anonymous labels in data
:   .byte <:-
:   .word :-
    .word :+
:

.segment "DATA"
data_start:
    .byte 1, 2, 3
data_ptr:
    .addr data_start

.segment "TABLES"
    .align 4
    .byte $55
    .word __CODE_LOAD__, __CODE_SIZE__, __DATA_LOAD__, __DATA_RUN__, __DATA_SIZE__
    .word __BSS_LOAD__, __BSS_SIZE__, __RAM_START__, __PRG_START__

.import __CODE_LOAD__, __CODE_SIZE__, __DATA_LOAD__, __DATA_RUN__, __DATA_SIZE__
.import __BSS_LOAD__, __BSS_SIZE__, __RAM_START__, __PRG_START__

.segment "CHARS"
    .res 16, $3C
    .incbin "data.bin"
