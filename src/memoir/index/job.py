"""The `index_event` job: turns with text become searchable items (keyword + vector).

`prepare` runs before the runner's transaction and computes embeddings (slow, and
cached by content hash in the store, so a replay or a rebuild never embeds the same
text twice); `run` then writes the items inside the transaction, which makes indexing
exactly once per event. Each item's search text starts with the speaker, so questions
that name a person match that person's turns in both indexes; the keyword index also
sees the turns before and after it in its session (an answer rarely repeats the words
of the question it answers, but the turn before it does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memoir.index.embedders import CachedEmbedder, content_hash
from memoir.model import Event, EventType, OutboxAction
from memoir.store import IndexItem, Store

__all__ = ["TOOL_RESULT_CHARS", "IndexEventJob", "item_for_event"]

TOOL_RESULT_CHARS = 1_000  # seed 002 truncates tool results to this much text
INDEXED_TYPES = frozenset({EventType.USER_MESSAGE, EventType.ASSISTANT_MESSAGE, EventType.TOOL_RESULT})


def speaker_of(event: Event) -> str:
    return event.metadata.get("speaker") or event.metadata.get("tool_name") or event.role.value


def item_for_event(event: Event) -> IndexItem:
    text = event.text
    if event.event_type is EventType.TOOL_RESULT and len(text) > TOOL_RESULT_CHARS:
        text = text[:TOOL_RESULT_CHARS] + "…"
    search_text = f"{speaker_of(event)}: {text}"
    return IndexItem(
        kind="turn",
        ref=event.event_id,
        conversation_id=event.conversation_id,
        created_ms=event.timestamp_ms,
        text=text,
        search_text=search_text,
        content_hash=content_hash(search_text),
        event_ids=(event.event_id,),
        metadata=dict(event.metadata),
        agent_id=event.agent_id,
        session_id=event.session_id,
        role=event.role.value,
    )


class IndexEventJob:
    name = OutboxAction.INDEX_EVENT.value

    def __init__(self, embedder: CachedEmbedder) -> None:
        self.embedder = embedder

    def wants(self, event: Event) -> bool:
        return event.event_type in INDEXED_TYPES and bool(event.text.strip())

    def prepare(self, events: Sequence[Event], store: Store) -> None:
        self.embedder.embed_hashed([item_for_event(e).search_text for e in events])

    def run(self, events: Sequence[Event], store: Store) -> None:
        """Index the turns, each linked to the turn before it in its session (and that one to it)."""
        items = [item_for_event(e) for e in events]
        before: list[str] = [""] * len(items)
        after: list[str] = [""] * len(items)
        latest: dict[tuple[str, str | None], int] = {}  # session -> position of its latest item
        for position, item in enumerate(items):
            key = (item.conversation_id, item.session_id)
            previous = latest.get(key)
            if previous is not None:  # the previous turn is in this batch
                after[previous] = item.search_text
                before[position] = items[previous].search_text
            elif (stored := store.index_last_in_session(item)) is not None:
                assert stored.item_id is not None
                store.index_set_context_after(stored.item_id, item.search_text)
                before[position] = stored.search_text
            latest[key] = position
        store.index_add(
            [replace(item, context_before=b, context_after=a) for item, b, a in zip(items, before, after, strict=True)]
        )
