"""Rows of the event log: events as SQLite rows and back, and the outbox rows an append writes."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from memoir.model import Event
from memoir.store.base import EventQuery
from memoir.store.sqlite_outbox import INSERT_OUTBOX

__all__ = [
    "EVENT_COLUMNS",
    "INSERT_EVENT",
    "INSERT_OUTBOX",
    "event_row",
    "first_occurrences",
    "outbox_rows",
    "row_to_event",
]

EVENT_COLUMNS = "event_id, timestamp_ms, session_id, conversation_id, agent_id, event_type, role, text, metadata"
# An id that is already stored is skipped (idempotent ingest); other constraint errors still fail.
INSERT_EVENT = (
    f"INSERT INTO events ({EVENT_COLUMNS}, ingested_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (event_id) DO NOTHING"
)


def row_to_event(row: Sequence[Any]) -> Event:
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


def event_row(event: Event, now_ms: int) -> tuple[Any, ...]:
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


def first_occurrences(events: Sequence[Event], inserted: set[str]) -> list[Event]:
    """The events stored by this batch: the first occurrence of each inserted id, in order."""
    fresh: list[Event] = []
    for event in events:
        if event.event_id in inserted:
            inserted.discard(event.event_id)
            fresh.append(event)
    return fresh


def outbox_rows(events: Sequence[Event], actions_for: Callable[[Event], Iterable[str]]) -> list[tuple[Any, ...]]:
    """One row per action, covering (in order) every event of the batch that wants it."""
    wanted: dict[str, list[Event]] = {}
    for event in events:
        for action in actions_for(event):
            wanted.setdefault(action, []).append(event)
    return [
        (batch[0].event_id, batch[0].timestamp_ms, action, ",".join(e.event_id for e in batch[1:]), len(batch))
        for action, batch in wanted.items()
    ]


def where_clause(query: EventQuery) -> tuple[str, list[Any]]:
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
    if query.before is not None:
        clauses.append("(timestamp_ms, event_id) < (?, ?)")
        params.extend(query.before)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params
