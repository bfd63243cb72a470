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
- sqlite3 errors are translated at one boundary (`_translate`) by SQLite's result
  code, not by message text, which differs between SQLite versions.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memoir.errors import HomeError, StoreError
from memoir.model import Event, EventType, now_ms
from memoir.store.base import EventQuery, SessionInfo, StoreStats
from memoir.store.migrations import applied_migrations, apply_migrations
from memoir.store.sqlite_memories import SQLiteMemoryTables
from memoir.store.sqlite_outbox import INSERT_OUTBOX, SQLiteOutboxTables
from memoir.store.sqlite_search import SQLiteSearchTables

__all__ = ["SQLiteStore"]

_EVENT_COLUMNS = "event_id, timestamp_ms, session_id, conversation_id, agent_id, event_type, role, text, metadata"
# An id that is already stored is skipped (idempotent ingest); other constraint errors still fail.
_INSERT_EVENT = (
    f"INSERT INTO events ({_EVENT_COLUMNS}, ingested_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (event_id) DO NOTHING"
)


def _row_to_event(row: Sequence[Any]) -> Event:
    # Rows were validated on the way in and the database refuses to change them.
    *head, metadata = row
    return Event._trusted((*head, json.loads(metadata) if metadata != "{}" else None))


_quote = json.encoder.encode_basestring  # C-accelerated JSON string quoting


def _metadata_json(metadata: Mapping[str, str]) -> str:
    # Metadata is a validated str -> str map, so quoting each string is the whole of JSON
    # encoding; json.dumps costs several times more for these small maps.
    if not metadata:
        return "{}"
    return "{" + ",".join([_quote(k) + ":" + _quote(v) for k, v in metadata.items()]) + "}"


def _event_row(event: Event, now_ms: int) -> tuple[Any, ...]:
    # Enum members are str subclasses and bind as their value; `.value` would be slower.
    return (
        event.event_id,
        event.timestamp_ms,
        event.session_id,
        event.conversation_id,
        event.agent_id,
        event.event_type,
        event.role,
        event.text,
        _metadata_json(event.metadata),
        now_ms,
    )


def _first_occurrences(events: Sequence[Event], inserted: set[str]) -> list[Event]:
    """The events stored by this batch: the first occurrence of each inserted id, in order."""
    fresh: list[Event] = []
    for event in events:
        if event.event_id in inserted:
            inserted.discard(event.event_id)
            fresh.append(event)
    return fresh


def _outbox_rows(events: Sequence[Event], actions_for: Callable[[Event], Iterable[str]]) -> list[tuple[Any, ...]]:
    """One row per action, covering (in order) every event of the batch that wants it."""
    wanted: dict[str, list[Event]] = {}
    for event in events:
        for action in actions_for(event):
            wanted.setdefault(action, []).append(event)
    return [
        (batch[0].event_id, batch[0].timestamp_ms, action, ",".join(e.event_id for e in batch[1:]), len(batch))
        for action, batch in wanted.items()
    ]


# Primary result code -> the error to raise and its message ({path}, {text}: the driver's own).
_LOCKED = (StoreError, "the database {path} stayed locked by another process: retry, or raise store.busy_timeout")
_DAMAGED = (StoreError, "{path} is damaged or not a memoir database ({text}); restore it from a backup")
_BY_CODE: dict[int, tuple[type[StoreError], str]] = {
    sqlite3.SQLITE_READONLY: (
        HomeError,
        "the database {path} is read-only: make it (and its folder) writable by this user",
    ),
    sqlite3.SQLITE_BUSY: _LOCKED,
    sqlite3.SQLITE_LOCKED: _LOCKED,
    sqlite3.SQLITE_FULL: (StoreError, "no space left for {path}: free disk space and retry"),
    sqlite3.SQLITE_CANTOPEN: (
        HomeError,
        "cannot open the database {path}: check that its folder exists and is writable",
    ),
    sqlite3.SQLITE_CORRUPT: _DAMAGED,
    sqlite3.SQLITE_NOTADB: _DAMAGED,
    sqlite3.SQLITE_IOERR: (
        StoreError,
        "I/O error on {path} ({text}): check the disk (space, permissions, health), then retry",
    ),
}


def _translate(exc: sqlite3.Error, path: Path) -> StoreError:
    """sqlite3 errors become StoreErrors whose message says what to do.

    Chosen by the primary result code (the low byte of the extended code SQLite
    reports); errors without one, such as a misused cursor, get the generic message.
    """
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    found = _BY_CODE.get(code & 0xFF) if code is not None else None
    if found is None:
        name = getattr(exc, "sqlite_errorname", None)
        return StoreError(f"database error on {path}: {exc}" + (f" ({name})" if name else ""))
    error, message = found
    return error(message.format(path=path, text=exc))


class SQLiteStore(SQLiteOutboxTables, SQLiteSearchTables, SQLiteMemoryTables):
    backend = "sqlite"

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
        self._check_folder()
        with self._translated():
            conn = self._conn()
            conn.execute("PRAGMA journal_mode=WAL")
            apply_migrations(conn)

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
            # check_same_thread=False only so close() may close every thread's connection;
            # each connection is still used by the one thread that made it.
            conn = sqlite3.connect(
                self.path, timeout=self._busy_timeout_s, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA synchronous={self._synchronous}")
            conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_s * 1000)}")
            self._local.conn = conn
            self._local.depth = 0
            with self._lock:
                self._connections.append(conn)
        return conn

    def replayable_writes(self) -> None:
        """Declare this thread's writes replayable: commit them without waiting for the disk.

        For the outbox runner: a job's writes commit together with the removal of its
        outbox entries, so if a power cut loses that commit the entries come back and
        the work is redone. WAL with synchronous=NORMAL never corrupts the file; it
        may only lose the newest commits, which is exactly what replay covers.
        """
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
            raise _translate(exc, self.path) from exc

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
            with self._translated():
                conn.execute("BEGIN IMMEDIATE")
            self._local.depth = 1
            try:
                yield
            except BaseException:
                self._local.depth = 0
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            self._local.depth = 0
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise _translate(exc, self.path) from exc

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._translated():
            return self._conn().execute(sql, params).fetchall()

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
            conn.executemany(_INSERT_EVENT, [_event_row(e, now) for e in events])
            if conn.total_changes - before == len(events):
                fresh = list(events)  # the usual case: every id was new, no lookup needed
            else:
                inserted = {row[0] for row in conn.execute("SELECT event_id FROM events WHERE seq > ?", (last_seq,))}
                fresh = _first_occurrences(events, inserted)
            conn.executemany(INSERT_OUTBOX, _outbox_rows(fresh, actions_for))
            if len(fresh) == len(events):
                return list(events)
            # Some ids were stored before (or repeated in this batch): the stored event stands.
            stored = self.get_many([e.event_id for e in events])
        return [stored[e.event_id] for e in events]

    def get(self, event_id: str) -> Event | None:
        return self.get_many([event_id]).get(event_id)

    def get_many(self, event_ids: Sequence[str]) -> dict[str, Event]:
        unique = list(dict.fromkeys(event_ids))
        rows = self._read_in(f"SELECT {_EVENT_COLUMNS} FROM events WHERE event_id IN ({{marks}})", unique)
        return {row[0]: _row_to_event(row) for row in rows}

    def scan(self, query: EventQuery) -> list[Event]:
        where, params = self._where(query)
        sql = f"SELECT {_EVENT_COLUMNS} FROM events{where} ORDER BY timestamp_ms, event_id LIMIT ?"
        return [_row_to_event(row) for row in self._read(sql, [*params, query.limit])]

    def count_events(self, query: EventQuery | None = None) -> int:
        where, params = self._where(query or EventQuery())
        return int(self._read(f"SELECT count(*) FROM events{where}", params)[0][0])

    @staticmethod
    def _where(query: EventQuery) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        for column in ("conversation_id", "session_id", "agent_id"):
            value = getattr(query, column)
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if query.since_ms is not None:
            clauses.append("timestamp_ms >= ?")
            params.append(query.since_ms)
        if query.until_ms is not None:
            clauses.append("timestamp_ms < ?")
            params.append(query.until_ms)
        if query.after is not None:
            clauses.append("(timestamp_ms, event_id) > (?, ?)")
            params.extend(query.after)
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params

    # -- session catalogue (derived) ----------------------------------------------------

    def track_sessions(self, events: Sequence[Event]) -> None:
        # Fold the batch per session first: one upsert per session, not one per event.
        spans: dict[tuple[str, str, str], list[int]] = {}
        for e in events:
            ms = e.timestamp_ms
            span = spans.get((e.conversation_id, e.session_id, e.agent_id or ""))
            if span is None:
                spans[(e.conversation_id, e.session_id, e.agent_id or "")] = span = [ms, ms, 0, 0, 0]
            span[0], span[1], span[2] = min(span[0], ms), max(span[1], ms), span[2] + 1
            if e.event_type is EventType.SESSION_START:
                span[3] = 1
            elif e.event_type is EventType.SESSION_END:
                span[4] = 1
        with self._translated(), self.atomic():
            self._conn().executemany(
                "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (conversation_id, session_id, agent_id) DO UPDATE SET"
                " first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms),"
                " event_count = event_count + excluded.event_count, started = max(started, excluded.started),"
                " ended = max(ended, excluded.ended)",
                [(*key, *span) for key, span in spans.items()],
            )

    def sessions(self, conversation_id: str | None = None) -> Iterator[SessionInfo]:
        sql = "SELECT * FROM sessions"
        params = [] if conversation_id is None else [conversation_id]
        sql += "" if conversation_id is None else " WHERE conversation_id = ?"
        for row in self._read(sql + " ORDER BY first_ms", params):
            conv, session, agent, first, last, count, started, ended = row
            yield SessionInfo(conv, session, agent or None, first, last, count, bool(started), bool(ended))

    # -- status -------------------------------------------------------------------------

    def stats(self) -> StoreStats:
        def by_action(failed: bool) -> dict[str, int]:
            condition = "IS NOT NULL" if failed else "IS NULL"
            rows = self._read(f"SELECT action, sum(size) FROM outbox WHERE failed_at_ms {condition} GROUP BY action")
            return dict(rows)

        with self._translated():
            schema = applied_migrations(self._conn())
        return StoreStats(
            backend=self.backend,
            location=self.location,
            size_bytes=self._size_bytes(),
            schema=schema,
            events=self.count_events(),
            sessions=int(self._read("SELECT count(*) FROM sessions")[0][0]),
            conversations=int(self._read("SELECT count(DISTINCT conversation_id) FROM events")[0][0]),
            outbox_pending=by_action(False),
            outbox_failed=by_action(True),
        )

    def _size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                total += os.path.getsize(f"{self.path}{suffix}")
        return total

    def integrity_check(self) -> list[str]:
        """SQLite's own check; ['ok'] when the file is sound."""
        return [row[0] for row in self._read("PRAGMA integrity_check")]

    def close(self) -> None:
        self._closed = True
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._local = threading.local()
