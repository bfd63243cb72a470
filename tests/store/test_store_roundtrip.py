"""Property tests: whatever valid value goes into the SQLite store comes back equal.

In the spirit of sqlite-utils' `test_hypothesis.py`: events, memories and index items
are drawn from the whole of Unicode (astral characters, emoji, NUL, JSON's special
characters), with timestamps from 1970 to the year 9999, and read back every way the
store offers. Values validation refuses are skipped; lone surrogates, which no UTF-8
store can keep, must be among them. Each example gets a fresh store in its own folder.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memoir import Event, EventRole, EventType, InvalidEvent, InvalidInput, Memory, MemoryKind, Severity
from memoir.model.ids import CROCKFORD
from memoir.store import EventQuery, IndexItem, SQLiteStore

pytestmark = (
    pytest.mark.sqlite_only
)  # each example opens a SQLiteStore of its own: test_postgres_hostile holds PostgreSQL to the same

# Every code point UTF-8 can carry: all of Unicode but lone surrogates, which validation
# refuses (see the last tests). Ids may not hold control characters either.
chars = st.characters(codec="utf-8")
# Ids refuse C0 and C1 controls and line separators (a sampled "\x85" checks that it stays refused).
id_chars = st.characters(
    codec="utf-8", exclude_characters=[chr(c) for c in (*range(32), *range(127, 160), 0x2028, 0x2029)]
)
texts = st.text(chars, max_size=40) | st.text(st.sampled_from("a \x00\t\n\"'\\{}[]:,é中🙂𝄞\U0010ffff"), max_size=20)
ids_text = st.text(id_chars, min_size=1, max_size=20) | st.sampled_from(["s1", "🙂", "𝄞 ☃", " padded ", "\x85"])
ulids = st.tuples(st.sampled_from("01234567"), st.text(CROCKFORD, min_size=25, max_size=25)).map("".join)
# Up to the year 9999, which stays below the ULID limit (2**48 ms): Python can go no later.
instants = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 12, 31), timezones=st.just(UTC))
metadata = st.dictionaries(texts.filter(bool), texts, max_size=4)  # keys are non-empty

EXAMPLES = settings(max_examples=60)


@contextmanager
def fresh_store() -> Iterator[SQLiteStore]:
    # Not the tmp_path fixture: hypothesis runs many examples in one test call.
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore.open(Path(folder) / "memoir.db", synchronous="OFF")
        try:
            yield store
        finally:
            store.close()


def valid(build: Any, fields: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[Any]:
    """Values `build(**fields)` makes, skipping the fields that validation refuses."""

    def made(drawn: dict[str, Any]) -> Any:
        try:
            return build(**drawn)
        except (InvalidEvent, InvalidInput):
            return None

    # A filter, not assume(): it redraws one value instead of dropping a whole example.
    return fields.map(made).filter(lambda value: value is not None)


@st.composite
def event_fields(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(list(EventType)))
    return {
        "session_id": draw(ids_text),
        "event_type": kind,
        "text": draw(texts.filter(bool) if not kind.is_boundary else texts),
        "role": draw(st.none() | st.sampled_from(list(EventRole))),
        "timestamp": draw(instants),
        "event_id": draw(st.none() | ulids),
        "metadata": draw(metadata),
        "conversation_id": draw(st.none() | ids_text),
        "agent_id": draw(st.none() | ids_text),
    }


events = valid(Event.create, event_fields())


def unique_events(max_size: int = 8) -> st.SearchStrategy[list[Event]]:
    return st.lists(events, min_size=1, max_size=max_size, unique_by=lambda e: e.event_id)


@given(unique_events())
@EXAMPLES
def test_events_read_back_equal_by_id_in_bulk_and_by_scan(batch: list[Event]) -> None:
    with fresh_store() as store:
        assert store.append(batch, lambda e: ["index_event"]) == batch
        for event in batch:
            assert store.get(event.event_id) == event
        stored = store.get_many([e.event_id for e in batch])
        assert stored == {e.event_id: e for e in batch}
        assert all(stored[e.event_id].metadata == e.metadata for e in batch)
        in_order = sorted(batch, key=lambda e: (e.timestamp_ms, e.event_id))
        assert store.scan(EventQuery(limit=len(batch))) == in_order
        assert store.count_events() == len(batch)


@given(unique_events(max_size=4))
@EXAMPLES
def test_scans_by_conversation_and_session_return_the_same_events(batch: list[Event]) -> None:
    with fresh_store() as store:
        store.append(batch, lambda e: [])
        first = batch[0]
        query = EventQuery(conversation_id=first.conversation_id, session_id=first.session_id, limit=10)
        wanted = [e for e in batch if (e.conversation_id, e.session_id) == (first.conversation_id, first.session_id)]
        assert store.scan(query) == sorted(wanted, key=lambda e: (e.timestamp_ms, e.event_id))


tags = st.lists(st.text(st.characters(categories=["L", "N"]) | st.sampled_from("_-/"), min_size=1, max_size=8))


@st.composite
def memory_fields(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(list(MemoryKind)))
    return {
        "id": draw(ulids),
        "kind": kind,
        "content": draw(texts),
        "conversation_id": draw(ids_text),
        "created_at": draw(instants),
        "tags": draw(tags),
        "severity": draw(st.none() | st.sampled_from(list(Severity))) if kind is MemoryKind.GOTCHA else None,
        "event_ids": draw(st.lists(ulids | st.text(max_size=10), max_size=3)),
        "source": draw(st.sampled_from(["user", "llm", "heuristics"]) | st.text(max_size=10)),
        "replaced_by": draw(st.none() | ulids),
        "deleted_at": draw(st.none() | instants),
    }


memories = valid(Memory, memory_fields())


@given(st.lists(memories, min_size=1, max_size=5, unique_by=lambda m: m.id))
@EXAMPLES
def test_memories_read_back_equal_one_by_one_and_listed(saved: list[Memory]) -> None:
    with fresh_store() as store:
        for number, memory in enumerate(saved):
            store.memory_save(memory, f"entries/{number}.md", f"hash{number}")
        for memory in saved:
            assert store.memory_get(memory.id) == memory
        listed = store.memory_list(include_deleted=True)
        assert listed == sorted(saved, key=lambda m: (m.created_at, m.id))
        assert store.memory_list() == [m for m in listed if not m.deleted]
        assert set(store.memory_files()) == {m.id for m in saved}


index_items = st.builds(
    IndexItem,
    kind=st.sampled_from(["turn", "fact", "gotcha"]) | st.text(min_size=1, max_size=8),
    ref=st.text(min_size=1, max_size=30),
    conversation_id=ids_text,
    created_ms=st.integers(min_value=0, max_value=2**48 - 1),
    text=st.text(max_size=60),
    search_text=st.text(max_size=60),
    content_hash=st.text(min_size=1, max_size=16),
    event_ids=st.lists(ulids | st.text(max_size=10), max_size=3).map(tuple),
    metadata=st.dictionaries(st.text(max_size=10), st.text(max_size=20), max_size=4),
    agent_id=st.none() | st.text(min_size=1, max_size=10),
    session_id=st.none() | st.text(min_size=1, max_size=10),
    role=st.none() | st.sampled_from(list(EventRole)).map(str),
    context_before=st.text(max_size=30),
    context_after=st.text(max_size=30),
)


@given(st.lists(index_items, min_size=1, max_size=6, unique_by=lambda item: item.ref))
@EXAMPLES
def test_index_items_read_back_equal(items: list[IndexItem]) -> None:
    with fresh_store() as store:
        store.index_add(items)
        ids = dict(store.connection().execute("SELECT ref, item_id FROM index_items").fetchall())
        assert store.index_items_by_ref([item.ref for item in items]) == set(ids)
        stored = store.index_items(list(ids.values()))
        assert {ids[item.ref]: replace(item, item_id=ids[item.ref]) for item in items} == stored
        assert store.index_count() == len(items)


surrogates = st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3)


@given(st.tuples(ids_text, surrogates, ids_text).map("".join), st.sampled_from(["text", "session_id", "metadata"]))
@EXAMPLES
def test_any_lone_surrogate_is_refused_by_validation(value: str, field: str) -> None:
    fields: dict[str, Any] = {"session_id": "s1", "event_type": "user_message", "text": "hi"}
    fields[field] = {"key": value} if field == "metadata" else value
    with pytest.raises(InvalidEvent, match="surrogate"):
        Event.create(**fields)


def test_text_no_store_can_keep_is_refused_before_it_reaches_one() -> None:
    with pytest.raises(InvalidEvent, match="surrogate"):
        Event.create(session_id="s1", event_type="user_message", text="half an emoji: \ud83d")
    with pytest.raises(InvalidInput, match="surrogate"):
        Memory(id="01HN4QXKN6YWXVKZ3JMHP4BCDE", kind=MemoryKind.FACT, content="half an emoji: \ud83d")
