"""Outbox entries: durable to-do items written in the same transaction as their event.

Every job that derives something from events (the session catalogue now; the
search index, fact extraction and the timeline later) owns one action. Ingest
writes one entry per (event, action) for each registered job that wants the
event, so jobs fail, retry and catch up independently. An entry disappears only
after its job succeeded; whatever is left after a crash is replayed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from memoir.errors import InvalidEvent

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

    @property
    def key(self) -> str:
        """Seed 002's key form, `outbox:{sequence:020}`."""
        return f"outbox:{self.seq:020d}"

    @classmethod
    def for_index(cls, seq: int, event_id: str, timestamp_ms: int) -> OutboxEntry:
        return cls(seq, event_id, timestamp_ms, OutboxAction.INDEX_EVENT)

    @classmethod
    def for_toc(cls, seq: int, event_id: str, timestamp_ms: int) -> OutboxEntry:
        return cls(seq, event_id, timestamp_ms, OutboxAction.UPDATE_TOC)

    def to_bytes(self) -> bytes:
        return json.dumps(
            {"seq": self.seq, "event_id": self.event_id, "timestamp_ms": self.timestamp_ms, "action": str(self.action)},
            separators=(",", ":"),
        ).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> OutboxEntry:
        try:
            raw = json.loads(data)
            return cls(int(raw["seq"]), str(raw["event_id"]), int(raw["timestamp_ms"]), str(raw["action"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidEvent("outbox", f"not an outbox entry: {exc}") from None
