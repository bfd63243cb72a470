"""The shared store: one PostgreSQL database (psycopg 3 with a connection pool) for many processes.

Why it is built this way:
- Connections come from a pool and run in autocommit; `atomic()` checks one out for the
  thread's transaction, and nested blocks join it (as on SQLite), so a job reads its own
  writes and commits them with the removal of its outbox entries.
- Commits are durable (`synchronous_commit` as the server has it) except in a runner's
  thread that declared `replayable_writes()`: those commit with `synchronous_commit = off`,
  since whatever a lost commit held its outbox entries bring back.
- The schema is applied as named steps under an advisory lock (`schema.py`), so servers and
  workers starting together migrate a database once.
- Events are append-only, enforced by a trigger that refuses UPDATE, DELETE and TRUNCATE.
- Runners in many processes share the outbox by claiming entries (`outbox.py`); each store
  holds an owner key as a session advisory lock on a connection of its own, which
  PostgreSQL releases when the process dies, so its claims pass to the others.
- Errors are translated by class (`errors.py`); the URL's password never appears in them.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from memoir.errors import StoreError
from memoir.model import Event, now_ms
from memoir.store.base import INDEX_WRITES
from memoir.store.postgres.candidates import PostgresCandidates
from memoir.store.postgres.errors import masked, translate
from memoir.store.postgres.hits import PostgresHitReads
from memoir.store.postgres.outbox import INSERT_OUTBOX, PostgresOutboxTables
from memoir.store.postgres.parts import EXCLUSIVE_NAMESPACE, OWNER_NAMESPACE
from memoir.store.postgres.schema import STEPS, applied_steps, apply_steps
from memoir.store.postgres.search import PostgresSearchTables
from memoir.store.postgres.search_schema import LOCK_INDEX
from memoir.store.postgres.text import register_text
from memoir.store.postgres.transfer import PostgresTransfer
from memoir.store.postgres.tuning import INDEX_ONLY_DIMS, Figures, advise
from memoir.store.postgres.vectors import PostgresVectorTables, vector_index_name
from memoir.store.records import Tuning
from memoir.store.sql.events import EventReads
from memoir.store.sql.llm import LLMTables
from memoir.store.sql.memories import MemoryTables
from memoir.store.sql.rows import EVENT_COLUMNS, event_row, first_occurrences, outbox_rows
from memoir.store.sql.timeline import TimelineTables

__all__ = ["PostgresStore"]

# Many events in one statement: each column is one array parameter.
INSERT_EVENTS = (
    f"INSERT INTO events ({EVENT_COLUMNS}, ingested_at_ms)"
    " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::bigint[])"
    " ON CONFLICT (event_id) DO NOTHING RETURNING event_id"
)
_OWNER_CHECK_S = 5.0  # how often the owner connection is looked at (a dead one means new claims)


class PostgresStore(
    PostgresHitReads,
    PostgresCandidates,
    PostgresOutboxTables,
    PostgresSearchTables,
    PostgresVectorTables,
    PostgresTransfer,
    EventReads,
    MemoryTables,
    LLMTables,
    TimelineTables,
):
    backend = "postgresql"
    searches_vectors = True  # pgvector (vectors.py): VectorSearching

    def __init__(self, url: str, *, pool_size: int = 10, timeout_s: float = 30.0) -> None:
        self.url = url
        self.location = masked(url)
        self._timeout_s = timeout_s
        self._local = threading.local()
        self._lane_locks: dict[str, threading.Lock] = {}
        self._owner_lock = threading.Lock()
        self._owner: tuple[psycopg.Connection[Any], int] | None = None
        self._owner_checked = 0.0
        self._closed = False
        try:
            self._open(pool_size)
        except BaseException:
            self.close(timeout_s=0.0)  # no connection, pool or thread outlives a store that failed to open
            raise

    def _open(self, pool_size: int) -> None:
        url, timeout_s = self.url, self._timeout_s
        with self._translated():
            conn = self._connect()
            try:
                apply_steps(conn)
            finally:
                conn.close()
            self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
                url,
                min_size=min(4, max(pool_size, 1)),  # enough for a process's runners and a caller at once
                max_size=max(pool_size, 1),
                kwargs={"autocommit": True},
                configure=register_text,
                timeout=timeout_s,
                open=False,
                name="memoir",
            )
            self._pool.open(wait=True, timeout=timeout_s)
        # The owner key now, not at a runner's first claim: that claim then costs what any other does.
        self._owner_key()

    @classmethod
    def open(cls, url: str, **options: Any) -> PostgresStore:
        return cls(url, **options)

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=max(int(self._timeout_s), 1))
        register_text(conn)
        return conn

    # -- connections and transactions -------------------------------------------------

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except (psycopg.Error, OSError) as exc:
            raise translate(exc, self.location) from exc
        except Exception as exc:
            if type(exc).__module__.startswith("psycopg_pool"):
                raise translate(exc, self.location) from exc
            raise

    def _conn(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None:
            raise StoreError("a PostgreSQL statement ran outside atomic(): this is a bug in memoir")
        return conn

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the store {self.location} is closed")

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A transaction; nested blocks join the outermost one of this thread."""
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        self._check_open()
        with self._translated():
            conn = self._pool.getconn()
        try:
            self._local.conn = conn
            with self._translated(), conn.transaction():
                if getattr(self._local, "replayable", False):
                    conn.execute("SET LOCAL synchronous_commit TO off")
                yield
        finally:
            self._local.conn = None
            self._pool.putconn(conn)

    def exclusive(self, names: Sequence[str]) -> None:
        """Transaction advisory locks on these names, taken in order (two writers never wait in a cycle).

        `INDEX_WRITES` is the search index writers' own lock (`search.py`), taken first: a
        transaction that will write the index after changing rows names it before the rows,
        or it could hold a row another writer waits for while waiting for that writer's lock.
        """
        conn = self._conn()
        with self._translated():
            wanted = set(names)
            if INDEX_WRITES in wanted:
                conn.execute(LOCK_INDEX)
            for name in sorted(wanted - {INDEX_WRITES}):
                conn.execute(f"SELECT pg_advisory_xact_lock({EXCLUSIVE_NAMESPACE}, hashtext(%s))", (name,))

    def replayable_writes(self) -> None:
        """Declare this thread's writes replayable: commit them without waiting for the disk."""
        self._local.replayable = True

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        conn = self._transaction_conn()
        with self._translated():
            if conn is not None:  # inside atomic(): read this transaction's own writes
                return conn.execute(sql, params or None).fetchall()
            with self._pooled() as pooled:
                return pooled.execute(sql, params or None).fetchall()

    def _transaction_conn(self) -> psycopg.Connection[Any] | None:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        return conn

    def in_transaction(self) -> bool:
        """Is this thread inside `atomic()`? (A search there reads on its connection alone.)"""
        return self._transaction_conn() is not None

    def _pooled(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        self._check_open()
        return self._pool.connection()

    def _owner_statement(self, sql: str) -> Any:
        self._owner_key()  # a live owner connection
        with self._owner_lock:
            assert self._owner is not None
            found = self._owner[0].execute(sql).fetchone()
        return found[0] if found else None

    def _owner_key(self) -> int:
        """This store's owner key, held as a session advisory lock; a lost one is replaced by a new key."""
        with self._owner_lock, self._translated():
            self._check_open()
            if self._owner is not None and time.monotonic() - self._owner_checked > _OWNER_CHECK_S:
                conn, key = self._owner
                try:
                    held = conn.execute(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s"
                        " AND objsubid = 2 AND pid = pg_backend_pid() AND granted",
                        (OWNER_NAMESPACE, key),
                    ).fetchone()
                except psycopg.Error:
                    held = None
                if not held or not held[0]:
                    with contextlib.suppress(psycopg.Error):
                        conn.close()
                    self._owner = None
                self._owner_checked = time.monotonic()
            if self._owner is None:
                conn = self._connect()
                try:
                    found = conn.execute("SELECT nextval('outbox_owners')").fetchone()
                    key = int(found[0]) if found else 0
                    conn.execute(f"SELECT pg_advisory_lock({OWNER_NAMESPACE}, {key})")
                except BaseException:
                    conn.close()
                    raise
                self._owner = (conn, key)
                self._owner_checked = time.monotonic()
            return self._owner[1]

    # -- events -------------------------------------------------------------------------

    def append(self, events: Sequence[Event], actions_for: Callable[[Event], Iterable[str]]) -> list[Event]:
        """Store new events with their outbox entries in one durable transaction."""
        if not events:
            return []
        now = now_ms()
        columns = [list(column) for column in zip(*(event_row(e, now) for e in events), strict=True)]
        for text_column in (5, 6):  # event type and role: enum members, sent as their values
            columns[text_column] = [str(value) for value in columns[text_column]]
        with self._translated(), self.atomic():
            conn = self._conn()
            inserted = {row[0] for row in conn.execute(INSERT_EVENTS, columns)}
            fresh = list(events) if len(inserted) == len(events) else first_occurrences(events, inserted)
            rows = outbox_rows(fresh, actions_for, per_conversation=True)
            if rows:
                conn.cursor().executemany(INSERT_OUTBOX, rows)
            return self._as_stored(events, fresh)

    # -- status -------------------------------------------------------------------------

    def _size_bytes(self) -> int:
        return int(self._read("SELECT pg_database_size(current_database())")[0][0])

    def _schema(self) -> list[str]:
        self._check_open()
        with self._translated(), self._pool.connection() as conn:
            return applied_steps(conn)

    def tuning(self, model: str) -> list[Tuning]:
        """shared_buffers, maintenance_work_mem and hnsw.ef_search weighed against the data (`tuning.py`)."""
        settings, sizes = self._read(
            "SELECT ARRAY[current_setting('shared_buffers'), current_setting('maintenance_work_mem'),"
            " nullif(current_setting('hnsw.ef_search', true), '')],"
            " ARRAY[pg_relation_size('index_items') + pg_indexes_size('index_items')"
            " + pg_indexes_size('item_embeddings'), pg_relation_size('item_embeddings'),"
            " (SELECT count(*) FROM embeddings WHERE model = %s),"
            " coalesce((SELECT vector_dims(embedding) FROM embeddings WHERE model = %s LIMIT 1), 0)]",
            (model, model),
        )[0]
        searched, table, vectors, dims = (int(size) for size in sizes)
        graph = self._read("SELECT pg_relation_size(to_regclass(%s))", (vector_index_name(model, dims),))[0][0]
        return advise(
            Figures(
                shared_buffers=settings[0],
                maintenance_work_mem=settings[1],
                ef_search=int(settings[2]) if settings[2] else None,
                # The vectors' table is read where they are too wide for the index-only scan.
                searched_bytes=searched + int(graph or 0) + (table if dims > INDEX_ONLY_DIMS else 0),
                vectors=vectors,
                dims=dims,
                graph_vectors=vectors if graph is not None else None,
            )
        )

    def integrity_check(self) -> list[str]:
        """['ok'] when every schema step is applied and the event log's guard is in place."""
        problems = [f"schema step {name} is not applied" for name, _ in STEPS if name not in self._schema()]
        guards = self._read("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'events_are_%'")[0][0]
        if guards != 2:
            problems.append("the triggers that keep events immutable are missing")
        return problems or ["ok"]

    def __del__(self) -> None:
        # A store dropped without close() lets its connections go quietly, as SQLite's do.
        with contextlib.suppress(Exception):
            self.close(timeout_s=0.0)

    def close(self, timeout_s: float = 5.0) -> None:
        if getattr(self, "_closed", True):  # also a store whose __init__ failed early
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self._pool.close(timeout=timeout_s)
        with self._owner_lock:
            if self._owner is not None:
                with contextlib.suppress(psycopg.Error):
                    self._owner[0].close()
                self._owner = None
