# One entry point for newcomers and CI.
#   make demo   set up and run the main job (see README)
#   make test   set up and pass the tests (lint, types, import rules, pytest)
VENV    ?= .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: demo test lint debs setup clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

debs:
	@bash scripts/install-debs.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: $(STAMP) debs lint
	$(BIN)/pytest

demo: $(STAMP) debs
	$(BIN)/shogi-robot demo --out out/demo

clean:
	rm -rf $(VENV) out .mypy_cache .ruff_cache .pytest_cache
