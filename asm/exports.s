; exports.s: constants of global.inc that the host's tools and tests read
; from the build (the linker map's "exports"), so no Python file copies
; them.  No code and no data: the ROM's bytes do not depend on this file.
;
;   ENGINE_STACK_FLOOR   tools/nes: the py65 driver faults a push below it
;   GAME_*               tools/nes/game.py: game_outcome's results
;   UI_SCREEN_*, UI_THINK_*, UI_HUMAN_*, UI_RESULT_RESIGN, KEEP_CHECK,
;   UI_VIEW_*, KEEP_VIEW_TURN, PAL_MARK, UI_NOTATION_*, KEEP_ICCS, UI_LANG_*
;                        tools/nes/console.py, tools/nes/player.py and the
;                        cynes game tests: the UI's state in RAM
;   UI_RESULT_LIMIT, PUZ_COUNT, PUZ_FIRST_ROW, PUZ_PAGE_ROWS
;                        emu_tests/test_puzzles.py: the puzzles' state and menu
;   UI_SCREEN_SETUP*, SETUP_*
;                        emu_tests/test_setup_editor.py: the position editor

.include "global.inc"
.include "puzzles_const.inc"

.export ENGINE_STACK_FLOOR
.export GAME_ONGOING, GAME_CHECKMATE, GAME_STALEMATE, GAME_PERPETUAL, GAME_REPETITION
.export GAME_DRAW_60, GAME_NO_WINNER, GAME_PERPETUAL_CHASE
.export UI_SCREEN_TITLE, UI_SCREEN_PLAY, UI_SCREEN_PAUSE, UI_SCREEN_OVER, UI_SCREEN_ATTRACT
.export UI_SCREEN_PUZZLES, UI_RESULT_LIMIT, PUZ_COUNT, PUZ_FIRST_ROW, PUZ_PAGE_ROWS
.export UI_SCREEN_SETUP, UI_SCREEN_SETUP_MENU
.export SETUP_OK, SETUP_NO_RED_KING, SETUP_NO_BLACK_KING, SETUP_KINGS_FACE
.export SETUP_RED_IN_CHECK, SETUP_BLACK_IN_CHECK, SETUP_NO_MOVE
.export UI_THINK_NONE, UI_THINK_MOVE, UI_THINK_HINT
.export UI_HUMAN_RED, UI_HUMAN_BLACK, UI_RESULT_RESIGN
.export KEEP_CHECK, KEEP_VIEW_TURN
.export UI_VIEW_FIXED, UI_VIEW_TURN, PAL_MARK
.export UI_NOTATION_ZH, UI_NOTATION_ICCS, KEEP_ICCS, UI_LANG_EN, UI_LANG_ZH
