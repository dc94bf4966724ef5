# The two set-up commands are `make run` and `make test`; both create the virtualenv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-fast lint fmt bench migrate clean screenshot

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,test,bench]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/checkers serve

migrate: $(STAMP)
	$(BIN)/checkers migrate

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup

test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not slow"

# The README's picture of the room page, retaken by its browser test.
screenshot: $(STAMP)
	SCREENSHOT=update $(BIN)/python -m pytest -q -n 1 tests/browser/test_screenshot.py

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
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
