; Scoping rules, zero-page selection corner cases, -D and -I (checked against ca65/ld65).
.include "extra.inc"

.segment "ZEROPAGE"
tmp:    .res 2
.globalzp gzp
gzp:    .res 1

.segment "BSS"
.global gabs
gabs:   .res 4

.segment "CODE"
.global main
main:
    lda #EXTRA_VALUE
.ifdef DEBUG
    .byte DEBUG, LEVEL
.else
    .byte $EE
.endif
    lda later          ; forward: absolute even though later is zp-sized
    lda gzp
    lda gabs
    jsr outer
    jmp main_end

.proc outer
    lda tmp            ; outer symbol, zero page
    lda later          ; not defined anywhere yet: resolved to the global at the end
    jsr helper         ; defined after the scope
@a: dex
    bne @a
    .proc nested
deep = 3
        lda #deep
@a:     iny
        bne @a
        rts
    .endproc
    lda #nested::deep
    rts
.endproc

    jsr outer::nested
    lda outer::nested::deep
    lda ::outer::nested::deep
helper:
:   dex
:   dey
    bne :-
    bne :--
    beq :+
    beq :++
:   nop
:   nop
    rts

later = $10
here := *
    .addr here

.scope
    anonvalue = 9
    .byte anonvalue
.endscope

main_end:
    .repeat 3, n
    .if n = 1
        .byte $11
    .else
        .byte n
    .endif
    .endrep
    lda #<(main_end - main)
    lda #>(main_end - main + $200)
    .byte .lobyte(main_end), .hibyte(main_end)
    rts

; .enum and .asciiz
.enum Color
    red
    green = 5
    blue
.endenum
.enum
    first
    second
.endenum
    .asciiz "hi", "yo"
    .byte Color::red, Color::green, Color::blue, first, second
    lda Color::blue
