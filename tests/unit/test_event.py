"""Events: seed 002's validation rules and the JSON round trip."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir import Event, EventRole, EventType, InvalidEvent, OutboxAction, OutboxEntry
from memoir.model.event import format_timestamp
from memoir.model.ids import ulid_timestamp_ms

ID = "01HN4QXKN6YWXVKZ3JMHP4BCDE"


def make(**fields: object) -> Event:
    data: dict[str, object] = {"session_id": "s1", "event_type": "user_message", "text": "hi", **fields}
    return Event.from_dict(data)


def test_an_event_gets_an_id_a_time_and_the_typical_role_when_they_are_left_out() -> None:
    event = Event.create(session_id="s1", event_type=EventType.TOOL_RESULT, text="42")
    assert len(event.event_id) == 26
    assert abs(event.timestamp - datetime.now(UTC)) < timedelta(seconds=5)
    assert event.role is EventRole.TOOL
    assert event.conversation_id == "default"
    assert event.agent_id is None


def test_the_eight_event_types_and_four_roles() -> None:
    assert [t.value for t in EventType] == [
        "session_start",
        "user_message",
        "assistant_message",
        "tool_result",
        "assistant_stop",
        "subagent_start",
        "subagent_stop",
        "session_end",
    ]
    assert [r.value for r in EventRole] == ["user", "assistant", "system", "tool"]


@pytest.mark.parametrize("spelling", ["user_message", "UserMessage", "USER_MESSAGE", "EVENT_TYPE_USER_MESSAGE"])
def test_event_types_are_accepted_in_seed_and_proto_spellings(spelling: str) -> None:
    assert make(event_type=spelling).event_type is EventType.USER_MESSAGE


@pytest.mark.parametrize(
    ("fields", "field", "reason"),
    [
        ({"event_id": "not-a-ulid"}, "event_id", "ULID"),
        ({"event_id": "01HN4QXKN6YWXVKZ3JMHP4BCD"}, "event_id", "ULID"),
        ({"session_id": ""}, "session_id", "empty"),
        ({"session_id": "   "}, "session_id", "empty"),
        ({"session_id": 7}, "session_id", "text"),
        ({"conversation_id": ""}, "conversation_id", "empty"),
        ({"session_id": "a\x00b"}, "session_id", "control"),
        ({"event_type": "user_said"}, "event_type", "unknown type"),
        ({"role": "robot"}, "role", "unknown role"),
        ({"text": ""}, "text", "empty"),
        ({"text": 5}, "text", "text"),
        ({"metadata": {"n": 1}}, "metadata.n", "text"),
        ({"metadata": ["a"]}, "metadata", "map"),
        ({"timestamp": "last tuesday"}, "timestamp", "ISO 8601"),
        ({"timestamp": -5}, "timestamp", "plausible"),
        ({"timestamp": "1960-01-01T00:00:00Z"}, "timestamp", "1970"),
        ({"sesion_id": "typo"}, "sesion_id", "unknown field"),
        # Half of a surrogate pair (a JSON "\ud83d" escape without its partner) is no character.
        ({"text": "I \ud83d it"}, "text", "surrogate pair at position 2"),
        ({"session_id": "s\udc00"}, "session_id", "surrogate"),
        ({"metadata": {"k": "\ud800"}}, "metadata.k", "surrogate"),
        ({"metadata": {"\udfff": "v"}}, "metadata", "surrogate"),
        # Ids are one line: C0 and C1 controls, U+0085 (NEL) and U+2028/U+2029 break YAML and logs.
        ({"conversation_id": "a\x85b"}, "conversation_id", "line break (0x0085)"),
        ({"session_id": "a\u2028b"}, "session_id", "line break (0x2028)"),
        ({"agent_id": "a\x9bb"}, "agent_id", "control character"),
        # What Python itself trips on is refused by name too.
        ({"timestamp": "0001-01-01T00:00:00+14:00"}, "timestamp", "out of range once converted to UTC"),
        ({"timestamp": "²"}, "timestamp", "ISO 8601"),  # a digit to isdigit(), not to int()
        ({"timestamp": "9" * 5000}, "timestamp", "plausible"),  # past int()'s digit limit
        ({"timestamp": 10**5000}, "timestamp", "<a 16610-bit number> is not a plausible"),
        ({"timestamp": True}, "timestamp", "got True"),
        ({"metadata": ""}, "metadata", "map"),
        ({"metadata": {str(n): "" for n in range(101)}}, "metadata", "more than 100 keys"),
        ({"metadata": {"k": "x" * 65_536}}, "metadata", "longer than 65536 characters in all"),
        ({"metadata": {"a b": {"n": "v"}}}, "metadata.'a b'", "values are text, got dict"),
        ({"text": []}, "text", "expected text, got list"),
        ({" ": "typo"}, "' '", "unknown field"),
    ],
)
def test_invalid_fields_are_named_with_the_reason(fields: dict[str, object], field: str, reason: str) -> None:
    with pytest.raises(InvalidEvent) as caught:
        make(**fields)
    assert caught.value.field == field
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"{field}: ")


@pytest.mark.parametrize("missing", ["session_id", "event_type"])
def test_session_and_type_are_required(missing: str) -> None:
    data = {"session_id": "s1", "event_type": "user_message", "text": "hi"}
    del data[missing]
    with pytest.raises(InvalidEvent, match=f"{missing}: is required"):
        Event.from_dict(data)


@pytest.mark.parametrize("kind", ["session_start", "session_end", "assistant_stop", "subagent_start", "subagent_stop"])
def test_boundary_events_may_have_empty_text(kind: str) -> None:
    assert make(event_type=kind, text="").text == ""


@pytest.mark.parametrize("kind", ["user_message", "assistant_message", "tool_result"])
def test_messages_and_tool_results_must_have_text(kind: str) -> None:
    with pytest.raises(InvalidEvent, match="text: must not be empty"):
        make(event_type=kind, text=" \n")


@pytest.mark.parametrize(
    "value",
    [
        datetime(2024, 1, 15, 10, 0, 0, 123456, tzinfo=UTC),
        datetime(2024, 1, 15, 10, 0, 0, 123456),  # naive: taken as UTC
        datetime(2024, 1, 15, 11, 0, 0, 123456, tzinfo=timezone(timedelta(hours=1))),
        "2024-01-15T10:00:00.123Z",
        "2024-01-15T11:00:00.123+01:00",
        1705312800123,
        "1705312800123",
    ],
)
def test_timestamps_as_datetime_iso_8601_or_epoch_ms_mean_the_same_instant(value: object) -> None:
    event = make(timestamp=value)
    assert event.timestamp == datetime(2024, 1, 15, 10, 0, 0, 123000, tzinfo=UTC)
    assert event.timestamp_ms == 1705312800123


def test_a_timestamp_in_the_future_beyond_the_allowance_is_refused() -> None:
    now_ms = 1_705_312_800_000
    make(timestamp=now_ms + 299_000).check_not_future(now_ms, 300_000)
    with pytest.raises(InvalidEvent, match=r"timestamp: .* in the future"):
        make(timestamp=now_ms + 301_000).check_not_future(now_ms, 300_000)


def test_events_are_immutable() -> None:
    event = make()
    with pytest.raises(AttributeError):
        event.text = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        event.metadata["k"] = "v"  # type: ignore[index]


def test_metadata_is_copied_so_later_changes_to_the_input_do_not_leak_in() -> None:
    source = {"k": "v"}
    event = make(metadata=source)
    source["k"] = "changed"
    assert event.metadata == {"k": "v"}


def test_to_dict_uses_the_field_names_and_iso_timestamps() -> None:
    event = make(event_id=ID, timestamp=1705312800123, metadata={"tool": "grep"}, agent_id="a1")
    assert event.to_dict() == {
        "event_id": ID,
        "session_id": "s1",
        "timestamp": "2024-01-15T10:00:00.123Z",
        "event_type": "user_message",
        "role": "user",
        "text": "hi",
        "metadata": {"tool": "grep"},
        "conversation_id": "default",
        "agent_id": "a1",
    }


def test_an_event_that_names_its_id_but_not_its_time_happened_when_the_id_was_made() -> None:
    # A ULID holds the time it was made: a retry of the event is then the same event.
    assert make(event_id=ID).timestamp_ms == ulid_timestamp_ms(ID) == make(event_id=ID).timestamp_ms
    with pytest.raises(InvalidEvent, match="timestamp: not given, and the time in event_id 7ZZ"):
        make(event_id="7ZZZZZZZZZZZZZZZZZZZZZZZZZ")


def test_lower_case_ids_are_normalised() -> None:
    assert make(event_id=ID.lower()).event_id == ID


ids_text = st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and s.isprintable())
events = st.builds(
    Event.create,
    session_id=ids_text,
    event_type=st.sampled_from([t for t in EventType if t.is_boundary]),
    text=st.text(max_size=200),
    role=st.sampled_from(list(EventRole)),
    timestamp=st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)),
    metadata=st.dictionaries(st.text(min_size=1, max_size=10), st.text(max_size=30), max_size=5),
    conversation_id=ids_text,
    agent_id=st.none() | ids_text,
) | st.builds(
    Event.create,
    session_id=ids_text,
    event_type=st.sampled_from([EventType.USER_MESSAGE, EventType.ASSISTANT_MESSAGE, EventType.TOOL_RESULT]),
    text=st.text(min_size=1, max_size=300).filter(lambda s: not s.isspace()),
)


@given(events)
def test_every_valid_event_round_trips_through_json(event: Event) -> None:
    again = Event.from_dict(json.loads(json.dumps(event.to_dict())))
    assert again == event
    assert again.timestamp_ms == event.timestamp_ms
    assert again.to_dict() == event.to_dict()


@given(events)
def test_the_iso_timestamp_written_reads_back_to_the_same_millisecond(event: Event) -> None:
    assert make(timestamp=format_timestamp(event.timestamp)).timestamp_ms == event.timestamp_ms


def test_outbox_entries_have_the_seed_key_and_cover_their_events() -> None:
    entry = OutboxEntry(12345, ID, 1705312800123, OutboxAction.INDEX_EVENT, more_event_ids=("B", "C"))
    assert entry.key == "outbox:00000000000000012345"
    assert (entry.event_ids, entry.size) == ((ID, "B", "C"), 3)
