; ram.s: every byte of RAM the game uses.  The NES has 2 KiB at $0000-$07FF
; and the cartridge adds none (NROM).
;
; Budget (bytes):
;   area            range        used  size  headroom
;   zero page       $0000-$00FF   124   256   132
;     locals          $00-$0F      16         (LOCAL-16 scratch, see global.inc)
;     NMI/PPU state                 6         nmi_count, frame_ready, ctrl, mask, scroll x/y
;     pads                          4         held, pressed (2 pads)
;     cursor                        2
;     ENGINE RESERVE               96         engine_zp, for the chess engine
;   stack           $0100-$01FF   256   256     0   (usually < 32 deep)
;   shadow OAM      $0200-$02FF   256   256     0   (64 sprites x 4 bytes)
;   BSS             $0300-$03FF   129   256   127
;     vram_queue                   64         NMI update queue
;     vram_queue_len                1
;     attr_shadow                  64         copy of the attribute table
;   ENGINE RESERVE  $0400-$07FF  1024  1024     0   engine_ram, for the chess engine
;   total                        1789  2048   259
;
; The linker config (xiangqi.cfg) places each segment; a segment that
; outgrows its area is a link error, so the budget cannot silently overflow.

.include "global.inc"

.segment "ZEROPAGE"
local:           .res 16   ; $00-$0F: scratch, see the calling convention
nmi_count:       .res 1
frame_ready:     .res 1
ppu_ctrl_shadow: .res 1    ; NMI writes it to PPUCTRL every frame
ppu_mask_shadow: .res 1    ; NMI writes it to PPUMASK every frame
scroll_x:        .res 1
scroll_y:        .res 1
pad_held:        .res 2    ; buttons down now: A B Sel St U D L R (bit 7..0)
pad_pressed:     .res 2    ; buttons down now but not last frame
cursor_file:     .res 1    ; 0-8 = a-i
cursor_rank:     .res 1    ; 0-9, 0 = Red's back rank

; ======================= ENGINE RESERVE (zero page) =======================
; 96 bytes for the chess engine's pointers and hot variables.  The engine's
; own file declares its names inside this block (or replaces it).
engine_zp:       .res ENGINE_ZP_SIZE
; ==========================================================================

.segment "STACK"
stack_page:      .res 256  ; the 6502 stack; S starts at $FF

.segment "OAM"
oam:             .res 256  ; shadow OAM, copied by OAM DMA in every NMI

.segment "BSS"
vram_queue:      .res VRAM_QUEUE_SIZE
vram_queue_len:  .res 1    ; index of the terminating 0 in vram_queue
attr_shadow:     .res 64   ; what the attribute table at $23C0 holds

.segment "ENGINE_BSS"
; ======================= ENGINE RESERVE (BSS, $0400-$07FF) ================
; 1024 bytes, page aligned, for the chess engine (board, move lists, search
; stack, history).  The engine's own file declares its names here.
engine_ram:      .res ENGINE_RAM_SIZE
; ==========================================================================

; Checked at link time: the fixed places the code relies on.
.assert local = $0000, error, "locals must start the zero page"
.assert oam = $0200, error, "shadow OAM must be page $02 (OAM DMA)"
.assert engine_ram = $0400, error, "engine reserve must be $0400-$07FF"
