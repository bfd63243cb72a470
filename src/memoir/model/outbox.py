"""Outbox entries: durable to-do items written in the same transaction as their events.

Every job that derives something from events (the session catalogue, the search
index, fact extraction, later the timeline) owns one action. Ingest writes, for each
registered job, one entry covering the events of that call the job wants, so jobs
fail, retry and catch up independently, and a batch of a thousand events costs a
few rows, not thousands. An entry disappears only after its job succeeded on all of
its events; whatever is left after a crash is replayed. An entry that fails is split
into one entry per event, which then retry (and are given up on) one by one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

__all__ = ["OutboxAction", "OutboxEntry"]


class OutboxAction(StrEnum):
    """The built-in actions. Jobs added by users use their own names."""

    TRACK_SESSION = "track_session"  # session catalogue (this release)
    INDEX_EVENT = "index_event"  # keyword + vector index (search)
    UPDATE_TOC = "update_toc"  # segments, summaries, grips (timeline)


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    seq: int  # monotonic, never reused: the FIFO order
    event_id: str
    timestamp_ms: int
    action: str
    attempts: int = 0
    last_error: str | None = None
    more_event_ids: tuple[str, ...] = ()  # the other events this entry covers

    @property
    def event_ids(self) -> tuple[str, ...]:
        return (self.event_id, *self.more_event_ids)

    @property
    def size(self) -> int:
        return 1 + len(self.more_event_ids)

    @property
    def key(self) -> str:
        """Seed 002's key form, `outbox:{sequence:020}`."""
        return f"outbox:{self.seq:020d}"

    def without_first(self, done: int, timestamp_ms: int) -> OutboxEntry:
        """What is left once the first `done` (fewer than `size`) events are finished.

        `timestamp_ms` is the new first event's. The `seq` stays: what is left keeps its place in FIFO order.
        """
        left = self.event_ids[done:]
        return replace(self, event_id=left[0], more_event_ids=left[1:], timestamp_ms=timestamp_ms)
