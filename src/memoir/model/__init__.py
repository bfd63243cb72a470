"""Domain types and their validation rules. No I/O lives here."""

from memoir.model.admission import admit
from memoir.model.event import DEFAULT_CONVERSATION, Event, EventRole, EventType, parse_timestamp
from memoir.model.ids import EventKey, is_ulid, new_ulid, now_ms, ulid_timestamp_ms
from memoir.model.memory import Memory, MemoryKind, Severity, normalise_content
from memoir.model.outbox import OutboxAction, OutboxEntry

__all__ = [
    "DEFAULT_CONVERSATION",
    "Event",
    "EventKey",
    "EventRole",
    "EventType",
    "Memory",
    "MemoryKind",
    "OutboxAction",
    "OutboxEntry",
    "Severity",
    "admit",
    "is_ulid",
    "new_ulid",
    "normalise_content",
    "now_ms",
    "parse_timestamp",
    "ulid_timestamp_ms",
]
