; sound.s: sound effects on the APU's pulse 1 and noise channels.
;
; API (constants and exports in global.inc):
;   sound_init    once from reset_handler, after RAM is cleared: silences
;                 pulse 1 and noise, enables them in $4015, frame IRQ off.
;   sound_update  once per frame, from the NMI: advances both channels.
;   sfx_play      A = SFX_* id: starts that effect, from the main loop, at
;                 any time (also while a long search runs: the NMI plays it).
;                 Preserves A, X and Y.
; None of them touches the locals $00-$0F.
;
; Effects.  "frames" = how many frames the effect sounds: the sound_update
; after sfx_play plays its first step, and the update after the last step
; silences the channel (constant volume 0), i.e. at most frames + 1 updates
; after the call.  emu_tests/test_sound.py reads this table and checks it.
;   id             channels       frames  priority  sound
;   SFX_MOVE       pulse + noise       5         3  wooden clack: noise tick and a low "tok"
;   SFX_CAPTURE    pulse + noise      12         4  stronger, longer clack, falling "tok"
;   SFX_CHECK      pulse              26         5  two-tone alert, D6 A5 D6 A5
;   SFX_GAME_OVER  pulse              62         6  G5 E5 C5 falling, E5 G5 rising to a long C6
;   SFX_CURSOR     pulse               2         1  tiny quiet tick
;   SFX_SELECT     pulse               7         2  short rising blip, C6 G6
;   SFX_ERROR      pulse              15         2  low wobbling buzz, 100/95 Hz
;
; Priority, per channel: a new effect replaces the one playing on a channel
; it uses unless the playing one has a higher priority (equal replaces).
; An effect whose channel is taken keeps its other channel: SFX_MOVE during
; SFX_GAME_OVER plays only its noise part.
;
; Scripts (sfx_data, RODATA; written with the sfx_note, sfx_hold and
; sfx_noise macros): one list of steps per channel of an effect, ended by a
; 0 byte.  A step is 3 or 4 bytes:
;   duration (frames, 1-127) | SFX_REG3, register 0, register 2 [, register 3]
; i.e. $4000/$4002[/$4003] for pulse 1 and $400C/$400E for noise.  Only a
; new pulse note (SFX_REG3) writes register 3, which restarts the pulse's
; phase; volume and fine-pitch changes within a note leave it (no click).
; Register 0 always has the length-counter halt and constant-volume bits
; ($30), so a step sounds until the next one; the end writes $30 (volume 0).
; sound_init sets pulse 1's sweep off for good ($4001 = $08) and loads the
; noise length counter once ($400F), which the halt bit then keeps.
; PRG: 234 bytes of code and 173 of data (checked by the test).
;
; State: per channel, sfx_pos (offset of the next step in sfx_data),
; sfx_timer (frames left of the current step, 0 = channel idle) and
; sfx_prio (priority of the effect playing).  NMI safety: sound_update
; touches a channel only while its sfx_timer is nonzero; sfx_play first
; sets sfx_timer to 0, then writes sfx_pos and sfx_prio, and sfx_timer = 1
; last, so an NMI between any two of its instructions sees either the old
; effect or the new one, never a mix.

.include "nes.inc"
.include "global.inc"

; APU registers used here (NESdev wiki "APU")
SQ1_VOL     = $4000  ; DDLC VVVV: duty, length halt, constant volume, volume
SQ1_SWEEP   = $4001  ; EPPP NSSS
NOISE_VOL   = $400C  ; --LC VVVV
NOISE_HI    = $400F  ; LLLL L---: length counter load
SND_CHN_SQ1   = $01  ; $4015 enable bits
SND_CHN_NOISE = $08

SFX_SILENT     = $30  ; register 0: length halt, constant volume 0
SFX_REG3       = $80  ; in a step's first byte: a register-3 byte follows
SFX_NONE       = $FF  ; in sfx_start: the effect does not use the channel
SWEEP_OFF      = $08  ; negate set, shift 0: no sweep and no muting of low notes

DUTY_12 = $00
DUTY_25 = $40
DUTY_50 = $80

CPU_HZ = 1789773      ; NTSC 2A03

.segment "CODE"

;;
; Plays the next step of one channel if its current step has ended.
; reg = the channel's register 0 ($4000 or $400C); ch = 0 pulse, 1 noise.
; Cycles: 7-8 idle, 15-16 holding a step, 36-38 ending, 62-81 for a new
; step (page crossings add the upper ends).
.macro sfx_channel_update reg, ch
  .local no_reg3, finished, done
  lda sfx_timer+ch
  beq done              ; idle
  dec sfx_timer+ch
  bne done              ; the current step goes on
  ldy sfx_pos+ch
  ldx sfx_data,y        ; duration | SFX_REG3, 0 = end of the script
  beq finished
  lda sfx_data+1,y
  sta reg
  lda sfx_data+2,y
  sta reg+2
  iny
  iny
  iny
  txa
  bpl no_reg3
  lda sfx_data,y
  sta reg+3             ; pulse: period high (restarts the phase)
  iny
  txa
  and #$7F              ; the duration
no_reg3:
  sta sfx_timer+ch
  sty sfx_pos+ch
  bpl done              ; always (duration 1-127)
finished:
  stx sfx_prio+ch       ; X = 0; sfx_timer is already 0: the channel is idle
  lda #SFX_SILENT
  sta reg
done:
.endmacro

;;
; Silences pulse 1 and noise, enables them, loads the noise length counter
; (halted by every step, so it never runs out), sets the frame counter
; (4-step, no IRQ) and marks both channels idle.  Call once, with NMI off.
; Clobbers A.
.proc sound_init
  lda #SFX_SILENT
  sta SQ1_VOL
  sta NOISE_VOL
  lda #SND_CHN_SQ1 | SND_CHN_NOISE
  sta SND_CHN           ; before the length load: a disabled channel ignores it
  lda #SWEEP_OFF        ; = $08, also length index 1 for the noise
  sta SQ1_SWEEP
  sta NOISE_HI
  lda #$40
  sta APU_FRAMECNT      ; frame IRQ off
  lda #0
  sta sfx_timer
  sta sfx_timer+1
  rts
.endproc

;;
; Advances the effects by one frame: for each channel, counts down the
; current step and, when it ends, writes the next step's registers or
; silences the channel at the end of its script.  Called by the NMI.
; Clobbers A, X, Y (the NMI saves them).  Does not touch the locals.
; Writes only sfx_pos, sfx_timer, sfx_prio and $4000/$4002/$4003,
; $400C/$400E.
; Cycles: at most 175 including the JSR and RTS (2 x 81 + 12: both
; channels start a step that writes register 3, every load and branch
; crossing a page); with the current scripts at most 160 (noise steps write
; no register 3; 156 measured in the current layout, where page crossings
; move it by a few cycles); 26-28 when both channels are idle.  Measured in
; emu_tests/test_sound.py.
.proc sound_update
  sfx_channel_update SQ1_VOL, 0
  sfx_channel_update NOISE_VOL, 1
  rts
.endproc

;;
; Starts effect A (SFX_*; an id >= SFX_COUNT is ignored) on the channels it
; uses, except on a channel where an effect of higher priority plays.  The
; first step sounds at the next NMI.  Main loop only (not from the NMI).
; Preserves A, X and Y (clobbers the flags).  Does not touch the locals.
; The write order per channel (timer 0, position, priority, timer 1) keeps
; an NMI that arrives in between from seeing a half-started channel.
; Cycles: at most 200 including the JSR and RTS.
.proc sfx_play
  cmp #SFX_COUNT
  bcs out
  pha
  txa
  pha
  tya
  pha
  tsx
  lda $0103,x           ; the id
  adc #SFX_COUNT        ; C = 0: X = noise's index in sfx_start
  tax
  ldy #1                ; channel: 1 noise, then 0 pulse 1
loop:
  lda sfx_start,x
  cmp #SFX_NONE
  beq next              ; the effect does not use this channel
  lda sfx_timer,y
  beq free              ; idle: any effect may start
  lda sfx_start_prio,x
  cmp sfx_prio,y
  bcc next              ; lower priority than the effect playing: ignored
free:
  lda #0
  sta sfx_timer,y       ; first: sound_update leaves the channel alone ...
  lda sfx_start,x
  sta sfx_pos,y
  lda sfx_start_prio,x
  sta sfx_prio,y
  lda #1
  sta sfx_timer,y       ; ... until now: the next update plays step 1
next:
  txa
  sec
  sbc #SFX_COUNT        ; pulse 1's index
  tax
  dey
  bpl loop
  pla
  tay
  pla
  tax
  pla
out:
  rts
.endproc

.segment "RODATA"

; Step macros: duration in frames, duty, volume 0-15, frequency in Hz.

;;
; A new pulse note: also writes the period high byte, which restarts the
; pulse's phase and loads its length counter (halted).
.macro sfx_note frames, duty, vol, hz
  .assert frames >= 1 && frames <= 127 && vol <= 15, error, "sfx_note: 1-127 frames, volume 0-15"
  .assert (CPU_HZ + 8 * (hz)) / (16 * (hz)) - 1 >= 8, error, "pulse period below 8 is muted"
  .assert (CPU_HZ + 8 * (hz)) / (16 * (hz)) - 1 <= $7FF, error, "pulse period over 11 bits"
  .byte frames | SFX_REG3, duty | SFX_SILENT | vol
  .byte <((CPU_HZ + 8 * (hz)) / (16 * (hz)) - 1), >((CPU_HZ + 8 * (hz)) / (16 * (hz)) - 1)
.endmacro

;;
; A change of volume (and fine pitch) within a note: the period high byte
; is not written, so hz must give the same high byte as the note's
; frequency from_hz (checked).
.macro sfx_hold frames, duty, vol, hz, from_hz
  .assert frames >= 1 && frames <= 127 && vol <= 15, error, "sfx_hold: 1-127 frames, volume 0-15"
  .assert >((CPU_HZ + 8 * (hz)) / (16 * (hz)) - 1) = >((CPU_HZ + 8 * (from_hz)) / (16 * (from_hz)) - 1), error, "sfx_hold: period high byte differs from the note's"
  .byte frames, duty | SFX_SILENT | vol, <((CPU_HZ + 8 * (hz)) / (16 * (hz)) - 1)
.endmacro

;;
; A noise step: period index 0 (highest) - 15 (lowest).  $400F is not
; written (sound_init loaded the length counter, which every step halts).
.macro sfx_noise frames, vol, period
  .assert frames >= 1 && frames <= 127 && vol <= 15 && period <= 15, error, "sfx_noise: 1-127 frames, volume and period 0-15"
  .byte frames, SFX_SILENT | vol, period
.endmacro

.macro sfx_end
  .byte 0
.endmacro

; Per channel and effect id (order of the SFX_* constants in global.inc):
; the script's offset in sfx_data (SFX_NONE: channel unused) and priority.
;       MOVE  CAPTURE CHECK GAME_OVER CURSOR SELECT ERROR
sfx_start:
  .byte move_p - sfx_data, capture_p - sfx_data, check_p - sfx_data      ; pulse 1
  .byte game_over_p - sfx_data, cursor_p - sfx_data, select_p - sfx_data
  .byte error_p - sfx_data
  .byte move_n - sfx_data, capture_n - sfx_data, SFX_NONE                ; noise
  .byte SFX_NONE, SFX_NONE, SFX_NONE, SFX_NONE
sfx_start_prio:
  .byte 3, 4, 5, 6, 1, 2, 2                                              ; pulse 1
  .byte 3, 4, 5, 6, 1, 2, 2                                              ; noise

; The scripts.  Offsets fit in a byte (asserted below).
sfx_data:
move_n:                             ; a short bright burst, fading lower
  sfx_noise 1, 12, 4
  sfx_noise 1, 7, 6
  sfx_noise 2, 3, 8
  sfx_noise 1, 1, 10
  sfx_end
move_p:                             ; the wood's "tok", G4 bending down
  sfx_note 1, DUTY_12, 8, 392
  sfx_hold 1, DUTY_12, 4, 370, 392
  sfx_hold 2, DUTY_12, 2, 349, 392
  sfx_end
capture_n:                          ; louder, longer, darker
  sfx_noise 2, 15, 3
  sfx_noise 2, 10, 5
  sfx_noise 2, 6, 7
  sfx_noise 3, 3, 9
  sfx_noise 3, 1, 10
  sfx_end
capture_p:                          ; D4 falling to A3
  sfx_note 2, DUTY_25, 12, 294
  sfx_hold 2, DUTY_25, 8, 262, 294
  sfx_hold 3, DUTY_25, 4, 247, 294
  sfx_hold 3, DUTY_25, 2, 220, 294
  sfx_end
check_p:                            ; D6 A5 D6 A5
  sfx_note 6, DUTY_25, 10, 1175
  sfx_note 6, DUTY_25, 10, 880
  sfx_note 6, DUTY_25, 10, 1175
  sfx_note 6, DUTY_25, 10, 880
  sfx_hold 2, DUTY_25, 4, 880, 880
  sfx_end
game_over_p:                        ; G5 E5 C5 falling, E5 G5 rising to C6
  sfx_note 8, DUTY_50, 10, 784
  sfx_note 8, DUTY_50, 10, 659
  sfx_note 8, DUTY_50, 10, 523
  sfx_note 8, DUTY_50, 10, 659
  sfx_note 8, DUTY_50, 10, 784
  sfx_note 10, DUTY_50, 10, 1047
  sfx_hold 4, DUTY_50, 6, 1047, 1047
  sfx_hold 4, DUTY_50, 3, 1047, 1047
  sfx_hold 4, DUTY_50, 1, 1047, 1047
  sfx_end
cursor_p:                           ; E6, very quiet
  sfx_note 1, DUTY_12, 3, 1319
  sfx_hold 1, DUTY_12, 1, 1319, 1319
  sfx_end
select_p:                           ; C6 then G6
  sfx_note 2, DUTY_25, 7, 1047
  sfx_note 3, DUTY_25, 7, 1568
  sfx_hold 2, DUTY_25, 3, 1568, 1568
  sfx_end
error_p:                            ; 100 Hz / 95 Hz wobble, fading
  sfx_note 3, DUTY_25, 9, 100
  sfx_hold 3, DUTY_25, 9, 95, 100
  sfx_hold 3, DUTY_25, 8, 100, 100
  sfx_hold 3, DUTY_25, 6, 95, 100
  sfx_hold 3, DUTY_25, 3, 100, 100
  sfx_end
sfx_data_end:

.assert sfx_data_end - sfx_data <= 256, error, "sfx_data must fit in 256 bytes (8-bit offsets)"
.assert sfx_start_prio - sfx_start = 2 * SFX_COUNT, error, "sfx_start: 2 x SFX_COUNT entries"
.assert sfx_data - sfx_start_prio = 2 * SFX_COUNT, error, "sfx_start_prio: 2 x SFX_COUNT entries"
