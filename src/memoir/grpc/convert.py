"""Conversions between the protobuf messages of `memoir.proto` and memoir's own types.

Inbound, a message becomes what the façade takes (an event as a plain mapping with
`Event.from_dict`'s field names), and nothing is judged here: the façade's rules apply
to what came over gRPC exactly as to any other caller, so a bad value fails there with
an `InvalidInput` naming the field. Enums travel by their proto names
(`EVENT_TYPE_USER_MESSAGE`), which memoir's enum parser reads; an enum number the proto
does not define is passed on as the number, which the parser refuses, naming the field.

Outbound, memoir's types become messages: datetimes as epoch milliseconds, tuples as
repeated fields, None as an absent `optional` field.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memoir.grpc import memoir_pb2 as pb
from memoir.model import Event
from memoir.model.event import EventRole, EventType, to_ms
from memoir.model.memory import Memory
from memoir.model.timeline import Grip, GripContext, TocLevel, TocNode
from memoir.retrieval import Hit
from memoir.workers.scheduler import JobStatus

__all__ = [
    "event_fields",
    "event_message",
    "event_messages",
    "given",
    "grip_context_message",
    "hit_message",
    "job_message",
    "node_message",
]

# Built at import, so a member added to a model enum without its proto value fails loudly at once.
_TYPE_NUMBERS = {kind: pb.EventType.Value(f"EVENT_TYPE_{kind.name}") for kind in EventType}
_ROLE_NUMBERS = {role: pb.EventRole.Value(f"EVENT_ROLE_{role.name}") for role in EventRole}
_LEVEL_NUMBERS = {level: pb.TocLevel.Value(f"TOC_LEVEL_{level.name}") for level in TocLevel}


def given(message: Any, name: str) -> Any:
    """An `optional` field's value, or None when the sender left it out (the façade's default then applies)."""
    return getattr(message, name) if message.HasField(name) else None


# -- inbound ------------------------------------------------------------------------------------


def event_fields(message: pb.Event, conversation_id: str | None) -> dict[str, Any]:
    """The mapping `Memoir.ingest` takes for one `Event` message.

    `conversation_id` is the request's, for an event that names none. Fields left out
    stay out, so the façade fills them as for any caller (id, time, typical role).
    """
    fields: dict[str, Any] = {
        "session_id": message.session_id,
        "event_type": _enum_name(pb.EventType, message.event_type),
        "text": message.text,
        "metadata": dict(message.metadata),
    }
    if message.role != pb.EVENT_ROLE_UNSPECIFIED:  # unspecified: the typical role of the type
        fields["role"] = _enum_name(pb.EventRole, message.role)
    for name, key in (("event_id", "event_id"), ("timestamp_ms", "timestamp"), ("agent_id", "agent_id")):
        if message.HasField(name):
            fields[key] = getattr(message, name)
    conversation = given(message, "conversation_id")
    if conversation is not None or conversation_id is not None:
        fields["conversation_id"] = conversation if conversation is not None else conversation_id
    return fields


def _enum_name(enum: Any, number: int) -> str | int:
    try:
        name: str = enum.Name(number)
    except ValueError:
        return number  # not in the proto: memoir's parser refuses it with the field's name
    return name


# -- outbound -----------------------------------------------------------------------------------


def event_message(event: Event) -> pb.Event:
    return pb.Event(
        event_id=event.event_id,
        session_id=event.session_id,
        timestamp_ms=event.timestamp_ms,
        event_type=_TYPE_NUMBERS[event.event_type],
        role=_ROLE_NUMBERS[event.role],
        text=event.text,
        metadata=dict(event.metadata),
        conversation_id=event.conversation_id,
        agent_id=event.agent_id,
    )


def event_messages(events: Iterable[Event]) -> list[pb.Event]:
    return [event_message(event) for event in events]


def node_message(node: TocNode) -> pb.TocNode:
    return pb.TocNode(
        node_id=node.node_id,
        level=_LEVEL_NUMBERS[node.level],
        title=node.title,
        start_time_ms=to_ms(node.start_time),
        end_time_ms=to_ms(node.end_time),
        bullets=[pb.TocBullet(text=b.text, grip_ids=list(b.grip_ids)) for b in node.bullets],
        keywords=list(node.keywords),
        child_node_ids=list(node.child_node_ids),
        version=node.version,
        created_at_ms=to_ms(node.created_at),
        conversation_id=node.conversation_id,
        agent_id=node.agent_id,
        parent_id=node.parent_id,
        source=node.source,
        note=node.note,
    )


def grip_message(grip: Grip) -> pb.Grip:
    return pb.Grip(
        grip_id=grip.grip_id,
        excerpt=grip.excerpt,
        event_id_start=grip.event_id_start,
        event_id_end=grip.event_id_end,
        timestamp_ms=to_ms(grip.timestamp),
        source=grip.source,
        toc_node_id=grip.toc_node_id,
        conversation_id=grip.conversation_id,
        agent_id=grip.agent_id,
    )


def grip_context_message(found: GripContext) -> pb.ExpandGripResponse:
    return pb.ExpandGripResponse(
        grip=grip_message(found.grip),
        events_before=event_messages(found.events_before),
        excerpt_events=event_messages(found.excerpt_events),
        events_after=event_messages(found.events_after),
    )


def hit_message(hit: Hit) -> pb.Hit:
    return pb.Hit(
        kind=hit.kind,
        text=hit.text,
        score=float(hit.score),  # the pipeline may hand numpy scalars
        event_ids=list(hit.event_ids),
        memory_id=hit.memory_id,
        metadata=dict(hit.metadata),
        created_at_ms=to_ms(hit.created_at),
        conversation_id=hit.conversation_id,
        session_id=hit.session_id,
        role=hit.role,
        context=list(hit.context),
        context_event_ids=list(hit.context_event_ids),
        relevance=float(hit.relevance),
        sources=list(hit.sources),
        agent_id=hit.agent_id,
    )


def memory_message(memory: Memory) -> pb.Memory:
    return pb.Memory(
        id=memory.id,
        kind=memory.kind.value,
        content=memory.content,
        conversation_id=memory.conversation_id,
        created_at_ms=to_ms(memory.created_at),
        tags=list(memory.tags),
        severity=memory.severity.value if memory.severity else None,
        event_ids=list(memory.event_ids),
        source=memory.source,
        replaced_by=memory.replaced_by,
        deleted_at_ms=to_ms(memory.deleted_at) if memory.deleted_at else None,
        agent_id=memory.agent_id,
        reconciled_by=memory.reconciled_by,
    )


def job_message(job: JobStatus) -> pb.JobStatus:
    return pb.JobStatus(
        name=job.name,
        lane=job.lane,
        kind=job.kind,
        paused=job.paused,
        backlog=job.backlog,
        last_run_ms=job.last_run_ms,
        runs=job.runs,
        failures=job.failures,
        last_error=job.last_error,
    )
