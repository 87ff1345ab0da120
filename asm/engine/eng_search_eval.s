; eng_search_eval.s: the search's leaf evaluation (reference Searcher.eval):
; eng_eval / eng_eval_ge (eng_eval.s) plus the level's noise from a 16-bit
; Galois LFSR (s_lfsr).  search_eval is the exact value, search_eval_ge the
; lazy test e >= T of quiescence's stand pat.

.include "global.inc"
.include "eng.inc"
.include "search.inc"
.include "search_macros.inc"

.segment "CODE"

;;
; One step of the 16-bit Galois LFSR (taps LFSR_TAPS).  Output: A = the
; new low byte.  Clobbers nothing else.  In the fixed bank: the search's
; noise and the opening book's pick (asm/book/book_probe.s, with a book
; bank mapped) both step it.
.proc lfsr_step
  lsr s_lfsr+1
  ror s_lfsr
  bcc :+
  lda s_lfsr+1
  eor #>LFSR_TAPS
  sta s_lfsr+1
  lda s_lfsr
  eor #<LFSR_TAPS
  sta s_lfsr
: lda s_lfsr
  rts
.endproc

.segment "ENGINE_CODE"

;;
; The leaf evaluation with the level's noise (reference Searcher.eval):
; eng_eval, then when lvl_noise is a mask m != 0, one LFSR step and
; + (x & m) - (m + 1) / 2.  search_eval_ge with T = $7FFF (always exact).
; Output: rv (signed 16-bit), C = 1.  Uses local+0..15.  Clobbers A, X, Y.
.proc search_eval
  lda #$FF
  sta eval_t
  lda #$7F
  sta eval_t+1
  ; (falls into search_eval_ge)
.endproc

;;
; Is the leaf evaluation (search_eval's) at least T?  Without noise this
; is eng_eval_ge (lazy: it may settle e >= T without the exact value);
; with noise the exact evaluation plus the noise, compared with T (the
; LFSR steps once either way, as in the reference).
; Input: T in eval_t = local+12..13 (kept), s_level, s_lfsr, the position.
; Output: C = 1: rv = the value, below T; C = 0: the value is at least T
;   (rv undefined).  Uses local+0..15.  Clobbers A, X, Y.
; (q_node's stand pat has the noiseless path inline.)
; Cycles: about 30 of its own without noise (bench.rom_profile), plus
;   eng_eval_ge; with noise and a set without knowledge terms
;   eng_eval_basic (35-37) and about 75 for the noise and the test.
.proc search_eval_ge
noise_bits = local+0   ; the LFSR's low byte & the level's mask m
noise_half = local+1   ; (m + 1) / 2
  ldy s_level
  lda lvl_noise,y
  bne noisy
  jsr eng_eval_ge
  sta rv
  stx rv+1
  rts
noisy:
  ldx eng_vset
  lda ev_knowledge,x
  bne keep_t
  jsr eng_eval_basic   ; no per-piece terms
  jmp noise
keep_t:
  lda eval_t           ; T in rv across eng_eval (it keeps local+14..15)
  sta rv
  lda eval_t+1
  sta rv+1
  jsr eng_eval
  ldy rv
  sty eval_t
  ldy rv+1
  sty eval_t+1
noise:
  sta rv
  stx rv+1
  ldy s_level
  jsr lfsr_step
  and lvl_noise,y
  sta noise_bits       ; x & m
  lda lvl_noise,y
  lsr a
  clc
  adc #1
  sta noise_half       ; (m + 1) / 2 = (m >> 1) + 1 for m = 2^k - 1
  lda noise_bits
  sec
  sbc noise_half       ; -128..127
  ldx #0
  cmp #$80
  bcc :+
  dex
: clc
  adc rv
  sta rv
  txa
  adc rv+1
  sta rv+1
  SLT16 rv, rv+1, eval_t, eval_t+1
  asl a                ; C = 1: rv < T
  rts
.endproc
