"""The `index_event` job: turns with text become searchable items (keyword + vector).

`prepare` runs before the runner's transaction and computes embeddings (slow, and
cached by content hash in the store, so a replay or a rebuild never embeds the same
text twice); `run` then writes the items inside the transaction, which makes indexing
exactly once per event. Each item's search text starts with the speaker, so questions
that name a person match that person's turns in both indexes; the keyword index also
sees the turns before and after it in its session (an answer rarely repeats the words
of the question it answers, but the turn before it does), and the calendar terms of the
turn's day and of the days its words name ("yesterday": `memoir.index.dates`), which the
embedder never sees: an item's `content_hash` is that of the embedded text.
"""

from __future__ import annotations

from collections.abc import Sequence

from memoir.index.dates import dated_text
from memoir.index.embedders import CachedEmbedder, content_hash
from memoir.model import Event, EventType, OutboxAction
from memoir.store import IndexItem, Store

__all__ = ["TOOL_RESULT_CHARS", "TURN", "IndexEventJob", "item_for_event"]

TOOL_RESULT_CHARS = 1_000  # seed 002 truncates tool results to this much text
TURN = "turn"  # the kind of an event's item
INDEXED_TYPES = frozenset({EventType.USER_MESSAGE, EventType.ASSISTANT_MESSAGE, EventType.TOOL_RESULT})


def speaker_of(event: Event) -> str:
    return event.metadata.get("speaker") or event.metadata.get("tool_name") or event.role.value


def _shown_text(event: Event) -> str:
    text = event.text
    if event.event_type is EventType.TOOL_RESULT and len(text) > TOOL_RESULT_CHARS:
        text = text[:TOOL_RESULT_CHARS] + "…"
    return text


def search_text_of(event: Event) -> str:
    """What the embedder and the keyword index see: the speaker, then the turn."""
    return f"{speaker_of(event)}: {_shown_text(event)}"


def keyword_text_of(event: Event) -> str:
    """What the keyword index sees: the search text, then its calendar terms (issue 28)."""
    return dated_text(search_text_of(event), event.timestamp)


def item_for_event(event: Event) -> IndexItem:
    return _item(event, keyword_text_of(event), "", "")


def _item(event: Event, search_text: str, context_before: str, context_after: str) -> IndexItem:
    return IndexItem(
        kind=TURN,
        ref=event.event_id,
        conversation_id=event.conversation_id,
        created_ms=event.timestamp_ms,
        text=_shown_text(event),
        search_text=search_text,
        content_hash=content_hash(search_text_of(event)),  # of what the embedder sees
        event_ids=(event.event_id,),
        metadata=dict(event.metadata),
        agent_id=event.agent_id,
        session_id=event.session_id,
        role=event.role.value,
        context_before=context_before,
        context_after=context_after,
    )


class IndexEventJob:
    name = OutboxAction.INDEX_EVENT.value
    lane = "fast"

    def __init__(self, embedder: CachedEmbedder) -> None:
        self.embedder = embedder

    def wants(self, event: Event) -> bool:
        return event.event_type in INDEXED_TYPES and bool(event.text.strip())

    def prepare(self, events: Sequence[Event], store: Store) -> None:
        """Embed the whole batch in one call: the embedder groups texts by length and uses every core."""
        self.embedder.embed_hashed([search_text_of(e) for e in events])

    def run(self, events: Sequence[Event], store: Store) -> None:
        """Index the turns, each linked to the turn before it in its session (and that one to it).

        Each item is built once, with its context: this runs inside the runner's transaction,
        so its CPU per event is time the write lock is held.
        """
        texts = [keyword_text_of(e) for e in events]
        before: list[str] = [""] * len(events)
        after: list[str] = [""] * len(events)
        # A session is one agent's: two agents may use the same session id, and neither's
        # keyword columns may carry the other's words.
        latest: dict[tuple[str, str, str | None], int] = {}  # session -> position of its latest turn
        for position, event in enumerate(events):
            key = (event.conversation_id, event.session_id, event.agent_id)
            previous = latest.get(key)
            if previous is not None:  # the previous turn is in this batch
                after[previous] = texts[position]
                before[position] = texts[previous]
            elif (stored := store.index_last_in_session(item_for_event(event))) is not None:
                assert stored.item_id is not None
                store.index_set_context_after(stored.item_id, texts[position])
                before[position] = stored.search_text
            latest[key] = position
        store.index_add([_item(*row) for row in zip(events, texts, before, after, strict=True)])
