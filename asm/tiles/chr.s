; chr.s: the 8 KiB CHR ROM, built from the PNGs in assets/ by tools/rom/chr.py
; (tools/rom/build.py writes build/*.chr before assembling).

.segment "CHR"
  .incbin "build/bg.chr"        ; $0000: background tiles (assets/bg.png)
  .incbin "build/sprites.chr"   ; $1000: sprite tiles (assets/sprites.png)
