# The two set-up commands are `make run` and `make test`; both create the virtualenv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The modules mypyc compiles (app/build.py): editing one rebuilds the compiled build.
COMPILED_SOURCES := $(shell $(PYTHON) app/build.py)

.PHONY: install run test test-fast lint fmt bench migrate clean

# The install compiles the hot modules in place with mypyc when a C compiler is found
# (setup.py); CHECKERS_PURE_PYTHON=1 make install installs the pure build.
$(STAMP): pyproject.toml setup.py $(COMPILED_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,test,bench]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/checkers serve

migrate: $(STAMP)
	$(BIN)/checkers migrate

# The whole suite on the installed (compiled) build, then the engine and computer-player
# tests again on the pure Python build of the same sources.
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup
	CHECKERS_PURE_PYTHON=1 $(BIN)/python -m pytest -n 2 --dist loadgroup tests/engine tests/ai

test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy app

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python bench/perft.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build
	find app -name '*.so' -delete
	rm -f app/_compiled_sources.txt
