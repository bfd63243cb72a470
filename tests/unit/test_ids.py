"""ULIDs and event keys: format, monotonic generation, and key order equal to time order."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir import EventKey, InvalidEvent
from memoir.model import is_ulid, new_ulid, now_ms, ulid_timestamp_ms
from memoir.model.ids import CROCKFORD, MAX_TIMESTAMP_MS

ulids = st.text(alphabet=CROCKFORD, min_size=25, max_size=25).flatmap(
    lambda tail: st.sampled_from("01234567").map(lambda head: head + tail)
)
timestamps = st.integers(min_value=0, max_value=10**13 - 1)


def test_a_new_ulid_is_26_crockford_characters_carrying_its_timestamp() -> None:
    ulid = new_ulid(1_706_540_400_000)
    assert len(ulid) == 26
    assert set(ulid) <= set(CROCKFORD)
    assert ulid_timestamp_ms(ulid) == 1_706_540_400_000


def test_ulids_of_one_millisecond_sort_in_the_order_they_were_made() -> None:
    made = [new_ulid(1_706_540_400_000) for _ in range(1000)]
    assert made == sorted(made)
    assert len(set(made)) == 1000


def test_ulids_of_later_milliseconds_sort_later() -> None:
    assert new_ulid(1_000) < new_ulid(1_001) < new_ulid(MAX_TIMESTAMP_MS)


@pytest.mark.parametrize(
    "value",
    [
        "",
        "01HN4QXKN6YWXVKZ3JMHP4BCD",
        "01HN4QXKN6YWXVKZ3JMHP4BCDEF",
        "01HN4QXKN6YWXVKZ3JMHP4BCDI",
        "81HN4QXKN6YWXVKZ3JMHP4BCDE",
        "01hn4qxkn6ywxvkz3jmhp4bcde",
        None,
        42,
    ],
)
def test_is_ulid_rejects_wrong_length_alphabet_overflow_and_case(value: object) -> None:
    assert not is_ulid(value)


def test_event_key_has_the_seed_format() -> None:
    key = EventKey(1_706_540_400_000, "01HN4QXKN6YWXVKZ3JMHP4BCDE")
    assert str(key) == "evt:1706540400000:01HN4QXKN6YWXVKZ3JMHP4BCDE"
    assert key.event_id == "01HN4QXKN6YWXVKZ3JMHP4BCDE"


def test_event_key_pads_the_timestamp_to_13_digits() -> None:
    assert str(EventKey(5, "01HN4QXKN6YWXVKZ3JMHP4BCDE")).startswith("evt:0000000000005:")


@pytest.mark.parametrize(
    "text",
    [
        "evt:17065404:01HN4QXKN6YWXVKZ3JMHP4BCDE",
        "key:1706540400000:01HN4QXKN6YWXVKZ3JMHP4BCDE",
        "evt:1706540400000:nope",
        "evt",
    ],
)
def test_malformed_event_keys_are_refused(text: str) -> None:
    with pytest.raises(InvalidEvent):
        EventKey.parse(text)


def test_event_key_from_an_event_id_uses_the_ulid_time() -> None:
    ulid = new_ulid(1_234_567)
    assert EventKey.from_event_id(ulid) == EventKey(1_234_567, ulid)


@given(timestamps, ulids)
def test_event_keys_round_trip_through_text(ms: int, ulid: str) -> None:
    key = EventKey(ms, ulid)
    assert EventKey.parse(str(key)) == key


@given(st.lists(st.tuples(timestamps, ulids), min_size=2, max_size=50))
def test_text_order_of_keys_is_chronological_order(pairs: list[tuple[int, str]]) -> None:
    keys = [EventKey(ms, ulid) for ms, ulid in pairs]
    by_text = sorted(keys, key=str)
    by_time = sorted(keys, key=lambda k: (k.timestamp_ms, k.ulid))
    assert by_text == by_time


@given(st.integers(min_value=0, max_value=MAX_TIMESTAMP_MS))
def test_any_timestamp_survives_a_ulid(ms: int) -> None:
    assert ulid_timestamp_ms(new_ulid(ms)) == ms


def test_now_ms_is_the_wall_clock_in_milliseconds() -> None:
    before = int(time.time() * 1000)
    assert before - 1 <= now_ms() <= int(time.time() * 1000) + 1
