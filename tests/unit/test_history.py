"""History management (seed 003): what every strategy keeps, the limits' order, the typed errors.

Generated histories mix system messages (first and in the middle), user and assistant
turns, tool calls with their results, memory messages and timestamps (some missing); every
strategy, with and without limits, must keep its promises on all of them at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memoir.errors import InsufficientHistory, InvalidQuery, InvalidTokenLimit
from memoir.history import (
    MEMORY_PREAMBLE,
    Chunked,
    FromLastNMessages,
    FromTimestamp,
    HistoryParams,
    Managed,
    Strategy,
    TokenCounter,
    WholeHistory,
    WholeHistoryMultipleSystemMessages,
    count_tokens,
    manage,
    parse_strategy,
)
from memoir.history.layout import moments
from memoir.model.chat import Message, ToolCall
from tests.conftest import REPO

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
WORDS = ["harbour", "lantern", "kotlin", "backend", "sailor", "storm", "keeper", "chart", "buoy", "tide", "ferry"]
STRATEGIES: list[Strategy] = [
    WholeHistory(),
    FromLastNMessages(1),
    FromLastNMessages(6),
    Chunked(1),
    Chunked(4),
    FromTimestamp(START + timedelta(minutes=30)),
    WholeHistoryMultipleSystemMessages(),
]


def said(n: int, words: int = 6) -> str:
    """Two sentences of content words, different for each n."""
    first = " ".join(WORDS[(n + i) % len(WORDS)] for i in range(words))
    return f"The {first} number {n} was checked. We moved the {WORDS[n % len(WORDS)]} plan {n} forward."


# One step of a history: a turn, a tool round, a memory message, a system message.
steps = st.tuples(st.sampled_from(["turn", "turn", "tool", "memory", "named memory", "system"]), st.integers(1, 3))
endings = st.sampled_from(["user", "assistant", "tool", "call"])


def history(spec: Sequence[tuple[str, int]], ending: str, stamps: Sequence[bool], system: bool = True) -> list[Message]:
    messages: list[Message] = [Message("system", "You are a careful assistant.")] if system else []
    for n, (kind, count) in enumerate(spec):
        if kind == "turn":
            messages += [Message("user", said(n)), Message("assistant", said(n + 100))]
        elif kind == "tool":
            calls = tuple(ToolCall(f"call{n}_{k}", "search", json.dumps({"q": WORDS[k]})) for k in range(count))
            messages.append(Message("assistant", "", tool_calls=calls))
            messages += [Message("tool", said(n + 200), tool_call_id=c.id, name="search") for c in calls]
        elif kind == "memory":
            messages.append(Message("user", f"{MEMORY_PREAMBLE}\n> [fact] {said(n + 300)}"))
        elif kind == "named memory":
            messages.append(Message("assistant", said(n + 400), name="memory"))
        else:
            messages.append(Message("system", f"New instructions {n}: answer briefly."))
    if ending == "user":
        messages.append(Message("user", said(999)))
    elif ending in ("tool", "call"):
        messages.append(Message("assistant", "", tool_calls=(ToolCall("last", "fetch", "{}"),)))
        if ending == "tool":
            messages.append(Message("tool", said(998), tool_call_id="last", name="fetch"))
    return [_stamped(m, n, stamps[n % len(stamps)]) for n, m in enumerate(messages)]


def _stamped(message: Message, n: int, stamp: bool) -> Message:
    if not stamp:
        return message
    return Message(
        message.role, message.content, message.tool_calls, message.tool_call_id, message.name,
        START + timedelta(minutes=2 * n),
    )  # fmt: skip


histories = st.builds(
    history,
    st.lists(steps, min_size=5, max_size=30),
    endings,
    st.lists(st.booleans(), min_size=1, max_size=4),
    st.booleans(),
)


def preserved(messages: Sequence[Message]) -> set[int]:
    """What no strategy may summarize: system, first user, memory messages, the open turn."""
    keep = {i for i, m in enumerate(messages) if m.role == "system" or m.name == "memory"}
    keep |= {i for i, m in enumerate(messages) if m.content.startswith(MEMORY_PREAMBLE)}
    keep |= set([i for i, m in enumerate(messages) if m.role == "user"][:1])  # the first user message
    end = len(messages)
    while end > 0 and (messages[end - 1].role == "tool" or messages[end - 1].tool_calls):
        end -= 1
    if end == len(messages) and messages[-1].role == "user":
        end -= 1
    return keep | set(range(end, len(messages)))


def check_pairs(messages: Sequence[Message]) -> None:
    """Every tool result follows the call that asked for it, and every call has its results after it."""
    open_calls: set[str] = set()
    for message in messages:
        if message.role == "tool":
            assert message.tool_call_id in open_calls, f"a result without its call: {message.tool_call_id}"
        else:
            open_calls = {c.id for c in message.tool_calls}


def check_report(messages: list[Message], managed: Managed) -> None:
    report = managed.report
    kept, summarized, dropped = set(report.kept), set(report.summarized), set(report.dropped)
    assert kept | summarized | dropped == set(range(len(messages)))
    assert len(kept) + len(summarized) + len(dropped) == len(messages)
    verbatim = [m for m in managed.messages if all(m is not s.message for s in report.summaries)]
    assert verbatim == [messages[i] for i in report.kept]  # kept means word for word, in order
    for summary in report.summaries:
        assert summary.message in managed.messages
        for grip in summary.grips:  # each quoted sentence is in the message its grip names
            assert set(grip.messages) <= set(summary.covers)
            assert grip.excerpt in messages[grip.messages[0]].content
            assert f"[message {grip.messages[0]}]" in summary.message.content
    assert report.tokens_after == TokenCounter().total(managed.messages)
    assert report.tokens_before == TokenCounter().total(messages)


@settings(max_examples=40)
@given(messages=histories, strategy=st.sampled_from(STRATEGIES))
def test_every_strategy_keeps_what_it_promises(messages: list[Message], strategy: Strategy) -> None:
    if len(messages) < 10:
        with pytest.raises(InsufficientHistory):
            manage(messages, HistoryParams(strategy))
        return
    managed = manage(messages, HistoryParams(strategy))
    check_report(messages, managed)
    assert managed.report.dropped == ()  # no limit: nothing is lost, only summarized
    assert preserved(messages) <= set(managed.report.kept)
    check_pairs(managed.messages)
    assert [m for m in managed.messages if m.role == "system"] == [m for m in messages if m.role == "system"]
    for summary in managed.report.summaries:
        assert summary.message.role == "assistant" and summary.source == "heuristics"
    check_strategy(messages, managed, strategy)


def check_strategy(messages: list[Message], managed: Managed, strategy: Strategy) -> None:
    report, summaries = managed.report, managed.report.summaries
    free = set(range(len(messages))) - preserved(messages)
    if isinstance(strategy, WholeHistory):
        assert len(summaries) == (1 if free else 0) and set(report.summarized) == free
    elif isinstance(strategy, FromLastNMessages):
        assert set(range(max(0, len(messages) - strategy.n), len(messages))) <= set(report.kept)
        assert len(summaries) <= 1
    elif isinstance(strategy, Chunked):
        assert all(len(s.covers) >= strategy.size for s in summaries)
        left = free - set(report.summarized)  # the incomplete last chunk: fewer than k, after every summary
        assert len(left) < strategy.size
        assert all(i > max(report.summarized, default=-1) for i in left)
    elif isinstance(strategy, FromTimestamp):
        when = moments(messages)
        assert all(when[i] < strategy.timestamp for i in report.summarized)
        assert len(summaries) <= 1
    else:
        blocks = [sum(m.role == "system" for m in messages[: i + 1]) for i in range(len(messages))]
        for summary in summaries:
            assert len({blocks[i] for i in summary.covers}) == 1  # one block each
        assert len(summaries) == len({blocks[i] for i in free})


@settings(max_examples=40)
@given(
    messages=histories,
    strategy=st.sampled_from([None, *STRATEGIES]),
    max_tokens=st.integers(60, 1500),
    max_size=st.one_of(st.none(), st.integers(1, 12)),
)
def test_limits_hold_after_compression_and_never_drop_a_system_message(
    messages: list[Message], strategy: Strategy | None, max_tokens: int, max_size: int | None
) -> None:
    counter = TokenCounter()
    system = counter.total(m for m in messages if m.role == "system")
    params = HistoryParams(strategy, max_tokens=max_tokens, max_history_size=max_size)
    if max_tokens < system:
        with pytest.raises(InvalidTokenLimit) as refused:
            manage(messages, params)
        assert (refused.value.system_tokens, refused.value.max_tokens) == (system, max_tokens)
        return
    if strategy is not None and len(messages) < 10:
        return
    managed = manage(messages, params)
    check_report(messages, managed)
    check_pairs(managed.messages)
    assert managed.report.tokens_after <= max_tokens
    systems = [m for m in managed.messages if m.role == "system"]
    assert systems == [m for m in messages if m.role == "system"]
    if max_size is not None:
        assert len(managed.messages) <= max(max_size, len(systems))


def test_compression_comes_first_then_max_tokens_then_max_history_size() -> None:
    messages = history([("turn", 1)] * 20, "user", [True])
    # Compression first: on 42 messages it may run; trimmed to 4 first, it would refuse (fewer than 10).
    managed = manage(messages, HistoryParams(WholeHistory(), max_history_size=4))
    assert len(managed.messages) == 4 and managed.report.summaries
    # The summary is made to fit max_tokens (it shares the room the kept messages leave)...
    fitted = manage(messages, HistoryParams(WholeHistory(), max_tokens=200))
    assert fitted.report.summaries and fitted.report.tokens_after <= 200 and fitted.report.dropped == ()
    # ...and what is still over is trimmed oldest first, free messages before preserved ones.
    trimmed = manage(messages, HistoryParams(FromLastNMessages(10), max_tokens=300))
    assert trimmed.report.tokens_after <= 300
    assert trimmed.report.kept[:2] == (0, 1)  # the system prompt and the first user message
    assert trimmed.report.kept[-1] == len(messages) - 1  # the message being answered
    assert trimmed.report.dropped and min(trimmed.report.dropped) < max(trimmed.report.kept)
    # max_history_size last: 5 messages of what max_tokens left, the system prompt among them.
    both = manage(messages, HistoryParams(FromLastNMessages(10), max_tokens=300, max_history_size=5))
    assert len(both.messages) == 5 and both.messages[0] == messages[0]
    assert set(both.report.kept) <= set(trimmed.report.kept)


def test_trimming_alone_drops_the_oldest_free_messages_and_keeps_tool_calls_with_their_results() -> None:
    messages = history([("turn", 1), ("tool", 2), ("turn", 1), ("tool", 1), ("turn", 1)], "assistant", [True])
    counter = TokenCounter()
    managed = manage(messages, HistoryParams(max_tokens=counter.total(messages) - counter.count(messages[2]) - 1))
    assert managed.report.dropped == (2, 3, 4, 5)  # the first reply, then the call with both its results
    check_pairs(managed.messages)
    assert manage(messages, HistoryParams(max_history_size=3)).messages == [messages[0], messages[1], messages[-1]]
    assert manage(messages, HistoryParams(max_history_size=1)).messages == [messages[0]]


def test_a_legacy_function_call_and_its_result_are_dropped_together() -> None:
    """OpenAI's deprecated form (`function_call`, then a `function` message) is one unit, as tool calls are."""
    messages = [
        Message.from_openai({"role": "system", "content": "You help."}),
        Message.from_openai({"role": "user", "content": "Look it up " * 20}),
        Message.from_openai({"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}}),
        Message.from_openai({"role": "function", "name": "f", "content": "found " * 40}),
        Message.from_openai({"role": "assistant", "content": "It says found."}),
        Message.from_openai({"role": "user", "content": "Thanks, and now?"}),
    ]
    counter = TokenCounter()
    managed = manage(messages, HistoryParams(max_tokens=counter.total(messages) - counter.count(messages[3]) + 1))
    assert {2, 3} <= set(managed.report.dropped)  # the call went with its result
    assert [m.role for m in managed.messages].count("function") == 0 and not any(m.calls for m in managed.messages)


def test_the_typed_errors() -> None:
    ten = history([("turn", 1)] * 4, "user", [True])
    assert len(ten) == 10 and manage(ten, HistoryParams(WholeHistory())).report.summaries
    with pytest.raises(InsufficientHistory) as short:
        manage(ten[:9], HistoryParams(Chunked(3)))
    assert (short.value.message_count, short.value.minimum) == (9, 10)
    assert manage(ten[:9], HistoryParams()).messages == ten[:9]  # no strategy: no minimum
    system = TokenCounter().count(ten[0])
    with pytest.raises(InvalidTokenLimit) as low:
        manage(ten, HistoryParams(max_tokens=system - 1))
    assert (low.value.system_tokens, low.value.max_tokens, low.value.field) == (system, system - 1, "max_tokens")
    assert manage(ten, HistoryParams(max_tokens=system)).messages == [ten[0]]  # the system prompt alone fits
    for bad in (0, -3, 2.5, True, "10"):
        with pytest.raises(InvalidQuery) as refused:
            HistoryParams(max_history_size=bad)  # type: ignore[arg-type]
        assert refused.value.field == "max_history_size"
    with pytest.raises(InvalidQuery, match="max_tokens"):
        HistoryParams(max_tokens=0)
    with pytest.raises(InvalidQuery, match=r"messages\[1\]\.role"):
        manage([{"role": "system", "content": "x"}, {"role": "robot", "content": "y"}], HistoryParams())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("whole_history", WholeHistory()),
        ("WholeHistory", WholeHistory()),
        ("from_last_n_messages:20", FromLastNMessages(20)),
        (" chunked : 5 ", Chunked(5)),
        ("from_timestamp:2025-03-01T09:00:00Z", FromTimestamp(START)),
        ("whole-history-multiple-system-messages", WholeHistoryMultipleSystemMessages()),
        ({"type": "chunked", "size": 5}, Chunked(5)),
        ({"type": "FromLastNMessages", "n": "7"}, FromLastNMessages(7)),
        ({"type": "from_timestamp", "timestamp": "2025-03-01T10:00:00+01:00"}, FromTimestamp(START)),
        ({"type": "whole_history"}, WholeHistory()),
    ],
)
def test_strategies_parse_from_text_and_json_objects(text: Any, expected: Strategy) -> None:
    parsed = parse_strategy(text)
    assert parsed == expected
    assert parse_strategy(str(parsed)) == parsed  # the text form reads back


@pytest.mark.parametrize(
    ("value", "field", "reason"),
    [
        ("squash", "compression_strategy", "unknown compression strategy"),
        ("chunked", "compression_strategy", "needs its size"),
        ("chunked:0", "compression_strategy", "at least 1"),
        ("from_last_n_messages:many", "compression_strategy", "whole number"),
        ("whole_history:3", "compression_strategy", "takes no argument"),
        ("from_timestamp:yesterday", "compression_strategy", "ISO 8601"),
        ({"type": "chunked"}, "compression_strategy.size", "needs its size"),
        ({"type": "chunked", "size": 2.5}, "compression_strategy.size", "whole number"),
        (5, "compression_strategy", "strategy's name"),
    ],
)
def test_bad_strategies_are_refused_naming_the_field(value: Any, field: str, reason: str) -> None:
    with pytest.raises(InvalidQuery, match=reason) as refused:
        parse_strategy(value)
    assert refused.value.field == field
    with pytest.raises(InvalidQuery) as renamed:
        parse_strategy(value, "history_compression")
    assert renamed.value.field.startswith("history_compression")


def test_a_message_without_a_timestamp_takes_the_one_before_it() -> None:
    stamped = [True, False, False, True, False]
    messages = [
        Message("user", said(n), timestamp=START + timedelta(minutes=n) if s else None) for n, s in enumerate(stamped)
    ]
    assert moments(messages)[1:3] == [START, START] and moments(messages)[4] == START + timedelta(minutes=3)
    unstamped = [Message("system", "s"), *[Message("assistant" if n % 2 else "user", said(n)) for n in range(12)]]
    managed = manage(unstamped, HistoryParams(FromTimestamp(START)))  # no timestamp at all: older than any cutoff
    assert managed.report.summarized == tuple(range(2, 13))


@settings(max_examples=30)
@given(texts=st.lists(st.text(max_size=60), min_size=1, max_size=8), names=st.lists(st.sampled_from(["a", "b"])))
def test_cached_and_on_demand_counts_agree_and_the_cache_tokenizes_each_message_once(
    texts: list[str], names: list[str]
) -> None:
    messages = [Message("assistant", text, name=names[0] if names else None) for text in texts]
    cached, on_demand = TokenCounter(), TokenCounter(caching=False)
    for _ in range(3):
        assert cached.total(messages) == on_demand.total(messages)
    assert cached.tokenized == len({m.content for m in messages})
    assert on_demand.tokenized == 3 * len(messages)


def test_a_message_costs_its_text_its_tool_calls_and_four_tokens() -> None:
    call = ToolCall("c1", "search", '{"q": "harbour lantern"}')
    message = Message("assistant", "Looking it up.", tool_calls=(call,))
    expected = count_tokens("Looking it up.") + count_tokens("search") + count_tokens(call.arguments) + 4
    assert TokenCounter().count(message) == TokenCounter(caching=False).count(message) == expected
    small = TokenCounter(limit=4)
    for n in range(10):  # a full cache forgets its oldest half and goes on counting right
        assert small.count(Message("user", said(n))) == TokenCounter(caching=False).count(Message("user", said(n)))
    assert len(small._cache) <= 4


def test_the_docs_example_runs_and_prints_what_the_docs_show(capsys: pytest.CaptureFixture[str]) -> None:
    text = (REPO / "docs" / "history.md").read_text()
    found = re.search(r"^```python\n(.*?)^```\n\nprints\n\n```\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert found is not None
    example, shown = found.groups()
    exec(compile(example, "docs/history.md", "exec"), {})
    assert capsys.readouterr().out == shown
