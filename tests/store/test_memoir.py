"""The Memoir façade: ingest, events, get_event, flush, status, homes and agent modes."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memoir import (
    Event,
    EventNotFound,
    EventType,
    HomeError,
    InvalidEvent,
    InvalidQuery,
    Memoir,
    MemoirError,
)
from tests.conftest import message


def test_ingest_accepts_events_dicts_and_lists_and_returns_ids_in_order(memoir: Memoir) -> None:
    event = Event.create(session_id="s1", event_type="user_message", text="object")
    [one] = memoir.ingest(event)
    assert one == event.event_id
    [two] = memoir.ingest(message("dict"))
    three = memoir.ingest([message("a"), Event.create(session_id="s1", event_type="assistant_message", text="b")])
    assert len(three) == 2
    assert [memoir.get_event(i).text for i in (one, two, *three)] == ["object", "dict", "a", "b"]


def test_ingest_is_all_or_nothing_and_names_the_bad_event(memoir: Memoir) -> None:
    with pytest.raises(InvalidEvent) as caught:
        memoir.ingest([message("good"), message("bad", session_id="")])
    assert str(caught.value) == "event #1: session_id: must not be empty"
    assert caught.value.index == 1 and caught.value.field == "session_id"
    assert memoir.status().events == 0


@pytest.mark.parametrize("bad", ["just text", b"bytes", 42, None])
def test_ingest_refuses_what_is_not_an_event(memoir: Memoir, bad: object) -> None:
    with pytest.raises(InvalidEvent, match="expected an Event"):
        memoir.ingest(bad)  # type: ignore[arg-type]


def test_ingest_refuses_timestamps_in_the_future(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(max_clock_skew=60)
    in_two_minutes = int(datetime.now(UTC).timestamp() * 1000) + 120_000
    with pytest.raises(InvalidEvent, match=r"timestamp: .* in the future .*allowed clock skew: 60 s"):
        memoir.ingest(message(timestamp=in_two_minutes))
    memoir.ingest(message(timestamp=in_two_minutes - 90_000))  # within the allowance


def test_ingesting_the_same_event_twice_keeps_one_event(memoir: Memoir) -> None:
    [first] = memoir.ingest(message("original"))
    assert memoir.ingest(message("original", event_id=first)) == [first]  # a retry: dated by its ULID
    with pytest.raises(InvalidEvent, match=f"event_id: {first} is already stored with different content"):
        memoir.ingest(message("retry", event_id=first))
    assert memoir.get_event(first).text == "original"
    assert memoir.status().events == 1


def test_events_are_listed_in_time_order_with_filters(memoir: Memoir) -> None:
    memoir.ingest(
        [
            message("c", timestamp="2024-01-03T00:00:00Z", conversation_id="work"),
            message("a", timestamp="2024-01-01T00:00:00Z", session_id="s2"),
            message("b", timestamp="2024-01-02T00:00:00Z", conversation_id="work"),
        ]
    )
    assert [e.text for e in memoir.events()] == ["a", "b", "c"]
    assert [e.text for e in memoir.events(conversation_id="work")] == ["b", "c"]
    assert [e.text for e in memoir.events(session_id="s2")] == ["a"]
    assert [e.text for e in memoir.events(since="2024-01-02T00:00:00Z")] == ["b", "c"]
    assert [e.text for e in memoir.events(until=datetime(2024, 1, 2, tzinfo=UTC))] == ["a"]
    assert [e.text for e in memoir.events(since=1704153600000, until=1704240000000)] == ["b"]


def test_events_page_with_a_cursor_until_the_end(memoir: Memoir) -> None:
    memoir.ingest([message(f"m{i}", timestamp=1_700_000_000_000 + i) for i in range(7)])
    seen, cursor = [], None
    while True:
        page = memoir.events(limit=3, cursor=cursor)
        seen.extend(e.text for e in page)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [f"m{i}" for i in range(7)]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 10_001}, "limit"),
        ({"cursor": "nonsense"}, "cursor"),
        ({"since": "soon"}, "since"),
    ],
)
def test_bad_event_queries_are_invalid_queries(memoir: Memoir, kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidQuery) as caught:
        memoir.events(**kwargs)  # type: ignore[arg-type]
    assert caught.value.field == field


def test_get_event_finds_by_id_and_says_clearly_when_it_cannot(memoir: Memoir) -> None:
    [event_id] = memoir.ingest(message())
    assert memoir.get_event(event_id.lower()).event_id == event_id
    with pytest.raises(EventNotFound, match="no event with id '01HN4QXKN6YWXVKZ3JMHP4BCDE'"):
        memoir.get_event("01HN4QXKN6YWXVKZ3JMHP4BCDE")
    with pytest.raises(InvalidQuery, match="event_id"):
        memoir.get_event("123")


def test_flush_without_a_background_runner_drains_the_outbox_itself(memoir: Memoir) -> None:
    memoir.ingest([message("a"), message("b")])
    assert memoir.status().backlog == 8  # per user message: sessions, search index, segments, fact extraction
    assert memoir.flush(timeout=10)
    status = memoir.status()
    assert status.backlog == 0
    assert status.sessions == 1


def test_the_background_runner_processes_what_is_ingested(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(worker_enabled=True)
    memoir.ingest([message("a"), message("b", session_id="s2")])
    assert memoir.flush(timeout=10)
    status = memoir.status()
    assert status.sessions == 2
    assert status.workers == {"fast": "running in this process", "llm": "running in this process"}


@pytest.mark.sqlite_only
def test_status_reports_counts_backlog_database_and_size(memoir: Memoir, home: Path) -> None:
    memoir.ingest([message("a", conversation_id="c1"), message("b", conversation_id="c2")])
    status = memoir.status()
    assert (status.events, status.conversations, status.backlog) == (2, 2, 8)
    assert status.database == str(home / "memoir.db")
    assert status.size_bytes > 0
    assert all(state.startswith("not running") for state in status.workers.values())
    data = status.to_dict()
    assert data["outbox_backlog"] == 8
    assert data["outbox_pending"] == {"track_session": 2, "index_event": 2, "segment": 2, "extract_facts": 2}


def test_unified_mode_tags_events_with_the_configured_agent(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(multi_agent_mode="unified", agent_id="planner")
    [event_id] = memoir.ingest(message())
    assert memoir.get_event(event_id).agent_id == "planner"
    [other] = memoir.ingest(message(agent_id="coder"))
    assert memoir.get_event(other, agent_id="coder").agent_id == "coder"
    assert [e.event_id for e in memoir.events(agent_id="coder")] == [other]


def test_unified_mode_without_any_agent_id_is_refused(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(multi_agent_mode="unified")
    with pytest.raises(InvalidEvent, match="agent_id: required in unified mode"):
        memoir.ingest(message())


def test_opening_creates_the_home_unless_told_not_to(tmp_path: Path) -> None:
    with pytest.raises(HomeError, match=r"no memoir home at .*memoir init"):
        Memoir.open(tmp_path / "nothing-here", create=False)
    with Memoir.open(tmp_path / "a" / "b", worker_enabled=False) as memoir:
        assert memoir.home.is_dir()


def test_a_home_that_is_a_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("not a folder")
    with pytest.raises(HomeError, match="is not a folder"):
        Memoir.open(path)


@pytest.mark.skipif(shutil.which("chattr") is None, reason="needs chattr to make a folder read-only for root")
def test_an_unwritable_home_is_a_clear_error(tmp_path: Path) -> None:
    home = tmp_path / "locked"
    home.mkdir()
    if os.geteuid() == 0:
        locked = subprocess.run(["chattr", "+i", str(home)], capture_output=True, check=False).returncode == 0
    else:
        home.chmod(0o500)
        locked = True
    if not locked:
        pytest.skip("this filesystem cannot make a folder read-only")
    try:
        with pytest.raises(HomeError, match="not writable"):
            Memoir.open(home)
    finally:
        subprocess.run(["chattr", "-i", str(home)], capture_output=True, check=False)
        home.chmod(0o700)


def test_every_error_is_a_memoir_error(memoir: Memoir) -> None:
    with pytest.raises(MemoirError):
        memoir.ingest(message(event_type="nope"))


def test_events_by_type_round_trip_through_the_store(memoir: Memoir) -> None:
    sent = [
        message("", event_type=kind.value) if kind.is_boundary else message(kind.value, event_type=kind.value)
        for kind in EventType
    ]
    ids = memoir.ingest(sent)
    assert [memoir.get_event(i).event_type for i in ids] == list(EventType)


def test_flush_drains_inline_when_the_runner_thread_is_gone(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(worker_enabled=True)
    worker = memoir._parts.lanes.worker("fast")
    assert worker is not None
    worker.stop()  # as if the thread had died
    memoir.ingest(message("after the thread stopped"))
    assert memoir.flush(timeout=10)
    assert memoir.status().backlog == 0
