"""tests/store runs on both backends: each test is two cases, `[sqlite]` and `[postgres]`.

The `backend` fixture (tests/conftest.py), which every test asks for through `isolated_env`,
is parametrised here, so every home a test opens is on the SQLite file in one case and in a
fresh database of the test PostgreSQL in the other (made when first used: `homes_database`).
A test that opens several homes gives each a store of its own with `fresh_store`; a home
that a module's tests share gets its store from `module_store`. `-m "not postgres"` (`make check`) keeps
the SQLite cases; `--backend=postgres` keeps the PostgreSQL ones.

Left with one case: a test marked `sqlite_only` (about the SQLite file itself, or a store it
opens as `SQLiteStore`), a test that asks for PostgreSQL itself (`pg`, `postgres_url`,
`postgres_server`: it sets its stores up on both backends and compares them), and a test
marked `postgres` by its module (it starts a server of its own, as the doctor's test does).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import TEMPLATE


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    marked = metafunc.definition.get_closest_marker
    if "postgres_server" in metafunc.fixturenames or marked("sqlite_only") or marked("postgres"):
        return
    on_postgres = metafunc.config.getoption("--backend") == "postgres"
    backends = ["postgres"] if on_postgres else ["sqlite", "postgres"]
    # Module scope: a module's tests run on one backend, then on the other, and a home a module
    # shares between its tests (`module_store`) is made once for each.
    metafunc.parametrize(
        "backend",
        [pytest.param(name, marks=[pytest.mark.postgres] if name == "postgres" else []) for name in backends],
        scope="module",
    )


@pytest.fixture(scope="module")
def module_store(backend: str, request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """Options for `Memoir.open` giving a home a module's tests share its store: a database of its own on PostgreSQL."""
    if backend != "postgres":
        yield {}
        return
    server = request.getfixturevalue("postgres_server")
    name = f"m_{uuid.uuid4().hex[:16]}"
    yield {"store_url": server.create_database(name, template=TEMPLATE)}
    server.drop_database(name)
