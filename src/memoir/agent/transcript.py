"""A chat's messages as events of the log, and back (seed 000's "log conversation").

Every message is logged the moment it exists: the user's as `user_message`, the
model's as `assistant_message`, each tool's answer as `tool_result`, between a
`session_start` and a `session_end`, in the chat's conversation. The log is the
conversation's truth: resuming it rebuilds the messages from these events, so what an
event must hold beyond its text is kept in its metadata:

- an assistant message that calls tools: `tool_calls`, the calls as JSON (the text is
  the reply, or the calls written out when the model said nothing, since an
  `assistant_message` needs text); `content: none` marks the second case;
- a tool's answer: `tool_call_id` and `tool_name`.

Metadata is bounded (64 KiB an event), so calls whose arguments would not fit keep
their names and ids with arguments `{}`: the text still holds them whole.

Rebuilt history is made consistent before it goes to a model, as the API demands: a
tool call with no answer logged (a crash between the two), or an answer with no call,
is left out; so is anything that is not a message (boundaries, other event types).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from memoir.model.chat import Message, ToolCall
from memoir.model.event import Event, EventType

__all__ = ["consistent", "event_record", "message_of", "messages_of", "now"]

MAX_CALLS_METADATA = 60_000  # characters, under the 65,536 an event's metadata may hold
_TYPES = {"user": "user_message", "assistant": "assistant_message", "tool": "tool_result"}


def now() -> datetime:
    """Now, to the millisecond, as events keep it (a message and its event share the time)."""
    moment = datetime.now(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def _calls_text(calls: Sequence[ToolCall]) -> str:
    return "\n".join(f"{call.name}({call.arguments})" for call in calls)


def _calls_metadata(calls: Sequence[ToolCall]) -> str:
    full = json.dumps([{"id": c.id, "name": c.name, "arguments": c.arguments} for c in calls], ensure_ascii=False)
    if len(full) <= MAX_CALLS_METADATA:
        return full
    bare = json.dumps([{"id": c.id, "name": c.name, "arguments": "{}"} for c in calls], ensure_ascii=False)
    return bare if len(bare) <= MAX_CALLS_METADATA else "[]"


def event_record(message: Message, session_id: str, conversation_id: str) -> dict[str, Any]:
    """The event that logs `message` (a mapping for `Memoir.ingest`), dated as the message."""
    metadata: dict[str, str] = {}
    text = message.content
    if message.role == "assistant" and message.tool_calls:
        metadata["tool_calls"] = _calls_metadata(message.tool_calls)
        if not text.strip():
            text, metadata["content"] = _calls_text(message.tool_calls), "none"
    if message.role == "tool":
        metadata.update(tool_call_id=message.tool_call_id or "", tool_name=message.name or "")
    if message.role == "assistant":
        metadata["via"] = "chat"  # memoir's own model speaking: never injected back as memory
    return {
        "session_id": session_id,
        "conversation_id": conversation_id,
        "event_type": _TYPES[message.role],
        "text": text,
        "timestamp": message.timestamp or now(),
        "metadata": metadata,
    }


def _calls_of(raw: str | None) -> tuple[ToolCall, ...]:
    try:
        value = json.loads(raw or "[]")
    except (ValueError, RecursionError):
        return ()
    calls = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get("id"), str) and isinstance(item.get("name"), str):
            arguments = item.get("arguments")
            calls.append(ToolCall(item["id"], item["name"], arguments if isinstance(arguments, str) else "{}"))
    return tuple(calls)


def message_of(event: Event) -> Message | None:
    """The message an event logged; None for boundaries and for what no chat message can be."""
    meta, kind, when, event_id = event.metadata, event.event_type, event.timestamp, event.event_id
    if kind is EventType.USER_MESSAGE and event.text.strip():
        return Message("user", event.text, timestamp=when, event_id=event_id)
    if kind is EventType.ASSISTANT_MESSAGE:
        calls = _calls_of(meta.get("tool_calls"))
        content = "" if calls and meta.get("content") == "none" else event.text
        return Message("assistant", content, tool_calls=calls, timestamp=when, event_id=event_id)
    if kind is EventType.TOOL_RESULT and meta.get("tool_call_id") and meta.get("tool_name"):
        call_id, name = meta["tool_call_id"], meta["tool_name"]
        return Message("tool", event.text, tool_call_id=call_id, name=name, timestamp=when, event_id=event_id)
    return None


def messages_of(events: Iterable[Event]) -> list[Message]:
    """The chat messages of a conversation's events, consistent as a model requires."""
    return consistent([m for m in map(message_of, events) if m is not None])


def _answers(messages: Sequence[Message], start: int) -> Iterator[Message]:
    for message in messages[start:]:
        if message.role != "tool":
            return
        yield message


def consistent(messages: Sequence[Message]) -> list[Message]:
    """Tool calls each followed by their answer, answers each after their call; the rest as it was."""
    result: list[Message] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        index += 1
        if message.role == "tool":
            continue  # an answer whose call is not right before it
        if message.role != "assistant" or not message.tool_calls:
            result.append(message)
            continue
        answers = list(_answers(messages, index))
        index += len(answers)
        by_id = {answer.tool_call_id: answer for answer in reversed(answers)}  # the first answer of each call
        unique: dict[str, ToolCall] = {}
        for call in message.tool_calls:
            unique.setdefault(call.id, call)
        calls = tuple(call for call in unique.values() if call.id in by_id)
        if calls:
            result.append(replace(message, tool_calls=calls))
            result.extend(by_id[call.id] for call in calls)
        elif message.content.strip():
            result.append(replace(message, tool_calls=()))
    return result
