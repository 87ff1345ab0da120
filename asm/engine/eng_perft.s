; eng_perft.s: perft (reference_py/perft.py) and the host's stop address.
;
; perft counts the leaves of the legal move tree: every pseudo-legal move
; is made and kept when eng_is_legal says so, exactly as the reference.
; The recursion runs on the 6502 (tools/nes only starts it), with
; the loop index of each level on the hardware stack: 2 bytes (the list's
; first entry and the index) + 2 for the return address per ply.  The undo
; entries (ENG_PLIES) bound the depth: eng_ply + depth <= ENG_PLIES.

.include "global.inc"
.include "eng.inc"

.segment "CODE"

;;
; Counts the leaf nodes of the legal move tree `depth` plies deep.
; Input: A = depth (0..ENG_PLIES - eng_ply); the position.
; Output: perft_count (32-bit) = the count; C = 0.  C = 1 when the count is
;   not exact: perft_ovf = 1 when some move list did not fit the move stack
;   (that node then counted as having no moves), 2 when eng_ply + depth >
;   ENG_PLIES, the undo entries (nothing searched).  The position is
;   unchanged.
; Uses local+0..11 and the stack.  Clobbers A, X, Y.
; Cycles: about 1,000 per leaf (bench/rom_bench.py, depth 3).
.proc eng_perft
  ldx #0
  stx perft_count
  stx perft_count+1
  stx perft_count+2
  stx perft_count+3
  stx perft_ovf
  cmp #0
  bne @search
  inc perft_count      ; depth 0: the position itself
  clc
  rts
@search:
  clc
  adc eng_ply
  sta perft_leaf
  cmp #ENG_PLIES + 1
  bcc :+
  lda #2               ; deeper than the undo stack: refuse
  sta perft_ovf
  rts                  ; C = 1
: jsr perft_node
  lda perft_ovf
  cmp #1               ; C = 1 when nonzero
  rts
.endproc

;;
; One interior node of eng_perft: eng_ply < perft_leaf.
; Stack frame: the index of the move being searched (1 byte), plus the
; first entry of the list (1 byte) so ms_top can be restored.
.proc perft_node
  lda ms_top
  pha                  ; first entry: ms_top is restored to it at the end
  jsr eng_gen
  bcc @generated
  lda #1
  sta perft_ovf
  pla
  rts
@generated:
  lda eng_side
  jsr eng_in_check     ; keeps eng_chk: eng_is_legal's fast path
  tsx
  lda $0101,x          ; first entry
  pha                  ; index of the move being searched
@move:
  tsx
  lda $0101,x
  cmp ms_top
  bcs @done
  tax
  jsr eng_make
  jsr eng_is_legal
  bcs @undo
  lda eng_ply
  cmp perft_leaf
  bne @deeper
  inc perft_count
  bne @undo
  inc perft_count+1
  bne @undo
  inc perft_count+2
  bne @undo
  inc perft_count+3
  jmp @undo
@deeper:
  jsr perft_node
@undo:
  jsr eng_unmake
  tsx
  inc $0101,x
  jmp @move
@done:
  pla
  pla
  sta ms_top
  rts
.endproc

;;
; The return address tools/nes pushes before it starts an entry
; point: the routine's final RTS lands here and the host stops the CPU.
; Never executed on the NES (an endless loop if it were).
.proc eng_host_stop
  jmp eng_host_stop
.endproc
