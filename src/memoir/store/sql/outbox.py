"""The outbox's shared part (both backends): entries as rows, failures, retries, counts, checkpoints.

How runners take entries differs, and stays with each backend: on SQLite one runner per lane
holds a file lock and reads the queue; on PostgreSQL runners in many processes claim entries.
What a claim adds to the shared statements is `_release`: the columns a failed or retried
entry gives up, so that whichever runner is free takes it next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from memoir.model import OutboxEntry
from memoir.store.records import Checkpoint
from memoir.store.sql.parts import SQLParts

__all__ = ["OUTBOX_COLUMNS", "QueueTables", "row_to_entry", "take_about"]

OUTBOX_COLUMNS = "seq, event_id, timestamp_ms, action, attempts, last_error, more_event_ids"
# A job's checkpoint after entries finished: the last seq (never back), what was processed, when.
_DONE = (
    "INSERT INTO checkpoints VALUES (?, ?, ?, 0, ?) ON CONFLICT (job) DO UPDATE SET"
    " last_seq = {greatest}(checkpoints.last_seq, excluded.last_seq),"
    " processed = checkpoints.processed + excluded.processed, updated_at_ms = excluded.updated_at_ms"
)
_PROGRESS = (
    "INSERT INTO checkpoints VALUES (?, 0, ?, 0, ?) ON CONFLICT (job) DO UPDATE SET"
    " processed = checkpoints.processed + excluded.processed, updated_at_ms = excluded.updated_at_ms"
)
_GAVE_UP = (
    "INSERT INTO checkpoints VALUES (?, 0, 0, 1, ?) ON CONFLICT (job) DO UPDATE SET"
    " failed = checkpoints.failed + 1, updated_at_ms = excluded.updated_at_ms"
)


def row_to_entry(row: Sequence[Any]) -> OutboxEntry:
    seq, event_id, timestamp_ms, action, attempts, last_error, more = row
    return OutboxEntry(
        seq, event_id, timestamp_ms, action, attempts, last_error, tuple(more.split(",")) if more else ()
    )


def take_about(entries: Sequence[OutboxEntry], limit: int) -> list[OutboxEntry]:
    """The first entries covering about `limit` events, but always at least one entry."""
    taken: list[OutboxEntry] = []
    events = 0
    for entry in entries:
        if taken and events + entry.size > limit:
            break
        taken.append(entry)
        events += entry.size
    return taken


class QueueTables(SQLParts):
    _release: ClassVar[str] = ""  # ", column = value" pairs a failed or retried entry gives up

    def _checkpoint_done(self, action: str, entries: Sequence[OutboxEntry], now_ms: int) -> None:
        self._run(_DONE, (action, max(e.seq for e in entries), sum(e.size for e in entries), now_ms))

    def _checkpoint_progress(self, action: str, processed: int, now_ms: int) -> None:
        self._run(_PROGRESS, (action, processed, now_ms))

    def fail_outbox(self, entry: OutboxEntry, error: str, retry_at_ms: int, give_up: bool, now_ms: int) -> None:
        """Count a failed try; the entry is due again at `retry_at_ms`, or given up on."""
        with self._translated(), self.atomic():
            self._run(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, not_before_ms = ?, failed_at_ms = ?"
                f"{self._release} WHERE seq = ?",
                (error[:2000], retry_at_ms, now_ms if give_up else None, entry.seq),
            )
            if give_up:
                self._run(_GAVE_UP, (entry.action, now_ms))

    def retry_failed(self, action: str | None = None) -> int:
        """Put entries that were given up on back in the queue; returns how many."""
        sql = (
            f"UPDATE outbox SET failed_at_ms = NULL, attempts = 0, not_before_ms = 0{self._release}"
            " WHERE failed_at_ms IS NOT NULL"
        )
        params: list[Any] = []
        if action is not None:
            sql += " AND action = ?"
            params.append(action)
        with self._translated(), self.atomic():
            return int(self._run(sql, params).rowcount)

    def outbox_pending(self, actions: Sequence[str] | None = None, now_ms: int | None = None) -> int:
        """Entries still to run (not given up on); with `now_ms`, only those due by then."""
        if actions is not None and not actions:
            return 0
        sql = "SELECT coalesce(sum(size), 0) FROM outbox WHERE failed_at_ms IS NULL"
        params: list[Any] = []
        if now_ms is not None:
            sql += " AND not_before_ms <= ?"
            params.append(now_ms)
        if actions is None:
            return int(self._rows(sql, params)[0][0])
        return sum(int(row[0]) for row in self._rows_in(sql + " AND action {in}", list(actions), params))

    def outbox_entries(self, event_id: str | None = None) -> list[OutboxEntry]:
        """Entries still waiting, oldest first; with `event_id`, those covering that event."""
        entries = [row_to_entry(row) for row in self._rows(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY seq")]
        return entries if event_id is None else [e for e in entries if event_id in e.event_ids]

    def checkpoints(self) -> list[Checkpoint]:
        rows = self._rows("SELECT job, last_seq, processed, failed, updated_at_ms FROM checkpoints ORDER BY job")
        return [Checkpoint(*row) for row in rows]
