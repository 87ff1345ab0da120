; bank.s: UxROM bank switching (NESdev wiki "UxROM", "Bus conflict").
;
; $8000-$BFFF shows one of the PRG banks 0-6, $C000-$FFFF always bank 7 (this
; code, the vectors, the NMI).  Any write to $8000-$FFFF loads the bank
; register; on the UNROM board the ROM drives the data bus during that write
; too (a bus conflict), so the value written must equal the ROM byte at the
; written address: every switch stores bank N to bank_table+N, which holds N.
;
; Who switches (the rule that keeps the NMI and the main loop apart):
;   * Only the main loop switches banks, and bank_cur always names the bank
;     it has mapped.  The NMI never switches and never reads $8000-$BFFF: its
;     code and data (the spinner, the sound effects, the VRAM queue copy) are
;     in the fixed bank and RAM, so it runs correctly whatever bank the main
;     loop has mapped, even in the middle of a switch.
;   * The main loop's home is the UI bank (the bank of main): reset maps it
;     and jumps to main.  Code in a switchable bank reaches another bank only
;     through far_call, which maps the target's bank and maps the caller's
;     bank back when the target returns.  A whole search (game_think) is one far call
;     into the engine's bank; inside it only two fixed-bank probes switch, each
;     mapping its data's bank for a few reads and the caller's bank (bank_cur)
;     back: the opening book's at the root (asm/book/book_probe.s) and the KH vs
;     KE bitbase's in the evaluation (asm/engine/eng_bitbase.s).

.include "global.inc"

.segment "CODE"

;;
; Calls a routine in another bank and returns to the caller's bank.
; Written as the FAR_CALL macro (global.inc):
;     jsr far_call
;     .addr target
;     .byte <.bank(target)
; Input: A, X, Y and the flags are passed to the target unchanged.
; Output: A, X, Y and the flags exactly as the target returns them; the
;   caller's bank (bank_cur at the call) is mapped again; execution goes on
;   after the three inline bytes.
; Nests: the caller's bank is kept on the stack, not in RAM.
; Uses far_ptr (2 bytes of zero page), nothing else; the locals are passed
; through untouched (a target may take its input there).
; Stack: 9 bytes at most inside far_call; the target runs 3 bytes deeper than
;   after a JSR (the continuation address and the caller's bank).
; Cycles: 277 (on the way in and out together, the target's own apart).
.proc far_call
  ; stack from S+1: return-1 (lo, hi) of the caller's JSR
  php                   ; save the caller's registers: P, A, X, Y
  pha
  txa
  pha
  tya
  pha
  pha                   ; and make room for the frame below them
  pha
  pha
  pha
  pha
  tsx
  ; $0101,x .. $0105,x: room; $0106,x Y, $0107,x X, $0108,x A, $0109,x P;
  ; $010A,x / $010B,x: the return address - 1 (the last byte of the JSR)
  lda $010A,x
  sta far_ptr
  clc
  adc #3                ; return past the 3 inline bytes
  sta $010A,x
  lda $010B,x
  sta far_ptr+1
  adc #0
  sta $010B,x
  ; The frame, top first: Y X A P (restored by the pulls below), the
  ; target - 1 (RTS jumps there), the continuation - 1 (the target's RTS
  ; lands there), the caller's bank (the continuation maps it back).
  lda $0106,x
  sta $0101,x           ; Y
  lda $0107,x
  sta $0102,x           ; X
  lda $0108,x
  sta $0103,x           ; A
  lda $0109,x
  sta $0104,x           ; P
  ldy #1
  lda (far_ptr),y       ; target, low byte
  sec
  sbc #1
  sta $0105,x
  iny
  lda (far_ptr),y       ; target, high byte
  sbc #0
  sta $0106,x
  lda #<(far_return - 1)
  sta $0107,x
  lda #>(far_return - 1)
  sta $0108,x
  lda bank_cur
  sta $0109,x           ; the caller's bank
  iny
  lda (far_ptr),y       ; the target's bank
  tax
  stx bank_cur
  sta bank_table,x      ; switch: A = X = the bank, written where ROM holds it
  pla
  tay
  pla
  tax
  pla
  plp
  rts                   ; to the target
.endproc

;;
; The continuation of far_call: the target's RTS lands here with the
; caller's bank on the stack.  Maps it back, keeping A, X, Y and the flags,
; and returns to the caller.
.proc far_return
  php
  pha
  txa
  pha                   ; stack: X, A, P, the caller's bank, the return
  tsx
  lda $0104,x           ; the caller's bank
  tax
  stx bank_cur
  sta bank_table,x      ; switch back
  tsx
  lda $0103,x
  sta $0104,x           ; P over the bank byte
  lda $0102,x
  sta $0103,x           ; A
  lda $0101,x
  sta $0102,x           ; X
  pla                   ; drop the stale top byte
  pla
  tax
  pla
  plp
  rts                   ; to the caller, after its inline bytes
.endproc

.segment "BANK_TABLE"
;;
; bank_table+N holds N: the only bytes the bank register is written through.
bank_table:
  .byte 0, 1, 2, 3, 4, 5, 6, 7
.assert * - bank_table = PRG_BANKS, error, "one bank_table entry per PRG bank"
