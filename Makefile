# The two set-up commands are `make run` and `make test`; both create the virtualenv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCALES := app/i18n/locale
LANGUAGES := en pt_BR ru es it th
ENGINE := engine
# The modules mypyc compiles (the engine's build.py): editing one rebuilds the compiled build.
COMPILED_SOURCES := $(shell $(PYTHON) $(ENGINE)/src/checkers_engine/build.py)

.PHONY: install run test test-fast lint fmt bench egdb migrate clean screenshot icons lock lock-check i18n \
	audit docs

# The install takes every version from the lock files, checked by their hashes: first
# the build tools, then the service's dependencies with its dev, test and bench extras,
# then the engine (engine/, the distribution checkers-engine, which the locks leave out:
# it is this repository's own) and the service itself, both editable, with neither
# resolving nor fetching anything (tests/docs/test_lock.py compares what is installed with
# the locks). The engine compiles its hot modules in place with mypyc when a C compiler is
# found (engine/setup.py); CHECKERS_PURE_PYTHON=1 make install installs the pure build.
$(STAMP): pyproject.toml $(ENGINE)/pyproject.toml $(ENGINE)/setup.py \
		$(ENGINE)/src/checkers_engine/build.py requirements-dev.txt requirements-build.txt \
		$(COMPILED_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements-build.txt
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e ./$(ENGINE)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/pybabel --quiet compile --domain messages --directory $(LOCALES)
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/checkers serve

migrate: $(STAMP)
	$(BIN)/checkers migrate

# The whole suite (the service's tests/ and the engine's engine/tests) on the installed
# (compiled) build, then the engine's tests again on the pure Python build of the same
# sources. The second stage leaves out
# what would only repeat the first: the slow tests (deep perft, whole endgame tables,
# long searches: the same source and the same code paths as their short versions, which
# it runs) and those whose work does not depend on the build (one_build).
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup
	CHECKERS_PURE_PYTHON=1 $(BIN)/python -m pytest -n 2 --dist loadgroup \
		-m "not slow and not one_build" $(ENGINE)/tests

test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not slow"

# The app's PNG icons, drawn from their SVG sources with Chromium (tools/icons.py).
icons: $(STAMP)
	$(BIN)/python tools/icons.py

# The README's picture of the room page, retaken by its browser test.
screenshot: $(STAMP)
	SCREENSHOT=update $(BIN)/python -m pytest -q -n 1 tests/browser/test_screenshot.py

# The lock files, pinned with hashes from pyproject.toml (pip-tools): requirements.txt
# (the service), requirements-dev.txt (with the dev, test and bench extras, the service's
# pins unchanged), requirements-build.txt (the build systems of the service and of the
# engine). The Dockerfile installs them. The engine (checkers-engine) is a dependency of
# the service found in this repository, not on the index: the resolver finds it as a pure
# wheel built from engine/ (ENGINE_WHEEL), and the locks leave it out as the one package
# named unsafe (pip and setuptools, unsafe by default, are then pinned like any other);
# make install installs it from engine/.
ENGINE_WHEEL := .cache/engine-wheel
PIP_COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(abspath $(BIN))/pip-compile --quiet \
	--generate-hashes --strip-extras --no-emit-index-url --no-emit-find-links \
	--find-links $(abspath $(ENGINE_WHEEL)) --unsafe-package checkers-engine
COMPILE_LOCKS = $(PIP_COMPILE) -o requirements.txt pyproject.toml \
	&& $(PIP_COMPILE) --extra dev --extra test --extra bench -c requirements.txt \
		-o requirements-dev.txt pyproject.toml \
	&& $(PIP_COMPILE) --only-build-deps --all-build-deps \
		-o requirements-build.txt pyproject.toml $(ENGINE)/pyproject.toml
ENGINE_WHEEL_BUILD = rm -rf $(ENGINE_WHEEL) && CHECKERS_PURE_PYTHON=1 $(BIN)/python -m pip wheel \
	--quiet --no-deps --no-build-isolation --wheel-dir $(ENGINE_WHEEL) ./$(ENGINE)

lock: $(STAMP)
	$(ENGINE_WHEEL_BUILD)
	$(COMPILE_LOCKS)

# Recompile a copy of the locks (their pins kept, as pip-compile does) and compare: any
# difference means pyproject.toml changed without `make lock`. Needs the package index.
lock-check: $(STAMP)
	rm -rf .cache/lock && mkdir -p .cache/lock/$(ENGINE)
	cp pyproject.toml README.md requirements.txt requirements-dev.txt requirements-build.txt \
		.cache/lock/
	cp -r $(ENGINE)/pyproject.toml $(ENGINE)/setup.py $(ENGINE)/README.md $(ENGINE)/src \
		.cache/lock/$(ENGINE)/
	$(ENGINE_WHEEL_BUILD)
	cd .cache/lock && $(COMPILE_LOCKS)
	for f in requirements.txt requirements-dev.txt requirements-build.txt; do \
		diff -u $$f .cache/lock/$$f || { echo "$$f does not match pyproject.toml: make lock"; exit 1; }; \
	done

# Known vulnerabilities in the locked versions, from PyPI's advisory data (pip-audit).
# Not part of `make test`: it needs the package index, and an advisory published today
# would fail yesterday's commit. Run it before a release and after `make lock`. When no
# advisory database answers, it fails and says so rather than reporting nothing.
audit: $(STAMP)
	$(BIN)/pip-audit --disable-pip --require-hashes --progress-spinner off --strict $(AUDIT_FLAGS) \
		-r requirements.txt -r requirements-dev.txt -r requirements-build.txt \
	|| { echo "make audit: failed: a known vulnerability above, or no advisory database" \
		"could be reached for every package (pip-audit asks PyPI's JSON API)"; exit 1; }

# The documentation: the service's site (mkdocs.yml, docs/) into site/ and the engine's
# (engine/mkdocs.yml, engine/docs/) into engine/site/, both git-ignored. MkDocs and the
# Material theme come with the dev extra; the build fetches nothing (no web fonts, no social
# cards) and --strict fails it on a broken link, a missing anchor or a page out of the nav.
# NO_MKDOCS_2_WARNING silences the theme's banner about its end of life.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --config-file mkdocs.yml
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --config-file engine/mkdocs.yml

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy app $(ENGINE)/src

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python $(ENGINE)/bench/perft.py

egdb: $(STAMP)
	$(BIN)/checkers egdb build all --pieces 4

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build site engine/site
	rm -rf $(ENGINE)/build $(ENGINE)/dist
	find app $(ENGINE)/src -name '*.so' -delete
	rm -f $(ENGINE)/src/checkers_engine/_compiled_sources.txt

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
