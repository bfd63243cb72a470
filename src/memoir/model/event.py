"""Events: the immutable, append-only record of what happened (seed 002).

Validation happens once, when an `Event` is built. Rules:

- `event_id` is a 26-character ULID; one is generated from the timestamp when absent.
- `timestamp` is timezone-aware UTC with millisecond precision (storage keeps ms);
  naive datetimes are taken as UTC. When absent it is the time in `event_id` if one is
  given (a ULID holds the time it was made: a retry is then the same event), else now.
  At ingestion it may not lie in the future by more than the configured clock-skew
  allowance (`Event.check_not_future`). How timestamps are read and written is in `timestamps.py`.
- `session_id` and `conversation_id` are non-empty one-line ids (no control characters,
  U+0085 or U+2028/U+2029); `conversation_id` is the memory scope and defaults to
  "default"; `agent_id` tags events in unified mode.
- `text` may be empty only for boundary events (session and subagent start/stop,
  assistant stop); messages and tool results must say something.
- `metadata` is a map of strings to strings: at most MAX_METADATA_KEYS keys and
  MAX_METADATA_CHARS characters in all (keys and values); long content belongs in `text`.
  One key is read by memoir itself: `facts_to: global` keeps the facts read from the
  message in `global` rather than in its conversation (`facts_conversation`).
- A value of the wrong type or out of range, whatever it is (a nested object, a bool,
  a 5,000-digit number, a date that overflows in UTC), is an `InvalidEvent` naming the field.
- All text is Unicode that UTF-8 can carry: a lone UTF-16 surrogate (what a JSON
  `\ud83d` escape without its pair decodes to) is refused here, since no store
  could keep it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from memoir.errors import InvalidEvent
from memoir.model.checks import brief, check_id, check_whole
from memoir.model.enums import ParsedEnum
from memoir.model.ids import EventKey, is_ulid, new_ulid
from memoir.model.project import GLOBAL
from memoir.model.timestamps import EPOCH, format_timestamp, parse_timestamp, to_ms
from memoir.model.timestamps import is_normalised as _is_normalised
from memoir.model.timestamps import time_of_id as _time_of
from memoir.model.timestamps import utc_now as _utc_now

# The timestamp functions stay importable from here, where much of the code base imports them.
__all__ = [
    "DEFAULT_CONVERSATION",
    "EPOCH",
    "Event",
    "EventRole",
    "EventType",
    "format_timestamp",
    "parse_timestamp",
    "to_ms",
]

DEFAULT_CONVERSATION = "default"
MAX_TEXT_LENGTH = 8_000_000
MAX_METADATA_KEYS = 100
MAX_METADATA_CHARS = 65_536  # keys and values together
_PLAIN_NAME = re.compile(r"[\w.-]{1,64}")  # a field name shown as is; any other in quotes


class EventType(ParsedEnum, field="event_type", prefix="EVENT_TYPE_", noun="type"):
    SESSION_START = "session_start"
    USER_MESSAGE = "user_message"
    ASSISTANT_MESSAGE = "assistant_message"
    TOOL_RESULT = "tool_result"
    ASSISTANT_STOP = "assistant_stop"
    SUBAGENT_START = "subagent_start"
    SUBAGENT_STOP = "subagent_stop"
    SESSION_END = "session_end"

    @property
    def is_boundary(self) -> bool:
        """Boundary events mark structure and may carry no text."""
        return self not in _TEXT_REQUIRED

    @property
    def typical_role(self) -> EventRole:
        return _TYPICAL_ROLE[self]


class EventRole(ParsedEnum, field="role", prefix="EVENT_ROLE_"):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


_TYPE_BY_VALUE: dict[object, EventType] = {t.value: t for t in EventType}
_ROLE_BY_VALUE: dict[object, EventRole] = {r.value: r for r in EventRole}
_TEXT_REQUIRED = frozenset({EventType.USER_MESSAGE, EventType.ASSISTANT_MESSAGE, EventType.TOOL_RESULT})
_TYPICAL_ROLE = {
    EventType.SESSION_START: EventRole.SYSTEM,
    EventType.USER_MESSAGE: EventRole.USER,
    EventType.ASSISTANT_MESSAGE: EventRole.ASSISTANT,
    EventType.TOOL_RESULT: EventRole.TOOL,
    EventType.ASSISTANT_STOP: EventRole.ASSISTANT,
    EventType.SUBAGENT_START: EventRole.SYSTEM,
    EventType.SUBAGENT_STOP: EventRole.SYSTEM,
    EventType.SESSION_END: EventRole.SYSTEM,
}


_EMPTY: Mapping[str, str] = MappingProxyType({})


def _check_metadata(value: object) -> Mapping[str, str]:
    if not isinstance(value, Mapping):
        raise InvalidEvent("metadata", f"expected a map of strings to strings, got {type(value).__name__}")
    if not value:
        return _EMPTY
    if len(value) > MAX_METADATA_KEYS:
        raise InvalidEvent("metadata", f"more than {MAX_METADATA_KEYS} keys; put long content in text")
    size = 0
    for key, item in value.items():
        if type(key) is not str or not key:
            raise InvalidEvent("metadata", f"keys are non-empty text, got {brief(key)}")
        check_whole("metadata", key)
        if type(item) is not str:
            raise InvalidEvent(f"metadata.{_field_label(key)}", f"values are text, got {type(item).__name__}")
        check_whole(f"metadata.{_field_label(key)}", item)
        size += len(key) + len(item)
    if size > MAX_METADATA_CHARS:
        raise InvalidEvent("metadata", f"longer than {MAX_METADATA_CHARS} characters in all; put long content in text")
    return MappingProxyType(dict(value))


def _ulid(value: object) -> str:
    if type(value) is str and not is_ulid(value):
        value = value.strip().upper()
    if is_ulid(value):
        return value
    raise InvalidEvent("event_id", f"{brief(value)} is not a 26-character ULID")


def _fill(
    event: Event,
    event_id: Any,
    session_id: Any,
    timestamp: Any,
    event_type: Any,
    role: Any,
    text: Any,
    metadata: Any,
    conversation_id: Any,
    agent_id: Any,
) -> None:
    """The one place the rules are checked: validate, fill defaults, normalise, set every field.

    Works on a bare instance (from `create`/`from_dict`, which skip the frozen dataclass
    `__init__` because this is the ingest hot path) as well as from `__post_init__`.
    """
    kind = _TYPE_BY_VALUE.get(event_type) if type(event_type) is str else None
    if kind is None:
        kind = EventType.parse(event_type)
    if event_id is not None:
        event_id = _ulid(event_id)
    if timestamp is None:
        when = _utc_now() if event_id is None else _time_of(event_id)
    else:
        when = timestamp if _is_normalised(timestamp) else parse_timestamp(timestamp)
    ms = to_ms(when)
    if event_id is None:
        event_id = new_ulid(ms)
    if conversation_id is None:
        conversation_id = DEFAULT_CONVERSATION
    check_id("session_id", session_id)
    check_id("conversation_id", conversation_id)
    check_id("agent_id", agent_id, optional=True)
    if type(text) is not str:
        raise InvalidEvent("text", f"expected text, got {type(text).__name__}")
    if (not text or text.isspace()) and kind in _TEXT_REQUIRED:
        raise InvalidEvent("text", f"must not be empty for a {kind.value} event")
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidEvent("text", f"longer than {MAX_TEXT_LENGTH} characters")
    check_whole("text", text)
    if role is None:
        role = _TYPICAL_ROLE[kind]
    elif type(role) is not EventRole:
        role = (_ROLE_BY_VALUE.get(role) if type(role) is str else None) or EventRole.parse(role)
    set_ = object.__setattr__
    set_(event, "event_id", event_id)
    set_(event, "session_id", session_id)
    set_(event, "timestamp", when)
    set_(event, "event_type", kind)
    set_(event, "role", role)
    set_(event, "text", text)
    set_(event, "metadata", _EMPTY if metadata is None else _check_metadata(metadata))
    set_(event, "conversation_id", conversation_id)
    set_(event, "agent_id", agent_id)
    set_(event, "_ms", ms)


@dataclass(frozen=True, slots=True)
class Event:
    """One immutable record: a message, a tool result or a session boundary."""

    event_id: str
    session_id: str
    timestamp: datetime
    event_type: EventType
    role: EventRole
    text: str = ""
    metadata: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    conversation_id: str = DEFAULT_CONVERSATION
    agent_id: str | None = None
    _ms: int = field(init=False, repr=False, compare=False)  # timestamp_ms, computed once

    def __post_init__(self) -> None:
        _fill(
            self,
            self.event_id,
            self.session_id,
            self.timestamp,
            self.event_type,
            self.role,
            self.text,
            self.metadata,
            self.conversation_id,
            self.agent_id,
        )

    # -- construction -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        *,
        session_id: str,
        event_type: EventType | str,
        text: str = "",
        role: EventRole | str | None = None,
        timestamp: datetime | str | int | None = None,
        event_id: str | None = None,
        metadata: Mapping[str, str] | None = None,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> Event:
        """Build an event, filling what may be left out: id, time (now), role (typical for the type)."""
        event = object.__new__(cls)
        _fill(event, event_id, session_id, timestamp, event_type, role, text, metadata, conversation_id, agent_id)
        return event

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """An event from a plain mapping with the same field names (JSON, API payloads)."""
        if not isinstance(data, Mapping):
            raise InvalidEvent("event", f"expected an object with event fields, got {type(data).__name__}")
        if not _FIELDS.issuperset(data):
            unknown = min(_field_label(name) for name in set(data) - _FIELDS)
            raise InvalidEvent(unknown, f"unknown field; known fields are {', '.join(sorted(_FIELDS))}")
        get = data.get
        for name in ("session_id", "event_type"):
            if get(name) is None:
                raise InvalidEvent(name, "is required")
        event = object.__new__(cls)
        _fill(
            event,
            get("event_id"),
            data["session_id"],
            get("timestamp"),
            data["event_type"],
            get("role"),
            "" if get("text") is None else data["text"],
            get("metadata"),
            get("conversation_id"),
            get("agent_id"),
        )
        return event

    # -- views --------------------------------------------------------------------

    @property
    def timestamp_ms(self) -> int:
        return self._ms

    @property
    def key(self) -> EventKey:
        return EventKey(self.timestamp_ms, self.event_id)

    @property
    def facts_conversation(self) -> str:
        """Where the facts read from this message are kept: its conversation, or `global` when the door
        that logged it says the user spoke of themselves there (`memoir chat`: metadata `facts_to`)."""
        return GLOBAL if self.metadata.get("facts_to") == GLOBAL else self.conversation_id

    def to_dict(self) -> dict[str, Any]:
        return {
            "event_id": self.event_id,
            "session_id": self.session_id,
            "timestamp": format_timestamp(self.timestamp),
            "event_type": self.event_type.value,
            "role": self.role.value,
            "text": self.text,
            "metadata": dict(self.metadata),
            "conversation_id": self.conversation_id,
            "agent_id": self.agent_id,
        }

    def check_not_future(self, now_ms: int, allowance_ms: int) -> None:
        """Seed 002: the timestamp must not be in the future at ingestion (beyond clock skew)."""
        if self._ms > now_ms + allowance_ms:
            raise InvalidEvent(
                "timestamp",
                f"{format_timestamp(self.timestamp)} is {(self._ms - now_ms) / 1000:.0f} s in the future "
                f"(allowed clock skew: {allowance_ms / 1000:.0f} s)",
            )

    @classmethod
    def _trusted(cls, values: tuple[Any, ...]) -> Event:
        """An event from values this package validated before (its own database rows).

        Skips validation: reading back the log is on the hot path of every job.
        `values` are in field order, with the timestamp as epoch ms.
        """
        event = object.__new__(cls)
        set_ = object.__setattr__
        event_id, ms, session_id, conversation_id, agent_id, event_type, role, text, metadata = values
        set_(event, "event_id", event_id)
        set_(event, "session_id", session_id)
        set_(event, "timestamp", EPOCH + timedelta(milliseconds=ms))
        set_(event, "event_type", _TYPE_BY_VALUE[event_type])
        set_(event, "role", _ROLE_BY_VALUE[role])
        set_(event, "text", text)
        set_(event, "metadata", MappingProxyType(metadata) if metadata else _EMPTY)
        set_(event, "conversation_id", conversation_id)
        set_(event, "agent_id", agent_id)
        set_(event, "_ms", ms)
        return event


_FIELDS = frozenset(
    ("event_id", "session_id", "timestamp", "event_type", "role", "text", "metadata", "conversation_id", "agent_id")
)


def _field_label(name: object) -> str:
    """An unknown field's name as an error shows it: itself when it is a plain name, else its repr."""
    if isinstance(name, str) and _PLAIN_NAME.fullmatch(name):
        return name
    return brief(name)
