# The two set-up commands are `make run` and `make test`; both create the virtualenv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCALES := app/i18n/locale
LANGUAGES := en pt_BR ru es it th

.PHONY: install run test test-fast lint fmt bench migrate clean i18n

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,test,bench]'
	$(BIN)/pybabel compile --domain messages --directory $(LOCALES) >/dev/null
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

# Extract every message (Python, templates, page scripts) and bring each language's
# catalog up to date, then compile them (the .mo files are built, never committed).
i18n: $(STAMP)
	$(BIN)/pybabel extract --mapping-file babel.cfg --keywords t --keywords nt:1,2 \
	  --no-wrap --sort-by-file --project checkers-service --copyright-holder "" \
	  --output-file $(LOCALES)/messages.pot app
	for lang in $(LANGUAGES); do \
	  if [ -f $(LOCALES)/$$lang/LC_MESSAGES/messages.po ]; then \
	    $(BIN)/pybabel update --no-wrap --ignore-obsolete --input-file $(LOCALES)/messages.pot \
	      --output-dir $(LOCALES) --locale $$lang; \
	  else \
	    $(BIN)/pybabel init --no-wrap --input-file $(LOCALES)/messages.pot \
	      --output-dir $(LOCALES) --locale $$lang; \
	  fi; \
	done
	$(BIN)/pybabel compile --domain messages --directory $(LOCALES) --statistics
