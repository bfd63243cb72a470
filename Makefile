# Two commands: `make run` and `make test`, and `make check` for the developer's loop. Each
# creates .venv and installs what it needs when that is missing or pyproject.toml changed;
# nothing else to do by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
export MEMOIR_HOME ?= $(CURDIR)/.memoir-home

.PHONY: run test check test-postgres-all lint typecheck browser bench clean

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

# The tests are in four folders by what they need (tests/conftest.py): tests/unit (no store),
# tests/store (the store, each test a case on SQLite and a case on PostgreSQL), tests/doors
# (the CLI, REST, the proxy, gRPC, MCP, the hooks, the chat agent) and tests/system (real
# processes killed, racing, on a full disk: marked `slow`). The PostgreSQL cases run on a real
# PostgreSQL 18 that each test process starts (tests/postgres_server.py).
# Two workers, tests dealt out as they finish (worksteal): much of the suite waits on disks,
# child processes and loopback servers. Bytecode is cached even where PYTHONDONTWRITEBYTECODE
# is set: every worker and every child process (the CLI, servers, workers) imports memoir
# afresh, and compiling it each time costs a second or more apiece.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n 2 --dist worksteal

## test: lint, type-check, then every tier on SQLite and tests/store on PostgreSQL too, with the
## PostgreSQL-only tests; the 20 slowest tests at the end (what CI runs: .ci/run)
test: lint typecheck browser $(DEV_STAMP)
	$(PYTEST) --durations=20

## check: lint, type-check and every tier on SQLite only (no PostgreSQL): the developer's loop
check: lint typecheck $(DEV_STAMP)
	$(PYTEST) -m 'not postgres'

## test-postgres-all: every tier with every test home on PostgreSQL (tests/unit, which opens
## no store, left out; tests about the SQLite file skipped): now and then, and before a release
test-postgres-all: $(DEV_STAMP) browser
	$(PYTEST) --backend=postgres --durations=20

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# tests/doors/test_docs_page.py renders /docs in a headless Chromium, and
# tests/doors/test_web_browser.py drives the web view with Selenium through Debian's
# chromedriver. As root (CI), Debian's chromium and chromium-driver are installed when
# missing, and a failed install stops here; otherwise the tests say how to install them and
# are skipped (they fail when CI is set).
browser:
	@{ command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; } && command -v chromedriver >/dev/null 2>&1 || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium and chromium-driver (apt-get) for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else \
		echo "no chromium or chromedriver: the browser tests need them (as root: apt-get install chromium chromium-driver)"; \
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
