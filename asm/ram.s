; ram.s: every byte of RAM the game uses.  The NES has 2 KiB at $0000-$07FF
; and the cartridge adds none (UxROM without PRG RAM).
;
; Budget (bytes).  docs/MEMORY.md lists every variable with its address; it is
; generated from the linker map by tools/rom/memory_map.py and checked against the
; build by tests/test_memory_doc.py, so the numbers there are authoritative.
;   area            range        used  size  headroom
;   zero page       $0000-$00FF   256   256     0   locals 16, UI 14, engine
;                                                   position 61, undo 11 x 10,
;                                                   ply_first 11, perft 5,
;                                                   search alpha 22 + cursor 10
;                                                   + s_abort, s_qstart,
;                                                   bank switching 3, endgame
;                                                   class and drive 3
;   engine per ply  $0100-$0171   114   114     0   killers 16, search flags and
;                                                   scalars 14, rep_key_lo 56,
;                                                   PV 25, s_fut_lo 2, perft_leaf 1
;   UI, page 1      $0172-$01BF    78    78     0   game record 48, sound 6,
;                                                   screens 20, kept settings 4
;   stack           $01C0-$01FF    64    64     0   hardware stack; the engine
;                                                   stays above $01D0
;   shadow OAM      $0200-$02FF   256   256     0   (64 sprites x 4 bytes); the engine's
;                                                   move keys during its calls (ms_key)
;   UI BSS          $0300-$0387   136   136     0   vram_queue 64 + 1, attr_shadow 64,
;                                                   puzzles' solved marks 5 (kept
;                                                   over a soft reset), language 1
;                                                   (kept with the marks), the puzzle
;                                                   played 1
;   engine, page 3  $0388-$03FF   113   120     7   rep_key_hi 56, rep_info 56,
;                                                   s_ahead 1
;   engine          $0400-$07FF  1013  1024    11   move stack 2 x 255 (from, to, each
;                                                   starting a page, 1 byte after each;
;                                                   the keys are in page 2), history 270
;                                                   (at $0600), search 24, board 154 (at $0726),
;                                                   result 13, the evaluation's weights
;                                                   2, s_fut_hi 8, chase scratch 30
;   total                        2030  2048    18
;
; The repetition ring costs 3 bytes an entry (key low, key high, rep_info:
; the check bit and the destination of the ply that led there, which the
; perpetual-chase judgement needs: game_chase.s) for GAME_WINDOW = 48 game
; positions + SEARCH_MAX_DEPTH = 8 (Master's bare block): 168 bytes.  The
; judgement (in game_outcome, and in the search's draw_score) keeps its 30
; bytes of scratch in chase_scratch.  The killers (plies < KILLER_PLIES),
; the PV (PV_PLIES moves) and the futility thresholds' low bytes (by depth
; 1, 2) do not grow with the depth.
;
; The per-ply arrays are sized from the levels (tools/rom/gen_tables.py
; ply_sizes): ENG_PLIES = 10 undo entries and SEARCH_PLIES + 1 = 11
; ply_first entries (the levels' largest depth + qdepth, `bare` blocks
; included: 4 + 6 and 8 + 2; the reference's MAX_PLY = 16 is never
; reached), a repetition ring of GAME_WINDOW + SEARCH_MAX_DEPTH = 56
; entries.  A deeper level grows them at the next
; build; one they no longer fit is refused at its line of
; config/difficulty.yaml (gen_tables.py links the ROM in memory first).
;
; Each piece's kind is not stored: every kind has fixed slots, so it is a
; constant of the piece's code (code_kind / code_pk, ROM tables in
; eng_make.s).  The zero page holds the hot engine state; perft's two
; scalars (tests and benchmarks only) live in pages 1 and 3.
;
; The linker config (xiangqi.cfg) places each segment; a segment that
; outgrows its area is a link error, so the budget cannot silently overflow.
;
; Bytes with two uses at different times have a name for each: the second
; (`alias = variable`) is declared beside the storage with the rule that
; makes the sharing safe, and docs/MEMORY.md lists it under its variable.

.include "global.inc"
.include "engine/eng.inc"
.include "engine/search.inc"
.include "puzzles_const.inc"

.segment "ZEROPAGE"
local:           .res 16   ; $00-$0F: scratch, see the calling convention
nmi_count:       .res 1    ; +1 at the end of every NMI
frame_ready:     .res 1    ; main loop sets 1: NMI may copy the VRAM queue
ppu_ctrl_shadow: .res 1    ; NMI writes it to PPUCTRL every frame
ppu_mask_shadow: .res 1    ; NMI writes it to PPUMASK every frame
scroll_x:        .res 1    ; NMI writes it to PPUSCROLL
scroll_y:        .res 1    ; NMI writes it to PPUSCROLL
pad_held:        .res 2    ; buttons down now: A B Sel St U D L R (bit 7..0)
pad_pressed:     .res 2    ; buttons down now but not last frame
cursor_file:     .res 1    ; 0-8 = a-i
cursor_rank:     .res 1    ; 0-9, 0 = Red's back rank
think_frames:    .res 1    ; NMI: frames of the current second while ui_busy
think_secs:      .res 1    ; NMI: seconds thought, packed BCD (99 at most)
far_ptr:         .res 2    ; far_call: the caller's inline bytes (bank.s)
eng_bare:        .res 1    ; eng_eval_endgame: the position's endgame class (eng_bare_calc: EG_*)
eg_king:         .res 1    ; eng_eval_endgame: the bare king's square (kept across eng_attacked)
eg_free:         .res 1    ; eng_eval_endgame: its free squares, counted

; ======================= ENGINE (zero page) ===============================
; The position (docs/ROM_ENGINE.md): the fields of reference_py/position.py
; but piece_kind (a ROM table of the code: code_kind), plus eng_mterm.
piece_sq:        .res 32   ; padded square of each slot, 0 = captured; red 0-15, black 16-31
counts:          .res 16   ; pieces on the board per side*8+kind
eng_side:        .res 1    ; side to move: 0 Red, 1 Black
eng_clock:       .res 1    ; plies since the last capture
eng_key:         .res 2    ; 16-bit Zobrist key (lo, hi)
eng_score:       .res 2    ; Red-minus-Black material+PST, signed 16-bit (lo, hi)
eng_ply:         .res 1    ; plies made since eng_load (0..ENG_PLIES): index of undo_*
ms_top:          .res 1    ; first free move-stack entry
eng_vset:        .res 1    ; active weight set (EVAL_SET_*), input of eng_load
eng_vbase:       .res 1    ; pages from a Zobrist-high row to the active set's value row
eng_chk:         .res 1    ; side to move in check: 0 no, 1 yes, $FF not known yet
eng_mterm:       .res 2    ; eng_eval's count-based knowledge sum (lo, hi), 0 for a set without knowledge
; per ply (index = eng_ply before the make; ENG_PLIES: tools/rom/gen_tables.py ply_sizes)
undo_from:       .res ENG_PLIES  ; from square of the move made at each ply
undo_to:         .res ENG_PLIES  ; to square of the move made at each ply
undo_cap:        .res ENG_PLIES  ; square contents captured (0 = none)
undo_clock:      .res ENG_PLIES  ; eng_clock before the make
undo_check:      .res ENG_PLIES  ; eng_chk before the make (the mover's check state)
undo_score_lo:   .res ENG_PLIES  ; eng_score before the make (eng_unmake restores it), low bytes
undo_score_hi:   .res ENG_PLIES  ; (high bytes)
undo_key_lo:     .res ENG_PLIES  ; eng_key before the make (eng_unmake restores it), low bytes
undo_key_hi:     .res ENG_PLIES  ; (high bytes)
undo_mterm_lo:   .res ENG_PLIES  ; eng_mterm before the make (written by captures; all 0 with a set without knowledge), low bytes
undo_mterm_hi:   .res ENG_PLIES  ; (high bytes)
ply_first:       .res SEARCH_PLIES + 1  ; first move-stack entry of each ply's list (search)
; perft (eng_perft)
perft_count:     .res 4    ; leaf count, 32-bit little-endian
; ---- search (eng_search*.s; engine/search.inc) ---------------------------
s_alpha_lo:      .res SEARCH_PLIES + 1  ; search: alpha per ply, low bytes
s_alpha_hi:      .res SEARCH_PLIES + 1  ; search: alpha per ply, high bytes
s_cur:           .res SEARCH_PLIES      ; search: move-stack index being searched, per ply
perft_ovf:       .res 1    ; perft: nonzero when a move list did not fit the move stack
s_abort:         .res 1    ; search: nonzero once the node cap stopped the search
s_qstart:        .res 1    ; search: ply at which the current quiescence began
; ---- end of search ---------------------------------------------------------
; ==========================================================================

.segment "ENGINE_PLY"
; ======================= ENGINE per-ply data ($0100-$017D) =================
; ---- search (eng_search*.s; the s_flags bits in engine/search.inc)
s_killers:       .res KILLER_BYTES  ; search: per main-search ply, killer 1 from, to, killer 2 from, to (0 = none)
s_flags:         .res S_PLIES  ; search: per ply, S_F_* (in check, on the PV, the move being searched) and the legal-move count
s_level:         .res 1    ; search: input, the level index (0 = weakest)
s_single:        .res 1    ; search: nonzero when the root has exactly one legal move (one iteration)
s_root_moves = s_single    ; eng_search's count of the legal root moves, before s_single is set from it
s_rep_top:       .res 1    ; search: input, index of the current position in rep_key_*; the search pushes its path
rep_key_lo:      .res REP_RING_ENTRIES  ; repetition ring: key low bytes
pv_from:         .res PV_TRI  ; search: triangular PV, from squares (row p < PV_PLIES at pv_row[p]: up to PV_PLIES - p moves)
pv_to:           .res PV_TRI  ; search: triangular PV, to squares
s_pvlen:         .res PV_PLIES + 1  ; search: PV length per ply 0..PV_PLIES
s_fut_lo:        .res FUT_PLIES    ; search: futility threshold of the node at depth 1, 2 (index depth - 1), low bytes
perft_leaf:      .res 1    ; perft: ply at which leaves are counted
; ==========================================================================

.segment "UI_PAGE1"
; ---- bank switching (asm/system/bank.s)
bank_cur:        .res 1    ; the PRG bank mapped at $8000-$BFFF (only the main loop switches)
; ======================= UI and game ($0100-$01BF after the engine) ========
; ---- game rules (asm/game/game_rules.s): the game record around the engine
game_ply:        .res 2    ; plies played in this game (16-bit)
game_rep_top:    .res 1    ; index of the current position in the repetition ring
game_nmoves:     .res 1    ; number of legal moves game_gen_legal listed
game_last_from:  .res 1    ; the last ply played (padded squares), 0 = none
game_last_to:    .res 1    ; (its destination)
game_captured:   .res 1    ; side*8+kind the last ply captured, 0 = none
game_check:      .res 1    ; 1: the side to move is in check
game_seed:       .res 2    ; the next search's seed (the UI may stir it)
game_last_seed:  .res 2    ; the seed the last game_think used (for the tests)
game_undo_n:     .res 1    ; plies that can be taken back (<= GAME_UNDO_PLIES)
game_undo_head:  .res 1    ; next record entry to write
game_undo_from:  .res GAME_UNDO_PLIES  ; take-back record: from square
game_undo_to:    .res GAME_UNDO_PLIES  ; to square
game_undo_cap:   .res GAME_UNDO_PLIES  ; captured side*8+kind, 0 = none
game_undo_clock: .res GAME_UNDO_PLIES  ; eng_clock before the ply
zh_tandem:       .res 2    ; the record's 前/中/后 (zh_note_move), 2 bits per entry e in byte e / 4, bits 2(e % 4): 0 none, 1 前, 2 中, 3 后
; ---- sound (asm/system/sound.s)
sfx_pos:         .res 2    ; sound: offset of each channel's next step in sfx_data (pulse 1, noise)
sfx_timer:       .res 2    ; sound: frames left of each channel's step, 0 = idle (pulse 1, noise)
sfx_prio:        .res 2    ; sound: priority of the effect on each channel (pulse 1, noise)
; ---- screens (title, board, menus; asm/ui/main.s, ui_*.s; docs/UI.md)
ui_screen:       .res 1    ; UI_SCREEN_*: title, play, pause, game over, attract
ui_busy:         .res 1    ; nonzero while game_think runs (the NMI animates)
ui_players:      .res 1    ; human mask: bit 0 Red is human, bit 1 Black is human
ui_level:        .res 1    ; level index 0 .. LEVEL_COUNT-1 of the computer
ui_sel:          .res 1    ; padded square of the picked-up piece, 0 = none
ui_result:       .res 1    ; game_outcome's A at the end (UI_RESULT_RESIGN: resigned)
setup_refused = ui_result  ; the editor (ui_setup.s): the refusal shown over the river (SETUP_*), 0 none; no game runs in the editor, and new_game_screen sets ui_result to 0 before the game's first turn
ui_winner:       .res 1    ; 0 Red, 1 Black, GAME_NO_WINNER
ui_menu:         .res 1    ; item under the menu cursor (title, pause menu)
ui_repeat:       .res 1    ; D-pad key repeat: frames to the next repeat
ui_idle:         .res 1    ; title: idle time in 8-frame units; end screens: timer
ui_think:        .res 1    ; UI_THINK_*: what the main loop's next game_think is for
ui_opening:      .res 1    ; the opening the panel names (its number + 1), 0: none
ui_view:         .res 1    ; two players: UI_VIEW_FIXED (Red at the bottom) or UI_VIEW_TURN
ui_flip:         .res 1    ; the board as drawn: 0 Red's side at the bottom, 1 Black's (view_update)
ui_notation:     .res 1    ; the move list: UI_NOTATION_ZH (Chinese, 0) or UI_NOTATION_ICCS
zh_pending:      .res 1    ; the Chinese list's cells whose glyph is still to write (panel_zh.s), 0: none
zh_drawn_ply:    .res 1    ; game_ply (low byte) when the Chinese list was last drawn (panel_zh.s)
keep_sig:        .res 2    ; KEEP_SIG: the settings below survive a soft reset
keep_settings:   .res 1    ; view << 5 | level << 2 | players (settings_save); after reset
                           ; KEEP_VALID | those, or 0 (power-on, or not kept)
keep_check:      .res 1    ; keep_settings EOR KEEP_CHECK
ui_oam_rot:      .res 1    ; first shadow-OAM slot of this frame (x 4; cycles)
busy_pads:       .res 1    ; nonzero: a button was down during the last search (NMI)
; ==========================================================================

.segment "STACK"
stack_floor:     .res 64   ; the 6502 stack, S starts at $FF; the engine stays >= $01D0

.segment "OAM"
oam:             .res 256  ; shadow OAM, copied by OAM DMA in the NMI of a frame the main loop completed (frame_ready)
; The engine's ordering keys live in the same page: the NMI copies it only
; when the main loop has set frame_ready (wait_frame), after the frame's
; sprites are built, and never while the engine runs (inside a call from the
; main loop frame_ready is 0); the board screens rebuild every sprite each
; frame (board_sprites), and every screen clears the page when it is drawn
; (the title and the puzzle menu call the engine only on their way to a
; board screen), so the keys a call leaves behind are never shown.  The PPU
; keeps its OAM meanwhile (rendering refreshes it).
ms_key = oam               ; ordering keys (search), MOVE_STACK_ENTRIES + 1 bytes (the scan's sentinel after the last)

.segment "BSS"
vram_queue:      .res VRAM_QUEUE_SIZE
vram_queue_len:  .res 1    ; index of the terminating 0 in vram_queue
attr_shadow:     .res 64   ; what the attribute table at $23C0 holds
; ---- puzzles (asm/ui/ui_puzzle.s, asm/puzzles/puzzles.s)
puz_solved:      .res PUZ_SOLVED_BYTES  ; puzzles solved since power-on, bit i & 7 of byte i >> 3; the reset handler keeps them (keep_check)
ui_lang:         .res 1    ; UI_LANG_EN or UI_LANG_ZH (the title's NOTATION item); kept like puz_solved (keep_check)
puz_cur:         .res 1    ; the puzzle being played, its number (index + 1); 0: a game from the opening

.segment "ENGINE_LO"
; ======================= ENGINE (rest of page 3) ===========================
rep_key_hi:      .res REP_RING_ENTRIES  ; repetition ring: key high bytes
rep_info:        .res REP_RING_ENTRIES  ; repetition ring: REP_CHECK (bit 7) = the side to move is in check; bits 0-6 = the square (0-89) the move to it went to (the game's entries)
s_ahead:         .res 1    ; search: bit 7 set when the root's static evaluation is above 0 (draw_score)
; ==========================================================================

.segment "ENGINE_BSS"
; ======================= ENGINE ($0400-$07FF) =============================
; UI overlay: between two searches (never across game_think) the board
; screen keeps its snapshot of the drawn pieces in history[0..89]
; (ui_board.s, drawn[]); eng_search re-initialises history anyway.
; The move stack first: ms_from and ms_to each start a page, so that
; ms_from,x / ms_to,x (and ,y) never cross one (4 cycles, not 5); the byte
; after each is free (it takes score_quiets' sentinel for a list that ends
; at MOVE_STACK_ENTRIES).
ms_from:         .res MOVE_STACK_ENTRIES  ; move stack, shared by all plies
eng_load_buf = ms_from     ; eng_load's input, 90 bytes: no move on the stack is live around eng_load and eng_rebuild, which empty it
ms_from_pad:     .res 256 - MOVE_STACK_ENTRIES  ; (ms_to starts the next page)
ms_to:           .res MOVE_STACK_ENTRIES
ms_to_pad:       .res 256 - MOVE_STACK_ENTRIES  ; (the history table starts the next page)
; Then the history table, starting page 6: its three rows (rook, cannon,
; the others) all start in that page, so a row's pointer has one high byte
; (score_quiets and reward set it once: >history).
history:         .res HISTORY_SIZE        ; search: history table (3 x 90)
; ---- search (eng_search*.s; engine/search.inc) ---------------------------
s_depth:         .res SEARCH_PLIES        ; search: per main-search ply, the node's depth
s_best:          .res SEARCH_PLIES        ; search: per main-search ply, the best move's index + 1 (0 = none yet)
; A quiescence node keeps stand pat + DELTA_MARGIN (delta pruning's base)
; in the same bytes: ply p's entries belong to the one node at ply p, an
; ab_node or a q_node; ab_node at depth 0 reads s_depth before it enters
; q_node at the same ply, which then writes them; the only access across
; plies is a parent writing its child's depth before it searches the child.
s_delta_lo = s_depth       ; search: per quiescence ply, stand pat + DELTA_MARGIN, low bytes
s_delta_hi = s_best        ; search: per quiescence ply, stand pat + DELTA_MARGIN, high bytes
s_nodes:         .res 2                   ; search: nodes searched (output, the UI's progress counter)
s_lfsr:          .res 2                   ; search: seed (input), then the noise LFSR
; ---- end of search ---------------------------------------------------------
.if 2 * SEARCH_PLIES + 4 < 10             ; the bytes above: shallower levels pad them to 10
board_pad:       .res 10 - (2 * SEARCH_PLIES + 4)  ; search: none at the shipped levels (the board at least 24 bytes into its page, after history's last 14)
.endif
board:           .res BOARD_SIZE          ; padded 11x14 mailbox, at $0726 (below)
s_res_from:      .res PV_PLIES  ; search output: the PV, from squares
s_res_to:        .res PV_PLIES  ; search output: the PV, to squares
s_res_pvlen:     .res 1    ; search output: PV length (0 = no legal move)
s_res_depth:     .res 1    ; search output: depth of the last completed iteration
s_res_score:     .res 2    ; search output: score, signed 16-bit
s_res_book:      .res 1    ; search output: the book's opening + 1 when the move came from the book, else 0
s_cap:           .res 2    ; search: the node cap searched to (set_node_cap: the row's, or the level's sparse one)
eng_wleg:        .res 1    ; eng_eval: the active set's weakness per blocked horse leg (ev_wk_leg[eng_vset]; eng_load sets it)
eng_weye:        .res 1    ; eng_eval: the active set's weakness per blocked elephant eye (ev_wk_eye[eng_vset]; eng_load sets it)
s_fut_hi:        .res SEARCH_MAX_DEPTH  ; search: per main-search ply, the futility threshold's high byte (FUT_OFF_HI: none, FUT_ON_HI: the quiet moves are futile; the low byte in s_fut_lo, by depth)
; ---- the perpetual-chase judgement (game_chase.s), while it runs
chase_scratch:   .res CHASE_SCRATCH  ; game_chase: its scratch (ch_* names in game_chase.s)
; Outside a search the UI keeps history[0..89] (above).
; ==========================================================================

; The undo entries per ply, for the host (tools/nes: the deepest perft
; and make it accepts).
.export ENG_PLIES

; Checked at link time: the fixed places the code relies on.
.assert local = $0000, error, "locals must start the zero page"
.assert oam = $0200, error, "shadow OAM must be page $02 (OAM DMA)"
.assert MOVE_STACK_ENTRIES + 1 <= 256, error, "ms_key and its sentinel must fit the shadow OAM's page"
.assert stack_floor = STACK_FLOOR, error, "the stack must be $01C0-$01FF"
.assert ENGINE_STACK_FLOOR = STACK_FLOOR + 16, error, "the UI and the NMI keep the stack's last 16 bytes"
.assert >puz_solved = 3 && >(puz_solved + PUZ_SOLVED_BYTES - 1) = 3, error, "reset_handler keeps the solved marks in page 3"
.assert ui_lang = puz_solved + PUZ_SOLVED_BYTES, error, "reset_handler keeps ui_lang with the solved marks"
; The history table's last 14 bytes and the search's 24 before the board
; put it 38 bytes into page 7 ($0726), at least 24: board+d,y and
; board+d,x read the board's page alone for every offset d of a move or a test
; (-24..24: an elephant's two diagonal steps) and every square, so no read
; crosses a page (4 cycles, not 5 for a negative d).
.assert >(board - 24) = >(board + BOARD_SIZE + 24 - 1), error, "board+d,y must stay in the board's page for d = -24..24"
.assert piece_sq >= $10, error, "piece_sq-$10,x must be a zero-page operand"
.assert s_killers = $0100, error, "engine per-ply data must start page 1"
.assert <ms_from = 0 && <ms_to = 0, error, "ms_from and ms_to must each start a page (no page-crossing read)"
.assert >history = >(history + 2 * 90), error, "the history rows must start in one page (score_quiets, reward: hist_row+1 = >history)"
