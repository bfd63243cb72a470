"""Rows of the event log, for either backend: events as rows and back, the outbox rows an append writes."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from memoir.model import Event, EventType
from memoir.store.records import EventQuery

__all__ = [
    "EVENT_COLUMNS",
    "event_row",
    "first_occurrences",
    "outbox_rows",
    "row_to_event",
    "session_rows",
    "where_clause",
]

EVENT_COLUMNS = "event_id, timestamp_ms, session_id, conversation_id, agent_id, event_type, role, text, metadata"


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


def outbox_rows(
    events: Sequence[Event], actions_for: Callable[[Event], Iterable[str]], *, per_conversation: bool = False
) -> list[tuple[Any, ...]]:
    """One row per action, covering (in order) every event of the batch that wants it.

    Rows are (first event id, its timestamp, action, the other ids comma-separated, size); with
    `per_conversation`, one row per action and conversation, the conversation appended, so that
    runners in several processes can take a conversation's entries one runner at a time.
    """
    wanted: dict[tuple[str, str], list[Event]] = {}
    for event in events:
        for action in actions_for(event):
            key = (action, event.conversation_id if per_conversation else "")
            wanted.setdefault(key, []).append(event)
    return [
        (batch[0].event_id, batch[0].timestamp_ms, action, ",".join(e.event_id for e in batch[1:]), len(batch))
        + ((conversation,) if per_conversation else ())
        for (action, conversation), batch in wanted.items()
    ]


def where_clause(query: EventQuery, mark: str = "?") -> tuple[str, list[Any]]:
    """The WHERE of an event scan, with `mark` as the driver's placeholder (`?` SQLite, `%s` psycopg)."""
    clauses: list[str] = []
    params: list[Any] = []
    for column in ("conversation_id", "session_id", "agent_id"):
        value = getattr(query, column)
        if value is not None:
            clauses.append(f"{column} = {mark}")
            params.append(value)
    if query.since_ms is not None:
        clauses.append(f"timestamp_ms >= {mark}")
        params.append(query.since_ms)
    if query.until_ms is not None:
        clauses.append(f"timestamp_ms < {mark}")
        params.append(query.until_ms)
    if query.after is not None:
        clauses.append(f"(timestamp_ms, event_id) > ({mark}, {mark})")
        params.extend(query.after)
    if query.before is not None:
        clauses.append(f"(timestamp_ms, event_id) < ({mark}, {mark})")
        params.extend(query.before)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def session_rows(events: Sequence[Event]) -> list[tuple[Any, ...]]:
    """The batch folded per session, one `sessions` row each (conversation, session, agent or "",
    first ms, last ms, events, started, ended), in key order: one upsert per session, not per
    event, and concurrent writers lock the rows in the same order."""
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
    return [(*key, *span) for key, span in sorted(spans.items())]
