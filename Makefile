# Two commands: `make run` and `make test`. Each creates .venv and installs what it
# needs when that is missing or pyproject.toml changed; nothing else to do by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
export MEMOIR_HOME ?= $(CURDIR)/.memoir-home

.PHONY: run test lint typecheck unit browser bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@ $(RUN_STAMP)

## run: create a home ($(MEMOIR_HOME)), ingest the example conversation, serve it (Ctrl-C stops)
run: $(RUN_STAMP)
	$(BIN)/memoir init
	$(BIN)/memoir ingest examples/conversation.jsonl
	$(BIN)/memoir serve

## test: lint, type-check and run the test suite
test: lint typecheck unit

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# Two workers, a test file each at a time: half the suite waits on disks and child processes.
# Then again with every test home on a real PostgreSQL (tests/postgres_server.py); the
# PostgreSQL-only tests ran in the first pass already.
unit: $(DEV_STAMP) browser
	$(BIN)/pytest -n 2 --dist loadfile
	$(BIN)/pytest -n 2 --dist loadfile --backend=postgres --ignore-glob='tests/*/test_postgres_*'

# tests/doors/test_docs_page.py renders /docs in a headless Chromium. As root (CI), Debian's is
# installed when missing, and a failed install stops here; otherwise the test says how to
# install it and is skipped (it fails when CI is set).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1 || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium (apt-get) for tests/doors/test_docs_page.py"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "no chromium: tests/doors/test_docs_page.py needs it (as root: apt-get install chromium)"; \
	fi

## bench: the benchmarks (tens of minutes); results go to the terminal
bench: $(RUN_STAMP)
	$(BIN)/python bench/ingest.py
	$(BIN)/python bench/write_path.py
	$(BIN)/python bench/retrieval.py
	$(BIN)/python bench/search_scale.py
	$(BIN)/python bench/proxy.py
	$(BIN)/python bench/facts.py --replay

clean:
	rm -rf $(VENV) .memoir-home .pytest_cache .mypy_cache .ruff_cache .hypothesis
