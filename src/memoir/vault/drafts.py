"""Memories before and around a change: drafts, how duplicates merge, their index items, commit messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from memoir.errors import InvalidInput
from memoir.index.embedders import content_hash
from memoir.model import DEFAULT_CONVERSATION, new_ulid
from memoir.model.memory import Memory, MemoryKind, Severity
from memoir.model.wording import counted
from memoir.store import IndexItem

__all__ = ["MemoryDraft", "commit_message", "excerpt", "find_args", "index_item", "merged"]

_DRAFT_FIELDS = ("text", "kind", "conversation_id", "tags", "severity", "agent_id")


@dataclass(frozen=True)
class MemoryDraft:
    """A memory to keep, before it has an id and a date: what `remember_many` takes."""

    text: str
    kind: str = "fact"
    conversation_id: str | None = None
    tags: tuple[str, ...] = ()
    severity: str | None = None
    event_ids: tuple[str, ...] = ()
    source: str = "user"
    agent_id: str | None = None  # unified mode: whose memory (None: the calling agent's default)
    reconciled_by: str | None = None  # llm or heuristics, for memories the extraction job decided
    created_at: datetime | None = None  # a correction keeps the date of the fact it corrects (seed 000); else now

    def __post_init__(self) -> None:
        # Drafts arrive from JSON and mappings with lists; a lone string is one value, not its letters.
        for name in ("tags", "event_ids"):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, (value,) if isinstance(value, str) else tuple(value))
            except TypeError:
                raise InvalidInput(name, f"must be a list of strings, not {type(value).__name__}") from None

    @classmethod
    def of(cls, item: object) -> MemoryDraft:
        """A draft from what callers pass: a draft, a text, or a mapping of `remember`'s arguments."""
        if isinstance(item, MemoryDraft):
            return item
        if isinstance(item, str):
            return cls(item)
        if isinstance(item, Mapping):
            unknown = sorted(set(map(str, item)) - set(_DRAFT_FIELDS))
            if unknown:
                raise InvalidInput(unknown[0][:64], f"is not a field of a memory ({', '.join(_DRAFT_FIELDS)})")
            if "text" not in item:
                raise InvalidInput("text", "is required")
            return cls(**item)
        raise InvalidInput("memory", f"expected a text, a mapping or a MemoryDraft, got {type(item).__name__}")

    def to_memory(self, timestamp_ms: int, agent_id: str | None) -> Memory:
        """The memory this draft describes (validated), with a new id; raises `InvalidInput`."""
        if not isinstance(self.text, str) or not self.text.strip():
            raise InvalidInput("text", "must not be empty")
        return Memory(
            id=new_ulid(timestamp_ms),
            kind=MemoryKind.parse(self.kind),
            content=self.text,
            conversation_id=DEFAULT_CONVERSATION if self.conversation_id is None else self.conversation_id,
            created_at=datetime.now(UTC) if self.created_at is None else self.created_at,
            tags=self.tags,
            severity=None if self.severity is None else Severity.parse(self.severity),
            event_ids=self.event_ids,
            source=self.source,
            agent_id=agent_id,
            reconciled_by=self.reconciled_by,
        )


def find_args(memory: Memory) -> tuple[str, str, str, str | None]:
    return memory.conversation_id, memory.kind.value, memory.content, memory.agent_id


def merged(into: Memory, other: Memory) -> Memory:
    """`into` with `other`'s tags and event ids added; `into` itself when nothing is new."""
    tags = tuple(dict.fromkeys(into.tags + other.tags))
    event_ids = tuple(dict.fromkeys(into.event_ids + other.event_ids))
    if tags == into.tags and event_ids == into.event_ids:
        return into
    return replace(into, tags=tags, event_ids=event_ids)


def index_item(memory: Memory) -> IndexItem:
    metadata = {"source": memory.source}
    if memory.tags:
        metadata["tags"] = ",".join(memory.tags)
    if memory.severity is not None:
        metadata["severity"] = memory.severity.value
    return IndexItem(
        kind=memory.kind.value,
        ref=memory.id,
        conversation_id=memory.conversation_id,
        agent_id=memory.agent_id,
        created_ms=int(memory.created_at.timestamp() * 1000),
        text=memory.content,
        search_text=memory.content,
        content_hash=content_hash(memory.content),
        event_ids=memory.event_ids,
        metadata=metadata,
    )


def _why(memory: Memory) -> str:
    return f" (from events {', '.join(memory.event_ids)})" if memory.event_ids else f" ({memory.source})"


def excerpt(content: str) -> str:
    """The start of a memory on one line (a line break would split a commit's subject)."""
    return " ".join(content.split())[:60]


def commit_message(memories: Sequence[Memory]) -> str:
    lines = [f"{m.kind.value} {m.id}: {excerpt(m.content)}{_why(m)}" for m in memories]
    if len(lines) == 1:
        return f"remember {lines[0]}"
    return f"remember {counted(len(lines), 'memory')}\n\n" + "\n".join(lines)
