"""Segmentation: a session's events grouped for summarizing (gap, token limit, overlap, minimum size).

Generated event streams go through the real `segment` job over a real SQLite store, a
batch at a time as the fast lane hands them over, and the segments it leaves must obey
every rule at once.
"""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir.model import Event, new_ulid
from memoir.model.timeline import Segment
from memoir.store import SQLiteStore
from memoir.timeline.segments import SegmentJob, SegmentRules, event_tokens

pytestmark = pytest.mark.sqlite_only  # each example opens a SQLiteStore of its own

RULES = SegmentRules()
START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
WORDS = ["tide", "harbour", "lighthouse", "backend", "kotlin", "sailor", "chart", "buoy", "keeper", "lantern", "storm"]


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("segments")


# One event: seconds since the previous one, how many words, its type, its session.
steps = st.tuples(
    st.sampled_from([0, 5, 60, 240, 299, 301, 1_700, 1_799, 1_801, 7_200]),
    st.sampled_from([1, 3, 20, 150, 600, 1_500, 3_500]),
    st.sampled_from(["user_message", "assistant_message", "tool_result", "session_end"]),
    st.sampled_from(["s1", "s2"]),
)


def stream(spec: list[tuple[int, int, str, str]]) -> list[Event]:
    events, now = [], START
    for n, (gap, words, kind, session) in enumerate(spec):
        now += timedelta(seconds=gap)
        text = "" if kind == "session_end" else " ".join(WORDS[(n + i) % len(WORDS)] for i in range(words))
        event_id = new_ulid(int(now.timestamp() * 1000))
        events.append(Event.create(event_id=event_id, session_id=session, timestamp=now, event_type=kind, text=text))
    return events


def segments_of(store: SQLiteStore) -> list[Segment]:
    return [s for state in ("open", "closed") for s in store.segments(state, limit=10_000)]


def place(tmp: Path, events: list[Event], batch: int) -> SQLiteStore:
    store = SQLiteStore(tmp / f"{uuid.uuid4().hex}.db", synchronous="NORMAL")  # no fsync: not what is tested
    store.append(events, lambda event: [])
    job = SegmentJob()
    for start in range(0, len(events), batch):
        with store.atomic():
            job.run(events[start : start + batch], store)
    return store


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=st.lists(steps, min_size=1, max_size=40), batch=st.sampled_from([1, 3, 50]))
def test_generated_streams_obey_every_segmentation_rule(store_path: Path, spec: Any, batch: int) -> None:
    events = stream(spec)
    store = place(store_path, events, batch)
    try:
        found = segments_of(store)
    finally:
        store.close()
    by_id = {e.event_id: e for e in events}
    texts = [e for e in events if e.text.strip()]
    placed = [i for s in found for i in s.event_ids]
    assert sorted(placed) == sorted(e.event_id for e in texts)  # every event with text, once
    for segment in found:
        members = [by_id[i] for i in segment.event_ids]
        assert {e.session_id for e in members} == {segment.session_id}
        assert segment.token_count == sum(event_tokens(e) for e in members)
        assert segment.segment_id == f"seg-{members[0].event_id.lower()}"
        for before, after in itertools.pairwise(members):
            # a gap over 30 minutes splits, once the segment has its 2 events
            assert after.timestamp_ms - before.timestamp_ms <= RULES.gap_ms or members.index(after) < 2
        # the token limit splits too, unless the segment was still under its 2 events
        if len(members) > 2:
            assert sum(event_tokens(e) for e in members[:-1]) <= RULES.max_tokens
        overlap = [by_id[i] for i in segment.overlap_event_ids]
        assert sum(event_tokens(e) for e in overlap) <= RULES.overlap_tokens
        assert all(0 <= members[0].timestamp_ms - e.timestamp_ms <= RULES.overlap_ms for e in overlap)
        assert all(e.session_id == segment.session_id and e.event_id not in segment.event_ids for e in overlap)
    order = {e.event_id: n for n, e in enumerate(events)}  # events in one millisecond keep their stream order
    for session in ("s1", "s2"):  # only a session's last segment may be open, or hold one event
        mine = sorted((s for s in found if s.session_id == session), key=lambda s: (s.start_ms, order[s.event_ids[0]]))
        assert all(s.state == "closed" for s in mine[:-1])
        assert all(len(s.event_ids) >= RULES.min_events for s in mine[:-1] if _split(s, mine, by_id))


def _split(segment: Segment, mine: list[Segment], by_id: dict[str, Event]) -> bool:
    """Was this segment closed by a split (not by its session's end)?"""
    following = mine[mine.index(segment) + 1]
    return not any(
        e.event_type.value == "session_end" and segment.end_ms <= e.timestamp_ms <= following.start_ms
        for e in by_id.values()
        if e.session_id == segment.session_id
    )


def test_a_gap_of_more_than_30_minutes_starts_a_new_segment_with_no_overlap(tmp_path: Path) -> None:
    store = place(
        tmp_path,
        stream([(0, 3, "user_message", "s1"), (60, 3, "assistant_message", "s1"), (1_801, 3, "user_message", "s1")]),
        50,
    )
    first, second = sorted(segments_of(store), key=lambda s: s.start_ms)
    assert (len(first.event_ids), first.state, len(second.event_ids), second.state) == (2, "closed", 1, "open")
    assert second.overlap_event_ids == ()  # nothing of the first is within 5 minutes of the second
    store.close()


def test_the_token_limit_splits_and_carries_the_last_minutes_as_overlap(tmp_path: Path) -> None:
    spec = [(0, 1_500, "user_message", "s1"), (30, 1_500, "assistant_message", "s1"), (30, 20, "user_message", "s1")]
    spec += [(30, 1_500, "assistant_message", "s1")]
    store = place(tmp_path, stream(spec), 50)
    first, second = sorted(segments_of(store), key=lambda s: s.start_ms)
    assert len(first.event_ids) == 3 and first.token_count <= RULES.max_tokens
    assert second.overlap_event_ids == (first.event_ids[-1],)  # the short turn fits in 500 tokens; the long ones do not
    store.close()


def test_tool_results_count_their_first_thousand_characters() -> None:
    tool = Event.create(session_id="s", event_type="tool_result", text="lantern " * 5_000)
    user = Event.create(session_id="s", event_type="user_message", text="lantern " * 5_000)
    assert event_tokens(tool) <= 250 < event_tokens(user)


def test_a_lone_event_is_not_split_off_and_a_session_end_closes_the_segment(tmp_path: Path) -> None:
    spec = [(0, 3_500, "user_message", "s1"), (7_200, 20, "assistant_message", "s1"), (5, 0, "session_end", "s1")]
    store = place(tmp_path, stream(spec), 1)
    [only] = segments_of(store)
    assert len(only.event_ids) == 2 and only.state == "closed"  # a segment splits only once it has 2 events
    store.close()
