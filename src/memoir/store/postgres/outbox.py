"""The outbox of the PostgreSQL store: entries claimed by runners in many processes, checkpoints.

On SQLite one runner per lane works a home, so entries need no owner. Here runners in any
number of `memoir serve` and `memoir worker` processes share one queue, so an entry is
*claimed* before it is worked:

- Each store holds an owner key: a session advisory lock on a connection of its own
  (`pg_advisory_lock(OWNER_NAMESPACE, key)`). PostgreSQL drops that lock when the process
  or its connection dies, so "the claimer is alive" is one look at `pg_locks`, with no lease
  to expire and no clock to trust.
- `next_outbox` claims due entries (`claimed_by = key`) whose claimer is nobody, itself, or
  dead, oldest first, `FOR UPDATE SKIP LOCKED`, in small batches. Entries are written per
  action *and conversation*, and a conversation whose entries another live owner holds is
  skipped: one conversation's events go through a job in order, as with one runner.
- `complete_outbox` and `shrink_outbox` run in the job's transaction and touch only rows still
  claimed by this owner; a row taken over meanwhile (this owner was thought dead) fails the
  job's transaction, so its writes roll back instead of being done twice: exactly once.
"""

from __future__ import annotations

import contextlib
import re
import threading
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from memoir.errors import ConfigError, StoreError
from memoir.model import OutboxEntry
from memoir.store.postgres.parts import CLAIM_LOCK, LOCK_NAMESPACE, OWNER_NAMESPACE, PERIODIC_NAMESPACE, PostgresParts
from memoir.store.sql.outbox import OUTBOX_COLUMNS, QueueTables, row_to_entry, take_about

__all__ = ["INSERT_OUTBOX", "SCHEMA", "PostgresOutboxTables"]

SCHEMA = """
CREATE TABLE outbox (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id TEXT NOT NULL,
    timestamp_ms BIGINT NOT NULL,
    action TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    not_before_ms BIGINT NOT NULL DEFAULT 0,
    failed_at_ms BIGINT,
    more_event_ids TEXT NOT NULL DEFAULT '',
    size INTEGER NOT NULL DEFAULT 1,
    claimed_by INTEGER
);
CREATE INDEX outbox_by_action ON outbox (action, seq) WHERE failed_at_ms IS NULL;
CREATE INDEX outbox_claims ON outbox (claimed_by) WHERE claimed_by IS NOT NULL;
CREATE TABLE checkpoints (
    job TEXT PRIMARY KEY,
    last_seq BIGINT NOT NULL,
    processed BIGINT NOT NULL,
    failed BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);
CREATE SEQUENCE outbox_owners AS INTEGER CYCLE;
"""

INSERT_OUTBOX = (
    "INSERT INTO outbox (event_id, timestamp_ms, action, more_event_ids, size, conversation_id)"
    " VALUES (%s, %s, %s, %s, %s, %s)"
)
_LANE = re.compile(r"[a-z0-9_]+")
_LIVE_OWNERS = (
    f"SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND classid = {OWNER_NAMESPACE}"
    " AND objsubid = 2 AND granted"
)
# Due, unfailed rows of these actions that nobody alive holds, except conversations another
# live owner is working: they stay with it, so a conversation is worked in order.
_CLAIMABLE = f"""
WITH live AS ({_LIVE_OWNERS}),
busy AS (
    SELECT DISTINCT action, conversation_id FROM outbox
    WHERE claimed_by IS NOT NULL AND claimed_by <> %(me)s AND claimed_by IN (SELECT objid FROM live)
)
SELECT seq FROM outbox o
WHERE o.action = ANY(%(actions)s) AND o.failed_at_ms IS NULL AND o.not_before_ms <= %(now)s
  AND (o.claimed_by IS NULL OR o.claimed_by = %(me)s OR o.claimed_by NOT IN (SELECT objid FROM live))
  AND NOT EXISTS (SELECT 1 FROM busy b WHERE b.action = o.action AND b.conversation_id = o.conversation_id)
ORDER BY o.seq LIMIT %(limit)s FOR UPDATE OF o SKIP LOCKED
"""


class _LaneLease:
    """One runner per lane in this process; other processes run their own (claims keep them apart)."""

    def __init__(self, lock: threading.Lock) -> None:
        self._lock: threading.Lock | None = lock

    def release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None


class PostgresOutboxTables(QueueTables, PostgresParts):
    """Mixed into PostgresStore; relies on `_owner_key()` (the live owner key of this store)."""

    _release = ", claimed_by = NULL"  # a failed or retried entry is free for whichever runner is free

    _lane_locks: dict[str, threading.Lock]

    def _owner_key(self) -> int:
        raise NotImplementedError

    def _owner_statement(self, sql: str) -> Any:
        """The first value of `sql` run on the owner connection (session locks live there)."""
        raise NotImplementedError

    def next_outbox(self, actions: Sequence[str], limit: int, now_ms: int) -> list[OutboxEntry]:
        """Claim the oldest due entries of these actions (about `limit` events, at least one entry)."""
        if not actions:
            return []
        me = self._owner_key()
        with self._translated(), self.atomic():
            conn = self._conn()
            # One claimer at a time: the "busy conversations" it sees must not change under it.
            conn.execute(f"SELECT pg_advisory_xact_lock({LOCK_NAMESPACE}, {CLAIM_LOCK})")
            params = {"me": me, "actions": list(actions), "now": now_ms, "limit": limit}
            seqs = [row[0] for row in conn.execute(_CLAIMABLE, params)]
            if not seqs:
                return []
            rows = conn.execute(
                f"UPDATE outbox SET claimed_by = %s WHERE seq = ANY(%s) RETURNING {OUTBOX_COLUMNS}", (me, seqs)
            ).fetchall()
            entries = take_about(sorted(map(row_to_entry, rows), key=lambda entry: entry.seq), limit)
            left = [row[0] for row in rows if row[0] > entries[-1].seq]
            if left:  # claimed but not taken: free for others (and for this owner's next call)
                conn.execute("UPDATE outbox SET claimed_by = NULL WHERE seq = ANY(%s)", (left,))
        return entries

    def _mine(self, conn: psycopg.Connection[Any], seqs: list[int], sql: str, params: Sequence[Any]) -> None:
        """Run `sql` (ending in a `seq` filter) on rows still claimed by this owner; refuse otherwise."""
        changed = conn.execute(sql + " AND claimed_by = %s", (*params, self._owner_key())).rowcount
        if changed != len(seqs):
            raise StoreError(
                f"outbox entries {seqs[:5]} were taken over by another runner (was this process thought dead?):"
                " the job's writes are rolled back, and the entries run once, there"
            )

    def split_outbox(self, entry: OutboxEntry, timestamps: dict[str, int]) -> list[OutboxEntry]:
        """Replace a many-event entry by one entry per event (to retry them one by one)."""
        with self._translated(), self.atomic():
            conn = self._conn()
            found = conn.execute(
                "DELETE FROM outbox WHERE seq = %s AND claimed_by = %s RETURNING conversation_id",
                (entry.seq, self._owner_key()),
            ).fetchone()
            if found is None:
                raise StoreError(f"outbox entry {entry.seq} was taken over by another runner")
            singles = []
            for event_id in entry.event_ids:
                ts = timestamps.get(event_id, entry.timestamp_ms)
                seq = conn.execute(
                    "INSERT INTO outbox (event_id, timestamp_ms, action, size, conversation_id, claimed_by)"
                    " VALUES (%s, %s, %s, 1, %s, %s) RETURNING seq",
                    (event_id, ts, entry.action, found[0], self._owner_key()),
                ).fetchone()
                singles.append(OutboxEntry(int(seq[0]) if seq else 0, event_id, ts, entry.action))
        return singles

    def complete_outbox(self, action: str, entries: Sequence[OutboxEntry], now_ms: int) -> None:
        """Remove finished entries and move the job's checkpoint, in the caller's transaction."""
        if not entries:
            return
        seqs = [e.seq for e in entries]
        with self._translated(), self.atomic():
            conn = self._conn()
            self._mine(conn, seqs, "DELETE FROM outbox WHERE seq = ANY(%s)", (seqs,))
            self._checkpoint_done(action, entries, now_ms)

    def shrink_outbox(self, entry: OutboxEntry, left: OutboxEntry, now_ms: int) -> None:
        """Keep only `left`'s events in `entry`'s row (the others are finished), in the caller's transaction."""
        with self._translated(), self.atomic():
            conn = self._conn()
            self._mine(
                conn,
                [entry.seq],
                "UPDATE outbox SET event_id = %s, timestamp_ms = %s, more_event_ids = %s, size = %s"
                " WHERE seq = %s AND event_id = %s",
                (left.event_id, left.timestamp_ms, ",".join(left.more_event_ids), left.size, entry.seq, entry.event_id),
            )
            self._checkpoint_progress(entry.action, entry.size - left.size, now_ms)

    @contextmanager
    def periodic_turn(self, name: str) -> Iterator[bool]:
        """Whether no other process ticks `name` now: a session advisory lock held for the block."""
        key = zlib.crc32(name.encode()) & 0x7FFFFFFF
        with self._translated():
            taken = self._owner_statement(f"SELECT pg_try_advisory_lock({PERIODIC_NAMESPACE}, {key})")
        try:
            yield bool(taken)
        finally:
            if taken:
                with contextlib.suppress(Exception):  # a lost connection released it already
                    self._owner_statement(f"SELECT pg_advisory_unlock({PERIODIC_NAMESPACE}, {key})")

    def try_runner_lease(self, lane: str = "fast") -> _LaneLease | None:
        """This process's lease on a lane: one runner per lane here, any number of processes."""
        if not _LANE.fullmatch(lane):
            raise ConfigError(f"runner lane {lane!r} is not a lane name: use lower-case letters, digits and _")
        lock = self._lane_locks.setdefault(lane, threading.Lock())
        return _LaneLease(lock) if lock.acquire(blocking=False) else None
