# NES Xiangqi: build, test and play.
#   make play   set up, build and play (a window; headless: rom/demo.gif)
#   make test   run every test
#   make rom    build rom/xiangqi.nes (the default)
#   make bench  measurements: speed, node counts (then bench/results/SUMMARY.md)
#   make web    the page that plays the ROM in a browser (site/); make serve serves it
#   make ladder the levels' Elo against Fairy-Stockfish anchors beside the NES think time
#   make sprt   A/B test of two configurations (BASE=... TEST=...); make texel fits eval.yaml
#   make mutation  how many planted mistakes the tests catch (long; build/mutation.md)
# The first call creates .venv and installs the Python dependencies.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play

ROM     := rom/xiangqi.nes
# The ROM's inputs: the one list in tools/rom/files.py (standard library only).
ROM_DEP := $(shell $(PYTHON) -m tools.rom.files)
ifeq ($(strip $(ROM_DEP)),)
$(error cannot list the ROM's inputs: '$(PYTHON) -m tools.rom.files' failed)
endif

.PHONY: all rom rom-check art setup test test-full bench rom-bench match mutation ladder sprt texel play play-terminal web serve clean

all: rom

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

rom: $(ROM)

$(ROM): $(STAMP) $(ROM_DEP)
	$(PY) -m tools.build_rom

# Our assembler must match ca65+ld65 byte for byte (needs Debian's cc65).
rom-check: $(STAMP)
	$(PY) -m tools.build_rom --assembler both

# Redraw assets/*.png and the generated board nametable (needs fonts-wqy-zenhei).
art: $(STAMP)
	$(PY) -m tools.rom.art

# -n: one test process per logical CPU (pytest-xdist; TEST_JOBS=0: all in this process);
# --dist worksteal: each process starts with an equal share of the tests, in order (so a
# module's fixtures are mostly made once), and one that runs out takes half of another's rest.
# --durations: the slowest tests are listed at the end, so CI's log shows where its time goes.
TEST_JOBS ?= logical
PYTEST_N  := -n $(TEST_JOBS) --dist worksteal

test: $(STAMP) $(ROM)
	$(PY) -m pytest $(PYTEST_N) --durations=20 tests emu_tests

# Also the full ROM-vs-reference search matrix (every level, 101 positions; over an hour).
test-full: $(STAMP) $(ROM)
	ROMSEARCH_FULL=1 $(PY) -m pytest $(PYTEST_N) tests emu_tests

# Each measurement target ends by rewriting bench/results/SUMMARY.md, the one
# file that holds the numbers the README and docs/ link to (bench/summary.py).
bench: $(STAMP) $(ROM)
	$(PY) -m bench.engine_bench
	$(PY) -m bench.summary

# The ROM engine under py65: rules-core cycles, then search time per level
# (its table goes to build/rom_search_bench.md; bench/results/rom_search_bench.md,
# which SUMMARY.md reads, quotes a run with its context, newest first), and on the
# opening positions each level searches (bench/results/rom_opening_bench.md) and the
# early ones where Master's larger cap for a thinner board starts
# (bench/results/thin_board_bench.md); then the whole cartridge in cynes: thinking
# time per level in real frames; and the opening book (bench/book_bench.py: its
# size, a book move's NES time, variety).
rom-bench: $(STAMP) $(ROM)
	$(PY) -m bench.rom_bench
	$(PY) -m bench.rom_search_bench --check
	$(PY) -m bench.rom_opening_bench --check
	$(PY) -m bench.thin_board_bench --check
	$(PY) -m bench.cynes_think_bench --out bench/results/cynes_think.md
	$(PY) -m bench.book_bench
	$(PY) -m bench.summary

# Mutation testing (a bench, not CI): the documented hand-made mutations of
# bench/mutations.yaml (6502, generator, header, CHR, shared reference
# mistakes), each against its targeted test, then mutmut over reference_py/
# and tools/asm/; the kill rates and survivors go to build/mutation.md.  Long:
# tens of minutes for the hand-made set, hours for mutmut.
MUTATION_STAMP := $(VENV)/.installed-mutation

$(MUTATION_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[dev,mutation]'
	touch $@

mutation: $(MUTATION_STAMP) $(ROM)
	nice -n 10 $(PY) -m bench.mutation

# Self-play between adjacent levels (slow: tens of minutes).
match: $(STAMP)
	$(PY) -m bench.match --adjacent --games 40 --out bench/results/match_adjacent.json

# Tuning (tools/tune, README "Tuning"): games need Debian's fairy-stockfish.
# The ladder: every level against the anchors and its neighbours, Elo with
# 95% intervals, NES think time from the ROM's cycles, report in LADDER_OUT
# (resumable: run it again after a stop).  Long: run it niced in the background.
LADDER_OUT     ?= bench/results/ladder
LADDER_ANCHORS ?= fs:depth=1,fs:nodes=2000
LADDER_GAMES   ?= 100
JOBS           ?= 0
ladder: $(STAMP) $(ROM)
	$(PY) -m tools.tune ladder --anchors $(LADDER_ANCHORS) --games $(LADDER_GAMES) --jobs $(JOBS) --out $(LADDER_OUT)
	$(PY) -m bench.summary

# SPRT of TEST against BASE (YAML directories, checkouts or git revisions) at LEVEL.
BASE  ?= HEAD
TEST  ?= config
LEVEL ?= Master
ELO0  ?= 0
ELO1  ?= 5
sprt: $(STAMP)
	$(PY) -m tools.tune sprt $(BASE) $(TEST) --level $(LEVEL) --elo0 $(ELO0) --elo1 $(ELO1) --jobs $(JOBS)

# Texel tuning of config/eval.yaml on Fairy-Stockfish self-play (writes build/tune/texel/result/config).
TEXEL_GAMES ?= 400
texel: $(STAMP)
	$(PY) -m tools.tune texel --games $(TEXEL_GAMES) --jobs $(JOBS)

# The window needs pysdl2 (the [play] extra); without it, or without a
# display, tools.play records the attract mode headless instead.
$(PLAY_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[dev,play]' || echo "warning: could not install pysdl2 (the [play] extra): make play will run headless"
	touch $@

play: $(PLAY_STAMP) $(ROM)
	$(PY) -m tools.play

# The browser page: site/ with the ROM, the pinned jsnes (npm ci into
# web/node_modules, needs Node.js and npm) and web/'s page; `make serve`
# serves it at http://127.0.0.1:$(PORT)/ (a page opened as a file cannot load the ROM).
PORT ?= 8000

web: $(STAMP) $(ROM)
	$(PY) -m tools.web build

serve: web
	$(PY) -m tools.web serve --port $(PORT)

# The terminal game against the reference engine (a demo game without a TTY).
play-terminal: $(STAMP)
	$(PY) -m reference_py play

clean:
	rm -rf build site rom/*.nes rom/*.nl rom/*.mlb rom/*.json rom/*.lst rom/*.gif rom/screenshots
