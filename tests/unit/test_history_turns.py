"""Byte stability across turns: the compressed prefix a provider caches does not change until the next compression.

A conversation grows two messages a turn and is managed every turn with the previous
turn's state, sent either whole (as a stateless client does) or as the managed history
plus the new messages (as the chat agent does). Between compressions the request only
grows at its end; a compression comes when 10 messages have been added, when the history
is over `max_tokens`, or when forced; and summaries already made stay, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from memoir.history import (
    Chunked,
    Compressed,
    FromLastNMessages,
    HistoryParams,
    Managed,
    Strategy,
    WholeHistory,
    manage,
)
from memoir.model.chat import Message
from tests.unit.test_history import said


def wire(messages: Sequence[Message]) -> list[str]:
    """The messages as the provider receives them, byte for byte."""
    return [json.dumps(m.to_openai(), sort_keys=True) for m in messages]


def turn(n: int) -> list[Message]:
    return [Message("user", said(2 * n)), Message("assistant", said(2 * n + 1))]


def opening(turns: int) -> list[Message]:
    return [Message("system", "You are a careful assistant."), *[m for n in range(turns) for m in turn(n)]]


@pytest.mark.parametrize("strategy", [WholeHistory(), FromLastNMessages(6), Chunked(4)], ids=str)
def test_a_client_sending_its_whole_history_gets_the_same_prefix_until_ten_messages_were_added(
    strategy: Strategy,
) -> None:
    messages, state, previous = opening(6), None, None
    compressed_at = []
    for n in range(6, 40):
        messages = [*messages, *turn(n)]
        managed = manage(messages, HistoryParams(strategy), state=state)
        if not managed.report.reused:
            compressed_at.append(len(messages))
        if previous is not None:
            sent, before = wire(managed.messages), wire(previous.messages)
            if managed.report.reused:
                assert sent[: len(before)] == before  # only grown at the end: the provider's cache holds
                assert sent[len(before) :] == wire(messages[-2:])
            earlier = [s.message for s in previous.report.summaries]
            assert set(wire(earlier)) <= set(sent)  # rolling: summaries already made stay as they were
        state, previous = managed.state, managed
    assert compressed_at == list(range(15, 82, 10))  # the first turn (15 messages), then every 10 added


def test_a_client_sending_back_the_managed_history_keeps_its_summaries_too() -> None:
    params = HistoryParams(FromLastNMessages(4))
    first = manage(opening(10), params)
    assert first.state is not None and first.report.summaries
    view, state = list(first.messages), first.state
    for n in range(10, 14):  # 8 messages added: reused as sent
        view += turn(n)
        managed = manage(view, params, state=state)
        assert managed.report.reused and managed.messages == view and managed.state is state
    view += turn(14)  # 10 added: compressed again, the earlier summary kept and not summarized again
    again = manage(view, params, state=state)
    assert not again.report.reused
    assert wire(again.messages)[:3] == wire(first.messages)[:3]  # system, first user, the first summary
    assert again.messages[-4:] == view[-4:]
    [new] = again.report.summaries
    assert new.message not in first.messages and "Summary of messages" in new.message.content


def test_the_token_limit_or_force_compresses_before_ten_messages_are_added() -> None:
    strategy = FromLastNMessages(4)
    first = manage(opening(10), HistoryParams(strategy))
    grown = [*opening(10), *turn(10), *turn(11)]
    roomy = manage(grown, HistoryParams(strategy, max_tokens=100_000), state=first.state)
    assert roomy.report.reused
    limit = first.report.tokens_after + 20  # the 4 new messages do not fit beside the old prefix
    tight = manage(grown, HistoryParams(strategy, max_tokens=limit), state=first.state)
    assert not tight.report.reused and tight.report.tokens_after <= limit
    forced = manage(grown, HistoryParams(strategy), state=first.state, force=True)
    assert not forced.report.reused and len(forced.messages) < len(roomy.messages)


def test_the_same_history_gives_the_same_bytes_and_a_state_that_no_longer_fits_is_ignored() -> None:
    messages = opening(12)
    once, twice = (manage(messages, HistoryParams(Chunked(5))) for _ in range(2))
    assert wire(once.messages) == wire(twice.messages)  # extractive summaries are deterministic
    edited = [messages[0], Message("user", "Something else entirely was said first."), *messages[2:], *turn(12)]
    fresh = manage(edited, HistoryParams(Chunked(5)), state=once.state)
    assert not fresh.report.reused and fresh.messages[1].content.startswith("Something else")
    other = manage([*messages, *turn(12)], HistoryParams(WholeHistory()), state=once.state)
    assert not other.report.reused and len(other.report.summaries) == 1  # another strategy: its own compression


def test_a_state_round_trip_keeps_the_report_exact() -> None:
    messages = opening(12)
    first: Managed = manage(messages, HistoryParams(WholeHistory()))
    state: Compressed | None = first.state
    assert state is not None and state.covered == len(messages)
    later = manage([*messages, *turn(12)], HistoryParams(WholeHistory()), state=state)
    assert later.report.reused
    assert later.report.summarized == first.report.summarized  # the reused summary still stands for them
    assert later.report.kept == (*first.report.kept, len(messages), len(messages) + 1)
    assert later.report.summaries == first.report.summaries
