"""Memories: what is worth knowing, curated from events or told directly (seeds 004, 000, 001).

A memory is a fact ("Sam is allergic to peanuts") or one of the coding-agent kinds of
seed 001: a gotcha (with a severity), a decision or a learning. Memories live as
Markdown files in the vault (the source of truth); they are never edited in place by
memoir: an update writes a new memory and turns the old one into a tombstone whose
`replaced_by` names its successor, so `memory_history` can walk the chain.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from memoir.errors import InvalidInput
from memoir.model.checks import brief, check_id, surrogate_at
from memoir.model.enums import ParsedEnum
from memoir.model.event import DEFAULT_CONVERSATION, format_timestamp, parse_timestamp
from memoir.model.ids import is_ulid

__all__ = ["Memory", "MemoryKind", "Severity", "normalise_content"]

MAX_CONTENT = 20_000
_TAG = re.compile(r"^[\w/-]{1,64}$", re.UNICODE)


class MemoryKind(ParsedEnum, field="kind", error=InvalidInput):
    FACT = "fact"
    GOTCHA = "gotcha"
    DECISION = "decision"
    LEARNING = "learning"

    @property
    def folder(self) -> str:
        return f"{self.value}s"


class Severity(ParsedEnum, field="severity", error=InvalidInput):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


def normalise_content(text: str) -> str:
    """The form two contents are compared in: case, spacing and final punctuation ignored."""
    return " ".join(text.lower().split()).rstrip(".!")


def _tags(values: Iterable[str]) -> tuple[str, ...]:
    tags: dict[str, None] = {}
    for value in values:
        tag = str(value).strip().lstrip("#")
        if not _TAG.match(tag):
            raise InvalidInput("tags", f"{value!r} is not a tag (letters, digits, _ - /, up to 64)")
        tags.setdefault(tag, None)
    return tuple(tags)


def _check_sources(event_ids: object, source: object, replaced_by: object) -> None:
    """Where a memory came from: event ids (one-line ids), a source word, its successor's id (a ULID)."""
    if isinstance(event_ids, str) or not isinstance(event_ids, tuple | list):
        raise InvalidInput("event_ids", f"must be a list of event ids, got {brief(event_ids)}")
    for event_id in event_ids:
        check_id("event_ids", event_id, error=InvalidInput)
    check_id("source", source, error=InvalidInput)
    if replaced_by is not None and not is_ulid(replaced_by):
        raise InvalidInput("replaced_by", f"{brief(replaced_by)} is not a 26-character ULID")


@dataclass(frozen=True)
class Memory:
    id: str  # a ULID: memories sort by creation like events do
    kind: MemoryKind
    content: str
    conversation_id: str = DEFAULT_CONVERSATION
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    tags: tuple[str, ...] = ()
    severity: Severity | None = None
    event_ids: tuple[str, ...] = ()  # the events it was learned from
    source: str = "user"  # user (told directly), llm or heuristics (extracted)
    replaced_by: str | None = None  # on tombstones of updated memories
    deleted_at: datetime | None = None
    agent_id: str | None = None  # whose memory it is in unified mode; None: shared (`global`) or separate mode
    reconciled_by: str | None = None  # llm or heuristics: which path decided it against known memories
    # Why its note cannot be read now (a person broke its front matter): the mirror's last good
    # copy is shown, flagged, until the file is fixed. Never written to the file itself.
    unreadable: str | None = field(default=None, compare=False)
    # Front-matter keys a person added (Obsidian aliases, links...): carried through rewrites.
    extra: tuple[tuple[str, object], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not is_ulid(self.id):
            raise InvalidInput("id", f"{self.id!r} is not a 26-character ULID")
        set_(self, "kind", MemoryKind.parse(self.kind))
        if not isinstance(self.content, str) or not self.content.strip():
            raise InvalidInput("content", "must not be empty")
        if len(self.content) > MAX_CONTENT:
            raise InvalidInput("content", f"longer than {MAX_CONTENT} characters: a memory is one fact, not a document")
        if surrogate_at(self.content) is not None:
            raise InvalidInput("content", "holds half of a UTF-16 surrogate pair: send whole characters (UTF-8)")
        set_(self, "content", self.content.strip())
        check_id("conversation_id", self.conversation_id)
        check_id("agent_id", self.agent_id, optional=True)
        set_(self, "tags", _tags(self.tags))
        if self.severity is not None:
            if self.kind is not MemoryKind.GOTCHA:
                raise InvalidInput("severity", "only gotchas have a severity")
            set_(self, "severity", Severity.parse(self.severity))
        _check_sources(self.event_ids, self.source, self.replaced_by)
        check_id("reconciled_by", self.reconciled_by, optional=True, error=InvalidInput)
        set_(self, "event_ids", tuple(self.event_ids))
        # Milliseconds, as everything memoir stores: a memory read back equals the one written.
        set_(self, "created_at", parse_timestamp(self.created_at, "created_at"))
        if self.deleted_at is not None:
            set_(self, "deleted_at", parse_timestamp(self.deleted_at, "deleted_at"))

    @property
    def key(self) -> tuple[str | None, str, str, str]:
        """What makes two memories the same one (seed 000): owner, scope, kind and normalised content."""
        return self.agent_id, self.conversation_id, self.kind.value, normalise_content(self.content)

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def important(self) -> bool:
        return "important" in self.tags

    def to_dict(self) -> dict[str, object]:
        """The JSON form (`memoir memories --json`, the REST API); `MemoirClient` reads it back."""
        return {
            "id": self.id,
            "kind": self.kind.value,
            "content": self.content,
            "conversation_id": self.conversation_id,
            "created_at": format_timestamp(self.created_at),
            "tags": list(self.tags),
            "severity": self.severity.value if self.severity else None,
            "event_ids": list(self.event_ids),
            "source": self.source,
            "replaced_by": self.replaced_by,
            "deleted_at": format_timestamp(self.deleted_at) if self.deleted_at else None,
            "agent_id": self.agent_id,
            "reconciled_by": self.reconciled_by,
            "unreadable": self.unreadable,
        }

    def tombstone(self, when: datetime, replaced_by: str | None = None) -> Memory:
        return replace(self, deleted_at=when, replaced_by=replaced_by)
