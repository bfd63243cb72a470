"""The outbox tables of the SQLite store: entries, checkpoints, and the runner leases.

Kept apart from `store.py` (the event log) as the queue role (`OutboxQueue`): entries are
written by `append` in the event's transaction and removed by `complete_outbox` (or cut
short by `shrink_outbox`) in the job's; a lane's runner holds an `flock` on a file beside
the database, which the kernel releases if the process dies, so a successor takes over at once.
Failures, retries, counts and checkpoints are the shared part (`memoir.store.sql.outbox`).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from memoir.errors import ConfigError, StoreError
from memoir.model import OutboxEntry
from memoir.store.sql.outbox import OUTBOX_COLUMNS, QueueTables, row_to_entry, take_about
from memoir.store.sqlite.parts import SQLiteParts, in_chunks

__all__ = ["INSERT_OUTBOX", "SQLiteOutboxTables"]

INSERT_OUTBOX = "INSERT INTO outbox (event_id, timestamp_ms, action, more_event_ids, size) VALUES (?, ?, ?, ?, ?)"
_LANE = re.compile(r"[a-z0-9_]+")  # lane names become part of a file name


class _FileLease:
    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class SQLiteOutboxTables(QueueTables, SQLiteParts):
    """Mixed into SQLiteStore; relies on its `path`, `_conn`, `_read`, `atomic` and `_translated`."""

    path: Path

    def next_outbox(self, actions: Sequence[str], limit: int, now_ms: int) -> list[OutboxEntry]:
        """The oldest due entries of these actions, in FIFO order."""
        if not actions:
            return []
        marks = ",".join("?" * len(actions))
        rows = self._read(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox"
            f" WHERE action IN ({marks}) AND failed_at_ms IS NULL AND not_before_ms <= ?"
            " ORDER BY seq LIMIT ?",
            [*actions, now_ms, limit],
        )
        return take_about([row_to_entry(row) for row in rows], limit)

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
            self._checkpoint_done(action, entries, now_ms)

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
            self._checkpoint_progress(entry.action, entry.size - left.size, now_ms)

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
