"""Hostile input to chat messages and history compression: every bad value is a MemoirError naming its field.

A request's messages come from a client, so `Message.from_openai` meets any JSON value:
fields of the wrong type, ints past Python's 4,300 digits, lone surrogates, NUL, nesting
past the recursion limit. It either returns a message that can be sent on (to a model,
into the history's digest, back through `from_openai`) or raises `InvalidQuery` naming
the field, never a raw ValueError, RecursionError or UnicodeEncodeError.

`manage` then meets generated histories (0 to 60 messages of every role, tool calls with
their results, orphan results, memory messages, odd text, timestamps naive, aware or
missing) under generated parameters. It keeps seed 003's promises or raises one of its
typed errors: every system message stays, in order; without limits nothing is dropped and
nothing preserved is summarized; `max_tokens` and `max_history_size` hold; a preserved
message goes only after every other one has; the same history plus a few more messages
reuses the compressed prefix byte for byte, and another history's state is never reused.
Bad parameters are refused naming the parameter.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memoir.errors import InsufficientHistory, InvalidQuery, InvalidTokenLimit, MemoirError
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
from memoir.model.chat import ROLES, Message, ToolCall
from tests.unit.test_history import check_pairs, check_report

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
HUGE = 10**5000  # past Python's 4,300-digit limit: str(), repr() and json.dumps() of it raise ValueError


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


DEEP = nested(5_000)  # past the recursion limit of json.dumps and repr
NASTY = ["\ud800", "a\udfffb", "\x00", "nul\x00inside", "\r\n", "", "   ", "\u2028", "é" * 3, "🦀", "user", "tool"]


# Drawn by name: hypothesis shows what it draws with repr(), which fails on both.
def special(name: str) -> Any:
    return {"huge": HUGE, "-huge": -HUGE, "deep": DEEP}[name]


specials = st.sampled_from(["huge", "-huge", "deep"]).map(special)

hostile_text = (
    st.text(max_size=24)
    | st.text(st.characters(categories=["Cs", "Ll", "Cc", "Zs", "Nd"]), max_size=12)  # lone surrogates among them
    | st.sampled_from(NASTY)
)
leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**63, -(2**63) - 1])
    | specials
    | st.floats()
    | hostile_text
)
json_values = st.recursive(
    leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3), max_leaves=12
)

field_values = hostile_text | specials | json_values  # the nastiest leaves drawn often, not only deep inside
calls = st.fixed_dictionaries(
    {},
    optional={
        "id": field_values,
        "type": st.just("function") | json_values,
        "function": st.fixed_dictionaries({}, optional={"name": field_values, "arguments": field_values}) | json_values,
    },
)
content_parts = st.lists(
    st.fixed_dictionaries({"type": st.sampled_from(["text", "image_url"])}, optional={"text": hostile_text})
    | json_values,
    max_size=3,
)
message_dicts = st.builds(
    lambda fields, extra: {**extra, **fields},
    st.fixed_dictionaries(
        {},
        optional={
            "role": st.sampled_from(ROLES) | json_values,
            "content": hostile_text | content_parts | field_values,
            "tool_calls": st.lists(calls, max_size=2) | field_values,
            "tool_call_id": field_values,
            "name": field_values,
            "event_id": field_values,
            "timestamp": st.datetimes().map(datetime.isoformat) | json_values,
        },
    ),
    st.dictionaries(hostile_text, field_values, max_size=2),  # other OpenAI keys, kept and sent on
)

VALID = [
    {"role": "user", "content": "Hello there."},
    {"role": "system", "content": "Be brief."},
    {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f"}}]},
    {"role": "tool", "content": "ok", "tool_call_id": "c1", "name": "f"},
]
PLACES = [
    ("content",), ("name",), ("tool_call_id",), ("event_id",), ("timestamp",), ("tool_calls",), ("cache_control",),
    ("tool_calls", 0, "id"), ("tool_calls", 0, "function", "name"), ("tool_calls", 0, "function", "arguments"),
]  # fmt: skip


def mutated(base: dict[str, Any], changes: list[tuple[tuple[Any, ...], Any]]) -> dict[str, Any]:
    """A valid message with a few of its fields, or its tool call's, set to other values."""
    message: dict[str, Any] = json.loads(json.dumps(base))
    for place, value in changes:
        target: Any = message
        for step in place[:-1]:
            if isinstance(target, dict) and isinstance(step, str):
                target = target.get(step)
            elif isinstance(target, list) and isinstance(step, int) and step < len(target):
                target = target[step]
            else:
                target = None
        if isinstance(target, dict):  # the path is still there (an earlier change may have replaced it)
            target[place[-1]] = value
    return message


nastiest = st.sampled_from(["\ud800", "ok\udfff", "\x00"]) | specials | st.lists(specials, min_size=1, max_size=2)
near_valid = st.builds(
    mutated,
    st.sampled_from(VALID),
    st.lists(st.tuples(st.sampled_from(PLACES), nastiest | field_values), min_size=1, max_size=2),
)


def attempt(run: Callable[[], Any]) -> tuple[Any, MemoirError | None]:
    """What `run` gave, or the MemoirError it raised (any other exception goes through)."""
    try:
        return run(), None
    except MemoirError as exc:
        return None, exc


def wire(message: Message) -> bytes:
    """The message as a model receives it, in UTF-8: what must always be possible for an accepted message."""
    return json.dumps(message.to_openai(), ensure_ascii=False, sort_keys=True, default=str).encode()


# -- Message.from_openai --------------------------------------------------------------------------


@settings(max_examples=60)
@given(value=st.one_of(near_valid, near_valid, near_valid, message_dicts, json_values))  # mostly almost right
def test_any_json_value_is_a_sendable_message_or_an_invalid_query_naming_the_field(value: Any) -> None:
    message, refused = attempt(lambda: Message.from_openai(value))
    if refused is not None:
        assert isinstance(refused, InvalidQuery), f"{type(refused).__name__}: {refused}"
        assert refused.field == "message" or refused.field.startswith(("message.", "message[")), refused.field
        assert len(str(refused)) < 1_000  # the value is shown briefly, whatever its size
        return
    assert message.role in ROLES and isinstance(message.content, str)
    sent = wire(message)  # encodable: no lone surrogate, no unwritable int, no unwritable nesting anywhere
    again = Message.from_openai(message.to_openai())  # what memoir sends, it reads back as the same message
    assert wire(again) == sent and again.tool_calls == message.tool_calls
    assert TokenCounter(caching=False).count(message) >= 4


@settings(max_examples=40)
@given(value=st.one_of(near_valid, near_valid, message_dicts, json_values), position=st.integers(0, 3))
def test_a_bad_message_in_a_history_is_named_by_its_position(value: Any, position: int) -> None:
    good: list[Any] = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello there."}] * 2
    good.insert(position, value)
    try:
        Message.from_openai(value)
    except InvalidQuery:
        with pytest.raises(InvalidQuery) as refused:
            manage(good, HistoryParams(max_tokens=10_000))
        assert refused.value.field.startswith(f"messages[{position}]")
    else:
        assert len(manage(good, HistoryParams()).messages) == 5


def calling(call_id: str = "c", **function: Any) -> dict[str, Any]:
    """An assistant message calling one tool; `function` overrides its OpenAI function object."""
    return {"role": "assistant", "content": "", "tool_calls": [{"id": call_id, "function": {"name": "f", **function}}]}


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"role": "user", "content": "x", "tool_calls": False}, "message.tool_calls"),
        ({"role": "user", "content": "x", "tool_calls": 0}, "message.tool_calls"),
        (calling(arguments={"n": HUGE}), "message.tool_calls[0].function.arguments"),
        (calling(arguments=DEEP), "message.tool_calls[0].function.arguments"),
        (calling(arguments="\ud800"), "message.tool_calls[0].function.arguments"),
        (calling("\udc00"), "message.tool_calls[0].id"),
        (calling(name="f\ud800"), "message.tool_calls[0].function.name"),
        ({"role": "tool", "content": "ok", "tool_call_id": "c\ud800", "name": "f"}, "message.tool_call_id"),
        ({"role": "assistant", "content": "hi", "name": "\ud800"}, "message.name"),
        ({"role": "user", "content": "hi", "event_id": "\ud800"}, "message.event_id"),
        ({"role": "user", "content": "hi", "cache_control": {"n": HUGE}}, "message.cache_control"),
        ({"role": "user", "content": "hi", "cache_control": DEEP}, "message.cache_control"),
        ({"role": "user", "content": "hi", "cache_control": "\ud800"}, "message.cache_control"),
        ({"role": "user", "content": "hi", "\ud800": 1}, "message"),
        ({"role": "user", "content": [{"type": "text", "text": "hi"}, {"n": HUGE}]}, "message.content"),
        ({"role": "user", "content": [{"type": "text", "text": "hi"}, 5]}, "message.content[1]"),
        ({"role": "user", "content": []}, "message.content"),
    ],
    ids=lambda v: v if isinstance(v, str) else "value",
)
def test_values_no_request_can_carry_are_refused_where_they_are(value: dict[str, Any], field: str) -> None:
    """Refused at the field that holds them: let through, they broke later, far from it, as a raw
    ValueError, RecursionError or UnicodeEncodeError in `manage`'s digest or on the way to a model."""
    with pytest.raises(InvalidQuery) as refused:
        Message.from_openai(value)
    assert refused.value.field == field
    history = [{"role": "system", "content": "s"}, *[{"role": "user", "content": f"turn {n} here"} for n in range(10)]]
    with pytest.raises(InvalidQuery) as in_history:
        manage([*history, value], HistoryParams(WholeHistory()))
    assert in_history.value.field == field.replace("message", "messages[11]", 1)


def test_a_message_built_in_python_is_checked_as_one_from_a_request() -> None:
    with pytest.raises(InvalidQuery, match=r"tool_calls\[0\]\.function\.arguments"):
        Message("assistant", "", tool_calls=(ToolCall("c", "f", "\ud800"),))
    with pytest.raises(InvalidQuery, match=r"tool_calls\[0\]"):
        Message("assistant", "", tool_calls=("not a call",))  # type: ignore[arg-type]
    listed = Message("assistant", "", tool_calls=[ToolCall("c", "f")])  # type: ignore[arg-type]
    assert listed.tool_calls == (ToolCall("c", "f"),) and TokenCounter().count(listed) > 0  # hashable: counted


@settings(max_examples=40)
@given(text=hostile_text | st.text(max_size=200))
def test_token_counts_never_fail_whatever_the_text(text: str) -> None:
    assert count_tokens(text) >= 0


# -- generated histories -----------------------------------------------------------------------------

WORDS = ["harbour", "lantern", "kotlin", "storm", "keeper", "chart", "buoy", "tide", "ferry", "日本語", "🦀", "naïve"]
said = st.builds(
    lambda words, odd: " ".join(words) + ". " + odd,
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
    st.sampled_from(["", "Done!", "line\r\nbreak", "nul\x00byte", "tab\tand\u2028sep", "x" * 300, "é. É? e!"]),
)
stamps = (
    st.none()
    | st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2026, 1, 1))
    | st.builds(lambda minutes: START + timedelta(minutes=minutes), st.integers(-600, 600)).map(
        lambda d: d.astimezone(timezone(timedelta(hours=5)))
    )
)


def step(kind: str, text: str, when: datetime | None, n: int, calls: int) -> list[Message]:
    if kind == "system":
        return [Message("system", text, timestamp=when)]
    if kind == "user":
        return [Message("user", text, timestamp=when)]
    if kind == "memory":
        return [Message("user", f"{MEMORY_PREAMBLE}\n> [fact] {text}", timestamp=when)]
    if kind == "named memory":
        return [Message("assistant", text, name="memory", timestamp=when)]
    if kind == "orphan result":  # a result whose call is not before it: servers refuse it, manage must not crash
        return [Message("tool", text, tool_call_id=f"lost{n}", name="search", timestamp=when)]
    if kind == "tools":
        made = tuple(ToolCall(f"c{n}_{k}", "search", json.dumps({"q": text[:20]})) for k in range(calls))
        results = [Message("tool", text, tool_call_id=c.id, name="search", timestamp=when) for c in made]
        return [Message("assistant", "", tool_calls=made, timestamp=when), *results]
    return [Message("assistant", text, timestamp=when)]


KINDS = ["user", "user", "assistant", "assistant", "system", "memory", "named memory", "tools", "orphan result"]
steps = st.builds(step, st.sampled_from(KINDS), said, stamps, st.integers(0, 10**6), st.integers(1, 3))
histories = (st.lists(steps, max_size=6) | st.lists(steps, min_size=8, max_size=40)).map(
    lambda parts: [m for part in parts for m in part][:60]
)

STRATEGIES: list[Strategy | str | None] = [
    None,
    WholeHistory(),
    FromLastNMessages(1),
    FromLastNMessages(5),
    FromLastNMessages(10**6),
    Chunked(1),
    Chunked(3),
    Chunked(999_999_999),
    FromTimestamp(START),
    WholeHistoryMultipleSystemMessages(),
    "chunked:2",
    "from_last_n_messages:3",
]
limits = st.sampled_from([None, None, None, 10**30]) | st.integers(1, 60) | st.integers(1, 3_000)


def preserved(messages: Sequence[Message]) -> set[int]:
    """layout.py's rule, written apart: system, the first user message, memory, the open turn."""
    keep = {i for i, m in enumerate(messages) if m.role == "system" or m.name == "memory"}
    keep |= {i for i, m in enumerate(messages) if m.content.lstrip().startswith(MEMORY_PREAMBLE)}
    keep |= set([i for i, m in enumerate(messages) if m.role == "user"][:1])
    end = len(messages)
    while end > 0 and (messages[end - 1].role == "tool" or messages[end - 1].tool_calls):
        end -= 1
    if end == len(messages) and messages and messages[-1].role == "user":
        end -= 1
    return keep | set(range(end, len(messages)))


def well_paired(messages: Sequence[Message]) -> bool:
    try:
        check_pairs(messages)
    except AssertionError:
        return False
    return True


def outcome(run: Callable[[], Managed]) -> Any:
    """What a call gave: its messages on the wire, or the type of the MemoirError it raised."""
    managed, refused = attempt(run)
    return type(refused) if refused is not None else [wire(m) for m in managed.messages]


@settings(max_examples=60)
@given(
    messages=histories,
    strategy=st.sampled_from(STRATEGIES),
    max_tokens=limits,
    max_size=limits,
    caching=st.booleans(),
)
def test_manage_keeps_seed_003s_promises_or_raises_its_typed_errors(
    messages: list[Message],
    strategy: Strategy | str | None,
    max_tokens: int | None,
    max_size: int | None,
    caching: bool,
) -> None:
    text_or_strategy: Any = strategy  # HistoryParams takes a strategy's text form too
    params = HistoryParams(
        text_or_strategy, max_tokens=max_tokens, max_history_size=max_size, enable_token_caching=caching
    )
    systems = [m for m in messages if m.role == "system"]
    system_tokens = TokenCounter(caching=False).total(systems)
    if max_tokens is not None and max_tokens < system_tokens:
        with pytest.raises(InvalidTokenLimit) as low:
            manage(messages, params)
        assert (low.value.field, low.value.system_tokens, low.value.max_tokens) == (
            "max_tokens",
            system_tokens,
            max_tokens,
        )
        return
    if strategy is not None and len(messages) < 10:
        with pytest.raises(InsufficientHistory) as short:
            manage(messages, params)
        assert (short.value.message_count, short.value.minimum) == (len(messages), 10)
        return
    managed = manage(messages, params)
    check_report(messages, managed)
    assert [m for m in managed.messages if m.role == "system"] == systems  # every one, in order, whatever the limits
    if max_tokens is not None:
        assert managed.report.tokens_after <= max_tokens
    if max_size is not None:
        assert len(managed.messages) <= max(max_size, len(systems))
    keep = preserved(messages)
    if max_tokens is None and max_size is None:
        assert managed.report.dropped == ()  # no limit: nothing lost, only summarized
        assert keep <= set(managed.report.kept)  # never summarized: system, first user, memory, the open turn
    if set(managed.report.dropped) & keep:  # a preserved message goes last: nothing else may be left
        assert set(managed.report.kept) <= keep and not managed.report.summaries
    if well_paired(messages):
        check_pairs(managed.messages)  # a tool call leaves or stays with its results
    assert outcome(lambda: manage(messages, params)) == [wire(m) for m in managed.messages]  # the same, byte for byte


COMPRESSING: list[Strategy] = [s for s in STRATEGIES if s is not None and not isinstance(s, str)]


@settings(max_examples=40)
@given(
    messages=histories.filter(lambda h: len(h) >= 10),
    more=st.lists(steps, min_size=1, max_size=4).map(lambda parts: [m for part in parts for m in part][:9]),
    strategy=st.sampled_from(COMPRESSING),
)
def test_the_same_history_with_a_few_more_messages_keeps_the_compressed_prefix_byte_for_byte(
    messages: list[Message], more: list[Message], strategy: Strategy
) -> None:
    params = HistoryParams(strategy)
    first = manage(messages, params)
    assert first.state is not None
    prefix = [wire(m) for m in first.messages]
    for sent in ([*messages, *more], [*first.messages, *more]):  # the whole history again, or the managed one back
        again = manage(sent, params, state=first.state)
        assert again.report.reused, "fewer than 10 messages were added: the compression is reused as it was"
        assert [wire(m) for m in again.messages] == prefix + [wire(m) for m in more]
    rolled = [*messages, *more, *[Message("user", f"turn {n} about the harbour lantern.") for n in range(10)]]
    later = manage(rolled, params, state=first.state)  # the next compression: earlier summaries stay as they were
    assert {wire(s.message) for s in first.report.summaries} <= {wire(m) for m in later.messages}


@settings(max_examples=40)
@given(mine=histories.filter(lambda h: len(h) >= 10), theirs=histories, strategy=st.sampled_from(COMPRESSING))
def test_another_historys_state_is_never_reused(mine: list[Message], theirs: list[Message], strategy: Strategy) -> None:
    """A state carries summaries of one conversation: a history that does not begin with it gets nothing of it."""
    params = HistoryParams(strategy)
    first: Managed = manage(mine, params)
    head = [wire(m) for m in theirs]
    begins = head[: len(mine)] == [wire(m) for m in mine] or head[: len(first.messages)] == [
        wire(m) for m in first.messages
    ]
    if begins:
        return
    assert outcome(lambda: manage(theirs, params, state=first.state)) == outcome(lambda: manage(theirs, params))


# -- bad parameters --------------------------------------------------------------------------------

not_a_count = (
    st.integers(max_value=0)
    | st.floats()
    | st.booleans()
    | hostile_text
    | st.sampled_from(["-huge", "deep"]).map(special)
    | st.sampled_from([[5], {"n": 5}, "10", b"10"])
)


@settings(max_examples=50)
@given(name=st.sampled_from(["max_tokens", "max_history_size"]), value=not_a_count)
def test_a_limit_that_is_not_a_whole_number_of_at_least_one_is_refused_naming_it(name: str, value: Any) -> None:
    with pytest.raises(InvalidQuery) as refused:
        HistoryParams(**{name: value})
    assert refused.value.field == name and len(str(refused.value)) < 500


@settings(max_examples=30)
@given(value=json_values.filter(lambda v: not isinstance(v, bool)))
def test_token_caching_is_true_or_false(value: Any) -> None:
    with pytest.raises(InvalidQuery) as refused:
        HistoryParams(enable_token_caching=value)
    assert refused.value.field == "enable_token_caching"


strategy_values = json_values | st.fixed_dictionaries(
    {"type": st.sampled_from(["chunked", "from_last_n_messages", "from_timestamp", "whole_history"]) | json_values},
    optional={"size": json_values, "n": json_values, "timestamp": json_values, "count": json_values},
)


@settings(max_examples=60)
@given(
    value=strategy_values
    | st.builds(lambda n, a: f"{n}:{a}", st.sampled_from(["chunked", "from_timestamp"]), hostile_text)
)
def test_any_strategy_value_is_a_strategy_or_refused_naming_the_field(value: Any) -> None:
    parsed, refused = attempt(lambda: parse_strategy(value))
    if refused is not None:
        assert isinstance(refused, InvalidQuery), f"{type(refused).__name__}: {refused}"
        assert refused.field.startswith("compression_strategy") and len(str(refused)) < 1_000
        return
    assert parse_strategy(str(parsed)) == parsed  # its text form reads back
    assert HistoryParams(parsed).compression_strategy == parsed


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: FromLastNMessages(0), "n"),
        (lambda: FromLastNMessages(-(10**40)), "n"),
        (lambda: FromLastNMessages("5"), "n"),  # type: ignore[arg-type]
        (lambda: Chunked(-1), "size"),
        (lambda: Chunked(2.0), "size"),  # type: ignore[arg-type]
        (lambda: Chunked(True), "size"),
        (lambda: FromTimestamp("2025-01-01"), "timestamp"),  # type: ignore[arg-type]
        (lambda: parse_strategy({"type": HUGE}), "compression_strategy.type"),
        (lambda: parse_strategy({"type": DEEP}), "compression_strategy.type"),
        (lambda: parse_strategy({"type": "chunked", "size": HUGE}), "compression_strategy.size"),
        (lambda: parse_strategy({"type": "from_last_n_messages", "n": -HUGE}), "compression_strategy.n"),
        (lambda: manage([], {"max_tokens": 5}), "params"),  # type: ignore[arg-type]
        (lambda: manage([], "whole_history"), "params"),  # type: ignore[arg-type]
        (lambda: manage([], HistoryParams(), state={"covered": 3}), "state"),  # type: ignore[arg-type]
        (lambda: manage({"role": "user", "content": "hi"}), "messages"),  # type: ignore[arg-type]
        (lambda: manage("hello"), "messages"),  # type: ignore[arg-type]
    ],
)
def test_bad_parameters_are_refused_naming_the_parameter(make: Any, field: str) -> None:
    with pytest.raises(InvalidQuery) as refused:
        make()
    assert refused.value.field == field


def test_a_state_from_an_unrelated_strategy_or_history_is_simply_not_used() -> None:
    history = [
        Message("system", "s"),
        *[Message("user" if n % 2 else "assistant", f"turn {n} here.") for n in range(12)],
    ]
    state = manage(history, HistoryParams(WholeHistory())).state
    other = manage(history, HistoryParams(Chunked(2)), state=state)
    assert not other.report.reused and other.messages == manage(history, HistoryParams(Chunked(2))).messages
    shorter = manage(history[:5], HistoryParams(), state=state)  # no strategy: the state is not even looked at
    assert shorter.messages == history[:5]
    edited = [history[0], replace(history[1], content="An earlier turn, edited."), *history[2:]]
    redone = manage(edited, HistoryParams(WholeHistory()), state=state)  # an edited past: compressed anew
    assert not redone.report.reused and redone.messages == manage(edited, HistoryParams(WholeHistory())).messages
