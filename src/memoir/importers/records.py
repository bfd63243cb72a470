"""What every transcript reader makes: the hook calls a transcript stands for.

A reader turns an agent's own records into `Call`s: the JSON a hook would have received
for them (`session_id`, `cwd`, `hook_event_name`, `timestamp` and the event's fields)
and the transcript's own id for each (a message uuid, a tool call id), which names its
events. The transcript's fields are read defensively, as the hooks read theirs: any
field may be missing or of another type. What makes a record unusable is a
`RecordError`, reported with its line and skipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memoir.errors import InvalidInput
from memoir.model.checks import brief
from memoir.model.event import format_timestamp, parse_timestamp

__all__ = ["Call", "RecordError", "Transcript", "as_dict", "as_list", "as_str", "digest", "required_str", "stamp"]


class RecordError(ValueError):
    """Why one record of a transcript cannot be imported; it is reported and skipped."""


@dataclass(frozen=True)
class Call:
    """One hook call rebuilt from a transcript: its payload, and the transcript's id for it."""

    line: int  # where the record was read, for reports
    key: str  # the transcript's own id (a message uuid, a tool call id): the events' ids derive from it
    payload: dict[str, Any]


@dataclass
class Transcript:
    """A transcript being read: where it is, what it held so far, and how to say what was skipped."""

    path: Path
    skip: Callable[[int, str], None]  # (line, reason)
    calls: list[Call] = field(default_factory=list)

    def hook(self, line: int, key: str, event: str, where: tuple[str, str, str], **fields: Any) -> None:
        """Add the call a hook named `event` would have received; `where` is (session id, cwd, timestamp)."""
        self.calls.append(Call(line, key, self.payload(event, where, **fields)))

    def payload(self, event: str, where: tuple[str, str, str], **fields: Any) -> dict[str, Any]:
        """The JSON a hook named `event` receives, as the agents send it."""
        session_id, cwd, timestamp = where
        return {
            "session_id": session_id,
            "transcript_path": str(self.path),
            "cwd": cwd,
            "hook_event_name": event,
            "timestamp": timestamp,
            **fields,
        }


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def stamp(value: Any, name: str = "timestamp") -> str:
    """The record's time as the ISO 8601 text hooks send, or a RecordError naming `name`.

    Checked here rather than left to `parse_call`, which dates a call without a usable
    time by the clock: an imported record must get the same event ids at every import.
    """
    try:
        return format_timestamp(parse_timestamp(value, name))
    except InvalidInput as exc:
        raise RecordError(str(exc)) from None


def digest(*parts: str) -> str:
    """A stable name for a record that has no id of its own (its content, hashed)."""
    joined = "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(joined).hexdigest()[:32]


def required_str(record: dict[str, Any], name: str) -> str:
    value = record.get(name)
    if not isinstance(value, str) or not value.strip():
        raise RecordError(f"{name}: expected a non-empty string, got {brief(value)}")
    return value
