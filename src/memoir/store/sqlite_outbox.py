"""The outbox tables of the SQLite store: entries, checkpoints, and the runner leases.

Kept apart from `sqlite.py` (the event log) as the queue role (`OutboxQueue`): entries are
written by `append` in the event's transaction and removed by `complete_outbox` (or cut
short by `shrink_outbox`) in the job's; a lane's runner holds an `flock` on a file beside
the database, which the kernel releases if the process dies, so a successor takes over at once.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memoir.errors import ConfigError, StoreError
from memoir.model import OutboxEntry
from memoir.store.base import Checkpoint
from memoir.store.sqlite_parts import SQLiteParts, in_chunks

__all__ = ["INSERT_OUTBOX", "SQLiteOutboxTables"]

INSERT_OUTBOX = "INSERT INTO outbox (event_id, timestamp_ms, action, more_event_ids, size) VALUES (?, ?, ?, ?, ?)"
_OUTBOX_COLUMNS = "seq, event_id, timestamp_ms, action, attempts, last_error, more_event_ids"
_LANE = re.compile(r"[a-z0-9_]+")  # lane names become part of a file name


def _row_to_entry(row: Sequence[Any]) -> OutboxEntry:
    seq, event_id, timestamp_ms, action, attempts, last_error, more = row
    return OutboxEntry(
        seq, event_id, timestamp_ms, action, attempts, last_error, tuple(more.split(",")) if more else ()
    )


class _FileLease:
    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class SQLiteOutboxTables(SQLiteParts):
    """Mixed into SQLiteStore; relies on its `path`, `_conn`, `_read`, `atomic` and `_translated`."""

    path: Path

    def next_outbox(self, actions: Sequence[str], limit: int, now_ms: int) -> list[OutboxEntry]:
        """The oldest due entries of these actions, in FIFO order."""
        if not actions:
            return []
        marks = ",".join("?" * len(actions))
        rows = self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox"
            f" WHERE action IN ({marks}) AND failed_at_ms IS NULL AND not_before_ms <= ?"
            " ORDER BY seq LIMIT ?",
            [*actions, now_ms, limit],
        )
        entries: list[OutboxEntry] = []
        events = 0
        for entry in map(_row_to_entry, rows):  # about `limit` events, but always at least one entry
            if entries and events + entry.size > limit:
                break
            entries.append(entry)
            events += entry.size
        return entries

    def split_outbox(self, entry: OutboxEntry, timestamps: dict[str, int]) -> list[OutboxEntry]:
        """Replace a many-event entry by one entry per event (to retry them one by one)."""
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute("DELETE FROM outbox WHERE seq = ?", (entry.seq,))
            singles = []
            for event_id in entry.event_ids:
                ts = timestamps.get(event_id, entry.timestamp_ms)
                cursor = conn.execute(INSERT_OUTBOX, (event_id, ts, entry.action, "", 1))
                singles.append(OutboxEntry(int(cursor.lastrowid or 0), event_id, ts, entry.action))
        return singles

    def complete_outbox(self, action: str, entries: Sequence[OutboxEntry], now_ms: int) -> None:
        """Remove finished entries and move the job's checkpoint, in the caller's transaction."""
        if not entries:
            return
        with self._translated(), self.atomic():
            conn = self._conn()
            for chunk, marks in in_chunks([e.seq for e in entries]):
                conn.execute(f"DELETE FROM outbox WHERE seq IN ({marks})", chunk)
            conn.execute(
                "INSERT INTO checkpoints VALUES (?, ?, ?, 0, ?) ON CONFLICT (job) DO UPDATE SET"
                " last_seq = excluded.last_seq, processed = processed + excluded.processed,"
                " updated_at_ms = excluded.updated_at_ms",
                (action, max(e.seq for e in entries), sum(e.size for e in entries), now_ms),
            )

    def shrink_outbox(self, entry: OutboxEntry, left: OutboxEntry, now_ms: int) -> None:
        """Keep only `left`'s events in `entry`'s row (the others are finished), in the caller's transaction.

        The row must still begin with `entry`'s first event: a row another runner changed in the
        meantime is refused, which rolls back the job's writes instead of doing them twice.
        """
        with self._translated(), self.atomic():
            conn = self._conn()
            changed = conn.execute(
                "UPDATE outbox SET event_id = ?, timestamp_ms = ?, more_event_ids = ?, size = ?"
                " WHERE seq = ? AND event_id = ?",
                (left.event_id, left.timestamp_ms, ",".join(left.more_event_ids), left.size, entry.seq, entry.event_id),
            ).rowcount
            if changed != 1:
                raise StoreError(f"outbox entry {entry.seq} changed under its runner: is a second runner at work?")
            conn.execute(
                "INSERT INTO checkpoints VALUES (?, 0, ?, 0, ?) ON CONFLICT (job) DO UPDATE SET"
                " processed = processed + excluded.processed, updated_at_ms = excluded.updated_at_ms",
                (entry.action, entry.size - left.size, now_ms),
            )

    def fail_outbox(self, entry: OutboxEntry, error: str, retry_at_ms: int, give_up: bool, now_ms: int) -> None:
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, not_before_ms = ?, failed_at_ms = ?"
                " WHERE seq = ?",
                (error[:2000], retry_at_ms, now_ms if give_up else None, entry.seq),
            )
            if give_up:
                conn.execute(
                    "INSERT INTO checkpoints VALUES (?, 0, 0, 1, ?) ON CONFLICT (job) DO UPDATE SET"
                    " failed = failed + 1, updated_at_ms = excluded.updated_at_ms",
                    (entry.action, now_ms),
                )

    def retry_failed(self, action: str | None = None) -> int:
        """Put entries that were given up on back in the queue; returns how many."""
        sql = "UPDATE outbox SET failed_at_ms = NULL, attempts = 0, not_before_ms = 0 WHERE failed_at_ms IS NOT NULL"
        params: list[Any] = []
        if action is not None:
            sql += " AND action = ?"
            params.append(action)
        with self._translated(), self.atomic():
            return self._conn().execute(sql, params).rowcount

    def outbox_pending(self, actions: Sequence[str] | None = None, now_ms: int | None = None) -> int:
        """Entries still to run (not given up on); with `now_ms`, only those due by then."""
        sql = "SELECT coalesce(sum(size), 0) FROM outbox WHERE failed_at_ms IS NULL"
        params: list[Any] = []
        if actions is not None:
            if not actions:
                return 0
            sql += f" AND action IN ({','.join('?' * len(actions))})"
            params.extend(actions)
        if now_ms is not None:
            sql += " AND not_before_ms <= ?"
            params.append(now_ms)
        return int(self._read(sql, params)[0][0])

    def outbox_entries(self, event_id: str | None = None) -> list[OutboxEntry]:
        """Entries still waiting, oldest first; with `event_id`, those covering that event."""
        entries = [_row_to_entry(row) for row in self._read(f"SELECT {_OUTBOX_COLUMNS} FROM outbox ORDER BY seq")]
        return entries if event_id is None else [e for e in entries if event_id in e.event_ids]

    def checkpoints(self) -> list[Checkpoint]:
        rows = self._read("SELECT job, last_seq, processed, failed, updated_at_ms FROM checkpoints ORDER BY job")
        return [Checkpoint(*row) for row in rows]

    @contextmanager
    def periodic_turn(self, name: str) -> Iterator[bool]:
        """Always this runner's turn: it holds its lane's lease, which no other process can."""
        yield True

    def try_runner_lease(self, lane: str = "fast") -> _FileLease | None:
        """The lock of a lane of runners, if no other runner (in any process) holds it.

        Each lane has its own lock file, so a slow lane (LLM-backed jobs) never holds
        up a fast one (store-side jobs).
        """
        if not _LANE.fullmatch(lane):
            raise ConfigError(f"runner lane {lane!r} is not a lane name: use lower-case letters, digits and _")
        lock = f"{self.path}.runner-{lane}.lock"
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
            what = "the disk is full: free disk space, then retry" if full else exc.strerror
            raise StoreError(f"cannot create the runner lock {lock}: {what}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                return None
            raise StoreError(f"cannot lock {lock}: {exc}") from exc
        return _FileLease(fd)
