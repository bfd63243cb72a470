"""The embedded store: one SQLite file in WAL mode (stdlib `sqlite3`).

Why these settings:
- WAL lets readers run beside the one writer, across threads and processes.
- `synchronous=FULL` (the default here) fsyncs the WAL at every commit, so an
  acknowledged `append` survives a power cut, not just a crash of the process.
- Every write transaction starts with `BEGIN IMMEDIATE`: it takes the write lock
  up front, so concurrent writers wait on `busy_timeout` instead of failing
  with SQLITE_BUSY when a read transaction tries to upgrade.
- One connection per thread (sqlite3 connections are not shared across threads);
  `atomic()` blocks nest and share the outermost transaction of their thread.
- Only one outbox runner works each lane of a home at a time: it holds an `flock` on
  a file beside the database (one per lane), which the kernel releases if the
  process dies, so a restarted runner takes over at once with no lease to expire.
- sqlite3 errors are translated at one boundary (`translate`) by SQLite's result
  code, not by message text, which differs between SQLite versions.
- A full disk fails writes, never reads: a connection that cannot be opened for lack of
  room for its `-wal` and `-shm` files is opened immutable (when the WAL is empty) and
  replaced by a normal one as soon as there is room.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memoir.errors import HomeError, StoreError
from memoir.model import Event, now_ms
from memoir.store.records import Tuning
from memoir.store.sql.events import EventReads
from memoir.store.sql.llm import LLMTables
from memoir.store.sql.memories import MemoryTables
from memoir.store.sql.rows import EVENT_COLUMNS, event_row, first_occurrences, outbox_rows
from memoir.store.sql.timeline import TimelineTables
from memoir.store.sqlite.errors import FULL, UPGRADE_FULL, close_quietly, no_room, translate
from memoir.store.sqlite.outbox import INSERT_OUTBOX, SQLiteOutboxTables
from memoir.store.sqlite.schema import MIGRATIONS, applied_migrations, apply_migrations
from memoir.store.sqlite.search import SQLiteSearchTables
from memoir.store.sqlite.transfer import SQLiteTransfer

__all__ = ["SQLiteStore"]

# An id that is already stored is skipped (idempotent ingest); other constraint errors still fail.
INSERT_EVENT = (
    f"INSERT INTO events ({EVENT_COLUMNS}, ingested_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (event_id) DO NOTHING"
)

log = logging.getLogger("memoir.store")


class SQLiteStore(
    SQLiteOutboxTables, SQLiteSearchTables, SQLiteTransfer, EventReads, MemoryTables, LLMTables, TimelineTables
):
    backend = "sqlite"
    searches_vectors = False  # vectors are searched in memory (`memoir.index.vectors`)

    def __init__(self, path: Path, *, synchronous: str = "FULL", busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.location = str(self.path)
        self._synchronous = synchronous.upper()
        self._busy_timeout_s = busy_timeout_s
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # Threads of this process queue here for the write lock rather than in SQLite's
        # busy handler, which sleeps in steps of milliseconds between tries.
        self._write_lock = threading.Lock()
        self._closed = False
        self._reading_only_told = False
        self._check_folder()
        try:
            self._prepare()
        except BaseException:
            self.close()  # no connection outlives a store that failed to open
            raise

    def _prepare(self) -> None:
        with self._translated():
            conn = self._conn()
            if self._local.reading_only:
                self._check_schema(conn)
                return
            conn.execute("PRAGMA journal_mode=WAL")
            apply_migrations(conn)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """A store that can only read cannot migrate: it must be at the current schema already."""
        made = conn.execute("SELECT 1 FROM sqlite_schema WHERE name = '_migrations'").fetchone()
        missing = {name for name, _ in MIGRATIONS} - set(applied_migrations(conn) if made else ())
        if missing:
            raise StoreError(UPGRADE_FULL.format(path=self.path, step=min(missing)))

    @classmethod
    def open(cls, path: Path | str, **options: Any) -> SQLiteStore:
        return cls(Path(path), **options)

    # -- connections and transactions -------------------------------------------------

    def _check_folder(self) -> None:
        folder = self.path.parent
        if not folder.exists():
            raise HomeError(f"the folder {folder} does not exist: create it, or run `memoir init`")
        if not folder.is_dir():
            raise HomeError(f"{folder} is not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise HomeError(f"the folder {folder} is not writable by this user")

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise StoreError(f"the store {self.path} is closed")
            conn, reading_only = self._connect()
            self._local.conn = conn
            self._local.depth = 0
            self._local.reading_only = reading_only
            with self._lock:
                self._connections.append(conn)
        return conn

    def _connect(self) -> tuple[sqlite3.Connection, bool]:
        """A new connection, and whether it can only read (the disk had no room for it to write)."""
        try:
            conn = self._open_connection()
            self._reading_only_told = False
            return conn, False
        except sqlite3.Error as exc:
            if not (no_room(exc, self.path) and self._wal_is_empty()):
                raise translate(exc, self.path) from exc
        try:
            conn = self._open_immutable()
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc
        if not self._reading_only_told:  # once, not at every read while the disk stays full
            self._reading_only_told = True
            log.warning("the disk holding %s is full: reading the database, not writing, until it is not", self.path)
        return conn, True

    def _open_connection(self) -> sqlite3.Connection:
        # check_same_thread=False only so close() may close every thread's connection;
        # each connection is still used by the one thread that made it.
        conn = sqlite3.connect(self.path, timeout=self._busy_timeout_s, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA synchronous={getattr(self._local, 'synchronous', self._synchronous)}")
            conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_s * 1000)}")
            # Read the schema now, which maps the WAL index: a disk too full for it fails here,
            # where it can be handled, rather than in the middle of a later query.
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except BaseException:
            close_quietly(conn)
            raise
        return conn

    def _open_immutable(self) -> sqlite3.Connection:
        """A read-only connection that needs no -shm file: SQLite reads the main file as it is."""
        uri = self.path.resolve().as_uri() + "?mode=ro&immutable=1"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except BaseException:
            close_quietly(conn)
            raise
        return conn

    def _wal_is_empty(self) -> bool:
        """Whether the main file holds everything: an immutable reader ignores the WAL."""
        try:
            return os.path.getsize(f"{self.path}-wal") == 0
        except FileNotFoundError:
            return True
        except OSError:
            return False

    def _drop(self, conn: sqlite3.Connection) -> None:
        """Forget this thread's connection (closing it); the next use opens a new one."""
        with self._lock:
            if conn in self._connections:
                self._connections.remove(conn)
        self._local.conn = None
        self._local.depth = 0
        close_quietly(conn)

    def _current(self) -> sqlite3.Connection:
        """This thread's connection; one that could only read is opened again: there may be room now.

        An immutable reader must not outlive the full disk: once others write again, what
        it reads from the main file would be stale, or caught half checkpointed.
        """
        conn = self._conn()
        if self._local.reading_only:
            self._drop(conn)
            conn = self._conn()
        return conn

    def _writable(self) -> sqlite3.Connection:
        conn = self._current()
        if self._local.reading_only:
            raise StoreError(FULL.format(path=self.path))
        return conn

    def replayable_writes(self) -> None:
        """Declare this thread's writes replayable: commit them without waiting for the disk.

        For the outbox runner: a job's writes commit together with the removal of its
        outbox entries, so if a power cut loses that commit the entries come back and
        the work is redone. WAL with synchronous=NORMAL never corrupts the file; it
        may only lose the newest commits, which is exactly what replay covers.
        """
        self._local.synchronous = "NORMAL"  # also for a connection this thread opens again
        with self._translated():
            self._conn().execute("PRAGMA synchronous=NORMAL")

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, for jobs that keep their own tables in the store."""
        return self._conn()

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """A write transaction; nested blocks join the outermost one of this thread."""
        conn = self._conn()
        if self._local.depth:
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        with self._write_lock:
            conn = self._writable()
            with self._translated():
                conn.execute("BEGIN IMMEDIATE")
            self._local.depth = 1
            try:
                yield
                self._local.depth = 0
                conn.execute("COMMIT")
            except BaseException as exc:
                # All or nothing: whatever failed (the body, or COMMIT on a full disk), undo it all.
                self._local.depth = 0
                self._roll_back(conn)
                if isinstance(exc, sqlite3.Error):
                    raise translate(exc, self.path) from exc
                raise

    def exclusive(self, names: Sequence[str]) -> None:
        """Nothing to take: `atomic()` holds the database's write lock, which serializes every writer."""

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        # SQLite may have rolled back already (SQLITE_FULL, IOERR): then there is nothing to do.
        if not conn.in_transaction:
            return
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            self._drop(conn)  # closing a connection rolls its transaction back

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._translated():
            return self._current().execute(sql, params).fetchall()

    # -- events -------------------------------------------------------------------------

    def append(self, events: Sequence[Event], actions_for: Callable[[Event], Iterable[str]]) -> list[Event]:
        """Store new events with their outbox entries in one durable transaction."""
        if not events:
            return []
        now = now_ms()
        with self._translated(), self.atomic():
            conn = self._conn()
            last_seq = conn.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]
            before = conn.total_changes
            conn.executemany(INSERT_EVENT, [event_row(e, now) for e in events])
            if conn.total_changes - before == len(events):
                fresh = list(events)  # the usual case: every id was new, no lookup needed
            else:
                inserted = {row[0] for row in conn.execute("SELECT event_id FROM events WHERE seq > ?", (last_seq,))}
                fresh = first_occurrences(events, inserted)
            conn.executemany(INSERT_OUTBOX, outbox_rows(fresh, actions_for))
            return self._as_stored(events, fresh)

    # -- status -------------------------------------------------------------------------

    def _schema(self) -> list[str]:
        with self._translated():
            return applied_migrations(self._conn())

    def _size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                total += os.path.getsize(f"{self.path}{suffix}")
        return total

    def integrity_check(self) -> list[str]:
        """SQLite's own check; ['ok'] when the file is sound."""
        return [row[0] for row in self._read("PRAGMA integrity_check")]

    def tuning(self, model: str) -> list[Tuning]:
        """Nothing to tune: SQLite reads the file through the operating system's cache, sized by it."""
        return []

    def close(self) -> None:
        self._closed = True
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._local = threading.local()
