# NES Xiangqi: build, test and play.
#   make play   set up, build and play
#   make test   run every test
#   make bench  measurements (speed, node counts, strength)
# The first call creates .venv and installs the Python dependencies.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all setup test test-fast bench play clean

all: setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

test: $(STAMP)
	$(PY) -m pytest tests emu_tests

test-fast: $(STAMP)
	$(PY) -m pytest tests -x -m "not slow"

bench: $(STAMP)
	$(PY) -m bench.engine_bench

play: $(STAMP)
	$(PY) -m reference_py play

clean:
	rm -rf build rom/*.nes rom/*.nl rom/*.mlb rom/*.json rom/*.lst
