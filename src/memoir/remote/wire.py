"""The JSON form of what the façade takes and returns, both ways, and of its errors.

The REST API writes these shapes and `MemoirClient` reads them back into the very types
`Memoir` returns (`Event`, `Memory`, `Hit`, `Context`, `TocNode`, ...), so code moving from
an embedded home to a server changes one line. Times are ISO 8601 in UTC; tuples travel as
lists. An error travels as `{"error": {"type", "message", "param", "reason", "index"}}` and
comes back as the same `MemoirError` class with the same message and fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date
from typing import Any

import memoir.errors as errors
from memoir.errors import MemoirError, RuntimeFailure, UserError
from memoir.facade.context import Injection
from memoir.facade.doctor import Finding
from memoir.facade.overview import ConversationInfo, DayCount, LedgerDay
from memoir.facade.views import EventPage, Status
from memoir.model import Event, Memory
from memoir.model.event import parse_timestamp
from memoir.model.timeline import Grip, GripContext, TocBullet, TocLevel, TocNode, TocPage
from memoir.retrieval import Context, Hit
from memoir.store import Checkpoint
from memoir.vault.book import MemoryNotFound
from memoir.vault.files import VaultFileError
from memoir.workers.scheduler import JobStatus

__all__ = [
    "context_from",
    "context_to",
    "conversation_from",
    "day_count_from",
    "error_body",
    "error_from",
    "event_page_from",
    "event_page_to",
    "finding_from",
    "grip_context_from",
    "grip_context_to",
    "hit_from",
    "injection_to",
    "job_status_from",
    "ledger_day_from",
    "memory_from",
    "status_from",
    "toc_node_from",
    "toc_page_from",
    "toc_page_to",
]

# Every error a server may send, by the name it travels under.
ERROR_CLASSES: dict[str, type[MemoirError]] = {
    name: getattr(errors, name) for name in errors.__all__ if isinstance(getattr(errors, name), type)
}
ERROR_CLASSES.update(MemoryNotFound=MemoryNotFound, VaultFileError=VaultFileError)
_ERROR_FIELDS = ("field", "reason", "index", "event_id", "memory_id")


# -- memories ---------------------------------------------------------------------------


def memory_from(data: Mapping[str, Any]) -> Memory:
    fields = {name: data[name] for name in Memory.__dataclass_fields__ if name in data and name != "extra"}
    fields["tags"] = tuple(fields.get("tags", ()))
    fields["event_ids"] = tuple(fields.get("event_ids", ()))
    return Memory(**fields)


# -- events -----------------------------------------------------------------------------


def event_page_to(page: EventPage) -> dict[str, Any]:
    return {"events": [event.to_dict() for event in page], "next_cursor": page.next_cursor}


def event_page_from(data: Mapping[str, Any]) -> EventPage:
    return EventPage([Event.from_dict(e) for e in data["events"]], data.get("next_cursor"))


# -- search and context -----------------------------------------------------------------


def hit_from(data: Mapping[str, Any]) -> Hit:
    fields = dict(data)
    fields["created_at"] = parse_timestamp(fields["created_at"], "created_at")
    for name in ("event_ids", "context", "context_event_ids", "sources"):
        fields[name] = tuple(fields.get(name, ()))
    return Hit(**fields)


def context_to(context: Context) -> dict[str, Any]:
    return {"text": context.text, "hits": [hit.to_dict() for hit in context.hits], "tokens": context.tokens}


def context_from(data: Mapping[str, Any]) -> Context:
    return Context(data["text"], [hit_from(h) for h in data.get("hits", [])], data.get("tokens", 0))


def injection_to(injection: Injection) -> dict[str, Any]:
    return {"messages": injection.messages, "context": context_to(injection.context)}


# -- the timeline -----------------------------------------------------------------------


def toc_node_from(data: Mapping[str, Any]) -> TocNode:
    fields = {name: data[name] for name in TocNode.__dataclass_fields__ if name in data}
    fields["level"] = TocLevel(fields["level"])
    for name in ("start_time", "end_time", "created_at"):
        fields[name] = parse_timestamp(fields[name], name)
    fields["bullets"] = tuple(TocBullet(b["text"], tuple(b.get("grip_ids", ()))) for b in fields.get("bullets", ()))
    fields["keywords"] = tuple(fields.get("keywords", ()))
    fields["child_node_ids"] = tuple(fields.get("child_node_ids", ()))
    return TocNode(**fields)


def toc_page_to(page: TocPage) -> dict[str, Any]:
    return {"nodes": [n.to_dict() for n in page.nodes], "next_cursor": page.next_cursor, "has_more": page.has_more}


def toc_page_from(data: Mapping[str, Any]) -> TocPage:
    return TocPage([toc_node_from(n) for n in data["nodes"]], data.get("next_cursor"), bool(data.get("has_more")))


def grip_context_to(found: GripContext) -> dict[str, Any]:
    return {
        "grip": found.grip.to_dict(),
        "events_before": [e.to_dict() for e in found.events_before],
        "excerpt_events": [e.to_dict() for e in found.excerpt_events],
        "events_after": [e.to_dict() for e in found.events_after],
    }


def grip_context_from(data: Mapping[str, Any]) -> GripContext:
    grip = dict(data["grip"])
    grip["timestamp"] = parse_timestamp(grip["timestamp"], "timestamp")
    return GripContext(
        Grip(**grip),
        [Event.from_dict(e) for e in data["events_before"]],
        [Event.from_dict(e) for e in data["excerpt_events"]],
        [Event.from_dict(e) for e in data["events_after"]],
    )


# -- status -----------------------------------------------------------------------------


def job_status_from(data: Mapping[str, Any]) -> JobStatus:
    return JobStatus(**{name: data[name] for name in JobStatus.__dataclass_fields__ if name in data})


def conversation_from(data: Mapping[str, Any]) -> ConversationInfo:
    return ConversationInfo(
        data["conversation_id"],
        data["sessions"],
        data["events"],
        parse_timestamp(data["first_at"], "first_at"),
        parse_timestamp(data["last_at"], "last_at"),
    )


def day_count_from(data: Mapping[str, Any]) -> DayCount:
    return DayCount(date.fromisoformat(data["day"]), data["events"])


def ledger_day_from(data: Mapping[str, Any]) -> LedgerDay:
    fields = {f.name: data[f.name] for f in dataclasses.fields(LedgerDay) if f.name in data}
    return LedgerDay(**{**fields, "day": date.fromisoformat(data["day"])})


def finding_from(data: Mapping[str, Any]) -> Finding:
    return Finding(data["level"], data["area"], data["message"])


def status_from(data: Mapping[str, Any]) -> Status:
    fields = {f.name: data[f.name] for f in dataclasses.fields(Status) if f.name in data}
    fields["checkpoints"] = [Checkpoint(**c) for c in fields.get("checkpoints", [])]
    return Status(**fields)


# -- errors -----------------------------------------------------------------------------


def error_body(exc: MemoirError) -> dict[str, Any]:
    """The error's JSON form: OpenAI's shape (`message`, `type`, `param`) plus what rebuilds it."""
    body: dict[str, Any] = {"message": str(exc), "type": type(exc).__name__, "param": getattr(exc, "field", None)}
    body.update({name: getattr(exc, name) for name in _ERROR_FIELDS[1:] if getattr(exc, name, None) is not None})
    return {"error": body}


def error_from(body: Any, status: int) -> MemoirError:
    """The `MemoirError` a server's error answer stands for (by its `type`; else by the status)."""
    detail = body.get("error") if isinstance(body, Mapping) else None
    if not isinstance(detail, Mapping):
        kind: type[MemoirError] = UserError if 400 <= status < 500 else RuntimeFailure
        return kind(f"the server answered {status} without a memoir error: {str(body)[:200]}")
    kind = ERROR_CLASSES.get(str(detail.get("type")), UserError if 400 <= status < 500 else RuntimeFailure)
    error = kind.__new__(kind)
    Exception.__init__(error, str(detail.get("message", "")))  # the server's message, word for word
    values = {"field": detail.get("param"), **{k: detail.get(k) for k in _ERROR_FIELDS[1:]}}
    for name, value in values.items():
        if value is not None or (name in ("field", "index") and issubclass(kind, errors.InvalidInput)):
            setattr(error, name, value)
    return error
